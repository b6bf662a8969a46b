/**
 * From the bags' fits to the model: the bags' tables merged, pairs purified
 * into their main terms, every term centred, pruning, the metrics, and the
 * rows those were validated on.
 *
 * @module
 */

import type { BagResult, FitStop } from "./booster.ts";
import { type EncodedDataset, isRegressionTarget } from "./encoder.ts";
import { importanceOf, metrics } from "./metrics.ts";
import { purifiable } from "./constraints.ts";
import { splitSizes, type TrainingParams } from "./params.ts";
import type { Prepared, RawTerm } from "./prepared.ts";
import { smearing } from "./objective.ts";
import { type Bins, cellsOf, scoreCells, termCells } from "./predictor.ts";
import type { TrainProgress } from "./progress.ts";
import {
  type EbmModel,
  type FeatureBins,
  type Term,
  VALIDATION_ROWS_LISTED,
  type ValidationSplit,
} from "./types.ts";

/** A trained candidate and its loss on the bags' held-out rows. */
export interface Fitted {
  /** Null when the bags chose different pairs (see `fitOnce`). */
  model: EbmModel | null;
  /**
   * Every bag's validation loss (scaled as for early stopping) on its own
   * held-out rows; Infinity without validation rows.
   */
  heldOut: number[];
  /** Every bag's held-out loss on the target's own scale (`BagResult.heldOutRaw`). */
  heldOutRaw: number[];
  /**
   * A judged fit's preparation and bags (bag order), kept so that each
   * bag's judged rows can be scored again (see mix.ts); absent otherwise.
   */
  fit?: { prep: Prepared; bags: BagResult[] };
  /** Every bag's fit (bag order), when `fitOnce` is asked to keep them. */
  bags?: BagResult[];
}

/** A term's table merged over the bags, and its spread. */
interface MergedTerm {
  scores: Float64Array;
  /** Standard deviation over the bags of every cell's (centred) score; null for one bag. */
  spread: Float64Array | null;
}

/**
 * Merges the bags' tables of one term: each bag's table is centred on the
 * training rows (`cells`), then every cell gets the mean over the bags, or
 * the winsorized mean when `winsorize` > 0 (that fraction of the bags'
 * values clipped at each end first), plus the mean of the bags' centres;
 * the spread is the standard deviation over the bags.
 *
 * The centres are added back because a term's mean over the training rows
 * is part of the model: with 3+ classes a category that never meets a class
 * drives that class's logit down on its rows, so the term's mean for that
 * class is far from 0 and the intercept alone does not carry it. Dropping
 * the centres (as this once did) shifted those classes' logits on every row,
 * and the averaged model scored worse than the figures it reported.
 * `finalize` moves the mean into the intercept.
 *
 * Without winsorizing, every cell is the plain mean of the bags' cells.
 *
 * @example
 * ```ts
 * import { mergeBags } from "./finalize.ts";
 * // Two bags, one class, two cells with 3 and 1 training rows.
 * const merged = mergeBags(
 *   [Float64Array.of(1, 5), Float64Array.of(3, -1)],
 *   [0, 0, 0, 1],
 *   1,
 *   0,
 * );
 * if (merged.scores.join() !== "2,2") throw new Error(String(merged.scores));
 * ```
 */
