/**
 * The gradient histograms of a term's cells: per cell and score column, the
 * sums of the rows' gradients and hessians under the loss, and the row
 * count, which each boosting step fits its small tree on ({@link ./boost.ts}).
 * The fused {@link gradientHistogram} is the training's hottest loop: it
 * applies the previous term's update, computes the gradients and adds them
 * up in one pass over the rows, and keeps each row's exponentials between a
 * round's terms so the logistic and softmax losses need one `exp` a cell,
 * not one a row.
 *
 * @example
 * ```ts
 * import { gradientHistogram, newHistogram } from "./histogram.ts";
 *
 * // Logistic loss at score 0: probability 1/2, gradient p - y, hessian 1/4.
 * const hist = newHistogram(1, 1);
 * gradientHistogram("logistic", 1, new Float64Array(2), Int32Array.of(1, 0), new Float64Array(0), Uint8Array.of(0, 0), 2, hist, null, null);
 * if (!(hist.G[0] === 0 && hist.H[0] === 0.5 + 2e-16 && hist.C[0] === 2)) throw new Error("example failed");
 * ```
 *
 * @module
 */

import type { LossKind } from "./loss.ts";

/**
 * The fused step of a boosting round: for the first `n` rows, first adds the
 * previous term's pending update (`pendingCells`/`pendingUpdate`, K values per
 * cell; null = none) to the row's scores, then computes the row's gradient and
 * hessian under `loss` and adds them to `hist` (zeroed first) at the row's
 * cell. One pass over the rows instead of three (update, gradients,
 * histogram), and no gradient arrays. `counted`: the row counts `hist.C`
 * are already those of these rows and cells (the same rows every round), so
 * they are not counted again.
 *
 * `cache` (classification; null = none) keeps each row's exponentials
 * between the terms of a round: a call without a pending update fills it
 * from the scores (`exp(-s)` a row for the logistic loss, `exp(s_k - max)`
 * a row and class for the softmax), and a call with one multiplies it by the
 * `exp` of the update, computed once a cell, where the rows are many and the
 * cells few: one `Math.exp` a cell instead of one a row (a round's first
 * term refills it, so rounding does not build up beyond a round's terms; an
 * update with more cells than there are rows refills it too).
 * The caller keeps it in step: every call with a pending update must follow
 * one on the same rows and scores, with nothing else changing the scores.
 *
 * `at` (null = none): row `i` (its score, label, target and cache entry) is
 * row `at[i]` of `cells` and `pendingCells`, which then hold every training
 * row: a sampled round's rows, read in place.
 *
 * @example
 * ```ts
 * import { gradientHistogram, newHistogram } from "./histogram.ts";
 *
 * const hist = newHistogram(2, 1);
 * const s = Float64Array.of(0, 0, 0);
 * gradientHistogram("squared", 1, s, new Int32Array(0), Float64Array.of(1, 2, 3), Uint8Array.of(0, 1, 1), 3, hist, Uint8Array.of(0, 0, 0), Float64Array.of(1));
 * // Scores become 1; gradients s - y: 0 | -1, -2.
 * if (!(s[2] === 1 && hist.G[0] === 0 && hist.G[1] === -3 && hist.C[1] === 2)) throw new Error("example failed");
 *
 * // With a cache, a round of two terms: the first fills it, the second
 * // moves the scores by +1 and -1 and reads one exp a cell.
 * const cache = new Float64Array(2), sc = new Float64Array(2);
 * const y = Int32Array.of(1, 0), cells = Uint8Array.of(0, 1), none = new Float64Array(0);
 * gradientHistogram("logistic", 1, sc, y, none, cells, 2, newHistogram(2, 1), null, null, false, cache);
 * const second = newHistogram(2, 1);
 * gradientHistogram("logistic", 1, sc, y, none, cells, 2, second, cells, Float64Array.of(1, -1), false, cache);
 * const p = (x: number) => 1 / (1 + Math.exp(-x));
 * if (!(Math.abs(second.G[0] - (p(1) - 1)) < 1e-15 && Math.abs(second.G[1] - p(-1)) < 1e-15)) throw new Error("example failed");
 * ```
 */
