/**
 * Training of the explainable boosted additive model (DESIGN.md, "The model
 * behind the local platform"): features binned, one shape function per
 * feature learned by cyclic gradient boosting with early stopping on the
 * validation split, then up to `max_interactions` pairwise terms chosen by a
 * FAST-style interaction score and boosted the same way. Binary models have one
 * logit, multi-class models one softmax score per class per bin.
 *
 * The loop is a generator ({@link trainSteps}) that yields after every boosting
 * round, so the same code runs synchronously ({@link train}), in-thread while
 * yielding to the event loop ({@link trainAsync}) or in a worker.
 * Deterministic: the only randomness is seeded (a stream per bag for
 * `subsample` and the bags' splits), so the model is the same whether the
 * bags ran in one thread or half of them on another core
 * ({@link FitOptions.helper}).
 *
 * @example
 * ```ts
 * import { encodeDataset } from "./encoding.ts";
 * import { train } from "./ebm.ts";
 *
 * const x = Array.from({ length: 200 }, (_, i) => i % 20);
 * const y = x.map((v) => (v > 9 ? "hi" : "lo"));
 * const data = encodeDataset({ x, y }, [
 *   { name: "x", data_type: { data_type: "NUMBER" }, designation: "FEATURE", semantic_type: "CONTINUOUS" },
 *   { name: "y", data_type: { data_type: "STRING" }, designation: "TARGET", semantic_type: "CATEGORICAL" },
 * ]);
 * const model = train(data, { max_rounds: 50 });
 * if (!(model.terms[0].name === "x" && model.metrics.validationAuc! > 0.99)) throw new Error("example failed");
 * ```
 *
 * @module
 */

import {
  binColumn,
  categoricalBins,
  numericBins,
  refineBins,
} from "./binning.ts";
import {
  fitCells,
  fitOrderedBins,
  fitPair,
  gradientHistogram,
  type Histogram,
  newHistogram,
  type StepRegularisation,
} from "./boost.ts";
import { type EncodedDataset, isRegressionTarget } from "./encoding.ts";
import { ModelDataError } from "./errors.ts";
import { linearStart } from "./linear.ts";
import { importanceOf, metrics } from "./metrics.ts";
import { makeObjective, type Objective } from "./objective.ts";
import { resolveParams, type TrainingParams } from "./params.ts";
import {
  addScores,
  type Bins,
  cellsOf,
  pairCells,
  scoreTerms,
  termCells,
} from "./predictor.ts";
import type { LoggedRound, TrainProgress } from "./progress.ts";
import { createRng, shuffle } from "./rng.ts";
import { ROW_SPLIT_ROWS, type RowHelper, rowSetup, RowSplit } from "./rows.ts";
import { gather, gatherK, ROWS_PER_ROUND, sampleRows } from "./rowsource.ts";
import {
  type EbmModel,
  type FeatureBins,
  type Term,
  VALIDATION_ROWS_LISTED,
  type ValidationSplit,
} from "./types.ts";

export {
  cellsOf,
  rowProbabilities,
  scoreCells,
  termCells,
} from "./predictor.ts";
export { auc, meanAbsoluteError, rSquared } from "./metrics.ts";
export { type LoggedRound, type TrainProgress } from "./progress.ts";
export { ROWS_PER_ROUND } from "./rowsource.ts";

/** Options of {@link train} and {@link trainAsync}. */
export interface FitOptions {
  /**
   * Called with the overall fraction (0..1) and stage name as training
   * advances, and the losses of each logged round.
   */
  onProgress?: (fraction: number, stage: string, logged?: LoggedRound) => void;
  /** Aborting rejects/throws with the signal's reason and stops the work. */
  signal?: AbortSignal;
  /**
   * Runtime cap (the job's `maximum_runtime_seconds`). When reached, boosting
   * stops at the end of the current round and the best model so far is returned
   * with `metrics.stopReason === "deadline"`.
   */
  maximumRuntimeSeconds?: number;
  /**
   * Whether training may compare configurations by inner validation (see
   * {@link selectionAxes}); default true. false: one fit, with the
   * configuration a large table gets (no linear start, `bins`, and
   * {@link FEW_PAIRS} pairs unless `max_interactions` is given).
   */
  search?: boolean;
  /**
   * {@link trainAsync} only: fits bags elsewhere (another core) while this
   * thread fits the others. Bags are seeded one by one, so the model is the
   * same with or without a helper. For a worker's own thread: with it,
   * trainAsync yields to the event loop only to wait for the helper.
   */
  helper?: BagHelper;
  /**
   * {@link trainAsync} only: a helper thread that builds half of every
   * gradient histogram of a fit with one bag on a large table
   * ({@link ROW_SPLIT_ROWS} rows a round or more; see ./rows.ts). The sums
   * are added in another order than in one thread, so the model can differ
   * from the one-thread model in the last bits; it is the same on every run.
   */
  rows?: RowHelper;
}

/**
 * The training loop as a generator: yields a {@link TrainProgress} after each
 * boosting round and returns the {@link EbmModel}. `shouldStop` is polled once a
 * round; when it returns true, training finishes cleanly with what it has.
 *
 * @throws {ModelDataError} When the split leaves no training rows.
 *
 * @example
 * ```ts
 * import { encodeDataset } from "./encoding.ts";
 * import { trainSteps } from "./ebm.ts";
 *
 * const data = encodeDataset({ x: [1, 2, 3, 4, 5, 6], y: ["a", "a", "a", "b", "b", "b"] }, [
 *   { name: "x", data_type: { data_type: "NUMBER" }, designation: "FEATURE", semantic_type: "CONTINUOUS" },
 *   { name: "y", data_type: { data_type: "STRING" }, designation: "TARGET", semantic_type: "CATEGORICAL" },
 * ]);
 * const steps = trainSteps(data, { max_rounds: 3, partition_min_samples: 1 }, () => false);
 * let r = steps.next();
 * while (!r.done) r = steps.next();
 * if (!(r.value.classes.length === 2)) throw new Error("example failed");
 * ```
 */
export function* trainSteps(
  data: EncodedDataset,
  input: Partial<TrainingParams>,
  shouldStop: () => boolean,
  search = true,
): Generator<TrainProgress, EbmModel, void> {
  const steps = searchSteps(data, input, shouldStop, search, null);
  let r = steps.next();
  for (; !r.done; r = steps.next()) {
    // Without a helper nothing is waited for.
    if ("fraction" in r.value) yield r.value;
  }
  return r.value;
}

/**
 * {@link trainSteps} with an optional {@link BagHelper}: then it also yields
 * `{ wait }`, a promise of the helper's bags, and must be resumed with
 * what it resolves to (`next(results)`); see {@link trainAsync}.
 */
