/**
 * What one training's fits share of their bags ({@link StageReuse}): the
 * main stages, pair rankings, bins and linear starts that the search's
 * candidates would otherwise compute again, bit for bit the same.
 *
 * @module
 */

import { copyAll } from "./arena.ts";
import type { Binned, RawTerm } from "./prepared.ts";

/**
 * What one training's fits share of their bags: the search's candidates
 * that differ only in their pairs (few, fewest, many, none; and the final
 * fit of the chosen one) fit the same main stage in every bag (same rows,
 * bins, linear start, rounds and random draws) and rank the same pairs, so
 * the first fit of a {@link Prepared.reuseKey} keeps, per bag, its linear
 * start, its main terms' tables after the main stage, the random draws
 * taken, and its ranking of every pair, and the later ones start from
 * them: the same arithmetic, skipped, so the models are bit for bit the
 * ones a fit from scratch gives. A main stage cut short by a deadline is
 * not kept. Fits of other keys on the same bins share the linear starts.
 */
export interface StageReuse {
  /** Per key, per bag. */
  stages: Map<string, Map<number, MainStage>>;
  /** Each fit's bins, by their inputs (see `prepare`): most fits share them. */
  bins: Map<string, Binned>;
  /** Each bag's linear start by its fit's bins (features), link and bag (see `keptStart`). */
  starts: WeakMap<object, Map<string, Float64Array[] | null>>;
  /**
   * Bags fitted whole with pairs, by key, bag, draws taken and pairs (see
   * {@link keptBagKey}): the final fit of the search's winner boosts bag
   * 0's pairs in every bag, and where a bag's own pairs of the winner's
   * search fit were those (bag 0's always are), from the same main stage
   * and random state, its pair stage and backfit were that fit's.
   */
  bags: Map<string, KeptBag>;
  /**
   * The seconds each bag's fit last took, by key without the bag count
   * (see {@link countlessKey}), and under "" the last fit's: the order in
   * which the two threads take a fit's bags, longest first, and a race's
   * spare bags (see `fitOnce`). Kept only with a helper thread; the models
   * do not depend on it.
   */
  seconds: Map<string, number[]>;
}

/** One bag's fit as {@link StageReuse.bags} keeps it (`BagResult` without its bag and stage). */
export interface KeptBag {
  terms: RawTerm[];
  pairs: [number, number][];
  heldOut: number;
  /**
   * The held-out loss of what would serve, on the target's own scale (see
   * `Objective.rawLoss`): `heldOut` but for a log-link regression.
   */
  heldOutRaw: number;
  mainRounds: number;
  mainStop: string;
  pairRounds: number;
  pairStop: string;
}

/**
 * The key of a bag's whole fit in {@link StageReuse.bags}: its main
 * stage's key (`reuseKey`) but for the fit's bag count (a bag's rows, seed
 * and fit do not depend on it: a race's bags, see `RACE_BAGS` in
 * search.ts, serve the fit of every bag in whichever thread fitted them),
 * the bag, the draws its random stream has taken, and its pairs in order.
 *
 * @example
 * ```ts
 * import { keptBagKey } from "./reuse.ts";
 *
 * const key = keptBagKey('[{"estimators":4,"seed":1},true]', 0, 3, [[0, 1], [2, 3]]);
 * if (key !== '[{"seed":1},true]|0|3|0,1;2,3') throw new Error("example failed");
 * if (keptBagKey('[{"estimators":8,"seed":1},true]', 0, 3, [[0, 1], [2, 3]]) !== key) throw new Error("example failed");
 * ```
 */
export function keptBagKey(
  reuseKey: string,
  bag: number,
  draws: number,
  pairs: readonly (readonly [number, number])[],
): string {
  const q = pairs.map((x) => x.join()).join(";");
  return `${countlessKey(reuseKey)}|${bag}|${draws}|${q}`;
}

/**
 * A fit's key (`Prepared.reuseKey`) without its bag count: a bag's rows,
 * seed and fit do not depend on it (see {@link keptBagKey}).
 *
 * @example
 * ```ts
 * import { countlessKey } from "./reuse.ts";
 *
 * if (countlessKey('[{"estimators":4,"seed":1},true]') !== '[{"seed":1},true]') throw new Error("example failed");
 * ```
 */