export function gradientHistogram(
  loss: LossKind,
  K: number,
  s: Float64Array,
  y: Int32Array,
  v: Float64Array,
  cells: ArrayLike<number>,
  n: number,
  hist: Histogram,
  pendingCells: ArrayLike<number> | null,
  pendingUpdate: Float64Array | null,
  counted = false,
  cache: Float64Array | null = null,
  at: Uint32Array | null = null,
): void {
  const { G, H, C } = hist;
  G.fill(0), H.fill(0);
  if (!counted) C.fill(0);
  const pc = pendingCells, pu = pendingUpdate;
  if (at !== null && loss !== "softmax") {
    return gatheredHistogram(
      loss,
      s,
      y,
      v,
      cells,
      at,
      n,
      hist,
      !counted,
      pc,
      pu,
      cache,
    );
  }
  if (!counted) {
    if (at !== null) { for (let i = 0; i < n; i++) C[cells[at[i]]]++; }
    else for (let i = 0; i < n; i++) C[cells[i]]++;
  }
  if (loss === "logistic" && cache !== null) {
    // An update with more cells than there are rows: one exp a row is less.
    if (pc === null || pu!.length > n) {
      for (let i = 0; i < n; i++) {
        let si = s[i];
        if (pc !== null) s[i] = si += pu![pc[i]];
        const e = cache[i] = Math.exp(-si);
        const p = 1 / (1 + e);
        const q = cells[i];
        G[q] += p - y[i];
        H[q] += p * (1 - p) + 1e-16;
      }
      return;
    }
    const f = cellFactors(pu!, -1, 1);
    for (let i = 0; i < n; i++) {
      const c = pc[i];
      s[i] += pu![c];
      const e = cache[i] *= f[c];
      const p = 1 / (1 + e);
      const q = cells[i];
      G[q] += p - y[i];
      H[q] += p * (1 - p) + 1e-16;
    }
    return;
  }
  if (loss === "logistic") {
    for (let i = 0; i < n; i++) {
      let si = s[i];
      if (pc !== null) s[i] = si += pu![pc[i]];
      const p = 1 / (1 + Math.exp(-si));
      const q = cells[i];
      G[q] += p - y[i];
      H[q] += p * (1 - p) + 1e-16;
    }
    return;
  }
  if (loss === "squared") {
    for (let i = 0; i < n; i++) {
      let si = s[i];
      if (pc !== null) s[i] = si += pu![pc[i]];
      G[cells[i]] += si - v[i];
    }
    // A squared error's hessian is 1 a row: a cell's sum is its count (a
    // counted call's `C` is the caller's; see RowSplit.build for the split).
    H.set(C);
    return;
  }
  if (cache !== null) {
    return softmaxCached(K, s, y, cells, n, G, H, pc, pu, cache, at);
  }
  const e = new Float64Array(K);
  for (let i = 0; i < n; i++) {
    const o = i * K, r = at === null ? i : at[i];
    if (pc !== null) {
      const u = pc[r] * K;
      for (let k = 0; k < K; k++) s[o + k] += pu![u + k];
    }
    let m = -Infinity;
    for (let k = 0; k < K; k++) if (s[o + k] > m) m = s[o + k];
    let z = 0;
    for (let k = 0; k < K; k++) z += e[k] = Math.exp(s[o + k] - m);
    const q = cells[r], qo = q * K, inv = 1 / z;
    for (let k = 0; k < K; k++) {
      const p = e[k] * inv;
      G[qo + k] += p - (y[i] === k ? 1 : 0);
      H[qo + k] += p * (1 - p) + 1e-16;
    }
  }
}

