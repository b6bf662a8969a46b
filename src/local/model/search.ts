/**
 * The inner-validation search: which configurations (linear start, shapes,
 * pairs) training compares, and how a candidate must beat the incumbent.
 *
 * @module
 */

import {
  type BagHelper,
  type BagResult,
  fitOnce,
  newStageReuse,
  type Step,
} from "./bagging.ts";
import { type EncodedDataset, isRegressionTarget } from "./encoder.ts";
import { skewedPositiveTarget } from "./link.ts";
import { type Fitted, validationSplit } from "./finalize.ts";
import { constraintsOf } from "./constraints.ts";
import { LINEAR_BUDGET } from "./linear.ts";
import type { Link } from "./objective.ts";
import { mixModels, mixWeight } from "./mix.ts";
import { resolveParams, splitSizes, type TrainingParams } from "./params.ts";
import { type Prepared, sampleCount } from "./prepared.ts";
import type { RowHelper } from "./rows.ts";
import type { EbmModel } from "./types.ts";
import { shareEstimators } from "./reuse.ts";

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
 * import { improves } from "./search.ts";
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
  /** Main terms stepped a round by gain; 0: cyclic rounds (see {@link GREEDY_TERMS}). */
  greedy: number;
  /** Regression: whether the rounds fit the target or its log (see {@link Link}). */
  link: Link;
}

/**
 * One axis of the inner-validation search: its values, the first tried
 * first. More bins or more pairs than the incumbent's make a more complex
 * model.
 */
export type SelectionAxis =
  | { name: "bins" | "max_interactions" | "greedy"; values: number[] }
  | { name: "linear" | "refined"; values: boolean[] }
  | { name: "link"; values: Link[] };

function withAxis(c: Candidate, axis: SelectionAxis, i: number): Candidate {
  return { ...c, [axis.name]: axis.values[i] };
}

/**
 * Most training rows for which training searches its shapes by inner
 * validation (see {@link selectionAxes}); beyond it one fit runs with fine
 * shapes and few pairs, since on large data fine shapes are what the data
 * supports and each candidate is a full training.
 */
export const SELECTION_ROWS = 20_000;

/**
 * Most training cells (rows times features) for which training searches by
 * inner validation, as {@link SELECTION_ROWS} bounds the rows: each
 * candidate is a full training whose every round costs a pass over every
 * feature's rows, so a wide table (grants: 5,600 training rows of 1,502
 * columns) gets the one configuration a large table gets, fitted twice:
 * with cyclic and with greedy rounds, the better kept (see
 * {@link selectionAxes}). 2,000,000 keeps the search of every table up to
 * 100 features at 20,000 rows.
 */
export const SELECTION_CELLS = 2_000_000;

