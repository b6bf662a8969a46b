/**
 * The client's own CPU per call, without a server: each call of line 1 (a
 * GET of one workspace, a create, a list page, a one-row views call) is
 * answered from a recording of the local platform's real answer, so what
 * is timed is the SDK's work (building and checking the request, the
 * transport, checking and wrapping the answer) against a raw
 * `new Request` + `text()` + `JSON.parse` of the same recorded answer.
 * Samples are the process's CPU time over 400 calls, cases interleaved
 * round by round; figures are medians.
 *
 * `deno run -A bench/lib/client_cost.ts` prints one line per call; with
 * `--profile <case>` (e.g. `get.sdk`) it runs that case alone in a loop,
 * for `deno run --cpu-prof`.
 *
 * @module
 */
import { MLPlatform } from "../../mod.ts";
import { Deployment } from "../../src/builders/deployment.ts";
import { inProcessTarget, rawToken } from "../api_views.ts";
import { BUCKETS, deployPenguins, penguinsQuery } from "./penguins.ts";
import { measureCases } from "./proc.ts";

/** A recorded answer. */
interface Recorded {
  status: number;
  text: string;
  headers: [string, string][];
}

/** Client CPU per call (µs): SDK, raw, and what the SDK adds. */
export interface ClientCost {
  /** Median CPU µs of the SDK's call. */
  sdk: number;
  /** Median CPU µs of the raw call on the same recorded answer. */
  raw: number;
}

/**
 * Records the four calls' answers on an in-process platform, then times the
 * SDK and the raw side on them (CPU µs per call, medians of `rounds`).
 * With `profile`, runs only that case (`"get.sdk"`, `"views.raw"`, ...)
 * `calls` times and returns nothing.
 *
 * @example
 * ```ts
 * import { clientCost } from "./client_cost.ts";
 * const costs = (await clientCost({ rounds: 1 }))!;
 * if (!(costs.get.sdk > 0 && costs.views.raw > 0)) throw new Error();
 * ```
 */
export async function clientCost(
  options: { rounds?: number; profile?: string; calls?: number } = {},
): Promise<Record<string, ClientCost> | undefined> {
  const target = await inProcessTarget(BUCKETS);
  const recorded = new Map<string, Recorded>();
  let cases: Record<string, () => unknown>;
  try {
    const deployment = await deployPenguins(target);
    const row = await penguinsQuery(1);
    const token = await rawToken(target);
    const workspace = await target.ml.workspaces.create({ name: "cost" });
    for (let i = 0; i < 10; i++) {
      await target.ml.workspaces.create({ name: `cost-${i}` });
    }
    const auth = {
      accept: "application/json",
      authorization: `Bearer ${token}`,
    };
    const json = { ...auth, "content-type": "application/json" };
    const record = async (method: string, path: string, body?: string) => {
      const res = await target.send(
        new Request(`${target.baseUrl}${path}`, {
          method,
          headers: body === undefined ? auth : json,
          body,
        }),
      );
      recorded.set(`${method} ${path}`, {
        status: res.status,
        text: await res.text(),
        headers: [...res.headers],
      });
    };
    const viewsBody = JSON.stringify(deployment.query(row).body());
    const createBody = JSON.stringify({ name: "cost-recorded" });
    const paths = {
      get: ["GET", `/workspaces/${workspace.id}`],
      create: ["POST", "/workspaces", createBody],
      list: ["GET", "/workspaces?page=1&items_per_page=10"],
      views: ["POST", `/deployed-models/${deployment.id}/views`, viewsBody],
    } as const;
    for (const [method, path, body] of Object.values(paths)) {
      await record(method, path, body);
    }
    const tokenText = JSON.stringify({
      access_token: token,
      token_type: "Bearer",
      expires_in: 3600,
    });
    const replay = (request: Request): Promise<Response> => {
      const url = new URL(request.url);
      if (url.pathname === "/oauth/token") {
        return Promise.resolve(
          new Response(tokenText, {
            headers: { "content-type": "application/json" },
          }),
        );
      }
      const r = recorded.get(`${request.method} ${url.pathname}${url.search}`);
      if (!r) throw new Error(`nothing recorded for ${request.url}`);
      return Promise.resolve(
        new Response(r.text, { status: r.status, headers: r.headers }),
      );
    };
    const ml = new MLPlatform({
      baseUrl: target.baseUrl,
      ...target.credentials,
      fetch: ((input: Request) => replay(input)) as typeof fetch,
      progress: false,
    });
    const replayed = new Deployment(ml, deployment.resource, {
      features: [...(deployment.features ?? [])],
      targets: [...(deployment.targets ?? [])],
    });
    const raw = async (method: string, path: string, body?: string) => {
      const res = await replay(
        new Request(`${target.baseUrl}${path}`, {
          method,
          headers: body === undefined ? auth : json,
          body,
        }),
      );
      return JSON.parse(await res.text());
    };
    cases = {
      "get.sdk": () => ml.workspaces.get(workspace.id),
      "get.raw": () => raw(...paths.get),
      "create.sdk": () => ml.workspaces.create({ name: "cost-recorded" }),
      "create.raw": () => raw(...paths.create),
      "list.sdk": () => ml.workspaces.list(),
      "list.raw": () => raw(...paths.list),
      "views.sdk": () => replayed.views(row),
      "views.raw": () => raw(...paths.views),
    };
  } finally {
    await target.close();
  }
  if (options.profile) {
    const run = cases[options.profile];
    if (!run) throw new Error(`no case ${options.profile}`);
    // Marks in stderr: a --trace-gc or --cpu-prof reader can tell the
    // calls from the setup (which trains a model).
    console.error(`calls of ${options.profile}: start`);
    for (let i = 0; i < (options.calls ?? 50_000); i++) await run();
    console.error(`calls of ${options.profile}: end`);
    return undefined;
  }
  const cpu = await measureCases(cases, options.rounds ?? 30);
  const out: Record<string, ClientCost> = {};
  for (const op of ["get", "create", "list", "views"]) {
    out[op] = { sdk: cpu[`${op}.sdk`], raw: cpu[`${op}.raw`] };
  }
  return out;
}

if (import.meta.main) {
  const at = Deno.args.indexOf("--profile");
  if (at >= 0) {
    await clientCost({ profile: Deno.args[at + 1] });
  } else {
    const costs = (await clientCost())!;
    for (const [op, c] of Object.entries(costs)) {
      console.log(
        `${op.padEnd(7)} SDK ${c.sdk.toFixed(1)} µs, raw ${
          c.raw.toFixed(1)
        } µs: the client adds ${(c.sdk - c.raw).toFixed(1)} µs of CPU a call`,
      );
    }
  }
}
