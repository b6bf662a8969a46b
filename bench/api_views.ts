/**
 * Views scoring throughput (rows a second) through the SDK, in-process
 * (`local()`) and over HTTP (the CLI server `src/local/cli.ts` started as a
 * subprocess on a free loopback port, reached with `connect()`), each beside
 * its floor: a raw `fetch` POST of the same request bodies to the same
 * server, with `res.json()` and nothing else.
 *
 * The model is wa_churn's (quickstart on the whole file, default
 * hyperparameters); the queries are wa_churn rows cycled to 1,000 and 10,000
 * rows. The SDK sends 10,000 rows as ten 1,000-row requests one after the
 * other (its default `chunkSize`, and the local platform answers more than
 * 1,000 rows with 202 + an operation to poll); the raw floor sends the same
 * ten bodies the same way.
 *
 * @module
 */
import { connect, type Deployment, type MLPlatform } from "../mod.ts";
import { local } from "../local.ts";
import { parseCsv } from "../src/csv.ts";
import { randomHex } from "../src/local/ids.ts";

/** A views query by columns (what `deployment.views()` takes). */
export type Query = Record<string, (string | number | null)[]>;

/** Rows a second of one measured case. */
export interface Throughput {
  /** Rows scored per second of wall-clock time. */
  rowsPerSecond: number;
  /** Mean milliseconds per call. */
  msPerCall: number;
  /** Calls timed (after the warm-up). */
  calls: number;
}

/** Options of {@linkcode compareRowsPerSecond}. */
export interface MeasureOptions {
  /** Untimed calls of each case first (default 3). */
  warmup?: number;
  /** Keep going until each case has run at least this long (default 1.5 s)... */
  minSeconds?: number;
  /** ...and at least this many calls (default 5). */
  minCalls?: number;
}

/**
 * Times several cases that each score `rows` rows a call, interleaved
 * round by round (so a slow patch of the machine hits every case alike),
 * and returns each case's throughput.
 *
 * @example
 * ```ts
 * import { compareRowsPerSecond } from "./api_views.ts";
 * const wait = (ms: number) => () => new Promise<void>((r) => setTimeout(r, ms));
 * const t = await compareRowsPerSecond({ fast: wait(1), slow: wait(10) }, 100, {
 *   warmup: 0, minSeconds: 0.05, minCalls: 2,
 * });
 * if (!(t.fast.rowsPerSecond > t.slow.rowsPerSecond)) throw new Error("order");
 * ```
 */
export async function compareRowsPerSecond<K extends string>(
  cases: Record<K, () => Promise<void>>,
  rows: number,
  options: MeasureOptions = {},
): Promise<Record<K, Throughput>> {
  const names = Object.keys(cases) as K[];
  for (let i = 0; i < (options.warmup ?? 3); i++) {
    for (const name of names) await cases[name]();
  }
  const spent = Object.fromEntries(names.map((n) => [n, 0])) as Record<
    K,
    number
  >;
  const calls = Object.fromEntries(names.map((n) => [n, 0])) as Record<
    K,
    number
  >;
  const minMs = (options.minSeconds ?? 1.5) * 1000;
  const minCalls = options.minCalls ?? 5;
  while (names.some((n) => spent[n] < minMs || calls[n] < minCalls)) {
    for (const name of names) {
      const t0 = performance.now();
      await cases[name]();
      spent[name] += performance.now() - t0;
      calls[name]++;
    }
  }
  return Object.fromEntries(names.map((n) => [n, {
    rowsPerSecond: (calls[n] * rows) / (spent[n] / 1000),
    msPerCall: spent[n] / calls[n],
    calls: calls[n],
  }])) as Record<K, Throughput>;
}

/** A platform to score on: an SDK client, and what a raw request needs. */
export interface ViewsTarget {
  /** The SDK client. */
  ml: MLPlatform;
  /** The service's base URL. */
  baseUrl: string;
  /** Sends a raw request to the same service (the app's fetch, or `fetch`). */
  send: (request: Request) => Promise<Response>;
  /** Client id and secret, for the raw side's own token. */
  credentials: { clientId: string; clientSecret: string };
  /** Stops the platform or server. */
  close(): Promise<void>;
  /** The server's process id, when it runs in its own process. */
  pid?: number;
}