/**
 * The axes training searches by inner validation, one at a time from the
 * first values: whether to start from the linear fit, whether to keep it at {@link LINEAR_BINS} (classification only, when `bins`
 * is not given; tried only once the linear start is kept), smooth or fine
 * shapes ({@link SMOOTH_BINS} or `bins`), few, fewest, many or no pairs
 * ({@link FEW_PAIRS}, {@link FEWEST_PAIRS}, `max_interactions` or 0; fewer
 * pairs win by any margin, more must win significantly, see
 * {@link improves}, and race on their first {@link RACE_BAGS} bags; no pairs is judged on rows that did not stop the fits
 * early, see `BagTask.judged`: pairs that beat it significantly there serve
 * alone, otherwise the model served mixes the pairs model and the no-pairs
 * model at the mean over the bags of each bag's best weight on its judged
 * rows, see `mixWeight` and `mixModels` in mix.ts, no pairs at weight 0;
 * with the linear start kept, the linear fit alone, no rounds and no
 * pairs, is judged there too and wins by any margin). On a wide table
 * (at most {@link WIDE_RATIO} training rows a feature) greedy rounds are
 * tried first ({@link GREEDY_TERMS} main terms a round by gain), judged as
 * the linear start is, by any margin. A parameter given in
 * `input` is not varied. Beyond {@link SELECTION_ROWS} training rows or
 * {@link SELECTION_CELLS} training cells, or
 * without validation rows, there is one candidate: no linear start, `bins`,
 * and few pairs unless `max_interactions` is given, fitted with cyclic and
 * with greedy rounds where only the cells exceed the search's (within
 * {@link SELECTION_ROWS} rows and {@link WIDE_CELLS_RATIO} rows a feature,
 * with validation rows: a table wide for its rows), judged as on a wide
 * table, by any margin (greedy rounds win where
 * a few of many columns carry the signal and lose where hundreds of weak
 * ones do: BENCHMARKS.md, "A wide table beyond the search's cells"), and
 * fitted with either link
 * where the link is tried (two full fits, each sharing its pairs as the one
 * fit does; a log-normal target's effects multiply whatever the table's
 * size: BENCHMARKS.md, "The regression log link"). A regression target
 * whose every training and validation value is positive and that is right
 * skewed there (`skewed`, see {@link skewedPositiveTarget}) is first fitted as it
 * is and with the log link (the rounds fit its log, the model serves `exp`
 * of the score, see `EbmModel.link`), the two judged on the target's own
 * scale (`Objective.rawLoss`) by the log of each bag's loss, the better by
 * any margin kept for the rest of the search, whose candidates are then
 * judged on the loss the kept link boosts: a right-skewed target whose
 * effects multiply is additive in its log, and a fixed transform loses on
 * most tables.
 *
 * @example
 * ```ts
 * import { resolveParams } from "./params.ts";
 * import { selectionAxes } from "./search.ts";
 *
 * const p = resolveParams({}).params;
 * const small = selectionAxes(p, {}, 1_000, 8, "binary");
 * if (small.map((a) => a.values.join("|")).join() !== "false|true,false|true,16|64,10|3|28|0") throw new Error("example failed");
 * const regression = selectionAxes(p, {}, 1_000, 8, "regression");
 * if (regression.map((a) => a.values.length).join() !== "2,1,2,4") throw new Error("example failed");
 * // A right-skewed positive target: the log link is tried first.
 * const positive = selectionAxes(p, {}, 1_000, 8, "regression", true, true);
 * if (positive[0].name !== "link" || positive[0].values.join() !== "identity,log") throw new Error("example failed");
 * const given = selectionAxes(p, { bins: 32 }, 1_000, 8, "multiclass");
 * if (given.map((a) => a.values.length).join() !== "2,1,1,4") throw new Error("example failed");
 * const large = selectionAxes(p, {}, 500_000, 8, "binary");
 * if (large.map((a) => a.values.join("|")).join() !== "false,false,64,10") throw new Error("example failed");
 * // Beyond the search's cells only (grants: 5,569 training rows x 1,467 features): cyclic and greedy rounds.
 * const grants = selectionAxes(p, {}, 5_569, 1_467, "binary");
 * if (grants.map((a) => a.values.join("|")).join() !== "0|1,false,false,64,10") throw new Error("example failed");
 * // Beyond the search's size a skewed positive target still tries the log.
 * const largeSkewed = selectionAxes(p, {}, 500_000, 8, "regression", true, true);
 * if (largeSkewed.map((a) => a.values.join("|")).join() !== "identity|log,false,false,64,10") throw new Error("example failed");
 * // 200 training rows of 100 features: greedy rounds are tried first.
 * const wide = selectionAxes(p, {}, 200, 100, "binary");
 * if (wide.map((a) => a.name).join() !== "greedy,linear,refined,bins,max_interactions" || wide[0].values.join("|") !== "0|1") throw new Error("example failed");
 * ```
 */
