/**
 * What one fit prepares once for all its bags: bins, every row's bin, the
 * dataset's split, the intercept and each bag's rows (see {@link Prepared}).
 *
 * @module
 */

import {
  binColumn,
  categoricalBins,
  numericBins,
  refineBins,
  sortedAt,
} from "./binning.ts";
import { type EncodedDataset, isRegressionTarget } from "./encoder.ts";
import { ModelDataError } from "./errors.ts";
import { type Link, makeObjective, type Objective } from "./objective.ts";
import { MAX_BINS, splitSizes, type TrainingParams } from "./params.ts";
import type { Bins } from "./predictor.ts";
import type { TrainProgress } from "./progress.ts";
import { createRng, shuffle } from "./rng.ts";
import { ROW_SPLIT_ROWS, type RowHelper } from "./rows.ts";
import { gather } from "./rowsource.ts";
import type { FeatureBins } from "./types.ts";

/**
 * Everything one fit with fixed parameters shares across its bags, computed
 * once: the bins (from the training rows), every row's bin, the dataset's
 * own split (`overall`), the intercept and how many bags run. A plain value:
 * {@link fitBag} and {@link combineBags} take it explicitly.
 */
export interface Prepared {
  data: EncodedDataset;
  p: TrainingParams;
  regression: boolean;
  classes: string[];
  /** Score columns: 1 (binary, regression) or one per class. */
  K: number;
  nTrain: number;
  nVal: number;
  /** The dataset's training then validation rows (a prefix of `data.order`). */
  pool: Uint32Array;
  /** The dataset's training rows. */
  trRows: Uint32Array;
  /** Whether boosting starts from the linear fit (see linear.ts). */
  linear: boolean;
  /** Regression: whether the rounds fit the target or its log (see {@link Link}). */
  link: Link;
  /** Whether the bags are judged on half their validation rows (see `BagTask.judged`). */
  judged: boolean;
  features: FeatureBins[];
  /**
   * With a refined linear start: per feature, the boosted (coarse) bin of
   * every fine bin; null for a feature boosted on its own bins.
   */
  coarseOf: (Uint8Array | null)[];
  /** Bins the main terms boost, per feature. */
  boostedBins: number[];
  /** Every row's bin, per feature; each bag gathers its rows from these. */
  binsAll: Bins[];
  /** The linear start's mean training value of every numeric bin (empty without it). */
  binMeans: Float64Array[];
  /** The dataset's own split: binning, intercept, pair choice and metrics. */
  overall: Bag;
  intercept: number[];
  bags: number;
  /** Training rows each bag draws (see {@link sampleCount}). */
  drawn: number;
  /** Pair terms wanted (0 without pairs). */
  pairsWanted: number;
  /** A helper thread for a fit with one bag's histograms, or null. */
  rows: RowHelper | null;
  /** Main terms stepped a boosting round by gain (0: cyclic rounds; see `Booster.greedy`). */
  greedy: number;
  /**
   * Every input of a bag's main stage and pair ranking in one string (the
   * parameters but `max_interactions`, the linear start, its bins, judged,
   * greedy, a row helper, the link): fits with the same key fit the same main terms
   * and rank the same pairs, bag by bag (see `StageReuse`, reuse.ts).
   */
  reuseKey: string;
}

/**
 * Prepares one fit (see {@link Prepared}); yields once, when binning starts.
 *
 * @throws {ModelDataError} When the split leaves fewer than two training rows.
 */
