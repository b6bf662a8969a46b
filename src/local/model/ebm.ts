/**
 * The explainable boosted additive model's trainer, by its public names
 * (the files listed below each hold one concern): features binned, one
 * shape function per feature learned by cyclic gradient boosting with early
 * stopping on the validation split, then up to `max_interactions` pairwise terms chosen by a FAST-style
 * interaction score and boosted the same way. Binary models have one logit,
 * multi-class models one softmax score per class per bin.
 *
 * - `train.ts`: the entry points ({@link train}, {@link trainAsync},
 *   {@link trainSteps}) and their options;
 * - `search.ts` and `axes.ts`: the configurations compared by inner validation;
 * - `bagging.ts`: the bags of a fit across threads;
 * - `prepared.ts`, `booster.ts`, `stage.ts`, `objective.ts`,
 *   `rowsource.ts`: one fit's prepared data, one bag's fit, one boosting
 *   stage, the loss, the rows a round works on;
 * - `interactions.ts`: choosing the pairs;
 * - `finalize.ts`: from the bags to the model;
 * - `predictor.ts`, `metrics.ts`: scoring a model and measuring it (what
 *   serving loads, without the trainer).
 *
 * Deterministic: the only randomness is seeded (a stream per bag for
 * `subsample` and the bags' splits), so the model is the same whether the
 * bags ran in one thread or half of them on another core
 * ({@link FitOptions.helper}).
 *
 * @example
 * ```ts
 * import { encodeDataset } from "./encoding.ts";
 * import { train } from "./ebm.ts";
 *
 * const x = Array.from({ length: 200 }, (_, i) => i % 20);
 * const y = x.map((v) => (v > 9 ? "hi" : "lo"));
 * const data = encodeDataset({ x, y }, [
 *   { name: "x", data_type: { data_type: "NUMBER" }, designation: "FEATURE", semantic_type: "CONTINUOUS" },
 *   { name: "y", data_type: { data_type: "STRING" }, designation: "TARGET", semantic_type: "CATEGORICAL" },
 * ]);
 * const model = train(data, { max_rounds: 50 });
 * if (!(model.terms[0].name === "x" && model.metrics.validationAuc! > 0.99)) throw new Error("example failed");
 * ```
 *
 * @module
 */

export type { LoggedRound, TrainProgress } from "./progress.ts";
export { type FitOptions, train, trainAsync, trainSteps } from "./train.ts";
export { improves } from "./search.ts";
export {
  type Candidate,
  FEW_PAIRS,
  FEWEST_PAIRS,
  LINEAR_BINS,
  SELECTION_ROWS,
  selectionAxes,
  type SelectionAxis,
  SMOOTH_BINS,
} from "./axes.ts";
export {
  type BagHelper,
  type BagResult,
  type BagTask,
  fitBags,
} from "./bagging.ts";
export {
  BACKFIT_ROWS,
  PER_CELL_ROWS,
  ROWS_PER_DEPTH,
  stepDepth,
} from "./booster.ts";
export { bagCount, BAGGING_ROWS, sampleCount } from "./prepared.ts";
export { ROWS_PER_ROUND } from "./rowsource.ts";
export {
  EARLY_STOPPING_LOSS_FLOOR,
  EARLY_STOPPING_TOLERANCE,
} from "./stage.ts";
export {
  cellsOf,
  rowProbabilities,
  scoreCells,
  termCells,
} from "./predictor.ts";
export { auc, meanAbsoluteError, rSquared } from "./metrics.ts";
