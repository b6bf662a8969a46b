/**
 * Feature binning for the boosted additive model: numeric cut points
 * (`QUANTILE` or `UNIFORM`, from training rows only), bin labels, and the
 * coarser bins pairwise terms use.
 *
 * @example
 * ```ts
 * import { binColumn, numericBins } from "./binning.ts";
 *
 * const b = numericBins("x", Float64Array.of(1, 2, 3, 4), 2, "QUANTILE");
 * const bins = binColumn(b, Float64Array.of(1, 4, NaN));
 * if (!(bins[0] === 1 && bins[1] === 2 && bins[2] === 0)) throw new Error("example failed");
 * ```
 *
 * @module
 */

import type { CategoricalEncoding, EncodedColumn } from "./encoder.ts";
import type { FeatureBins } from "./types.ts";

/** Coarse bins per feature for pairwise terms (plus the missing bin). */
export const PAIR_BINS = 12;

/**
 * Bins of a numeric feature from its training values (NaN = missing).
 * QUANTILE puts cuts where the cumulative count crosses each 1/bins step, so
 * bins hold about equal counts (heavy values may merge steps); a feature with
 * at most `bins` distinct values gets one bin per value. UNIFORM cuts the
 * [min, max] range into equal widths. `minDistance` (the `bin_min_distance`
 * hyperparameter, a fraction of the range) merges bins narrower than that:
 * a cut closer to the previous kept cut (or to either end) is dropped.
 * `sorted`: `values` are already sorted, without missing ones.
 *
 * @example
 * ```ts
 * import { numericBins } from "./binning.ts";
 *
 * const b = numericBins("x", Float64Array.from({ length: 11 }, (_, i) => i), 5, "UNIFORM");
 * if (!(b.cuts.length === 4 && b.cuts[0] === 2)) throw new Error("example failed");
 * ```
 */
export function numericBins(
  name: string,
  values: Float64Array,
  bins: number,
  strategy: string,
  minDistance = 0,
  sorted = false,
): FeatureBins {
  const v = sorted ? values : sortedValues(values);
  return binsFromCuts(name, v, cutPoints(v, bins, strategy, minDistance));
}

/**
 * The non-missing values of `column` at `rows`, sorted, in `scratch` (a
 * prefix of it, which it returns): what {@link numericBins} and
 * {@link refineBins} cut, given with `sorted`. One buffer serves every
 * column, where a gathered copy and a filtered copy a column were garbage
 * (and `filter` built its list on the heap) that the thread's memory kept.
 *
 * @example
 * ```ts
 * import { sortedAt } from "./binning.ts";
 * const v = sortedAt(Float64Array.of(3, NaN, 1, 2), Uint32Array.of(0, 1, 2), new Float64Array(3));
 * if (v.join() !== "1,3") throw new Error("example failed");
 * ```
 */
export function sortedAt(
  column: Float64Array,
  rows: Uint32Array,
  scratch: Float64Array,
): Float64Array {
  let n = 0;
  for (let i = 0; i < rows.length; i++) {
    const x = column[rows[i]];
    if (!Number.isNaN(x)) scratch[n++] = x;
  }
  return scratch.subarray(0, n).sort();
}

/** The training values without the missing ones (NaN), sorted. */
function sortedValues(values: Float64Array): Float64Array {
  return values.filter((x) => !Number.isNaN(x)).sort();
}

