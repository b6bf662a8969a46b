/**
 * The loss a bag boosts, on its training and validation rows.
 *
 * @module
 */

import { logLoss, type LossKind, meanSquaredError } from "./boost.ts";

/**
 * The loss being boosted: log-loss (classification) or squared error
 * (regression), with the validation loss scaled for early stopping so its
 * tolerance does not depend on the target's units (regression divides the
 * mean squared error by the training target's variance).
 */
export interface Objective {
  regression: boolean;
  loss: LossKind;
  K: number;
  yTr: Int32Array;
  yVa: Int32Array;
  vTr: Float64Array;
  vVa: Float64Array;
  lossOf(scores: Float64Array, y: Int32Array, v: Float64Array): number;
  validationLoss(scores: Float64Array): number;
  scale(loss: number): number;
  scaled(scores: Float64Array): number;
}

export function makeObjective(
  regression: boolean,
  K: number,
  yTr: Int32Array,
  yVa: Int32Array,
  vTr: Float64Array,
  vVa: Float64Array,
): Objective {
  let variance = 1;
  if (regression) {
    const mean = vTr.reduce((a, b) => a + b, 0) / vTr.length;
    variance = vTr.reduce((a, b) => a + (b - mean) ** 2, 0) / vTr.length;
    if (!(variance > 0)) variance = 1;
  }
  const lossOf = regression
    ? (s: Float64Array, _y: Int32Array, v: Float64Array) =>
      meanSquaredError(s, v)
    : (s: Float64Array, y: Int32Array) => logLoss(s, y, K);
  const o: Objective = {
    regression,
    loss: regression ? "squared" : K === 1 ? "logistic" : "softmax",
    K,
    yTr,
    yVa,
    vTr,
    vVa,
    lossOf,
    validationLoss: (s) => lossOf(s, yVa, vVa),
    scale: (loss) => loss / variance,
    scaled: (s) => o.scale(o.validationLoss(s)),
  };
  return o;
}
