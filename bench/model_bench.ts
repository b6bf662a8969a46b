/**
 * The model benchmark (`deno task bench:model`, via bench/api_benchmark.ts):
 * in one run, for every table in `datasets/` and the churn table resampled
 * to 100,000 and 1,000,000 rows, our model beside scikit-learn's
 * HistGradientBoosting, logistic regression / ridge and XGBoost, on the same
 * split (bench/model_reference.py makes it: stratified for classification,
 * `train_test_split(test_size=0.2, random_state=0)`): test ROC AUC (binary),
 * log loss and accuracy (3+ classes, with every class's one-vs-rest AUC in
 * the notes) or R² (regression), fit time and our peak RSS.
 *
 * Ours runs in a fresh process per table, so its peak RSS is its own: the
 * public tables are encoded and trained directly (default hyperparameters,
 * fit = best of 3 encode + train in the model worker, as the platform
 * trains); the large tables go through the local
 * platform end to end (bench/model_large.ts: infer, ingest, onboard, train,
 * deploy, then views of the test rows), fit = the training job and peak
 * RSS = the whole pipeline's up to the deployed model (the split's files
 * are written by this process, so the pipeline's holds none of it). Peers
 * fit once on the 1,000,000-row table, best of 3 on the others. The
 * resampled tables are split by source row (a customer's copies all on one
 * side), so their test rows are customers no model saw.
 *
 * Run alone: `deno run -A bench/model_bench.ts [--skip-large] [--skip-wide]
 * [--only=a,b] [--repeats=N] [--params=JSON] [--onboarding=JSON]
 * [--splits=N]` (`--only`
 * names any table, the wide and large ones included; `--repeats`: fits per
 * model, best time kept, default 3; `--params`: training parameters over the
 * defaults, `--onboarding`: encoding options such as
 * `one_hot_encoding_max_categories` over the defaults, both for ours on the
 * public tables only, the peers unchanged). Ours fits once when a fit takes over 10 s (best of 3 below).
 * `--splits=N` repeats the benchmark over N splits (`random_state` 0 to
 * N-1, the same rule; default 1, this split alone, printed as above) and
 * prints instead, per table and metric, the means over the splits of ours and
 * of each peer and the paired difference between ours and the peer with the
 * best mean, with its standard error over the splits (plain, and corrected
 * for the training rows the splits share) and how many splits
 * ours is at or above it (`--repeats=1` keeps it to one fit a model and split).
 * `PYTHON` picks the interpreter (default /usr/bin/python3).
 *
 * @module
 */
import { auc, rSquared } from "../src/local/model/ebm.ts";
import { trainInBackground } from "../src/local/model/worker.ts";
import {
  encodeDataset,
  type OnboardingOptions,
  type RawColumns,
  type SchemaField,
} from "../src/local/model/encoding.ts";
import type { TrainingParams } from "../src/local/model/params.ts";
import type { EbmModel } from "../src/local/model/types.ts";
import { predict } from "../src/local/model/explain.ts";
import type { Goal } from "./lib/figures.ts";
import { parseCsv } from "../src/csv.ts";
import {
  AD_DATA,
  BIOMASS,
  CAR_PRICES,
  CELLS,
  CHECK_TIMES,
  CHICAGO,
  CHURN,
  CONCRETE,
  DATASETS_DIR,
  type DatasetSpec,
  DIGITS,
  GRANTS,
  loadDataset,
  numericOf,
  OILS,
  PD_SPEECH,
  PENGUINS,
  readDatasetText,
  SACRAMENTO,
  SCAT,
  WINE,
} from "../tests/_helpers/datasets.ts";
import { groupsFileOf, writeResampledChurn } from "./model_churn_resample.ts";
import { peakRssMb, writeSplit } from "./model_large.ts";

/** One table of the benchmark. */
export interface BenchTable {
  name: string;
  spec: DatasetSpec;
  /** Rows of the resampled churn table; absent for the public files. */
  rows?: number;
  /** Hundreds of columns: `--skip-wide` leaves it out. */
  wide?: boolean;
}

/** The tables, in print order: binary, multi-class, regression, then large. */
export const TABLES: readonly BenchTable[] = [
  { name: "wa_churn", spec: CHURN },
  { name: "cells", spec: CELLS },
  { name: "ad_data", spec: AD_DATA },
  { name: "pd_speech", spec: PD_SPEECH, wide: true },
  { name: "grants", spec: GRANTS, wide: true },
  { name: "penguins", spec: PENGUINS },
  { name: "scat", spec: SCAT },
  { name: "oils", spec: OILS },
  { name: "digits", spec: DIGITS },
  { name: "wine", spec: WINE },
  { name: "concrete", spec: CONCRETE },
  { name: "sacramento", spec: SACRAMENTO },
  { name: "car_prices", spec: CAR_PRICES },
  { name: "biomass", spec: BIOMASS },
  { name: "check_times", spec: CHECK_TIMES },
  { name: "chicago", spec: CHICAGO },
  { name: "churn_100k", spec: CHURN, rows: 100_000 },
  { name: "churn_1m", spec: CHURN, rows: 1_000_000 },
];

