/**
 * Where a one-row views call over HTTP loses time, layer by layer: a raw
 * `fetch` + `JSON.parse` (line 1's raw side), the same with the SDK's extra
 * `x-views-cache-control` header, the SDK's attempt alone (`attempt()` of
 * exchange.ts: its signal, `redirect: "manual"`, `text()` + parse), the
 * same with a body string or a headers object made afresh each call (as
 * the transport makes them), a raw fetch with a fresh body, the
 * transport's `call` (no resource layer), the resource
 * (`deployedModels.views`, body already validated) and the SDK's
 * `deployment.views(row)`. Each variant runs a block of calls in a rotating
 * order per round; the figures are the median wall time per call, its
 * median ratio to the raw block of the same round, and the main thread's
 * CPU per call (`/proc/self/task/<pid>/stat`: JavaScript and the fetch's
 * I/O, which Deno runs on the main thread), the mean over rounds.
 *
 * `deno run -A bench/lib/views_layers.ts [--rounds N] [--calls N] [--base
 * DIR]` prints one line per variant; with `--base`, the SDK of another
 * tree (e.g. main's, from `git archive`) runs its `transport.call`,
 * `deployedModels.views` and `deployment.views(row)` in the same rounds
 * against the same server, for an A/B in one run.
 *
 * @module
 */
import { mainThreadCpu } from "./proc.ts";
import { httpTarget, rawToken } from "../api_views.ts";
import { BUCKETS, deployPenguins, penguinsQuery } from "./penguins.ts";
import { median } from "./stats.ts";
import { attempt } from "../../src/http/exchange.ts";
import { Deadlines, TimeoutSignals } from "../../src/http/deadlines.ts";
import { routes } from "../../src/schemas/routes.ts";

/** One variant's figures. */
export interface LayerFigure {
  /** Median µs of one call (the block's mean). */
  us: number;
  /** Median over rounds of block time / the raw block's. */
  ratio: number;
  /** Mean main-thread CPU µs per call (10 ms ticks: needs many calls). */
  cpu: number;
}

/**
 * Measures the layers against one CLI server.
 *
 * @example
 * ```ts
 * import { viewsLayers } from "./views_layers.ts";
 * const figures = await viewsLayers({ rounds: 1, calls: 2 });
 * if (figures.raw.ratio !== 1 || !(figures.sdk.us > 0)) throw new Error();
 * ```
 */
