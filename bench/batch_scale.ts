/**
 * Batch views at scale: N churn-like rows scored end to end through the SDK
 * over HTTP (`deployment.batch()` against `deno task local` in its own
 * process), beside the floor (the same model in-process over the same rows:
 * the file read in pieces, parsed, and scored 1,000 rows a call on one
 * thread: `contributionTable` for RESULTS, `predict` for PREDICTIONS) and a
 * peer (scikit-learn HGB reading the CSV, `predict_proba`, writing the CSV;
 * bench/batch_sklearn_ref.py). Prints the times, the ratios and the
 * server's peak RSS while it scored. `deno task bench` runs it at 1M rows as
 * line 8 (bench/lines/batch_scale.ts).
 *
 * The model is trained on a first server (20,000 rows, default
 * hyperparameters), which is then stopped; a second server on the same
 * state loads the deployment and runs the batches, so its peak RSS is the
 * batch's (plus startup and the loaded model), not training's.
 *
 * ```sh
 * deno run -A bench/batch_scale.ts --rows 1000000
 * # 10M rows, 0.47 GB; with a 75-character text column that is no feature, 1.2 GB:
 * deno run -A bench/batch_scale.ts --rows 10000000 --tmp /tmp --no-read-back
 * deno run -A bench/batch_scale.ts --rows 10000000 --pad 75 --views RESULTS --no-peer --no-read-back
 * ```
 *
 * @module
 */
import { connect } from "../mod.ts";
import { startServerProcess } from "./api_views.ts";
import { openSqliteStore } from "../src/local/store/sqlite_store.ts";
import { modelBlobs } from "../src/local/store/blobs.ts";
import { contributionTable, predict } from "../src/local/model/explain.ts";
import type { EbmModel } from "../src/local/model/types.ts";
import { CsvRecordParser } from "../src/local/jobs/csv_stream.ts";

const CONTRACTS = ["month", "year", "two-year"];
const PAYMENTS = ["card", "transfer", "check", "electronic"];
const INTERNET = ["fiber", "dsl", "none"];

/**
 * Writes `n` churn-like rows (seeded) to `file` in pieces; `withTarget` adds
 * churn, `pad` > 0 a text column `note` of that many characters that is no
 * feature (it makes a file of the same rows larger: every byte is still read
 * and parsed).
 */
async function writeRows(
  file: string,
  n: number,
  seed: number,
  withTarget: boolean,
  pad = 0,
): Promise<void> {
  const note = pad > 0
    ? "lorem ipsum dolor sit amet ".repeat(Math.ceil(pad / 27)).slice(0, pad)
    : "";
  let state = seed >>> 0 || 1;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  const pick = (xs: string[]) => xs[Math.floor(next() * xs.length)];
  const out = await Deno.open(file, {
    write: true,
    create: true,
    truncate: true,
  });
  const encoder = new TextEncoder();
  let text =
    "id,tenure,monthly_charges,total_charges,senior,contract,payment,internet" +
    (withTarget ? ",churn" : "") + (pad > 0 ? ",note" : "") + "\n";
  for (let i = 0; i < n; i++) {
    const tenure = Math.floor(next() * 72);
    const monthly = Math.round((20 + next() * 100) * 100) / 100;
    const total = next() < 0.01 ? "" : (tenure * monthly).toFixed(2);
    const senior = next() < 0.16 ? 1 : 0;
    const contract = pick(CONTRACTS);
    const payment = pick(PAYMENTS);
    const internet = pick(INTERNET);
    let line =
      `c${i},${tenure},${monthly},${total},${senior},${contract},${payment},${internet}`;
    if (withTarget) {
      const score = -tenure / 18 + monthly / 45 + senior * 0.4 +
        (contract === "month" ? 1.2 : -0.8) +
        (internet === "fiber" ? 0.5 : 0) + (next() - 0.5) * 2.5;
      line += score > 0.6 ? ",Yes" : ",No";
    }
    if (pad > 0) line += `,${note}`;
    text += line + "\n";
    if (text.length > 1 << 20) {
      await out.write(encoder.encode(text));
      text = "";
    }
  }
  await out.write(encoder.encode(text));
  out.close();
}

