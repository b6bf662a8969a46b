/**
 * Shrinkage of a categorical main term's levels toward the mean, by how
 * much each level's rows say (ridge regression on one-hot levels, or a
 * smoothed target encoding, inside boosting): many rare levels can then
 * keep bins of their own without their noise being learned. The strength
 * is not a constant: it is estimated from the levels themselves, as a
 * random-effects meta-analysis does (DerSimonian-Laird), since the right
 * shrinkage is the noise of a level's mean over the spread of the levels'
 * true effects, and that differs by table and by feature by orders of
 * magnitude (BENCHMARKS.md, "Table kinds the benchmark lacks").
 *
 * @example
 * ```ts
 * import { levelStep } from "./levels.ts";
 *
 * // Twelve levels of 10 rows each (hessian 1 a row), a table still at 0:
 * // the step's histogram is the term's own, its hessians raised by the prior.
 * const m = 13, C = Float64Array.from({ length: m }, (_, b) => b ? 10 : 0);
 * const G = Float64Array.from(C, (c, b) => b % 2 ? -c / 2 : c / 2);
 * const hist = { G, H: C.slice(), C };
 * const h = levelStep(m, 1, new Float64Array(m), null, 1, 120)(hist, 0);
 * if (!(h.G[1] === -5 && h.H[1] > 10 && h.C === C)) throw new Error("example failed");
 * // Two levels are too few to tell their spread: the histogram as it is.
 * const two = { G: G.subarray(0, 3), H: C.subarray(0, 3), C: C.subarray(0, 3) };
 * if (levelStep(3, 1, new Float64Array(3), null, 1, 20)(two, 0) !== two) throw new Error("example failed");
 * ```
 *
 * @module
 */

import { type Histogram, newHistogram } from "./histogram.ts";
import type { Bins } from "./predictor.ts";
import type { Bag, Prepared } from "./prepared.ts";

/**
 * Most pseudo-rows (at the rows' mean hessian) of a level's prior: where the
 * levels' effects look no wider than their noise (few levels, or a
 * category without signal), the estimate of their spread is 0 and the
 * shrinkage would be infinite; this bounds it to what a smoothed target
 * encoding commonly uses, so a real effect of a few large levels is
 * still learned.
 */
export const MAX_PRIOR_ROWS = 20;

/**
 * Fewest levels with rows for which a step's levels are shrunk: the spread
 * of fewer levels' effects is too uncertain to estimate (2 levels give it
 * one degree of freedom), and few levels have many rows each, which
 * shrinkage barely moves; where it did move them, on a nearly separable
 * table (penguins' 3 islands and 2 sexes, whose rows' hessians are near 0),
 * the bounded prior of {@link MAX_PRIOR_ROWS} held the levels back and the
 * search dropped the linear start it keeps there.
 */
export const MIN_LEVELS = 10;

/**
 * The spread `tau²` of the levels' true effects, by the DerSimonian-Laird
 * moment estimator: each level `b` with rows in the histogram estimates its
 * effect as `e_b = f_b - G_b / H_b` (its value so far plus its Newton step)
 * with variance `phi / H_b`; `Q = sum w_b (e_b - mean)²` with `w_b = H_b /
 * phi` exceeds its `levels - 1` expectation by `tau²` times `sum w - sum w² /
 * sum w`. 0 when the levels spread no more than their noise (or fewer than
 * two have rows).
 *
 * @example
 * ```ts
 * import { levelSpread } from "./levels.ts";
 *
 * // Three levels of 100 rows (hessian 1 a row, noise 1): effects -1, 0, 1.
 * const hist = { G: Float64Array.of(100, 0, -100), H: Float64Array.of(100, 100, 100), C: Float64Array.of(100, 100, 100) };
 * const tau2 = levelSpread(hist, 1, 0, 3, new Float64Array(3), 1);
 * if (!(Math.abs(tau2 - (200 - 2) / 200) < 1e-12)) throw new Error("example failed");
 * ```
 */
export function levelSpread(
  { G, H, C }: Histogram,
  K: number,
  k: number,
  nBins: number,
  table: Float64Array,
  phi: number,
): number {
  let sw = 0, sw2 = 0, swe = 0, levels = 0;
  for (let b = 0; b < nBins; b++) {
    const q = b * K + k, h = H[q];
    if (!(C[b] > 0 && h > 0)) continue;
    const w = h / phi, e = table[q] - G[q] / h;
    sw += w, sw2 += w * w, swe += w * e;
    levels++;
  }
  if (levels < 2) return 0;
  const mean = swe / sw;
  let Q = 0;
  for (let b = 0; b < nBins; b++) {
    const q = b * K + k, h = H[q];
    if (!(C[b] > 0 && h > 0)) continue;
    const e = table[q] - G[q] / h - mean;
    Q += (h / phi) * e * e;
  }
  const tau2 = (Q - (levels - 1)) / (sw - sw2 / sw);
  return tau2 > 0 ? tau2 : 0;
}

