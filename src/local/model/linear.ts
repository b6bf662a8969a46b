/**
 * The linear start of the boosted additive model: an L2-regularised linear
 * model (ridge for regression, logistic regression for binary targets,
 * multinomial logistic regression for 3+ classes) fitted in bin space and written into the main terms' score tables before boosting
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
  /**
   * `squared`: fit `values`; `logistic`: fit `labels` (0/1); `softmax`: fit
   * `labels` (0..K-1) with one score per class (`K` of them).
   */
  target: {
    kind: "squared" | "logistic" | "softmax";
    values: Float64Array;
    labels: Int32Array;
    K?: number;
  };
  /** The model's intercept (the fit is of what lies beyond it); per class for `softmax`. */
  base: number | readonly number[];
}

/**
 * Most sweeps over the classes of a `softmax` linear start (each one a
 * majorize-minimize step per class, stretched by a line search; they stop
 * earlier once no coefficient moves by 1e-5, or once they used
 * {@link SOFTMAX_WORK}: it is a start, boosting goes on from it).
 */
export const SOFTMAX_SWEEPS = 100;

/**
 * Most `rows * columns * classes * sweeps` a `softmax` linear start spends
 * (it still makes 10 sweeps at least): on a table as large as digits'
 * (1,400 rows, 65 columns, 10 classes) about 30 sweeps, which take it most
 * of the way; the rest is boosting's.
 */
export const SOFTMAX_WORK = 30_000_000;

/**
 * Starting score tables of the main terms (one per feature, one value per
 * bin; `softmax`: K per bin, class fastest, as the model's tables).
 */
export interface LinearStart {
  tables: Float64Array[];
}

/**
 * Fits the linear start; null when there is nothing to fit (no column fits
 * the budget, or the system is singular).
 */
