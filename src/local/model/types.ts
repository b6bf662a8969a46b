/**
 * The trained model's data shape: plain JSON-serialisable objects, so a model
 * can be stored, sent to a worker and back, and reloaded with `JSON.parse`.
 *
 * @example
 * ```ts
 * import type { EbmModel } from "./types.ts";
 *
 * const isBinary = (m: EbmModel) => m.classes.length === 2;
 * if (!(typeof isBinary === "function")) throw new Error("example failed");
 * ```
 *
 * @module
 */

import type { Encoder } from "./encoder.ts";
import type { TrainingParams } from "./params.ts";

/**
 * Binning of one feature. Bin 0 is always "missing". Numeric: value `x` falls in
 * bin `1 + (number of cuts <= x)`. Categorical: bin `c` is the encoder's code
 * (1..m categories, m+1 "other").
 */
export interface FeatureBins {
  name: string;
  kind: "numeric" | "categorical";
  /** Sorted cut points (numeric only; empty for categorical). */
  cuts: number[];
  /** Number of bins including the missing bin. */
  nBins: number;
  /** Human-readable label of every bin, e.g. "missing", "[0.5, 1.2)", "Yes", "other". */
  labels: string[];
  /** Coarse bin of every bin, used by pairwise terms (bin 0 stays "missing"). */
  pairMap: number[];
  /** Number of coarse bins. */
  pairBins: number;
  /** Label of every coarse bin (a merged range, or categories joined by " | "). */
  pairLabels: string[];
}

/** One additive term: a shape function over one feature or a pair of features. */
export interface Term {
  /** `<feature>` or `<feature>*<feature>`. */
  name: string;
  /** Feature indices (into `EbmModel.features`). */
  features: number[];
  /**
   * Score table, flattened: main term `scores[bin * K + k]`; pair term
   * `scores[(coarse0 * pairBins1 + coarse1) * K + k]`, with K score columns.
   */
  scores: number[];
  /** Training rows per cell (same cell layout, without K), for importances. */
  counts: number[];
  /**
   * With bagging (`estimators` > 1): per cell (same layout as `scores`), the
   * standard deviation of the bags' scores, the uncertainty band of the
   * shape function; absent for one bag.
   */
  spread?: number[];
}

/** Metrics measured while training. */
export interface TrainingMetrics {
  trainRows: number;
  validationRows: number;
  /** Boosting rounds run for main terms and for pairs. */
  mainRounds: number;
  pairRounds: number;
  /**
   * Why boosting stopped: "early_stopping", "max_rounds" or "deadline"; with
   * several bags, why the bag that ran the most rounds (those reported) did.
   */
  stopReason: string;
  /** Bags trained and averaged (see `estimators`); absent on older models = 1. */
  estimators?: number;
  /**
   * Configurations compared by inner validation before this one was kept
   * (see `selectionAxes` in ebm.ts; 1 = no search); absent on older models.
   */
  candidates?: number;
  /** Whether boosting started from the linear fit (see linear.ts); absent on older models = false. */
  linearStart?: boolean;
  /**
   * With a refined linear start: the bins its numeric features were kept at
   * (see `LINEAR_BINS` in ebm.ts; the features' bins are then finer than
   * `params.bins`, which the shapes were boosted on); absent otherwise.
   */
  linearBins?: number;
  /**
   * The pairs model's weight in the served mixture of the search's pairs and
   * no-pairs models (see `mixModels` in mix.ts): 1, the pairs model alone; 0,
   * no pairs; absent when the search did not compare them, and on older
   * models.
   */
  pairsWeight?: number;
  /**
   * Main terms a greedy round stepped (see `GREEDY_TERMS` in search.ts) when
   * the search chose greedy rounds (wide tables); absent for cyclic rounds.
   */
  greedyTerms?: number;
  /** Log loss on the training rows (null for regression). */
  trainLogLoss: number | null;
  /** Validation metrics, null when validation_size is 0 (and for regression). */
  validationLogLoss: number | null;
  /** ROC AUC (binary) or macro one-vs-rest AUC (multi-class). */
  validationAuc: number | null;
  /**
   * One-vs-rest ROC AUC of every class on its probability, in `classes`
   * order (null for a class without validation rows); null without
   * validation rows; absent for regression and on older models.
   */
  validationClassAuc?: (number | null)[] | null;
  validationAccuracy: number | null;
  /**
   * Regression only (null for classification; absent on models stored before
   * regression existed): root mean squared error on the training rows.
   */
  trainRmse?: number | null;
  /** Regression: validation RMSE (null without validation rows). */
  validationRmse?: number | null;
  /** Regression: validation mean absolute error. */
  validationMae?: number | null;
  /** Regression: validation R² (1 - SSE/SST). */
  validationR2?: number | null;
}

