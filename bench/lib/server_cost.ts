/**
 * The views server's CPU per one-row call, piece by piece, without a
 * network: the whole call through the app in-process (`app.fetch` of a
 * `Request` and the answer's text: everything the server does but Deno's
 * HTTP code), the model's `contributionTable` alone, the body's parse
 * (`JSON.parse` + the views shortcut) and `Response.json` of the answer.
 * The `request` case is the `Request` the app case builds (not the server's
 * work: subtract it). Samples are the process's CPU time over 400 calls, cases interleaved round
 * by round; figures are medians (µs a call).
 *
 * `deno run -A bench/lib/server_cost.ts [--rounds 30]`; with `--profile
 * <case> [--calls 100000]` it runs that case alone in a loop, for `deno run
 * --cpu-prof` or `perf stat` (instructions a call: the difference of two
 * runs with different `--calls`, over the difference of calls).
 *
 * @module
 */
import { local } from "../../local.ts";
import { rawToken, type ViewsTarget } from "../api_views.ts";
import { BUCKETS, deployPenguins, penguinsQuery } from "./penguins.ts";
import { measureCases } from "./proc.ts";
import { openSqliteStore } from "../../src/local/store/sqlite_store.ts";
import { modelBlobs } from "../../src/local/store/blobs.ts";
import { contributionTable } from "../../src/local/model/explain.ts";
import { fastViewsRequest } from "../../src/schemas/views_fast.ts";

/** The cases of {@linkcode serverCost}, on a platform of their own. */
export interface ServerCases {
  /** Each case: one call. */
  cases: Record<string, () => unknown>;
  /** Stops the platform and removes its files. */
  close(): Promise<void>;
}

/**
 * Starts a platform with the penguins model deployed and returns the cases
 * (`app`, `request`, `table`, `parse`, `json`) on it.
 */
export async function serverCases(): Promise<ServerCases> {
  const dir = await Deno.makeTempDir({ prefix: "server_cost" });
  const ml = await local({ buckets: BUCKETS, dataDir: dir, progress: false });
  let store: Awaited<ReturnType<typeof openSqliteStore>> | undefined;
  const close = async () => {
    store?.close();
    await ml.close();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  };
  try {
    const target: ViewsTarget = {
      ml,
      baseUrl: ml.platform.baseUrl,
      send: (request) => ml.platform.fetch(request),
      credentials: ml.platform.credentials,
      close: () => ml.close(),
    };
    const deployment = await deployPenguins(target, 64);
    const token = await rawToken(target);
    const text = JSON.stringify(
      deployment.query(await penguinsQuery(1)).body(),
    );
    const modelId = deployment.resource.model.id;
    // The stored model, read as serving loads it (a second reader of the
    // platform's SQLite files, opened once the model is there; without the
    // data directory's lock, which the running platform holds).
    store = await openSqliteStore(dir, { lock: false });
    const model = structuredClone(modelBlobs.read(store, modelId)!);
    const body = fastViewsRequest(JSON.parse(text))!;
    const url = `${target.baseUrl}/deployed-models/${deployment.id}/views`;
    const headers = {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      "content-length": String(new TextEncoder().encode(text).length),
    };
    const table = contributionTable(model, body.query, body.targets);
    const cases: Record<string, () => unknown> = {
      app: async () => {
        const res = await ml.platform.fetch(
          new Request(url, { method: "POST", headers, body: text }),
        );
        if (res.status !== 200) throw new Error(await res.text());
        await res.text();
      },
      // The app case's own Request, to subtract.
      request: () => new Request(url, { method: "POST", headers, body: text }),
      table: () => contributionTable(model, body.query, body.targets),
      parse: () => fastViewsRequest(JSON.parse(text)),
      json: () => Response.json(table, { headers: { "x-a": "b" } }),
    };
    return { cases, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * Median CPU µs a call of each case, or, with `profile`, runs that case
 * `calls` times and returns nothing.
 *
 * @example
 * ```ts
 * import { serverCost } from "./server_cost.ts";
 * const cost = (await serverCost({ rounds: 1 }))!;
 * if (!(cost.app > cost.table && cost.table > 0)) throw new Error(JSON.stringify(cost));
 * ```
 */
export async function serverCost(
  options: { rounds?: number; profile?: string; calls?: number } = {},
): Promise<Record<string, number> | undefined> {
  const { cases, close } = await serverCases();
  try {
    if (options.profile) {
      const run = cases[options.profile];
      if (!run) throw new Error(`no case ${options.profile}`);
      console.error(`calls of ${options.profile}: start`);
      for (let i = 0; i < (options.calls ?? 100_000); i++) await run();
      console.error(`calls of ${options.profile}: end`);
      return undefined;
    }
    return await measureCases(cases, options.rounds);
  } finally {
    await close();
  }
}

if (import.meta.main) {
  const at = (flag: string) => {
    const i = Deno.args.indexOf(flag);
    return i < 0 ? undefined : Deno.args[i + 1];
  };
  const profile = at("--profile");
  const rounds = at("--rounds") ? Number(at("--rounds")) : undefined;
  const calls = at("--calls") ? Number(at("--calls")) : undefined;
  const cost = await serverCost({ profile, rounds, calls });
  if (cost) {
    for (const [name, us] of Object.entries(cost)) {
      console.log(`${name.padEnd(6)} ${us.toFixed(1).padStart(6)} µs a call`);
    }
    console.log(`load ${Deno.loadavg().join(" ")}`);
  }
}
