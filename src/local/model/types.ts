/**
 * The trained model's data shape: plain JSON-serialisable objects, so a model
 * can be stored, sent to a worker and back, and reloaded with `JSON.parse`.
 *
 * @example
 * ```ts
 * import type { Model } from "./types.ts";
 *
 * const isBinary = (m: Model) => m.classes.length === 2;
 * if (!(typeof isBinary === "function")) throw new Error("example failed");
 * ```
 *
 * @module
 */

import type { Encoder } from "./encoding.ts";
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
  /** Feature indices (into `Model.features`). */
  features: number[];
  /**
   * Score table, flattened: main term `scores[bin * K + k]`; pair term
   * `scores[(coarse0 * pairBins1 + coarse1) * K + k]`, with K score columns.
   */
  scores: number[];
  /** Training rows per cell (same cell layout, without K), for importances. */
  counts: number[];
}

/** Metrics measured while training. */
export interface TrainingMetrics {
  trainRows: number;
  validationRows: number;
  /** Boosting rounds run for main terms and for pairs. */
  mainRounds: number;
  pairRounds: number;
  /** Why boosting stopped: "early_stopping", "max_rounds" or "deadline". */
  stopReason: string;
  trainLogLoss: number;
  /** Validation metrics, null when validation_size is 0. */
  validationLogLoss: number | null;
  /** ROC AUC (binary) or macro one-vs-rest AUC (multi-class). */
  validationAuc: number | null;
  validationAccuracy: number | null;
}

/** A trained explainable boosted additive model. */
export interface Model {
  format: "mlplatform-ebm/1";
  target: string;
  /** Classes, sorted; for binary models the log-odds are of `classes[1]`. */
  classes: string[];
  /** Score columns: 1 for binary (a logit), else one per class (softmax logits). */
  scoreColumns: number;
  /** Intercept per score column. */
  intercept: number[];
  features: FeatureBins[];
  terms: Term[];
  encoder: Encoder;
  params: TrainingParams;
  metrics: TrainingMetrics;
}