/**
 * {@link gradientHistogram}'s logistic and squared losses when row `i` is
 * row `at[i]` of the term's cells (and of the pending term's): a sampled
 * round reads the cells of every training row where they are instead of
 * gathering its rows' cells first, a copy a term and a round. The same
 * sums in the same order; `count`: the row counts (zeroed) are added up in
 * the same pass.
 */
function gatheredHistogram(
  loss: "logistic" | "squared",
  s: Float64Array,
  y: Int32Array,
  v: Float64Array,
  cells: ArrayLike<number>,
  at: Uint32Array,
  n: number,
  { G, H, C }: Histogram,
  count: boolean,
  pc: ArrayLike<number> | null,
  pu: Float64Array | null,
  cache: Float64Array | null,
): void {
  const add = count ? 1 : 0;
  if (loss === "squared") {
    for (let i = 0; i < n; i++) {
      let si = s[i];
      if (pc !== null) s[i] = si += pu![pc[at[i]]];
      const q = cells[at[i]];
      G[q] += si - v[i];
      C[q] += add;
    }
    H.set(C);
    return;
  }
  if (cache === null || pc === null || pu!.length > n) {
    for (let i = 0; i < n; i++) {
      let si = s[i];
      if (pc !== null) s[i] = si += pu![pc[at[i]]];
      const e = Math.exp(-si);
      if (cache !== null) cache[i] = e;
      const p = 1 / (1 + e);
      const q = cells[at[i]];
      G[q] += p - y[i];
      H[q] += p * (1 - p) + 1e-16;
      C[q] += add;
    }
    return;
  }
  const f = cellFactors(pu!, -1, 1);
  for (let i = 0; i < n; i++) {
    const r = at[i], c = pc[r];
    s[i] += pu![c];
    const e = cache[i] *= f[c];
    const p = 1 / (1 + e);
    const q = cells[r];
    G[q] += p - y[i];
    H[q] += p * (1 - p) + 1e-16;
    C[q] += add;
  }
}

/** Scratch for {@link cellFactors}, grown as needed (one per thread). */
let factors = new Float64Array(256);

/**
 * `exp(sign * update[c])` for every value `c` of an update (K a cell), in a
 * scratch array. A step's values repeat (a tree's leaves span many cells),
 * and `Math.exp` of the same value is the same: a value equal to the same
 * column's in the cell before takes that cell's factor.
 */
function cellFactors(
  update: Float64Array,
  sign: 1 | -1,
  K: number,
): Float64Array {
  if (factors.length < update.length) factors = new Float64Array(update.length);
  const f = factors;
  const n = Math.min(K, update.length);
  for (let c = 0; c < n; c++) f[c] = Math.exp(sign * update[c]);
  for (let c = n; c < update.length; c++) {
    const x = update[c];
    f[c] = x === update[c - K] ? f[c - K] : Math.exp(sign * x);
  }
  return f;
}

/**
 * The softmax branch of {@link gradientHistogram} with a row cache: two
 * rows at a time (two independent chains of a row's sum of exponentials,
 * which the one-row loop waits on class by class), then the odd last row
 * alone. Every cell's sums take the same doubles in the same order (the
 * first row's, then the second's, even in one cell), so the histograms are
 * the one-row loop's ({@link softmaxRowByRow}) bit for bit.
 */