export function* prepare(
  data: EncodedDataset,
  p: TrainingParams,
  withLinearStart: boolean,
  linearBins: number,
  judged: boolean,
  rows: RowHelper | null = null,
  greedy = 0,
  binned: Map<string, Binned> | null = null,
  link: Link = "identity",
): Generator<TrainProgress, Prepared, void> {
  const regression = isRegressionTarget(data.encoder.target);
  const classes = data.encoder.target.classes;
  const K = regression || classes.length === 2 ? 1 : classes.length;
  const n = data.nRows;
  const { nTrain, nVal } = splitSizes(n, p);
  if (nTrain < 2) {
    throw new ModelDataError(
      data.encoder.target.name,
      "TOO_FEW_ROWS",
      `only ${nTrain} training rows (of ${n}); onboard more data or raise training_size.`,
    );
  }
  yield { fraction: 0, stage: "binning" };
  const pool = data.order.subarray(0, nTrain + nVal);
  const trRows = pool.subarray(0, nTrain);
  const linear = withLinearStart;
  // Every fit of a training with the same bins bins the same way (the
  // search's candidates but the bins': their pairs, judged or not).
  const binKey = JSON.stringify([
    { ...p, max_interactions: 0, max_rounds: 0 },
    linear,
    linearBins,
  ]);
  const kept = binned?.get(binKey) ??
    binFeatures(data, p, linear, linearBins, trRows);
  binned?.set(binKey, kept);
  const { features, coarseOf, boostedBins, binsAll, binMeans } = kept;
  const prepared: Prepared = {
    data,
    p,
    regression,
    classes,
    K,
    nTrain,
    nVal,
    pool,
    trRows,
    linear,
    link: regression ? link : "identity",
    judged,
    features,
    coarseOf,
    boostedBins,
    binsAll,
    binMeans,
    overall: null as unknown as Bag,
    intercept: [],
    // A bag of a wide table costs as many rows of WIDE_FEATURES features.
    bags: bagCount(
      p.estimators,
      nTrain * Math.max(1, data.encoder.features.length / WIDE_FEATURES),
    ),
    drawn: sampleCount(p.max_samples, nTrain),
    pairsWanted: p.max_interaction_degree >= 2 && features.length >= 2
      ? p.max_interactions
      : 0,
    rows,
    greedy,
    reuseKey: JSON.stringify([
      { ...p, max_interactions: 0 },
      linear,
      linearBins,
      judged,
      greedy,
      rows !== null,
      link,
    ]),
  };
  const overall = bagOf(prepared, trRows, pool.subarray(nTrain));
  prepared.overall = overall;
  // Intercept = log prior (smoothed so a rare class cannot give -Infinity);
  // regression: the mean target (with the log link, the mean log target).
  const prior = new Float64Array(classes.length);
  for (const y of overall.yTr) prior[y]++;
  prepared.intercept = regression
    ? [overall.vTr.reduce((a, b) => a + b, 0) / nTrain]
    : K === 1
    ? [Math.log((prior[1] + 0.5) / (prior[0] + 0.5))]
    : Array.from(prior, (c) => Math.log((c + 0.5) / (nTrain + 0.5 * K)));
  return prepared;
}

/**
 * A fit's bins, as {@link prepare} makes them from the training rows: every
 * feature's bins (refined for a linear start kept at `linearBins`), the
 * boosted bins, every row's bin and the linear start's bin means.
 */
export interface Binned {
  features: FeatureBins[];
  coarseOf: (Uint8Array | null)[];
  boostedBins: number[];
  binsAll: Bins[];
  binMeans: Float64Array[];
}

/**
 * `bins` at and above which an integer code gets a bin per value (see
 * {@link codeBins}): the default, so the smooth-shape candidate (16 bins)
 * and a smaller `bins` given by the user keep their bins.
 */
export const CODE_MIN_BINS = 64;

