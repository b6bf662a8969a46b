/**
 * The losses the boosted model minimises and their derivatives: gradients
 * and hessians of the log-loss (binary and softmax) and of squared error,
 * and the losses themselves. A leaf: the histograms and steps
 * ({@link ./boost.ts}) and the metrics build on it.
 *
 * @example
 * ```ts
 * import { logLoss } from "./loss.ts";
 * if (!(Math.abs(logLoss(Float64Array.of(0), Int32Array.of(1), 1) - Math.LN2) < 1e-12)) throw new Error("example failed");
 * ```
 *
 * @module
 */

/**
 * Gradients and hessians of the log-loss at the current scores.
 * K = 1: binary logit of class 1 (y is 0/1). K > 1: softmax over K scores.
 *
 * @example
 * ```ts
 * import { gradients } from "./loss.ts";
 *
 * const g = new Float64Array(1), h = new Float64Array(1);
 * gradients(Float64Array.of(0), Int32Array.of(1), 1, g, h);
 * if (!(g[0] === -0.5 && h[0] === 0.25)) throw new Error("example failed");
 * ```
 */
export function gradients(
  scores: Float64Array,
  y: Int32Array,
  K: number,
  g: Float64Array,
  h: Float64Array,
): void {
  const n = y.length;
  if (K === 1) {
    for (let i = 0; i < n; i++) {
      const p = 1 / (1 + Math.exp(-scores[i]));
      g[i] = p - y[i];
      h[i] = Math.max(p * (1 - p), 1e-16);
    }
    return;
  }
  for (let i = 0; i < n; i++) {
    const o = i * K;
    let m = -Infinity;
    for (let k = 0; k < K; k++) if (scores[o + k] > m) m = scores[o + k];
    let z = 0;
    for (let k = 0; k < K; k++) z += Math.exp(scores[o + k] - m);
    for (let k = 0; k < K; k++) {
      const p = Math.exp(scores[o + k] - m) / z;
      g[o + k] = p - (y[i] === k ? 1 : 0);
      h[o + k] = Math.max(p * (1 - p), 1e-16);
    }
  }
}

/**
 * Gradients and hessians of the squared error `(s - y)^2 / 2` (regression):
 * `g = s - y`, `h = 1`.
 *
 * @example
 * ```ts
 * import { squaredErrorGradients } from "./loss.ts";
 *
 * const g = new Float64Array(1), h = new Float64Array(1);
 * squaredErrorGradients(Float64Array.of(3), Float64Array.of(5), g, h);
 * if (!(g[0] === -2 && h[0] === 1)) throw new Error("example failed");
 * ```
 */
export function squaredErrorGradients(
  scores: Float64Array,
  y: Float64Array,
  g: Float64Array,
  h: Float64Array,
): void {
  const n = y.length;
  for (let i = 0; i < n; i++) {
    g[i] = scores[i] - y[i];
    h[i] = 1;
  }
}

/**
 * Mean squared error of predictions against target values (NaN for no rows).
 *
 * @example
 * ```ts
 * import { meanSquaredError } from "./loss.ts";
 *
 * if (!(meanSquaredError(Float64Array.of(1, 2), Float64Array.of(2, 4)) === 2.5)) throw new Error("example failed");
 * ```
 */
export function meanSquaredError(
  scores: Float64Array,
  y: Float64Array,
): number {
  const n = y.length;
  if (n === 0) return NaN;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const d = scores[i] - y[i];
    sum += d * d;
  }
  return sum / n;
}

/**
 * Mean log-loss of scores against labels (same K convention as {@link gradients}).
 *
 * @example
 * ```ts
 * import { logLoss } from "./loss.ts";
 *
 * if (!(Math.abs(logLoss(Float64Array.of(0), Int32Array.of(1), 1) - Math.LN2) < 1e-12)) throw new Error("example failed");
 * ```
 */
export function logLoss(
  scores: Float64Array,
  y: Int32Array,
  K: number,
): number {
  const n = y.length;
  if (n === 0) return NaN;
  let sum = 0;
  if (K === 1) {
    for (let i = 0; i < n; i++) {
      const s = scores[i];
      // softplus(s) - y*s, computed stably.
      sum += (s > 0 ? s + Math.log1p(Math.exp(-s)) : Math.log1p(Math.exp(s))) -
        y[i] * s;
    }
    return sum / n;
  }
  for (let i = 0; i < n; i++) {
    const o = i * K;
    let m = -Infinity;
    for (let k = 0; k < K; k++) if (scores[o + k] > m) m = scores[o + k];
    let z = 0;
    for (let k = 0; k < K; k++) z += Math.exp(scores[o + k] - m);
    sum += m + Math.log(z) - scores[o + y[i]];
  }
  return sum / n;
}

/**
 * The loss a model boosts: `logistic` (binary log-loss of one logit),
 * `softmax` (multi-class log-loss of K logits) or `squared` (regression).
 */
export type LossKind = "logistic" | "softmax" | "squared";