function softmaxCached(
  K: number,
  s: Float64Array,
  y: Int32Array,
  cells: ArrayLike<number>,
  n: number,
  G: Float64Array,
  H: Float64Array,
  pc: ArrayLike<number> | null,
  pu: Float64Array | null,
  cache: Float64Array,
  at: Uint32Array | null,
): void {
  // An update with more cells than there are rows: one exp a row is less.
  const f = pc === null || pu!.length > n * K ? null : cellFactors(pu!, 1, K);
  let i = 0;
  for (; i + 1 < n; i += 2) {
    const o0 = i * K, o1 = o0 + K;
    const r0 = at === null ? i : at[i], r1 = at === null ? i + 1 : at[i + 1];
    let z0 = 0, z1 = 0;
    if (f !== null) {
      const u0 = pc![r0] * K, u1 = pc![r1] * K;
      for (let k = 0; k < K; k++) {
        s[o0 + k] += pu![u0 + k];
        s[o1 + k] += pu![u1 + k];
        z0 += cache[o0 + k] *= f[u0 + k];
        z1 += cache[o1 + k] *= f[u1 + k];
      }
    } else if (pc !== null) {
      const u0 = pc[r0] * K, u1 = pc[r1] * K;
      for (let k = 0; k < K; k++) {
        s[o0 + k] += pu![u0 + k];
        s[o1 + k] += pu![u1 + k];
      }
    }
    // Filled from the scores as in the one-row loop.
    if (f === null || !(z0 > 0 && z0 < Infinity)) z0 = refill(K, s, cache, o0);
    if (f === null || !(z1 > 0 && z1 < Infinity)) z1 = refill(K, s, cache, o1);
    const q0 = cells[r0] * K, q1 = cells[r1] * K, y0 = y[i], y1 = y[i + 1];
    const inv0 = 1 / z0, inv1 = 1 / z1;
    // Per cell, the first row's sum before the second's (the same cell
    // too): a row's own class adds p - 1, the others p (p - 0 is p).
    for (let k = 0; k < K; k++) {
      const p0 = cache[o0 + k] * inv0, p1 = cache[o1 + k] * inv1;
      G[q0 + k] += k === y0 ? p0 - 1 : p0;
      H[q0 + k] += p0 * (1 - p0) + 1e-16;
      G[q1 + k] += k === y1 ? p1 - 1 : p1;
      H[q1 + k] += p1 * (1 - p1) + 1e-16;
    }
  }
  if (i < n) softmaxRowByRow(K, s, y, cells, i, n, G, H, pc, pu, cache, at, f);
}

/** A row's exponentials from its scores (less their max) into `cache`: their sum. */
function refill(K: number, s: Float64Array, cache: Float64Array, o: number) {
  let m = -Infinity, z = 0;
  for (let k = 0; k < K; k++) if (s[o + k] > m) m = s[o + k];
  for (let k = 0; k < K; k++) z += cache[o + k] = Math.exp(s[o + k] - m);
  return z;
}

/**
 * {@link gradientHistogram}'s softmax with a row cache, one row at a time,
 * for rows `from` to `n` (the histogram not zeroed): what the two-row loop
 * is held to (tests/model_histogram_test.ts), and its odd last row. `f`:
 * the update's factors (see `cellFactors`), or null to fill the rows'
 * exponentials from their scores.
 *
 * @example
 * ```ts
 * import { gradientHistogram, newHistogram, softmaxRowByRow } from "./histogram.ts";
 *
 * // Two classes at scores (0, 0): p = 1/2 each; row 0 is of class 1.
 * const hist = newHistogram(1, 2), s = new Float64Array(2), cache = new Float64Array(2);
 * softmaxRowByRow(2, s, Int32Array.of(1), Uint8Array.of(0), 0, 1, hist.G, hist.H, null, null, cache, null, null);
 * if (!(hist.G[0] === 0.5 && hist.G[1] === -0.5 && cache[0] === 1)) throw new Error("example failed");
 * const two = newHistogram(1, 2);
 * gradientHistogram("softmax", 2, new Float64Array(2), Int32Array.of(1), new Float64Array(0), Uint8Array.of(0), 1, two, null, null, false, new Float64Array(2));
 * if (!(two.G[0] === hist.G[0] && two.H[1] === hist.H[1])) throw new Error("example failed");
 * ```
 */
