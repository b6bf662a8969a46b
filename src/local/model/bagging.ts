/**
 * The bags of one fit across threads: this thread and a helper (another
 * core) take the next bag not yet taken from a shared atomic counter, so
 * the model is the same wherever each bag ran.
 *
 * @module
 */

import { type BagResult, fitBag, fitStop } from "./booster.ts";
import type { MainStage, StageReuse } from "./reuse.ts";
import type { EncodedDataset } from "./encoder.ts";
import type { Link } from "./objective.ts";
import { combineBags, type Fitted } from "./finalize.ts";
import type { TrainingParams } from "./params.ts";
import { prepare } from "./prepared.ts";
import type { TrainProgress } from "./progress.ts";
import type { RowHelper } from "./rows.ts";

export type { BagResult } from "./booster.ts";
export type { StageReuse } from "./reuse.ts";
export { newStageReuse } from "./reuse.ts";

/**
 * One fit with fixed parameters: the model and its held-out loss. With
 * `sharedPairs`, bag 0 (the dataset's split) ranks the pairs and every bag
 * boosts those; without, every bag ranks its own on its own training rows,
 * so no bag's held-out rows had a say in its pairs (an honest held-out loss
 * for the search), and the model is null unless the bags chose the same
 * pairs (their tables cannot be averaged otherwise). `reuse`: the
 * training's {@link StageReuse}, whose bags' main stages and pair rankings
 * this fit starts from where an earlier fit of the same key left them, and
 * keeps its own for the later ones. `link`: a regression's (see
 * {@link Link}). `done`: the first bags' fits already made by a fit of
 * fewer bags of the same configuration (a race's, see `RACE_BAGS` in
 * search.ts; a bag's fit does not depend on how many there are): they are
 * taken as they are and only the rest are fitted, by either thread.
 * `keepBags`: the result lists every bag's fit ({@link Fitted.bags}), for
 * such a later fit.
 */
export function* fitOnce(
  data: EncodedDataset,
  p: TrainingParams,
  withLinearStart: boolean,
  linearBins: number,
  sharedPairs: boolean,
  judged: boolean,
  shouldStop: () => boolean,
  helper: BagHelper | null,
  rows: RowHelper | null,
  greedy = 0,
  reuse: StageReuse | null = null,
  link: Link = "identity",
  done: readonly BagResult[] = [],
  keepBags = false,
): Generator<Step, Fitted, BagResult[] | undefined> {
  const prep = yield* relay(
    prepare(
      data,
      p,
      withLinearStart,
      linearBins,
      judged,
      rows,
      greedy,
      reuse?.bins ?? null,
      link,
    ),
  );
  const stop = fitStop(shouldStop);
  const { bags } = prep;
  // With a helper (another core), both threads take the next bag not yet
  // taken (an atomic counter they share) until none is left: bag 0 is this
  // thread's, the helper starts when it is ready, and neither waits on a
  // slower half. Each bag has its own seed, so the bags come out the same
  // wherever they ran.
  // claims[1]: 0 until the helper takes the task (1), or this thread gives
  // it up (2) because the helper was not ready before the bags ran out.
  const claims = helper && bags - done.length > 1
    ? new Int32Array(new SharedArrayBuffer(8))
    : null;
  if (claims) claims[0] = done.length + 1;
  const remote = claims
    ? helper!({
      params: p,
      linear: withLinearStart,
      linearBins,
      sharedPairs,
      judged,
      bags,
      claims,
      ...(greedy > 0 ? { greedy } : {}),
      ...(prep.link === "log" ? { link: prep.link } : {}),
      // The bags' main stages this thread holds for the key (see
      // StageReuse): the helper starts from them as this thread would.
      ...(reuse
        ? { stages: [...(reuse.stages.get(prep.reuseKey) ?? new Map())] }
        : {}),
    })
    : null;
  const results: BagResult[] = [...done];
  for (
    let b = done.length;
    b < bags && (b === 0 || !stop.deadline);
    b = claims ? Atomics.add(claims, 0, 1) : b + 1
  ) {
    results.push(
      yield* relay(
        fitBag(
          prep,
          stop,
          b,
          sharedPairs && b > 0 ? results[0].pairs : null,
          false,
          reuse,
        ),
      ),
    );
  }
  // Given up: its answer (no bags) is not waited for.
  remote?.catch(() => {});
  if (remote && Atomics.compareExchange(claims!, 1, 0, 2) !== 0) {
    // The helper took the task: held by the driver until it answers (see
    // FitOptions.helper).
    const theirs = (yield { wait: remote }) ?? [];
    // And the helper's main stages, for the next fits of the key.
    for (const r of theirs) {
      if (r.stage && reuse) keep(reuse, prep.reuseKey, r.bag, r.stage);
      delete r.stage;
    }
    results.push(...theirs);
    results.sort((x, y) => x.bag - y.bag);
    // After a deadline, the bags up to the first one missing.
    const gap = results.findIndex((r, i) => r.bag !== i);
    if (gap >= 0) results.length = gap;
  }
  const fitted = yield* relay(combineBags(prep, stop, results));
  return keepBags ? { ...fitted, bags: results } : fitted;
}