/**
 * The bins a numeric feature is cut at: `bins`, or one bin per value when
 * its training values look like an integer code: more distinct values
 * than `bins`, all whole numbers, at most
 * {@link MAX_BINS} distinct ones, spanning a range at most twice as
 * many as there are distinct values (codes 1..120, a month count 0..72;
 * not body masses in steps of 25 g, nor counts with a long sparse tail).
 * Schema inference makes such a column a CONTINUOUS number, and quantile
 * bins would merge neighbouring codes whose effects are unrelated (a
 * 120-level code at 64 bins: test R² 0.555 where a bin per value gives
 * 0.85; BENCHMARKS.md, "Table kinds the benchmark lacks"). Not for a
 * date's day number, a trend rather than a code. `sorted`: the training
 * values without the missing ones, sorted (see `sortedAt` in binning.ts).
 *
 * @example
 * ```ts
 * import { codeBins } from "./prepared.ts";
 *
 * const codes = Float64Array.from({ length: 600 }, (_, i) => i % 120).sort();
 * if (codeBins(codes, 64) !== 120) throw new Error("example failed");
 * const grams = Float64Array.from({ length: 600 }, (_, i) => 2700 + 25 * (i % 120)).sort();
 * if (codeBins(grams, 64) !== 64) throw new Error("example failed");
 * if (codeBins(Float64Array.from(codes, (v) => v + 0.5 * (v % 2)).sort(), 64) !== 64) throw new Error("example failed");
 * ```
 */
export function codeBins(sorted: Float64Array, bins: number): number {
  // Distinct values are the changes along the sorted ones.
  let distinct = 0;
  for (let i = 0; i < sorted.length; i++) {
    if (i > 0 && sorted[i] === sorted[i - 1]) continue;
    if (!Number.isInteger(sorted[i]) || ++distinct > MAX_BINS) return bins;
  }
  if (distinct === 0) return bins;
  const range = sorted[sorted.length - 1] - sorted[0] + 1;
  return distinct > bins && range <= 2 * distinct ? distinct : bins;
}

/** The {@link Binned} bins of a fit (see {@link prepare}). */
function binFeatures(
  data: EncodedDataset,
  p: TrainingParams,
  linear: boolean,
  linearBins: number,
  trRows: Uint32Array,
): Binned {
  // With a refined linear start, a numeric feature's bins are its boosted
  // bins cut finer (see LINEAR_BINS): the main terms boost the coarse bins
  // (`coarseOf` maps each bin to its boosted one) and the linear start sets
  // every fine bin.
  const coarseOf: (Uint8Array | null)[] = [];
  // One scratch buffer for every column's training values (see sortedAt).
  let scratch: Float64Array | null = null;
  const features: FeatureBins[] = data.encoder.features.map((f, j) => {
    const column = data.features[j];
    if (f.kind === "numeric") {
      const values = sortedAt(
        column instanceof Float64Array ? column : Float64Array.from(column),
        trRows,
        scratch ??= new Float64Array(trRows.length),
      );
      const bins = numericBins(
        f.name,
        values,
        p.bins >= CODE_MIN_BINS && !f.date ? codeBins(values, p.bins) : p.bins,
        p.binning_strategy,
        p.bin_min_distance,
        true,
      );
      if (!linear || linearBins <= p.bins) {
        coarseOf.push(null);
        return bins;
      }
      const refined = refineBins(
        bins,
        values,
        linearBins,
        p.binning_strategy,
        p.bin_min_distance,
        true,
      );
      coarseOf.push(refined.coarseOf);
      return refined.bins;
    }
    coarseOf.push(null);
    return categoricalBins(
      f,
      gather(
        column instanceof Uint16Array ? column : Uint16Array.from(column),
        trRows,
      ),
    );
  });
  // Bins the main terms boost: a refined feature's coarse ones (its last
  // bin lies in the last coarse bin).
  const boostedBins = features.map((f, j) => {
    const map = coarseOf[j];
    return map ? map[f.nBins - 1] + 1 : f.nBins;
  });
  const binsAll: Bins[] = features.map((b, j) =>
    binColumn(b, data.features[j])
  );
  const binMeans = linear
    ? features.map((f, j) =>
      meanPerBin(f, data.features[j], binsAll[j], trRows)
    )
    : [];
  return { features, coarseOf, boostedBins, binsAll, binMeans };
}

