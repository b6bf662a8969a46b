/**
 * Numeric kernels of the boosted additive model: the small trees fitted on
 * a term's gradient histograms in each boosting step (the histograms are
 * built in {@link ./histogram.ts}, the losses and their gradients are in
 * {@link ./loss.ts}). Kept apart from the training loop so each stays
 * readable.
 *
 * @example
 * ```ts
 * import { fitOrderedBins } from "./boost.ts";
 *
 * // Two bins with opposite gradients: the step pushes them apart.
 * const out = new Float64Array(3);
 * const hist = { G: Float64Array.of(0, 5, -5), H: Float64Array.of(0, 5, 5), C: Float64Array.of(0, 20, 20) };
 * fitOrderedBins(hist, 1, 0, 3, false, 1, 1, 0, 1, out);
 * if (!(out[1] < 0 && out[2] > 0)) throw new Error("example failed");
 * ```
 *
 * @module
 */

import type { Histogram } from "./histogram.ts";
import { type PairPlan, pairPlan } from "./pair_plan.ts";

// The losses moved to loss.ts; their names stay importable from here.
export {
  gradients,
  logLoss,
  type LossKind,
  meanSquaredError,
  squaredErrorGradients,
} from "./loss.ts";

/**
 * Regularisation of a boosting step beyond the L2 `lambda`: the L1 part of an
 * elastic net (`l1`: the gradient sum of a leaf is soft-thresholded by it, so
 * weak cells get exactly 0), and the minimum gain of a split, absolute
 * (`minGain`) and as a fraction of the parent node's score
 * (`minGainFraction`).
 */
export interface StepRegularisation {
  l1: number;
  minGain: number;
  minGainFraction: number;
}

/** No L1 and no minimum gain. */
export const NO_REGULARISATION: Readonly<StepRegularisation> = Object.freeze({
  l1: 0,
  minGain: 0,
  minGainFraction: 0,
});

/**
 * Soft thresholding: `g` moved towards 0 by `l1` (0 when within it).
 *
 * @example
 * ```ts
 * import { soft } from "./boost.ts";
 * if (!(soft(5, 2) === 3 && soft(-5, 2) === -3 && soft(1, 2) === 0)) throw new Error("example failed");
 * ```
 */
export function soft(g: number, l1: number): number {
  if (l1 <= 0) return g;
  return g > l1 ? g - l1 : g < -l1 ? g + l1 : 0;
}

/**
 * A step that gives every cell with at least `minLeaf` rows (and a gain
 * `soft(G, l1)^2 / (H + lambda)` above `reg.minGain`) its own regularised
 * Newton value `-lr * soft(G, l1) / (H + lambda)` (others 0): the pair step
 * on large data.
 *
 * @example
 * ```ts
 * import { fitCells } from "./boost.ts";
 * const out = new Float64Array(2);
 * fitCells({ G: Float64Array.of(4, 2), H: Float64Array.of(3, 1), C: Float64Array.of(30, 5) }, 1, 0, 2, 10, 1, 1, out);
 * if (!(out[0] === -1 && out[1] === 0)) throw new Error("example failed");
 * ```
 */
export function fitCells(
  { G, H, C }: Histogram,
  K: number,
  k: number,
  cells: number,
  minLeaf: number,
  lambda: number,
  lr: number,
  out: Float64Array,
  reg: StepRegularisation = NO_REGULARISATION,
): void {
  for (let q = 0; q < cells; q++) {
    const g = soft(G[q * K + k], reg.l1), h = H[q * K + k] + lambda;
    // A cell's own step must gain at least minGain, like a split.
    out[q] = C[q] >= minLeaf && (g * g) / h > reg.minGain ? (-lr * g) / h : 0;
  }
}

