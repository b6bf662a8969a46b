/**
 * The chaos run (`deno task chaos`): the whole workflow a new user runs,
 * `connect()` over HTTP to the local platform served on 127.0.0.1, from the
 * storage connector to views (`quickstart()` then `views()`), with tokens
 * expiring every 3 s, under seeded faults: 10% 500, 10% 429, 30% 202, 5%
 * answers lost after the work was committed (500 or dropped connection), 2%
 * slow calls (1.5 s) and 20 ms latency. Each seeded run must finish, answer views byte-identically to a
 * fault-free run, and leave every collection with exactly as many resources
 * as the fault-free run (no create happened twice, none went missing).
 *
 * ```sh
 * deno task chaos               # 100 seeds, the client's default retry limits
 * deno task chaos --seeds=20 --from=100 --concurrency=2 --max-retries=2
 * ```
 *
 * The client runs with the library's retry limits (`maxRetries` 10 within
 * `retryTimeout` 60 s, `src/http/retry.ts`) unless `--max-retries` is given.
 * Only its delays are shortened (retry backoff 20 ms doubling to 200 ms
 * instead of 500 ms to 8 s, and 202 polls every 20 ms instead of 1 s) so
 * that a hundred runs take minutes: that changes how long a retry waits, not
 * how many are allowed (ten default waits add up to at most 55.5 s, within
 * the 60 s deadline).
 *
 * It ends with one line, e.g. `chaos: 100 seeded runs, 100 finished, 100
 * answers identical, 0 duplicates`, and exits non-zero when any run failed.
 *
 * @module
 */
import { connect } from "../src/platform.ts";
import { createLocalPlatform } from "../src/local/local_platform.ts";
import type { FaultOptions } from "../src/local/http/faults.ts";
import type { Hyperparameters } from "../src/builders/hyperparameters.ts";
import {
  intArg as arg,
  listAll,
  listedCollections,
  tokenRequest,
} from "./lib/local_account.ts";
import { DEFAULT_MAX_RETRIES } from "../src/http/retry.ts";

/** The faults of the issue's chaos run, for one seed. */
export function chaosFaults(seed: number): FaultOptions {
  return {
    error500: 0.1,
    rateLimit429: 0.1,
    accepted202: 0.3,
    answerLost: 0.05,
    // A few slow calls (1.5 s) make each run outlast the 3 s tokens.
    slow: 0.02,
    slowMs: 1500,
    latencyMs: 20,
    // Retry-After 0: the client honours it (waits 0 s) and the run stays short.
    retryAfterSeconds: 0,
    seed,
  };
}

/** What one run produced. */
export interface ChaosOutcome {
  /** The views answer's rows, as JSON text (compared byte for byte). */
  views: string;
  /** Resources per collection after the run. */
  counts: Record<string, number>;
  /** Names that appear more than once in a collection (`kind/name`). */
  duplicates: string[];
  /** Wall-clock seconds of the run. */
  seconds: number;
  /** Token calls the client made (more than one: tokens expired mid-run). */
  tokenCalls: number;
}

const DATASETS = new URL("../datasets/", import.meta.url).pathname;

/** Five penguins as a views query (every feature column, no target). */
const QUERY = {
  island: ["Torgersen", "Biscoe", "Dream", "Biscoe", "Dream"],
  bill_length_mm: [39.1, 46.5, 49.3, 45.2, 36.6],
  bill_depth_mm: [18.7, 15.0, 19.5, 14.8, 18.4],
  flipper_length_mm: [181, 214, 203, 212, 184],
  body_mass_g: [3750, 5200, 4050, 5200, 3475],
  sex: ["male", "female", "male", "female", "female"],
};

