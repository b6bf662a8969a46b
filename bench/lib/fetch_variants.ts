/**
 * What one GET of a workspace over HTTP costs piece by piece: a raw fetch
 * (as line 1's raw side: `fetch(url, init)` + `text()` + `JSON.parse`),
 * the same fetch given an AbortSignal of its own or one signal shared by
 * every request, or `redirect: "manual"` (as the transport sends), the SDK's transport alone (`transport.call`, no resource
 * layer), the transport plus the notebook display hook the resources
 * attach (`displayResource`), and the SDK's `workspaces.get`. All against
 * the same CLI server, interleaved: each round runs a batch of 20 calls of
 * every variant in a rotating order, and a variant's figure is the median
 * over rounds of its batch time divided by the raw batch's of the same
 * round (with the noise of line 1: 1.58 x IQR / sqrt(rounds)).
 *
 * `deno run -A bench/lib/fetch_variants.ts [--rounds N] [--only a,b]`
 * prints one line per variant.
 *
 * @module
 */
import { httpTarget, rawToken } from "../api_views.ts";
import { BUCKETS } from "./penguins.ts";
import { median } from "./stats.ts";
import { displayResource } from "../../src/resources/display.ts";
import { routes } from "../../src/schemas/routes.ts";

/** One variant's figure. */
export interface VariantFigure {
  /** Median µs of one call (the batch's mean). */
  us: number;
  /** Median over rounds of batch time / the raw batch's. */
  ratio: number;
  /** 1.58 x IQR / sqrt(rounds) of those ratios. */
  noise: number;
}

/** The variants, in the order they are printed. */
export const VARIANTS = [
  "raw",
  "raw + own signal",
  "raw + shared signal",
  "raw + manual redirects",
  "transport",
  "transport + display hook",
  "sdk",
] as const;

/**
 * Measures the variants (all, or those named in `only`; `raw` always).
 *
 * @example
 * ```ts
 * import { fetchVariants } from "./fetch_variants.ts";
 * const figures = await fetchVariants({ rounds: 2, only: ["sdk"] });
 * if (figures.raw.ratio !== 1 || !(figures.sdk.us > 0)) throw new Error();
 * ```
 */
export async function fetchVariants(
  options: { rounds?: number; only?: readonly string[] } = {},
): Promise<Record<string, VariantFigure>> {
  const target = await httpTarget(BUCKETS);
  try {
    const token = await rawToken(target);
    const ws = await target.ml.workspaces.create({ name: "variants" });
    const url = `${target.baseUrl}/workspaces/${ws.id}`;
    const auth = {
      accept: "application/json",
      authorization: `Bearer ${token}`,
    };
    const shared = new AbortController();
    const get = async (signal?: AbortSignal, redirect?: RequestRedirect) => {
      const res = await fetch(url, {
        method: "GET",
        headers: auth,
        signal,
        redirect,
      });
      return JSON.parse(await res.text());
    };
    // The transport of the client (reached through a resource, as the
    // resources reach it), without the resource layer.
    const call = () =>
      (target.ml.workspaces as unknown as {
        transport: { call: (r: unknown, o: unknown) => Promise<unknown> };
      }).transport.call(routes.workspaces.get, { params: { id: ws.id } });
    const all: Record<string, () => Promise<unknown>> = {
      "raw": () => get(),
      "raw + own signal": () => get(new AbortController().signal),
      "raw + shared signal": () => get(shared.signal),
      // The transport follows redirects itself (`redirect: "manual"`).
      "raw + manual redirects": () => get(undefined, "manual"),
      "transport": call,
      "transport + display hook": async () =>
        displayResource(await call(), "Workspace"),
      "sdk": () => target.ml.workspaces.get(ws.id),
    };
    const names = Object.keys(all).filter((n) =>
      n === "raw" || !options.only || options.only.includes(n)
    );
    const times: Record<string, number[]> = Object.fromEntries(
      names.map((n) => [n, []]),
    );
    const rounds = options.rounds ?? 400;
    for (let round = -Math.min(20, rounds); round < rounds; round++) {
      for (let k = 0; k < names.length; k++) {
        const name = names[(k + round + names.length * 20) % names.length];
        const t0 = performance.now();
        for (let i = 0; i < 20; i++) await all[name]();
        if (round >= 0) times[name].push((performance.now() - t0) * 50);
      }
    }
    const out: Record<string, VariantFigure> = {};
    for (const name of names) {
      const ratios = times[name].map((t, i) => t / times.raw[i]).sort((a, b) =>
        a - b
      );
      const q = (f: number) => ratios[Math.floor(f * (ratios.length - 1))];
      out[name] = {
        us: median(times[name]),
        ratio: median(ratios),
        noise: 1.58 * (q(0.75) - q(0.25)) / Math.sqrt(ratios.length),
      };
    }
    return out;
  } finally {
    await target.close();
  }
}

if (import.meta.main) {
  const at = (flag: string) => {
    const i = Deno.args.indexOf(flag);
    return i < 0 ? undefined : Deno.args[i + 1];
  };
  const rounds = at("--rounds") ? Number(at("--rounds")) : undefined;
  const only = at("--only")?.split(",");
  const figures = await fetchVariants({ rounds, only });
  for (const [name, f] of Object.entries(figures)) {
    console.log(
      `${name.padEnd(26)} ${f.us.toFixed(1).padStart(6)} µs a call, ${
        f.ratio.toFixed(3)
      }x raw ±${f.noise.toFixed(3)}`,
    );
  }
}