export function linearStart(input: LinearInput): LinearStart | null {
  const { kinds, nBins, binMeans, bins, target } = input;
  const base = typeof input.base === "number" ? input.base : input.base[0];
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
    // A loop: `Float64Array.from` with a mapping function costs far more.
    const out = new Float64Array(m.length);
    for (let q = 0; q < m.length; q++) out[q] = (m[q] - mean) / sd;
    return out;
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
  // A row's active indicator columns.
  const cols = new Int32Array(Math.max(1, categorical.length));
  if (target.kind === "softmax") {
    const K = target.K ?? 2;
    const intercepts = typeof input.base === "number"
      ? new Array(K).fill(input.base)
      : input.base;
    const betas = softmaxFit(n, P, nnz, rowCols, target.labels, K, intercepts);
    if (!betas) return null;
    const tables = kinds.map((_, j) => {
      const t = new Float64Array(nBins[j] * K);
      for (let k = 0; k < K; k++) {
        const beta = betas[k];
        for (let q = 0; q < nBins[j]; q++) {
          t[q * K + k] = z[j]
            ? beta[offset[j]] * z[j]![q]
            : offset[j] >= 0
            ? beta[offset[j] + q]
            : 0;
        }
      }
      return t;
    });
    if (tables.length > 0) {
      for (let q = 0; q < nBins[0]; q++) {
        for (let k = 0; k < K; k++) tables[0][q * K + k] += betas[k][0];
      }
    }
    return { tables };
  }
  const beta = new Float64Array(P);
  const A = new Float64Array(P * P), rhs = new Float64Array(P);
  const iterations = target.kind === "squared" ? 1 : 25;
  // The intercept and numeric columns (the first `D`, one per column in
  // every row), column by column, and each times the row weights: their
  // block of `A` is dot products, each summing its rows in row order as the
  // row by row sums do. Only `A`'s lower triangle is summed: the Cholesky
  // factor reads no other.
  const D = 1 + numeric.length;
  const X = new Float64Array(D * n), XW = new Float64Array(D * n);
  X.fill(1, 0, n);
  numeric.forEach((j, a) => {
    const zj = z[j]!, bj = bins[j], o = (a + 1) * n;
    for (let i = 0; i < n; i++) X[o + i] = zj[bj[i]];
  });
  // Every row's score, weight and working response; each column's sums in
  // row order, each row's score summed over its columns in column order,
  // as a row by row pass sums them.
  const eta = new Float64Array(n), w = new Float64Array(n);
  const r = new Float64Array(n);
  const cats = categorical.length;
  for (let it = 0; it < iterations; it++) {
    A.fill(0);
    rhs.fill(0);
    let change = 0;
    if (target.kind === "squared") {
      for (let i = 0; i < n; i++) w[i] = 1, r[i] = target.values[i] - base;
    } else {
      // Newton step of the logistic loss around beta: weights p(1-p), working response.
      eta.fill(base);
      for (let c = 0; c < D; c++) {
        const bc = beta[c], o = c * n;
        for (let i = 0; i < n; i++) eta[i] += bc * X[o + i];
      }
      for (const j of categorical) {
        const o = offset[j], bj = bins[j];
        for (let i = 0; i < n; i++) eta[i] += beta[o + bj[i]];
      }
      for (let i = 0; i < n; i++) {
        const p = 1 / (1 + Math.exp(-eta[i]));
        w[i] = Math.max(p * (1 - p), 1e-9);
        r[i] = target.labels[i] - p;
      }
    }
    for (let a = 0; a < D; a++) {
      const o = a * n;
      let s = 0;
      for (let i = 0; i < n; i++) s += X[o + i] * r[i];
      rhs[a] = s;
    }
    for (const j of categorical) {
      const o = offset[j], bj = bins[j];
      for (let i = 0; i < n; i++) rhs[o + bj[i]] += r[i];
    }
    // The indicators' rows of A, row by row (an indicator's value is 1).
    for (let i = 0; cats > 0 && i < n; i++) {
      for (let t = 0; t < cats; t++) {
        cols[t] = offset[categorical[t]] + bins[categorical[t]][i];
      }
      const va = w[i];
      for (let t = 0; t < cats; t++) {
        const ca = cols[t] * P;
        for (let b = 0; b < D; b++) A[ca + b] += va * X[b * n + i];
        for (let u = 0; u <= t; u++) A[ca + cols[u]] += va * 1;
      }
    }
    for (let a = 0; a < D; a++) {
      const o = a * n;
      for (let i = 0; i < n; i++) XW[o + i] = X[o + i] * w[i];
    }
    lowerGram(XW, X, n, D, A, P);
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
 * A bag's linear start from `kept` (the training's, by key; null: none
 * kept) or, the first time, `fit`, then kept. A start depends on the bag's
 * training rows, bins and target only: the search's fits on the same bins
 * (judged or not, the linear fit alone) share it, bit for bit.
 *
 * @example
 * ```ts
 * import { keptStart } from "./linear.ts";
 *
 * const kept = new Map<string, Float64Array[] | null>();
 * let fits = 0;
 * const fit = () => (fits++, [Float64Array.of(1)]);
 * const a = keptStart(kept, "bag 1", fit), b = keptStart(kept, "bag 1", fit);
 * if (!(a === b && fits === 1)) throw new Error("example failed");
 * // Nothing kept: fitted every time.
 * if (keptStart(null, "bag 1", fit) === a) throw new Error("example failed");
 * ```
 */
export function keptStart(
  kept: Map<string, Float64Array[] | null> | null,
  key: string,
  fit: () => Float64Array[] | null,
): Float64Array[] | null {
  if (!kept) return fit();
  let tables = kept.get(key);
  if (tables === undefined) kept.set(key, tables = fit());
  return tables;
}

/**
 * Multinomial logistic regression (L2 {@link LINEAR_ALPHA} on all but the
 * intercepts) by block coordinate descent over the classes: each class's
 * coefficients take a majorize-minimize step, with its Hessian bounded by
 * `X'X / 4` (a class's own logistic curvature p(1-p) is at most 1/4 with the
 * others held), so one Cholesky factor serves every class and sweep. The
 * bound's step lowers the loss; where the true curvature is far below the
 * bound (classes nearly apart), a Newton step along its direction goes
 * further, kept only when it lowers the loss more. Null when the system is
 * singular.
 */
function softmaxFit(
  n: number,
  P: number,
  nnz: number,
  rowCols: (i: number, cols: Int32Array, vals: Float64Array) => void,
  labels: Int32Array,
  K: number,
  base: readonly number[],
): Float64Array[] | null {
  const cols = new Int32Array(nnz), vals = new Float64Array(nnz);
  // The design, kept row by row (nnz entries a row), and the bound X'X / 4.
  const rc = new Int32Array(n * nnz), rv = new Float64Array(n * nnz);
  const A = new Float64Array(P * P);
  for (let i = 0; i < n; i++) {
    rowCols(i, cols, vals);
    rc.set(cols, i * nnz);
    rv.set(vals, i * nnz);
    for (let a = 0; a < nnz; a++) {
      // The lower triangle (columns ascend along a row), all Cholesky reads.
      const ca = cols[a] * P, va = vals[a] / 4;
      for (let b = 0; b <= a; b++) A[ca + cols[b]] += va * vals[b];
    }
  }
  for (let c = 1; c < P; c++) A[c * P + c] += LINEAR_ALPHA;
  A[0] += 1e-9;
  const L = cholesky(A, P);
  if (!L) return null;
  const eta = new Float64Array(n * K);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < K; k++) eta[i * K + k] = base[k];
  }
  const betas = Array.from({ length: K }, () => new Float64Array(P));
  const g = new Float64Array(P), dz = new Float64Array(n);
  // Each row's exponentials of its scores against its largest score at the
  // sweep's start (`E`, `M`): a class's step moves one score a row, so its
  // probability, curvature and line search need one `exp` a row, not K.
  const E = new Float64Array(n * K), M = new Float64Array(n);
  // The class's probability at each row, the sum of the other classes', and
  // the sum of all (`S`, kept as the classes move: a row's other classes
  // are its sum less its own, one subtraction instead of K - 1 additions).
  const pk = new Float64Array(n), rest = new Float64Array(n);
  const S = new Float64Array(n);
  const sweeps = Math.min(
    SOFTMAX_SWEEPS,
    Math.max(10, Math.floor(SOFTMAX_WORK / (n * nnz * K))),
  );
  for (let sweep = 0; sweep < sweeps; sweep++) {
    let change = 0;
    for (let i = 0; i < n; i++) {
      const o = i * K;
      let max = -Infinity;
      for (let c = 0; c < K; c++) max = Math.max(max, eta[o + c]);
      M[i] = max;
      let sum = 0;
      for (let c = 0; c < K; c++) sum += E[o + c] = Math.exp(eta[o + c] - max);
      S[i] = sum;
    }
    for (let k = 0; k < K; k++) {
      g.fill(0);
      for (let i = 0; i < n; i++) {
        const o = i * K;
        const others = rest[i] = S[i] - E[o + k];
        const p = pk[i] = E[o + k] / (others + E[o + k]);
        const r = (labels[i] === k ? 1 : 0) - p;
        const off = i * nnz;
        for (let a = 0; a < nnz; a++) g[rc[off + a]] += rv[off + a] * r;
      }
      const beta = betas[k];
      for (let c = 1; c < P; c++) g[c] -= LINEAR_ALPHA * beta[c];
      const step = cholSolve(L, g, P);
      // The step's change of every row's score, and the loss's slope and
      // true curvature along it.
      let slope = 0, curve = 0;
      for (let c = 0; c < P; c++) slope += g[c] * step[c];
      for (let c = 1; c < P; c++) curve += LINEAR_ALPHA * step[c] ** 2;
      for (let i = 0; i < n; i++) {
        const off = i * nnz;
        let d = 0;
        for (let a = 0; a < nnz; a++) d += step[rc[off + a]] * rv[off + a];
        dz[i] = d;
        const p = pk[i];
        curve += p * (1 - p) * d * d;
      }
      let t = 1;
      const newton = curve > 0 ? slope / curve : 1;
      const along = { eta, E, M, rest, dz, labels, n, K, k, beta, step };
      if (newton > 1) {
        const stretched = Math.min(newton, 20);
        if (lossAlong(along, stretched) < lossAlong(along, 1)) t = stretched;
      }
      for (let c = 0; c < P; c++) {
        beta[c] += t * step[c];
        change = Math.max(change, Math.abs(t * step[c]));
      }
      for (let i = 0; i < n; i++) {
        const o = i * K;
        eta[o + k] += t * dz[i];
        const e = Math.exp(eta[o + k] - M[i]);
        S[i] = rest[i] + e;
        E[o + k] = e;
      }
    }
    if (change < 1e-5) break;
  }
  return betas;
}

