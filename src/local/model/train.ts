/**
 * The trainer's entry points: {@link train} (synchronous), {@link trainAsync}
 * (yields to the event loop, or waits on a helper thread) and
 * {@link trainSteps} (the generator both drive), with their options.
 *
 * @module
 */

import type { BagHelper, BagResult } from "./bagging.ts";
import type { EncodedDataset } from "./encoder.ts";
import type { TrainingParams } from "./params.ts";
import type { LoggedRound, TrainProgress } from "./progress.ts";
import type { RowHelper } from "./rows.ts";
import { searchSteps } from "./search.ts";
import type { EbmModel } from "./types.ts";

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
   * A flag another thread sets (element 0 to 1, see {@link stopFlag}) to
   * stop the work as `signal` does: a signal cannot cross into a Worker.
   */
  stop?: Int32Array;
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
 * import { trainSteps } from "./train.ts";
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

/** Builds the polling functions for an abort signal and a runtime cap. */
function stopChecks(
  options: FitOptions,
): { abort: () => void; deadline: () => boolean } {
  const start = Date.now();
  const cap = options.maximumRuntimeSeconds;
  const { stop } = options;
  return {
    abort: () => {
      options.signal?.throwIfAborted();
      if (stop && Atomics.load(stop, 0) === 1) {
        throw new DOMException("training was stopped", "AbortError");
      }
    },
    deadline: () => cap !== undefined && Date.now() - start >= cap * 1000,
  };
}

/**
 * A new stop flag for {@link FitOptions.stop}: shared memory, so a Worker
 * that got it in a message sees the store another thread makes.
 *
 * @example
 * ```ts
 * import { stopFlag } from "./train.ts";
 * const flag = stopFlag();
 * Atomics.store(flag, 0, 1); // stops a training given { stop: flag }
 * if (Atomics.load(flag, 0) !== 1) throw new Error("example failed");
 * ```
 */
export function stopFlag(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(4));
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
 * import { train } from "./train.ts";
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
 * a server stays responsive (`trainInBackground` with `useWorker: false`).
 * Gives exactly the same model as {@link train}.
 *
 * @example
 * ```ts
 * import { encodeDataset } from "./encoding.ts";
 * import { train, trainAsync } from "./train.ts";
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
  try {
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
      // With a helper (in the training worker), the event loop turns while
      // it waits for the helper; no thread needs it in between.
      if (!options.helper && Date.now() - slice > 10) {
        // A macrotask (not a microtask) so timers and I/O get their turn.
        await new Promise((resolve) => setTimeout(resolve, 0));
        slice = Date.now();
      }
      abort();
    }
  } finally {
    // Stopped (aborted, or an error): the steps' own cleanup runs, so a row
    // split releases its helper thread instead of leaving it waiting.
    steps.return(undefined as never);
  }
}