function* searchSteps(
  data: EncodedDataset,
  input: Partial<TrainingParams>,
  shouldStop: () => boolean,
  search: boolean,
  helper: BagHelper | null,
  rows: RowHelper | null = null,
): Generator<Step, EbmModel, BagResult[] | undefined> {
  const p = resolveParams(input).params;
  const nTrain = Math.min(data.nRows, Math.round(p.training_size * data.nRows));
  const target = data.encoder.target;
  const axes = selectionAxes(
    p,
    input,
    search ? nTrain : Infinity,
    data.encoder.features.length,
    isRegressionTarget(target)
      ? "regression"
      : target.classes.length === 2
      ? "binary"
      : "multiclass",
  );
  const noPairs = axes.some((x) =>
    x.name === "max_interactions" && x.values.indexOf(0) > 0
  );
  // The no-pairs candidate costs two fits, and with a linear start the
  // linear fit alone one more (see below).
  const fits = 1 + axes.reduce((n, x) => n + x.values.length - 1, 0) +
    (noPairs ? 2 : 0);
  let chosen: Candidate = {
    bins: p.bins,
    max_interactions: p.max_interactions,
    linear: false,
    refined: false,
    boosted: true,
  };
  for (const axis of axes) chosen = withAxis(chosen, axis, 0);
  // Inner validation, one axis at a time from the first values: every
  // candidate trains the same bags (same seed, same rows) and is judged by
  // each bag's loss on its own held-out rows. A more complex alternative
  // (finer shapes, more pairs) must win significantly (see `improves`); a
  // neutral one (the linear start, or keeping it refined), by any margin.
  // The learning curve reported is the first fit's (the search's starting
  // configuration), live while it trains: a job shows its curve as it runs,
  // one point per logged round.
  // Each bag ranks its own pairs during the search, so its held-out rows
  // judge pairs they did not choose; unless the winner's bags agreed on
  // their pairs, it is fitted once more with the pairs of the dataset's own
  // split (bag 0) shared by every bag, the one model the bags can average.
  // No pairs at all is judged apart: the rows that stop a fit early would
  // favour the incumbent's extra stages (pairs, backfit), which can only
  // lower their loss, so the incumbent and the no-pairs candidate are both
  // fitted again, stopping on half of each bag's validation rows and judged
  // on the other half (BagTask.judged). The pairs are kept only when they
  // win significantly there, as any more complex candidate must: on small
  // tables without interactions, pairs that won by a chance margin lost
  // test AUC (bench/model_small.ts).
  const slots = fits === 1 ? 1 : fits + 1;
  let stopped = false;
  let tried = 0;
  const fit = function* (
    candidate: Candidate,
    sharedPairs: boolean,
    judged = false,
  ): Generator<Step, Fitted, BagResult[] | undefined> {
    const from = tried / slots, to = (tried + 1) / slots;
    tried++;
    const steps = fitOnce(
      data,
      {
        ...p,
        bins: candidate.bins,
        max_interactions: candidate.max_interactions,
        max_rounds: candidate.boosted ? p.max_rounds : 0,
      },
      candidate.linear,
      candidate.linear && candidate.refined ? LINEAR_BINS : 0,
      sharedPairs,
      judged,
      () => (stopped ||= shouldStop()),
      helper,
      rows,
    );
    let r = steps.next();
    while (!r.done) {
      if (!("fraction" in r.value)) {
        r = steps.next(yield r.value);
        continue;
      }
      const step = r.value;
      if (slots === 1) yield step;
      else {
        yield {
          fraction: Math.min(0.97, from + (to - from) * step.fraction),
          stage: step.stage,
          ...(tried === 1 && step.logged ? { logged: step.logged } : {}),
        };
      }
      r = steps.next();
    }
    return r.value;
  };
  const tries = function* (): Generator<[Candidate, boolean]> {
    yield [chosen, false];
    for (const axis of axes) {
      // A refined linear start needs one.
      if (axis.name === "refined" && !chosen.linear) continue;
      for (let v = 1; v < axis.values.length; v++) {
        const next = withAxis(chosen, axis, v);
        // Finer shapes or more pairs than the incumbent's are more complex.
        yield [
          next,
          (axis.name === "bins" || axis.name === "max_interactions") &&
          next[axis.name] > chosen[axis.name],
        ];
      }
    }
  };
  let best: Fitted | null = null;
  // Past the deadline, the last candidate that came with a model serves.
  let fallback: { model: EbmModel; candidate: Candidate } | null = null;
  let judgedPairs = false;
  for (const [candidate, complex] of tries()) {
    if (best && stopped) break;
    if (candidate.max_interactions === 0 && chosen.max_interactions > 0) {
      judgedPairs = true;
      const incumbent = yield* fit(chosen, false, true);
      const r = yield* fit(candidate, false, true);
      let judged = incumbent.heldOut;
      if (!stopped && !improves(r.heldOut, incumbent.heldOut, true)) {
        // Refitted below, stopping on all the validation rows.
        best = { model: null, heldOut: r.heldOut };
        chosen = candidate;
        judged = r.heldOut;
      }
      // The linear fit alone (no boosting, no pairs), judged the same way:
      // rounds that lowered the loss of the rows that stopped them by chance
      // are what keeps a boosted model behind logistic regression and ridge
      // on small linear tables. The simpler model, it wins by any margin.
      if (chosen.linear && !stopped) {
        const alone = { ...chosen, max_interactions: 0, boosted: false };
        const l = yield* fit(alone, false, true);
        if (!stopped && improves(judged, l.heldOut, false)) {
          best = { model: null, heldOut: l.heldOut };
          chosen = alone;
        }
      }
      continue;
    }
    const r = yield* fit(candidate, slots === 1);
    if (r.model) fallback = { model: r.model, candidate };
    if (!best || improves(best.heldOut, r.heldOut, complex)) {
      best = r;
      chosen = candidate;
    }
  }
  // The no-pairs comparison's two fits are one candidate.
  const candidates = tried - (judgedPairs ? 1 : 0);
  let model = best!.model;
  if (!model && stopped && fallback) {
    ({ model, candidate: chosen } = fallback);
  }
  if (!model) model = (yield* fit(chosen, true)).model!;
  if (slots > 1) yield { fraction: 1, stage: "finalizing" };
  model.metrics.candidates = candidates;
  model.metrics.linearStart = chosen.linear;
  if (!chosen.boosted) {
    // The linear fit alone: no round ran because the judged rows preferred
    // none (the configured max_rounds stays the model's parameter).
    model.params = { ...model.params, max_rounds: p.max_rounds };
    model.metrics.stopReason = "early_stopping";
  }
  if (chosen.linear && chosen.refined) model.metrics.linearBins = LINEAR_BINS;
  model.validation = validationSplit(data, p);
  return model;
}

/**
 * The rows the metrics validated on (see `bagFitter`: the dataset's split,
 * which no bag trains on), as datasource row indices.
 */