/** The benchmark's headline metric of a table: lower is better for log loss. */
export type Metric = "ROC AUC" | "log loss" | "R²";

/** One model's figures on one table. */
export interface Score {
  /**
   * The table's {@link Metric} on the test rows: ROC AUC (binary), log loss
   * (3+ classes) or R² (regression).
   */
  score: number;
  /** 3+ classes: accuracy, macro one-vs-rest AUC, every class's AUC (sorted class order). */
  accuracy?: number;
  auc?: number;
  classAuc?: (number | null)[];
  fitSeconds: number;
  /** Our process's peak RSS in MB (null for the peers). */
  peakMb: number | null;
  /** Extra facts (steps of the pipeline, rounds...). */
  notes?: string;
}

/** A table's row: ours and the peers. */
export interface TableResult {
  table: BenchTable;
  metric: Metric;
  trainRows: number;
  testRows: number;
  /** The columns the model is given (the target left out), when known. */
  features?: number;
  ours: Score;
  peers: Record<"hgb" | "linear" | "xgboost", Score | null>;
  /** The 1-minute load average when ours ran (other work slows both sides). */
  loadAverage?: number;
}

const take = (cols: RawColumns, rows: number[], skip?: string): RawColumns =>
  Object.fromEntries(
    Object.entries(cols).filter(([k]) => k !== skip).map((
      [k, v],
    ) => [k, rows.map((r) => v[r])]),
  );

/**
 * Encodes and trains ours on the split's train rows of `columns` (best of
 * `repeats` encode + train, `params` over the defaults, `onboarding` over
 * the encoding defaults), as the local
 * platform trains (`trainInBackground`: the model worker, with a helper on
 * another core when there is one; one fit only when it takes over 10 s),
 * then scores the test rows: ROC AUC (macro one-vs-rest for 3+ classes) or
 * R² as `score`; for 3+ classes also log loss, accuracy and every class's
 * AUC (in sorted class-name order, as the peers' label encoder orders them).
 *
 * @example
 * ```ts
 * import { fitAndScore } from "./model_bench.ts";
 * const x = Array.from({ length: 200 }, (_, i) => i % 20);
 * const y = x.map((v) => (v > 9 ? "hi" : "lo"));
 * const fields = [
 *   { name: "x", data_type: { data_type: "NUMBER" as const }, designation: "FEATURE" as const, semantic_type: "CONTINUOUS" as const },
 *   { name: "y", data_type: { data_type: "STRING" as const }, designation: "TARGET" as const, semantic_type: "CATEGORICAL" as const },
 * ];
 * const rows = x.map((_, i) => i);
 * const r = await fitAndScore({ x, y }, fields, "y", undefined, { train: rows.slice(0, 150), test: rows.slice(150) }, 1, { max_rounds: 50 });
 * if (!(r.score > 0.99 && r.model.terms[0].name === "x")) throw new Error("example failed");
 * ```
 */
export async function fitAndScore(
  columns: RawColumns,
  fields: SchemaField[],
  target: string,
  predictionType: "CLASSIFICATION" | "REGRESSION" | undefined,
  split: { train: number[]; test: number[] },
  repeats = 3,
  params: Partial<TrainingParams> = {},
  onboarding: OnboardingOptions = {},
): Promise<{
  score: number;
  fitSeconds: number;
  model: EbmModel;
  multiclass?: { logLoss: number; accuracy: number; classAuc: number[] };
}> {
  const trainCols = take(columns, split.train);
  let best = Infinity;
  let model = null;
  for (let r = 0; r < repeats; r++) {
    const t0 = performance.now();
    const data = encodeDataset(trainCols, fields, {
      ...onboarding,
      targets: [target],
      prediction_type: predictionType,
    });
    model = await trainInBackground(data, params, { transferData: true });
    best = Math.min(best, (performance.now() - t0) / 1000);
    if (best > 10) break;
  }
  const m = model!;
  // The test rows without the target and without the columns the model
  // dropped at training (views refuse those, as the model record says).
  const dropped = new Set(m.encoder.dropped?.map((d) => d.name) ?? []);
  const query = Object.fromEntries(
    Object.entries(take(columns, split.test, target)).filter(([k]) =>
      !dropped.has(k)
    ),
  );
  const truth = split.test.map((r: number) => columns[target][r]);
  const p = predict(m, query);
  let score: number;
  if (m.task === "regression") {
    score = rSquared(Float64Array.from(p.values!), Float64Array.from(truth));
    return { score, fitSeconds: best, model: m };
  }
  const K = m.classes.length === 2 ? 1 : m.classes.length;
  const y = Int32Array.from(truth, (t) => m.classes.indexOf(String(t)));
  score = auc(
    Float64Array.from(
      K === 1 ? p.probabilities.map((q) => q[1]) : p.probabilities.flat(),
    ),
    y,
    K,
  );
  if (K === 1) return { score, fitSeconds: best, model: m };
  return {
    score,
    fitSeconds: best,
    model: m,
    multiclass: multiclassScores(p.probabilities, y, m.classes),
  };
}

