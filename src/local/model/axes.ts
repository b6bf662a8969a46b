/**
 * The candidates of the inner-validation search (see search.ts): the axes
 * a training's configurations vary along (linear start, shapes, pairs,
 * greedy rounds, the link) for a table of its size and kind, and the
 * bounds beyond which there is no search.
 *
 * @module
 */

import type { Link } from "./objective.ts";
import type { TrainingParams } from "./params.ts";

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

/**
 * `c` with `axis` at its `i`-th value.
 *
 * @example
 * ```ts
 * import { withAxis } from "./axes.ts";
 * const c = { bins: 64, max_interactions: 10, linear: false, refined: false, boosted: true, greedy: 0, link: "identity" as const };
 * if (withAxis(c, { name: "bins", values: [64, 16] }, 1).bins !== 16 || c.bins !== 64) throw new Error("example failed");
 * ```
 */
export function withAxis(
  c: Candidate,
  axis: SelectionAxis,
  i: number,
): Candidate {
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
 * `improves` in search.ts, and race on their first `RACE_BAGS` bags; no pairs is judged on rows that did not stop the fits
 * early, see `BagTask.judged`: pairs that beat it significantly there serve
 * alone, otherwise the model served mixes the pairs model and the no-pairs
 * model at the mean over the bags of each bag's best weight on its judged
 * rows, see `mixWeight` and `mixModels` in mix.ts, no pairs at weight 0;
 * with the linear start kept, the linear fit alone, no rounds and no
 * pairs, is judged there too and wins by any margin, and so is the same
 * line drawn on {@link LINEAR_BINS} bins where the start is not already).
 * On a wide table (at most {@link WIDE_RATIO} training rows a feature) greedy rounds are
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
 * skewed there (`skewed`, see `skewedPositiveTarget` in link.ts) is first fitted as it
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
 * import { selectionAxes } from "./axes.ts";
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
 * mean, do better than the refined line. The linear fit alone (no boosted
 * steps, see search.ts) is judged at these bins too, for every target: the
 * search keeps whichever its judged rows prefer. Figures: BENCHMARKS.md,
 * "Figures behind the model's constants", "The refined linear start for
 * multi-class targets" and "A bag's arrays from a few buffers; the line
 * alone drawn on fine bins".
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