export function selectionAxes(
  p: TrainingParams,
  input: Partial<TrainingParams>,
  nTrain: number,
  nFeatures: number,
  target: "binary" | "regression" | "multiclass",
  linearFits = true,
  skewed = false,
): SelectionAxis[] {
  const search = nTrain <= SELECTION_ROWS &&
    nTrain * nFeatures <= SELECTION_CELLS && p.validation_size > 0;
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
  const linear = search && linearFits ? [false, true] : [false];
  const refined = search && target !== "regression" && input.bins === undefined
    ? [false, true]
    : [false];
  const wide = search && nFeatures * WIDE_RATIO >= nTrain;
  // Beyond the search's cells but not its rows: a table wide for its rows.
  const wideCells = !search && nTrain <= SELECTION_ROWS &&
    nTrain <= nFeatures * WIDE_CELLS_RATIO && p.validation_size > 0;
  // Beyond the search's size the link is still chosen: two fits of the
  // large table, where a fixed transform would lose on most tables
  // (`nTrain` Infinity: the caller turned the search off).
  const link = target === "regression" && skewed && p.validation_size > 0 &&
    Number.isFinite(nTrain);
  return [
    ...(link
      ? [{ name: "link" as const, values: ["identity", "log"] as Link[] }]
      : []),
    ...(wide || wideCells
      ? [{ name: "greedy" as const, values: [0, GREEDY_TERMS] }]
      : []),
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
 * bins, where logistic regression keeps it whole. Classification targets
 * only (binary, and since issue 22 multi-class: a softmax saturates in the
 * tails as the logistic does): for a squared error the few rows in the
 * tails rule, and there the coarse tail bins, which cap the line at their
 * mean, do better than the refined line. Figures: BENCHMARKS.md, "Figures
 * behind the model's constants" and "The refined linear start for
 * multi-class targets".
 */
export const LINEAR_BINS = 254;

/**
 * Training rows per feature at or under which a table is wide and the
 * search also tries greedy rounds ({@link GREEDY_TERMS}): at 3, a cyclic
 * round's steps (one a feature) number at least a third of the training
 * rows, and twice the rows the bag's validation holds out (15% of the
 * rows) to stop it. Every table of the benchmark but ad_data (1.7 training
 * rows a feature) and pd_speech (0.3) has more than 4 (scat 4.2, wine and
 * oils about 11, the rest over 20), and keeps its candidates and model.
 */
export const WIDE_RATIO = 3;

/**
 * Training rows per feature at or under which a table beyond
 * {@link SELECTION_CELLS} (within {@link SELECTION_ROWS}) also fits greedy
 * rounds and keeps the better fit (see {@link selectionAxes}): on generated
 * tables of mostly sparse 0/1 columns, greedy rounds gained 0.02-0.07 test
 * AUC at 1.3-17 training rows a feature (grants: 3.8), 0.006 at 64-113, where
 * the second fit more than doubled the fit's CPU and passed twice HGB's.
 * Figures: BENCHMARKS.md, "A wide table beyond the search's cells".
 */
export const WIDE_CELLS_RATIO = 20;

/**
 * Main terms a greedy round steps (see `Booster.greedy`): the one whose
 * step promises the largest decrease of the training loss, as a tree
 * learner picks its best split, instead of every feature a step. On a wide
 * table most features carry noise, and a cyclic round fits every one of
 * them before the validation loss can say so. Figures: BENCHMARKS.md,
 * "Greedy rounds on wide tables".
 */
export const GREEDY_TERMS = 1;

/**
 * Classes from which the search screens the axes before the pairs' (the
 * greedy rounds, the linear start, its refinement, the bins) on the main
 * terms alone: each of their candidates is fitted without pairs and judged
 * as before, then the winner is fitted with the first pairs of the pairs
 * axis, which goes on from there as before. A softmax pair stage fits a
 * tree for every class on cells of two features, and its backfit boosts
 * every main term again, for as many rounds: two thirds of a multi-class
 * candidate's fit (digits: 10 classes), paid again for every candidate of
 * those axes. The main stages the screen fits are the ones the pairs
 * candidates start from (see `StageReuse`). Figures: BENCHMARKS.md, "Many
 * classes: the search's axes screened without pairs".
 */
export const SCREEN_CLASSES = 3;

/**
 * Bags a more complex candidate of the search is first fitted on (the
 * first ones of its fit: a bag's rows, seed and fit do not depend on how
 * many there are): it goes on to every bag only when its mean held-out
 * loss there is below the incumbent's on the same bags, since a candidate
 * behind on half the bags has not been seen to win significantly on all
 * of them. The bags it fitted are kept for the rest (`shareEstimators`).
 */
export const RACE_BAGS = 4;

/** Numeric bins of the smooth-shape candidate of {@link selectionAxes}. */
export const SMOOTH_BINS = 16;

/** Pair terms of the few-pairs candidate of {@link selectionAxes}. */
export const FEW_PAIRS = 10;

/**
 * Pair terms of the fewest-pairs candidate of {@link selectionAxes}: where
 * a handful of pairs carry the interactions, the other pairs of the
 * {@link FEW_PAIRS} candidate only fit noise (measured on interaction-heavy
 * tables of bench/model_interactions.ts; figures in BENCHMARKS.md).
 */
export const FEWEST_PAIRS = 3;

/**
 * {@link trainSteps} with an optional {@link BagHelper}: then it also yields
 * `{ wait }`, a promise of the helper's bags, and must be resumed with
 * what it resolves to (`next(results)`); see {@link trainAsync}.
 */
export function* searchSteps(
  data: EncodedDataset,
  input: Partial<TrainingParams>,
  shouldStop: () => boolean,
  search: boolean,
  helper: BagHelper | null,
  rows: RowHelper | null = null,
): Generator<Step, EbmModel, BagResult[] | undefined> {
  const p = resolveParams(input).params;
  const { nTrain } = splitSizes(data.nRows, p);
  const target = data.encoder.target;
  // A linear start whose numeric columns alone exceed its budget in every
  // bag (a bag fits at least half the training rows) is no linear start
  // (linear.ts): trying it would refit the incumbent, a full fit for
  // nothing on a wide table.
  const numeric = data.encoder.features.filter((f) => f.kind === "numeric");
  const linearFits = Math.min(
        Math.ceil(nTrain / 2),
        sampleCount(p.max_samples, nTrain),
      ) * (1 + numeric.length) ** 2 <= LINEAR_BUDGET;
  const K = isRegressionTarget(target) ? 1 : target.classes.length;
  const axes = selectionAxes(
    p,
    input,
    search ? nTrain : Infinity,
    data.encoder.features.length,
    K === 1 ? "regression" : K === 2 ? "binary" : "multiclass",
    linearFits,
    skewedPositiveTarget(data, p),
  );
  const noPairs = axes.some((x) =>
    x.name === "max_interactions" && x.values.indexOf(0) > 0
  );
  // Multi-class: the axes before the pairs' are screened on the main terms
  // alone (see SCREEN_CLASSES), and the winner is fitted with its pairs.
  const pairsAt = axes.findIndex((x) => x.name === "max_interactions");
  const screen = K >= SCREEN_CLASSES && pairsAt > 0 &&
    Number(axes[pairsAt].values[0]) > 0 &&
    axes.slice(0, pairsAt).some((x) => x.values.length > 1);
  // The no-pairs candidate costs two fits, and with a linear start the
  // linear fit alone one more (see below); a screen one more.
  const fits = 1 + axes.reduce((n, x) => n + x.values.length - 1, 0) +
    (noPairs ? 3 : 0) + (screen ? 1 : 0);
  let chosen: Candidate = {
    bins: p.bins,
    max_interactions: p.max_interactions,
    linear: false,
    refined: false,
    boosted: true,
    greedy: 0,
    link: "identity",
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
  // on the other half (BagTask.judged). The pairs alone serve when they
  // win significantly there, as any more complex candidate must. Otherwise
  // they are not thrown away but mixed in (mix.ts): every bag picks the
  // pairs model's weight in [0, 1] that minimises the loss of its judged
  // rows, and the model served is the mixture at the bags' mean weight
  // (no pairs at 0), one additive model. A hard choice threw away pairs
  // that helped where they did not win significantly (weak interactions),
  // and pairs by any margin lost on small tables without interactions;
  // the bags' mean weight shrinks towards no pairs where the bags disagree
  // (figures: BENCHMARKS.md, "Pairs mixed in").
  const slots = fits === 1 ? 1 : fits + 1;
  // Only the link is compared (a table beyond the search's size), or the
  // rounds (a table beyond its cells only): each fit shares its pairs as the
  // one fit would, and the better serves as it is (no third fit to share).
  const beyondCells = nTrain * data.encoder.features.length > SELECTION_CELLS;
  const linkOnly = axes.every((a) =>
    a.name === "link" || a.values.length === 1 ||
    (beyondCells && a.name === "greedy")
  );
  // The bags' main stages and pair rankings the candidates share (those
  // that differ only in their pairs): the same models, fitted once.
  const reuse = newStageReuse();
  let stopped = false;
  let tried = 0;
  // Candidates that raced on their first bags and went on (two fits each).
  let raced = 0;
  const fit = function* (
    candidate: Candidate,
    sharedPairs: boolean,
    judged = false,
    estimators = p.estimators,
    done: readonly BagResult[] = [],
  ): Generator<Step, Fitted, BagResult[] | undefined> {
    const from = tried / slots, to = (tried + 1) / slots;
    tried++;
    const steps = fitOnce(
      data,
      {
        ...p,
        estimators,
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
      candidate.greedy,
      reuse,
      candidate.link,
      done,
      estimators < p.estimators,
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
  // [candidate, the configuration fitted for it, more complex, judged on
  // the target's own scale, whether it is the incumbent fitted again with
  // its pairs after a screen (see SCREEN_CLASSES)]
  const tries = function* (): Generator<
    [Candidate, Candidate, boolean, boolean, boolean]
  > {
    const main = (c: Candidate) => screen ? { ...c, max_interactions: 0 } : c;
    yield [chosen, main(chosen), false, false, false];
    for (const axis of axes) {
      // A refined linear start needs one.
      if (axis.name === "refined" && !chosen.linear) continue;
      const pairsAxis = axis.name === "max_interactions";
      if (screen && pairsAxis) yield [chosen, chosen, false, false, true];
      for (let v = 1; v < axis.values.length; v++) {
        const next = withAxis(chosen, axis, v);
        // Finer shapes or more pairs than the incumbent's are more complex.
        yield [
          next,
          pairsAxis ? next : main(next),
          (axis.name === "bins" || pairsAxis) &&
          next[axis.name] > chosen[axis.name],
          axis.name === "link",
          false,
        ];
      }
    }
  };
  let best: Fitted | null = null;
  // Past the deadline, the last candidate that came with a model serves.
  let fallback: { model: EbmModel; candidate: Candidate } | null = null;
  let judgedPairs = false;
  let rebased = false;
  // Pairs mixed with no pairs: the no-pairs candidate, the pairs model's
  // weight, and the judged fit whose split scores the mixture.
  let mix: { none: Candidate; weight: number; prep: Prepared } | null = null;
  for (const [candidate, fitted, complex, raw, rebase] of tries()) {
    if (best && stopped) break;
    if (rebase) {
      // The screen's winner with its pairs: the incumbent of the pairs axis.
      rebased = true;
      best = yield* fit(candidate, false);
      if (best.model) fallback = { model: best.model, candidate };
      continue;
    }
    if (candidate.max_interactions === 0 && chosen.max_interactions > 0) {
      judgedPairs = true;
      const incumbent = yield* fit(chosen, false, true);
      const r = yield* fit(candidate, false, true);
      let judged = incumbent.heldOut;
      const w = stopped ? null : mixWeight(incumbent, r);
      const significant = improves(r.heldOut, incumbent.heldOut, true);
      if (!stopped && !significant && w && w.weight > 0 && w.weight < 1) {
        mix = { none: candidate, weight: w.weight, prep: incumbent.fit!.prep };
        judged = w.heldOut;
      } else if (!stopped && !significant && !(w && w.weight === 1)) {
        // Refitted below, stopping on all the validation rows.
        best = { model: null, heldOut: r.heldOut, heldOutRaw: r.heldOutRaw };
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
          best = { model: null, heldOut: l.heldOut, heldOutRaw: l.heldOutRaw };
          chosen = alone;
          mix = null;
        }
      }
      continue;
    }
    // A more complex candidate races (see RACE_BAGS): fitted first on the
    // first bags, it goes on from those to all only when ahead there.
    let race: BagResult[] = [];
    if (
      complex && best && !linkOnly && slots > 1 &&
      best.heldOut.length >= 2 * RACE_BAGS
    ) {
      shareEstimators(reuse, p.estimators, RACE_BAGS);
      const first = yield* fit(fitted, false, false, RACE_BAGS);
      shareEstimators(reuse, RACE_BAGS, p.estimators);
      if (stopped) break;
      let gain = 0;
      for (let b = 0; b < RACE_BAGS; b++) {
        gain += best.heldOut[b] - first.heldOut[b];
      }
      if (!(gain > 0)) continue;
      raced++;
      race = first.bags ?? [];
    }
    const r = yield* fit(
      fitted,
      slots === 1 || linkOnly,
      false,
      p.estimators,
      race,
    );
    if (r.model) fallback = { model: r.model, candidate: fitted };
    // Links are compared on what would serve, on the log of each bag's
    // raw-scale loss so that the paired test reads each bag's ratio (one
    // bag's heavy-tailed held-out rows can outweigh the rest of a plain
    // difference); the rest on the kept link's loss.
    const loss = (f: Fitted) => raw ? f.heldOutRaw.map(Math.log) : f.heldOut;
    if (!best || improves(loss(best), loss(r), complex)) {
      best = r;
      chosen = candidate;
    }
  }
  // The no-pairs comparison's two fits are one candidate, and so are a
  // screened incumbent's two and a race's that went on.
  const candidates = tried - (judgedPairs ? 1 : 0) - (rebased ? 1 : 0) -
    raced;
  let model = best!.model;
  if (!model && stopped && fallback) {
    ({ model, candidate: chosen } = fallback);
    mix = null;
  }
  if (!model) model = (yield* fit(chosen, true)).model!;
  if (mix && !stopped) {
    const none = (yield* fit(mix.none, true)).model;
    if (none && !stopped) model = mixModels(model, none, mix.weight, mix.prep);
  }
  if (slots > 1) yield { fraction: 1, stage: "finalizing" };
  model.metrics.candidates = candidates;
  model.metrics.linearStart = chosen.linear;
  if (chosen.greedy > 0) model.metrics.greedyTerms = chosen.greedy;
  if (judgedPairs && !stopped) {
    model.metrics.pairsWeight = model.metrics.pairsWeight ??
      (chosen.max_interactions > 0 ? 1 : 0);
  }
  if (!chosen.boosted) {
    // The linear fit alone: no round ran because the judged rows preferred
    // none (the configured max_rounds stays the model's parameter).
    model.params = { ...model.params, max_rounds: p.max_rounds };
    model.metrics.stopReason = "early_stopping";
  }
  if (chosen.linear && chosen.refined) model.metrics.linearBins = LINEAR_BINS;
  model.validation = validationSplit(data, p);
  const constraints = constraintsOf(data);
  if (constraints) model.constraints = constraints;
  return model;
}
