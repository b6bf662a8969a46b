/**
 * Scoring a trained model: the cell of every row in each term, the scores
 * (intercept plus the terms' tables at those cells) and the class
 * probabilities. What views (`explain.ts`) and the model's metrics use; it
 * loads nothing of the trainer.
 *
 * @module
 */

import type { EncodedColumn } from "./encoder.ts";
import type { EbmModel, FeatureBins } from "./types.ts";

export type Bins = Uint8Array | Uint16Array;

/** Adds `table[cells[i]]` (K values per cell) to the scores of every row `i`. */
export function addScores(
  scores: Float64Array,
  cells: ArrayLike<number>,
  table: ArrayLike<number>,
  K: number,
): void {
  const n = cells.length;
  if (K === 1) {
    for (let i = 0; i < n; i++) scores[i] += table[cells[i]];
    return;
  }
  for (let i = 0; i < n; i++) {
    const o = cells[i] * K;
    for (let k = 0; k < K; k++) scores[i * K + k] += table[o + k];
  }
}

/**
 * The cell of every row in a term's table: its bin for a main term, for a
 * pair term `coarse0 * pairBins1 + coarse1` (see `Term.scores`).
 *
 * @example
 * ```ts
 * import { termCells } from "./predictor.ts";
 *
 * const f = { name: "a", kind: "categorical" as const, cuts: [], nBins: 3, labels: [], pairMap: [0, 1, 2], pairBins: 3, pairLabels: [] };
 * const bins = [Uint8Array.of(1, 2), Uint8Array.of(2, 0)];
 * if (!(termCells([f, f], [0], bins) === bins[0] && termCells([f, f], [0, 1], bins)[0] === 5)) throw new Error("example failed");
 * ```
 */
export function termCells(
  features: FeatureBins[],
  term: ReadonlyArray<number>,
  bins: ArrayLike<number>[],
): ArrayLike<number> {
  if (term.length === 1) return bins[term[0]];
  return pairCells(features, term[0], term[1], bins);
}

/** {@link termCells} of the pair of features `a` and `c`. */
export function pairCells(
  features: FeatureBins[],
  a: number,
  c: number,
  bins: ArrayLike<number>[],
): Uint16Array {
  const f0 = features[a], f1 = features[c];
  const b0 = bins[a], b1 = bins[c];
  const out = new Uint16Array(b0.length);
  for (let i = 0; i < b0.length; i++) {
    out[i] = f0.pairMap[b0[i]] * f1.pairBins + f1.pairMap[b1[i]];
  }
  return out;
}

/**
 * {@link termCells} of every term.
 *
 * @example
 * ```ts
 * import { cellsOf } from "./predictor.ts";
 *
 * const f = { name: "a", kind: "categorical" as const, cuts: [], nBins: 3, labels: [], pairMap: [0, 1, 2], pairBins: 3, pairLabels: [] };
 * const cells = cellsOf([f, f], [{ features: [1] }, { features: [0, 1] }], [Uint8Array.of(1), Uint8Array.of(2)]);
 * if (!(cells[0][0] === 2 && cells[1][0] === 5)) throw new Error("example failed");
 * ```
 */
export function cellsOf(
  features: FeatureBins[],
  terms: ReadonlyArray<{ features: number[] }>,
  bins: ArrayLike<number>[],
): ArrayLike<number>[] {
  return terms.map((t) => termCells(features, t.features, bins));
}

/** Writes into `out` the intercept plus every term's score at each row's cell. */
export function scoreTerms(
  terms: ReadonlyArray<{ scores: ArrayLike<number> }>,
  cells: ArrayLike<number>[],
  intercept: number[],
  K: number,
  out: Float64Array,
): Float64Array {
  const n = out.length / K;
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < K; k++) out[i * K + k] = intercept[k];
  }
  terms.forEach((t, j) => addScores(out, cells[j], t.scores, K));
  return out;
}

/**
 * Scores `n` rows with a finished model, given the rows' cell in each of its
 * terms ({@link cellsOf} `(model.features, model.terms, bins)`).
 */
export function scoreCells(
  model: Pick<EbmModel, "scoreColumns" | "terms" | "intercept">,
  cells: ArrayLike<number>[],
  n: number,
  out?: Float64Array,
): Float64Array {
  const K = model.scoreColumns;
  return scoreTerms(
    model.terms,
    cells,
    model.intercept,
    K,
    out ?? new Float64Array(n * K),
  );
}