/** The cuts of {@link numericBins}, from the sorted non-missing values `v`. */
function cutPoints(
  v: Float64Array,
  bins: number,
  strategy: string,
  minDistance: number,
): number[] {
  const cuts: number[] = [];
  if (v.length > 0) {
    const uniq: number[] = [];
    const counts: number[] = [];
    for (let i = 0; i < v.length; i++) {
      if (i === 0 || v[i] !== v[i - 1]) {
        uniq.push(v[i]);
        counts.push(1);
      } else counts[counts.length - 1]++;
    }
    if (uniq.length <= bins) {
      for (let i = 1; i < uniq.length; i++) {
        cuts.push(midpoint(uniq[i - 1], uniq[i]));
      }
    } else if (strategy === "UNIFORM") {
      const lo = uniq[0], hi = uniq[uniq.length - 1];
      // A range wider than the largest double (beyond about ±9e307) is
      // stepped by its parts, so the cuts stay finite.
      const range = hi - lo;
      for (let q = 1; q < bins; q++) {
        cuts.push(
          Number.isFinite(range)
            ? lo + (range * q) / bins
            : lo * (1 - q / bins) + hi * (q / bins),
        );
      }
    } else {
      let acc = 0;
      let step = 1;
      for (let i = 0; i < uniq.length - 1; i++) {
        acc += counts[i];
        if (acc >= (step * v.length) / bins) {
          cuts.push(midpoint(uniq[i], uniq[i + 1]));
          while (acc >= (step * v.length) / bins) step++;
        }
      }
    }
  }
  const lo = v.length ? v[0] : NaN, hi = v.length ? v[v.length - 1] : NaN;
  if (minDistance > 0 && cuts.length > 0) {
    // Merge bins narrower than minDistance of the range: keep a cut only
    // when it is far enough from the previous kept cut and from the ends.
    const gap = Number.isFinite(hi - lo)
      ? minDistance * (hi - lo)
      : minDistance * hi - minDistance * lo;
    const kept: number[] = [];
    let last = lo;
    for (const c of cuts) {
      if (c - last >= gap && hi - c >= gap) {
        kept.push(c);
        last = c;
      }
    }
    return kept;
  }
  return cuts;
}

/**
 * A numeric feature's bins refined by the cuts of `bins` finer bins of the
 * same training values (`strategy` and `minDistance` as in
 * {@link numericBins}): every cut of `coarse` stays, so each refined bin lies
 * in one coarse bin, `coarseOf[bin]` (bin 0, missing, in 0). Training boosts
 * the coarse bins and keeps the linear start at the refined ones (see
 * ebm.ts, `LINEAR_BINS`). `sorted` as {@link numericBins}'.
 *
 * @example
 * ```ts
 * import { numericBins, refineBins } from "./binning.ts";
 *
 * const x = Float64Array.from({ length: 100 }, (_, i) => i);
 * const coarse = numericBins("x", x, 4, "QUANTILE");
 * const { bins, coarseOf } = refineBins(coarse, x, 20, "QUANTILE");
 * if (!(bins.nBins === 21 && coarse.cuts.every((c) => bins.cuts.includes(c)))) throw new Error("example failed");
 * if (!(coarseOf[0] === 0 && coarseOf[1] === 1 && coarseOf[20] === 4)) throw new Error("example failed");
 * ```
 */
export function refineBins(
  coarse: FeatureBins,
  values: Float64Array,
  bins: number,
  strategy: string,
  minDistance = 0,
  sorted = false,
): { bins: FeatureBins; coarseOf: Uint8Array } {
  const v = sorted ? values : sortedValues(values);
  const fine = cutPoints(v, bins, strategy, minDistance);
  const cuts = [...new Set([...coarse.cuts, ...fine])].sort((a, b) => a - b);
  const refined = binsFromCuts(coarse.name, v, cuts);
  const coarseOf = new Uint8Array(refined.nBins);
  for (let b = 1; b < refined.nBins; b++) {
    coarseOf[b] = b === 1 ? 1 : 1 + upperBound(coarse.cuts, cuts[b - 2]);
  }
  return { bins: refined, coarseOf };
}

/** A numeric feature's bins from its sorted training values and its cuts: labels and pair bins. */
function binsFromCuts(
  name: string,
  v: Float64Array,
  cuts: number[],
): FeatureBins {
  const lo = v.length ? v[0] : NaN, hi = v.length ? v[v.length - 1] : NaN;
  const labels = ["missing"];
  const bounds = [lo, ...cuts, hi];
  for (let b = 0; b <= cuts.length; b++) {
    labels.push(
      `[${fmt(bounds[b])}, ${fmt(bounds[b + 1])}${
        b === cuts.length ? "]" : ")"
      }`,
    );
  }
  const nBins = cuts.length + 2;
  // Coarse pair bins: group consecutive value bins into about equal-count groups.
  const binCounts = new Array(nBins).fill(0);
  for (const x of v) binCounts[1 + upperBound(cuts, x)]++;
  const { pairMap, pairBins } = coarsen(binCounts);
  const pairLabels = ["missing"];
  for (let c = 1; c < pairBins; c++) {
    const first = pairMap.indexOf(c), last = pairMap.lastIndexOf(c);
    pairLabels.push(
      `[${fmt(bounds[first - 1])}, ${fmt(bounds[last])}${
        last === nBins - 1 ? "]" : ")"
      }`,
    );
  }
  return {
    name,
    kind: "numeric",
    cuts,
    nBins,
    labels,
    pairMap,
    pairBins,
    pairLabels,
  };
}

