/**
 * The linear start of the boosted additive model: an L2-regularised linear
 * model (ridge for regression, logistic regression for binary targets) fitted
 * in bin space and written into the main terms' score tables before boosting
 * starts. A numeric feature enters through its bin's mean value (so its
 * linear contribution is a function of the bin, and the model stays a table
 * per term with exact explanations); a categorical feature through one
 * indicator per category. Where the data are small or close to linear, this
 * is what logistic regression and ridge do well; boosting then adds only
 * what the validation rows say the linear fit misses.
 *
 * @example
 * ```ts
 * import { linearStart } from "./linear.ts";
 *
 * // y = 2 * x over bins 1..4 whose mean values are 0..3 (bin 0, missing: the mean).
 * const bins = [Uint8Array.from({ length: 400 }, (_, i) => 1 + (i % 4))];
 * const means = [Float64Array.of(1.5, 0, 1, 2, 3)];
 * const y = Float64Array.from(bins[0], (b) => 2 * (b - 1));
 * const start = linearStart({ kinds: ["numeric"], nBins: [5], binMeans: means, bins, target: { kind: "squared", values: y, labels: new Int32Array(0) }, base: 3 });
 * const t = start!.tables[0];
 * // The slope, shrunk a little by the ridge penalty; the missing bin sits at the mean.
 * if (!(Math.abs(t[4] - t[1] - 6) < 0.02 && Math.abs(t[0]) < 1e-9)) throw new Error("example failed");
 * ```
 *
 * @module
 */

/** L2 penalty of the linear start, on standardised numeric columns and on indicators (as scikit-learn's Ridge and LogisticRegression defaults). */
export const LINEAR_ALPHA = 1;

/**
 * Most `rows * columns²` a linear start may cost (its normal equations); a
 * categorical feature's indicators are left out, largest first, until the
 * fit fits this budget.
 */
export const LINEAR_BUDGET = 40_000_000;

/** What {@link linearStart} fits. */
export interface LinearInput {
  /** Kind of every feature. */
  kinds: ReadonlyArray<"numeric" | "categorical">;
  /** Bins of every feature (bin 0 = missing). */
  nBins: ReadonlyArray<number>;
  /** Numeric features: the mean training value of every bin (bin 0: the overall mean); unused for categorical ones. */
  binMeans: ReadonlyArray<Float64Array>;
  /** Every feature's bin of every training row. */
  bins: ReadonlyArray<ArrayLike<number>>;
  /** `squared`: fit `values`; `logistic`: fit `labels` (0/1). */
  target: {
    kind: "squared" | "logistic";
    values: Float64Array;
    labels: Int32Array;
  };
  /** The model's intercept (the fit is of what lies beyond it). */
  base: number;
}

/** Starting score tables of the main terms (one per feature, one value per bin). */
export interface LinearStart {
  tables: Float64Array[];
}

/**
 * Fits the linear start; null when there is nothing to fit (no column fits
 * the budget, or the system is singular).
 */
