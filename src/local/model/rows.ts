/**
 * One boosting fit on two cores: the gradient histograms of a large table's
 * rows built in {@link ROW_CHUNKS} fixed chunks of rows, which the training
 * thread and a helper Worker claim one at a time from a shared counter (a
 * busy helper, on a loaded machine, takes fewer; no helper, none). The rows'
 * cells, labels, scores and the pending update live in SharedArrayBuffers;
 * each build is one handshake on shared control words
 * (`Atomics.wait`/`notify`). Each chunk has its own partial histogram and
 * the training thread adds them up in chunk order, so a fit is the same
 * every time, whichever thread built which chunk. It can differ from the
 * one-thread fit in the last bits of the sums (the rows are added in
 * another order).
 *
 * @example
 * ```ts
 * import { gradientHistogram, newHistogram } from "./histogram.ts";
 * import { RowSplit, rowSetup } from "./rows.ts";
 *
 * const n = 6;
 * const setup = rowSetup("squared", 1, n, 2, [{ cells: 2, wide: false }], true);
 * setup.cells[0].set([0, 1, 1, 0, 1, 1]);
 * setup.s.set([0, 0, 0, 0, 0, 0]);
 * setup.v.set([1, 2, 3, 4, 5, 6]);
 * // No helper: the training thread builds both halves.
 * const split = new RowSplit(setup, null);
 * const hist = newHistogram(2, 1);
 * split.build(0, -1, null, n, false, hist);
 * split.close();
 * const whole = newHistogram(2, 1);
 * gradientHistogram("squared", 1, new Float64Array(n), new Int32Array(0), Float64Array.of(1, 2, 3, 4, 5, 6), setup.cells[0], n, whole, null, null);
 * if (!(hist.G.join() === whole.G.join() && hist.C.join() === "2,4")) throw new Error("example failed");
 * ```
 *
 * @module
 */

import { gradientHistogram, type Histogram } from "./histogram.ts";
import type { LossKind } from "./loss.ts";

/**
 * Training rows (per round) from which a fit with one bag splits its
 * histograms across two threads. Below it, one handshake per term and round
 * costs more than half a histogram saves.
 */
export const ROW_SPLIT_ROWS = 20_000;

/** Words of the control array. */
const SEQ = 0,
  EXIT = 3,
  TERM = 4,
  PENDING = 5,
  N = 6,
  FAILED = 7,
  COUNTED = 8,
  OP = 9,
  NEXT = 10,
  FINISHED = 11,
  CONTROL_WORDS = 12;

/**
 * The control words a helper reads and claims chunks with, named for code
 * that plays the helper's part (a test of a helper that dies mid-chunk).
 *
 * @example
 * ```ts
 * import { ROW_CONTROL } from "./rows.ts";
 * const words = new Set(Object.values(ROW_CONTROL));
 * if (words.size !== 3) throw new Error("example failed");
 * ```
 */
export const ROW_CONTROL = Object.freeze({ SEQ, NEXT, FINISHED });

/**
 * How long the training thread waits with no chunk finishing before it
 * takes the helper for dead (a chunk is an eighth of one histogram: well
 * under a second even on a loaded machine). A Worker that dies mid-chunk
 * sends no event the blocked training thread could read.
 */
export const ROW_STALL_MS = 60_000;

/** Chunks of rows a split operation is cut into (fixed: the sums' order). */
export const ROW_CHUNKS = 8;
/** Operations: a histogram, or gathering a round's sampled rows. */
const HISTOGRAM = 0, GATHER = 1;

/**
 * What both threads of a split fit share (every array on a
 * SharedArrayBuffer): the control words, every training row's cells of
 * term `j` (`cells[j]`), the round's rows (`s` scores, `y` labels, `v`
 * regression targets; a sampled fit's row `i` is training row
 * `from.rows[i]`, whose cells are read in place), the pending update `pu`,
 * and each chunk's partial histogram sums `G`, `H`, `C`.
 */
export interface RowSetup {
  loss: LossKind;
  K: number;
  ctrl: Int32Array;
  s: Float64Array;
  y: Int32Array;
  v: Float64Array;
  cells: (Uint8Array | Uint16Array)[];
  /** Cells of each term's table. */
  cellCounts: number[];
  pu: Float64Array;
  /** Each row's exponentials between a round's terms (classification; else empty): see {@link gradientHistogram}. */
  ex: Float64Array;
  /** The chunks' partial histograms: chunk `c` at `c * maxCells`. */
  G: Float64Array;
  H: Float64Array;
  C: Float64Array;
  maxCells: number;
  /**
   * A sampled fit only (else null): where each round's rows come from. Every
   * training row's label, target and outside score (`base`), the terms'
   * current tables, and the round's sample (`rows`, row indices).
   */
  from: {
    rows: Uint32Array;
    y: Int32Array;
    v: Float64Array;
    base: Float64Array;
    tables: Float64Array[];
  } | null;
}