/**
 * Bins of a categorical feature: one per encoder code (missing, categories, other).
 *
 * @example
 * ```ts
 * import { categoricalBins } from "./binning.ts";
 *
 * const enc = { name: "c", kind: "categorical" as const, categories: ["a", "b"], rare: [], fill: null, strip: true, handleUnseen: true };
 * const b = categoricalBins(enc, Uint16Array.of(1, 1, 2, 0));
 * if (!(b.nBins === 4 && b.labels[3] === "other")) throw new Error("example failed");
 * ```
 */
export function categoricalBins(
  enc: CategoricalEncoding,
  codes: Uint16Array,
): FeatureBins {
  const nBins = enc.categories.length + 2;
  const binCounts = new Array(nBins).fill(0);
  for (const c of codes) binCounts[c]++;
  const { pairMap, pairBins } = coarsen(binCounts);
  const labels = ["missing", ...enc.categories, "other"];
  const pairLabels = Array.from(
    { length: pairBins },
    (_, c) => labels.filter((_, b) => pairMap[b] === c).join(" | "),
  );
  return {
    name: enc.name,
    kind: "categorical",
    cuts: [],
    nBins,
    labels,
    pairMap,
    pairBins,
    pairLabels,
  };
}

/** Groups bins 1.. into at most PAIR_BINS consecutive, about equal-count groups; bin 0 stays 0. */
function coarsen(binCounts: number[]): { pairMap: number[]; pairBins: number } {
  const n = binCounts.length;
  const pairMap = new Array(n).fill(0);
  if (n - 1 <= PAIR_BINS) {
    for (let b = 1; b < n; b++) pairMap[b] = b;
    return { pairMap, pairBins: n };
  }
  let total = 0;
  for (let b = 1; b < n; b++) total += binCounts[b];
  let group = 1, acc = 0;
  for (let b = 1; b < n; b++) {
    pairMap[b] = group;
    acc += binCounts[b];
    if (acc >= (group * total) / PAIR_BINS && group < PAIR_BINS) group++;
  }
  const pairBins = pairMap[n - 1] + 1;
  return { pairMap, pairBins };
}

/**
 * The cut halfway between neighbouring values `a < b`: `(a + b) / 2`, or
 * `a / 2 + b / 2` where that sum overflows (values beyond about ±9e307),
 * which made the cut Infinity and the feature's bins unsplittable.
 */
function midpoint(a: number, b: number): number {
  const m = (a + b) / 2;
  return Number.isFinite(m) ? m : a / 2 + b / 2;
}

/** Number of cuts <= x (binary search). */
function upperBound(cuts: ReadonlyArray<number>, x: number): number {
  let lo = 0, hi = cuts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cuts[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function fmt(x: number): string {
  return Number.isFinite(x) ? String(Number(x.toPrecision(6))) : String(x);
}

/**
 * Maps an encoded column to bin indices (Uint8Array when they fit, else
 * Uint16Array), written into `out` when given (serving hands one buffer's
 * views: an allocation per column costs more than binning one row).
 *
 * @example
 * ```ts
 * import { binColumn, numericBins } from "./binning.ts";
 *
 * const b = numericBins("x", Float64Array.of(1, 2, 3), 8, "QUANTILE");
 * if (!(binColumn(b, Float64Array.of(2.2))[0] === 2)) throw new Error("example failed");
 * ```
 */
export function binColumn(
  bins: FeatureBins,
  column: EncodedColumn,
  into?: Uint16Array,
): Uint8Array | Uint16Array {
  const out = into ??
    (bins.nBins <= 256
      ? new Uint8Array(column.length)
      : new Uint16Array(column.length));
  if (bins.kind === "categorical") {
    out.set(column);
    return out;
  }
  const cuts = bins.cuts;
  for (let i = 0; i < column.length; i++) {
    const x = column[i];
    out[i] = Number.isNaN(x) ? 0 : 1 + upperBound(cuts, x);
  }
  return out;
}