/**
 * The penalised multinomial loss with class `k`'s scores moved by `t dz`
 * (its coefficients by `t step`), from the rows' exponentials `E` against
 * `M` and the sum `rest` of the other classes' (one `exp` a row).
 */
function lossAlong(
  o: {
    eta: Float64Array;
    E: Float64Array;
    M: Float64Array;
    rest: Float64Array;
    dz: Float64Array;
    labels: Int32Array;
    n: number;
    K: number;
    k: number;
    beta: Float64Array;
    step: Float64Array;
  },
  t: number,
): number {
  const { eta, E, M, rest, dz, labels, n, K, k, beta, step } = o;
  let loss = 0;
  for (let i = 0; i < n; i++) {
    const moved = t * dz[i];
    const sum = rest[i] + E[i * K + k] * Math.exp(moved);
    const y = labels[i];
    loss += Math.log(sum) + M[i] - eta[i * K + y] - (y === k ? moved : 0);
  }
  for (let c = 1; c < beta.length; c++) {
    loss += (LINEAR_ALPHA / 2) * (beta[c] + t * step[c]) ** 2;
  }
  return loss;
}

/**
 * `A[a][b]` (row-major, `P` wide) for `b <= a < D`: the sum over rows
 * `i < n`, in row order from 0, of `XW[a][i] * X[b][i]` (both column by
 * column, `n` a column). Four cells of a row at a time, each sum still
 * its own.
 */