/** Posts a {@link RowSetup} to the helper, which then serves it ({@link serveRows}). */
export type RowHelper = (setup: RowSetup) => void;

function shared<T>(
  Kind: { new (b: SharedArrayBuffer): T; BYTES_PER_ELEMENT: number },
  length: number,
): T {
  return new Kind(new SharedArrayBuffer(length * Kind.BYTES_PER_ELEMENT));
}

/**
 * Allocates a {@link RowSetup} for `rows` rows, `K` score columns, the terms
 * `terms` (their cell counts; `wide`: cells need 16 bits; `shared`: their
 * cells already on a SharedArrayBuffer, used as they are) and tables of at
 * most `maxCells * K` values; `targets`: regression targets (`v`) instead of
 * labels (`y`).
 *
 * @example
 * ```ts
 * import { rowSetup } from "./rows.ts";
 * const s = rowSetup("logistic", 1, 10, 4, [{ cells: 4, wide: false }, { cells: 300, wide: true }], false);
 * if (!(s.cells[1] instanceof Uint16Array && s.s.buffer instanceof SharedArrayBuffer && s.v.length === 0)) throw new Error("example failed");
 * ```
 */
export function rowSetup(
  loss: LossKind,
  K: number,
  rows: number,
  maxCells: number,
  terms: { cells: number; wide: boolean; shared?: Uint8Array | Uint16Array }[],
  targets: boolean,
  sampled = false,
): RowSetup {
  return {
    loss,
    K,
    ctrl: shared(Int32Array, CONTROL_WORDS),
    s: shared(Float64Array, rows * K),
    y: shared(Int32Array, targets ? 0 : rows),
    v: shared(Float64Array, targets ? rows : 0),
    cells: terms.map((t) =>
      t.shared?.buffer instanceof SharedArrayBuffer && t.shared.length === rows
        ? t.shared
        : t.wide
        ? shared(Uint16Array, rows)
        : shared(Uint8Array, rows)
    ),
    cellCounts: terms.map((t) => t.cells),
    pu: shared(Float64Array, Math.max(maxCells, 1)),
    ex: shared(Float64Array, loss === "squared" ? 0 : rows * K),
    G: shared(Float64Array, ROW_CHUNKS * Math.max(maxCells, 1)),
    H: shared(Float64Array, ROW_CHUNKS * Math.max(maxCells, 1)),
    C: shared(Float64Array, ROW_CHUNKS * Math.max(maxCells, 1)),
    maxCells: Math.max(maxCells, 1),
    from: sampled
      ? {
        rows: shared(Uint32Array, rows),
        y: shared(Int32Array, targets ? 0 : rows),
        v: shared(Float64Array, targets ? rows : 0),
        base: shared(Float64Array, rows * K),
        tables: terms.map((t) => shared(Float64Array, t.cells * K)),
      }
      : null,
  };
}

/**
 * Gathers the sampled rows `lo..hi` (positions in `from.rows`) into the
 * round's arrays: label or target, and score (the outside score plus every
 * term's table, added in term order as in one thread).
 */
function gatherRows(setup: RowSetup, lo: number, hi: number): void {
  const { K } = setup;
  const from = setup.from!;
  const rows = from.rows;
  if (from.y.length) {
    for (let i = lo; i < hi; i++) setup.y[i] = from.y[rows[i]];
  }
  if (from.v.length) {
    for (let i = lo; i < hi; i++) setup.v[i] = from.v[rows[i]];
  }
  scoreRows(setup.s, from.base, setup.cells, from.tables, rows, lo, hi, K);
}

/**
 * The scores of rows `lo..hi` of a sampled round, row `i` being training
 * row `at[i]`: its outside score `base`, then every term's table at its
 * cell, added in term order (K values a row and cell). A row's sum is
 * built up in a local four terms at a time: the same additions in the
 * same order as a pass a term, with a quarter of the stores.
 *
 * @example
 * ```ts
 * import { scoreRows } from "./rows.ts";
 * const s = new Float64Array(2);
 * scoreRows(s, Float64Array.of(1, 2, 3), [Uint8Array.of(0, 1, 1)], [Float64Array.of(10, 20)], Uint32Array.of(0, 2), 0, 2, 1);
 * if (s.join() !== "11,23") throw new Error("example failed");
 * ```
 */