/** The CLI server of the local platform, running as a subprocess. */
export interface CliServer {
  /** Its base URL, e.g. `http://127.0.0.1:41234`. */
  baseUrl: string;
  /** The credentials it was started with. */
  credentials: { clientId: string; clientSecret: string };
  /** Its process id (for reading its CPU time and memory in /proc). */
  pid: number;
  /** Stops it (SIGTERM, then SIGKILL after 5 s) and waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * Starts `deno run -A src/local/cli.ts --port 0` (the OS picks a free
 * loopback port) with fresh credentials in `MLP_CLIENT_ID` /
 * `MLP_CLIENT_SECRET`, and resolves once it prints where it listens.
 *
 * @example
 * ```ts
 * import { startCliServer } from "./api_views.ts";
 * const server = await startCliServer({});
 * try {
 *   const res = await fetch(`${server.baseUrl}/oauth/token`, {
 *     method: "POST",
 *     body: new URLSearchParams({
 *       grant_type: "client_credentials",
 *       client_id: server.credentials.clientId,
 *       client_secret: server.credentials.clientSecret,
 *     }),
 *   });
 *   if (res.status !== 200) throw new Error(`token: ${res.status}`);
 *   await res.body?.cancel();
 * } finally {
 *   await server.stop();
 * }
 * ```
 */
export async function startCliServer(
  buckets: Record<string, string>,
  timeoutMs = 60_000,
  denoFlags: string[] = [],
): Promise<CliServer> {
  const credentials = {
    clientId: `bench-${randomHex(6)}`,
    clientSecret: randomHex(24),
  };
  const cli = new URL("../src/local/cli.ts", import.meta.url).pathname;
  const server = await startServerProcess([
    ...denoFlags,
    cli,
    "--port",
    "0",
    "--host",
    "127.0.0.1",
    ...Object.entries(buckets).flatMap(([name, dir]) => [
      "--bucket",
      `${name}=${dir}`,
    ]),
  ], {
    MLP_CLIENT_ID: credentials.clientId,
    MLP_CLIENT_SECRET: credentials.clientSecret,
  }, timeoutMs);
  return { ...server, credentials };
}

/** A server started by {@linkcode startServerProcess}. */
export interface ServerProcess {
  /** Where it listens, e.g. `http://127.0.0.1:41234`. */
  baseUrl: string;
  /** Its process id. */
  pid: number;
  /** Stops it (SIGTERM, then SIGKILL after 5 s) and waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * Runs `deno run -A <args>` from the repository root and resolves once the
 * process prints `listening on http://...`; its later output is drained.
 *
 * @example
 * ```ts
 * import { startServerProcess } from "./api_views.ts";
 * const hello = await startServerProcess(["bench/lib/hello_server.ts"]);
 * try {
 *   if (await (await fetch(hello.baseUrl)).text() !== "Hello Hono!") throw new Error();
 * } finally {
 *   await hello.stop();
 * }
 * ```
 */
export async function startServerProcess(
  args: string[],
  env: Record<string, string> = {},
  timeoutMs = 60_000,
): Promise<ServerProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", ...args],
    cwd: new URL("..", import.meta.url).pathname,
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const stop = async () => {
    try {
      child.kill("SIGTERM");
    } catch { /* already gone */ }
    const timer = setTimeout(() => {
      try {
        child.kill("SIGKILL");
      } catch { /* already gone */ }
    }, 5000);
    await child.status;
    clearTimeout(timer);
  };
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  const timer = setTimeout(() => lines.cancel(), timeoutMs);
  try {
    for (;;) {
      const { value, done } = await lines.read();
      if (done) {
        throw new Error(
          `deno run -A ${
            args.join(" ")
          } ended or timed out before saying where it listens; it printed:\n${seen}`,
        );
      }
      seen += value;
      const match = seen.match(/listening on (http:\/\/\S+)/);
      if (match) {
        // Keep reading (and dropping) its output so it never blocks on a full pipe.
        (async () => {
          while (!(await lines.read()).done) { /* drain */ }
        })().catch(() => {});
        return { baseUrl: match[1], pid: child.pid, stop };
      }
    }
  } catch (error) {
    await stop();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The local platform in-process through `local()`, as a {@linkcode ViewsTarget}.
 *
 * @example
 * ```ts
 * import { inProcessTarget } from "./api_views.ts";
 * const target = await inProcessTarget({});
 * const accounts = await target.ml.accounts.list();
 * if (accounts.data.length !== 1) throw new Error();
 * await target.close();
 * ```
 */
export async function inProcessTarget(
  buckets: Record<string, string>,
): Promise<ViewsTarget> {
  const ml = await local({ buckets, progress: false });
  return {
    ml,
    baseUrl: ml.platform.baseUrl,
    send: (request) => ml.platform.fetch(request),
    credentials: ml.platform.credentials,
    close: () => ml.close(),
  };
}

/**
 * The CLI server over HTTP, reached with `connect()`, as a {@linkcode ViewsTarget}.
 *
 * @example
 * ```ts
 * import { httpTarget } from "./api_views.ts";
 * const target = await httpTarget({});
 * try {
 *   const accounts = await target.ml.accounts.list();
 *   if (accounts.data.length !== 1) throw new Error();
 * } finally {
 *   await target.close();
 * }
 * ```
 */
export async function httpTarget(
  buckets: Record<string, string>,
): Promise<ViewsTarget> {
  const server = await startCliServer(buckets);
  return {
    ml: connect({
      baseUrl: server.baseUrl,
      ...server.credentials,
      progress: false,
    }),
    baseUrl: server.baseUrl,
    send: (request) => fetch(request),
    credentials: server.credentials,
    close: () => server.stop(),
    pid: server.pid,
  };
}

/**
 * An access token from the token endpoint, for raw requests.
 *
 * @example
 * ```ts
 * import { inProcessTarget, rawToken } from "./api_views.ts";
 * const target = await inProcessTarget({});
 * if (!(await rawToken(target)).length) throw new Error();
 * await target.close();
 * ```
 */
export async function rawToken(target: ViewsTarget): Promise<string> {
  const res = await target.send(
    new Request(`${target.baseUrl}/oauth/token`, {
      method: "POST",
      body: new URLSearchParams({
        grant_type: "client_credentials",
        client_id: target.credentials.clientId,
        client_secret: target.credentials.clientSecret,
      }),
    }),
  );
  if (res.status !== 200) {
    throw new Error(
      `The token endpoint answered ${res.status}: ${await res.text()}`,
    );
  }
  return (await res.json()).access_token;
}

/**
 * POSTs one views body (JSON, bearer `token`) the way a raw client would and
 * returns the parsed table; any answer but 200 throws with its text.
 *
 * @example
 * ```ts
 * import { inProcessTarget, postViews, rawToken } from "./api_views.ts";
 * const target = await inProcessTarget({});
 * const token = await rawToken(target);
 * const body = JSON.stringify({ query: { x: [1] } });
 * const failed = await postViews(target.send, target.baseUrl, "dm_none", token, body)
 *   .then(() => false, (e) => String(e).includes("404"));
 * await target.close();
 * if (!failed) throw new Error("an unknown deployed model must answer 404");
 * ```
 */
export async function postViews(
  send: (request: Request) => Promise<Response>,
  baseUrl: string,
  deployedModelId: string,
  token: string,
  body: string,
): Promise<{ data: unknown[][] }> {
  const res = await send(
    new Request(`${baseUrl}/deployed-models/${deployedModelId}/views`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${token}`,
        "Content-Type": "application/json",
      },
      body,
    }),
  );
  if (res.status !== 200) {
    throw new Error(`views answered ${res.status}: ${await res.text()}`);
  }
  return await res.json();
}

/**
 * The feature columns of a CSV's rows (numbers where the schema says
 * NUMBER, null for empty cells), cycled to `n` rows.
 *
 * @example
 * ```ts
 * import { queryFromCsv } from "./api_views.ts";
 * const q = queryFromCsv("y,a,b\nno,1,x\nyes,,z\n", "y", ["a"], 3);
 * if (JSON.stringify(q) !== '{"a":[1,null,1],"b":["x","z","x"]}') throw new Error(JSON.stringify(q));
 * ```
 */
export function queryFromCsv(
  text: string,
  target: string,
  numeric: readonly string[],
  n: number,
): Query {
  const { header, rows } = parseCsv(text);
  const query: Query = {};
  header.forEach((name, c) => {
    if (name === target) return;
    query[name] = Array.from({ length: n }, (_, i) => {
      const v = rows[i % rows.length][c];
      return v === "" ? null : numeric.includes(name) ? Number(v) : v;
    });
  });
  return query;
}

/** What {@linkcode viewsThroughput} measured for one target and query size. */
export interface ViewsThroughputRow {
  /** `in-process` or `over HTTP`. */
  where: string;
  /** Rows per views call. */
  rows: number;
  /** Through `deployment.views()`. */
  sdk: Throughput;
  /** Raw fetch POSTs of the same bodies, with `res.json()`. */
  raw: Throughput;
}

/**
 * Deploys the wa_churn model on `target` (quickstart, default
 * hyperparameters) and measures views of each size through the SDK and raw.
 */
async function measureTarget(
  where: string,
  target: ViewsTarget,
  csv: { dir: string; file: string; text: string },
  sizes: readonly number[],
  options: MeasureOptions,
): Promise<ViewsThroughputRow[]> {
  const { deployment, schema } = await target.ml.quickstart({
    bucket: "bench",
    path: csv.file,
    target: "churn",
    sample: `${csv.dir}/${csv.file}`,
    progress: false,
  });
  const numeric = schema.fields.filter((f) =>
    f.data_type.data_type === "NUMBER"
  ).map((f) => f.name);
  const token = await rawToken(target);
  const out: ViewsThroughputRow[] = [];
  for (const rows of sizes) {
    const query = queryFromCsv(csv.text, "churn", numeric, rows);
    const bodies = chunkBodies(deployment, query, 1000);
    const sdk = async () => {
      const result = await deployment.views(query);
      if (result.length !== rows) {
        throw new Error(`views answered ${result.length} rows, not ${rows}`);
      }
    };
    const raw = async () => {
      for (const body of bodies) {
        await postViews(
          target.send,
          target.baseUrl,
          deployment.id,
          token,
          body,
        );
      }
    };
    const t = await compareRowsPerSecond({ sdk, raw }, rows, options);
    out.push({ where, rows, ...t });
  }
  return out;
}

/** The JSON bodies the SDK sends for `query`, chunk by chunk. */
function chunkBodies(
  deployment: Deployment,
  query: Query,
  chunkSize: number,
): string[] {
  const n = Object.values(query)[0]?.length ?? 0;
  const bodies: string[] = [];
  for (let at = 0; at < n; at += chunkSize) {
    const chunk = Object.fromEntries(
      Object.entries(query).map(([k, v]) => [k, v.slice(at, at + chunkSize)]),
    );
    bodies.push(JSON.stringify(deployment.query(chunk).body()));
  }
  return bodies;
}

/**
 * Measures views throughput of a wa_churn model in-process (`local()`) and
 * over HTTP (the CLI server as a subprocess, `connect()`), for each query
 * size, through the SDK and raw fetch.
 *
 * @param datasetsDir The folder holding `wa_churn.csv` (served as bucket `bench`).
 *
 * @example A short run (100 rows, a few calls)
 * ```ts
 * import { viewsThroughput } from "./api_views.ts";
 * const rows = await viewsThroughput("datasets", [100], {
 *   warmup: 1, minSeconds: 0, minCalls: 2,
 * });
 * if (rows.length !== 2 || !(rows[0].sdk.rowsPerSecond > 0)) throw new Error();
 * ```
 */
export async function viewsThroughput(
  datasetsDir: string,
  sizes: readonly number[] = [1000, 10_000],
  options: MeasureOptions = {},
): Promise<ViewsThroughputRow[]> {
  const file = "wa_churn.csv";
  const csv = {
    dir: datasetsDir,
    file,
    text: await Deno.readTextFile(`${datasetsDir}/${file}`),
  };
  const out: ViewsThroughputRow[] = [];
  for (
    const [where, open] of [
      ["in-process", inProcessTarget],
      ["over HTTP", httpTarget],
    ] as const
  ) {
    const target = await open({ bench: datasetsDir });
    try {
      out.push(...await measureTarget(where, target, csv, sizes, options));
    } finally {
      await target.close();
    }
  }
  return out;
}

/**
 * Prints {@linkcode viewsThroughput}'s rows as a table.
 *
 * @example
 * ```ts
 * import { printViewsThroughput } from "./api_views.ts";
 * const t = { rowsPerSecond: 50_000, msPerCall: 20, calls: 10 };
 * printViewsThroughput([{ where: "in-process", rows: 1000, sdk: t, raw: t }]);
 * ```
 */
export function printViewsThroughput(rows: ViewsThroughputRow[]): void {
  const n = (x: number) => Math.round(x).toLocaleString("en-US");
  console.log(
    `  ${"where".padEnd(11)} ${"rows/call".padStart(9)} ${
      "SDK rows/s".padStart(11)
    } ${"raw rows/s".padStart(11)} ${"SDK/raw".padStart(7)} ${
      "SDK ms/call".padStart(11)
    } ${"raw ms/call".padStart(11)}`,
  );
  for (const r of rows) {
    console.log(
      `  ${r.where.padEnd(11)} ${n(r.rows).padStart(9)} ${
        n(r.sdk.rowsPerSecond).padStart(11)
      } ${n(r.raw.rowsPerSecond).padStart(11)} ${
        (r.sdk.rowsPerSecond / r.raw.rowsPerSecond).toFixed(2).padStart(7)
      } ${r.sdk.msPerCall.toFixed(1).padStart(11)} ${
        r.raw.msPerCall.toFixed(1).padStart(11)
      }`,
    );
  }
}
