/**
 * The inner-validation search: how training compares its configurations
 * (their axes: axes.ts) and how a candidate must beat the incumbent.
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
import { mixModels, mixWeight } from "./mix.ts";
import { resolveParams, splitSizes, type TrainingParams } from "./params.ts";
import { type Prepared, sampleCount } from "./prepared.ts";
import type { RowHelper } from "./rows.ts";
import type { EbmModel } from "./types.ts";
import { shareEstimators } from "./reuse.ts";
import {
  type Candidate,
  LINEAR_BINS,
  SELECTION_CELLS,
  selectionAxes,
  withAxis,
} from "./axes.ts";

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
  // linear fit alone two more (coarse and fine, see below); a screen one
  // more.
  const fits = 1 + axes.reduce((n, x) => n + x.values.length - 1, 0) +
    (noPairs ? 4 : 0) + (screen ? 1 : 0);
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
      // A race's fit: while the helper fits its last bags, this thread
      // fits the rest of the candidate's (see fitOnce), for its continuation.
      estimators < p.estimators ? p.estimators : 0,
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
        // A line alone that wins serves, refitted below on all the
        // validation rows.
        const win = (line: Candidate, r: Fitted) => {
          best = { model: null, heldOut: r.heldOut, heldOutRaw: r.heldOutRaw };
          chosen = line;
          mix = null;
          judged = r.heldOut;
        };
        const l = yield* fit(alone, false, true);
        if (!stopped && improves(judged, l.heldOut, false)) win(alone, l);
        // The line alone drawn on LINEAR_BINS bins, judged the same way:
        // without boosted steps the finer bins only follow the fitted line
        // more closely, where the coarse ones flatten it into steps (ridge
        // and logistic regression's lead on linear tables); a target whose
        // tails the coarse bins cap better keeps them.
        if (!alone.refined && input.bins === undefined && !stopped) {
          const fine = { ...alone, refined: true };
          const f = yield* fit(fine, false, true);
          if (!stopped && improves(judged, f.heldOut, false)) win(fine, f);
        }
      }
      continue;
    }
    // A more complex candidate races (see RACE_BAGS): fitted first on the
    // first bags, it goes on from those (and the spare bags fitted while
    // the helper finished its last, see fitOnce) to all only when ahead
    // there.
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