/**
 * Fits one boosting step on a main term's bin histogram for score column `k`:
 * a depth-limited tree over the bins in order (numeric) or sorted by their
 * gradient ratio (categorical, where bins have no order), with `minLeaf` rows
 * per leaf and L2 `lambda`. The missing bin 0 gets its own Newton step. Writes
 * the shrunk leaf values into `out[bin]`; empty categorical bins get 0 so an
 * unseen "other" stays neutral.
 *
 * @example
 * ```ts
 * import { fitOrderedBins } from "./boost.ts";
 *
 * const out = new Float64Array(2);
 * const hist = { G: Float64Array.of(4, 0), H: Float64Array.of(4, 0), C: Float64Array.of(16, 0) };
 * fitOrderedBins(hist, 1, 0, 2, false, 1, 1, 0, 0.5, out);
 * if (!(out[0] === -0.5)) throw new Error("example failed");
 * ```
 */
export function fitOrderedBins(
  { G, H, C }: Histogram,
  K: number,
  k: number,
  nBins: number,
  categorical: boolean,
  depth: number,
  minLeaf: number,
  lambda: number,
  lr: number,
  out: Float64Array,
  reg: StepRegularisation = NO_REGULARISATION,
): void {
  out.fill(0);
  const l1 = reg.l1;
  const g0 = G[k], h0 = H[k];
  if (C[0] >= minLeaf) out[0] = (-lr * soft(g0, l1)) / (h0 + lambda);
  let idx: ArrayLike<number>;
  let m = 0;
  if (categorical) {
    // Each level's ratio once, not twice a comparison: a many-level
    // category (thousands of bins) spent most of its step in the sort.
    if (ORDER.length < nBins) ORDER = new Int32Array(2 * nBins);
    if (RATIO.length < nBins) RATIO = new Float64Array(2 * nBins);
    const ratio = RATIO;
    for (let b = 1; b < nBins; b++) {
      if (C[b] > 0) ORDER[m++] = b;
      ratio[b] = G[b * K + k] / (H[b * K + k] + lambda);
    }
    idx = ORDER.subarray(0, m).sort((a, b) => ratio[a] - ratio[b] || a - b);
  } else {
    // The bins in order, in a scratch array: a stage fits this step for
    // every feature, class and round, so nothing is allocated here.
    if (ORDER.length < nBins) ORDER = new Int32Array(2 * nBins);
    for (let b = 1; b < nBins; b++) ORDER[m++] = b;
    idx = ORDER;
  }
  if (m === 0) return;
  STEP.G = G, STEP.H = H, STEP.C = C, STEP.K = K, STEP.k = k;
  STEP.minLeaf = minLeaf, STEP.lambda = lambda, STEP.lr = lr, STEP.out = out;
  STEP.reg = reg;
  splitSegment(idx, 0, m, depth);
}

/** Scratch of {@link fitOrderedBins}: a step's bins in order (numeric) or its levels with rows (categorical), and the levels' gradient ratios. */
let ORDER = new Int32Array(256), RATIO = new Float64Array(256);

/** What {@link splitSegment} reads of the step being fitted. */
const STEP: {
  G: Float64Array;
  H: Float64Array;
  C: Float64Array;
  K: number;
  k: number;
  minLeaf: number;
  lambda: number;
  lr: number;
  out: Float64Array;
  reg: StepRegularisation;
} = {
  G: new Float64Array(0),
  H: new Float64Array(0),
  C: new Float64Array(0),
  K: 1,
  k: 0,
  minLeaf: 0,
  lambda: 0,
  lr: 0,
  out: new Float64Array(0),
  reg: NO_REGULARISATION,
};

/**
 * Splits the segment `[from, to)` of `order` (bins) at its best cut, down to
 * depth `d`, and writes each leaf's shrunk value (see {@link fitOrderedBins}).
 */
