/**
 * Model constraints (docs/contract.md#model-constraints-and-protected-fields):
 * monotone features, excluded and protected features, and the groups inside
 * which features may interact. A training sees them on its dataset
 * ({@link constrainDataset}); the booster keeps every step monotone
 * ({@link projectMainStep}, {@link projectPairStep}) so the sum of the steps,
 * the bags' average and the finished model are monotone too, exactly.
 *
 * Why a projection of each step rather than of the finished shape: a shape
 * projected at the end would no longer be the one whose validation loss
 * stopped the boosting, and the pairs were fitted on the residuals of the
 * unprojected mains. A step projected by weighted isotonic regression
 * (pool-adjacent-violators, weights = the bins' hessians) is the closest
 * monotone step in the Newton metric, and a sum of monotone steps stays
 * monotone; floating-point addition is monotone in each argument, so no
 * rounding can break it.
 *
 * @module
 */

import { type EncodedDataset, inputOf } from "./encoder.ts";
import { ModelDataError, ModelParamError } from "./errors.ts";
import type { FeatureBins, ModelConstraints } from "./types.ts";

/** A feature's direction: 1 increasing, -1 decreasing, 0 free. */
export type Direction = -1 | 0 | 1;

/** A dataset that carries the constraints of its training. */
type Constrained = EncodedDataset & { constraints?: ModelConstraints };

/**
 * The dataset a constrained training fits: the excluded and protected
 * features removed from its columns (the model has no term of them; its
 * record lists them among `dropped_features` with why) and the constraints
 * attached, so the booster (in whatever thread) finds them on the data.
 *
 * @throws {ModelParamError} When a monotone feature is not a numeric feature
 *   of the dataset, when a constraint names a protected feature, or when a
 *   target with 3+ classes gets a monotone constraint (a softmax logit per
 *   class has no one direction).
 *
 * @example
 * ```ts
 * import { encodeDataset } from "./encoding.ts";
 * import { constrainDataset, constraintsOf } from "./constraints.ts";
 * const x = [1, 2, 3, 4], z = ["a", "b", "a", "b"];
 * const data = encodeDataset({ x, z, y: ["n", "n", "y", "y"] }, [
 *   { name: "x", data_type: { data_type: "NUMBER" }, designation: "FEATURE", semantic_type: "CONTINUOUS" },
 *   { name: "z", data_type: { data_type: "STRING" }, designation: "FEATURE", semantic_type: "CATEGORICAL" },
 *   { name: "y", data_type: { data_type: "STRING" }, designation: "TARGET", semantic_type: "CATEGORICAL" },
 * ]);
 * const c = constrainDataset(data, { monotone: { x: "increasing" }, excluded: [], protected: ["z"], groups: null });
 * if (c.encoder.features.map((f) => f.name).join() !== "x") throw new Error("example failed");
 * if (constraintsOf(c)?.monotone.x !== "increasing") throw new Error("example failed");
 * ```
 */