/** Peak RSS (VmHWM) of process `pid` in MB, Linux only. */
export function peakRssMb(pid: number): number | null {
  try {
    const m = Deno.readTextFileSync(`/proc/${pid}/status`).match(
      /VmHWM:\s+(\d+) kB/,
    );
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/** Current RSS (VmRSS) of process `pid` in MB. */
function rssMb(pid: number): number | null {
  try {
    const m = Deno.readTextFileSync(`/proc/${pid}/status`).match(
      /VmRSS:\s+(\d+) kB/,
    );
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/**
 * The floor: `file` read in 1 MiB pieces, parsed, and scored by `model`
 * in-process 1,000 rows a call on this thread, for one view type.
 *
 * @returns Seconds.
 */
async function floorSeconds(
  model: EbmModel,
  file: string,
  views: "RESULTS" | "PREDICTIONS",
): Promise<number> {
  const t = performance.now();
  const parser = new CsvRecordParser();
  let header: string[] | undefined;
  let columns: number[] = [];
  let part: string[][] = [];
  const score = () => {
    const query: Record<string, unknown[]> = {};
    model.features.forEach((f, j) => {
      query[f.name] = part.map((r) => r[columns[j]]);
    });
    if (views === "RESULTS") contributionTable(model, query);
    else predict(model, query);
    part = [];
  };
  const sink = (record: string[]) => {
    if (!header) {
      header = record;
      columns = model.features.map((f) => header!.indexOf(f.name));
      return;
    }
    part.push(record);
    if (part.length === 1000) score();
  };
  const file_ = await Deno.open(file);
  for await (
    const piece of file_.readable.pipeThrough(new TextDecoderStream())
  ) parser.push(piece, sink);
  parser.end(sink);
  if (part.length) score();
  return (performance.now() - t) / 1000;
}

/** Options of {@linkcode batchScale}. */
export interface BatchScaleOptions {
  /** Rows scored (default 100,000). */
  rows?: number;
  /** View types scored, one batch each (default both). */
  views?: ("RESULTS" | "PREDICTIONS")[];
  /** Run the scikit-learn peer (default true). */
  peer?: boolean;
  /** Read the first RESULTS output back through the API (default true). */
  readBack?: boolean;
  /** Folder for the temporary files (default the system's). */
  tmp?: string;
  /** Characters of a text column that is no feature, in the scored file only (default 0: none). */
  pad?: number;
  /** Run the scoring server under `--cpu-prof`, its profiles written here. */
  profileDir?: string;
}

/** What {@linkcode batchScale} measured (seconds, MB). */
export type BatchScaleReport = Record<string, number | string | null>;

/**
 * Generates the files, trains, scores them through `deployment.batch()`,
 * then the floor and the peer; removes every file it wrote.
 */
export async function batchScale(
  options: BatchScaleOptions = {},
): Promise<BatchScaleReport> {
  const rows = options.rows ?? 100_000;
  const viewTypes = options.views ?? ["RESULTS", "PREDICTIONS"];
  const tmp = options.tmp ? { dir: options.tmp } : {};
  const dir = await Deno.makeTempDir({ prefix: "batch_scale_", ...tmp });
  const dataDir = await Deno.makeTempDir({
    prefix: "batch_scale_state_",
    ...tmp,
  });
  const env = { MLP_CLIENT_ID: "bench", MLP_CLIENT_SECRET: "bench-secret-1" };
  const serverArgs = [
    "src/local/cli.ts",
    "--port",
    "0",
    "--bucket",
    `b=${dir}`,
    "--data-dir",
    dataDir,
  ];
  const seconds = (t: number) => (performance.now() - t) / 1000;
  try {
    await writeRows(`${dir}/train.csv`, 20_000, 1, true);
    await writeRows(`${dir}/score.csv`, rows, 2, false, options.pad ?? 0);
    const inputMb = (await Deno.stat(`${dir}/score.csv`)).size / 2 ** 20;

    // 1. Train and deploy on a first server.
    let server = await startServerProcess(serverArgs, env);
    let ml = connect({
      baseUrl: server.baseUrl,
      clientId: env.MLP_CLIENT_ID,
      clientSecret: env.MLP_CLIENT_SECRET,
      progress: false,
    });
    const { deployment, model } = await ml.quickstart({
      bucket: "b",
      path: "train.csv",
      target: "churn",
      exclude: ["id"],
      // Over HTTP the client cannot read the bucket: the same file, from disk.
      sample: `${dir}/train.csv`,
      progress: false,
    });
    await server.stop();

    // 2. A fresh server on the same state scores.
    server = await startServerProcess(
      options.profileDir
        ? ["--cpu-prof", `--cpu-prof-dir=${options.profileDir}`, ...serverArgs]
        : serverArgs,
      env,
    );
    ml = connect({
      baseUrl: server.baseUrl,
      clientId: env.MLP_CLIENT_ID,
      clientSecret: env.MLP_CLIENT_SECRET,
      progress: false,
    });
    for (;;) {
      const dm = await ml.deployedModels.get(deployment.id);
      if (dm.status === "RUNNING") break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const live = await ml.deployment(deployment.id);
    const rssLoaded = rssMb(server.pid);
    const poll = { initialDelay: 50, maxDelay: 200 };
    const runs: Record<string, { seconds: number; rows: number }> = {};
    for (const views of viewTypes) {
      const t = performance.now();
      const result = await live.batch({
        bucket: "b",
        path: "score.csv",
        output: `scored_${views.toLowerCase()}.csv`,
        keep: ["id"],
        views,
        progress: false,
        poll,
      });
      runs[views] = { seconds: seconds(t), rows: result.rowsOut };
      if (result.rowsOut !== rows) {
        throw new Error(
          `the ${views} batch wrote ${result.rowsOut} of ${rows} rows`,
        );
      }
      // Outputs are not kept: a 10M-row RESULTS file is several GB.
      await Deno.remove(`${dir}/scored_${views.toLowerCase()}.csv`).catch(
        () => {},
      );
    }
    const peakBatch = peakRssMb(server.pid);
    let readBack: number | null = null, read = 0;
    if ((options.readBack ?? true) && runs.RESULTS) {
      // Reading a RESULTS output back through the API, 10,000 rows a page
      // (scored again: the first output was removed to save disk).
      const scored = await live.batch({
        bucket: "b",
        path: "score.csv",
        output: "scored_results.csv",
        keep: ["id"],
        progress: false,
        poll,
      });
      const t = performance.now();
      for await (const page of scored.pages({ itemsPerPage: 10_000 })) {
        read += page.length;
      }
      readBack = seconds(t);
    }
    const peakAll = peakRssMb(server.pid);
    await server.stop();

    // 3. The floor: the same model in-process, on this thread.
    const store = await openSqliteStore(dataDir);
    const ebm = modelBlobs.read(store, model.id)!;
    store.close();
    const floor: Record<string, number> = {};
    for (const views of viewTypes) {
      floor[views] = await floorSeconds(ebm, `${dir}/score.csv`, views);
    }

    // 4. The peer.
    let peer: Record<string, number> | undefined;
    if (options.peer ?? true) {
      const py = await new Deno.Command("/usr/bin/python3", {
        args: [
          new URL("./batch_sklearn_ref.py", import.meta.url).pathname,
          dir,
        ],
        stdout: "piped",
        stderr: "inherit",
      }).output();
      if (!py.success) throw new Error("bench/batch_sklearn_ref.py failed");
      peer = JSON.parse(new TextDecoder().decode(py.stdout));
    }

    const ratio = (a: number | undefined, b: number | undefined) =>
      a === undefined || b === undefined ? null : a / b;
    return {
      rows,
      input_mb: Number(inputMb.toFixed(1)),
      load: Deno.loadavg().map((x) => x.toFixed(2)).join(" "),
      batch_results_s: runs.RESULTS?.seconds ?? null,
      batch_predictions_s: runs.PREDICTIONS?.seconds ?? null,
      read_back_s: readBack,
      read_back_rows: read,
      floor_results_s: floor.RESULTS ?? null,
      floor_predictions_s: floor.PREDICTIONS ?? null,
      sklearn_score_s: peer?.score_s ?? null,
      sklearn_read_s: peer?.read_s ?? null,
      sklearn_predict_s: peer?.predict_s ?? null,
      ratio_results_vs_floor: ratio(runs.RESULTS?.seconds, floor.RESULTS),
      ratio_predictions_vs_floor: ratio(
        runs.PREDICTIONS?.seconds,
        floor.PREDICTIONS,
      ),
      ratio_results_vs_sklearn: ratio(runs.RESULTS?.seconds, peer?.score_s),
      ratio_predictions_vs_sklearn: ratio(
        runs.PREDICTIONS?.seconds,
        peer?.score_s,
      ),
      server_rss_loaded_mb: rssLoaded,
      server_peak_rss_batches_mb: peakBatch,
      server_peak_rss_with_read_back_mb: peakAll,
      sklearn_peak_rss_mb: peer?.peak_rss_mb ?? null,
    };
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(dataDir, { recursive: true });
  }
}

if (import.meta.main) {
  const { parseArgs } = await import("node:util");
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      rows: { type: "string" },
      views: { type: "string" },
      tmp: { type: "string" },
      "no-peer": { type: "boolean" },
      "no-read-back": { type: "boolean" },
      pad: { type: "string" },
      "cpu-prof-dir": { type: "string" },
    },
  });
  const report = await batchScale({
    rows: values.rows ? Number(values.rows) : undefined,
    views: values.views?.split(",") as BatchScaleOptions["views"],
    tmp: values.tmp,
    peer: !values["no-peer"],
    readBack: !values["no-read-back"],
    pad: values.pad ? Number(values.pad) : undefined,
    profileDir: values["cpu-prof-dir"],
  });
  console.log(JSON.stringify(report, null, 2));
}