/**
 * Log loss (probabilities clipped to [1e-15, 1], as scikit-learn's), accuracy
 * and every class's one-vs-rest AUC of class probabilities, the AUCs in
 * sorted class-name order.
 *
 * @example
 * ```ts
 * import { multiclassScores } from "./model_bench.ts";
 * const r = multiclassScores([[0.5, 0.25, 0.25], [0.25, 0.5, 0.25]], Int32Array.of(0, 2), ["b", "a", "c"]);
 * if (Math.abs(r.logLoss - (Math.log(2) + Math.log(4)) / 2) > 1e-12 || r.accuracy !== 0.5) throw new Error(JSON.stringify(r));
 * ```
 */
export function multiclassScores(
  probabilities: readonly (readonly number[])[],
  y: Int32Array,
  classes: readonly string[],
): { logLoss: number; accuracy: number; classAuc: number[] } {
  let loss = 0, right = 0;
  probabilities.forEach((q, i) => {
    loss -= Math.log(Math.min(1, Math.max(1e-15, q[y[i]])));
    if (q.indexOf(Math.max(...q)) === y[i]) right++;
  });
  const order = classes.map((_, k) => k).sort((a, b) =>
    classes[a] < classes[b] ? -1 : classes[a] > classes[b] ? 1 : 0
  );
  const classAuc = order.map((k) =>
    auc(
      Float64Array.from(probabilities, (q) => q[k]),
      Int32Array.from(y, (t) => (t === k ? 1 : 0)),
      1,
    )
  );
  return {
    logLoss: loss / y.length,
    accuracy: right / y.length,
    classAuc,
  };
}

/**
 * Ours on a public table, in this process: {@link fitAndScore} with default
 * hyperparameters (best of 3), or `overrides` over them. Prints one JSON
 * line (run by {@link runTables} as a subprocess).
 */
async function oursDirect(
  table: BenchTable,
  splitFile: string,
  repeats = 3,
  overrides: Overrides = {},
): Promise<Score> {
  const { spec } = table;
  const d = await loadDataset(spec);
  const split = JSON.parse(await Deno.readTextFile(splitFile));
  const { score, fitSeconds, model: m, multiclass } = await fitAndScore(
    d.columns,
    d.fields,
    spec.target,
    spec.predictionType,
    split,
    repeats,
    overrides.params,
    overrides.onboarding,
  );
  return {
    ...(multiclass
      ? {
        score: multiclass.logLoss,
        accuracy: multiclass.accuracy,
        auc: score,
        classAuc: multiclass.classAuc,
      }
      : { score }),
    fitSeconds,
    peakMb: peakRssMb(),
    notes:
      `rounds ${m.metrics.mainRounds}/${m.metrics.pairRounds} (${m.metrics.stopReason}), ${
        m.metrics.estimators ?? 1
      } bag(s)`,
  };
}