function validationSplit(
  data: EncodedDataset,
  p: TrainingParams,
): ValidationSplit {
  const n = data.nRows;
  const nTrain = Math.min(n, Math.round(p.training_size * n));
  const nVal = Math.min(n - nTrain, Math.round(p.validation_size * n));
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

/** One-sided 95% quantiles of Student's t for 1..10 degrees of freedom. */
const T_95 = [
  6.314,
  2.92,
  2.353,
  2.132,
  2.015,
  1.943,
  1.895,
  1.86,
  1.833,
  1.812,
];

/**
 * Whether a candidate's held-out losses (one per bag, paired with the
 * incumbent's by bag) beat the incumbent's: by any margin, or for a more
 * `complex` candidate significantly (a one-sided paired t-test over the
 * bags at 5%: the mean gain above t(0.95, bags - 1) standard errors; the
 * bags share rows, so this errs towards the simpler model).
 *
 * @example
 * ```ts
 * import { improves } from "./ebm.ts";
 *
 * if (!improves([1, 1], [0.9, 0.9], true)) throw new Error("example failed");
 * if (improves([1, 1], [0.7, 1.2], true) || !improves([1, 1], [0.7, 1.2], false)) throw new Error("example failed");
 * ```
 */
export function improves(
  incumbent: readonly number[],
  candidate: readonly number[],
  complex: boolean,
): boolean {
  const B = Math.min(incumbent.length, candidate.length);
  const d = Array.from({ length: B }, (_, b) => incumbent[b] - candidate[b]);
  if (!d.every(Number.isFinite) || B === 0) return false;
  const mean = d.reduce((x, y) => x + y, 0) / B;
  if (!complex || B < 2) return mean > 0;
  const sd = Math.sqrt(d.reduce((x, y) => x + (y - mean) ** 2, 0) / (B - 1));
  return mean > (T_95[B - 2] ?? 1.7) * sd / Math.sqrt(B);
}

/** One configuration that training compares by inner validation. */
export interface Candidate {
  bins: number;
  max_interactions: number;
  /** Whether boosting starts from the linear fit (see linear.ts). */
  linear: boolean;
  /** Whether the linear start is kept at {@link LINEAR_BINS} (see `refineBins`). */
  refined: boolean;
  /** False: the linear start alone, no boosting rounds (judged like no pairs). */
  boosted: boolean;
}

/**
 * One axis of the inner-validation search: its values, the first tried
 * first. More bins or more pairs than the incumbent's make a more complex
 * model.
 */
export type SelectionAxis =
  | { name: "bins" | "max_interactions"; values: number[] }
  | { name: "linear" | "refined"; values: boolean[] };

function withAxis(c: Candidate, axis: SelectionAxis, i: number): Candidate {
  return { ...c, [axis.name]: axis.values[i] };
}

/** A trained candidate and its loss on the bags' held-out rows. */
interface Fitted {
  /** Null when the bags chose different pairs (see `fitOnce`). */
  model: EbmModel | null;
  /**
   * Every bag's validation loss (scaled as for early stopping) on its own
   * held-out rows; Infinity without validation rows.
   */
  heldOut: number[];
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
 * Most training rows for which training searches its shapes by inner
 * validation (see {@link selectionAxes}); beyond it one fit runs with fine
 * shapes and few pairs, since on large data fine shapes are what the data
 * supports and each candidate is a full training.
 */
export const SELECTION_ROWS = 20_000;

/**
 * The axes training searches by inner validation, one at a time from the
 * first values: whether to start from the linear fit (binary and regression
 * only), whether to keep it at {@link LINEAR_BINS} (binary only, when `bins`
 * is not given; tried only once the linear start is kept), smooth or fine
 * shapes ({@link SMOOTH_BINS} or `bins`), few, fewest, many or no pairs
 * ({@link FEW_PAIRS}, {@link FEWEST_PAIRS}, `max_interactions` or 0; fewer
 * pairs win by any margin, more must win significantly, see
 * {@link improves}; no pairs is judged on rows that did not stop the fits
 * early, see `BagTask.judged`, and the pairs must beat it significantly
 * there; with the linear start kept, the linear fit alone, no rounds and no
 * pairs, is judged there too and wins by any margin). A parameter given in
 * `input` is not varied. Beyond {@link SELECTION_ROWS} training rows, or
 * without validation rows, there is one candidate: no linear start, `bins`,
 * and few pairs unless `max_interactions` is given.
 *
 * @example
 * ```ts
 * import { resolveParams } from "./params.ts";
 * import { selectionAxes } from "./ebm.ts";
 *
 * const p = resolveParams({}).params;
 * const small = selectionAxes(p, {}, 1_000, 8, "binary");
 * if (small.map((a) => a.values.join("|")).join() !== "false|true,false|true,16|64,10|3|28|0") throw new Error("example failed");
 * const regression = selectionAxes(p, {}, 1_000, 8, "regression");
 * if (regression.map((a) => a.values.length).join() !== "2,1,2,4") throw new Error("example failed");
 * const given = selectionAxes(p, { bins: 32 }, 1_000, 8, "multiclass");
 * if (given.map((a) => a.values.length).join() !== "1,1,1,4") throw new Error("example failed");
 * const large = selectionAxes(p, {}, 500_000, 8, "binary");
 * if (large.map((a) => a.values.join("|")).join() !== "false,false,64,10") throw new Error("example failed");
 * ```
 */
export function selectionAxes(
  p: TrainingParams,
  input: Partial<TrainingParams>,
  nTrain: number,
  nFeatures: number,
  target: "binary" | "regression" | "multiclass",
): SelectionAxis[] {
  const search = nTrain <= SELECTION_ROWS && p.validation_size > 0;
  const possiblePairs = p.max_interaction_degree >= 2
    ? (nFeatures * (nFeatures - 1)) / 2
    : 0;
  const bins = input.bins !== undefined
    ? [p.bins]
    : search
    ? [...new Set([Math.min(p.bins, SMOOTH_BINS), p.bins])]
    : [p.bins];
  const fewPairs = Math.min(p.max_interactions, FEW_PAIRS, possiblePairs);
  const fewest = Math.min(fewPairs, FEWEST_PAIRS);
  const pairs = input.max_interactions !== undefined
    ? [p.max_interactions]
    : search
    ? [
      ...new Set([
        fewPairs,
        fewest,
        Math.min(p.max_interactions, possiblePairs),
        0,
      ]),
    ]
    : [fewPairs];
  const linear = search && target !== "multiclass" ? [false, true] : [false];
  const refined = search && target === "binary" && input.bins === undefined
    ? [false, true]
    : [false];
  return [
    { name: "linear", values: linear },
    { name: "refined", values: refined },
    { name: "bins", values: bins },
    { name: "max_interactions", values: pairs },
  ];
}

/**
 * Bins a numeric feature's linear start may be kept at (a candidate of
 * {@link selectionAxes}; the boosted steps stay at the candidate's bins):
 * the linear fit is a line in the feature's values, and the bins the shapes
 * are boosted on flatten it into steps, most in a skewed feature's wide tail
 * bins, where logistic regression keeps it whole. On the small tables of
 * bench/model_small.ts (8 seeds each) it narrows the gap to logistic
 * regression from -0.0054 to -0.0038 AUC. Binary targets only: on
 * sacramento's prices the coarse tail bins, which cap the line at their
 * mean, score R² 0.6495 where the refined line scores 0.6375 (below ridge's
 * 0.6408); a squared error is ruled by the few rows in the tails, where a
 * logistic score saturates.
 */
export const LINEAR_BINS = 254;

/** Numeric bins of the smooth-shape candidate of {@link selectionAxes}. */
export const SMOOTH_BINS = 16;

/** Pair terms of the few-pairs candidate of {@link selectionAxes}. */
export const FEW_PAIRS = 10;

/**
 * Pair terms of the fewest-pairs candidate of {@link selectionAxes}: where
 * a handful of pairs carry the interactions, the other pairs of the
 * {@link FEW_PAIRS} candidate only fit noise (on interaction-heavy tables
 * of ~5,000 rows, 3 pairs beat 10 by up to 0.007 AUC: bench/model_interactions.ts).
 */
export const FEWEST_PAIRS = 3;

/**
 * Most training rows for which, after the pairs, the main terms are boosted
 * once more on top of them (a backfit): the main terms were fitted without
 * the interactions, so part of an interaction's effect went into them, and
 * the pairs then corrected on top. On the interaction tables of
 * bench/model_interactions.ts it lifts test AUC by up to 0.002 (the public
 * tables gain 0.0002-0.0013); on large data it buys ~0.0005 AUC for a third
 * more training time (100k churn), so it is kept to the tables the
 * inner-validation search covers.
 */
export const BACKFIT_ROWS = SELECTION_ROWS;

/**
 * One fit with fixed parameters: the model and its held-out loss. With
 * `sharedPairs`, bag 0 (the dataset's split) ranks the pairs and every bag
 * boosts those; without, every bag ranks its own on its own training rows,
 * so no bag's held-out rows had a say in its pairs (an honest held-out loss
 * for the search), and the model is null unless the bags chose the same
 * pairs (their tables cannot be averaged otherwise).
 */
function* fitOnce(
  data: EncodedDataset,
  p: TrainingParams,
  withLinearStart: boolean,
  linearBins: number,
  sharedPairs: boolean,
  judged: boolean,
  shouldStop: () => boolean,
  helper: BagHelper | null,
  rows: RowHelper | null,
): Generator<Step, Fitted, BagResult[] | undefined> {
  const fitter = yield* relay(
    bagFitter(data, p, withLinearStart, linearBins, judged, shouldStop, rows),
  );
  const { bags, fitBag, stopped } = fitter;
  // With a helper (another core), both threads take the next bag not yet
  // taken (an atomic counter they share) until none is left: bag 0 is this
  // thread's, the helper starts when it is ready, and neither waits on a
  // slower half. Each bag has its own seed, so the bags come out the same
  // wherever they ran.
  // claims[1]: 0 until the helper takes the task (1), or this thread gives
  // it up (2) because the helper was not ready before the bags ran out.
  const claims = helper && bags > 1
    ? new Int32Array(new SharedArrayBuffer(8))
    : null;
  if (claims) claims[0] = 1;
  const remote = claims
    ? helper!({
      params: p,
      linear: withLinearStart,
      linearBins,
      sharedPairs,
      judged,
      bags,
      claims,
    })
    : null;
  const results: BagResult[] = [];
  for (
    let b = 0;
    b < bags && (b === 0 || !stopped.deadline);
    b = claims ? Atomics.add(claims, 0, 1) : b + 1
  ) {
    results.push(
      yield* relay(fitBag(b, sharedPairs && b > 0 ? results[0].pairs : null)),
    );
  }
  // Given up: its answer (no bags) is not waited for.
  remote?.catch(() => {});
  if (remote && Atomics.compareExchange(claims!, 1, 0, 2) !== 0) {
    // The helper took the task: held by the driver until it answers (see
    // FitOptions.helper).
    results.push(...((yield { wait: remote }) ?? []));
    results.sort((x, y) => x.bag - y.bag);
    // After a deadline, the bags up to the first one missing.
    const gap = results.findIndex((r, i) => r.bag !== i);
    if (gap >= 0) results.length = gap;
  }
  return yield* relay(fitter.combine(results));
}

/** Re-yields a generator's steps inside one that is resumed with values (which it ignores). */
function* relay<T, R>(g: Generator<T, R, void>): Generator<T, R, unknown> {
  let r = g.next();
  while (!r.done) {
    yield r.value;
    r = g.next();
  }
  return r.value;
}

/** One bag's fit: its terms' tables, its pairs, its held-out loss and stages. */
export interface BagResult {
  bag: number;
  terms: RawTerm[];
  pairs: [number, number][];
  heldOut: number;
  mainRounds: number;
  mainStop: string;
  pairRounds: number;
  pairStop: string;
}

/**
 * What a helper is asked: fit bags of one configuration (`params` as
 * resolved, with the candidate's bins and pairs) on the dataset it holds,
 * taking the next bag below `bags` from `claims[0]` (atomically, shared with
 * the training thread) until none is left.
 */
export interface BagTask {
  params: TrainingParams;
  linear: boolean;
  /** Bins the linear start refines numeric features to (0: none; see {@link LINEAR_BINS}). */
  linearBins: number;
  sharedPairs: boolean;
  /**
   * Whether each bag stops early on half of its validation rows and
   * reports its held-out loss on the other half (the search's fits): rows
   * that chose the stopping round would judge a later stage (pairs, the
   * backfit) too kindly, since early stopping keeps only what lowered their
   * loss, so a model with more stages could never lose.
   */
  judged: boolean;
  /** The configuration's bag count. */
  bags: number;
  /**
   * On a SharedArrayBuffer: `claims[0]`, the next bag not yet taken;
   * `claims[1]`, 0 until the helper takes the task (it sets 1) or the
   * training thread gives it up (2: the helper returns no bags).
   */
  claims: Int32Array;
}

/**
 * Fits some of a configuration's bags elsewhere (another Worker, on another
 * core) and resolves with their {@link BagResult}s in bag order: see
 * {@link fitBags}, which the helper runs.
 */
export type BagHelper = (task: BagTask) => Promise<BagResult[]>;

/** What the training generators yield: progress, or a helper's answer to wait for. */
type Step = TrainProgress | { wait: Promise<BagResult[]> };

/**
 * The helper's side of {@link BagHelper}: fits the bags it takes (see
 * {@link BagTask}) on `data`, exactly as training in one thread fits those
 * bags (with shared pairs, the pairs are bag 0's, ranked here again from
 * bag 0's main terms). It takes no bag after a deadline.
 *
 * @example
 * ```ts
 * import { encodeDataset } from "./encoding.ts";
 * import { fitBags } from "./ebm.ts";
 * import { resolveParams } from "./params.ts";
 *
 * const x = Array.from({ length: 300 }, (_, i) => i % 30);
 * const data = encodeDataset({ x, y: x.map((v) => (v > 14 ? "hi" : "lo")) }, [
 *   { name: "x", data_type: { data_type: "NUMBER" }, designation: "FEATURE", semantic_type: "CONTINUOUS" },
 *   { name: "y", data_type: { data_type: "STRING" }, designation: "TARGET", semantic_type: "CATEGORICAL" },
 * ]);
 * const params = resolveParams({ max_rounds: 20 }).params;
 * // Bags 0 and 1 taken elsewhere: this fits 2 and 3.
 * const claims = new Int32Array(new SharedArrayBuffer(8));
 * claims[0] = 2;
 * const r = fitBags(data, { params, linear: false, linearBins: 0, sharedPairs: true, judged: false, bags: 4, claims }, () => false);
 * if (!(r.length === 2 && r[0].bag === 2 && r[1].terms.length === 1 && claims[0] === 5)) throw new Error("example failed");
 * // A task given up before the helper took it fits nothing.
 * const late = Int32Array.of(4, 2);
 * if (fitBags(data, { params, linear: false, linearBins: 0, sharedPairs: true, judged: false, bags: 4, claims: late }, () => false).length !== 0) throw new Error("example failed");
 * ```
 */
export function fitBags(
  data: EncodedDataset,
  task: BagTask,
  shouldStop: () => boolean,
): BagResult[] {
  const steps = (function* () {
    const { fitBag, stopped } = yield* bagFitter(
      data,
      task.params,
      task.linear,
      task.linearBins,
      task.judged,
      shouldStop,
    );
    let shared: [number, number][] | null = null;
    const out: BagResult[] = [];
    // Given up by the training thread (it fitted every bag): nothing to do.
    if (Atomics.compareExchange(task.claims, 1, 0, 1) !== 0) return out;
    while (!stopped.deadline) {
      const b = Atomics.add(task.claims, 0, 1);
      if (b >= task.bags) break;
      if (task.sharedPairs && b > 0 && !shared) {
        shared = (yield* fitBag(0, null, true)).pairs;
      }
      out.push(yield* fitBag(b, b > 0 && task.sharedPairs ? shared : null));
    }
    return out;
  })();
  let r = steps.next();
  while (!r.done) r = steps.next();
  return r.value;
}

/**
 * The parts of one fit with fixed parameters: binning and the dataset's
 * split (`overall`), the bags' count, one bag's fit ({@link BagResult}) and
 * the bags combined into the model.
 */
function* bagFitter(
  data: EncodedDataset,
  p: TrainingParams,
  withLinearStart: boolean,
  linearBins: number,
  judged: boolean,
  shouldStop: () => boolean,
  rows: RowHelper | null = null,
) {
  const regression = isRegressionTarget(data.encoder.target);
  const classes = data.encoder.target.classes;
  const K = regression || classes.length === 2 ? 1 : classes.length;
  const n = data.nRows;
  const nTrain = Math.min(n, Math.round(p.training_size * n));
  const nVal = Math.min(n - nTrain, Math.round(p.validation_size * n));
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
  const linear = withLinearStart && K === 1;
  // With a refined linear start, a numeric feature's bins are its boosted
  // bins cut finer (see LINEAR_BINS): the main terms boost the coarse bins
  // (`coarseOf` maps each bin to its boosted one) and the linear start sets
  // every fine bin.
  const coarseOf: (Uint8Array | null)[] = [];
  const features: FeatureBins[] = data.encoder.features.map((f, j) => {
    const col = gather(data.features[j], trRows);
    if (f.kind === "numeric") {
      const values = col instanceof Float64Array ? col : Float64Array.from(col);
      const bins = numericBins(
        f.name,
        values,
        p.bins,
        p.binning_strategy,
        p.bin_min_distance,
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
      );
      coarseOf.push(refined.coarseOf);
      return refined.bins;
    }
    coarseOf.push(null);
    return categoricalBins(
      f,
      col instanceof Uint16Array ? col : Uint16Array.from(col),
    );
  });
  // Bins the main terms boost: a refined feature's coarse ones (its last
  // bin lies in the last coarse bin).
  const boostedBins = features.map((f, j) => {
    const map = coarseOf[j];
    return map ? map[f.nBins - 1] + 1 : f.nBins;
  });
  const toBoosted = (j: number, cells: Bins): Bins => {
    const map = coarseOf[j];
    if (!map) return cells;
    const out = new Uint8Array(cells.length);
    for (let i = 0; i < cells.length; i++) out[i] = map[cells[i]];
    return out;
  };
  const F = features.length;
  // Every row's bin, once; each bag gathers its rows from these.
  const binsAll: Bins[] = features.map((b, j) =>
    binColumn(b, data.features[j])
  );
  // The linear start (binary and regression): the mean training value of
  // every numeric bin.
  const binMeans = linear
    ? features.map((f, j) =>
      meanPerBin(f, data.features[j], binsAll[j], trRows)
    )
    : [];
  const bagOf = (
    tr: Uint32Array,
    va: Uint32Array,
    judge: Uint32Array | null = null,
  ): Bag => {
    const yTr = gather(data.labels, tr), yVa = gather(data.labels, va);
    const values = (rows: Uint32Array) =>
      regression ? gather(data.values!, rows) : new Float64Array(0);
    const vTr = values(tr);
    return {
      nTrain: tr.length,
      trBins: binsAll.map((b) => gather(b, tr)),
      vaBins: binsAll.map((b) => gather(b, va)),
      yTr,
      vTr,
      objective: makeObjective(regression, K, yTr, yVa, vTr, values(va)),
      judge: judge && {
        bins: binsAll.map((b) => gather(b, judge)),
        objective: makeObjective(
          regression,
          K,
          yTr,
          gather(data.labels, judge),
          vTr,
          values(judge),
        ),
      },
    };
  };
  // The dataset's own split: binning, intercept, pair choice and metrics.
  const overall = bagOf(trRows, pool.subarray(nTrain));
  // A judged fit's validation rows: every other one stops early, the rest judge.
  const halves = (va: Uint32Array): [Uint32Array, Uint32Array | null] => {
    const judge = va.filter((_, i) => i % 2 === 1);
    return judge.length > 0 ? [va.filter((_, i) => i % 2 === 0), judge] : [
      va,
      null,
    ];
  };

  // Intercept = log prior (smoothed so a rare class cannot give -Infinity);
  // regression: the mean target.
  const prior = new Float64Array(classes.length);
  for (const y of overall.yTr) prior[y]++;
  const intercept = regression
    ? [overall.vTr.reduce((a, b) => a + b, 0) / nTrain]
    : K === 1
    ? [Math.log((prior[1] + 0.5) / (prior[0] + 0.5))]
    : Array.from(prior, (c) => Math.log((c + 0.5) / (nTrain + 0.5 * K)));

  const bags = bagCount(p.estimators, nTrain);
  const drawn = sampleCount(p.max_samples, nTrain);
  // Bag 0 is the dataset's split; bag b > 0 draws its own seeded
  // train/validation split of the training rows (as EBM's outer bags), so
  // the bags together learn from every training row and none from the
  // dataset's validation rows: those stay held out from the averaged model,
  // whose metrics on them are the ones reported (and the ones views on them
  // reproduce). Each trains on at most `drawn` of its training rows.
  const bagData = (b: number): Bag => {
    if (b === 0 && drawn === nTrain && !judged) return overall;
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
      ? bagOf(tr.slice().sort(), ...halves(va))
      : bagOf(tr.slice().sort(), va);
  };

  const rate = (bagRows: number) =>
    Math.min(p.subsample, ROWS_PER_ROUND / bagRows);
  const l2 = p.alpha * (1 - p.l1_ratio);
  const reg: StepRegularisation = {
    l1: p.alpha * p.l1_ratio,
    minGain: p.partition_min_delta,
    minGainFraction: p.partition_min_delta_fraction,
  };
  const pairReg: StepRegularisation = {
    ...reg,
    minGain: p.partition_min_delta * p.partition_min_delta_factor,
  };
  const minLeaf = p.partition_min_samples;
  const depthAt = (round: number) =>
    stepDepth(
      p.max_depth_momentum > 0
        ? Math.min(
          p.max_depth,
          Math.max(1, p.init_depth) + Math.floor(round / p.max_depth_momentum),
        )
        : p.max_depth,
      nTrain,
    );
  const pairsWanted = p.max_interaction_degree >= 2 && F >= 2
    ? p.max_interactions
    : 0;
  const stopped = { deadline: false };
  const checkStop = () => (stopped.deadline ||= shouldStop());
  const boosterOf = (b: number): Booster => ({
    K,
    // Each bag its own stream (bag 0's is the seed's own), so a bag's fit
    // does not depend on the bags fitted before it.
    rng: createRng(b === 0 ? p.seed : (p.seed + 0x5bd1 * b) >>> 0),
    maxRounds: p.max_rounds,
    patience: p.early_stopping_patience,
    lr: p.learning_rate,
    lrDecay: p.learning_rate_decay,
    lrPatience: p.learning_rate_patience,
    pruneThreshold: p.prune_threshold,
    prunePatience: p.prune_patience,
    logInterval: p.log_interval,
    checkStop,
    rows: bags === 1 ? rows : null,
  });
  const constant = (m: number, values: number[]) => {
    const out = new Float64Array(m * K);
    for (let i = 0; i < m; i++) {
      for (let k = 0; k < K; k++) out[i * K + k] = values[k];
    }
    return out;
  };

  // Progress: bag b owns [0.92 b / bags, 0.92 (b + 1) / bags]; inside it,
  // main terms take the first part, pairs the rest.
  const mainPart = pairsWanted > 0 ? 0.6 : 1;
  const at = (b: number, f: number) => (0.92 * (b + f)) / bags;
  const span = (b: number, from: number, to: number) => ({
    from: at(b, from),
    to: at(b, to),
  });
  // ---- one bag: main terms, then pairs on top of them, then the main
  // terms again (the backfit). `given`: the pairs to boost (bag 0's, when
  // the bags share them); null: the bag ranks its own (bag 0 on the
  // dataset's split). `rankOnly`: return once the pairs are ranked.
  const fitBag = function* (
    b: number,
    given: [number, number][] | null,
    rankOnly = false,
  ): Generator<TrainProgress, BagResult, void> {
    const booster = boosterOf(b);
    let pairs: [number, number][] = given ?? [];
    let pairRounds = 0, pairStop = "none";
    const bag = bagData(b);
    const nVa = bag.objective.yVa.length;
    // The linear start's scores are outside the boosting stage (its base);
    // its tables join the main terms' afterwards.
    const start = linear
      ? linearStart({
        kinds: features.map((f) => f.kind),
        nBins: features.map((f) => f.nBins),
        binMeans,
        bins: bag.trBins,
        target: {
          kind: regression ? "squared" : "logistic",
          values: bag.vTr,
          labels: bag.yTr,
        },
        base: intercept[0],
      })
      : null;
    const startTr = constant(bag.nTrain, intercept);
    const startVa = constant(nVa, intercept);
    // Adds the linear start's scores to a bag's training and validation scores.
    const withStart = (tr: Float64Array, va: Float64Array) => {
      start?.tables.forEach((t, j) => {
        addScores(tr, bag.trBins[j], t, 1);
        addScores(va, bag.vaBins[j], t, 1);
      });
    };
    withStart(startTr, startVa);
    const mainTerms: StageTerm[] = features.map((f, j) => {
      const nBins = boostedBins[j];
      const step = new Float64Array(nBins);
      return {
        cellsTr: toBoosted(j, bag.trBins[j]),
        cellsVa: toBoosted(j, bag.vaBins[j]),
        table: new Float64Array(nBins * K),
        hist: newHistogram(nBins, K),
        fit: (hist, k, out, lr, round) => {
          fitOrderedBins(
            hist,
            K,
            k,
            nBins,
            f.kind === "categorical",
            depthAt(round),
            minLeaf,
            l2,
            lr,
            step,
            reg,
          );
          for (let q = 0; q < nBins; q++) out[q * K + k] = step[q];
        },
      };
    });
    const main = yield* boostStage(
      booster,
      bag,
      rate(bag.nTrain),
      mainTerms,
      startTr,
      startVa,
      {
        stage: "training",
        ...span(b, 0, mainPart),
        roundOffset: 0,
        log: b === 0,
      },
    );
    const mainRounds = main.rounds;
    // A main term's table: its boosted steps, on every (refined) bin, plus
    // the linear start.
    const mainScores = (j: number): Float64Array => {
      const t = mainTerms[j].table, map = coarseOf[j];
      const out = map
        ? Float64Array.from(
          { length: map.length * K },
          (_, i) => t[map[Math.floor(i / K)] * K + (i % K)],
        )
        : t.slice();
      if (start) addInto(out, start.tables[j]);
      return out;
    };
    const own: RawTerm[] = mainTerms.map((_, j) => ({
      features: [j],
      scores: mainScores(j),
    }));
    if (pairsWanted > 0 && !stopped.deadline) {
      if (given === null) {
        yield { fraction: at(b, mainPart), stage: "interactions" };
        pairs = yield* rankPairs(
          features,
          b === 0 ? overall : bag,
          own,
          intercept,
          K,
          minLeaf,
          l2,
          pairsWanted,
          booster.rng,
          at(b, mainPart),
          at(b, mainPart + 0.1),
        );
      }
      if (rankOnly) {
        return {
          bag: b,
          terms: own,
          pairs,
          heldOut: Infinity,
          mainRounds,
          mainStop: main.stop,
          pairRounds,
          pairStop,
        };
      }
      const baseTr = scoreTerms(
        own,
        cellsOf(features, own, bag.trBins),
        intercept,
        K,
        new Float64Array(bag.nTrain * K),
      );
      const baseVa = scoreTerms(
        own,
        cellsOf(features, own, bag.vaBins),
        intercept,
        K,
        new Float64Array(bag.objective.yVa.length * K),
      );
      const stage: StageTerm[] = pairs.map(([a, c]) => {
        const P0 = features[a].pairBins, P1 = features[c].pairBins;
        const cells = P0 * P1;
        const step = new Float64Array(cells);
        const perCell = nTrain >= PER_CELL_ROWS * cells;
        return {
          cellsTr: pairCells(features, a, c, bag.trBins),
          cellsVa: pairCells(features, a, c, bag.vaBins),
          table: new Float64Array(cells * K),
          hist: newHistogram(cells, K),
          fit: (hist, k, out, lr) => {
            if (perCell) {
              fitCells(hist, K, k, cells, minLeaf, l2, lr, step, pairReg);
            } else {
              fitPair(hist, K, k, P0, P1, minLeaf, l2, lr, step, pairReg);
            }
            for (let q = 0; q < cells; q++) out[q * K + k] = step[q];
          },
        };
      });
      if (stage.length > 0) {
        const done = yield* boostStage(
          booster,
          bag,
          rate(bag.nTrain),
          stage,
          baseTr,
          baseVa,
          {
            stage: "training_pairs",
            ...span(b, mainPart + 0.1, 1),
            roundOffset: mainRounds,
            log: b === 0,
          },
        );
        pairRounds = done.rounds;
        pairStop = done.stop;
        pairs.forEach((pair, t) =>
          own.push({ features: pair, scores: stage[t].table })
        );
        // The backfit: mains again, on top of the pairs, with early
        // stopping from where they are (it cannot end worse on validation).
        if (nTrain <= BACKFIT_ROWS && !stopped.deadline) {
          const pairTerms = own.slice(F);
          const onPairs = (bins: Bins[], m: number) =>
            scoreTerms(
              pairTerms,
              cellsOf(features, pairTerms, bins),
              intercept,
              K,
              new Float64Array(m * K),
            );
          // The linear start stays in the base, as in the first pass.
          const trNow = onPairs(bag.trBins, bag.nTrain);
          const vaNow = onPairs(bag.vaBins, nVa);
          withStart(trNow, vaNow);
          mainTerms.forEach((t) => addScores(vaNow, t.cellsVa, t.table, K));
          yield* boostStage(
            booster,
            bag,
            rate(bag.nTrain),
            mainTerms,
            trNow,
            vaNow,
            {
              stage: "training_pairs",
              ...span(b, 1, 1),
              roundOffset: mainRounds + pairRounds,
              log: false,
            },
          );
          mainTerms.forEach((_, j) => (own[j].scores = mainScores(j)));
        }
      }
    }
    const judge = bag.judge ?? { bins: bag.vaBins, objective: bag.objective };
    const nJudge = judge.objective.yVa.length;
    const heldOut = nJudge > 0
      ? judge.objective.scale(
        judge.objective.validationLoss(scoreTerms(
          own,
          cellsOf(features, own, judge.bins),
          intercept,
          K,
          new Float64Array(nJudge * K),
        )),
      )
      : Infinity;
    return {
      bag: b,
      terms: own,
      pairs,
      heldOut,
      mainRounds,
      mainStop: main.stop,
      pairRounds,
      pairStop,
    };
  };
  return { bags, fitBag, stopped, combine };

  /** The bags' fits (bag order, from 0) combined: the model and every bag's held-out loss. */
  function* combine(
    results: BagResult[],
  ): Generator<TrainProgress, Fitted, void> {
    const heldOut = results.map((r) => r.heldOut);
    const bagTerms = results.map((r) => r.terms);
    const bagPairs = new Set(results.map((r) => JSON.stringify(r.pairs)));
    const mainRounds = Math.max(...results.map((r) => r.mainRounds));
    const pairRounds = Math.max(...results.map((r) => r.pairRounds));
    const { mainStop, pairStop } = results[0];
    if (bagPairs.size > 1) return { model: null, heldOut };
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
          stopReason: stopped.deadline
            ? "deadline"
            : pairsWanted > 0
            ? pairStop
            : mainStop,
          estimators: bagTerms.length,
        },
      ),
    };
    yield { fraction: 1, stage: "finalizing" };
    return { model, heldOut };
  }
}