export async function viewsLayers(
  options: { rounds?: number; calls?: number; base?: string } = {},
): Promise<Record<string, LayerFigure>> {
  const target = await httpTarget(BUCKETS);
  try {
    const deployment = await deployPenguins(target);
    const row = await penguinsQuery(1);
    const token = await rawToken(target);
    const request = deployment.query(row).body();
    const body = JSON.stringify(request);
    const url = `${target.baseUrl}/deployed-models/${deployment.id}/views`;
    const plain = {
      accept: "application/json",
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
    };
    const withCache = {
      ...plain,
      "x-views-cache-control": "no-cache, no-store",
    };
    const raw = async (headers: Record<string, string>) => {
      const res = await fetch(url, { method: "POST", headers, body });
      return JSON.parse(await res.text());
    };
    const runner = {
      timeouts: new TimeoutSignals({ keepAlive: false }),
      deadlines: new Deadlines(),
    };
    const outgoing = {
      method: "POST",
      url,
      sameOrigin: true,
      headers: withCache,
      body,
    };
    const transport = (target.ml.deployedModels as unknown as {
      transport: { call: (r: unknown, o: unknown) => Promise<unknown> };
    }).transport;
    const all: Record<string, () => Promise<unknown>> = {
      "raw": () => raw(plain),
      "raw + cache header": () => raw(withCache),
      "attempt": () =>
        attempt(runner, outgoing, withCache, {
          operation: "views",
          timeout: 60_000,
        }),
      "attempt, fresh body": () =>
        attempt(
          runner,
          { ...outgoing, body: JSON.stringify(request) },
          withCache,
          {
            operation: "views",
            timeout: 60_000,
          },
        ),
      "attempt, fresh headers": () =>
        attempt(runner, outgoing, { ...withCache }, {
          operation: "views",
          timeout: 60_000,
        }),
      "raw, fresh body": async () => {
        const res = await fetch(url, {
          method: "POST",
          headers: plain,
          body: JSON.stringify(request),
        });
        return JSON.parse(await res.text());
      },
      "transport.call": () =>
        transport.call(routes.deployedModels.views, {
          params: { id: deployment.id },
          body: request,
          validated: true,
        }),
      "deployedModels.views": () =>
        target.ml.deployedModels.views(deployment.id, request as never, {
          validated: true,
        }),
      "sdk": () => deployment.views(row),
    };
    if (options.base) {
      // The other tree's client, against the same server and deployment.
      const root = new URL(`file://${Deno.realPathSync(options.base)}/`);
      const other = await import(new URL("mod.ts", root).href) as {
        connect: typeof import("../../mod.ts").connect;
      };
      const ml = other.connect({
        baseUrl: target.baseUrl,
        ...target.credentials,
        progress: false,
      });
      const baseDeployment = await ml.deployment(deployment.id);
      const baseTransport = (ml.deployedModels as unknown as {
        transport: { call: (r: unknown, o: unknown) => Promise<unknown> };
      }).transport;
      const baseRoutes = (await import(
        new URL("src/schemas/routes.ts", root).href
      ) as { routes: typeof routes }).routes;
      all["base transport.call"] = () =>
        baseTransport.call(baseRoutes.deployedModels.views, {
          params: { id: deployment.id },
          body: request,
          validated: true,
        });
      all["base deployedModels.views"] = () =>
        ml.deployedModels.views(deployment.id, request as never, {
          validated: true,
        });
      all["base sdk"] = () => baseDeployment.views(row);
    }
    const names = Object.keys(all);
    const wall: Record<string, number[]> = {};
    const cpu: Record<string, number[]> = {};
    for (const n of names) [wall[n], cpu[n]] = [[], []];
    const rounds = options.rounds ?? 30;
    const calls = options.calls ?? 200;
    for (let round = -Math.min(3, rounds); round < rounds; round++) {
      for (let k = 0; k < names.length; k++) {
        const name = names[(k + round + names.length * 3) % names.length];
        const c0 = mainThreadCpu();
        const t0 = performance.now();
        for (let i = 0; i < calls; i++) await all[name]();
        const us = (performance.now() - t0) * 1000 / calls;
        if (round >= 0) {
          wall[name].push(us);
          cpu[name].push((mainThreadCpu() - c0) / calls);
        }
      }
    }
    const out: Record<string, LayerFigure> = {};
    for (const n of names) {
      out[n] = {
        us: median(wall[n]),
        ratio: median(wall[n].map((w, i) => w / wall.raw[i])),
        cpu: cpu[n].reduce((a, b) => a + b, 0) / cpu[n].length,
      };
    }
    return out;
  } finally {
    await target.close();
  }
}

if (import.meta.main) {
  const arg = (flag: string) => {
    const i = Deno.args.indexOf(flag);
    return i < 0 ? undefined : Deno.args[i + 1];
  };
  const at = (flag: string) => {
    const value = arg(flag);
    return value === undefined ? undefined : Number(value);
  };
  const figures = await viewsLayers({
    rounds: at("--rounds"),
    calls: at("--calls"),
    base: arg("--base"),
  });
  for (const [name, f] of Object.entries(figures)) {
    console.log(
      `${name.padEnd(26)} ${f.us.toFixed(1).padStart(6)} µs a call, ${
        f.ratio.toFixed(3)
      }x raw, main thread ${f.cpu.toFixed(1)} µs CPU`,
    );
  }
}