export function countlessKey(reuseKey: string): string {
  const k = JSON.parse(reuseKey);
  delete k[0].estimators;
  return JSON.stringify(k);
}

/** One bag's main stage as {@link StageReuse} keeps it. */
export interface MainStage {
  /** The linear start's tables (projected on the constraints), or null. */
  start: Float64Array[] | null;
  /** The main terms' tables after the main stage. */
  tables: Float64Array[];
  rounds: number;
  stop: string;
  /** Draws taken from the bag's stream by the main stage. */
  draws: number;
  /** Every pair with a gain, best first, and the draws taken after ranking them. */
  ranked: { pairs: [number, number][]; draws: number } | null;
}

/**
 * A new, empty {@link StageReuse} for one training (its search's fits in
 * one thread; a helper thread keeps its own).
 *
 * @example
 * ```ts
 * import { newStageReuse } from "./reuse.ts";
 *
 * const reuse = newStageReuse();
 * if (reuse.stages.size !== 0 || reuse.bins.size !== 0 || reuse.bags.size !== 0) throw new Error("example failed");
 * ```
 */
export function newStageReuse(): StageReuse {
  return {
    stages: new Map(),
    bins: new Map(),
    starts: new WeakMap(),
    bags: new Map(),
    seconds: new Map(),
  };
}

/**
 * Lets fits of `to` bags start from what fits of `from` bags left (a race,
 * see `RACE_BAGS` in search.ts): a bag's rows, seed and fit do not depend
 * on how many bags its fit has, so every kept binning and main stage under
 * a key whose `estimators` is `from` is kept under the same key with `to`
 * too, unless one is (whole bags are kept without the count, see
 * {@link keptBagKey}). The main stages so kept go to the helper thread
 * with a fit's task.
 *
 * @example
 * ```ts
 * import { newStageReuse, shareEstimators } from "./reuse.ts";
 *
 * const reuse = newStageReuse();
 * reuse.stages.set(JSON.stringify([{ estimators: 8, seed: 1 }, false]), new Map());
 * shareEstimators(reuse, 8, 4);
 * if (!reuse.stages.has('[{"estimators":4,"seed":1},false]')) throw new Error("example failed");
 * ```
 */
export function shareEstimators(
  reuse: StageReuse,
  from: number,
  to: number,
): void {
  const twin = (key: string): string | null => {
    const k = JSON.parse(key);
    if (k[0]?.estimators !== from) return null;
    k[0].estimators = to;
    return JSON.stringify(k);
  };
  for (const [key, byBag] of [...reuse.stages]) {
    const t = twin(key);
    if (t === null || reuse.stages.has(t)) continue;
    reuse.stages.set(t, new Map([...byBag].map(([b, s]) => [b, { ...s }])));
  }
  for (const [key, binned] of [...reuse.bins]) {
    const t = twin(key);
    if (t !== null && !reuse.bins.has(t)) reuse.bins.set(t, binned);
  }
}

/**
 * A kept bag's fit with its own tables, in one new buffer (a model's merge
 * must not share them).
 *
 * @example
 * ```ts
 * import { copyKept, type KeptBag } from "./reuse.ts";
 *
 * const bag = { terms: [{ features: [0], scores: Float64Array.of(1, 2) }], pairs: [[0, 1]] } as unknown as KeptBag;
 * const copy = copyKept(bag);
 * bag.terms[0].scores[0] = 9;
 * if (copy.terms[0].scores[0] !== 1 || copy.pairs[0] === bag.pairs[0]) throw new Error("example failed");
 * ```
 */
export function copyKept(r: KeptBag): KeptBag {
  const scores = copyAll(r.terms.map((t) => t.scores));
  return {
    ...r,
    terms: r.terms.map((t, i) => ({ ...t, scores: scores[i] })),
    pairs: r.pairs.map(([a, c]) => [a, c]),
  };
}
