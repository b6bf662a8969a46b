/**
 * The loss a bag boosts, on its training and validation rows, and the
 * held-out loss the search compares candidates by.
 *
 * @module
 */

import { logLoss, type LossKind, meanSquaredError } from "./boost.ts";

/**
 * A regression model's link: `identity` boosts the target and serves the
 * score; `log` boosts the target's natural logarithm (every target value
 * positive) and serves `exp` of the score (see `EbmModel.link`).
 */
export type Link = "identity" | "log";

/**
 * The loss being boosted: log-loss (classification) or squared error
 * (regression), with the validation loss scaled for early stopping so its
 * tolerance does not depend on the target's units (regression divides the
 * mean squared error by the training target's variance). With a `log` link
 * `vTr` and `vVa` are the logarithms of the target, which the rounds fit,
 * and `rawTr` and `rawVa` the target itself, which {@link Objective.rawLoss}
 * judges the served predictions on.
 */
export interface Objective {
  regression: boolean;
  loss: LossKind;
  K: number;
  link: Link;
  yTr: Int32Array;
  yVa: Int32Array;
  /** The values the rounds fit (regression): the target, or its log. */
  vTr: Float64Array;
  vVa: Float64Array;
  /** The target itself (regression; the same arrays as `vTr`, `vVa` for the identity link). */
  rawTr: Float64Array;
  rawVa: Float64Array;
  lossOf(scores: Float64Array, y: Int32Array, v: Float64Array): number;
  validationLoss(scores: Float64Array): number;
  scale(loss: number): number;
  scaled(scores: Float64Array): number;
  /**
   * The validation loss of what would serve, on the target's own scale and
   * scaled as {@link Objective.scaled} (the variance of the raw training
   * target): the same as `scaled(sVa)` for the identity link; for the log
   * link the squared error of `exp(sVa + c)`, `c` the smearing constant
   * of the training scores `sTr` ({@link smearing}). What candidates of
   * different links are compared by.
   */
  rawLoss(sVa: Float64Array, sTr: Float64Array): number;
}

/**
 * The variance of `v` (population), or 1 where it is not positive: what a
 * regression's squared error is divided by.
 */
function varianceOf(v: Float64Array): number {
  if (v.length === 0) return 1;
  const mean = v.reduce((a, b) => a + b, 0) / v.length;
  const variance = v.reduce((a, b) => a + (b - mean) ** 2, 0) / v.length;
  return variance > 0 ? variance : 1;
}

/**
 * Duan's smearing constant of a log-link fit: `log(mean(exp(v - s)))` over
 * the training rows, `v` the log targets and `s` the scores, so that
 * `exp(s + c)` estimates the target's mean where `exp(s)` estimates its
 * geometric mean (0 without rows).
 *
 * @example
 * ```ts
 * import { smearing } from "./objective.ts";
 *
 * const c = smearing(Float64Array.of(1, 3), Float64Array.of(2, 2));
 * if (!(Math.abs(c - Math.log((Math.exp(-1) + Math.exp(1)) / 2)) < 1e-12)) throw new Error("example failed");
 * ```
 */
export function smearing(v: Float64Array, s: Float64Array): number {
  const n = v.length;
  if (n === 0) return 0;
  // exp of the residuals around their largest, so no term overflows.
  let m = -Infinity;
  for (let i = 0; i < n; i++) m = Math.max(m, v[i] - s[i]);
  let sum = 0;
  for (let i = 0; i < n; i++) sum += Math.exp(v[i] - s[i] - m);
  return m + Math.log(sum / n);
}

/**
 * The {@link Objective} of a bag. Regression with the `log` link takes the
 * raw target values `vTr`, `vVa` and boosts their logarithms (each must be
 * positive; the search tries the link only then).
 *
 * @example
 * ```ts
 * import { makeObjective } from "./objective.ts";
 *
 * const none = new Int32Array(0);
 * const o = makeObjective(true, 1, none, none, Float64Array.of(1, 100), Float64Array.of(10), "log");
 * if (!(o.vTr[1] === Math.log(100) && o.rawTr[1] === 100 && o.rawVa[0] === 10)) throw new Error("example failed");
 * // Served: exp(score + smearing); judged on the raw scale.
 * const at = o.rawLoss(Float64Array.of(Math.log(10)), Float64Array.of(0, Math.log(100)));
 * if (!(at < 1e-20)) throw new Error("example failed");
 * ```
 */
export function makeObjective(
  regression: boolean,
  K: number,
  yTr: Int32Array,
  yVa: Int32Array,
  vTr: Float64Array,
  vVa: Float64Array,
  link: Link = "identity",
): Objective {
  const log = regression && link === "log";
  const rawTr = vTr, rawVa = vVa;
  if (log) {
    vTr = vTr.map(Math.log);
    vVa = vVa.map(Math.log);
  }
  const variance = regression ? varianceOf(vTr) : 1;
  const rawVariance = log ? varianceOf(rawTr) : variance;
  const lossOf = regression
    ? (s: Float64Array, _y: Int32Array, v: Float64Array) =>
      meanSquaredError(s, v)
    : (s: Float64Array, y: Int32Array) => logLoss(s, y, K);
  const o: Objective = {
    regression,
    loss: regression ? "squared" : K === 1 ? "logistic" : "softmax",
    K,
    link: log ? "log" : "identity",
    yTr,
    yVa,
    vTr,
    vVa,
    rawTr,
    rawVa,
    lossOf,
    validationLoss: (s) => lossOf(s, yVa, vVa),
    scale: (loss) => loss / variance,
    scaled: (s) => o.scale(o.validationLoss(s)),
    rawLoss: (sVa, sTr) => {
      if (!log) return o.scaled(sVa);
      const c = smearing(vTr, sTr);
      return meanSquaredError(sVa.map((s) => Math.exp(s + c)), rawVa) /
        rawVariance;
    },
  };
  return o;
}