export function constrainDataset(
  data: EncodedDataset,
  constraints: ModelConstraints,
): EncodedDataset {
  const gone = new Set([...constraints.excluded, ...constraints.protected]);
  const classes = data.encoder.target.classes.length;
  for (const [name, direction] of Object.entries(constraints.monotone)) {
    // A feature the encoding dropped (constant, empty) has no shape to bend.
    if (data.encoder.dropped?.some((d) => d.name === name)) continue;
    const f = data.encoder.features.find((g) => g.name === name);
    if (constraints.protected.includes(name)) {
      throw new ModelParamError(
        name,
        "PROTECTED",
        `'${name}' is a protected field: a model may not use it, so it cannot be monotone.`,
      );
    }
    if (!f || f.kind !== "numeric") {
      throw new ModelParamError(
        name,
        "NOT_NUMERIC",
        `'${name}' must be a numeric feature to be ${direction}${
          f ? ` (it is categorical)` : " (the dataset has no such feature)"
        }.`,
      );
    }
    if (data.encoder.target.kind !== "numeric" && classes > 2) {
      throw new ModelParamError(
        name,
        "MULTICLASS",
        `monotone constraints need a binary or regression target; '${data.encoder.target.name}' has ${classes} classes.`,
      );
    }
  }
  // A date column's derived parts go with it (and are not listed apart).
  const keep = data.encoder.features.map((f) => !gone.has(inputOf(f)));
  const dropped = data.encoder.features.filter((f, j) =>
    !keep[j] && inputOf(f) === f.name
  ).map((f) => ({
    name: f.name,
    reason: constraints.protected.includes(f.name)
      ? "a protected field (data protection)"
      : "excluded by a model constraint",
  }));
  if (!keep.includes(true)) {
    throw new ModelDataError(
      null,
      "NO_FEATURES_LEFT",
      `no feature is left to train on: ${
        dropped.map((d) => `'${d.name}' (${d.reason})`).join(", ")
      }; keep at least one feature the model may use.`,
    );
  }
  const encoder = {
    ...data.encoder,
    features: data.encoder.features.filter((_, j) => keep[j]),
    ...(dropped.length || data.encoder.dropped
      ? { dropped: [...(data.encoder.dropped ?? []), ...dropped] }
      : {}),
  };
  const out: Constrained = {
    ...data,
    encoder,
    features: data.features.filter((_, j) => keep[j]),
    constraints,
  };
  return out;
}

/** The constraints a dataset carries (see {@link constrainDataset}), if any. */
export function constraintsOf(
  data: EncodedDataset,
): ModelConstraints | undefined {
  return (data as Constrained).constraints;
}

/** Per feature of `features`, its monotone direction under `data`'s constraints. */
export function directionsOf(
  data: EncodedDataset,
  features: readonly FeatureBins[],
): Direction[] {
  const monotone = constraintsOf(data)?.monotone ?? {};
  return features.map((f) => {
    const d = Object.hasOwn(monotone, f.name) ? monotone[f.name] : undefined;
    return d === "increasing" ? 1 : d === "decreasing" ? -1 : 0;
  });
}

/**
 * Whether features `a` and `c` may form a pair term: without groups, any
 * two; with groups, two features named in one group (EBM's `interactions`
 * as allowed sets, HGB's `interaction_cst`).
 */
export function pairAllowed(
  data: EncodedDataset,
  features: readonly FeatureBins[],
): (a: number, c: number) => boolean {
  const groups = constraintsOf(data)?.groups;
  if (!groups) return () => true;
  const sets = groups.map((g) => new Set(g));
  // A part derived from a date column is in its column's groups.
  const inputs = new Map(
    data.encoder.features.map((f) => [f.name, inputOf(f)]),
  );
  const input = features.map((f) => inputs.get(f.name) ?? f.name);
  return (a, c) => sets.some((s) => s.has(input[a]) && s.has(input[c]));
}

/**
 * Whether a term may be purified (its marginal means moved into the main
 * terms): not a pair with a monotone feature, whose own table is what
 * keeps the monotonicity of its slices (purifying would trade it for the
 * mains').
 */
export function purifiable(
  data: EncodedDataset,
  features: readonly FeatureBins[],
  term: { features: number[] },
): boolean {
  if (term.features.length < 2) return true;
  const dirs = directionsOf(data, term.features.map((j) => features[j]));
  return dirs.every((d) => d === 0);
}

