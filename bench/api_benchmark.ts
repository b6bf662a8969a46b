/**
 * The model benchmark of the issue, in one run (`deno task bench:model`):
 *
 * 1. bench/model_bench.ts: for every table in `datasets/` and the churn
 *    table resampled to 100,000 and 1,000,000 rows, ours beside
 *    HistGradientBoosting, logistic regression / ridge and XGBoost on the
 *    same split: test ROC AUC, log loss and accuracy, or R², fit time and
 *    our peak RSS (the large tables through the whole local platform
 *    pipeline).
 * 2. Views throughput (rows a second) in-process and over HTTP, through the
 *    SDK and against raw fetch of the same bodies.
 *
 * With `BENCH_MODEL_JSON=<file>` in the environment (as `deno task bench`
 * sets it for line 7), the figures are also written there. Exits 1 when our
 * model misses a goal of the issue: a score below the best peer's on a
 * public table, a fit time above 3x HGB's on the large tables, or a peak
 * RSS above 1 GB on the 1,000,000-row table. `--skip-large` leaves the
 * large tables out, `--skip-wide` the wide ones, `--only=a,b` runs just those
 * tables (any of them), `--repeats=N` sets the fits per model (default 3). `PYTHON` picks the interpreter (default /usr/bin/python3).
 *
 * @module
 */
import { printViewsThroughput, viewsThroughput } from "./api_views.ts";
import {
  figuresOf,
  pickTables,
  printResults,
  repeatsOf,
  runTables,
} from "./model_bench.ts";
import { DATASETS_DIR } from "../tests/_helpers/datasets.ts";
import { figuresFromReport } from "./lines/model.ts";

if (import.meta.main) {
  const started = performance.now();
  const results = await runTables(pickTables(Deno.args), repeatsOf(Deno.args));
  printResults(results);
  console.log(
    "\nViews throughput (wa_churn model, RESULTS view; 10,000 rows go as ten 1,000-row requests, SDK and raw alike)",
  );
  const views = await viewsThroughput(DATASETS_DIR);
  // Printed as before, and read back as line 7's views figures.
  const printed: string[] = [];
  const log = console.log;
  console.log = (...a: unknown[]) => {
    printed.push(a.join(" "));
    log(...a);
  };
  try {
    printViewsThroughput(views);
  } finally {
    console.log = log;
  }
  const figures = figuresOf(results);
  const missed = figures.filter((f) =>
    f.goal &&
    (("min" in f.goal && f.value < f.goal.min!) ||
      ("max" in f.goal && f.value > f.goal.max!))
  );
  // Accuracy goals hold on the public tables; the resampled ones (split by
  // source row) are wa_churn's customers again: reported, not a goal.
  const counted = missed.filter((f) =>
    !(f.id.endsWith(".score") && /churn_1/.test(f.id))
  );
  for (const f of missed) {
    console.log(
      `  goal missed: ${f.label} = ${f.value.toFixed(3)}${f.unit}${
        counted.includes(f)
          ? ""
          : " (not held: the resampled table is wa_churn's customers again)"
      }`,
    );
  }
  const out = Deno.env.get("BENCH_MODEL_JSON");
  if (out) {
    await Deno.writeTextFile(
      out,
      JSON.stringify({
        figures: [
          ...figuresFromReport(printed.join("\n")),
          ...figures.map((f) =>
            /churn_1/.test(f.id) && f.id.endsWith(".score")
              ? { ...f, goal: undefined }
              : f
          ),
        ],
      }),
    );
  }
  console.log(
    `\nTotal ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  if (counted.length) Deno.exit(1);
}