function splitSegment(
  order: ArrayLike<number>,
  from: number,
  to: number,
  d: number,
): void {
  const { G, H, C, K, k, minLeaf, lambda, lr, out, reg } = STEP;
  const l1 = reg.l1;
  let gs = 0, hs = 0, cs = 0;
  for (let i = from; i < to; i++) {
    const b = order[i];
    gs += G[b * K + k];
    hs += H[b * K + k];
    cs += C[b];
  }
  let best = -1, bestGain = 1e-12;
  if (d > 0 && cs >= 2 * minLeaf) {
    const sg = soft(gs, l1);
    const parent = (sg * sg) / (hs + lambda);
    bestGain = Math.max(1e-12, reg.minGain, reg.minGainFraction * parent);
    let gl = 0, hl = 0, cl = 0;
    for (let i = from; i < to - 1; i++) {
      const b = order[i];
      gl += G[b * K + k];
      hl += H[b * K + k];
      cl += C[b];
      if (cl < minLeaf) continue;
      if (cs - cl < minLeaf) break;
      const gr = soft(gs - gl, l1), hr = hs - hl, sl = soft(gl, l1);
      const gain = (sl * sl) / (hl + lambda) + (gr * gr) / (hr + lambda) -
        parent;
      if (gain > bestGain) {
        bestGain = gain;
        best = i + 1;
      }
    }
  }
  if (best < 0) {
    const v = (-lr * soft(gs, l1)) / (hs + lambda);
    for (let i = from; i < to; i++) out[order[i]] = v;
    return;
  }
  splitSegment(order, from, best, d - 1);
  splitSegment(order, best, to, d - 1);
}

/**
 * Fits one boosting step on a pair term's 2-D histogram (cells `a * P1 + b`)
 * for score column `k`: a depth-2 tree that cuts one axis, then cuts the other
 * axis separately on each side; both axis orders are tried. Returns the gain
 * (the FAST interaction score when called on residuals) and writes the shrunk
 * leaf values to `out[cell]` (all 0 when no cut satisfies `minLeaf`).
 * `plan`: the histogram's {@link PairPlan} (what its counts allow; built
 * here when not given), which a multi-class step builds once for its
 * classes.
 *
 * @example
 * ```ts
 * import { fitPair } from "./boost.ts";
 *
 * // XOR-like gradients on a 2x2 grid give a clear interaction gain.
 * const G = Float64Array.of(5, -5, -5, 5), H = Float64Array.of(5, 5, 5, 5), C = Float64Array.of(20, 20, 20, 20);
 * const out = new Float64Array(4);
 * if (!(fitPair({ G, H, C }, 1, 0, 2, 2, 1, 1, 1, out) > 0 && out[0] < 0 && out[1] > 0)) throw new Error("example failed");
 * ```
 */
export function fitPair(
  hist: Histogram,
  K: number,
  k: number,
  P0: number,
  P1: number,
  minLeaf: number,
  lambda: number,
  lr: number,
  out: Float64Array,
  reg: StepRegularisation = NO_REGULARISATION,
  plan: PairPlan = pairPlan(hist.C, P0, P1, minLeaf, SCRATCH_PLAN),
): number {
  // Marginal sums along each axis for each slice make every candidate cut O(1).
  const a = bestTwoLevel(
    hist,
    K,
    k,
    P0,
    P1,
    false,
    lambda,
    TWO_A,
    plan.ranges[0],
  );
  const b = bestTwoLevel(
    hist,
    K,
    k,
    P0,
    P1,
    true,
    lambda,
    TWO_B,
    plan.ranges[1],
  );
  const best = a.gain >= b.gain ? a : b;
  if (best.gain <= Math.max(0, reg.minGain)) {
    out.fill(0);
    return 0;
  }
  out.fill(0, P0 * P1);
  // The four leaves' values, then each row of cells as its runs of them.
  const v = LEAVES;
  for (let leaf = 0; leaf < 4; leaf++) {
    v[leaf] = (-lr * soft(best.g[leaf], reg.l1)) / (best.h[leaf] + lambda);
  }
  const { cut, cuts } = best;
  for (let i = 0; i < P0; i++) {
    const row = i * P1;
    if (best.transposed) {
      // Side by the column (j < cut), leaf within it by the row.
      const lo = i < cuts[0] ? v[0] : v[1], hi = i < cuts[1] ? v[2] : v[3];
      const at = Math.min(cut, P1);
      out.fill(lo, row, row + at);
      out.fill(hi, row + at, row + P1);
    } else {
      const side = i < cut ? 0 : 1, at = Math.min(cuts[side], P1);
      out.fill(v[2 * side], row, row + at);
      out.fill(v[2 * side + 1], row + at, row + P1);
    }
  }
  return best.gain;
}

