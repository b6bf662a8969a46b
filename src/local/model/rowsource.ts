/**
 * Rows for the trainer: gathering a column at given rows, the seeded sample
 * of rows a boosting round works on, and {@link RowSource}, the one
 * interface behind which a stage's rounds take their rows (all, sampled,
 * split with a helper thread).
 *
 * @module
 */

import {
  gradientHistogram,
  type Histogram,
  rowGradients,
  scatterHistogram,
} from "./histogram.ts";
import type { LossKind } from "./loss.ts";
import { addScores, type Bins } from "./predictor.ts";
import {
  ROW_SPLIT_ROWS,
  type RowHelper,
  rowSetup,
  RowSplit,
  scoreRows,
} from "./rows.ts";

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

/**
 * The rows of one boosting round: their count, every term's cells, their
 * labels, target values and current scores (`s`, kept up to date by the
 * stage as it boosts). Row `i` is row `at[i]` of the cells, which hold every
 * training row (a sampled round: its rows are read in place, not gathered),
 * or row `i` of them when `at` is null.
 */
export interface RoundRows {
  m: number;
  cells: ArrayLike<number>[];
  at: Uint32Array | null;
  y: Int32Array;
  v: Float64Array;
  s: Float64Array;
}

/**
 * Adds term `j`'s update (K values a cell) to the round's scores, as
 * `addScores` does at the round's own cells.
 *
 * @example
 * ```ts
 * import { addRoundScores } from "./rowsource.ts";
 * const s = new Float64Array(2);
 * addRoundScores({ m: 2, cells: [Uint8Array.of(0, 1, 1)], at: Uint32Array.of(0, 2), y: new Int32Array(2), v: new Float64Array(0), s }, 0, Float64Array.of(1, 5), 1);
 * if (s.join() !== "1,5") throw new Error("example failed");
 * ```
 */
export function addRoundScores(
  r: RoundRows,
  j: number,
  update: Float64Array,
  K: number,
): void {
  const { at, s, m } = r;
  const cells = r.cells[j];
  if (at === null) return addScores(s.subarray(0, m * K), cells, update, K);
  addScoresAt(s, cells, at, m, update, K);
}

/** Adds `table[cells[at[i]]]` (K values a cell) to the scores of rows `i < m`. */
function addScoresAt(
  s: Float64Array,
  cells: ArrayLike<number>,
  at: Uint32Array,
  m: number,
  table: ArrayLike<number>,
  K: number,
): void {
  if (K === 1) {
    for (let i = 0; i < m; i++) s[i] += table[cells[at[i]]];
    return;
  }
  for (let i = 0; i < m; i++) {
    const o = cells[at[i]] * K;
    for (let k = 0; k < K; k++) s[i * K + k] += table[o + k];
  }
}

/**
 * Where a boosting stage's rounds take their rows, and how each term's
 * gradient histogram is built over them: every training row (no sampling:
 * their scores are kept up to date across rounds), a fresh seeded sample
 * each round, or either of those with a helper thread building half of
 * every histogram on a large fit (see ./rows.ts). One interface, so the
 * boosting loop does not care which.
 */
export interface RowSource {
  /** Every training row every round (the histograms' counts stay right after round 0). */
  readonly all: boolean;
  /** The next round's rows, scored with the terms' current `tables`. */
  next(tables: Float64Array[]): RoundRows;
  /**
   * Builds term `j`'s histogram over the round's rows, after adding the
   * pending term's update (`update`, null for none) to their scores. A
   * round's first histogram has none (it fills the rows' cache of
   * exponentials, see histogram.ts); one that has is refused.
   */
  histogram(
    rows: RoundRows,
    j: number,
    pending: number,
    update: Float64Array | null,
    counted: boolean,
    hist: Histogram,
  ): void;
  /** Releases the helper's share (when there is one). */
  close(): void;
}

/** What {@link stageRows} needs of a stage. */
export interface StageRowsInput {
  loss: LossKind;
  regression: boolean;
  K: number;
  /** The bag's training rows: their count, labels and values. */
  bag: { nTrain: number; yTr: Int32Array; vTr: Float64Array };
  /** Every term's cell at each training row. */
  cellsTr: Bins[];
  /** Every term's table (the stage may start from non-zero ones). */
  tables: Float64Array[];
  /** Every term's cell count (its histogram's size). */
  cellCounts: number[];
  maxCells: number;
  /** The training rows' scores from everything outside the stage. */
  baseTr: Float64Array;
  /** The share of the training rows a round samples (>= 1: every row). */
  rate: number;
  rng: () => number;
  /** A helper thread for half of each histogram on a large fit, or null. */
  helper: RowHelper | null;
}

/** Buffers for a sampled round's rows, scores, labels and targets (at most every training row). */
function newRound(
  bag: { nTrain: number; vTr: Float64Array },
  K: number,
) {
  const n = bag.nTrain;
  return {
    at: new Uint32Array(n),
    s: new Float64Array(n * K),
    y: new Int32Array(n),
    v: new Float64Array(bag.vTr.length ? n : 0),
  };
}

/**
 * The {@link RowSource} of a stage: every row when `rate >= 1`, else a
 * seeded sample a round; split with the helper when there is one and a
 * round has at least {@link ROW_SPLIT_ROWS} rows.
 */