/**
 * Weighted isotonic regression (pool adjacent violators) of
 * `values[at(from)], ..., values[at(to - 1)]` in place: the closest
 * sequence in the weighted squared distance that is non-decreasing
 * (`dir` 1) or non-increasing (`dir` -1). Weights must be positive.
 *
 * @example
 * ```ts
 * import { isotonic } from "./constraints.ts";
 * const v = [1, 3, 2, 4];
 * isotonic(v, [1, 1, 1, 1], 0, 4, 1, (i) => i);
 * if (v.join() !== "1,2.5,2.5,4") throw new Error(v.join());
 * const d = [3, 1, 2];
 * isotonic(d, [1, 1, 1], 0, 3, -1, (i) => i);
 * if (d.join() !== "3,1.5,1.5") throw new Error(d.join());
 * ```
 */
export function isotonic(
  values: { [i: number]: number },
  weights: ArrayLike<number>,
  from: number,
  to: number,
  dir: 1 | -1,
  at: (i: number) => number,
): void {
  const m = to - from;
  if (m < 2) return;
  // Blocks: their mean (in the direction's sign), weight and end.
  const mean = new Float64Array(m), weight = new Float64Array(m);
  const end = new Int32Array(m);
  let top = -1;
  for (let i = from; i < to; i++) {
    top++;
    mean[top] = dir * values[at(i)];
    weight[top] = weights[i];
    end[top] = i + 1;
    while (top > 0 && mean[top - 1] > mean[top]) {
      const w = weight[top - 1] + weight[top];
      mean[top - 1] = (weight[top - 1] * mean[top - 1] +
        weight[top] * mean[top]) / w;
      weight[top - 1] = w;
      end[top - 1] = end[top];
      top--;
    }
  }
  let i = from;
  for (let b = 0; b <= top; b++) {
    for (; i < end[b]; i++) values[at(i)] = dir * mean[b];
  }
}

/** Whether `values[at(from)..at(to - 1)]` follows `dir` exactly. */
function follows(
  values: ArrayLike<number>,
  from: number,
  to: number,
  dir: 1 | -1,
  at: (i: number) => number,
): boolean {
  for (let i = from + 1; i < to; i++) {
    if (dir * (values[at(i)] - values[at(i - 1)]) < 0) return false;
  }
  return true;
}

/** A histogram's weight of every cell of score column `k`: hessian plus `l2`. */
function weightsOf(
  H: Float64Array,
  K: number,
  k: number,
  cells: number,
  l2: number,
): Float64Array {
  const w = new Float64Array(cells);
  for (let q = 0; q < cells; q++) w[q] = H[q * K + k] + l2 + 1e-12;
  return w;
}

/**
 * Projects a main term's step (one value per bin) onto the monotone steps
 * of direction `dir` over the non-missing bins 1.. (the missing bin has no
 * place in the order and keeps its own step), weighted by the bins'
 * hessians plus `l2`.
 */
export function projectMainStep(
  step: Float64Array,
  H: Float64Array,
  K: number,
  k: number,
  nBins: number,
  dir: 1 | -1,
  l2: number,
): void {
  isotonic(step, weightsOf(H, K, k, nBins, l2), 1, nBins, dir, (i) => i);
}

/**
 * Projects a pair term's step (cells `c0 * P1 + c1`) so every slice along a
 * monotone axis follows its direction (coarse bin 0, missing, aside): one
 * constrained axis, slice by slice exactly; two, alternating the slices of
 * each axis, then a running maximum along each axis, which makes both exact
 * (a running maximum along one axis keeps the other's order).
 */