/**
 * Which rows a model's validation metrics were measured on, so that anyone
 * can reproduce them with views on those rows
 * (docs/contract.md#model-validation-rows). The rule: the onboarded rows (datasource rows with a
 * target) in the seeded stratified order of `encodeDataset`, the first
 * `round(trainingSize * n)` train, the next `round(validationSize * n)`
 * (at most the rest) validate; no bag trains on them.
 */
export interface ValidationSplit {
  /** Always "stratified": the order of `EncodedDataset.order`. */
  rule: "stratified";
  /** The order's seed (the onboarding options' `seed`). */
  seed: number;
  trainingSize: number;
  validationSize: number;
  /** Number of validation rows (= `metrics.validationRows`). */
  count: number;
  /**
   * The validation rows: datasource row indices (0-based, header excluded),
   * ascending; null beyond {@link VALIDATION_ROWS_LISTED} rows (the rule and
   * seed still define them).
   */
  rows: number[] | null;
}

/**
 * What a constrained training was asked (docs/contract.md#model-constraints-and-protected-fields):
 * monotone numeric features, features kept out (excluded by a constraint,
 * or protected by the data schema), and the groups inside which features
 * may form pairs (null: any two).
 */
export interface ModelConstraints {
  monotone: Record<string, "increasing" | "decreasing">;
  excluded: string[];
  protected: string[];
  groups: string[][] | null;
  /** Per numeric protected field with many values, its groups' cut points (fairness.ts). */
  groupCuts?: Record<string, number[]>;
}

/** The most validation rows a model lists by index (beyond: seed and rule only). */
export const VALIDATION_ROWS_LISTED = 50_000;

/**
 * A trained explainable boosted additive model.
 *
 * Regression contract (`task: "regression"`, onboarded with `prediction_type:
 * "REGRESSION"` and a NUMBER target, see `encoding.ts`): `classes` is empty,
 * `scoreColumns` is 1, the model boosts the squared error with an identity
 * link (`link` absent), `intercept[0]` (the views' `bias`) is the training
 * mean after centring the terms, and for every row `intercept[0] + sum of
 * the term contributions === prediction` (to 1e-9). With `link: "log"` (a
 * positive target whose log the search's validation preferred) the rounds
 * fit the target's log, `intercept[0] + sum of the contributions` is the
 * log of the prediction and the prediction is `exp` of it (the intercept
 * holds the smearing constant, see `smearing` in objective.ts); the metrics
 * are those of the prediction, on the target's own scale. Early stopping watches the
 * validation mean squared error, and the metrics carry `trainRmse`,
 * `validationRmse`, `validationMae` and `validationR2` (log-loss, AUC and
 * accuracy are null).
 */
export interface EbmModel {
  format: "mlplatform-ebm/1";
  /** `classification` or `regression`; absent on stored models = classification. */
  task?: "classification" | "regression";
  target: string;
  /** Classes, sorted; for binary models the log-odds are of `classes[1]`; empty for regression. */
  classes: string[];
  /** Score columns: 1 for binary (a logit) and regression (the prediction), else one per class (softmax logits). */
  scoreColumns: number;
  /**
   * Regression only: `"log"` when the model serves `exp` of its score (see
   * above); absent: the identity link (the score is the prediction).
   */
  link?: "log";
  /** Intercept per score column. */
  intercept: number[];
  features: FeatureBins[];
  terms: Term[];
  encoder: Encoder;
  params: TrainingParams;
  metrics: TrainingMetrics;
  /** The rows `metrics` validated on; absent on models stored before it. */
  validation?: ValidationSplit;
  /** The constraints it was trained under; absent: none. */
  constraints?: ModelConstraints;
}