/** The bins a main term boosts of a feature's (fine) bins `cells`. */
export function toBoosted(prep: Prepared, j: number, cells: Bins): Bins {
  const map = prep.coarseOf[j];
  if (!map) return cells;
  const out = new Uint8Array(cells.length);
  for (let i = 0; i < cells.length; i++) out[i] = map[cells[i]];
  return out;
}

/** A bag of the given training, validation and (judged fit) judging rows. */
function bagOf(
  prep: Prepared,
  tr: Uint32Array,
  va: Uint32Array,
  judge: Uint32Array | null = null,
): Bag {
  const { data, regression, K, binsAll, link } = prep;
  const yTr = gather(data.labels, tr), yVa = gather(data.labels, va);
  const values = (rows: Uint32Array) =>
    regression ? gather(data.values!, rows) : new Float64Array(0);
  const vTr = values(tr);
  const objective = makeObjective(
    regression,
    K,
    yTr,
    yVa,
    vTr,
    values(va),
    link,
  );
  return {
    nTrain: tr.length,
    // A fit whose histograms a helper thread shares (see stageRows) reads
    // its training rows' bins on shared memory where they are, no copy.
    trBins: prep.rows !== null && tr.length >= ROW_SPLIT_ROWS
      ? binsAll.map((b) => gatherShared(b, tr))
      : gatherBins(binsAll, tr),
    vaBins: gatherBins(binsAll, va),
    yTr,
    // What the rounds fit: the target, or with the log link its log.
    vTr: objective.vTr,
    objective,
    judge: judge && {
      bins: gatherBins(binsAll, judge),
      objective: makeObjective(
        regression,
        K,
        yTr,
        gather(data.labels, judge),
        vTr,
        values(judge),
        link,
      ),
    },
  };
}

/**
 * {@link gather} of every feature's bins at `rows`, the features' arrays cut
 * from one buffer of each width: a wide table's bag makes two arrays, not
 * one a feature (pd_speech: 751 a bag, each a buffer to make and collect).
 */
function gatherBins(binsAll: Bins[], rows: Uint32Array): Bins[] {
  const n = rows.length;
  const wide = binsAll.filter((b) => b instanceof Uint16Array).length;
  const narrow = new Uint8Array(n * (binsAll.length - wide));
  const broad = new Uint16Array(n * wide);
  let a = 0, w = 0;
  return binsAll.map((col) => {
    const out = col instanceof Uint16Array
      ? broad.subarray(w * n, ++w * n)
      : narrow.subarray(a * n, ++a * n);
    for (let i = 0; i < n; i++) out[i] = col[rows[i]];
    return out;
  });
}

/** {@link gather} of bins into an array on a SharedArrayBuffer. */
function gatherShared(col: Bins, rows: Uint32Array): Bins {
  const n = rows.length;
  const out = col instanceof Uint16Array
    ? new Uint16Array(new SharedArrayBuffer(2 * n))
    : new Uint8Array(new SharedArrayBuffer(n));
  for (let i = 0; i < n; i++) out[i] = col[rows[i]];
  return out;
}

/** A judged fit's validation rows: every other one stops early, the rest judge. */
function halves(va: Uint32Array): [Uint32Array, Uint32Array | null] {
  const judge = va.filter((_, i) => i % 2 === 1);
  return judge.length > 0 ? [va.filter((_, i) => i % 2 === 0), judge] : [
    va,
    null,
  ];
}

/**
 * Bag `b`'s rows. Bag 0 is the dataset's split; bag b > 0 draws its own
 * seeded train/validation split of the training rows (as EBM's outer bags),
 * so the bags together learn from every training row and none from the
 * dataset's validation rows: those stay held out from the averaged model,
 * whose metrics on them are the ones reported (and the ones views on them
 * reproduce). Each trains on at most `drawn` of its training rows.
 */