export function projectPairStep(
  step: Float64Array,
  H: Float64Array,
  K: number,
  k: number,
  P0: number,
  P1: number,
  dir0: Direction,
  dir1: Direction,
  l2: number,
): void {
  const w = weightsOf(H, K, k, P0 * P1, l2);
  const sliceW = new Float64Array(Math.max(P0, P1));
  const along0 = (c1: number, d: 1 | -1) => {
    for (let c0 = 0; c0 < P0; c0++) sliceW[c0] = w[c0 * P1 + c1];
    isotonic(step, sliceW, 1, P0, d, (c0) => c0 * P1 + c1);
  };
  const along1 = (c0: number, d: 1 | -1) => {
    for (let c1 = 0; c1 < P1; c1++) sliceW[c1] = w[c0 * P1 + c1];
    isotonic(step, sliceW, 1, P1, d, (c1) => c0 * P1 + c1);
  };
  const done = () => {
    for (let c1 = 0; dir0 && c1 < P1; c1++) {
      if (!follows(step, 1, P0, dir0, (c0) => c0 * P1 + c1)) return false;
    }
    for (let c0 = 0; dir1 && c0 < P0; c0++) {
      if (!follows(step, 1, P1, dir1, (c1) => c0 * P1 + c1)) return false;
    }
    return true;
  };
  for (let sweep = 0; sweep < (dir0 && dir1 ? 8 : 1); sweep++) {
    if (dir0) { for (let c1 = 0; c1 < P1; c1++) along0(c1, dir0); }
    if (dir1) { for (let c0 = 0; c0 < P0; c0++) along1(c0, dir1); }
    if (done()) return;
  }
  // Both axes and still not exact: a running maximum in each axis's
  // direction, one after the other.
  for (let c1 = 0; dir0 && c1 < P1; c1++) {
    runningMax(step, 1, P0, dir0, (c0) => c0 * P1 + c1);
  }
  for (let c0 = 0; dir1 && c0 < P0; c0++) {
    runningMax(step, 1, P1, dir1, (c1) => c0 * P1 + c1);
  }
}

/** A running maximum from the low end (`dir` 1) or the high end (-1). */
function runningMax(
  v: Float64Array,
  from: number,
  to: number,
  dir: 1 | -1,
  at: (i: number) => number,
): void {
  if (dir === 1) {
    for (let i = from + 1; i < to; i++) {
      v[at(i)] = Math.max(v[at(i)], v[at(i - 1)]);
    }
  } else {
    for (let i = to - 2; i >= from; i--) {
      v[at(i)] = Math.max(v[at(i)], v[at(i + 1)]);
    }
  }
}

/**
 * Makes the linear start's table of every monotone feature follow its
 * direction (one score column): a line of the wrong sign becomes flat at
 * its mean, one of the right sign is left as it is.
 */
export function projectTables(
  tables: Float64Array[],
  dirs: readonly Direction[],
): void {
  tables.forEach((t, j) => {
    const d = dirs[j];
    if (d) {
      isotonic(t, new Float64Array(t.length).fill(1), 1, t.length, d, (i) => i);
    }
  });
}

/**
 * Whether every main term and every pair containing a monotone feature of
 * `model` follows its direction exactly over the non-missing bins (what
 * tests and the job check on the finished model).
 */
export function respectsMonotone(
  model: {
    features: FeatureBins[];
    terms: { features: number[]; scores: number[] }[];
    scoreColumns: number;
    constraints?: ModelConstraints;
  },
): boolean {
  const monotone = model.constraints?.monotone ?? {};
  const dirOf = (j: number): Direction => {
    const d = monotone[model.features[j].name];
    return d === "increasing" ? 1 : d === "decreasing" ? -1 : 0;
  };
  for (const t of model.terms) {
    const s = t.scores;
    if (t.features.length === 1) {
      const d = dirOf(t.features[0]);
      const n = model.features[t.features[0]].nBins;
      if (d && !follows(s, 1, n, d, (i) => i)) return false;
      continue;
    }
    const [a, c] = t.features;
    const P0 = model.features[a].pairBins, P1 = model.features[c].pairBins;
    const d0 = dirOf(a), d1 = dirOf(c);
    for (let c1 = 0; d0 && c1 < P1; c1++) {
      if (!follows(s, 1, P0, d0, (c0) => c0 * P1 + c1)) return false;
    }
    for (let c0 = 0; d1 && c0 < P0; c0++) {
      if (!follows(s, 1, P1, d1, (c1) => c0 * P1 + c1)) return false;
    }
  }
  return true;
}