/** Keeps bag `b`'s main stage under `key` unless one with a ranking is kept. */
function keep(reuse: StageReuse, key: string, b: number, stage: MainStage) {
  let byBag = reuse.stages.get(key);
  if (!byBag) reuse.stages.set(key, byBag = new Map());
  if (!byBag.get(b)?.ranked) byBag.set(b, stage);
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
  /** Main terms stepped a round by gain (absent or 0: cyclic rounds; see `Booster.greedy`). */
  greedy?: number;
  /** Regression: the rounds fit the target's log (absent: the target; see {@link Link}). */
  link?: Link;
  /**
   * The training thread's bags' main stages for this configuration's key
   * (see `StageReuse`), by bag; given, the helper starts from them and
   * returns its own with its bags ({@link BagResult.stage}).
   */
  stages?: [number, MainStage][];
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
export type Step = TrainProgress | { wait: Promise<BagResult[]> };

/**
 * The helper's side of {@link BagHelper}: fits the bags it takes (see
 * {@link BagTask}) on `data`, exactly as training in one thread fits those
 * bags (with shared pairs, the pairs are bag 0's, ranked here again from
 * bag 0's main terms). It takes no bag after a deadline. `reuse`: the
 * helper's own {@link StageReuse} for the training's tasks (see
 * {@link fitOnce}).
 *
 * @example
 * ```ts
 * import { encodeDataset } from "./encoding.ts";
 * import { fitBags } from "./bagging.ts";
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
  reuse: StageReuse | null = null,
): BagResult[] {
  const steps = (function* () {
    const prep = yield* prepare(
      data,
      task.params,
      task.linear,
      task.linearBins,
      task.judged,
      null,
      task.greedy ?? 0,
      reuse?.bins ?? null,
      task.link ?? "identity",
    );
    const stop = fitStop(shouldStop);
    if (reuse && task.stages) {
      for (const [b, stage] of task.stages) {
        keep(reuse, prep.reuseKey, b, stage);
      }
    }
    let shared: [number, number][] | null = null;
    const out: BagResult[] = [];
    // Given up by the training thread (it fitted every bag): nothing to do.
    if (Atomics.compareExchange(task.claims, 1, 0, 1) !== 0) return out;
    while (!stop.deadline) {
      const b = Atomics.add(task.claims, 0, 1);
      if (b >= task.bags) break;
      if (task.sharedPairs && b > 0 && !shared) {
        shared = (yield* fitBag(prep, stop, 0, null, true, reuse)).pairs;
      }
      const r = yield* fitBag(
        prep,
        stop,
        b,
        b > 0 && task.sharedPairs ? shared : null,
        false,
        reuse,
      );
      const stage = reuse?.stages.get(prep.reuseKey)?.get(b);
      if (task.stages && stage) r.stage = stage;
      out.push(r);
    }
    return out;
  })();
  let r = steps.next();
  while (!r.done) r = steps.next();
  return r.value;
}
