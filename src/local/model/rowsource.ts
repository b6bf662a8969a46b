/**
 * Rows for the trainer: gathering a column at given rows, and the seeded
 * sample of rows a boosting round works on.
 *
 * @module
 */

import type { Bins } from "./predictor.ts";

/**
 * Most training rows one boosting round works on. Larger training sets are
 * subsampled: every round draws a fresh seeded sample of about this many rows
 * (stochastic gradient boosting), so a round costs about the same at
 * 1,000,000 rows as at 100,000 while, over the rounds, every row is used.
 * 50,000 rows estimate a 64-bin histogram well (hundreds of rows a bin).
 */
export const ROWS_PER_ROUND = 50_000;

/** Gathers `col[rows[i]]` into a new array of the same kind. */
export function gather(col: Float64Array, rows: Uint32Array): Float64Array;
export function gather(col: Int32Array, rows: Uint32Array): Int32Array;
export function gather(col: Uint16Array, rows: Uint32Array): Uint16Array;
export function gather(col: Bins, rows: Uint32Array): Bins;
export function gather(
  col: Float64Array | Uint16Array,
  rows: Uint32Array,
): Float64Array | Uint16Array;
export function gather(
  col: Float64Array | Int32Array | Uint16Array | Uint8Array,
  rows: Uint32Array,
): Float64Array | Int32Array | Uint16Array | Uint8Array {
  const n = rows.length;
  const out = col instanceof Float64Array
    ? new Float64Array(n)
    : col instanceof Int32Array
    ? new Int32Array(n)
    : col instanceof Uint16Array
    ? new Uint16Array(n)
    : new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = col[rows[i]];
  return out;
}

/** Gathers K values per row. */
export function gatherK(
  s: Float64Array,
  rows: Uint32Array,
  K: number,
): Float64Array {
  const out = new Float64Array(rows.length * K);
  for (let i = 0; i < rows.length; i++) {
    for (let k = 0; k < K; k++) out[i * K + k] = s[rows[i] * K + k];
  }
  return out;
}

/**
 * Seeded Bernoulli sample of `0..n-1` at `rate`, in row order (at least two
 * rows); null when `rate >= 1` (every row).
 */
export function sampleRows(
  n: number,
  rate: number,
  rng: () => number,
  into?: Uint32Array,
): Uint32Array | null {
  if (rate >= 1) return null;
  const out = into ?? new Uint32Array(n);
  let m = 0;
  for (let i = 0; i < n; i++) if (rng() < rate) out[m++] = i;
  if (m < 2) {
    out[0] = 0;
    out[1] = n - 1;
    m = 2;
  }
  return into ? out.subarray(0, m) : out.slice(0, m);
}
