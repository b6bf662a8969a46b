/**
 * One boosting stage: cyclic (or greedy) gradient boosting of a set of terms (the main
 * terms, or the pairs on top of them) with early stopping on the validation
 * rows, every round on all rows, a seeded sample, or rows split with a helper
 * thread (see ./rows.ts).
 *
 * @module
 */

import { copyAll, together } from "./arena.ts";
import type { Histogram } from "./histogram.ts";
import { importanceOf } from "./metrics.ts";
import type { Bag } from "./prepared.ts";
import { addScores, type Bins } from "./predictor.ts";
import type { TrainProgress } from "./progress.ts";
import type { RowHelper } from "./rows.ts";
import { addRoundScores, type RoundRows, stageRows } from "./rowsource.ts";

/** One term of a boosting stage: its cells on the training and validation rows, its table and how to fit a step. */
export interface StageTerm {
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
export interface Booster {
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
  /**
   * Terms stepped a round by gain (greedy rounds, see {@link boostStage});
   * 0, or at least the stage's terms: cyclic rounds, every term a step.
   */
  greedy: number;
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
 *
 * Greedy rounds (`b.greedy` terms, fewer than the stage's): a round first
 * builds every active term's histogram and step at the round's scores and
 * ranks the terms by the loss decrease their steps promise
 * ({@link stepGain}), then steps the best `b.greedy` of them, best first,
 * each on the gradients after the previous one's step, as a cyclic round
 * steps all of them. Early stopping and the learning-rate schedule count
 * rounds the same way.
 */
export function* boostStage(
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
  const early = earlyStopper(
    b.patience,
    hasValidation,
    EARLY_STOPPING_LOSS_FLOOR[
      objective.regression ? "regression" : "classification"
    ],
  );
  early.observe(hasValidation ? objective.scaled(sVa) : 0, tables);
  const maxCells = Math.max(1, ...tables.map((t) => t.length));
  const updates = together(terms.map(() => maxCells));
  // Each term's update cut to its table's cells (what the rows' cells index).
  const pendingUpdates = updates.map((u, j) => u.subarray(0, tables[j].length));
  const source = stageRows({
    loss: objective.loss,
    regression: objective.regression,
    K,
    bag,
    cellsTr: terms.map((t) => t.cellsTr),
    tables,
    cellCounts: terms.map((t) => t.hist.C.length),
    maxCells,
    baseTr,
    rate,
    rng: b.rng,
    helper: b.rows,
  });
  const below = new Int32Array(terms.length);
  const frozen = new Uint8Array(terms.length);
  const greedy = b.greedy > 0 && b.greedy < terms.length;
  const gains = new Float64Array(terms.length);
  // Terms whose histogram and step are at the round's scores.
  const fresh = new Uint8Array(terms.length);
  // Terms a greedy round has picked already (cleared after the pick).
  const picked = new Uint8Array(terms.length);
  // The terms a greedy round stepped, ranked again the next round.
  let last: number[] = [];
  const order = terms.map((_, j) => j);
  let lr = b.lr;
  let rounds = 0;
  try {
    return yield* boostRounds();
  } finally {
    source.close();
  }

  // A greedy round ranks the active terms by the loss decrease their steps
  // promise and returns the best `b.greedy`, best first (ties to the lower
  // index: deterministic, as the scans go up the indices and keep the first). Every GREEDY_SWEEP rounds (and every round on
  // sampled rows) each term's histogram and step are built at the round's
  // scores (no step taken yet, so no pending update); in between, only the
  // terms stepped last round are, the others keep their gains.
  function bestTerms(r: RoundRows, round: number, counted: boolean): number[] {
    fresh.fill(0);
    const sweep = round % GREEDY_SWEEP === 0 || !source.all;
    const active: number[] = [];
    for (let j = 0; j < terms.length; j++) if (!frozen[j]) active.push(j);
    for (const j of sweep ? active : last) {
      if (frozen[j]) continue;
      const t = terms[j], u = updates[j];
      source.histogram(r, j, -1, null, counted, t.hist);
      for (let k = 0; k < K; k++) t.fit(t.hist, k, u, lr, round);
      gains[j] = stepGain(t.hist, u, t.hist.C.length * K);
      fresh[j] = 1;
    }
    // The best `b.greedy` by repeated scans (a handful of hundreds: no sort).
    const best: number[] = [];
    for (let g = 0; g < b.greedy && g < active.length; g++) {
      let at = -1;
      for (const j of active) {
        if (picked[j]) continue;
        // A NaN gain (none expected) ranks last, not first.
        if (at < 0 || gains[j] > gains[at] || Number.isNaN(gains[at])) at = j;
      }
      picked[at] = 1;
      best.push(at);
    }
    for (const j of best) picked[j] = 0;
    return last = best;
  }

  function* boostRounds(): Generator<
    TrainProgress,
    { rounds: number; stop: string },
    void
  > {
    for (let round = 0; round < b.maxRounds; round++) {
      const r = source.next(tables);
      // Every row every round: the counts of the first round stay right.
      const counted = source.all && round > 0;
      let pending = -1;
      const stepped = greedy ? bestTerms(r, round, counted) : order;
      for (let s = 0; s < stepped.length; s++) {
        const j = stepped[s];
        if (frozen[j]) continue;
        const t = terms[j];
        const u = updates[j];
        // A greedy round's first term steps on the histogram its gain came
        // from, when built this round (nothing has changed the scores since).
        if (!greedy || s > 0 || !fresh[j]) {
          source.histogram(
            r,
            j,
            pending,
            pending >= 0 ? pendingUpdates[pending] : null,
            counted,
            t.hist,
          );
          for (let k = 0; k < K; k++) t.fit(t.hist, k, u, lr, round);
        }
        addInto(t.table, u);
        early.touch(j);
        addScores(sVa, t.cellsVa, u, K);
        pending = j;
        if (b.prunePatience > 0 && b.pruneThreshold > 0) {
          below[j] = importanceOf(t.table, t.hist.C, K) < b.pruneThreshold
            ? below[j] + 1
            : 0;
          if (below[j] >= b.prunePatience) frozen[j] = 1;
        }
      }
      rounds = round + 1;
      const logged = progress.log && rounds % b.logInterval === 0;
      // The last step's update: kept across rounds when every row is, else
      // only for the logged training loss (the next round scores its own
      // rows from the tables).
      if (pending >= 0 && (source.all || logged)) {
        addRoundScores(r, pending, updates[pending], K);
      }
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
            trainingLoss: objective.lossOf(r.s, r.y, r.v),
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

/**
 * Rounds between greedy rounds that rank every term on fresh histograms
 * (see {@link boostStage}); in between only the terms stepped the round
 * before are ranked again, the others keep their last gains (a step
 * changes the other terms' gradients little), so a greedy round costs a
 * few histograms, not one a feature.
 */
export const GREEDY_SWEEP = 10;

/**
 * The decrease of the training loss a step promises to second order: for
 * every cell and score column, `-(G u + H u² / 2)` summed over the first
 * `n` values of the step `u` (the gain a greedy round ranks terms by).
 *
 * @example
 * ```ts
 * import { stepGain } from "./stage.ts";
 *
 * // Newton's step -G/H at full rate: G²/(2H).
 * const hist = { G: Float64Array.of(-2), H: Float64Array.of(4), C: Float64Array.of(8) };
 * if (stepGain(hist, Float64Array.of(0.5), 1) !== 0.5) throw new Error("example failed");
 * ```
 */
export function stepGain(hist: Histogram, u: Float64Array, n: number): number {
  const { G, H } = hist;
  let gain = 0;
  for (let q = 0; q < n; q++) gain -= u[q] * (G[q] + 0.5 * H[q] * u[q]);
  return gain;
}

/** Adds `update` to `table` (the update may be longer: only the table's cells count). */
export function addInto(table: Float64Array, update: Float64Array): void {
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
 * of, by task (a regression's loss is scaled by the target's variance, so 1
 * is the constant model's; a classification's is the log loss, whose
 * constant model scores about 0.5-2): a stage that starts near zero loss (a
 * nearly separable table, as penguins after its main terms) would otherwise
 * need improvements of a few 1e-6 to stop, which the log loss of growing
 * margins always makes, so such a stage would run every round it is allowed. Classification's floor is
 * the higher: a separable table's margins keep lowering the validation log
 * loss long after every validation row is right.
 */
export const EARLY_STOPPING_LOSS_FLOOR = {
  classification: 0.5,
  regression: 0.1,
} as const;

/**
 * Tracks the best validation loss and a snapshot of the tables at that
 * point (only the tables {@link touch}ed since the last snapshot are copied
 * again: a greedy round steps one term of hundreds). Stops after `patience` rounds without a new best, or when the best
 * improved by less than {@link EARLY_STOPPING_TOLERANCE} times the starting
 * loss (at least `floor`, the task's {@link EARLY_STOPPING_LOSS_FLOOR}) over
 * the last `patience` rounds.
 */
function earlyStopper(patience: number, enabled: boolean, floor: number) {
  let best = Infinity, first = 0;
  const history: number[] = [];
  let snapshot: Float64Array[] | null = null;
  // Tables changed since the snapshot was taken.
  const dirty: number[] = [];
  let isDirty = new Uint8Array(0);
  return {
    stoppedEarly: false,
    /** Rounds since the last new best. */
    since: 0,
    /** Table `j` changed (a step was added to it). */
    touch(j: number): void {
      if (snapshot === null || isDirty[j]) return;
      isDirty[j] = 1;
      dirty.push(j);
    },
    observe(loss: number, tables: Float64Array[]): boolean {
      if (!enabled) return false;
      if (loss < best - 1e-7) {
        best = loss;
        this.since = 0;
        if (snapshot === null) {
          snapshot = copyAll(tables);
          isDirty = new Uint8Array(tables.length);
        } else {
          for (const j of dirty) {
            snapshot[j].set(tables[j]);
            isDirty[j] = 0;
          }
        }
        dirty.length = 0;
      } else this.since++;
      history.push(best);
      const before = history.length > patience
        ? history[history.length - 1 - patience]
        : Infinity;
      if (history.length === 1) first = Math.abs(loss);
      if (
        this.since >= patience ||
        best > before - EARLY_STOPPING_TOLERANCE *
              Math.max(first, floor)
      ) this.stoppedEarly = true;
      return this.stoppedEarly;
    },
    restore(tables: Float64Array[]): void {
      if (snapshot) snapshot.forEach((s, i) => tables[i].set(s));
    },
  };
}
