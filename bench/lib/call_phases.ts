/**
 * Where one call's time goes, SDK against raw, split at the fetch: the time
 * before fetch is called (building and checking the request; the raw side
 * only builds a `Request` in-process, nothing over HTTP), the fetch itself
 * (until the answer's headers; in-process this is the platform's handler),
 * and the time after (reading the body, checking and wrapping the answer).
 * The fetch is observed by wrapping the one the calls go through: the
 * platform's `fetch` in-process, the global `fetch` over HTTP.
 *
 * SDK and raw calls alternate one by one (or in runs of `--batch` calls),
 * and each phase is the median over all calls after a warm-up fifth, so a
 * slow moment of the shared machine hits both sides alike.
 *
 * `deno run -A bench/lib/call_phases.ts [in-process|http] [get|views]
 * [--calls N] [--batch B]` prints one line per side.
 *
 * @module
 */
import {
  httpTarget,
  inProcessTarget,
  rawToken,
  type ViewsTarget,
} from "../api_views.ts";
import { BUCKETS, deployPenguins, penguinsQuery } from "./penguins.ts";
import { median } from "./stats.ts";

/** Median µs of each phase of one side's calls. */
export interface Phases {
  /** From the call to fetch being called. */
  before: number;
  /** fetch, until the answer's headers (in-process: the handler). */
  fetch: number;
  /** From the headers to the call's result. */
  after: number;
  /** Mean µs of the whole call: a slow call (one a garbage collection falls on) counts in full. */
  mean: number;
}

/** Options of {@linkcode callPhases}. */
export interface CallPhasesOptions {
  /** `"in-process"` (default) or `"http"`. */
  where?: "in-process" | "http";
  /** `"get"` (one workspace, default) or `"views"` (one row). */
  call?: "get" | "views";
  /** Calls in all, both sides (default 20,000). */
  calls?: number;
  /** Calls of one side in a row before the other's (default 1). */
  batch?: number;
}

type Fetch = (
  input: RequestInfo | URL,
  init?: RequestInit,
) => Promise<Response>;

/**
 * Times the SDK's and the raw call's phases.
 *
 * @example
 * ```ts
 * import { callPhases } from "./call_phases.ts";
 * const { sdk, raw } = await callPhases({ calls: 40 });
 * if (!(sdk.fetch > 0 && raw.after > 0)) throw new Error("phases are times");
 * ```
 */
export async function callPhases(
  options: CallPhasesOptions = {},
): Promise<{ sdk: Phases; raw: Phases }> {
  const where = options.where ?? "in-process";
  const target: ViewsTarget = where === "http"
    ? await httpTarget(BUCKETS)
    : await inProcessTarget(BUCKETS);
  // The fetch the calls go through, wrapped to note when it is called and
  // when it answers.
  let called = 0, answered = 0;
  const observe = (inner: Fetch): Fetch => (input, init) => {
    called = performance.now();
    const answer = inner(input, init);
    answer.then(() => (answered = performance.now()), () => {});
    return answer;
  };
  const platform = (target.ml as unknown as {
    platform?: { fetch: (request: Request) => Promise<Response> };
  }).platform;
  const globalFetch = globalThis.fetch;
  try {
    const token = await rawToken(target);
    const auth = {
      accept: "application/json",
      authorization: `Bearer ${token}`,
    };
    let sdk: () => Promise<unknown>;
    let url: string;
    let init: RequestInit;
    if (options.call === "views") {
      const deployment = await deployPenguins(target);
      const row = await penguinsQuery(1);
      sdk = () => deployment.views(row);
      url = `${target.baseUrl}/deployed-models/${deployment.id}/views`;
      init = {
        method: "POST",
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify(deployment.query(row).body()),
      };
    } else {
      const workspace = await target.ml.workspaces.create({ name: "phases" });
      sdk = () => target.ml.workspaces.get(workspace.id);
      url = `${target.baseUrl}/workspaces/${workspace.id}`;
      init = { headers: auth };
    }
    let raw: () => Promise<unknown>;
    if (platform) {
      const inner = platform.fetch;
      const observed = observe((input) => inner(input as Request));
      platform.fetch = (request) => observed(request);
      raw = async () =>
        JSON.parse(await (await platform.fetch(new Request(url, init))).text());
    } else {
      globalThis.fetch = observe(globalFetch) as typeof fetch;
      raw = async () => JSON.parse(await (await fetch(url, init)).text());
    }
    const sides = { sdk, raw };
    const empty = () => ({
      before: [] as number[],
      fetch: [] as number[],
      after: [] as number[],
      all: [] as number[],
    });
    const phases = { sdk: empty(), raw: empty() };
    const calls = options.calls ?? 20_000;
    const batch = options.batch ?? 1;
    for (let i = 0; i < calls; i++) {
      const side = Math.floor(i / batch) % 2 ? "raw" : "sdk";
      const t0 = performance.now();
      await sides[side]();
      const t1 = performance.now();
      if (i < calls / 5) continue;
      phases[side].before.push((called - t0) * 1000);
      phases[side].fetch.push((answered - called) * 1000);
      phases[side].after.push((t1 - answered) * 1000);
      phases[side].all.push((t1 - t0) * 1000);
    }
    const medians = (p: typeof phases.sdk): Phases => ({
      before: median(p.before),
      fetch: median(p.fetch),
      after: median(p.after),
      mean: p.all.reduce((a, b) => a + b, 0) / p.all.length,
    });
    return { sdk: medians(phases.sdk), raw: medians(phases.raw) };
  } finally {
    globalThis.fetch = globalFetch;
    await target.close();
  }
}

if (import.meta.main) {
  const args = [...Deno.args];
  const flag = (name: string) => {
    const at = args.indexOf(name);
    if (at < 0) return undefined;
    const value = Number(args[at + 1]);
    args.splice(at, 2);
    return value;
  };
  const calls = flag("--calls");
  const batch = flag("--batch");
  const where = args.includes("http") ? "http" : "in-process";
  const call = args.includes("views") ? "views" : "get";
  const { sdk, raw } = await callPhases({ where, call, calls, batch });
  for (const [side, p] of Object.entries({ sdk, raw })) {
    console.log(
      `${where} ${call} ${side.padEnd(3)}: before fetch ${
        p.before.toFixed(1)
      } µs, fetch ${p.fetch.toFixed(1)} µs, after ${
        p.after.toFixed(1)
      } µs; a call's median ${
        (p.before + p.fetch + p.after).toFixed(1)
      } µs, mean ${p.mean.toFixed(1)} µs`,
    );
  }
}