/**
 * A regression model's predictions of its scores: the scores themselves, or
 * `exp` of each for the log link (see `EbmModel.link`). The one place a
 * regression score becomes what serves: views answer it and the model's
 * metrics are measured on it.
 *
 * @example
 * ```ts
 * import { regressionValues } from "./predictor.ts";
 *
 * const s = Float64Array.of(0, Math.log(5));
 * if (regressionValues({}, s) !== s || Math.abs(regressionValues({ link: "log" }, s)[1] - 5) > 1e-12) throw new Error("example failed");
 * ```
 */
export function regressionValues(
  model: Pick<EbmModel, "link">,
  scores: Float64Array,
): Float64Array {
  return model.link === "log" ? scores.map(Math.exp) : scores;
}

/**
 * Typed arrays a model's calls of `n` rows reuse: the encoded columns, the
 * bins and the scores. A one-row views call made three ArrayBuffers and a
 * dozen views of them, more of its CPU than its arithmetic; calls are
 * synchronous and none of these arrays leaves its call, so one set per
 * model (for the latest small `n`) serves them all.
 */
export interface RowScratch {
  n: number;
  encoded: EncodedColumn[];
  bins: Uint16Array[];
  scores: Float64Array;
}

/** Calls of at most this many rows reuse a {@linkcode RowScratch}. */
const SCRATCH_ROWS = 64;
const SCRATCH = new WeakMap<EbmModel, RowScratch>();

/**
 * The model's {@linkcode RowScratch} for `n` rows (made on first use, or
 * for a new `n`), or undefined for more than 64 rows.
 *
 * @example
 * ```ts
 * import { rowScratch } from "./predictor.ts";
 * import type { EbmModel } from "./types.ts";
 * const model = { encoder: { features: [{ kind: "numeric" }] }, features: [{}], scoreColumns: 1 } as unknown as EbmModel;
 * const s = rowScratch(model, 1)!;
 * if (s.encoded[0].length !== 1 || rowScratch(model, 1) !== s || rowScratch(model, 65)) throw new Error("example failed");
 * ```
 */
export function rowScratch(model: EbmModel, n: number): RowScratch | undefined {
  if (!(n > 0 && n <= SCRATCH_ROWS)) return undefined;
  let s = SCRATCH.get(model);
  if (s?.n === n) return s;
  // One buffer (a size that changes from call to call makes a new set):
  // the 8-byte columns first, then the 2-byte ones.
  const features = model.encoder.features;
  const numeric = features.filter((f) => f.kind === "numeric").length;
  const wide = n * (model.scoreColumns + numeric);
  const buffer = new ArrayBuffer(
    8 * wide + 2 * n * (features.length - numeric + model.features.length),
  );
  let at8 = 8 * n * model.scoreColumns, at2 = 8 * wide;
  const next16 = () => new Uint16Array(buffer, (at2 += 2 * n) - 2 * n, n);
  s = {
    n,
    encoded: features.map((f) =>
      f.kind === "numeric"
        ? new Float64Array(buffer, (at8 += 8 * n) - 8 * n, n)
        : next16()
    ),
    bins: model.features.map(next16),
    scores: new Float64Array(buffer, 0, n * model.scoreColumns),
  };
  SCRATCH.set(model, s);
  return s;
}

/**
 * Class probabilities of row `i` of a classifier's scores (K = 1: the logit
 * of class 1; else K softmax logits) and the most probable class (ties: the
 * first). The one place scores become probabilities: views answer them and
 * the model's metrics (AUC, accuracy) are measured on them.
 *
 * @example
 * ```ts
 * import { rowProbabilities } from "./predictor.ts";
 *
 * const { p, best } = rowProbabilities(Float64Array.of(0, 0, Math.log(2)), 0, 3);
 * if (!(best === 2 && Math.abs(p[2] - 0.5) < 1e-12)) throw new Error("example failed");
 * ```
 */
export function rowProbabilities(
  scores: Float64Array,
  i: number,
  K: number,
): { p: number[]; best: number } {
  let p: number[];
  if (K === 1) {
    const p1 = 1 / (1 + Math.exp(-scores[i]));
    p = [1 - p1, p1];
  } else {
    // Plain loops, not Array.from/reduce/map: this runs once a row on the
    // views path. The sums are in the same order, so the figures are too.
    const o = i * K;
    let m = -Infinity;
    for (let k = 0; k < K; k++) m = Math.max(m, scores[o + k]);
    p = [];
    let z = 0;
    for (let k = 0; k < K; k++) {
      const e = Math.exp(scores[o + k] - m);
      p.push(e);
      z += e;
    }
    for (let k = 0; k < K; k++) p[k] /= z;
  }
  let best = 0;
  for (let k = 1; k < p.length; k++) if (p[k] > p[best]) best = k;
  return { p, best };
}