export function mergeBags(
  tables: Float64Array[],
  cells: ArrayLike<number>,
  K: number,
  winsorize: number,
): MergedTerm {
  if (tables.length === 1) return { scores: tables[0], spread: null };
  const size = tables[0].length / K;
  const counts = new Float64Array(size);
  for (let i = 0; i < cells.length; i++) counts[cells[i]]++;
  const B = tables.length;
  const centre = new Float64Array(K);
  const centred = tables.map((t) => {
    const c = t.slice();
    for (let k = 0; k < K; k++) {
      let mean = 0;
      for (let q = 0; q < size; q++) mean += counts[q] * t[q * K + k];
      mean /= cells.length;
      centre[k] += mean / B;
      for (let q = 0; q < size; q++) c[q * K + k] -= mean;
    }
    return c;
  });
  const scores = new Float64Array(tables[0].length);
  const spread = new Float64Array(tables[0].length);
  const cut = Math.floor(winsorize * B);
  const v = new Float64Array(B);
  for (let q = 0; q < scores.length; q++) {
    for (let b = 0; b < B; b++) v[b] = centred[b][q];
    let mean = 0;
    for (let b = 0; b < B; b++) mean += v[b];
    mean /= B;
    let sq = 0;
    for (let b = 0; b < B; b++) sq += (v[b] - mean) ** 2;
    spread[q] = Math.sqrt(sq / B);
    if (cut > 0) {
      v.sort();
      const lo = v[cut], hi = v[B - 1 - cut];
      mean = 0;
      for (let b = 0; b < B; b++) mean += Math.min(hi, Math.max(lo, v[b]));
      mean /= B;
    }
    scores[q] = mean + centre[q % K];
  }
  return { scores, spread };
}

/** At most this many sweeps of a pair's rows and columns when purifying. */
const PURIFY_SWEEPS = 200;
/** Purifying stops once no row or column mean is larger than this. */
const PURIFY_TOLERANCE = 1e-12;

/**
 * Purifies the pair terms: moves each pair's mean along every row and
 * column of its table (weighted by the training rows in each cell) into the
 * two features' main terms, sweeping until the means are 0, so what one
 * feature does alone is read from its main term and a pair holds only the
 * interaction. No
 * prediction changes: a row's main bin maps to the coarse pair bin whose
 * mean moved. Works in place on the training tables (main terms first, in
 * feature order, as training makes them).
 */
function purify(
  raw: RawTerm[],
  features: FeatureBins[],
  trBins: Bins[],
  K: number,
): void {
  const mains = new Map<number, RawTerm>();
  for (const t of raw) if (t.features.length === 1) mains.set(t.features[0], t);
  for (const t of raw) {
    if (t.features.length !== 2) continue;
    const [a, c] = t.features;
    const ma = mains.get(a), mc = mains.get(c);
    if (!ma || !mc) continue;
    const P0 = features[a].pairBins, P1 = features[c].pairBins;
    const counts = new Float64Array(P0 * P1);
    const cells = termCells(features, t.features, trBins);
    for (let i = 0; i < cells.length; i++) counts[cells[i]]++;
    const T = t.scores;
    // Sweeps alternate the axes, so a fixed count leaves the first axis's
    // means only near 0 (1e-3 was seen); sweep until no mean moves.
    let moved = Infinity;
    for (
      let sweep = 0;
      sweep < PURIFY_SWEEPS && moved > PURIFY_TOLERANCE;
      sweep++
    ) {
      moved = 0;
      for (const axis of [0, 1]) {
        const n0 = axis === 0 ? P0 : P1, n1 = axis === 0 ? P1 : P0;
        const f = features[axis === 0 ? a : c];
        const main = (axis === 0 ? ma : mc).scores;
        for (let i = 0; i < n0; i++) {
          for (let k = 0; k < K; k++) {
            let w = 0, sum = 0;
            for (let j = 0; j < n1; j++) {
              const q = axis === 0 ? i * P1 + j : j * P1 + i;
              w += counts[q];
              sum += counts[q] * T[q * K + k];
            }
            if (w === 0) continue;
            const m = sum / w;
            if (Math.abs(m) > moved) moved = Math.abs(m);
            for (let j = 0; j < n1; j++) {
              const q = axis === 0 ? i * P1 + j : j * P1 + i;
              T[q * K + k] -= m;
            }
            for (let bin = 0; bin < f.nBins; bin++) {
              if (f.pairMap[bin] === i) main[bin * K + k] += m;
            }
          }
        }
      }
    }
  }
}