function lowerGram(
  XW: Float64Array,
  X: Float64Array,
  n: number,
  D: number,
  A: Float64Array,
  P: number,
): void {
  for (let a = 0; a < D; a++) {
    const oa = a * n, row = a * P;
    let b = 0;
    for (; b + 3 <= a; b += 4) {
      const o0 = b * n, o1 = o0 + n, o2 = o1 + n, o3 = o2 + n;
      let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
      for (let i = 0; i < n; i++) {
        const v = XW[oa + i];
        s0 += v * X[o0 + i];
        s1 += v * X[o1 + i];
        s2 += v * X[o2 + i];
        s3 += v * X[o3 + i];
      }
      A[row + b] = s0;
      A[row + b + 1] = s1;
      A[row + b + 2] = s2;
      A[row + b + 3] = s3;
    }
    for (; b <= a; b++) {
      const ob = b * n;
      let s = 0;
      for (let i = 0; i < n; i++) s += XW[oa + i] * X[ob + i];
      A[row + b] = s;
    }
  }
}

/**
 * The Cholesky factor of a symmetric positive definite `A` (null when it is
 * not); reads `A`'s lower triangle only. A row's cells four at a time:
 * their sums over the columns before the four share the row's loads, then
 * each goes on alone, every sum still in column order.
 */
function cholesky(A: Float64Array, P: number): Float64Array | null {
  const L = new Float64Array(P * P);
  for (let i = 0; i < P; i++) {
    const ri = i * P;
    let j = 0;
    for (; j + 4 <= i; j += 4) {
      const r0 = j * P, r1 = r0 + P, r2 = r1 + P, r3 = r2 + P;
      let s0 = A[ri + j], s1 = A[ri + j + 1];
      let s2 = A[ri + j + 2], s3 = A[ri + j + 3];
      for (let k = 0; k < j; k++) {
        const l = L[ri + k];
        s0 -= l * L[r0 + k];
        s1 -= l * L[r1 + k];
        s2 -= l * L[r2 + k];
        s3 -= l * L[r3 + k];
      }
      const l0 = L[ri + j] = s0 / L[r0 + j];
      s1 -= l0 * L[r1 + j];
      const l1 = L[ri + j + 1] = s1 / L[r1 + j + 1];
      s2 -= l0 * L[r2 + j];
      s2 -= l1 * L[r2 + j + 1];
      const l2 = L[ri + j + 2] = s2 / L[r2 + j + 2];
      s3 -= l0 * L[r3 + j];
      s3 -= l1 * L[r3 + j + 1];
      s3 -= l2 * L[r3 + j + 2];
      L[ri + j + 3] = s3 / L[r3 + j + 3];
    }
    for (; j <= i; j++) {
      let s = A[ri + j];
      for (let k = 0; k < j; k++) s -= L[ri + k] * L[j * P + k];
      if (i === j) {
        if (!(s > 0)) return null;
        L[ri + i] = Math.sqrt(s);
      } else L[ri + j] = s / L[j * P + j];
    }
  }
  return L;
}

/** Solves `L L' x = b` for a Cholesky factor `L`. */
function cholSolve(L: Float64Array, b: Float64Array, P: number): Float64Array {
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
  const L = cholesky(A, P);
  return L ? cholSolve(L, b, P) : null;
}
