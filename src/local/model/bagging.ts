/**
 * The bags of one fit across threads: this thread and a helper (another
 * core) take the next bag not yet taken from a shared atomic counter, so
 * the model is the same wherever each bag ran.
 *
 * @module
 */

import { type BagResult, fitBag, fitStop, startKey } from "./booster.ts";
import { countlessKey, type MainStage, type StageReuse } from "./reuse.ts";
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
 * {@link Link}). `done`: bags' fits already made by a fit of fewer bags
 * of the same configuration (a race's, see `RACE_BAGS` in search.ts, with
 * its spare bags; a bag's fit does not depend on how many there are): they
 * are taken as they are and only the rest are fitted, by either thread.
 * `keepBags`: the result lists every bag's fit ({@link Fitted.bags}), for
 * such a later fit. `spares`: the bag count of the fit this one races for:
 * while the helper still fits its last bags, this thread, out of bags to
 * take, fits the later ones (from this fit's count up to `spares`), listed
 * with the rest when `keepBags`, which that fit then takes as `done`.
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
  spares = 0,
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
  // taken (an atomic counter they share, into `order`) until none is left:
  // the first is this thread's, the helper starts when it is ready, and
  // neither waits on a slower half. Each bag has its own seed, so the bags
  // come out the same wherever and in whichever order they ran.
  const timesKey = countlessKey(prep.reuseKey);
  // A race's spare bags beyond this fit's count are not this fit's.
  done = done.filter((r) => r.bag < bags);
  const order = claimOrder(
    bags,
    new Set(done.map((r) => r.bag)),
    helper && reuse
      ? reuse.seconds.get(timesKey) ?? reuse.seconds.get("") ?? null
      : null,
  );
  // claims[1]: 0 until the helper takes the task (1), or this thread gives
  // it up (2) because the helper was not ready before the bags ran out;
  // claims[2]: 1 once the helper took its last bag's fit to the end.
  const claims = helper && order.length > 1
    ? new Int32Array(new SharedArrayBuffer(12))
    : null;
  if (claims) claims[0] = 1;
  // The linear starts this thread holds for the fit's bins (see
  // StageReuse.starts): the helper takes them as its own.
  const starts = withLinearStart && reuse
    ? reuse.starts.get(prep.features) ?? null
    : null;
  const remote = claims
    ? helper!({
      params: p,
      linear: withLinearStart,
      linearBins,
      sharedPairs,
      judged,
      bags,
      claims,
      order: Int32Array.from(order),
      ...(greedy > 0 ? { greedy } : {}),
      ...(prep.link === "log" ? { link: prep.link } : {}),
      // The bags' main stages this thread holds for the key (see
      // StageReuse): the helper starts from them as this thread would.
      ...(reuse
        ? { stages: [...(reuse.stages.get(prep.reuseKey) ?? new Map())] }
        : {}),
      ...(starts ? { starts: [...starts] } : {}),
    })
    : null;
  const results: BagResult[] = [...done];
  const seconds: number[] = [];
  for (
    let i = 0;
    i < order.length && (order[i] === 0 || !stop.deadline);
    i = claims ? Atomics.add(claims, 0, 1) : i + 1
  ) {
    const b = order[i], t0 = performance.now();
    const r = yield* relay(
      fitBag(
        prep,
        stop,
        b,
        sharedPairs && b > 0 ? results.find((r) => r.bag === 0)!.pairs : null,
        false,
        reuse,
      ),
    );
    results.push(r);
    seconds[b] = (performance.now() - t0) / 1000;
  }
  // Out of bags while the helper fits its last: this thread would wait
  // idle, so it fits the raced-for fit's next bags meanwhile, shortest
  // first, until the helper is done. The bag in hand then is given up (its
  // work thrown away, nothing of it kept) unless it is past half the
  // seconds its fit last took: the helper waits on the rest of it (when
  // the race is lost, for nothing), but a race won goes on without it.
  const spare: BagResult[] = [];
  if (claims && spares > bags && Atomics.load(claims, 1) === 1) {
    const helperDone = () => Atomics.load(claims, 2) === 1;
    const known = reuse?.seconds.get(timesKey) ?? reuse?.seconds.get("") ??
      [];
    const t = (b: number) => known[b] ?? Infinity;
    const next = Array.from({ length: spares - bags }, (_, i) => bags + i)
      .sort((x, y) => t(x) - t(y) || x - y);
    for (const b of next) {
      if (stop.deadline || helperDone()) break;
      const t0 = performance.now(), half = 500 * (known[b] ?? Infinity);
      const cut = fitStop(() =>
        (helperDone() && performance.now() - t0 < half) || stop.check()
      );
      const r = quiet(fitBag(prep, cut, b, null, false, reuse));
      if (cut.deadline) break;
      spare.push(r);
      seconds[b] = (performance.now() - t0) / 1000;
    }
  }
  // Given up: its answer (no bags) is not waited for.
  remote?.catch(() => {});
  if (remote && Atomics.compareExchange(claims!, 1, 0, 2) !== 0) {
    // The helper took the task: held by the driver until it answers (see
    // FitOptions.helper).
    const theirs = (yield { wait: remote }) ?? [];
    // And the helper's main stages and linear starts, for the next fits of
    // the key and bins, and how long its bags took.
    for (const r of theirs) {
      if (r.stage && reuse) {
        keep(reuse, prep.reuseKey, r.bag, r.stage);
        if (withLinearStart) {
          let byKey = reuse.starts.get(prep.features);
          if (!byKey) reuse.starts.set(prep.features, byKey = new Map());
          const key = startKey(prep, r.bag);
          if (!byKey.has(key)) byKey.set(key, r.stage.start);
        }
      }
      if (r.seconds !== undefined) seconds[r.bag] = r.seconds;
      delete r.stage;
      delete r.seconds;
    }
    results.push(...theirs);
  }
  // After a deadline, every bag fitted (taken longest first, they need not
  // be the first ones), in bag order.
  results.sort((x, y) => x.bag - y.bag);
  if (reuse && helper && !stop.deadline) {
    const last = reuse.seconds.get(timesKey) ?? [];
    seconds.forEach((t, b) => (last[b] = t));
    reuse.seconds.set(timesKey, last);
    reuse.seconds.set("", last);
  }
  const fitted = yield* relay(combineBags(prep, stop, results));
  return keepBags ? { ...fitted, bags: [...results, ...spare] } : fitted;
}

/**
 * The order in which a fit's bags not `done` are taken: bag 0 first (this
 * thread's: with shared pairs it ranks them), then the rest by the seconds
 * their fits last took (`StageReuse.seconds`; a bag not measured, the mean
 * of those that were), longest first, so that the two threads finish
 * together rather than one waiting on a slow last bag. Without times, in
 * bag order.
 *
 * @example
 * ```ts
 * import { claimOrder } from "./bagging.ts";
 *
 * if (claimOrder(4, new Set(), [1, 1, 3, 2]).join() !== "0,2,3,1") throw new Error("example failed");
 * if (claimOrder(4, new Set([0, 1]), null).join() !== "2,3") throw new Error("example failed");
 * // Bag 3 not measured: the mean, 13/3.
 * if (claimOrder(4, new Set([0]), [9, 1, 3]).join() !== "3,2,1") throw new Error("example failed");
 * ```
 */
export function claimOrder(
  bags: number,
  done: ReadonlySet<number>,
  seconds: readonly number[] | null,
): number[] {
  const todo: number[] = [];
  for (let b = 0; b < bags; b++) if (!done.has(b)) todo.push(b);
  const known = seconds?.filter((t) => t !== undefined) ?? [];
  if (known.length === 0) return todo;
  const mean = known.reduce((x, y) => x + y, 0) / known.length;
  const t = (b: number) => seconds![b] ?? mean;
  const rest = todo.filter((b) => b !== 0).sort((x, y) => t(y) - t(x) || x - y);
  return todo[0] === 0 ? [0, ...rest] : rest;
}

/** Keeps bag `b`'s main stage under `key` unless one with a ranking is kept. */
function keep(reuse: StageReuse, key: string, b: number, stage: MainStage) {
  let byBag = reuse.stages.get(key);
  if (!byBag) reuse.stages.set(key, byBag = new Map());
  if (!byBag.get(b)?.ranked) byBag.set(b, stage);
}

/** Runs a generator to its end, its steps (progress) unsaid. */
function quiet<R>(g: Generator<unknown, R, void>): R {
  let r = g.next();
  while (!r.done) r = g.next();
  return r.value;
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
   * The order in which the bags are taken (see {@link claimOrder}):
   * `claims[0]` counts into it. Absent: in bag order, `claims[0]` the bag.
   * Given, the helper reports each bag's seconds ({@link BagResult.seconds}).
   */
  order?: Int32Array;
  /**
   * The training thread's linear starts for this configuration's bins, by
   * their key (see `startKey`): the helper takes them as its own instead of
   * fitting them again, and returns its bags' with their main stages.
   */
  starts?: [string, Float64Array[] | null][];
  /**
   * On a SharedArrayBuffer: `claims[0]`, the next bag not yet taken;
   * `claims[1]`, 0 until the helper takes the task (it sets 1) or the
   * training thread gives it up (2: the helper returns no bags); when there
   * is room, `claims[2]`: set to 1 by the helper once it took its last bag's
   * fit to the end.
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
    if (reuse && task.starts) {
      let byKey = reuse.starts.get(prep.features);
      if (!byKey) reuse.starts.set(prep.features, byKey = new Map());
      for (const [key, tables] of task.starts) {
        if (!byKey.has(key)) byKey.set(key, tables);
      }
    }
    const { order } = task;
    let shared: [number, number][] | null = null;
    const out: BagResult[] = [];
    // Given up by the training thread (it fitted every bag): nothing to do.
    if (Atomics.compareExchange(task.claims, 1, 0, 1) !== 0) return out;
    while (!stop.deadline) {
      const i = Atomics.add(task.claims, 0, 1);
      if (i >= (order ? order.length : task.bags)) break;
      const b = order ? order[i] : i, t0 = performance.now();
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
      if (order) r.seconds = (performance.now() - t0) / 1000;
      out.push(r);
    }
    // Done (see fitOnce's spare bags); a task's claims may have no room.
    if (task.claims.length > 2) Atomics.store(task.claims, 2, 1);
    return out;
  })();
  let r = steps.next();
  while (!r.done) r = steps.next();
  return r.value;
}