/**
 * Centres every term to mean 0 over the training rows (moving the mean into
 * the intercept, so `bias` reads as the average prediction) and, for
 * multi-class models, every cell to mean 0 across classes. Neither changes a
 * single prediction.
 */
function finalize(
  raw: RawTerm[],
  features: FeatureBins[],
  trBins: Bins[],
  intercept: number[],
  K: number,
  classes: string[],
  data: EncodedDataset,
  p: TrainingParams,
): Omit<EbmModel, "metrics"> {
  const b0 = [...intercept];
  const nTrain = trBins[0].length;
  // A pair with a monotone feature keeps its own table (constraints.ts).
  purify(raw.filter((t) => purifiable(data, features, t)), features, trBins, K);
  const terms: Term[] = raw.map((t) => {
    const cells = termCells(features, t.features, trBins);
    const size = t.scores.length / K;
    const counts = new Array<number>(size).fill(0);
    for (let i = 0; i < cells.length; i++) counts[cells[i]]++;
    const scores = Array.from(t.scores);
    for (let k = 0; k < K; k++) {
      let mean = 0;
      for (let q = 0; q < size; q++) mean += counts[q] * scores[q * K + k];
      mean /= nTrain;
      for (let q = 0; q < size; q++) scores[q * K + k] -= mean;
      b0[k] += mean;
    }
    if (K > 1) {
      for (let q = 0; q < size; q++) {
        let m = 0;
        for (let k = 0; k < K; k++) m += scores[q * K + k];
        for (let k = 0; k < K; k++) scores[q * K + k] -= m / K;
      }
    }
    const name = t.features.map((j) => features[j].name).join("*");
    const term: Term = { name, features: t.features, scores, counts };
    if (t.spread) term.spread = Array.from(t.spread);
    return term;
  });
  if (K > 1) {
    const m = b0.reduce((a, b) => a + b, 0) / K;
    for (let k = 0; k < K; k++) b0[k] -= m;
  }
  // Pruning and sparse_model: see pruneTerms.
  const kept = pruneTerms(terms, p, K);
  return {
    format: "mlplatform-ebm/1",
    task: isRegressionTarget(data.encoder.target)
      ? "regression"
      : "classification",
    target: data.encoder.target.name,
    classes: [...classes],
    scoreColumns: K,
    intercept: b0,
    features,
    terms: kept,
    encoder: data.encoder,
    params: p,
  };
}