export function softmaxRowByRow(
  K: number,
  s: Float64Array,
  y: Int32Array,
  cells: ArrayLike<number>,
  from: number,
  n: number,
  G: Float64Array,
  H: Float64Array,
  pc: ArrayLike<number> | null,
  pu: Float64Array | null,
  cache: Float64Array,
  at: Uint32Array | null,
  f: Float64Array | null,
): void {
  for (let i = from; i < n; i++) {
    const o = i * K, r = at === null ? i : at[i];
    let z = 0;
    if (f !== null) {
      const u = pc![r] * K;
      for (let k = 0; k < K; k++) {
        s[o + k] += pu![u + k];
        z += cache[o + k] *= f[u + k];
      }
    } else if (pc !== null) {
      const u = pc[r] * K;
      for (let k = 0; k < K; k++) s[o + k] += pu![u + k];
    }
    // Filled here from the scores: a round's first term, an update with
    // more cells than rows, or a row whose exponentials left the range of
    // a double by a huge step (the sum 0 or infinite).
    if (f === null || !(z > 0 && z < Infinity)) z = refill(K, s, cache, o);
    // One division a row, not one a class (rowGradients does the same);
    // the row's own class (gradient p - 1) apart, so no test a class.
    const qo = cells[r] * K, yi = y[i], inv = 1 / z;
    for (let k = 0; k < yi; k++) {
      const p = cache[o + k] * inv;
      G[qo + k] += p;
      H[qo + k] += p * (1 - p) + 1e-16;
    }
    const py = cache[o + yi] * inv;
    G[qo + yi] += py - 1;
    H[qo + yi] += py * (1 - py) + 1e-16;
    for (let k = yi + 1; k < K; k++) {
      const p = cache[o + k] * inv;
      G[qo + k] += p;
      H[qo + k] += p * (1 - p) + 1e-16;
    }
  }
}

/**
 * Each row's gradients and hessians (K a row) at the scores whose
 * exponentials `cache` holds, as {@link gradientHistogram} left it after a
 * call without a pending update (the scores unchanged since): the values
 * that call added up, computed the same way, so {@link scatterHistogram} of
 * them builds, bit for bit, the histogram gradientHistogram would build at
 * those scores for any term, without an `exp` or a division a row. For a
 * greedy round's ranking, which builds every term's histogram at the same
 * scores. Logistic and softmax losses.
 *
 * @example
 * ```ts
 * import { gradientHistogram, newHistogram, rowGradients, scatterHistogram } from "./histogram.ts";
 *
 * const s = Float64Array.of(0.5, -1, 2), y = Int32Array.of(1, 0, 1), cache = new Float64Array(3);
 * const direct = newHistogram(2, 1), other = Uint8Array.of(1, 0, 1);
 * gradientHistogram("logistic", 1, s, y, new Float64Array(0), Uint8Array.of(0, 0, 1), 3, newHistogram(2, 1), null, null, false, cache);
 * gradientHistogram("logistic", 1, s, y, new Float64Array(0), other, 3, direct, null, null, false, cache);
 * const g = new Float64Array(3), h = new Float64Array(3), scattered = newHistogram(2, 1);
 * rowGradients("logistic", 1, y, 3, cache, g, h);
 * scatterHistogram(1, other, 3, g, h, scattered, false);
 * if (!(scattered.G.every((v, i) => v === direct.G[i]) && scattered.H.every((v, i) => v === direct.H[i]))) throw new Error("example failed");
 * ```
 */
export function rowGradients(
  loss: "logistic" | "softmax",
  K: number,
  y: Int32Array,
  n: number,
  cache: Float64Array,
  g: Float64Array,
  h: Float64Array,
): void {
  if (loss === "logistic") {
    for (let i = 0; i < n; i++) {
      const p = 1 / (1 + cache[i]);
      g[i] = p - y[i];
      h[i] = p * (1 - p) + 1e-16;
    }
    return;
  }
  for (let i = 0; i < n; i++) {
    const o = i * K, yi = y[i];
    let z = 0;
    for (let k = 0; k < K; k++) z += cache[o + k];
    const inv = 1 / z;
    for (let k = 0; k < K; k++) {
      const p = cache[o + k] * inv;
      g[o + k] = p - (yi === k ? 1 : 0);
      h[o + k] = p * (1 - p) + 1e-16;
    }
  }
}