/**
 * One run of the workflow against a fresh local platform served over HTTP
 * on a free loopback port; `faults` undefined for the fault-free run;
 * `training` the quickstart's hyperparameters (default: the model's).
 *
 * @example
 * ```ts ignore
 * import { chaosFaults, chaosRun } from "./chaos.ts";
 * const clean = await chaosRun(undefined);
 * const faulty = await chaosRun(chaosFaults(1));
 * if (faulty.views !== clean.views) throw new Error("views differ");
 * ```
 */
export async function chaosRun(
  faults: FaultOptions | undefined,
  client: { maxRetries?: number } = {},
  training?: Hyperparameters,
): Promise<ChaosOutcome> {
  const started = performance.now();
  let tokenCalls = 0;
  const platform = await createLocalPlatform({
    buckets: { demo: DATASETS },
    tokenTtlSeconds: 3,
    faults,
    logger: () => {},
  });
  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: 0,
    onListen() {},
    onError: () =>
      Response.json({ message: "unexpected", error_code: "INTERNAL_ERROR" }, {
        status: 500,
      }),
  }, (request) => {
    if (new URL(request.url).pathname === "/oauth/token") tokenCalls++;
    return platform.app.fetch(request);
  });
  const baseUrl = `http://127.0.0.1:${server.addr.port}`;
  try {
    const ml = connect({
      baseUrl,
      ...platform.credentials,
      // Undefined: the library's default.
      maxRetries: client.maxRetries,
      pollInterval: 20,
      retryBaseDelay: 20,
      retryMaxDelay: 200,
    });
    const { deployment } = await ml.quickstart({
      bucket: "demo",
      path: "penguins.csv",
      sample: `${DATASETS}penguins.csv`,
      target: "species",
      name: "penguins",
      ...(training ? { training } : {}),
    });
    const table = await deployment.views(QUERY as never);
    const views = JSON.stringify(table.rows());
    const { counts, duplicates } = await census(platform);
    return {
      views,
      counts,
      duplicates,
      seconds: (performance.now() - started) / 1000,
      tokenCalls,
    };
  } finally {
    await server.shutdown();
    await platform.close();
  }
}

/**
 * Every collection of the account, listed in-process without faults
 * (a second platform view is not needed: the app's own fetch with a token),
 * counted by name.
 */
async function census(
  platform: Awaited<ReturnType<typeof createLocalPlatform>>,
): Promise<{ counts: Record<string, number>; duplicates: string[] }> {
  // Faults are drawn per call, and a 3 s token may expire meanwhile: each
  // attempt takes a fresh token and reads one page, until one succeeds.
  const json = async (request: Request) => {
    const res = await platform.fetch(request).catch(() => undefined);
    if (!res || res.status >= 300) {
      await res?.body?.cancel().catch(() => {});
      return undefined;
    }
    return await res.json().catch(() => undefined);
  };
  const page = async (path: string) => {
    for (let i = 0; i < 500; i++) {
      const token = await json(tokenRequest(platform));
      if (!token) continue;
      const body = await json(
        new Request(`${platform.baseUrl}${path}`, {
          headers: { Authorization: `Bearer ${token.access_token}` },
        }),
      );
      if (body?.data) return body;
    }
    throw new Error(`census: ${path} failed 500 times`);
  };
  const counts: Record<string, number> = {};
  const duplicates: string[] = [];
  for (const { group, path } of listedCollections()) {
    const names = (await listAll<{ name: string }>(path, page)).map((r) =>
      r.name
    );
    counts[group] = names.length;
    const seen = new Set<string>();
    for (const name of names) {
      if (seen.has(name)) duplicates.push(`${group}/${name}`);
      seen.add(name);
    }
  }
  return { counts, duplicates };
}

/** The figure of a chaos run over many seeds. */
export interface ChaosFigure {
  /** Seeds run. */
  runs: number;
  /** Runs that finished (views answered). */
  finished: number;
  /** Runs whose views answer equals the fault-free run's, byte for byte. */
  identical: number;
  /** Runs whose resource counts differ from the fault-free run's. */
  countMismatches: number;
  /** Names found twice in a collection, over all runs. */
  duplicates: number;
  /** Runs that needed more than one token (a token expired mid-run). */
  renewedTokens: number;
  /** One line per failed run: seed and what went wrong. */
  failures: string[];
}

