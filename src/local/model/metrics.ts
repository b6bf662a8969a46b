/**
 * One of each metric the model reports (log loss and squared error live with
 * the gradients in `boost.ts`; R² is `regression_fit.ts`'s, shared with the
 * client): AUC and accuracy on the class probabilities views answer, MAE,
 * a term's importance, and the metrics of a finished model on its training
 * and validation rows.
 *
 * @module
 */

import { logLoss, meanSquaredError } from "./boost.ts";
import { rSquared } from "../../regression_fit.ts";
import type { Objective } from "./objective.ts";
import {
  type Bins,
  cellsOf,
  regressionValues,
  rowProbabilities,
  scoreCells,
} from "./predictor.ts";
import type { EbmModel, TrainingMetrics } from "./types.ts";

/**
 * Mean absolute error of predictions against target values.
 *
 * @example
 * ```ts
 * import { meanAbsoluteError } from "./metrics.ts";
 *
 * if (!(meanAbsoluteError(Float64Array.of(1, 2), Float64Array.of(2, 4)) === 1.5)) throw new Error("example failed");
 * ```
 */
export function meanAbsoluteError(
  pred: Float64Array,
  y: Float64Array,
): number {
  let sum = 0;
  for (let i = 0; i < y.length; i++) sum += Math.abs(pred[i] - y[i]);
  return sum / y.length;
}

/** R²: the SDK's one (see `regression_fit.ts`), NaN where undefined. */
export { rSquared } from "../../regression_fit.ts";

/**
 * ROC AUC of scores (binary, K = 1) or the macro one-vs-rest AUC over the
 * classes (K > 1), ranking rows by the class probabilities views answer
 * ({@link rowProbabilities}), so views reproduce it. Ties count one half.
 *
 * @example
 * ```ts
 * import { auc } from "./metrics.ts";
 *
 * if (!(auc(Float64Array.of(0.1, 0.4, 0.35, 0.8), Int32Array.of(0, 0, 1, 1), 1) === 0.75)) throw new Error("example failed");
 * ```
 */
export function auc(scores: Float64Array, y: Int32Array, K: number): number {
  if (K === 1) {
    const n = y.length;
    return binaryAuc(probabilityColumns(scores, n, K)[1], (i) => y[i] === 1, n);
  }
  let sum = 0, used = 0;
  for (const a of classAucs(scores, y, K)) {
    if (!Number.isNaN(a)) {
      sum += a;
      used++;
    }
  }
  return used ? sum / used : NaN;
}

/**
 * Every class's one-vs-rest ROC AUC on its probability (what views answer),
 * in class order (NaN for a class absent from the rows, or the only one).
 * Binary models (K = 1) give two equal AUCs, one per class.
 *
 * @example
 * ```ts
 * import { classAucs } from "./metrics.ts";
 *
 * const s = Float64Array.of(2, 0, 0, 0, 2, 0, 0, 0, 2);
 * if (classAucs(s, Int32Array.of(0, 1, 2), 3).join() !== "1,1,1") throw new Error("example failed");
 * ```
 */
export function classAucs(
  scores: Float64Array,
  y: Int32Array,
  K: number,
): number[] {
  const n = y.length;
  const p = probabilityColumns(scores, n, K);
  return p.map((col, k) => binaryAuc(col, (i) => y[i] === k, n));
}

/** Every class's probability column ({@link rowProbabilities} of each row). */
function probabilityColumns(
  scores: Float64Array,
  n: number,
  K: number,
): Float64Array[] {
  const cols = Array.from(
    { length: Math.max(K, 2) },
    () => new Float64Array(n),
  );
  for (let i = 0; i < n; i++) {
    const { p } = rowProbabilities(scores, i, K);
    for (let k = 0; k < p.length; k++) cols[k][i] = p[k];
  }
  return cols;
}

function binaryAuc(
  s: Float64Array,
  pos: (i: number) => boolean,
  n: number,
): number {
  const idx = Array.from({ length: n }, (_, i) => i).sort((a, b) =>
    s[a] - s[b]
  );
  let rankSum = 0, nPos = 0;
  for (let i = 0; i < n;) {
    let j = i;
    while (j + 1 < n && s[idx[j + 1]] === s[idx[i]]) j++;
    const rank = (i + j) / 2 + 1;
    for (let q = i; q <= j; q++) if (pos(idx[q])) (rankSum += rank), nPos++;
    i = j + 1;
  }
  const nNeg = n - nPos;
  if (nPos === 0 || nNeg === 0) return NaN;
  return (rankSum - (nPos * (nPos + 1)) / 2) / (nPos * nNeg);
}

/** Share of rows whose predicted class ({@link rowProbabilities}'s `best`) is theirs. */
function accuracy(s: Float64Array, y: Int32Array, K: number): number {
  let ok = 0;
  for (let i = 0; i < y.length; i++) {
    if (rowProbabilities(s, i, K).best === y[i]) ok++;
  }
  return ok / y.length;
}

/** Mean |score| of a table over the rows, by cell counts (a term's importance). */
export function importanceOf(
  table: Float64Array,
  C: Float64Array,
  K: number,
): number {
  let total = 0, weighted = 0;
  for (let q = 0; q < C.length; q++) {
    let a = 0;
    for (let k = 0; k < K; k++) a += Math.abs(table[q * K + k]);
    weighted += (C[q] * a) / K;
    total += C[q];
  }
  return total ? weighted / total : 0;
}

/**
 * The metrics of a finished model on its training and validation rows
 * (binned as the model bins them): log loss, AUC and accuracy, or RMSE, MAE
 * and R² for regression, with the run's counts (`extra`).
 */
export function metrics(
  model: Omit<EbmModel, "metrics">,
  trBins: Bins[],
  vaBins: Bins[],
  o: Objective,
  extra: {
    mainRounds: number;
    pairRounds: number;
    stopReason: string;
    estimators: number;
  },
): TrainingMetrics {
  const nTr = o.yTr.length, nVa = o.yVa.length;
  const score = (bins: Bins[], n: number) =>
    scoreCells(model, cellsOf(model.features, model.terms, bins), n);
  const sTr = score(trBins, nTr);
  const sVa = nVa > 0 ? score(vaBins, nVa) : null;
  const K = o.K;
  const base = { trainRows: nTr, validationRows: nVa, ...extra };
  if (o.regression) {
    // What serves (exp of the score for the log link), on the target's scale.
    const pTr = regressionValues(model, sTr);
    const pVa = sVa && regressionValues(model, sVa);
    return {
      ...base,
      trainLogLoss: null,
      validationLogLoss: null,
      validationAuc: null,
      validationAccuracy: null,
      trainRmse: Math.sqrt(meanSquaredError(pTr, o.rawTr)),
      validationRmse: pVa ? Math.sqrt(meanSquaredError(pVa, o.rawVa)) : null,
      validationMae: pVa ? meanAbsoluteError(pVa, o.rawVa) : null,
      validationR2: pVa ? rSquared(pVa, o.rawVa) : null,
    };
  }
  return {
    ...base,
    trainLogLoss: logLoss(sTr, o.yTr, K),
    validationLogLoss: sVa ? logLoss(sVa, o.yVa, K) : null,
    validationAuc: sVa ? auc(sVa, o.yVa, K) : null,
    validationClassAuc: sVa
      ? classAucs(sVa, o.yVa, K).map((a) => Number.isNaN(a) ? null : a)
      : null,
    validationAccuracy: sVa ? accuracy(sVa, o.yVa, K) : null,
    trainRmse: null,
    validationRmse: null,
    validationMae: null,
    validationR2: null,
  };
}