export function stageRows(o: StageRowsInput): RowSource {
  const { K, bag, cellsTr, baseTr, rate } = o;
  // Without sampling the training scores are kept up to date for all rows.
  // (Terms may start from non-zero tables: a later stage boosts them again.)
  let sAll: Float64Array | null = rate >= 1 ? baseTr.slice() : null;
  if (sAll) cellsTr.forEach((c, j) => addScores(sAll!, c, o.tables[j], K));
  // A large fit with a helper thread: each histogram is built half here,
  // half there, from rows on SharedArrayBuffers (see ./rows.ts).
  const split = o.helper && Math.min(1, rate) * bag.nTrain >= ROW_SPLIT_ROWS
    ? new RowSplit(
      rowSetup(
        o.loss,
        K,
        bag.nTrain,
        o.maxCells,
        cellsTr.map((c, j) => ({
          cells: o.cellCounts[j],
          wide: c instanceof Uint16Array,
          shared: c,
        })),
        o.regression,
        sAll === null,
      ),
      o.helper,
    )
    : null;
  // Each row's exponentials between a round's terms (see gradientHistogram):
  // the split keeps them on its shared rows instead.
  const cache = o.loss === "squared" || split
    ? null
    : new Float64Array(bag.nTrain * K);
  let filled = false;
  // Histograms without a pending update since the scores last changed (a
  // greedy round ranks every term at the same scores): from the second
  // one, each is the rows' gradients (computed once, from the cache)
  // summed per cell, the same values in the same order.
  let sameScores = 0;
  let rowG = new Float64Array(0), rowH = new Float64Array(0);
  const from = split?.setup.from;
  if (split) {
    const { setup } = split;
    cellsTr.forEach((c, j) => {
      if (setup.cells[j] !== c) setup.cells[j].set(c);
    });
    if (from) {
      if (from.y.length) from.y.set(bag.yTr);
      if (from.v.length) from.v.set(bag.vTr);
      from.base.set(baseTr);
    } else {
      setup.s.set(sAll!);
      sAll = setup.s;
      if (setup.y.length) setup.y.set(bag.yTr);
      if (setup.v.length) setup.v.set(bag.vTr);
    }
  }
  // The cells every round reads: every training row's (a sampled round's
  // rows are read in place, see RoundRows.at).
  const cells = split ? split.setup.cells : cellsTr;
  // A sampled round's rows in one thread: buffers made at the first round.
  let round: ReturnType<typeof newRound> | null = null;
  return {
    all: sAll !== null,
    next(tables) {
      filled = false;
      sameScores = 0;
      if (sAll) {
        return {
          m: bag.nTrain,
          cells,
          at: null,
          y: bag.yTr,
          v: bag.vTr,
          s: sAll,
        };
      }
      const at = sampleRows(
        bag.nTrain,
        rate,
        o.rng,
        from?.rows ?? (round ??= newRound(bag, K)).at,
      )!;
      const m = at.length;
      if (from) {
        // Both threads gather the round's rows (see ./rows.ts).
        tables.forEach((t, j) => from.tables[j].set(t));
        split!.gather(m);
        const { setup } = split!;
        return {
          m,
          cells,
          at,
          y: setup.y.length ? setup.y.subarray(0, m) : bag.yTr,
          v: setup.v.length ? setup.v.subarray(0, m) : bag.vTr,
          s: setup.s.subarray(0, m * K),
        };
      }
      // The round's scores: the outside score, then every term's table in
      // term order; its labels and targets. Into one set of buffers.
      const { s, y, v } = round!;
      scoreRows(s, baseTr, cells, tables, at, 0, m, K);
      for (let i = 0; i < m; i++) y[i] = bag.yTr[at[i]];
      for (let i = 0; i < v.length && i < m; i++) v[i] = bag.vTr[at[i]];
      return {
        m,
        cells,
        at,
        y: y.subarray(0, m),
        v: v.length ? v.subarray(0, m) : bag.vTr,
        s: s.subarray(0, m * K),
      };
    },
    histogram(r, j, pending, update, counted, hist) {
      // The rows' cache of exponentials is filled by a round's first term
      // (no pending update) and only updated after it: a pending update
      // first in a round would read a cache of other rows.
      if (pending < 0) filled = true;
      else if (!filled) {
        throw new Error(
          "internal: a round's first histogram came with a pending update (the row cache would be stale)",
        );
      }
      if (split) split.build(j, pending, update, r.m, counted, hist);
      else if (pending < 0 && cache !== null && sameScores > 0) {
        if (sameScores === 1) {
          if (rowG.length < r.m * K) {
            rowG = new Float64Array(r.m * K), rowH = new Float64Array(r.m * K);
          }
          rowGradients(
            o.loss as "logistic" | "softmax",
            K,
            r.y,
            r.m,
            cache,
            rowG,
            rowH,
          );
        }
        scatterHistogram(K, r.cells[j], r.m, rowG, rowH, hist, counted, r.at);
        sameScores++;
      } else {
        sameScores = pending < 0 ? 1 : 0;
        gradientHistogram(
          o.loss,
          K,
          r.s,
          r.y,
          r.v,
          r.cells[j],
          r.m,
          hist,
          pending >= 0 ? r.cells[pending] : null,
          update,
          counted,
          cache,
          r.at,
        );
      }
    },
    close: () => split?.close(),
  };
}