/**
 * A term's histogram (zeroed first) of the rows' gradients `g` and
 * hessians `h` (K a row, see {@link rowGradients}), row `i` to cell
 * `cells[i]` (`cells[at[i]]` given `at`), in row order; `counted` and `at`
 * as {@link gradientHistogram}'s.
 */
export function scatterHistogram(
  K: number,
  cells: ArrayLike<number>,
  n: number,
  g: Float64Array,
  h: Float64Array,
  hist: Histogram,
  counted: boolean,
  at: Uint32Array | null = null,
): void {
  const { G, H, C } = hist;
  G.fill(0), H.fill(0);
  if (!counted) {
    C.fill(0);
    for (let i = 0; i < n; i++) C[cells[at === null ? i : at[i]]]++;
  }
  if (K === 1 && at !== null) {
    for (let i = 0; i < n; i++) {
      const q = cells[at[i]];
      G[q] += g[i];
      H[q] += h[i];
    }
    return;
  }
  if (K === 1) {
    for (let i = 0; i < n; i++) {
      const q = cells[i];
      G[q] += g[i];
      H[q] += h[i];
    }
    return;
  }
  for (let i = 0; i < n; i++) {
    const qo = cells[at === null ? i : at[i]] * K, o = i * K;
    for (let k = 0; k < K; k++) {
      G[qo + k] += g[o + k];
      H[qo + k] += h[o + k];
    }
  }
}

/**
 * Gradient histogram of a term: per cell (a main term's bin or a pair term's
 * cell) and score column `k`, the sums `G[cell * K + k]` of gradients and
 * `H[cell * K + k]` of hessians, and the row count `C[cell]`.
 */
export interface Histogram {
  G: Float64Array;
  H: Float64Array;
  C: Float64Array;
}

/**
 * An all-zero {@link Histogram} of `cells` cells and `K` score columns, its
 * arrays made by `take` (default: new ones; see arena.ts).
 *
 * @example
 * ```ts
 * import { newHistogram } from "./histogram.ts";
 *
 * const h = newHistogram(4, 3);
 * if (!(h.G.length === 12 && h.C.length === 4)) throw new Error("example failed");
 * ```
 */
export function newHistogram(
  cells: number,
  K: number,
  take: (n: number) => Float64Array = (n) => new Float64Array(n),
): Histogram {
  return { G: take(cells * K), H: take(cells * K), C: take(cells) };
}

/**
 * Fills `hist` (zeroed first) from the rows' gradients and hessians, row `i`
 * going to cell `cells[i]`; rows with `inSample[i] === 0` are skipped (null =
 * every row).
 *
 * @example
 * ```ts
 * import { accumulate, newHistogram } from "./histogram.ts";
 *
 * const h = newHistogram(2, 1);
 * accumulate(h, Uint8Array.of(1, 1, 0), Float64Array.of(1, 2, 4), Float64Array.of(1, 1, 1), 1, null);
 * if (!(h.G[1] === 3 && h.C[0] === 1)) throw new Error("example failed");
 * ```
 */
export function accumulate(
  hist: Histogram,
  cells: ArrayLike<number>,
  g: Float64Array,
  h: Float64Array,
  K: number,
  inSample: Uint8Array | null,
): void {
  const { G, H, C } = hist;
  G.fill(0), H.fill(0), C.fill(0);
  for (let i = 0; i < cells.length; i++) {
    if (inSample && !inSample[i]) continue;
    const q = cells[i];
    C[q]++;
    for (let k = 0; k < K; k++) {
      G[q * K + k] += g[i * K + k];
      H[q * K + k] += h[i * K + k];
    }
  }
}
