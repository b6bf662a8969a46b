/**
 * Line 8, batch views at scale: 1,000,000 churn-like rows scored end to end
 * through `deployment.batch()` over HTTP (a views batch job on the CLI
 * server, input and output files in its bucket), once with RESULTS (every
 * views column: predictions, probabilities and explanations) and once with
 * PREDICTIONS, beside the floor (the same model in-process on one thread)
 * and the peer (scikit-learn HGB reading the CSV, `predict_proba`, writing
 * the CSV), all in the same run; and the server's peak resident memory.
 * The work is bench/batch_scale.ts's; one run each (a run is long: the
 * figures have no noise estimate).
 *
 * `deno task bench` runs this line in a process of its own.
 *
 * @module
 */
import { batchScale } from "../batch_scale.ts";
import type { Figure, LineResult } from "../lib/figures.ts";

/** Options of {@linkcode batchScaleLine}. */
export interface BatchScaleLineOptions {
  /** Rows scored (default 1,000,000). */
  rows?: number;
}

/**
 * Measures line 8.
 */
export async function batchScaleLine(
  options: BatchScaleLineOptions = {},
): Promise<LineResult> {
  const rows = options.rows ?? 1_000_000;
  const r = await batchScale({ rows, readBack: true });
  const n = rows.toLocaleString("en-US");
  const s = (x: unknown) => `${Number(x).toFixed(2)} s`;
  const rate = (x: unknown) =>
    `${Math.round(rows / Number(x)).toLocaleString("en-US")} rows/s`;
  const one = (
    id: string,
    label: string,
    value: number,
    against: string,
    detail: string,
    goal?: Figure["goal"],
  ): Figure => ({
    id: `batch_scale.${id}`,
    line: 8,
    label,
    value,
    unit: "x",
    noise: NaN,
    against,
    goal,
    detail,
    raw: r,
  });
  const peer = `HGB read CSV + predict_proba + write CSV ${
    s(r.sklearn_score_s)
  } (read ${s(r.sklearn_read_s)}, predict ${s(r.sklearn_predict_s)})`;
  const figures: Figure[] = [
    one(
      "results_vs_peer",
      `batch views, ${n} rows over HTTP, RESULTS (with explanations)`,
      Number(r.ratio_results_vs_sklearn),
      "scikit-learn HGB scoring the same file",
      `ours ${s(r.batch_results_s)} (${rate(r.batch_results_s)}); ${peer}`,
      { max: 2 },
    ),
    one(
      "predictions_vs_peer",
      `batch views, ${n} rows over HTTP, PREDICTIONS`,
      Number(r.ratio_predictions_vs_sklearn),
      "scikit-learn HGB scoring the same file",
      `ours ${s(r.batch_predictions_s)} (${
        rate(r.batch_predictions_s)
      }); ${peer}`,
      { max: 2 },
    ),
    one(
      "results_vs_floor",
      `batch views, ${n} rows, RESULTS: job over HTTP`,
      Number(r.ratio_results_vs_floor),
      "the model in-process, one thread",
      `job ${s(r.batch_results_s)}, in-process ${
        s(r.floor_results_s)
      } (read, parse, contributionTable 1,000 rows a call)`,
    ),
    one(
      "predictions_vs_floor",
      `batch views, ${n} rows, PREDICTIONS: job over HTTP`,
      Number(r.ratio_predictions_vs_floor),
      "the model in-process, one thread",
      `job ${s(r.batch_predictions_s)}, in-process ${
        s(r.floor_predictions_s)
      } (read, parse, predict 1,000 rows a call)`,
    ),
    {
      id: "batch_scale.server_peak_rss",
      line: 8,
      label: `batch views, ${n} rows: server peak memory (RSS)`,
      value: Number(r.server_peak_rss_batches_mb),
      unit: "MB",
      noise: NaN,
      against: "",
      goal: { max: 512 },
      detail:
        `input ${r.input_mb} MB; ${r.server_rss_loaded_mb} MB with the model loaded before scoring, ${r.server_peak_rss_with_read_back_mb} MB after reading the RESULTS back through the API (${
          Number(r.read_back_rows).toLocaleString("en-US")
        } rows in ${
          s(r.read_back_s)
        }); HGB's process peak ${r.sklearn_peak_rss_mb} MB`,
    },
  ];
  return {
    figures,
    notes: [
      `Line 8 (load average ${r.load} at its end): the job reads, parses, scores and writes in chunks, every other chunk in a worker (its rows copied there and back); the floor is the model alone on one thread, with no job, no HTTP and no output written. HGB's figure includes pandas reading and writing the CSV.`,
    ],
  };
}

if (import.meta.main) {
  console.log(JSON.stringify(await batchScaleLine()));
}
