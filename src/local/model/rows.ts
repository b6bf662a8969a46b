/**
 * One boosting fit on two cores: the gradient histograms of a large table's
 * rows split in two halves, the training thread building the first and a
 * helper Worker the second (the training thread builds it too when the
 * helper has not claimed it yet). The rows' cells, labels, scores and the
 * pending update live in SharedArrayBuffers; each build is one handshake on a
 * shared control word (`Atomics.wait`/`notify`). The halves are fixed (the
 * split is at `floor(m / 2)`) and the training thread adds the second half's
 * sums to the first's, so a fit is the same every time on two threads. It
 * can differ from the one-thread fit in the last bits of the sums (the rows
 * are added in another order).
 *
 * @example
 * ```ts
 * import { gradientHistogram, newHistogram } from "./boost.ts";
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

import { gradientHistogram, type Histogram, type LossKind } from "./boost.ts";

/**
 * Training rows (per round) from which a fit with one bag splits its
 * histograms across two threads. Below it, one handshake per term and round
 * costs more than half a histogram saves.
 */
export const ROW_SPLIT_ROWS = 20_000;

/** Words of the control array. */
const SEQ = 0,
  DONE = 1,
  CLAIM = 2,
  EXIT = 3,
  TERM = 4,
  PENDING = 5,
  N = 6,
  MID = 7,
  COUNTED = 8,
  OP = 9,
  CONTROL_WORDS = 10;
/** Operations: a histogram, or gathering a round's sampled rows. */
const HISTOGRAM = 0, GATHER = 1;

