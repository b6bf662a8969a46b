/**
 * The model benchmark of the issue, in one run (`deno task bench:model`):
 *
 * 1. Quality and fit time beside scikit-learn (Debian's python3-sklearn) on
 *    wa_churn.csv and penguins.csv, same stratified 80/20 split (seed 0):
 *    our model called directly, our model trained through the platform's API
 *    in-process and scored through views, HistGradientBoostingClassifier and
 *    LogisticRegression. The bar: ROC AUC within 0.005 of the better
 *    scikit-learn model and fit time at most 2x HistGradientBoosting.
 * 2. Views throughput (rows a second) in-process and over HTTP, through the
 *    SDK and against raw fetch of the same bodies.
 *
 * Exits 1 when the bar is missed. `PYTHON` picks the interpreter
 * (default /usr/bin/python3).
 *
 * @module
 */
import { apiTrainer } from "./api_trainer.ts";
import { printViewsThroughput, viewsThroughput } from "./api_views.ts";
import { localTrainer, main } from "./model_vs_sklearn.ts";
import { DATASETS_DIR } from "../tests/_helpers/datasets.ts";

if (import.meta.main) {
  const started = performance.now();
  const ok = await main({
    "ours, direct": localTrainer(),
    "ours, API in-process + views": apiTrainer(),
  });
  console.log(
    "\nViews throughput (wa_churn model, RESULTS view; 10,000 rows go as ten 1,000-row requests, SDK and raw alike)",
  );
  printViewsThroughput(await viewsThroughput(DATASETS_DIR));
  console.log(
    `\nTotal ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  if (!ok) Deno.exit(1);
}