export function linearStart(input: LinearInput): LinearStart | null {
  const { kinds, nBins, binMeans, bins, target, base } = input;
  const n = bins[0]?.length ?? 0;
  if (n < 2) return null;
  const F = kinds.length;
  // Standardised bin values of the numeric features.
  const z: (Float64Array | null)[] = kinds.map((kind, j) => {
    if (kind !== "numeric") return null;
    const m = binMeans[j], b = bins[j];
    let mean = 0;
    for (let i = 0; i < n; i++) mean += m[b[i]];
    mean /= n;
    let sq = 0;
    for (let i = 0; i < n; i++) sq += (m[b[i]] - mean) ** 2;
    const sd = Math.sqrt(sq / n);
    if (!(sd > 0)) return null;
    return Float64Array.from(m, (v) => (v - mean) / sd);
  });
  // Columns: intercept, numeric features, then category indicators.
  const numeric = z.flatMap((v, j) => (v ? [j] : []));
  let categorical = kinds.flatMap((k, j) => (k === "categorical" ? [j] : []));
  const width = (cats: number[]) =>
    1 + numeric.length + cats.reduce((a, j) => a + nBins[j], 0);
  categorical.sort((a, b) => nBins[a] - nBins[b] || a - b);
  while (
    categorical.length > 0 && n * width(categorical) ** 2 > LINEAR_BUDGET
  ) {
    categorical = categorical.slice(0, -1);
  }
  const P = width(categorical);
  if (P === 1 || n * P * P > LINEAR_BUDGET) return null;
  const offset = new Int32Array(F).fill(-1);
  let col = 1;
  for (const j of numeric) offset[j] = col++;
  for (const j of categorical) {
    offset[j] = col;
    col += nBins[j];
  }
  // Each row: the intercept, one value per numeric column, one active indicator per categorical feature.
  const rowCols = (i: number, cols: Int32Array, vals: Float64Array) => {
    cols[0] = 0;
    vals[0] = 1;
    let c = 1;
    for (const j of numeric) {
      cols[c] = offset[j];
      vals[c++] = z[j]![bins[j][i]];
    }
    for (const j of categorical) {
      cols[c] = offset[j] + bins[j][i];
      vals[c++] = 1;
    }
  };
  const nnz = 1 + numeric.length + categorical.length;
  const cols = new Int32Array(nnz), vals = new Float64Array(nnz);
  const beta = new Float64Array(P);
  const A = new Float64Array(P * P), rhs = new Float64Array(P);
  const iterations = target.kind === "squared" ? 1 : 25;
  for (let it = 0; it < iterations; it++) {
    A.fill(0);
    rhs.fill(0);
    let change = 0;
    for (let i = 0; i < n; i++) {
      rowCols(i, cols, vals);
      let w: number, r: number;
      if (target.kind === "squared") {
        w = 1;
        r = target.values[i] - base;
      } else {
        // Newton step of the logistic loss around beta: weights p(1-p), working response.
        let eta = base;
        for (let c = 0; c < nnz; c++) eta += beta[cols[c]] * vals[c];
        const p = 1 / (1 + Math.exp(-eta));
        w = Math.max(p * (1 - p), 1e-9);
        r = target.labels[i] - p;
      }
      for (let a = 0; a < nnz; a++) {
        const ca = cols[a], va = vals[a] * w;
        rhs[ca] += vals[a] * r;
        for (let b = 0; b < nnz; b++) A[ca * P + cols[b]] += va * vals[b];
      }
    }
    // Penalty on everything but the intercept; the logistic gradient carries it too.
    for (let c = 1; c < P; c++) {
      A[c * P + c] += LINEAR_ALPHA;
      if (target.kind === "logistic") rhs[c] -= LINEAR_ALPHA * beta[c];
    }
    A[0] += 1e-9;
    const step = solveSpd(A, rhs, P);
    if (!step) return null;
    for (let c = 0; c < P; c++) {
      beta[c] += step[c];
      change = Math.max(change, Math.abs(step[c]));
    }
    if (change < 1e-8) break;
  }
  const tables = kinds.map((_, j) => {
    const t = new Float64Array(nBins[j]);
    if (z[j]) {
      const zj = z[j]!, bj = beta[offset[j]];
      for (let q = 0; q < t.length; q++) t[q] = bj * zj[q];
    } else if (offset[j] >= 0) {
      for (let q = 0; q < t.length; q++) t[q] = beta[offset[j] + q];
    }
    return t;
  });
  // The intercept's share goes into the first table (every bin alike): the
  // model's terms are centred afterwards, which moves it to the intercept.
  if (tables.length > 0) {
    for (let q = 0; q < tables[0].length; q++) tables[0][q] += beta[0];
  }
  return { tables };
}

/**
 * Solves `A x = b` for a symmetric positive definite `A` (row-major, `P`x`P`)
 * by Cholesky; null when `A` is not positive definite.
 *
 * @example
 * ```ts
 * import { solveSpd } from "./linear.ts";
 *
 * const x = solveSpd(Float64Array.of(4, 2, 2, 3), Float64Array.of(2, 1), 2)!;
 * if (!(Math.abs(x[0] - 0.5) < 1e-12 && Math.abs(x[1]) < 1e-12)) throw new Error("example failed");
 * ```
 */
export function solveSpd(
  A: Float64Array,
  b: Float64Array,
  P: number,
): Float64Array | null {
  const L = new Float64Array(P * P);
  for (let i = 0; i < P; i++) {
    for (let j = 0; j <= i; j++) {
      let s = A[i * P + j];
      for (let k = 0; k < j; k++) s -= L[i * P + k] * L[j * P + k];
      if (i === j) {
        if (!(s > 0)) return null;
        L[i * P + i] = Math.sqrt(s);
      } else L[i * P + j] = s / L[j * P + j];
    }
  }
  const y = new Float64Array(P);
  for (let i = 0; i < P; i++) {
    let s = b[i];
    for (let k = 0; k < i; k++) s -= L[i * P + k] * y[k];
    y[i] = s / L[i * P + i];
  }
  const x = new Float64Array(P);
  for (let i = P - 1; i >= 0; i--) {
    let s = y[i];
    for (let k = i + 1; k < P; k++) s -= L[k * P + i] * x[k];
    x[i] = s / L[i * P + i];
  }
  return x;
}
