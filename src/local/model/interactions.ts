/**
 * Choosing the pair terms: FAST-style ranking of pairs of features by the
 * gain of a two-level tree on the residuals of the main terms.
 *
 * @module
 */

import { pairGain } from "./boost.ts";
import { type PairPlan, pairPlan } from "./pair_plan.ts";
import { gradientHistogram, newHistogram } from "./histogram.ts";
import type { Bag, RawTerm } from "./prepared.ts";
import { cellsOf, scoreTerms } from "./predictor.ts";
import type { TrainProgress } from "./progress.ts";
import { gather, ROWS_PER_ROUND, sampleRows } from "./rowsource.ts";
import type { FeatureBins } from "./types.ts";

/**
 * Most features whose pairs are ranked: on a wider table, the pairs of the
 * `PAIR_FEATURES` features with the largest main terms (mean |score| over
 * the ranking rows). Ranking all of a wide table's pairs is quadratic
 * (751 features: 281,625 pairs, each a histogram and a two-level tree, in
 * every bag of every candidate) and buys little: a pair whose two features
 * both carry no main effect rarely wins, and on a table with more columns
 * than rows most of them are noise. 64 keeps every pair of the tables up to
 * 64 features (2,016 pairs).
 */
export const PAIR_FEATURES = 64;

/**
 * The features whose pairs are ranked, in index order: every feature up to
 * {@link PAIR_FEATURES}; beyond, the {@link PAIR_FEATURES} with the largest
 * `importance` (ties: the lower index).
 *
 * @example
 * ```ts
 * import { pairFeatures, PAIR_FEATURES } from "./interactions.ts";
 *
 * if (pairFeatures([3, 1, 2]).join() !== "0,1,2") throw new Error("example failed");
 * const wide = Array.from({ length: PAIR_FEATURES + 2 }, (_, j) => (j === 0 || j === 5 ? 0 : j));
 * const kept = pairFeatures(wide);
 * if (kept.length !== PAIR_FEATURES || kept.includes(0) || kept.includes(5)) throw new Error("example failed");
 * ```
 */
export function pairFeatures(importance: ArrayLike<number>): number[] {
  const F = importance.length;
  const all = Array.from({ length: F }, (_, j) => j);
  if (F <= PAIR_FEATURES) return all;
  return all
    .sort((x, y) => importance[y] - importance[x] || x - y)
    .slice(0, PAIR_FEATURES)
    .sort((x, y) => x - y);
}

/**
 * FAST: ranks the pairs of {@link pairFeatures} by the gain of a 2-level tree
 * on the residuals of the main terms (on at most ROWS_PER_ROUND rows,
 * seeded) and returns the best `wanted` pairs. Every row's gradient is
 * computed once (the histogram of one row per cell, so any loss the
 * boosting kernels know works here) and each pair only sums them into its
 * cells, in row order: the sums, gains and ranking are the ones a
 * histogram built per pair gives.
 */
