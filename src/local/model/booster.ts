/**
 * One bag's fit over a {@link Prepared} fit: the main terms (from the linear
 * start when there is one), the pairs on top of them, the main terms again
 * (the backfit), and the bag's held-out loss.
 *
 * @module
 */

import {
  fitCells,
  fitOrderedBins,
  fitPair,
  type StepRegularisation,
} from "./boost.ts";
import { newKeptPairPlan, refreshPairPlan } from "./pair_plan.ts";
import { arena, copyAll, together } from "./arena.ts";
import { newHistogram } from "./histogram.ts";
import { levelNoises, levelStep } from "./levels.ts";
import {
  directionsOf,
  pairAllowed,
  projectMainStep,
  projectPairStep,
  projectTables,
} from "./constraints.ts";
import { rankPairs } from "./interactions.ts";
import { keptStart, linearStart } from "./linear.ts";
import {
  copyKept,
  type KeptBag,
  keptBagKey,
  type MainStage,
  type StageReuse,
} from "./reuse.ts";
import { bagData, type Prepared, type RawTerm, toBoosted } from "./prepared.ts";
import {
  addScores,
  type Bins,
  cellsOf,
  pairCells,
  scoreTerms,
} from "./predictor.ts";
import type { TrainProgress } from "./progress.ts";
import { createRng } from "./rng.ts";
import { ROWS_PER_ROUND } from "./rowsource.ts";
import { addInto, type Booster, boostStage, type StageTerm } from "./stage.ts";

/**
 * Most training rows for which, after the pairs, the main terms are boosted
 * once more on top of them (a backfit): the main terms were fitted without
 * the interactions, so part of an interaction's effect went into them, and
 * the pairs then corrected on top. It pays most where interactions matter
 * and costs a third more training time on large data, where it buys little
 * (figures: BENCHMARKS.md, "Figures behind the model's constants"), so it
 * is kept to the tables the inner-validation search covers: the same bound
 * as `SELECTION_ROWS` (search.ts).
 */