export function scoreRows(
  s: Float64Array,
  base: Float64Array,
  cells: ArrayLike<number>[],
  tables: Float64Array[],
  at: Uint32Array,
  lo: number,
  hi: number,
  K: number,
): void {
  if (K !== 1) {
    for (let i = lo; i < hi; i++) {
      for (let k = 0; k < K; k++) s[i * K + k] = base[at[i] * K + k];
    }
    for (let j = 0; j < cells.length; j++) {
      const c = cells[j], table = tables[j];
      for (let i = lo; i < hi; i++) {
        const o = c[at[i]] * K;
        for (let k = 0; k < K; k++) s[i * K + k] += table[o + k];
      }
    }
    return;
  }
  for (let i = lo; i < hi; i++) s[i] = base[at[i]];
  const T = cells.length;
  let j = 0;
  for (; j + 4 <= T; j += 4) {
    const c0 = cells[j], c1 = cells[j + 1], c2 = cells[j + 2];
    const c3 = cells[j + 3];
    const t0 = tables[j], t1 = tables[j + 1], t2 = tables[j + 2];
    const t3 = tables[j + 3];
    for (let i = lo; i < hi; i++) {
      const r = at[i];
      let x = s[i];
      x += t0[c0[r]];
      x += t1[c1[r]];
      x += t2[c2[r]];
      x += t3[c3[r]];
      s[i] = x;
    }
  }
  for (; j < T; j++) {
    const c = cells[j], t = tables[j];
    for (let i = lo; i < hi; i++) s[i] += t[c[at[i]]];
  }
}

/** Rows `lo..hi` of chunk `c` of `m` rows. */
function chunkRows(m: number, c: number): [number, number] {
  return [
    Math.floor((m * c) / ROW_CHUNKS),
    Math.floor((m * (c + 1)) / ROW_CHUNKS),
  ];
}

/** Runs chunk `c` of the operation the control words describe (a histogram goes to chunk `c`'s partial histogram). */
function runChunk(setup: RowSetup, c: number): void {
  const { ctrl, K } = setup;
  const m = ctrl[N];
  const [lo, hi] = chunkRows(m, c);
  if (ctrl[OP] === GATHER) return gatherRows(setup, lo, hi);
  const j = ctrl[TERM], pending = ctrl[PENDING];
  const cc = setup.cellCounts[j], at = c * setup.maxCells;
  // A sampled fit reads its rows' cells in place; else rows lo..hi are
  // the training rows lo..hi.
  const rows = setup.from ? setup.from.rows.subarray(lo, hi) : null;
  const cellsOf = (t: number) =>
    rows ? setup.cells[t] : setup.cells[t].subarray(lo, hi);
  gradientHistogram(
    setup.loss,
    K,
    setup.s.subarray(lo * K, hi * K),
    setup.y.length ? setup.y.subarray(lo, hi) : setup.y,
    setup.v.length ? setup.v.subarray(lo, hi) : setup.v,
    cellsOf(j),
    hi - lo,
    {
      G: setup.G.subarray(at, at + cc * K),
      H: setup.H.subarray(at, at + cc * K),
      C: setup.C.subarray(at, at + cc),
    },
    pending >= 0 ? cellsOf(pending) : null,
    pending >= 0 ? setup.pu.subarray(0, setup.cellCounts[pending] * K) : null,
    ctrl[COUNTED] === 1,
    setup.ex.length ? setup.ex.subarray(lo * K, hi * K) : null,
    rows,
  );
}

/**
 * Claims and runs chunks of the current operation until none is left; the
 * last one finished wakes the training thread.
 */
function runChunks(setup: RowSetup): void {
  const { ctrl } = setup;
  for (;;) {
    const c = Atomics.add(ctrl, NEXT, 1);
    if (c >= ROW_CHUNKS) return;
    try {
      runChunk(setup, c);
    } catch (error) {
      // Counted as finished all the same, so the training thread wakes
      // (else it would wait forever for this chunk) and sees the flag.
      Atomics.store(ctrl, FAILED, 1);
      throw error;
    } finally {
      if (Atomics.add(ctrl, FINISHED, 1) === ROW_CHUNKS - 1) {
        Atomics.notify(ctrl, FINISHED);
      }
    }
  }
}

/**
 * The helper's side: runs the chunks it claims until the training thread
 * closes the split. Blocks its thread (a Worker) meanwhile.
 *
 * @example
 * ```ts
 * import { RowSplit, rowSetup, serveRows } from "./rows.ts";
 * const setup = rowSetup("squared", 1, 4, 2, [{ cells: 2, wide: false }], true);
 * new RowSplit(setup, null).close();
 * serveRows(setup); // closed: returns at once
 * ```
 */