/**
 * What both threads of a split fit share (every array on a
 * SharedArrayBuffer): the control words, the round's rows (`s` scores, `y`
 * labels, `v` regression targets, `cells[j]` of term `j`), the pending
 * update `pu`, and the second half's histogram sums `G`, `H`, `C`.
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
  G: Float64Array;
  H: Float64Array;
  C: Float64Array;
  /**
   * A sampled fit only (else null): where each round's rows come from. Every
   * training row's cells per term, label, target and outside score (`base`),
   * the terms' current tables, and the round's sample (`rows`, row indices).
   */
  from: {
    rows: Uint32Array;
    cells: (Uint8Array | Uint16Array)[];
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
 * `terms` (their cell counts; `wide`: cells need 16 bits) and tables of at
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
  terms: { cells: number; wide: boolean }[],
  targets: boolean,
  sampled = false,
): RowSetup {
  const cells = () =>
    terms.map((t) =>
      t.wide ? shared(Uint16Array, rows) : shared(Uint8Array, rows)
    );
  return {
    loss,
    K,
    ctrl: shared(Int32Array, CONTROL_WORDS),
    s: shared(Float64Array, rows * K),
    y: shared(Int32Array, targets ? 0 : rows),
    v: shared(Float64Array, targets ? rows : 0),
    cells: cells(),
    cellCounts: terms.map((t) => t.cells),
    pu: shared(Float64Array, Math.max(maxCells, 1)),
    G: shared(Float64Array, Math.max(maxCells, 1)),
    H: shared(Float64Array, Math.max(maxCells, 1)),
    C: shared(Float64Array, Math.max(maxCells, 1)),
    from: sampled
      ? {
        rows: shared(Uint32Array, rows),
        cells: cells(),
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
 * round's arrays: cells, label or target, and score (the outside score plus
 * every term's table, added in term order as in one thread).
 */
function gatherRows(setup: RowSetup, lo: number, hi: number): void {
  const { K } = setup;
  const from = setup.from!;
  const rows = from.rows;
  for (let j = 0; j < setup.cells.length; j++) {
    const src = from.cells[j], out = setup.cells[j];
    for (let i = lo; i < hi; i++) out[i] = src[rows[i]];
  }
  if (from.y.length) {
    for (let i = lo; i < hi; i++) setup.y[i] = from.y[rows[i]];
  }
  if (from.v.length) {
    for (let i = lo; i < hi; i++) setup.v[i] = from.v[rows[i]];
  }
  const s = setup.s, base = from.base;
  for (let i = lo; i < hi; i++) {
    for (let k = 0; k < K; k++) s[i * K + k] = base[rows[i] * K + k];
  }
  for (let j = 0; j < setup.cells.length; j++) {
    const cells = setup.cells[j], table = from.tables[j];
    for (let i = lo; i < hi; i++) {
      const o = cells[i] * K;
      for (let k = 0; k < K; k++) s[i * K + k] += table[o + k];
    }
  }
}

/** Runs the second half (rows `mid..m`) of the operation the control words describe (a histogram goes to the setup's `G`, `H`, `C`). */
function buildSecondHalf(setup: RowSetup): void {
  const { ctrl, K } = setup;
  if (ctrl[OP] === GATHER) return gatherRows(setup, ctrl[MID], ctrl[N]);
  const j = ctrl[TERM], pending = ctrl[PENDING];
  const m = ctrl[N], mid = ctrl[MID];
  const cc = setup.cellCounts[j];
  gradientHistogram(
    setup.loss,
    K,
    setup.s.subarray(mid * K, m * K),
    setup.y.length ? setup.y.subarray(mid, m) : setup.y,
    setup.v.length ? setup.v.subarray(mid, m) : setup.v,
    setup.cells[j].subarray(mid, m),
    m - mid,
    {
      G: setup.G.subarray(0, cc * K),
      H: setup.H.subarray(0, cc * K),
      C: setup.C.subarray(0, cc),
    },
    pending >= 0 ? setup.cells[pending].subarray(mid, m) : null,
    pending >= 0 ? setup.pu : null,
    ctrl[COUNTED] === 1,
  );
}

/**
 * The helper's side: builds the second halves it claims until the training
 * thread closes the split. Blocks its thread (a Worker) meanwhile.
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
    if (Atomics.compareExchange(ctrl, CLAIM, seen - 1, seen) !== seen - 1) {
      continue;
    }
    buildSecondHalf(setup);
    Atomics.store(ctrl, DONE, seen);
    Atomics.notify(ctrl, DONE);
  }
}

/**
 * The training thread's side of a split fit (see the module): `build` fills a
 * term's histogram from both halves; `close` releases the helper. With no
 * helper (`post` null) it builds both halves itself, the same sums.
 */
export class RowSplit {
  /** The shared arrays; the caller fills the rows before each build. */
  readonly setup: RowSetup;
  #seq = 0;

  /** Starts the split: posts `setup` to the helper (when there is one). */
  constructor(setup: RowSetup, post: RowHelper | null) {
    this.setup = setup;
    post?.(setup);
  }

  /**
   * {@link gradientHistogram} of term `j` over the first `m` shared rows,
   * after adding the update `update` (null = none) of term `pending` (-1 =
   * none) to their scores: the first half here, the second by whichever
   * thread claims it, summed into `hist` in that order.
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
    const { ctrl, K } = setup;
    if (pending >= 0 && update) setup.pu.set(update);
    const mid = m >> 1;
    ctrl[TERM] = j;
    ctrl[PENDING] = pending;
    ctrl[COUNTED] = counted ? 1 : 0;
    const seq = this.#post(HISTOGRAM, m, mid);
    gradientHistogram(
      setup.loss,
      K,
      setup.s,
      setup.y,
      setup.v,
      setup.cells[j],
      mid,
      hist,
      pending >= 0 ? setup.cells[pending] : null,
      pending >= 0 ? setup.pu : null,
      counted,
    );
    this.#join(seq);
    const { G, H, C } = hist;
    for (let q = 0; q < G.length; q++) {
      G[q] += setup.G[q];
      H[q] += setup.H[q];
    }
    if (!counted) { for (let q = 0; q < C.length; q++) C[q] += setup.C[q]; }
  }

  /**
   * A sampled fit's round: the first `m` entries of `setup.from.rows` (the
   * caller fills them, and `from.tables` with the terms' current tables)
   * gathered into the round's arrays, half here and half by the helper.
   */
  gather(m: number): void {
    const mid = m >> 1;
    const seq = this.#post(GATHER, m, mid);
    gatherRows(this.setup, 0, mid);
    this.#join(seq);
  }

  /** Publishes the next operation to the helper. */
  #post(op: number, m: number, mid: number): number {
    const { ctrl } = this.setup;
    const seq = ++this.#seq;
    ctrl[OP] = op;
    ctrl[N] = m;
    ctrl[MID] = mid;
    Atomics.store(ctrl, SEQ, seq);
    Atomics.notify(ctrl, SEQ);
    return seq;
  }

  /** Runs operation `seq`'s second half here unless the helper claimed it, then waits for it. */
  #join(seq: number): void {
    const { ctrl } = this.setup;
    if (Atomics.compareExchange(ctrl, CLAIM, seq - 1, seq) === seq - 1) {
      buildSecondHalf(this.setup);
      return;
    }
    while (Atomics.load(ctrl, DONE) !== seq) {
      Atomics.wait(ctrl, DONE, Atomics.load(ctrl, DONE));
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