/**
 * The step histogram of a categorical main term whose levels are shrunk:
 * a function of the term's histogram and score column `k` returning it with
 * every level's value `f_b` (its boosted `table[b * K + k]` plus the linear
 * start's `start[b * K + k]`, which for a regression is near least squares
 * on the levels) penalised by `lambda / 2 * (f_b - mean)²` (`mean`: the
 * levels' hessian-weighted mean value): `G_b + lambda (f_b - mean)`,
 * `H_b + lambda`. Boosting's fixed point is then a level's mean shrunk by
 * its weight toward the levels' mean, `f_b - mean = -G_b / (H_b + lambda)`
 * at the other terms' scores, instead of its raw mean.
 * `lambda = phi / tau²` ({@link levelSpread}), at most
 * {@link MAX_PRIOR_ROWS} rows' mean hessian, scaled by the share of the
 * `rows` training rows the histogram holds. `phi`: the noise of one unit of
 * hessian, 1 for the log loss, the residual variance for squared error
 * ({@link levelNoise}). The returned histogram is reused by the next call;
 * with fewer than {@link MIN_LEVELS} levels with rows, `hist` itself.
 */
export function levelStep(
  nBins: number,
  K: number,
  table: Float64Array,
  start: Float64Array | null,
  phi: number,
  rows: number,
): (hist: Histogram, k: number) => Histogram {
  const into = newHistogram(nBins, K);
  const value = new Float64Array(nBins * K);
  return (hist, k) => {
    const { G, H, C } = hist;
    into.C = C;
    let hs = 0, cs = 0, hf = 0;
    for (let b = 0; b < nBins; b++) {
      const q = b * K + k;
      value[q] = start ? table[q] + start[q] : table[q];
      hs += H[q], cs += C[b], hf += H[q] * value[q];
    }
    const mean = hs > 0 ? hf / hs : 0;
    let levels = 0;
    for (let b = 0; b < nBins; b++) if (C[b] > 0 && H[b * K + k] > 0) levels++;
    if (levels < MIN_LEVELS) return hist;
    const tau2 = levelSpread(hist, K, k, nBins, value, phi);
    // The full prior in hessian units, then scaled to the rows sampled.
    const most = cs > 0 ? (MAX_PRIOR_ROWS * hs) / cs : 0;
    const full = tau2 > 0 ? Math.min(phi / tau2, most) : most;
    const lambda = rows > 0 ? (full * cs) / rows : 0;
    for (let b = 0; b < nBins; b++) {
      const q = b * K + k;
      into.G[q] = G[q] + lambda * (value[q] - mean);
      into.H[q] = H[q] + lambda;
    }
    return into;
  };
}

/**
 * The noise `phi` of a regression's rows for {@link levelStep}: the pooled
 * variance of `residual` (the target beyond the boosting's start) within
 * the levels of `bins`, i.e. what the feature's levels leave unexplained.
 * It still holds what the other features explain, so it errs toward more
 * shrinkage. 1 when no level has two rows.
 *
 * @example
 * ```ts
 * import { levelNoise } from "./levels.ts";
 *
 * const bins = Uint8Array.of(1, 1, 2, 2);
 * if (levelNoise(bins, Float64Array.of(0, 2, 10, 12), 3) !== 2) throw new Error("example failed");
 * ```
 */
export function levelNoise(
  bins: Bins,
  residual: Float64Array,
  nBins: number,
): number {
  const sum = new Float64Array(nBins), count = new Float64Array(nBins);
  for (let i = 0; i < bins.length; i++) {
    sum[bins[i]] += residual[i];
    count[bins[i]]++;
  }
  let ss = 0;
  for (let i = 0; i < bins.length; i++) {
    const d = residual[i] - sum[bins[i]] / count[bins[i]];
    ss += d * d;
  }
  let levels = 0;
  for (const c of count) if (c > 0) levels++;
  const df = bins.length - levels;
  return df > 0 && ss > 0 ? ss / df : 1;
}

/**
 * Every feature's `phi` for {@link levelStep} in one bag: 1 but for the
 * categorical features of a regression, where it is {@link levelNoise} of
 * the bag's target beyond the intercept and the linear start's tables
 * (`start`; null: none).
 */
export function levelNoises(
  prep: Pick<Prepared, "features" | "regression" | "intercept">,
  bag: Pick<Bag, "trBins" | "vTr">,
  start: ReadonlyArray<Float64Array> | null,
): number[] {
  const { features, regression, intercept } = prep;
  const ones = features.map(() => 1);
  if (!regression || !features.some((f) => f.kind === "categorical")) {
    return ones;
  }
  const residual = Float64Array.from(bag.vTr, (v) => v - intercept[0]);
  start?.forEach((t, j) => {
    const b = bag.trBins[j];
    for (let i = 0; i < residual.length; i++) residual[i] -= t[b[i]];
  });
  return features.map((f, j) =>
    f.kind === "categorical" ? levelNoise(bag.trBins[j], residual, f.nBins) : 1
  );
}