/** The bags' fits (bag order, from 0) combined: the model and every bag's held-out loss. */
export function* combineBags(
  prep: Prepared,
  stop: FitStop,
  results: BagResult[],
): Generator<TrainProgress, Fitted, void> {
  const { p, K, features, overall, intercept, classes, data, pairsWanted } =
    prep;
  const heldOut = results.map((r) => r.heldOut);
  const heldOutRaw = results.map((r) => r.heldOutRaw);
  const bagTerms = results.map((r) => r.terms);
  const bagPairs = new Set(results.map((r) => JSON.stringify(r.pairs)));
  const mainRounds = Math.max(...results.map((r) => r.mainRounds));
  const pairRounds = Math.max(...results.map((r) => r.pairRounds));
  // Why the bag that ran the most rounds stopped: the rounds reported are
  // the bags' most, so a cap one bag hit is not reported as early stopping.
  const longest = (rounds: (r: BagResult) => number) =>
    results.reduce((a, r) => rounds(r) > rounds(a) ? r : a);
  const { mainStop } = longest((r) => r.mainRounds);
  const { pairStop } = longest((r) => r.pairRounds);
  const fit = prep.judged ? { fit: { prep, bags: results } } : {};
  if (bagPairs.size > 1) return { model: null, heldOut, heldOutRaw, ...fit };
  const terms: RawTerm[] = bagTerms[0].map((t, i) => {
    const m = mergeBags(
      bagTerms.map((own) => own[i].scores),
      termCells(features, t.features, overall.trBins),
      K,
      p.estimators_winsorize_level,
    );
    return { features: t.features, scores: m.scores, spread: m.spread };
  });

  yield { fraction: 0.98, stage: "finalizing" };
  const averaged = finalize(
    terms,
    features,
    overall.trBins,
    intercept,
    K,
    classes,
    data,
    p,
  );
  if (prep.link === "log") {
    // Served as exp(score + c): c, the smearing constant of the training
    // rows, joins the intercept, so bias + contributions is the log of the
    // prediction.
    const s = scoreCells(
      averaged,
      cellsOf(features, averaged.terms, overall.trBins),
      overall.nTrain,
    );
    averaged.intercept[0] += smearing(overall.vTr, s);
    averaged.link = "log";
  }
  // Metrics: of the model that serves, on the dataset's validation rows,
  // which no bag trained on (see bagData); views on those rows give the
  // same figures (tests/model_consistency_test.ts).
  const model: EbmModel = {
    ...averaged,
    metrics: metrics(
      averaged,
      overall.trBins,
      overall.vaBins,
      overall.objective,
      {
        mainRounds,
        pairRounds,
        stopReason: stop.deadline
          ? "deadline"
          : pairsWanted > 0
          ? pairStop
          : mainStop,
        estimators: bagTerms.length,
      },
    ),
  };
  yield { fraction: 1, stage: "finalizing" };
  return { model, heldOut, heldOutRaw, ...fit };
}

/**
 * Pruning, in place: a term whose importance (mean |score| over the
 * training rows, `counts`) is under `prune_threshold` contributes nothing
 * (its scores and spread become 0; the terms are centred, so the bias
 * stays). Returns the terms the model keeps: with `sparse_model`, only
 * those that contribute. One rule for every model that serves: the bags'
 * average and the search's pairs mixture (mix.ts).
 *
 * @example
 * ```ts
 * import { pruneTerms } from "./finalize.ts";
 * const terms = [
 *   { scores: [0.5, -0.5], counts: [1, 1] },
 *   { scores: [0.001, -0.001], counts: [1, 1] },
 * ];
 * const kept = pruneTerms(terms, { prune_threshold: 0.01, sparse_model: true }, 1);
 * if (kept.length !== 1 || terms[1].scores.some((x) => x !== 0)) throw new Error("example failed");
 * ```
 */
export function pruneTerms<
  T extends { scores: number[]; counts: number[]; spread?: number[] },
>(
  terms: T[],
  p: Pick<TrainingParams, "prune_threshold" | "sparse_model">,
  K: number,
): T[] {
  for (const t of terms) {
    if (
      p.prune_threshold > 0 &&
      importanceOf(
          Float64Array.from(t.scores),
          Float64Array.from(t.counts),
          K,
        ) < p.prune_threshold
    ) {
      t.scores.fill(0);
      t.spread?.fill(0);
    }
  }
  return p.sparse_model
    ? terms.filter((t) => t.scores.some((x) => x !== 0))
    : terms;
}

/**
 * The rows the metrics validated on (see `bagFitter`: the dataset's split,
 * which no bag trains on), as datasource row indices.
 */
export function validationSplit(
  data: EncodedDataset,
  p: TrainingParams,
): ValidationSplit {
  const { nTrain, nVal } = splitSizes(data.nRows, p);
  let rows: number[] | null = null;
  if (nVal <= VALIDATION_ROWS_LISTED) {
    const va = data.order.slice(nTrain, nTrain + nVal);
    const source = data.rows;
    rows = Array.from(va, (r) => source ? source[r] : r).sort((a, b) => a - b);
  }
  return {
    rule: "stratified",
    seed: data.seed ?? 0,
    trainingSize: p.training_size,
    validationSize: p.validation_size,
    count: nVal,
    rows,
  };
}