/**
 * Training rows the main terms' step tree gets one more level for: up to
 * this many rows a step is a tree of `max_depth`; every doubling beyond adds
 * a level (at most 8), because large data supports a finer step and a finer
 * step needs fewer rounds.
 */
export const ROWS_PER_DEPTH = 5_000;

/**
 * Average training rows per cell from which a pair term's step gives every
 * cell its own (shrunk, regularised) Newton step instead of a 4-leaf tree.
 */
export const PER_CELL_ROWS = 100;

/**
 * The depth of the main terms' step tree for `nTrain` training rows (see
 * {@link ROWS_PER_DEPTH}).
 *
 * @example
 * ```ts
 * import { stepDepth } from "./ebm.ts";
 *
 * if (!(stepDepth(2, 4_000) === 2 && stepDepth(2, 20_000) === 4 && stepDepth(2, 1e7) === 8)) throw new Error("example failed");
 * ```
 */
export function stepDepth(maxDepth: number, nTrain: number): number {
  const extra = Math.floor(Math.log2(Math.max(1, nTrain / ROWS_PER_DEPTH)));
  return Math.min(8, maxDepth + extra);
}

/**
 * Training rows from which bagging is cut down: a training uses at most
 * `max(1, floor(BAGGING_ROWS / training rows))` of its `estimators` bags,
 * because bagging buys most on small data (where a single fit is noisy) and
 * costs a full training per bag.
 */