export function bagData(prep: Prepared, b: number): Bag {
  const { p, nTrain, nVal, pool, trRows, drawn, judged } = prep;
  if (b === 0 && drawn === nTrain && !judged) return prep.overall;
  const rng = createRng((p.seed + 0x9e37 * (b + 1)) >>> 0);
  const held = b === 0 ? nVal : Math.min(nVal, Math.floor(nTrain / 2));
  const rows = b === 0
    ? Uint32Array.from(pool)
    : shuffle(Uint32Array.from(trRows), rng);
  const fitted = rows.length - held;
  let tr = rows.subarray(0, fitted);
  if (drawn < fitted) tr = shuffle(tr.slice(), rng).subarray(0, drawn);
  const va = rows.subarray(fitted);
  return judged
    ? bagOf(prep, tr.slice().sort(), ...halves(va))
    : bagOf(prep, tr.slice().sort(), va);
}

/** A bag's training and validation rows, binned, with its loss. */
export interface Bag {
  nTrain: number;
  trBins: Bins[];
  vaBins: Bins[];
  yTr: Int32Array;
  vTr: Float64Array;
  objective: Objective;
  /** A judged fit's held-out rows (see BagTask.judged); null: the validation rows judge. */
  judge: { bins: Bins[]; objective: Objective } | null;
}

/** A term while training: its feature indices and its score table. */
export interface RawTerm {
  features: number[];
  scores: Float64Array;
  /** Per-cell standard deviation over the bags (null for one bag). */
  spread?: Float64Array | null;
}

/**
 * The mean of a numeric feature's values over the given rows in every bin
 * (bin 0, missing, and empty bins: the overall mean); zeros for a
 * categorical feature.
 */
function meanPerBin(
  f: FeatureBins,
  column: ArrayLike<number>,
  bins: ArrayLike<number>,
  rows: Uint32Array,
): Float64Array {
  const sum = new Float64Array(f.nBins), count = new Float64Array(f.nBins);
  if (f.kind !== "numeric") return sum;
  let total = 0, seen = 0;
  for (const r of rows) {
    const b = bins[r];
    if (b === 0) continue;
    sum[b] += column[r];
    count[b]++;
    total += column[r];
    seen++;
  }
  const overall = seen ? total / seen : 0;
  return sum.map((v, b) => (count[b] ? v / count[b] : overall));
}

/**
 * Training rows from which bagging is cut down: a training uses at most
 * `max(1, floor(BAGGING_ROWS / training rows))` of its `estimators` bags,
 * because bagging buys most on small data (where a single fit is noisy) and
 * costs a full training per bag.
 */
export const BAGGING_ROWS = 100_000;

/**
 * Features up to which a bag costs its rows (see {@link bagCount}); beyond,
 * `rows * features / WIDE_FEATURES`, since every round passes over every
 * feature's rows: a wide table (grants: 1,502 columns) runs the bags its
 * cells pay for, not eight full trainings.
 */
export const WIDE_FEATURES = 100;

/**
 * The bags a training runs: `estimators`, at most
 * `floor(BAGGING_ROWS / nTrain)` (at least 1).
 *
 * @example
 * ```ts
 * import { bagCount } from "./prepared.ts";
 * if (!(bagCount(8, 4_000) === 8 && bagCount(8, 30_000) === 3 && bagCount(8, 1e6) === 1)) throw new Error("example failed");
 * ```
 */
export function bagCount(estimators: number, nTrain: number): number {
  return Math.max(1, Math.min(estimators, Math.floor(BAGGING_ROWS / nTrain)));
}

/**
 * Training rows a bag draws: `max_samples` as a fraction (<= 1) of the
 * training rows or as a count (> 1), at least 2 and at most all.
 *
 * @example
 * ```ts
 * import { sampleCount } from "./prepared.ts";
 * if (!(sampleCount(1, 500) === 500 && sampleCount(0.5, 500) === 250 && sampleCount(100, 500) === 100)) throw new Error("example failed");
 * ```
 */
export function sampleCount(maxSamples: number, nTrain: number): number {
  const m = maxSamples <= 1
    ? Math.round(maxSamples * nTrain)
    : Math.floor(maxSamples);
  return Math.max(2, Math.min(nTrain, m));
}