export function* rankPairs(
  features: FeatureBins[],
  bag: Bag,
  terms: RawTerm[],
  intercept: number[],
  K: number,
  minLeaf: number,
  lambda: number,
  wanted: number,
  rng: () => number,
  from: number,
  to: number,
  allowed: (a: number, c: number) => boolean = () => true,
): Generator<TrainProgress, [number, number][], void> {
  const rows = sampleRows(bag.nTrain, ROWS_PER_ROUND / bag.nTrain, rng);
  const binsS = rows ? bag.trBins.map((b) => gather(b, rows)) : bag.trBins;
  const m = rows ? rows.length : bag.nTrain;
  const sS = scoreTerms(
    terms,
    cellsOf(features, terms, binsS),
    intercept,
    K,
    new Float64Array(m * K),
  );
  const yS = rows ? gather(bag.yTr, rows) : bag.yTr;
  const vS = rows && bag.vTr.length ? gather(bag.vTr, rows) : bag.vTr;
  // Row i's gradients and hessians: a histogram with one row per cell.
  const perRow = newHistogram(m, K);
  const identity = Uint32Array.from({ length: m }, (_, i) => i);
  gradientHistogram(
    bag.objective.loss,
    K,
    sS,
    yS,
    vS,
    identity,
    m,
    perRow,
    null,
    null,
  );
  const g = perRow.G, h = perRow.H;
  const kept = pairFeatures(importances(features, terms, binsS, K, m));
  // Each kept feature's coarse (pair) bin at every ranking row.
  const coarse = new Map<number, Uint8Array>();
  for (const j of kept) {
    const map = features[j].pairMap, b = binsS[j];
    const out = new Uint8Array(m);
    for (let i = 0; i < m; i++) out[i] = map[b[i]];
    coarse.set(j, out);
  }
  const most = Math.max(1, ...kept.map((j) => features[j].pairBins)) ** 2;
  const G = new Float64Array(most * K), H = new Float64Array(most * K);
  const C = new Float64Array(most);
  const gain2 = pairScorer(Math.sqrt(most));
  const plan: PairPlan = { ranges: [new Int32Array(0), new Int32Array(0)] };
  const hist = { G, H, C };
  const ranked: { pair: [number, number]; gain: number }[] = [];
  for (let ia = 0; ia < kept.length; ia++) {
    const a = kept[ia], ca = coarse.get(a)!, P0 = features[a].pairBins;
    for (let ic = ia + 1; ic < kept.length; ic++) {
      const c = kept[ic], cc = coarse.get(c)!, P1 = features[c].pairBins;
      // Model constraint groups (constraints.ts) allow only some pairs.
      if (!allowed(a, c)) continue;
      const cells = P0 * P1;
      G.fill(0, 0, cells * K), H.fill(0, 0, cells * K), C.fill(0, 0, cells);
      if (K === 1) {
        for (let i = 0; i < m; i++) {
          const q = ca[i] * P1 + cc[i];
          G[q] += g[i], H[q] += h[i], C[q]++;
        }
      } else {
        for (let i = 0; i < m; i++) {
          const q = ca[i] * P1 + cc[i], qo = q * K, io = i * K;
          C[q]++;
          for (let k = 0; k < K; k++) {
            G[qo + k] += g[io + k], H[qo + k] += h[io + k];
          }
        }
      }
      let gain = 0;
      if (K === 1) gain = gain2(G, H, C, 1, 0, P0, P1, minLeaf, lambda);
      else {
        // What the counts allow, once for the K columns.
        pairPlan(C, P0, P1, minLeaf, plan);
        for (let k = 0; k < K; k++) {
          gain += pairGain(hist, K, k, P0, P1, minLeaf, lambda, plan);
        }
      }
      if (gain > 0) ranked.push({ pair: [a, c], gain });
    }
    yield {
      fraction: from + ((to - from) * (ia + 1)) / kept.length,
      stage: "interactions",
    };
  }
  ranked.sort((x, y) =>
    y.gain - x.gain || x.pair[0] - y.pair[0] || x.pair[1] - y.pair[1]
  );
  return ranked.slice(0, wanted).map((r) => r.pair);
}

/** Each main term's mean |score| (summed over the K columns) over the `m` ranking rows. */
function importances(
  features: FeatureBins[],
  terms: RawTerm[],
  bins: ArrayLike<number>[],
  K: number,
  m: number,
): Float64Array {
  const out = new Float64Array(features.length);
  if (features.length <= PAIR_FEATURES) return out;
  for (const t of terms) {
    if (t.features.length !== 1) continue;
    const j = t.features[0], b = bins[j], s = t.scores;
    let total = 0;
    for (let i = 0; i < m; i++) {
      for (let k = 0; k < K; k++) total += Math.abs(s[b[i] * K + k]);
    }
    out[j] = total / m;
  }
  return out;
}

/**
 * The FAST score of one pair's histogram for score column `k`: the gain of
 * the best two-level tree (a cut on one feature, then a cut on the other
 * on each side), the larger of both orders, 0 when no tree keeps `minLeaf`
 * rows a leaf. The same arithmetic in the same order as `fitPair` (boost.ts,
 * whose gain it returns; tests/model_wide_test.ts checks they agree), without
 * the leaf values and without allocating: a wide table ranks thousands of
 * pairs in every bag. `side`: the most pair bins of a feature. The ranking
 * scores a binary or regression target's pairs with it; a multi-class one's
 * with `pairGain` and the histogram's `PairPlan` built once for its classes
 * (the same gain: a plan per call costs more than it saves for one class).
 *
 * @example
 * ```ts
 * import { fitPair } from "./boost.ts";
 * import { pairScorer } from "./interactions.ts";
 *
 * const G = Float64Array.of(5, -5, -5, 5), H = Float64Array.of(5, 5, 5, 5), C = Float64Array.of(20, 20, 20, 20);
 * const gain = pairScorer(2)(G, H, C, 1, 0, 2, 2, 1, 1);
 * if (!(gain > 0 && gain === fitPair({ G, H, C }, 1, 0, 2, 2, 1, 1, 1, new Float64Array(4)))) throw new Error("example failed");
 * ```
 */