/** Runs a command and returns the last line of its stdout (throws with its stderr on failure). */
export async function run(cmd: string, args: string[]): Promise<string> {
  const out = await new Deno.Command(cmd, {
    args,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(
      `${cmd} ${args.join(" ")} failed:\n${
        new TextDecoder().decode(out.stderr).slice(-2000)
      }`,
    );
  }
  const lines = new TextDecoder().decode(out.stdout).trim().split("\n");
  return lines[lines.length - 1];
}

/** A CSV file's header (a `.gz` file unpacked), without reading a large file whole. */
async function headerOf(file: string): Promise<string[]> {
  let head: string;
  if (file.endsWith(".gz")) head = await readDatasetText(file);
  else {
    const f = await Deno.open(file);
    try {
      const buf = new Uint8Array(1 << 20);
      const n = (await f.read(buf)) ?? 0;
      head = new TextDecoder().decode(buf.subarray(0, n));
    } finally {
      f.close();
    }
  }
  return parseCsv(head.split("\n", 1)[0]).header;
}

/**
 * Runs every table (ours in a subprocess, the peers in Python) and returns
 * the results; `overrides` go to ours on the public tables; `seed` is the
 * split's `random_state` (0: the benchmark's split).
 */
export async function runTables(
  tables: readonly BenchTable[] = TABLES,
  repeats = 3,
  overrides: Overrides = {},
  seed = 0,
): Promise<TableResult[]> {
  const python = Deno.env.get("PYTHON") ?? "/usr/bin/python3";
  const dir = await Deno.makeTempDir({ prefix: "model_bench_" });
  const results: TableResult[] = [];
  try {
    for (const table of tables) {
      const { spec } = table;
      const file = table.rows
        ? await writeResampledChurn(table.rows, dir)
        : `${DATASETS_DIR}${spec.file}`;
      const splitFile = `${dir}/${table.name}.split.json`;
      const regression = spec.predictionType === "REGRESSION";
      const header = await headerOf(file);
      const numeric = numericOf(spec, header).filter((c) => c !== spec.target);
      const ref = JSON.parse(
        await run(python, [
          new URL("./model_reference.py", import.meta.url).pathname,
          file,
          spec.target,
          numeric.join(","),
          regression ? "regression" : "classification",
          splitFile,
          // Large tables: 3 fits at 100,000 rows, 1 at 1,000,000 and on
          // the wide tables; split by source row, so no customer's copies
          // are on both sides.
          (table.rows && table.rows >= 1_000_000) || table.wide
            ? "1"
            : String(repeats),
          ...(table.rows ? [groupsFileOf(file)] : []),
          ...(spec.peersDrop ? [`--drop=${spec.peersDrop.join(",")}`] : []),
          `--seed=${seed}`,
        ]),
      );
      const split = JSON.parse(await Deno.readTextFile(splitFile));
      let ours: Score;
      const loadAverage = Deno.loadavg()[0];
      if (table.rows) {
        const work = await Deno.makeTempDir({ dir, prefix: "large_" });
        await writeSplit(file, spec.target, split, work);
        const large = new URL("./model_large.ts", import.meta.url).pathname;
        const inferred = JSON.parse(
          await run(Deno.execPath(), [
            "run",
            "-A",
            large,
            "--infer",
            work,
            spec.target,
          ]),
        );
        const r = JSON.parse(
          await run(Deno.execPath(), [
            "run",
            "-A",
            new URL("./model_large.ts", import.meta.url).pathname,
            work,
            spec.target,
          ]),
        );
        const s = r.steps as Record<string, number>;
        ours = {
          score: r.score,
          fitSeconds: s.train,
          // The pipeline's peak: infer to deployed model (views come after).
          peakMb: r.peak_rss_mb_after.deploy,
          notes: `infer ${
            inferred.steps.infer.toFixed(1)
          } s (own process, peak ${inferred.peak_rss_mb} MB); ingest ${
            s.ingest.toFixed(1)
          } s, onboard ${s.onboard.toFixed(1)} s, train ${
            s.train.toFixed(1)
          } s, deploy ${s.deploy.toFixed(1)} s; peak RSS after each step ${
            JSON.stringify(r.peak_rss_mb_after)
          } MB; ${r.stop_reason}`,
        };
        await Deno.remove(file);
        await Deno.remove(groupsFileOf(file));
      } else {
        try {
          ours = JSON.parse(
            await run(Deno.execPath(), [
              "run",
              "-A",
              new URL(import.meta.url).pathname,
              `--one=${table.name}`,
              `--split=${splitFile}`,
              `--repeats=${repeats}`,
              ...overrideArgs(overrides),
            ]),
          );
        } catch (e) {
          // One table's failure is its row's, not the whole run's.
          ours = {
            score: NaN,
            fitSeconds: NaN,
            peakMb: null,
            notes: `FAILED: ${String(e).slice(-400)}`,
          };
        }
      }
      const peer = (
        m: {
          score: number;
          fit_seconds: number;
          log_loss?: number;
          accuracy?: number;
          class_auc?: (number | null)[];
        } | null,
      ): Score | null =>
        m
          ? {
            ...(m.log_loss === undefined ? { score: m.score } : {
              score: m.log_loss,
              accuracy: m.accuracy,
              auc: m.score,
              classAuc: m.class_auc,
            }),
            fitSeconds: m.fit_seconds,
            peakMb: null,
          }
          : null;
      results.push({
        table,
        metric: regression
          ? "R²"
          : ref.hgb.log_loss !== undefined
          ? "log loss"
          : "ROC AUC",
        trainRows: split.train.length,
        testRows: split.test.length,
        features: header.length - 1,
        ours,
        loadAverage,
        peers: {
          hgb: peer(ref.hgb),
          linear: peer(ref.linear),
          xgboost: peer(ref.xgboost),
        },
      });
    }
    return results;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Prints the results as one table, with our notes under it. */
export function printResults(results: readonly TableResult[]): void {
  const pad = (s: string, n: number) => s.padStart(n);
  console.log(
    `${"table".padEnd(11)} ${pad("rows", 9)} ${pad("metric", 7)} | ${
      pad("ours", 6)
    } ${pad("HGB", 6)} ${pad("LR/rdg", 6)} ${pad("XGB", 6)} | ${
      pad("fit ours", 8)
    } ${pad("HGB", 7)} ${pad("LR/rdg", 7)} ${pad("XGB", 7)} ${
      pad("ours/HGB", 8)
    } | ${pad("peak MB", 7)} | vs best peer`,
  );
  for (const r of results) {
    const scores = [r.ours, r.peers.hgb, r.peers.linear, r.peers.xgboost];
    const lower = r.metric === "log loss";
    const bestPeer = bestOf(r, (p) => p.score);
    const f = (s: Score | null, d = 4) => s ? s.score.toFixed(d) : "-";
    const t = (s: Score | null) => s ? s.fitSeconds.toFixed(2) : "-";
    const rows = r.trainRows + r.testRows;
    console.log(
      `${r.table.name.padEnd(11)} ${pad(rows.toLocaleString("en"), 9)} ${
        pad(r.metric, 7)
      } | ${scores.map((s) => pad(f(s), 6)).join(" ")} | ${pad(t(r.ours), 8)} ${
        pad(t(r.peers.hgb), 7)
      } ${pad(t(r.peers.linear), 7)} ${pad(t(r.peers.xgboost), 7)} ${
        pad(
          r.peers.hgb
            ? (r.ours.fitSeconds / r.peers.hgb.fitSeconds).toFixed(2) + "x"
            : "-",
          8,
        )
      } | ${pad(String(r.ours.peakMb ?? "-"), 7)} | ${
        signed(
          lower ? bestPeer - r.ours.score : r.ours.score - bestPeer,
        )
      }`,
    );
    if (r.ours.accuracy === undefined) continue;
    const a = (s: Score | null) => s?.accuracy?.toFixed(4) ?? "-";
    console.log(
      `${"".padEnd(11)} ${pad("", 9)} ${pad("acc", 7)} | ${
        scores.map((s) => pad(a(s), 6)).join(" ")
      } | ${"".padEnd(45)} | ${
        signed(
          r.ours.accuracy - bestOf(r, (p) => p.accuracy ?? -Infinity, "max"),
        )
      }`,
    );
  }
  console.log("");
  for (const r of results) {
    if (r.ours.notes) console.log(`  ${r.table.name}: ${r.ours.notes}`);
    if (!r.ours.classAuc) continue;
    const c = (s: Score | null) =>
      s?.classAuc?.map((x) => x?.toFixed(3) ?? "-").join("/") ?? "-";
    console.log(
      `    per-class AUC: ours ${c(r.ours)}; HGB ${c(r.peers.hgb)}; LR ${
        c(r.peers.linear)
      }; XGB ${c(r.peers.xgboost)}`,
    );
  }
}

const signed = (d: number) => (d >= 0 ? "+" : "") + d.toFixed(4);

/**
 * The best peer's figure `of` on a row: the lowest for log loss, the
 * highest otherwise (or as `way` says).
 */
function bestOf(
  r: TableResult,
  of: (s: Score) => number,
  way: "min" | "max" = r.metric === "log loss" ? "min" : "max",
): number {
  const xs = [r.peers.hgb, r.peers.linear, r.peers.xgboost].filter((p) =>
    p !== null
  ).map((p) => of(p!));
  return way === "min" ? Math.min(...xs) : Math.max(...xs);
}

/**
 * Issue 22 item 6's goals for a table's fit: its ratio to HGB's fit (at most
 * 1x at 1,000,000 rows, 1.5x at 100,000, 2x over 100 columns), its seconds
 * (at most 5 under 10,000 rows and 100 columns) and its peak RSS (at most
 * 800 MB at 1,000,000 rows).
 *
 * @example
 * ```ts
 * import { fitGoals } from "./model_bench.ts";
 * const t = (rows: number | undefined, features: number, n = 1000) => fitGoals({ table: { name: "t", rows, spec: { file: "t.csv", target: "y" } }, features, trainRows: n, testRows: 0 });
 * if (t(1_000_000, 20).ratio?.max !== 1 || t(1_000_000, 20).peakMb?.max !== 800 || t(100_000, 20).ratio?.max !== 1.5) throw new Error();
 * if (t(undefined, 130).ratio?.max !== 2 || t(undefined, 130).seconds !== undefined) throw new Error();
 * if (t(undefined, 64).seconds?.max !== 5 || t(undefined, 64).ratio !== undefined || t(undefined, 64, 10_000).seconds !== undefined) throw new Error();
 * ```
 */
export function fitGoals(
  r: Pick<TableResult, "table" | "features" | "trainRows" | "testRows">,
): { ratio?: Goal; seconds?: Goal; peakMb?: Goal } {
  const { rows } = r.table;
  if (rows) {
    return rows >= 1_000_000
      ? { ratio: { max: 1 }, peakMb: { max: 800 } }
      : { ratio: { max: 1.5 } };
  }
  if ((r.features ?? 0) > 100) return { ratio: { max: 2 } };
  return r.trainRows + r.testRows < 10_000 && r.features !== undefined
    ? { seconds: { max: 5 } }
    : {};
}

/**
 * The results as figures of `deno task bench`'s line 7: our score against
 * the best peer's (a ratio), our fit time against HGB's (and in seconds
 * where {@link fitGoals} sets a goal in seconds), our peak RSS.
 *
 * @example
 * ```ts
 * import { figuresOf } from "./model_bench.ts";
 * const s = (score: number, fitSeconds: number) => ({ score, fitSeconds, peakMb: null });
 * const f = figuresOf([{ table: { name: "t", spec: { file: "t.csv", target: "y", numeric: [] } }, metric: "R²", trainRows: 8, testRows: 2,
 *   ours: { score: 0.9, fitSeconds: 2, peakMb: 100 }, peers: { hgb: s(0.8, 1), linear: s(0.9, 0.1), xgboost: null } }]);
 * if (f.length !== 3 || f[0].value !== 1 || f[1].value !== 2 || f[2].value !== 100) throw new Error(JSON.stringify(f));
 * ```
 */
export function figuresOf(results: readonly TableResult[]) {
  return results.flatMap((r) => {
    const best = bestOf(r, (p) => p.score);
    const goals = fitGoals(r);
    const key = `model.${r.table.name}`;
    const accuracy = r.ours.accuracy === undefined ? [] : [{
      id: `${key}.accuracy`,
      line: 7,
      label: `model, ${r.table.name}: test accuracy`,
      value: r.ours.accuracy / bestOf(r, (p) => p.accuracy ?? 0, "max"),
      unit: "x",
      noise: NaN,
      against: "the best of HGB, LR and XGBoost",
      goal: { min: 1 },
      detail: `${r.ours.accuracy.toFixed(4)} vs ${
        bestOf(r, (p) => p.accuracy ?? 0, "max").toFixed(4)
      }`,
    }];
    return [
      {
        id: `${key}.score`,
        line: 7,
        label: `model, ${r.table.name}: test ${r.metric}${
          r.metric === "log loss" ? " (best peer's / ours)" : ""
        }${r.table.rows ? " (split by source row)" : ""}`,
        // A ratio where 1 or more is at least the best peer's, whichever
        // way the metric points.
        value: r.metric === "log loss"
          ? best / r.ours.score
          : r.ours.score / best,
        unit: "x",
        noise: NaN,
        against: "the best of HGB, LR/ridge and XGBoost",
        goal: { min: 1 },
        detail: `${r.ours.score.toFixed(4)} vs ${best.toFixed(4)}`,
      },
      ...accuracy,
      {
        id: `${key}.fit`,
        line: 7,
        label: `model, ${r.table.name}: fit time, ours / HGB's`,
        value: r.peers.hgb ? r.ours.fitSeconds / r.peers.hgb.fitSeconds : NaN,
        unit: "x",
        noise: NaN,
        against: "scikit-learn HistGradientBoosting",
        goal: goals.ratio,
        detail: `ours ${r.ours.fitSeconds.toFixed(3)} s vs HGB ${
          r.peers.hgb?.fitSeconds.toFixed(3) ?? "-"
        } s${
          r.loadAverage === undefined
            ? ""
            : `; load ${r.loadAverage.toFixed(1)} when ours ran`
        }`,
      },
      ...(goals.seconds
        ? [{
          id: `${key}.fit_seconds`,
          line: 7,
          label: `model, ${r.table.name}: fit time`,
          value: r.ours.fitSeconds,
          unit: "s",
          noise: NaN,
          against: "",
          goal: goals.seconds,
        }]
        : []),
      {
        id: `${key}.peak_rss`,
        line: 7,
        label: `model, ${r.table.name}: our peak RSS`,
        value: r.ours.peakMb ?? NaN,
        unit: "MB",
        noise: NaN,
        against: "",
        goal: goals.peakMb,
      },
    ];
  });
}

/**
 * The tables the command-line flags pick: `--only=a,b` names them (any
 * table); otherwise every table but the large ones under `--skip-large` and
 * the wide ones under `--skip-wide`.
 *
 * @example
 * ```ts
 * import { pickTables } from "./model_bench.ts";
 * if (pickTables(["--only=digits,grants"]).map((t) => t.name).join() !== "grants,digits") throw new Error();
 * if (pickTables(["--skip-large", "--skip-wide"]).some((t) => t.rows || t.wide)) throw new Error();
 * ```
 */
export function pickTables(argv: readonly string[]): BenchTable[] {
  const only = argv.find((a) => a.startsWith("--only="))?.slice(7).split(",");
  if (only) {
    const unknown = only.filter((n) => !TABLES.some((t) => t.name === n));
    if (unknown.length) {
      throw new Error(
        `--only: no table ${unknown.join(", ")} (tables: ${
          TABLES.map((t) => t.name).join(", ")
        })`,
      );
    }
    return TABLES.filter((t) => only.includes(t.name));
  }
  return TABLES.filter((t) =>
    !(argv.includes("--skip-large") && t.rows) &&
    !(argv.includes("--skip-wide") && t.wide)
  );
}

/**
 * What ours trains with beyond the defaults: training parameters and
 * onboarding (encoding) options.
 */
export interface Overrides {
  params?: Partial<TrainingParams>;
  onboarding?: OnboardingOptions;
}

/**
 * `--params=JSON` and `--onboarding=JSON`: the {@link Overrides} of the
 * command line (none when absent).
 *
 * @example
 * ```ts
 * import { overridesOf } from "./model_bench.ts";
 * const o = overridesOf(["--only=sacramento", '--onboarding={"one_hot_encoding_max_categories":100}']);
 * if (!(o.onboarding?.one_hot_encoding_max_categories === 100 && o.params === undefined)) throw new Error("example failed");
 * ```
 */
export function overridesOf(argv: readonly string[]): Overrides {
  const json = (flag: string) => {
    const a = argv.find((x) => x.startsWith(`--${flag}=`));
    return a ? JSON.parse(a.slice(flag.length + 3)) : undefined;
  };
  const out: Overrides = {};
  const params = json("params"), onboarding = json("onboarding");
  if (params) out.params = params;
  if (onboarding) out.onboarding = onboarding;
  return out;
}

/** The command-line flags that give a subprocess the same {@link Overrides}. */
function overrideArgs(o: Overrides): string[] {
  return [
    ...(o.params ? [`--params=${JSON.stringify(o.params)}`] : []),
    ...(o.onboarding ? [`--onboarding=${JSON.stringify(o.onboarding)}`] : []),
  ];
}

/** `--repeats=N`: fits per model and table, best time kept (default 3; 1 on a busy machine). */
export function repeatsOf(argv: readonly string[]): number {
  const r = argv.find((a) => a.startsWith("--repeats="));
  return r ? Math.max(1, Number(r.slice(10)) || 1) : 3;
}

/**
 * `--splits=N`: how many splits to run (`random_state` 0 to N-1, the same
 * rule as the benchmark's split; default 1, the benchmark's split alone).
 *
 * @example
 * ```ts
 * import { splitsOf } from "./model_bench.ts";
 * if (splitsOf(["--only=cells"]) !== 1 || splitsOf(["--splits=10"]) !== 10) throw new Error("example failed");
 * ```
 */
export function splitsOf(argv: readonly string[]): number {
  const s = argv.find((a) => a.startsWith("--splits="));
  return s ? Math.max(1, Math.floor(Number(s.slice(9))) || 1) : 1;
}

/**
 * {@link runTables} over `splits` splits (`random_state` 0 to splits - 1):
 * one list of results per split, in split order (`onSplit` hears of each
 * as it ends).
 */
export async function runSplits(
  tables: readonly BenchTable[],
  splits: number,
  repeats = 1,
  overrides: Overrides = {},
  onSplit: (seed: number, results: TableResult[]) => void = () => {},
): Promise<TableResult[][]> {
  const out: TableResult[][] = [];
  for (let seed = 0; seed < splits; seed++) {
    out.push(await runTables(tables, repeats, overrides, seed));
    onSplit(seed, out[seed]);
  }
  return out;
}

/** One table's metric over several splits ({@link summarizeSplits}). */
export interface SplitSummary {
  table: string;
  /** The table's {@link Metric}, or "accuracy" (3+ classes). */
  metric: Metric | "accuracy";
  /** Means over the splits: ours and each peer's (null: the peer never ran). */
  ours: number;
  peers: Record<"hgb" | "linear" | "xgboost", number | null>;
  /** The peer with the best mean (lowest for log loss, highest otherwise). */
  best: "hgb" | "linear" | "xgboost";
  /**
   * Ours minus the best peer on each split where both scored, signed so that
   * a positive difference is ours ahead (for log loss: the peer's minus
   * ours), as the benchmark's "vs best peer" column.
   */
  differences: number[];
  /** Their mean and its standard error (sample standard deviation / √n; NaN for one split). */
  difference: number;
  standardError: number;
  /**
   * The standard error corrected for overlapping training sets (Nadeau and
   * Bengio's corrected resampled t test: the variance over `1/n + test
   * rows / train rows` instead of `1/n`); the splits share most of their
   * training rows, so the plain one understates the noise.
   */
  correctedStandardError: number;
  /** Splits where ours is at or above the best peer (difference ≥ 0). */
  atOrAbove: number;
}

/**
 * Per table and metric (the headline one, and accuracy for 3+ classes):
 * the means over the splits of ours and of each peer, and the paired
 * difference between ours and the peer with the best mean, with its standard
 * error over the splits.
 *
 * @example
 * ```ts
 * import { summarizeSplits, type TableResult } from "./model_bench.ts";
 * const row = (ours: number, hgb: number, linear: number): TableResult => ({
 *   table: { name: "t", spec: { file: "t.csv", target: "y", numeric: [] } }, metric: "R²", trainRows: 8, testRows: 2,
 *   ours: { score: ours, fitSeconds: 1, peakMb: 100 },
 *   peers: { hgb: { score: hgb, fitSeconds: 1, peakMb: null }, linear: { score: linear, fitSeconds: 1, peakMb: null }, xgboost: null },
 * });
 * const [s] = summarizeSplits([[row(0.9, 0.8, 0.85)], [row(0.7, 0.8, 0.6)], [row(0.8, 0.8, 0.7)]]);
 * const close = (a: number, b: number) => Math.abs(a - b) < 1e-12;
 * if (!(s.best === "hgb" && close(s.ours, 0.8) && s.peers.xgboost === null && close(s.peers.linear!, 0.7166666666666667)
 *   && close(s.difference, 0) && close(s.standardError, 0.1 / Math.sqrt(3)) && s.atOrAbove === 2
 *   && close(s.correctedStandardError, 0.1 * Math.sqrt(1 / 3 + 2 / 8)))) throw new Error(JSON.stringify(s));
 * ```
 */
export function summarizeSplits(
  perSplit: readonly (readonly TableResult[])[],
): SplitSummary[] {
  const names = [...new Set(perSplit.flat().map((r) => r.table.name))];
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const out: SplitSummary[] = [];
  for (const name of names) {
    const rows = perSplit.flatMap((rs) =>
      rs.filter((r) => r.table.name === name)
    );
    const metrics: [SplitSummary["metric"], (s: Score) => number][] = [
      [rows[0].metric, (s) => s.score],
      ...(rows[0].ours.accuracy === undefined ? [] : [
        ["accuracy", (s: Score) => s.accuracy ?? NaN] as [
          SplitSummary["metric"],
          (s: Score) => number,
        ],
      ]),
    ];
    for (const [metric, of] of metrics) {
      const sign = metric === "log loss" ? -1 : 1;
      const finite = (xs: number[]) => xs.filter((x) => Number.isFinite(x));
      const peerMean = (k: "hgb" | "linear" | "xgboost") => {
        const xs = finite(
          rows.map((r) => (r.peers[k] ? of(r.peers[k]!) : NaN)),
        );
        return xs.length ? mean(xs) : null;
      };
      const peers = {
        hgb: peerMean("hgb"),
        linear: peerMean("linear"),
        xgboost: peerMean("xgboost"),
      };
      const best = (["hgb", "linear", "xgboost"] as const)
        .filter((k) => peers[k] !== null)
        .reduce((a, b) => sign * peers[b]! > sign * peers[a]! ? b : a);
      const differences = finite(
        rows.map((r) =>
          r.peers[best] ? sign * (of(r.ours) - of(r.peers[best]!)) : NaN
        ),
      );
      const d = mean(differences);
      const testShare = mean(rows.map((r) => r.testRows / r.trainRows));
      const sd = Math.sqrt(
        differences.reduce((a, x) => a + (x - d) ** 2, 0) /
          (differences.length - 1),
      );
      out.push({
        table: name,
        metric,
        ours: mean(finite(rows.map((r) => of(r.ours)))),
        peers,
        best,
        differences,
        difference: d,
        standardError: differences.length > 1
          ? sd / Math.sqrt(differences.length)
          : NaN,
        correctedStandardError: differences.length > 1
          ? sd * Math.sqrt(1 / differences.length + testShare)
          : NaN,
        atOrAbove: differences.filter((x) => x >= 0).length,
      });
    }
  }
  return out;
}

/** Prints {@link summarizeSplits}'s figures as one table, each split's difference under it. */
function printSplitSummary(summaries: readonly SplitSummary[]): void {
  const pad = (s: string, n: number) => s.padStart(n);
  const f = (x: number | null) => x === null ? "-" : x.toFixed(4);
  const label = { hgb: "HGB", linear: "LR/rdg", xgboost: "XGB" };
  console.log(
    `${"table".padEnd(11)} ${pad("metric", 8)} | ${pad("ours", 6)} ${
      pad("HGB", 6)
    } ${pad("LR/rdg", 6)} ${pad("XGB", 6)} | ${pad("best", 6)} ${
      pad("ours-best", 9)
    } ${pad("SE", 6)} ${pad("cSE", 6)} ${pad(">=best", 6)} | >2 SE  >2 cSE`,
  );
  const beyond = (d: number, se: number) =>
    (Math.abs(d) > 2 * se ? d > 0 ? "ahead" : "behind" : "no").padEnd(6);
  for (const s of summaries) {
    console.log(
      `${s.table.padEnd(11)} ${pad(s.metric, 8)} | ${
        [s.ours, s.peers.hgb, s.peers.linear, s.peers.xgboost].map((x) =>
          pad(f(x), 6)
        ).join(" ")
      } | ${pad(label[s.best], 6)} ${pad(signed(s.difference), 9)} ${
        pad(s.standardError.toFixed(4), 6)
      } ${pad(s.correctedStandardError.toFixed(4), 6)} ${
        pad(`${s.atOrAbove}/${s.differences.length}`, 6)
      } | ${beyond(s.difference, s.standardError)} ${
        beyond(s.difference, s.correctedStandardError)
      }`,
    );
  }
  console.log(
    "\n(means over the splits; ours-best: paired, positive = ours ahead, for log loss best - ours;" +
      " SE: its standard error over the splits, cSE: corrected for the splits' shared training rows)",
  );
  for (const s of summaries) {
    console.log(
      `  ${s.table} ${s.metric} vs ${label[s.best]}, split 0..${
        s.differences.length - 1
      }: ${s.differences.map(signed).join(" ")}`,
    );
  }
}

if (import.meta.main) {
  const args = Object.fromEntries(
    Deno.args.map((a) => a.replace(/^--/, "").split("=")).map((
      [k, v],
    ) => [k, v ?? "true"]),
  );
  if (args.one) {
    const table = TABLES.find((t) => t.name === args.one)!;
    console.log(
      JSON.stringify(
        await oursDirect(
          table,
          args.split,
          Number(args.repeats ?? 3),
          overridesOf(Deno.args),
        ),
      ),
    );
  } else if (splitsOf(Deno.args) > 1) {
    const perSplit = await runSplits(
      pickTables(Deno.args),
      splitsOf(Deno.args),
      repeatsOf(Deno.args),
      overridesOf(Deno.args),
      (seed, rs) =>
        console.error(
          `split ${seed}: ${
            rs.map((r) => `${r.table.name} ${r.ours.score.toFixed(4)}`).join(
              ", ",
            )
          } (load ${Deno.loadavg()[0].toFixed(1)})`,
        ),
    );
    printSplitSummary(summarizeSplits(perSplit));
  } else {
    printResults(
      await runTables(
        pickTables(Deno.args),
        repeatsOf(Deno.args),
        overridesOf(Deno.args),
      ),
    );
  }
}