/**
 * The gain of {@link fitPair}'s tree for score column `k` without fitting
 * its leaves (the FAST score of a pair, summed over the columns by the
 * ranking, see interactions.ts): the larger of both orientations, 0 when
 * no tree keeps `minLeaf` rows a leaf; `plan` as fitPair's.
 *
 * @example
 * ```ts
 * import { fitPair, pairGain } from "./boost.ts";
 *
 * const hist = { G: Float64Array.of(5, -5, -5, 5), H: Float64Array.of(5, 5, 5, 5), C: Float64Array.of(20, 20, 20, 20) };
 * const gain = pairGain(hist, 1, 0, 2, 2, 1, 1);
 * if (!(gain > 0 && gain === fitPair(hist, 1, 0, 2, 2, 1, 1, 1, new Float64Array(4)))) throw new Error("example failed");
 * ```
 */
export function pairGain(
  hist: Histogram,
  K: number,
  k: number,
  P0: number,
  P1: number,
  minLeaf: number,
  lambda: number,
  plan: PairPlan = pairPlan(hist.C, P0, P1, minLeaf, SCRATCH_PLAN),
): number {
  const a =
    bestTwoLevel(hist, K, k, P0, P1, false, lambda, TWO_A, plan.ranges[0]).gain;
  const b =
    bestTwoLevel(hist, K, k, P0, P1, true, lambda, TWO_B, plan.ranges[1]).gain;
  const best = a >= b ? a : b;
  return best <= 0 ? 0 : best;
}

/** The plan {@link fitPair} builds when given none. */
const SCRATCH_PLAN: PairPlan = {
  ranges: [new Int32Array(0), new Int32Array(0)],
};

/**
 * The best two-level tree of one orientation: the cut along the first axis,
 * the cut of each side along the second, and the four leaves' gradient and
 * hessian sums.
 */
interface TwoLevel {
  gain: number;
  transposed: boolean;
  cut: number;
  cuts: [number, number];
  g: [number, number, number, number];
  h: [number, number, number, number];
}

const newTwoLevel = (): TwoLevel => ({
  gain: 0,
  transposed: false,
  cut: 0,
  cuts: [0, 0],
  g: [0, 0, 0, 0],
  h: [0, 0, 0, 0],
});

// One result per orientation, reused: a small table's pair stage calls
// fitPair millions of times (pairs x classes x rounds x bags), and building
// these objects and the cumulative sums anew each call was most of its time.
const TWO_A = newTwoLevel(), TWO_B = newTwoLevel();
/** The best tree's four leaf values (scratch of {@link fitPair}). */
const LEAVES = new Float64Array(4);
let cumulative = new Float64Array(0);
/** A side's running sums of gradients and hessians along the second axis. */
let prefix = new Float64Array(0);

/** The best second-level cut of one side, written to {@link SECOND}. */
const SECOND = {
  found: false,
  score: 0,
  cut: 0,
  gl: 0,
  gr: 0,
  hl: 0,
  hr: 0,
};