export function pairScorer(side: number): (
  G: Float64Array,
  H: Float64Array,
  C: Float64Array,
  K: number,
  k: number,
  P0: number,
  P1: number,
  minLeaf: number,
  lambda: number,
) => number {
  const size = (side + 1) * side;
  // Cumulative sums over A (row x: A's values below x) and, along each of
  // their rows, running sums over B: a row's running sums are those of the
  // slice [0, x) of A, its last one the slice's total. Counts only as
  // running sums: integers, the same in any order, so a slice [x0, x1)'s
  // are row x1's less row x0's.
  const gCum = new Float64Array(size), hCum = new Float64Array(size);
  const gLo = new Float64Array(size), hLo = new Float64Array(size);
  const cLo = new Float64Array(size);
  // One slice [cut, nA)'s running sums over B.
  const gHi = new Float64Array(side), hHi = new Float64Array(side);
  // The best second cut's score of a slice [x0, x1) from its running sums
  // over B at `o` (the last of them its total) and its running counts
  // (cLo's rows at `o1` less at `o0`), NaN when none.
  const second = (
    gRun: Float64Array,
    hRun: Float64Array,
    o: number,
    o1: number,
    o0: number,
    nB: number,
    minLeaf: number,
    lambda: number,
  ): number => {
    const end = nB - 1;
    const cs = cLo[o1 + end] - cLo[o0 + end];
    if (cs < 2 * minLeaf) return NaN;
    // The cuts leaving `minLeaf` rows a side (counts only grow along B).
    let from = 0;
    while (from < end && cLo[o1 + from] - cLo[o0 + from] < minLeaf) from++;
    let to = from;
    while (to < end && cs - (cLo[o1 + to] - cLo[o0 + to]) >= minLeaf) to++;
    if (from === to) return NaN;
    const gs = gRun[o + end], hs = hRun[o + end];
    let best = 0;
    for (let q = o + from; q < o + to; q++) {
      const gl = gRun[q], hl = hRun[q], gr = gs - gl, hr = hs - hl;
      const score = (gl * gl) / (hl + lambda) + (gr * gr) / (hr + lambda);
      if (q === o + from || score > best) best = score;
    }
    return best;
  };
  const oneOrder = (
    G: Float64Array,
    H: Float64Array,
    C: Float64Array,
    K: number,
    k: number,
    P0: number,
    P1: number,
    transposed: boolean,
    minLeaf: number,
    lambda: number,
  ): number => {
    const nA = transposed ? P1 : P0, nB = transposed ? P0 : P1;
    for (let z = 0; z < nB; z++) gCum[z] = hCum[z] = cLo[z] = 0;
    // Cell (x, z) of the histogram, and the step to (x + 1, z), (x, z + 1).
    const stepA = transposed ? 1 : P1, stepB = transposed ? P1 : 1;
    for (let x = 0; x < nA; x++) {
      const p = x * nB, o = p + nB;
      let c = x * stepA, gl = 0, hl = 0, cl = 0;
      for (let z = 0; z < nB; z++, c += stepB) {
        gLo[o + z] = gl += gCum[o + z] = gCum[p + z] + G[c * K + k];
        hLo[o + z] = hl += hCum[o + z] = hCum[p + z] + H[c * K + k];
        cLo[o + z] = cLo[p + z] + (cl += C[c]);
      }
    }
    // The whole table's totals: the running sums of its last row.
    const t = nA * nB;
    const totalG = gLo[t + nB - 1], totalH = hLo[t + nB - 1];
    const parent = (totalG * totalG) / (totalH + lambda);
    let best = 0;
    for (let cut = 1; cut < nA; cut++) {
      const f = cut * nB;
      // A "found" score is never NaN here: NaN marks no cut.
      const lo = second(gLo, hLo, f, f, 0, nB, minLeaf, lambda);
      if (Number.isNaN(lo)) continue;
      let gl = 0, hl = 0;
      for (let z = 0; z < nB; z++) {
        gHi[z] = gl += gCum[t + z] - gCum[f + z];
        hHi[z] = hl += hCum[t + z] - hCum[f + z];
      }
      const hi = second(gHi, hHi, 0, t, f, nB, minLeaf, lambda);
      if (Number.isNaN(hi)) continue;
      const gain = lo + hi - parent;
      if (gain > best + 1e-12) best = gain;
    }
    return best;
  };
  return (G, H, C, K, k, P0, P1, minLeaf, lambda) => {
    const a = oneOrder(G, H, C, K, k, P0, P1, false, minLeaf, lambda);
    const b = oneOrder(G, H, C, K, k, P0, P1, true, minLeaf, lambda);
    const best = a >= b ? a : b;
    return best <= 0 ? 0 : best;
  };
}