/**
 * Runs the fault-free baseline and then `seeds` (with `concurrency` runs at
 * a time), comparing each to the baseline.
 */
export async function chaosFigure(
  seeds: number[],
  options: {
    concurrency?: number;
    maxRetries?: number;
    log?: (line: string) => void;
    /** Training options of every run (default: the model's defaults). */
    training?: Hyperparameters;
  } = {},
): Promise<ChaosFigure> {
  const log = options.log ?? (() => {});
  const baseline = await chaosRun(undefined, {}, options.training);
  const figure: ChaosFigure = {
    runs: seeds.length,
    finished: 0,
    identical: 0,
    countMismatches: 0,
    duplicates: baseline.duplicates.length,
    renewedTokens: 0,
    failures: [],
  };
  const queue = [...seeds];
  const worker = async () => {
    for (let seed = queue.shift(); seed !== undefined; seed = queue.shift()) {
      try {
        const run = await chaosRun(chaosFaults(seed), {
          maxRetries: options.maxRetries,
        }, options.training);
        figure.finished++;
        const same = run.views === baseline.views;
        if (same) figure.identical++;
        const countsSame = JSON.stringify(run.counts) ===
          JSON.stringify(baseline.counts);
        if (!countsSame) figure.countMismatches++;
        figure.duplicates += run.duplicates.length;
        if (run.tokenCalls > 1) figure.renewedTokens++;
        const problems = [
          same ? "" : "views differ",
          countsSame ? "" : `counts ${JSON.stringify(run.counts)}`,
          run.duplicates.length ? `duplicates ${run.duplicates}` : "",
        ].filter(Boolean);
        if (problems.length) figure.failures.push(`seed ${seed}: ${problems}`);
        log(
          `seed ${seed}: finished in ${
            run.seconds.toFixed(1)
          } s, ${run.tokenCalls} token calls${
            problems.length ? ` - ${problems.join("; ")}` : ""
          }`,
        );
      } catch (error) {
        const message = `seed ${seed}: did not finish: ${
          (error as Error).name
        }: ${(error as Error).message}`;
        figure.failures.push(message);
        log(message);
      }
    }
  };
  await Promise.all(
    Array.from({ length: options.concurrency ?? 1 }, worker),
  );
  return figure;
}

/** The figure as the one summary line. */
export function figureLine(f: ChaosFigure): string {
  return `chaos: ${f.runs} seeded runs, ${f.finished} finished, ${f.identical} answers identical, ${f.countMismatches} resource-count mismatches, ${f.duplicates} duplicates (${f.renewedTokens} runs renewed their token mid-run)`;
}

if (import.meta.main) {
  const count = arg("seeds", 100);
  const from = arg("from", 1);
  const concurrency = arg("concurrency", 2);
  const maxRetries = Deno.args.some((a) => a.startsWith("--max-retries="))
    ? arg("max-retries", 0)
    : undefined;
  const seeds = Array.from({ length: count }, (_, i) => from + i);
  console.log(
    `chaos: seeds ${from}..${from + count - 1}, faults ${
      JSON.stringify(chaosFaults(0))
    } (seed varies), token TTL 3 s, maxRetries ${
      maxRetries ?? `${DEFAULT_MAX_RETRIES} (default)`
    }, ${concurrency} at a time`,
  );
  const started = performance.now();
  const figure = await chaosFigure(seeds, {
    concurrency,
    maxRetries,
    log: console.log,
  });
  console.log(
    `took ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  console.log(figureLine(figure));
  Deno.exit(
    figure.failures.length || figure.duplicates || figure.countMismatches
      ? 1
      : 0,
  );
}
