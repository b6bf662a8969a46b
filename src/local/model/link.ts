/**
 * When training tries the regression log link (the rounds fit the target's
 * log, the model serves `exp` of the score; see `Link` in objective.ts): a
 * target positive on every row a fit reads and right skewed there.
 *
 * @module
 */

import { type EncodedDataset, isRegressionTarget } from "./encoder.ts";
import { splitSizes, type TrainingParams } from "./params.ts";

/**
 * Skewness at or above which a positive regression target counts as right
 * skewed and the search tries the log link (the search's `selectionAxes`):
 * 1, the usual mark of a highly skewed distribution (a log-normal's at a
 * log standard deviation of 0.32). Below it the log's gain is small and a
 * choice by the bags' noise costs: on additive positive targets (skewness
 * about 0.3) the log kept by any margin lost up to 0.016 R² (BENCHMARKS.md,
 * "The log link").
 */
export const LOG_LINK_SKEW = 1;

/**
 * Whether a regression target is positive (and finite) on every row a fit
 * reads (the training and validation rows of the dataset's order), so its
 * log exists, and right skewed there (sample skewness at least
 * {@link LOG_LINK_SKEW}): the log link's condition (see
 * the search's `selectionAxes`).
 *
 * @example
 * ```ts
 * import { encodeDataset } from "./encoding.ts";
 * import { skewedPositiveTarget } from "./link.ts";
 * import { resolveParams } from "./params.ts";
 *
 * const fields = [
 *   { name: "x", designation: "FEATURE", data_type: { data_type: "NUMBER" }, semantic_type: "CONTINUOUS" },
 *   { name: "y", designation: "TARGET", data_type: { data_type: "NUMBER" }, semantic_type: "CONTINUOUS" },
 * ] as const;
 * const x = Array.from({ length: 200 }, (_, i) => i);
 * const p = resolveParams({}).params;
 * const skewed = encodeDataset({ x, y: x.map((i) => Math.exp(i / 20)) }, fields as never, { prediction_type: "REGRESSION" });
 * const even = encodeDataset({ x, y: x.map((i) => 1 + i) }, fields as never, { prediction_type: "REGRESSION" });
 * if (!skewedPositiveTarget(skewed, p) || skewedPositiveTarget(even, p)) throw new Error("example failed");
 * ```
 */
export function skewedPositiveTarget(
  data: EncodedDataset,
  p: TrainingParams,
): boolean {
  const values = data.values;
  if (!values || !isRegressionTarget(data.encoder.target)) return false;
  const { nTrain, nVal } = splitSizes(data.nRows, p);
  const pool = data.order.subarray(0, nTrain + nVal);
  let mean = 0;
  for (let i = 0; i < pool.length; i++) {
    const v = values[pool[i]];
    if (!(v > 0 && v < Infinity)) return false;
    mean += v;
  }
  mean /= pool.length;
  let m2 = 0, m3 = 0;
  for (let i = 0; i < pool.length; i++) {
    const d = values[pool[i]] - mean;
    m2 += d * d;
    m3 += d * d * d;
  }
  m2 /= pool.length;
  m3 /= pool.length;
  return m2 > 0 && m3 / m2 ** 1.5 >= LOG_LINK_SKEW;
}
