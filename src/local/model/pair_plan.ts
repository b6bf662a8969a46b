/**
 * The counts' plan of a pair step: which cuts of a pair's grid leave
 * `minLeaf` rows a leaf (`pairPlan`), the same for every score column, and
 * a plan kept from round to round while its counts stay (`refreshPairPlan`).
 * boost.ts's `fitPair` and `pairGain` search the cuts it allows.
 *
 * @module
 */

/**
 * What a pair histogram's row counts decide of `fitPair`'s trees (boost.ts), the
 * same for every score column: for each orientation (axis 0 cut first, or
 * axis 1), each first cut `x` (1 to the cut axis's bins - 1) and each side
 * of it, the first and last second cut (`z`, the cut after bin `z`) that
 * leave at least `minLeaf` rows on both sides of it, in `ranges[o]` at `4x`
 * (lower side) and `4x + 2` (upper side); first > last when there is none
 * (or the side has fewer than `2 minLeaf` rows). A multi-class step builds
 * it once a histogram and fits every class with it: the counts' sums are
 * the ones fitPair made for each class, in the same order.
 */
export interface PairPlan {
  ranges: [Int32Array, Int32Array];
}

/**
 * The {@link PairPlan} of a pair histogram's counts `C` (cells
 * `a * P1 + b`), written into `into` when given (grown as needed).
 *
 * @example
 * ```ts
 * import { fitPair } from "./boost.ts";
 * import { pairPlan } from "./pair_plan.ts";
 *
 * const hist = { G: Float64Array.of(5, -5, -5, 5), H: Float64Array.of(5, 5, 5, 5), C: Float64Array.of(20, 20, 20, 20) };
 * const plan = pairPlan(hist.C, 2, 2, 1);
 * // One first cut (x = 1) on each axis: every side can be cut after its bin 0.
 * if (plan.ranges[0].subarray(4, 8).join() !== "0,0,0,0") throw new Error("example failed");
 * const out = new Float64Array(4);
 * if (!(fitPair(hist, 1, 0, 2, 2, 1, 1, 1, out, undefined, plan) > 0 && out[0] < 0)) throw new Error("example failed");
 * ```
 */
export function pairPlan(
  C: Float64Array,
  P0: number,
  P1: number,
  minLeaf: number,
  into: PairPlan = { ranges: [new Int32Array(0), new Int32Array(0)] },
): PairPlan {
  for (let o = 0; o < 2; o++) {
    const transposed = o === 1;
    const nA = transposed ? P1 : P0, nB = transposed ? P0 : P1;
    if (into.ranges[o].length < 4 * nA) into.ranges[o] = new Int32Array(4 * nA);
    const ranges = into.ranges[o];
    const size = (nA + 1) * nB;
    if (countScratch.length < size) countScratch = new Float64Array(size);
    const cCum = countScratch;
    cCum.fill(0, 0, nB);
    for (let x = 0; x < nA; x++) {
      for (let z = 0; z < nB; z++) {
        const c = transposed ? z * P1 + x : x * P1 + z;
        cCum[(x + 1) * nB + z] = cCum[x * nB + z] + C[c];
      }
    }
    for (let cut = 1; cut < nA; cut++) {
      secondCuts(cCum, nB, 0, cut, minLeaf, ranges, 4 * cut);
      secondCuts(cCum, nB, cut, nA, minLeaf, ranges, 4 * cut + 2);
    }
  }
  return into;
}

/**
 * A {@link PairPlan} with the counts it was built from: {@link refreshPairPlan}
 * builds it again only when they change.
 */
export interface KeptPairPlan extends PairPlan {
  /** The counts (cells `a * P1 + b`) the ranges were built from. */
  counts: Float64Array;
  /** Whether `ranges` and `counts` hold a plan yet. */
  built: boolean;
}

/** An empty {@link KeptPairPlan}, built at its first {@link refreshPairPlan}. */
export const newKeptPairPlan = (): KeptPairPlan => ({
  ranges: [new Int32Array(0), new Int32Array(0)],
  counts: new Float64Array(0),
  built: false,
});

/**
 * Makes `plan` the {@link pairPlan} of the counts `C`, building it only when
 * they differ from the ones it was built from. A pair stage's histogram
 * counts the same rows every round unless rows are sampled, and the plan is
 * a function of the counts alone, so a kept plan is the plan the round would
 * build: the same ranges, the same model. Comparing the counts is one pass
 * over the cells; building the plan is several (about a quarter of a pair
 * stage's time on a 32 x 32 grid).
 *
 * @example
 * ```ts
 * import { newKeptPairPlan, pairPlan, refreshPairPlan } from "./pair_plan.ts";
 *
 * const C = Float64Array.of(20, 20, 20, 20);
 * const kept = newKeptPairPlan();
 * refreshPairPlan(C, 2, 2, 1, kept);
 * const first = kept.ranges[0];
 * refreshPairPlan(C, 2, 2, 1, kept); // the same counts: nothing built
 * if (kept.ranges[0] !== first) throw new Error("example failed");
 * C[0] = 0; // other counts: built again, as pairPlan builds it
 * refreshPairPlan(C, 2, 2, 1, kept);
 * if (kept.ranges[0].join() !== pairPlan(C, 2, 2, 1).ranges[0].join()) throw new Error("example failed");
 * ```
 */
export function refreshPairPlan(
  C: Float64Array,
  P0: number,
  P1: number,
  minLeaf: number,
  plan: KeptPairPlan,
): void {
  const cells = P0 * P1;
  if (plan.built && plan.counts.length === cells) {
    const kept = plan.counts;
    let q = 0;
    while (q < cells && kept[q] === C[q]) q++;
    if (q === cells) return;
  }
  pairPlan(C, P0, P1, minLeaf, plan);
  if (plan.counts.length !== cells) plan.counts = new Float64Array(cells);
  plan.counts.set(C.subarray(0, cells));
  plan.built = true;
}

/** Scratch of {@link pairPlan}'s cumulative counts (one per thread). */
let countScratch = new Float64Array(0);

/**
 * The first and last second cut of the slice `[from, to)` of the cut axis
 * (see {@link PairPlan}), written at `out[at]` and `out[at + 1]`: the
 * counts' part of what fitPair's second-level search did, the same sums in
 * the same order.
 */
function secondCuts(
  cCum: Float64Array,
  nB: number,
  from: number,
  to: number,
  minLeaf: number,
  out: Int32Array,
  at: number,
): void {
  out[at] = 1, out[at + 1] = 0;
  let cs = 0;
  for (let z = 0; z < nB; z++) cs += cCum[to * nB + z] - cCum[from * nB + z];
  if (cs < 2 * minLeaf) return;
  let cl = 0, first = -1, last = -1;
  for (let z = 0; z < nB - 1; z++) {
    cl += cCum[to * nB + z] - cCum[from * nB + z];
    if (cl < minLeaf) continue;
    if (cs - cl < minLeaf) break;
    if (first < 0) first = z;
    last = z;
  }
  if (first >= 0) out[at] = first, out[at + 1] = last;
}