export const BACKFIT_ROWS = 20_000;

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
 * import { stepDepth } from "./booster.ts";
 *
 * if (!(stepDepth(2, 4_000) === 2 && stepDepth(2, 20_000) === 4 && stepDepth(2, 1e7) === 8)) throw new Error("example failed");
 * ```
 */
export function stepDepth(maxDepth: number, nTrain: number): number {
  const extra = Math.floor(Math.log2(Math.max(1, nTrain / ROWS_PER_DEPTH)));
  return Math.min(8, maxDepth + extra);
}

/** One bag's fit: its terms' tables, its pairs, its held-out loss and stages. */
export interface BagResult extends KeptBag {
  bag: number;
  /**
   * A helper thread's bag (see `fitBags`): its main stage, for the
   * training thread's {@link StageReuse} (taken off the result there).
   */
  stage?: MainStage;
  /** A helper thread's bag: the seconds its fit took (see `BagTask.order`). */
  seconds?: number;
}

/** A fit's deadline, polled once a round and sticky once reached. */
export interface FitStop {
  deadline: boolean;
  /** Polls the caller's `shouldStop`; true from the first time it says so. */
  check(): boolean;
}

/** A {@link FitStop} polling `shouldStop`. */
export function fitStop(shouldStop: () => boolean): FitStop {
  const stop: FitStop = {
    deadline: false,
    check: () => (stop.deadline ||= shouldStop()),
  };
  return stop;
}

/** The step settings every bag of a fit shares (from its parameters). */
function stepSettings(prep: Prepared) {
  const { p, nTrain, bags, pairsWanted } = prep;
  const reg: StepRegularisation = {
    l1: p.alpha * p.l1_ratio,
    minGain: p.partition_min_delta,
    minGainFraction: p.partition_min_delta_fraction,
  };
  // Progress: bag b owns [0.92 b / bags, 0.92 (b + 1) / bags]; inside it,
  // main terms take the first part, pairs the rest.
  const at = (b: number, f: number) => (0.92 * (b + f)) / bags;
  return {
    /** The share of a bag's training rows a round samples. */
    rate: (bagRows: number) => Math.min(p.subsample, ROWS_PER_ROUND / bagRows),
    l2: p.alpha * (1 - p.l1_ratio),
    reg,
    pairReg: {
      ...reg,
      minGain: p.partition_min_delta * p.partition_min_delta_factor,
    } as StepRegularisation,
    minLeaf: p.partition_min_samples,
    depthAt: (round: number) =>
      stepDepth(
        p.max_depth_momentum > 0
          ? Math.min(
            p.max_depth,
            Math.max(1, p.init_depth) +
              Math.floor(round / p.max_depth_momentum),
          )
          : p.max_depth,
        nTrain,
      ),
    mainPart: pairsWanted > 0 ? 0.6 : 1,
    at,
    span: (b: number, from: number, to: number) => ({
      from: at(b, from),
      to: at(b, to),
    }),
  };
}

/**
 * Bag `b`'s random stream (bag 0's is the seed's own), so a bag's fit does
 * not depend on the bags fitted before it, with the draws taken from it
 * counted; `skip`: draws already taken (a reused main stage's, see
 * {@link StageReuse}).
 */
function bagStream(p: Prepared["p"], b: number, skip: number) {
  const next = createRng(b === 0 ? p.seed : (p.seed + 0x5bd1 * b) >>> 0);
  const stream = {
    draws: 0,
    rng: () => {
      stream.draws++;
      return next();
    },
    /** Takes draws until `draws` were taken. */
    skipTo: (draws: number) => {
      while (stream.draws < draws) stream.rng();
    },
  };
  stream.skipTo(skip);
  return stream;
}

/** What bag `b`'s boosting stages share. */
function boosterOf(
  prep: Prepared,
  stop: FitStop,
  rng: () => number,
): Booster {
  const { p, K } = prep;
  return {
    K,
    rng,
    maxRounds: p.max_rounds,
    patience: p.early_stopping_patience,
    lr: p.learning_rate,
    lrDecay: p.learning_rate_decay,
    lrPatience: p.learning_rate_patience,
    pruneThreshold: p.prune_threshold,
    prunePatience: p.prune_patience,
    logInterval: p.log_interval,
    checkStop: stop.check,
    rows: prep.bags === 1 ? prep.rows : null,
    greedy: prep.greedy,
  };
}

/** `m` rows of the same K scores. */
function constant(m: number, values: number[], K: number): Float64Array {
  const out = new Float64Array(m * K);
  for (let i = 0; i < m; i++) {
    for (let k = 0; k < K; k++) out[i * K + k] = values[k];
  }
  return out;
}

/**
 * Bag `b`'s key among its fit's linear starts (`StageReuse.starts`, by the
 * fit's bins): the link, the bag, and whether the bag is the dataset's own
 * split (bag 0 of a fit not judged, drawing every training row: see
 * `bagData`), whose rows are in their own order.
 *
 * @example
 * ```ts
 * import { startKey } from "./booster.ts";
 * import type { Prepared } from "./prepared.ts";
 *
 * const prep = { link: "identity", drawn: 90, nTrain: 90, judged: false } as Prepared;
 * if (startKey(prep, 0) !== "identity:0:true" || startKey(prep, 3) !== "identity:3:false") throw new Error("example failed");
 * if (startKey({ ...prep, judged: true }, 0) !== "identity:0:false") throw new Error("example failed");
 * ```
 */
export function startKey(prep: Prepared, b: number): string {
  const overall = b === 0 && prep.drawn === prep.nTrain && !prep.judged;
  return `${prep.link}:${b}:${overall}`;
}

/**
 * One bag's fit: main terms, then pairs on top of them, then the main terms
 * again (the backfit). `given`: the pairs to boost (bag 0's, when the bags
 * share them); null: the bag ranks its own (bag 0 on the dataset's split).
 * `rankOnly`: return once the pairs are ranked.
 */

export function* fitBag(
  prep: Prepared,
  stop: FitStop,
  b: number,
  given: [number, number][] | null,
  rankOnly = false,
  reuse: StageReuse | null = null,
): Generator<TrainProgress, BagResult, void> {
  const {
    K,
    nTrain,
    features,
    intercept,
    regression,
    binMeans,
    boostedBins,
    coarseOf,
    pairsWanted,
    overall,
    linear,
  } = prep;
  const F = features.length;
  const { rate, l2, reg, pairReg, minLeaf, depthAt, mainPart, at, span } =
    stepSettings(prep);
  // This bag's main stage as an earlier fit of the same key left it.
  const byBag = reuse?.stages.get(prep.reuseKey) ?? null;
  const seen = byBag?.get(b) ?? null;
  const stream = bagStream(prep.p, b, seen ? seen.draws : 0);
  const booster = boosterOf(prep, stop, stream.rng);
  let pairs: [number, number][] = given ?? [];
  let pairRounds = 0, pairStop = "none";
  const bag = bagData(prep, b);
  const nVa = bag.objective.yVa.length;
  // Monotone features (constraints.ts): every step, and the linear start,
  // follow their direction.
  const dirs = directionsOf(prep.data, features);
  // The linear start's scores are outside the boosting stage (its base);
  // its tables join the main terms' afterwards. Bag 0 of a fit not judged
  // is the dataset's own split (rows in its order, not sorted): its own key.
  const fitStart = () => {
    const tables = linearStart({
      kinds: features.map((f) => f.kind),
      nBins: features.map((f) => f.nBins),
      binMeans,
      bins: bag.trBins,
      target: {
        kind: regression ? "squared" : K === 1 ? "logistic" : "softmax",
        values: bag.vTr,
        labels: bag.yTr,
        K,
      },
      base: intercept,
    })?.tables ?? null;
    if (tables) projectTables(tables, dirs);
    return tables;
  };
  const starts = linear && reuse
    ? reuse.starts.get(features) ??
      reuse.starts.set(features, new Map()).get(features)!
    : null;
  const startTables = seen
    ? seen.start
    : linear
    ? keptStart(starts, startKey(prep, b), fitStart)
    : null;
  const start = startTables && { tables: startTables };
  // Adds the linear start's scores to a bag's training and validation scores.
  const withStart = (tr: Float64Array, va: Float64Array) => {
    start?.tables.forEach((t, j) => {
      addScores(tr, bag.trBins[j], t, K);
      addScores(va, bag.vaBins[j], t, K);
    });
  };
  // A categorical term's levels shrink toward the mean (levels.ts).
  const phi = levelNoises(prep, bag, start?.tables ?? null);
  // Every main term's step, table and histogram from two buffers, the
  // tables together (a table leaves the bag only as a copy: `mainScores`,
  // `StageReuse`).
  const take = arena(boostedBins.reduce((n, c) => n + c * (2 + 2 * K), 0));
  const mainTables = together(boostedBins.map((c) => c * K));
  const mainTerms: StageTerm[] = features.map((f, j) => {
    const nBins = boostedBins[j];
    const step = take(nBins);
    const table = mainTables[j];
    const levels = f.kind === "categorical" &&
      levelStep(nBins, K, table, start?.tables[j] ?? null, phi[j], bag.nTrain);
    return {
      cellsTr: toBoosted(prep, j, bag.trBins[j]),
      cellsVa: toBoosted(prep, j, bag.vaBins[j]),
      table,
      hist: newHistogram(nBins, K, take),
      fit: (hist, k, out, lr, round) => {
        fitOrderedBins(
          levels ? levels(hist, k) : hist,
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
        if (dirs[j]) projectMainStep(step, hist.H, K, k, nBins, dirs[j], l2);
        for (let q = 0; q < nBins; q++) out[q * K + k] = step[q];
      },
    };
  });
  let main: { rounds: number; stop: string };
  if (seen) {
    seen.tables.forEach((t, j) => mainTerms[j].table.set(t));
    main = { rounds: seen.rounds, stop: seen.stop };
  } else {
    const startTr = constant(bag.nTrain, intercept, K);
    const startVa = constant(nVa, intercept, K);
    withStart(startTr, startVa);
    main = yield* boostStage(
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
    if (reuse && !stop.deadline) {
      if (!byBag) reuse.stages.set(prep.reuseKey, new Map());
      reuse.stages.get(prep.reuseKey)!.set(b, {
        start: start?.tables ?? null,
        tables: copyAll(mainTables),
        rounds: main.rounds,
        stop: main.stop,
        draws: stream.draws,
        ranked: null,
      });
    }
  }
  const mainRounds = main.rounds;
  // A main term's table: its boosted steps, on every (refined) bin, plus
  // the linear start.
  // Every main term's table (its boosted steps on every refined bin, plus
  // the linear start), in one new buffer.
  const mainScores = (): Float64Array[] =>
    together(features.map((f) => f.nBins * K)).map((out, j) => {
      const t = mainTerms[j].table, map = coarseOf[j];
      if (map) {
        for (let q = 0; q < map.length; q++) {
          for (let k = 0; k < K; k++) out[q * K + k] = t[map[q] * K + k];
        }
      } else out.set(t);
      if (start) addInto(out, start.tables[j]);
      return out;
    });
  const own: RawTerm[] = mainScores().map((scores, j) => ({
    features: [j],
    scores,
  }));
  let doneKey: string | null = null;
  if (pairsWanted > 0 && !stop.deadline) {
    if (given === null) {
      yield { fraction: at(b, mainPart), stage: "interactions" };
      const kept = reuse?.stages.get(prep.reuseKey)?.get(b) ?? null;
      const ranked = kept?.ranked?.pairs ?? (yield* rankPairs(
        features,
        b === 0 ? overall : bag,
        own,
        intercept,
        K,
        minLeaf,
        l2,
        Infinity,
        booster.rng,
        at(b, mainPart),
        at(b, mainPart + 0.1),
        pairAllowed(prep.data, features),
      ));
      if (kept?.ranked) stream.skipTo(kept.ranked.draws);
      else if (kept && !stop.deadline) {
        kept.ranked = { pairs: ranked, draws: stream.draws };
      }
      // The best `pairsWanted` of every pair ranked (the ranking does not
      // depend on how many are wanted).
      pairs = ranked.slice(0, pairsWanted);
    }
    if (rankOnly) {
      return {
        bag: b,
        terms: own,
        pairs,
        heldOut: Infinity,
        heldOutRaw: Infinity,
        mainRounds,
        mainStop: main.stop,
        pairRounds,
        pairStop,
      };
    }
    // This bag fitted whole before with these pairs from the same main
    // stage and random state (see StageReuse.bags): that fit, taken.
    doneKey = reuse && pairs.length > 0
      ? keptBagKey(prep.reuseKey, b, stream.draws, pairs)
      : null;
    const done = doneKey === null ? undefined : reuse!.bags.get(doneKey);
    if (done) return { bag: b, ...copyKept(done) };
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
    // The pairs' steps and histograms from one buffer; their tables are
    // the bag's result, each its own.
    const takePair = arena(
      pairs.reduce(
        (n, [a, c]) =>
          n + features[a].pairBins * features[c].pairBins * (2 + 2 * K),
        0,
      ),
    );
    const stage: StageTerm[] = pairs.map(([a, c]) => {
      const P0 = features[a].pairBins, P1 = features[c].pairBins;
      const cells = P0 * P1;
      const step = takePair(cells);
      const perCell = nTrain >= PER_CELL_ROWS * cells;
      // What the counts allow (see PairPlan), built at a histogram's first
      // score column (a stage fits columns 0..K-1 of each histogram in
      // turn), and again only when the counts change.
      const plan = newKeptPairPlan();
      return {
        cellsTr: pairCells(features, a, c, bag.trBins),
        cellsVa: pairCells(features, a, c, bag.vaBins),
        table: new Float64Array(cells * K),
        hist: newHistogram(cells, K, takePair),
        fit: (hist, k, out, lr) => {
          if (perCell) {
            fitCells(hist, K, k, cells, minLeaf, l2, lr, step, pairReg);
          } else {
            if (k === 0) refreshPairPlan(hist.C, P0, P1, minLeaf, plan);
            fitPair(hist, K, k, P0, P1, minLeaf, l2, lr, step, pairReg, plan);
          }
          if (dirs[a] || dirs[c]) {
            projectPairStep(step, hist.H, K, k, P0, P1, dirs[a], dirs[c], l2);
          }
          for (let q = 0; q < cells; q++) out[q * K + k] = step[q];
        },
      };
    });
    if (stage.length > 0) {
      // Pairs are few: every one a step a round (greedy rounds are the
      // main terms').
      const done = yield* boostStage(
        { ...booster, greedy: 0 },
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
      if (nTrain <= BACKFIT_ROWS && !stop.deadline) {
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
        mainScores().forEach((scores, j) => (own[j].scores = scores));
      }
    }
  }
  const judge = bag.judge ?? { bins: bag.vaBins, objective: bag.objective };
  const nJudge = judge.objective.yVa.length;
  const scoresOf = (bins: Bins[], m: number) =>
    scoreTerms(
      own,
      cellsOf(features, own, bins),
      intercept,
      K,
      new Float64Array(m * K),
    );
  const sJudge = nJudge > 0 ? scoresOf(judge.bins, nJudge) : null;
  const heldOut = sJudge ? judge.objective.scaled(sJudge) : Infinity;
  // The log link's served prediction needs the training rows' smearing.
  const heldOutRaw = !sJudge
    ? Infinity
    : judge.objective.link === "log"
    ? judge.objective.rawLoss(sJudge, scoresOf(bag.trBins, bag.nTrain))
    : heldOut;
  const result: KeptBag = {
    terms: own,
    pairs,
    heldOut,
    heldOutRaw,
    mainRounds,
    mainStop: main.stop,
    pairRounds,
    pairStop,
  };
  if (doneKey !== null && !stop.deadline) {
    reuse!.bags.set(doneKey, copyKept(result));
  }
  return { bag: b, ...result };
}