export const BAGGING_ROWS = 100_000;

/**
 * The bags a training runs: `estimators`, at most
 * `floor(BAGGING_ROWS / nTrain)` (at least 1).
 *
 * @example
 * ```ts
 * import { bagCount } from "./ebm.ts";
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
 * import { sampleCount } from "./ebm.ts";
 * if (!(sampleCount(1, 500) === 500 && sampleCount(0.5, 500) === 250 && sampleCount(100, 500) === 100)) throw new Error("example failed");
 * ```
 */
export function sampleCount(maxSamples: number, nTrain: number): number {
  const m = maxSamples <= 1
    ? Math.round(maxSamples * nTrain)
    : Math.floor(maxSamples);
  return Math.max(2, Math.min(nTrain, m));
}

/** A bag's training and validation rows, binned, with its loss. */
interface Bag {
  nTrain: number;
  trBins: Bins[];
  vaBins: Bins[];
  yTr: Int32Array;
  vTr: Float64Array;
  objective: Objective;
  /** A judged fit's held-out rows (see BagTask.judged); null: the validation rows judge. */
  judge: { bins: Bins[]; objective: Objective } | null;
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
 */
function mergeBags(
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

/**
 * FAST: ranks every pair by the gain of a 2-level tree on the residuals of
 * the main terms (on at most ROWS_PER_ROUND rows, seeded) and returns the
 * best `wanted` pairs.
 */
function* rankPairs(
  features: FeatureBins[],
  bag: Bag,
  terms: RawTerm[],
  intercept: number[],
  K: number,
  minLeaf: number,
  lambda: number,
  wanted: number,
  rng: () => number,
  from: number,
  to: number,
): Generator<TrainProgress, [number, number][], void> {
  const F = features.length;
  const rows = sampleRows(bag.nTrain, ROWS_PER_ROUND / bag.nTrain, rng);
  const binsS = rows ? bag.trBins.map((b) => gather(b, rows)) : bag.trBins;
  const m = rows ? rows.length : bag.nTrain;
  const sS = scoreTerms(
    terms,
    cellsOf(features, terms, binsS),
    intercept,
    K,
    new Float64Array(m * K),
  );
  const yS = rows ? gather(bag.yTr, rows) : bag.yTr;
  const vS = rows && bag.vTr.length ? gather(bag.vTr, rows) : bag.vTr;
  const ranked: { pair: [number, number]; gain: number }[] = [];
  for (let a = 0; a < F; a++) {
    for (let c = a + 1; c < F; c++) {
      const P0 = features[a].pairBins, P1 = features[c].pairBins;
      const pairHist = newHistogram(P0 * P1, K);
      gradientHistogram(
        bag.objective.loss,
        K,
        sS,
        yS,
        vS,
        termCells(features, [a, c], binsS),
        m,
        pairHist,
        null,
        null,
      );
      const scratch = new Float64Array(P0 * P1);
      let gain = 0;
      for (let k = 0; k < K; k++) {
        gain += fitPair(pairHist, K, k, P0, P1, minLeaf, lambda, 1, scratch);
      }
      if (gain > 0) ranked.push({ pair: [a, c], gain });
    }
    yield {
      fraction: from + ((to - from) * (a + 1)) / F,
      stage: "interactions",
    };
  }
  ranked.sort((x, y) =>
    y.gain - x.gain || x.pair[0] - y.pair[0] || x.pair[1] - y.pair[1]
  );
  return ranked.slice(0, wanted).map((r) => r.pair);
}

/** One term of a boosting stage: its cells on the training and validation rows, its table and how to fit a step. */
interface StageTerm {
  cellsTr: Bins;
  cellsVa: Bins;
  /** Score table, K values per cell; boosted in place. */
  table: Float64Array;
  hist: Histogram;
  /** Writes the step for score column `k` into `out[cell * K + k]`, at learning rate `lr` in round `round` (from 0). */
  fit(
    hist: Histogram,
    k: number,
    out: Float64Array,
    lr: number,
    round: number,
  ): void;
}

/** What every boosting stage shares. */
interface Booster {
  K: number;
  rng: () => number;
  maxRounds: number;
  patience: number;
  /** Learning rate at the start of a stage. */
  lr: number;
  /** Multiplier of the learning rate after `lrPatience` rounds without a new best (1 = none). */
  lrDecay: number;
  /** 0 = no learning-rate schedule. */
  lrPatience: number;
  /** Importance under which a term counts as prunable (0 = no pruning). */
  pruneThreshold: number;
  /** Rounds a term must stay prunable before it stops being boosted (0 = prune only at the end). */
  prunePatience: number;
  logInterval: number;
  checkStop: () => boolean;
  /** A helper thread that builds half of each histogram (a fit with one bag), or null. */
  rows: RowHelper | null;
}

/**
 * Cyclic boosting of a stage's terms (the main terms, or the pairs on top of
 * the frozen main terms): every round fits one step per term in turn, each on
 * the gradients after the previous term's step, with early stopping on the
 * validation loss (the tables are restored to their best round). `baseTr` and
 * `sVa` are the scores of everything outside the stage; `sVa` is updated in
 * place. The learning rate decays on plateaus (`lrDecay` after `lrPatience`
 * rounds without a new best); with `prunePatience`, a term whose importance
 * stays under `pruneThreshold` that many rounds stops being boosted.
 */
function* boostStage(
  b: Booster,
  bag: Bag,
  rate: number,
  terms: StageTerm[],
  baseTr: Float64Array,
  sVa: Float64Array,
  progress: {
    stage: string;
    from: number;
    to: number;
    roundOffset: number;
    /** Whether its rounds go to the learning curve (bag 0's do, the others' not). */
    log: boolean;
  },
): Generator<TrainProgress, { rounds: number; stop: string }, void> {
  const { K } = b;
  const { objective } = bag;
  const hasValidation = objective.yVa.length > 0;
  const tables = terms.map((t) => t.table);
  const early = earlyStopper(b.patience, hasValidation);
  early.observe(hasValidation ? objective.scaled(sVa) : 0, tables);
  const maxCells = Math.max(1, ...tables.map((t) => t.length));
  const updates = terms.map(() => new Float64Array(maxCells));
  // Without sampling the training scores are kept up to date for all rows.
  // (Terms may start from non-zero tables: a later stage boosts them again.)
  let sAll: Float64Array | null = rate >= 1 ? baseTr.slice() : null;
  if (sAll) terms.forEach((t) => addScores(sAll!, t.cellsTr, t.table, K));
  const below = new Int32Array(terms.length);
  const frozen = new Uint8Array(terms.length);
  let lr = b.lr;
  let rounds = 0;
  // A large fit with a helper thread: each histogram is built half here,
  // half there, from rows on SharedArrayBuffers (see ./rows.ts).
  const split = b.rows && Math.min(1, rate) * bag.nTrain >= ROW_SPLIT_ROWS
    ? new RowSplit(
      rowSetup(
        objective.loss,
        K,
        bag.nTrain,
        maxCells,
        terms.map((t) => ({
          cells: t.hist.C.length,
          wide: t.cellsTr instanceof Uint16Array,
        })),
        objective.regression,
        sAll === null,
      ),
      b.rows,
    )
    : null;
  const from = split?.setup.from;
  if (from) {
    terms.forEach((t, j) => from.cells[j].set(t.cellsTr));
    if (from.y.length) from.y.set(bag.yTr);
    if (from.v.length) from.v.set(bag.vTr);
    from.base.set(baseTr);
  }
  if (split && sAll) {
    const { setup } = split;
    setup.s.set(sAll);
    sAll = setup.s;
    terms.forEach((t, j) => setup.cells[j].set(t.cellsTr));
    if (setup.y.length) setup.y.set(bag.yTr);
    if (setup.v.length) setup.v.set(bag.vTr);
  }
  try {
    return yield* boostRounds();
  } finally {
    split?.close();
  }

  function* boostRounds(): Generator<
    TrainProgress,
    { rounds: number; stop: string },
    void
  > {
    for (let round = 0; round < b.maxRounds; round++) {
      const rows = sAll
        ? null
        : sampleRows(bag.nTrain, rate, b.rng, from?.rows);
      const m = rows ? rows.length : bag.nTrain;
      let cells: ArrayLike<number>[], y: Int32Array, v: Float64Array;
      let s: Float64Array;
      if (sAll) {
        s = sAll, y = bag.yTr, v = bag.vTr;
        cells = terms.map((t) => t.cellsTr);
      } else if (from) {
        // Both threads gather the round's rows (see ./rows.ts).
        terms.forEach((t, j) => from.tables[j].set(t.table));
        split!.gather(m);
        const { setup } = split!;
        cells = setup.cells.map((c) => c.subarray(0, m));
        y = setup.y.length ? setup.y.subarray(0, m) : bag.yTr;
        v = setup.v.length ? setup.v.subarray(0, m) : bag.vTr;
        s = setup.s.subarray(0, m * K);
      } else {
        cells = terms.map((t) => gather(t.cellsTr, rows!));
        y = gather(bag.yTr, rows!);
        v = bag.vTr.length ? gather(bag.vTr, rows!) : bag.vTr;
        s = gatherK(baseTr, rows!, K);
        terms.forEach((t, j) => addScores(s, cells[j], t.table, K));
      }
      let pending = -1;
      for (let j = 0; j < terms.length; j++) {
        if (frozen[j]) continue;
        const t = terms[j];
        // Every row every round: the counts of the first round stay right.
        const counted = sAll !== null && round > 0;
        if (split) {
          split.build(
            j,
            pending,
            pending >= 0 ? updates[pending] : null,
            m,
            counted,
            t.hist,
          );
        } else {
          gradientHistogram(
            objective.loss,
            K,
            s,
            y,
            v,
            cells[j],
            m,
            t.hist,
            pending >= 0 ? cells[pending] : null,
            pending >= 0 ? updates[pending] : null,
            counted,
          );
        }
        const u = updates[j];
        for (let k = 0; k < K; k++) t.fit(t.hist, k, u, lr, round);
        addInto(t.table, u);
        addScores(sVa, t.cellsVa, u, K);
        pending = j;
        if (b.prunePatience > 0 && b.pruneThreshold > 0) {
          below[j] = importanceOf(t.table, t.hist.C, K) < b.pruneThreshold
            ? below[j] + 1
            : 0;
          if (below[j] >= b.prunePatience) frozen[j] = 1;
        }
      }
      if (pending >= 0) addScores(s, cells[pending], updates[pending], K);
      rounds = round + 1;
      const validationLoss = hasValidation ? objective.validationLoss(sVa) : 0;
      const done = early.observe(objective.scale(validationLoss), tables);
      if (
        b.lrPatience > 0 && early.since > 0 && early.since % b.lrPatience === 0
      ) lr *= b.lrDecay;
      if (rounds % b.logInterval === 0 && !progress.log) {
        yield {
          fraction: progress.from +
            ((progress.to - progress.from) * rounds) / b.maxRounds,
          stage: progress.stage,
        };
      } else if (rounds % b.logInterval === 0) {
        yield {
          fraction: progress.from +
            ((progress.to - progress.from) * rounds) / b.maxRounds,
          stage: progress.stage,
          logged: {
            round: progress.roundOffset + rounds,
            stage: progress.stage,
            trainingLoss: objective.lossOf(s, y, v),
            validationLoss: hasValidation ? validationLoss : null,
          },
        };
      }
      if (done || b.checkStop()) break;
    }
    const stop = early.stoppedEarly
      ? "early_stopping"
      : rounds < b.maxRounds
      ? "deadline"
      : "max_rounds";
    early.restore(tables);
    // A frozen term is pruned: its table goes back to zero.
    frozen.forEach((f, j) => f && tables[j].fill(0));
    return { rounds, stop };
  }
}

/** A term while training: its feature indices and its score table. */
interface RawTerm {
  features: number[];
  scores: Float64Array;
  /** Per-cell standard deviation over the bags (null for one bag). */
  spread?: Float64Array | null;
}

/** Adds `update` to `table` (the update may be longer: only the table's cells count). */
function addInto(table: Float64Array, update: Float64Array): void {
  for (let q = 0; q < table.length; q++) table[q] += update[q];
}

/**
 * Improvement of the best validation loss that the last
 * `early_stopping_patience` rounds must make for boosting to go on, as a
 * fraction of the stage's starting loss: below it, the curve has flattened
 * and more rounds buy nothing (on large data a validation loss can creep
 * down by 1e-6 a round for thousands of rounds).
 */
export const EARLY_STOPPING_TOLERANCE = 1e-4;

/**
 * The smallest starting loss {@link EARLY_STOPPING_TOLERANCE} is a fraction
 * of: a stage that starts near zero loss (a nearly separable table, as
 * penguins after its main terms) would otherwise need improvements of a
 * few 1e-6 to stop, which the log-loss of growing margins always makes
 * (penguins' pairs ran all 1,000 rounds; now 559, the same test AUC).
 */
export const EARLY_STOPPING_LOSS_FLOOR = 0.1;

/**
 * Tracks the best validation loss and a snapshot of the tables at that
 * point. Stops after `patience` rounds without a new best, or when the best
 * improved by less than {@link EARLY_STOPPING_TOLERANCE} times the starting
 * loss (at least {@link EARLY_STOPPING_LOSS_FLOOR}) over the last
 * `patience` rounds.
 */
function earlyStopper(patience: number, enabled: boolean) {
  let best = Infinity, first = 0;
  const history: number[] = [];
  let snapshot: Float64Array[] | null = null;
  return {
    stoppedEarly: false,
    /** Rounds since the last new best. */
    since: 0,
    observe(loss: number, tables: Float64Array[]): boolean {
      if (!enabled) return false;
      if (loss < best - 1e-7) {
        best = loss;
        this.since = 0;
        snapshot = tables.map((t) => t.slice());
      } else this.since++;
      history.push(best);
      const before = history.length > patience
        ? history[history.length - 1 - patience]
        : Infinity;
      if (history.length === 1) first = Math.abs(loss);
      if (
        this.since >= patience ||
        best > before - EARLY_STOPPING_TOLERANCE *
              Math.max(first, EARLY_STOPPING_LOSS_FLOOR)
      ) this.stoppedEarly = true;
      return this.stoppedEarly;
    },
    restore(tables: Float64Array[]): void {
      if (snapshot) snapshot.forEach((s, i) => tables[i].set(s));
    },
  };
}

/**
 * Purifies the pair terms: moves each pair's mean along every row and
 * column of its table (weighted by the training rows in each cell) into the
 * two features' main terms, a few sweeps, so what one feature does alone is
 * read from its main term and a pair holds only the interaction. No
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
    for (let sweep = 0; sweep < 4; sweep++) {
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
  purify(raw, features, trBins, K);
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
  // Pruning: a term whose importance (mean |score| over the training rows)
  // is under prune_threshold contributes nothing (its scores become 0; the
  // terms are centred, so the bias stays); sparse_model drops every term
  // that contributes nothing from the model.
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
      if (t.spread) t.spread.fill(0);
    }
  }
  const kept = p.sparse_model
    ? terms.filter((t) => t.scores.some((x) => x !== 0))
    : terms;
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

/** Builds the polling functions for an abort signal and a runtime cap. */
function stopChecks(
  options: FitOptions,
): { abort: () => void; deadline: () => boolean } {
  const start = Date.now();
  const cap = options.maximumRuntimeSeconds;
  return {
    abort: () => options.signal?.throwIfAborted(),
    deadline: () => cap !== undefined && Date.now() - start >= cap * 1000,
  };
}

/**
 * Trains synchronously (blocks the thread; use {@link trainAsync} or
 * `trainInBackground` in a server).
 *
 * @throws The signal's reason when `options.signal` aborts; {@link ModelDataError}
 *   when the data cannot be trained on; `ModelParamError` for bad parameters.
 *
 * @example
 * ```ts
 * import { encodeDataset } from "./encoding.ts";
 * import { train } from "./ebm.ts";
 *
 * const c = Array.from({ length: 120 }, (_, i) => ["a", "b", "c"][i % 3]);
 * const data = encodeDataset({ c, y: c.map((v) => v === "a" ? "yes" : "no") }, [
 *   { name: "c", data_type: { data_type: "STRING" }, designation: "FEATURE", semantic_type: "CATEGORICAL" },
 *   { name: "y", data_type: { data_type: "STRING" }, designation: "TARGET", semantic_type: "CATEGORICAL" },
 * ]);
 * let last = 0;
 * const model = train(data, { max_rounds: 30 }, { onProgress: (f) => (last = f) });
 * if (!(last === 1 && model.metrics.validationAccuracy === 1)) throw new Error("example failed");
 * ```
 */
export function train(
  data: EncodedDataset,
  params: Partial<TrainingParams> = {},
  options: FitOptions = {},
): EbmModel {
  const { abort, deadline } = stopChecks(options);
  abort();
  const steps = trainSteps(data, params, deadline, options.search);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    abort();
    options.onProgress?.(r.value.fraction, r.value.stage, r.value.logged);
  }
}

/**
 * Trains in the current thread but yields to the event loop every ~10 ms, so
 * a server stays responsive (the fallback where `Worker` does not exist).
 * Gives exactly the same model as {@link train}.
 *
 * @example
 * ```ts
 * import { encodeDataset } from "./encoding.ts";
 * import { train, trainAsync } from "./ebm.ts";
 *
 * const x = Array.from({ length: 100 }, (_, i) => i);
 * const data = encodeDataset({ x, y: x.map((v) => v % 2 ? "odd" : "even") }, [
 *   { name: "x", data_type: { data_type: "NUMBER" }, designation: "FEATURE", semantic_type: "CONTINUOUS" },
 *   { name: "y", data_type: { data_type: "STRING" }, designation: "TARGET", semantic_type: "CATEGORICAL" },
 * ]);
 * const a = await trainAsync(data, { max_rounds: 10 });
 * if (!(JSON.stringify(a) === JSON.stringify(train(data, { max_rounds: 10 })))) throw new Error("example failed");
 * ```
 */
export async function trainAsync(
  data: EncodedDataset,
  params: Partial<TrainingParams> = {},
  options: FitOptions = {},
): Promise<EbmModel> {
  const { abort, deadline } = stopChecks(options);
  abort();
  const steps = searchSteps(
    data,
    params,
    deadline,
    options.search ?? true,
    options.helper ?? null,
    options.rows ?? null,
  );
  let slice = Date.now();
  let answer: BagResult[] | undefined;
  for (;;) {
    const r = steps.next(answer);
    answer = undefined;
    if (r.done) return r.value;
    if (!("fraction" in r.value)) {
      answer = await r.value.wait;
      abort();
      continue;
    }
    options.onProgress?.(r.value.fraction, r.value.stage, r.value.logged);
    // With a helper (in the training worker), the event loop turns while it
    // waits for the helper; no thread needs it in between.
    if (!options.helper && Date.now() - slice > 10) {
      // A macrotask (not a microtask) so timers and I/O get their turn.
      await new Promise((resolve) => setTimeout(resolve, 0));
      slice = Date.now();
    }
    abort();
  }
}