function bestTwoLevel(
  { G, H }: Histogram,
  K: number,
  k: number,
  P0: number,
  P1: number,
  transposed: boolean,
  lambda: number,
  best: TwoLevel,
  ranges: Int32Array,
): TwoLevel {
  // Axis A is cut first, axis B second. Cell (x along A, z along B).
  const nA = transposed ? P1 : P0, nB = transposed ? P0 : P1;
  // cumulative sums along A of the B-profile: lower[x][z] = sum over A < x,
  // of g and h side by side (at 2 (x nB + z) and the next) in one scratch
  // buffer (the counts' part is the plan's).
  const size = (nA + 1) * nB;
  if (cumulative.length < 2 * size) cumulative = new Float64Array(2 * size);
  if (prefix.length < 2 * nB) prefix = new Float64Array(2 * nB);
  const cum = cumulative;
  cum.fill(0, 0, 2 * nB);
  for (let x = 0; x < nA; x++) {
    // Cell (x, z) is x * P1 + z, or z * P1 + x on the transposed grid.
    const c0 = transposed ? x : x * P1, dc = transposed ? P1 : 1;
    for (let z = 0, c = c0; z < nB; z++, c += dc) {
      const o = 2 * ((x + 1) * nB + z), p = 2 * (x * nB + z);
      cum[o] = cum[p] + G[c * K + k];
      cum[o + 1] = cum[p + 1] + H[c * K + k];
    }
  }
  best.gain = 0;
  best.transposed = transposed;
  best.cut = 0;
  best.cuts[0] = best.cuts[1] = 0;
  let totalG = 0, totalH = 0;
  for (let z = 0; z < nB; z++) {
    totalG += cum[2 * (nA * nB + z)];
    totalH += cum[2 * (nA * nB + z) + 1];
  }
  const parent = (totalG * totalG) / (totalH + lambda);
  for (let cut = 1; cut < nA; cut++) {
    // side 0: A in [0, cut); side 1: A in [cut, nA); either without a
    // second cut that keeps minLeaf rows a leaf: no tree at this cut.
    const r = 4 * cut;
    if (ranges[r] > ranges[r + 1] || ranges[r + 2] > ranges[r + 3]) continue;
    bestSecond(cum, nB, 0, cut, ranges[r], ranges[r + 1], lambda);
    const lo = SECOND.score, loCut = SECOND.cut;
    const lgl = SECOND.gl, lgr = SECOND.gr, lhl = SECOND.hl, lhr = SECOND.hr;
    bestSecond(cum, nB, cut, nA, ranges[r + 2], ranges[r + 3], lambda);
    const gain = lo + SECOND.score - parent;
    if (gain > best.gain + 1e-12) {
      best.gain = gain;
      best.cut = cut;
      best.cuts[0] = loCut, best.cuts[1] = SECOND.cut;
      best.g[0] = lgl, best.g[1] = lgr, best.g[2] = SECOND.gl;
      best.g[3] = SECOND.gr;
      best.h[0] = lhl, best.h[1] = lhr, best.h[2] = SECOND.hl;
      best.h[3] = SECOND.hr;
    }
  }
  return best;
}

/**
 * The best second cut of the slice `[from, to)` of axis A among the cuts
 * after bins `first..last` of axis B (the plan's: those that keep minLeaf
 * rows a side; at least one), written to {@link SECOND}. The slice's sums
 * along B are added up once, in B's order; the sums left of each cut are
 * those running sums, as a scan adding the same terms in the same order
 * gives them.
 */
function bestSecond(
  cum: Float64Array,
  nB: number,
  from: number,
  to: number,
  first: number,
  last: number,
  lambda: number,
): void {
  const pre = prefix, t = 2 * to * nB, f = 2 * from * nB;
  let gs = 0, hs = 0;
  for (let z = 0; z < 2 * nB; z += 2) {
    pre[z] = gs += cum[t + z] - cum[f + z];
    pre[z + 1] = hs += cum[t + z + 1] - cum[f + z + 1];
  }
  let found = false, best = 0, at = 0;
  for (let z = first; z <= last; z++) {
    const gl = pre[2 * z], hl = pre[2 * z + 1];
    const gr = gs - gl, hr = hs - hl;
    const score = (gl * gl) / (hl + lambda) + (gr * gr) / (hr + lambda);
    if (!found || score > best) found = true, best = score, at = z;
  }
  const gl = pre[2 * at], hl = pre[2 * at + 1];
  SECOND.found = found;
  SECOND.score = best;
  SECOND.cut = at + 1;
  SECOND.gl = gl, SECOND.gr = gs - gl, SECOND.hl = hl, SECOND.hr = hs - hl;
}