export function serveRows(setup: RowSetup): void {
  const { ctrl } = setup;
  let seen = 0;
  for (;;) {
    if (Atomics.load(ctrl, EXIT) === 1) return;
    Atomics.wait(ctrl, SEQ, seen);
    seen = Atomics.load(ctrl, SEQ);
    if (Atomics.load(ctrl, EXIT) === 1) return;
    runChunks(setup);
  }
}

/**
 * The training thread's side of a split fit (see the module): `build` fills a
 * term's histogram from the chunks; `close` releases the helper. With no
 * helper (`post` null) it runs every chunk itself, the same sums.
 */
export class RowSplit {
  /** The shared arrays; the caller fills the rows before each build. */
  readonly setup: RowSetup;
  #seq = 0;
  readonly #stallMs: number;

  /**
   * Starts the split: posts `setup` to the helper (when there is one).
   * `stallMs`: how long no chunk may finish before the helper counts as
   * dead ({@link ROW_STALL_MS}).
   */
  constructor(
    setup: RowSetup,
    post: RowHelper | null,
    stallMs: number = ROW_STALL_MS,
  ) {
    this.setup = setup;
    this.#stallMs = stallMs;
    post?.(setup);
  }

  /**
   * {@link gradientHistogram} of term `j` over the first `m` shared rows,
   * after adding the update `update` (null = none) of term `pending` (-1 =
   * none) to their scores: chunk by chunk on both threads, summed into
   * `hist` in chunk order.
   */
  build(
    j: number,
    pending: number,
    update: Float64Array | null,
    m: number,
    counted: boolean,
    hist: Histogram,
  ): void {
    const { setup } = this;
    const { ctrl } = setup;
    if (pending >= 0 && update) setup.pu.set(update);
    ctrl[TERM] = j;
    ctrl[PENDING] = pending;
    ctrl[COUNTED] = counted ? 1 : 0;
    this.#run(HISTOGRAM, m);
    const { G, H, C } = hist;
    G.fill(0), H.fill(0);
    if (!counted) C.fill(0);
    for (let c = 0; c < ROW_CHUNKS; c++) {
      const at = c * setup.maxCells;
      for (let q = 0; q < G.length; q++) {
        G[q] += setup.G[at + q];
        H[q] += setup.H[at + q];
      }
      if (!counted) {
        for (let q = 0; q < C.length; q++) C[q] += setup.C[at + q];
      }
    }
    // A squared error's hessians are the counts (a counted chunk's partial
    // counts are not kept, so its partial hessians are not either).
    if (setup.loss === "squared") H.set(C);
  }

  /**
   * A sampled fit's round: the first `m` entries of `setup.from.rows` (the
   * caller fills them, and `from.tables` with the terms' current tables)
   * gathered into the round's arrays, chunk by chunk on both threads.
   */
  gather(m: number): void {
    this.#run(GATHER, m);
  }

  /** Publishes operation `op` on `m` rows, runs the chunks it claims, and waits for the rest. */
  #run(op: number, m: number): void {
    const { setup } = this;
    const { ctrl } = setup;
    ctrl[OP] = op;
    ctrl[N] = m;
    Atomics.store(ctrl, FINISHED, 0);
    Atomics.store(ctrl, NEXT, 0);
    Atomics.store(ctrl, SEQ, ++this.#seq);
    Atomics.notify(ctrl, SEQ);
    runChunks(setup);
    let done = Atomics.load(ctrl, FINISHED), since = Date.now();
    while (done !== ROW_CHUNKS) {
      Atomics.wait(ctrl, FINISHED, done, Math.min(1000, this.#stallMs));
      const now = Atomics.load(ctrl, FINISHED);
      if (now !== done) {
        done = now;
        since = Date.now();
      } else if (Date.now() - since >= this.#stallMs) {
        // The helper claimed a chunk and never finished it: it died (a
        // Worker killed or crashed) or hangs. Waiting on would hang the
        // training for good.
        throw new Error(
          `the helper thread of a two-thread fit stopped answering (no chunk of rows finished in ${
            Math.round(this.#stallMs / 1000)
          } s); retry the training, or train with one core`,
        );
      }
    }
    if (Atomics.load(ctrl, FAILED) === 1) {
      throw new Error(
        "the helper thread of a two-thread fit failed on its rows (its error is in the server's log); retry the training, or train with one core",
      );
    }
  }

  /** Releases the helper (it returns from {@link serveRows}). */
  close(): void {
    const { ctrl } = this.setup;
    Atomics.store(ctrl, EXIT, 1);
    Atomics.store(ctrl, SEQ, this.#seq + 1);
    Atomics.notify(ctrl, SEQ);
  }
}
