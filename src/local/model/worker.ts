/**
 * Background training that does not block the server: on a
 * `node:worker_threads` thread, in Deno and in Node alike (the threads are
 * kept warm for the next training, see ./threads.ts), or, with `useWorker:
 * false`, in-thread training that yields to the event loop every ~10 ms. On
 * two or more cores a helper thread ({@link workerBagHelper}) fits bags
 * beside it, or, for a large table fitted as one bag, builds half of
 * every gradient histogram (see ./rows.ts). All run the same training code,
 * so they return the same model (a split histogram's sums can differ in the
 * last bits from one thread's, the same on every run).
 *
 * @example
 * ```ts
 * import { encodeDataset } from "./encoding.ts";
 * import { trainInBackground } from "./worker.ts";
 *
 * const x = Array.from({ length: 100 }, (_, i) => i);
 * const data = encodeDataset({ x, y: x.map((v) => (v < 30 ? "a" : "b")) }, [
 *   { name: "x", data_type: { data_type: "NUMBER" }, designation: "FEATURE", semantic_type: "CONTINUOUS" },
 *   { name: "y", data_type: { data_type: "STRING" }, designation: "TARGET", semantic_type: "CATEGORICAL" },
 * ]);
 * const model = await trainInBackground(data, { max_rounds: 20 });
 * if (!(model.classes.join() === "a,b")) throw new Error("example failed");
 * ```
 *
 * @module
 */

import type { BagHelper, BagResult, BagTask } from "./bagging.ts";
import type { LoggedRound } from "./progress.ts";
import { stopFlag, trainAsync } from "./train.ts";
import type { EncodedDataset } from "./encoder.ts";
import {
  isWorkerError,
  reviveError,
  type WorkerErrorMessage,
} from "./worker_errors.ts";
import type { TrainingParams } from "./params.ts";
import type { RowHelper, RowSetup } from "./rows.ts";
import {
  availableCores,
  endThreads,
  keepThreads,
  postTo,
  takeThreads,
  type TrainingThreads,
} from "./threads.ts";
import type { EbmModel } from "./types.ts";

// Moved to ./threads.ts and ./worker_errors.ts; still exported here, where
// callers look.
export { availableCores } from "./threads.ts";
export {
  reviveError,
  workerError,
  type WorkerErrorMessage,
} from "./worker_errors.ts";

/** Options of {@link trainInBackground}. */
export interface BackgroundOptions {
  /** Called with the overall fraction (0..1), the stage name and each logged round's losses. */
  onProgress?: (fraction: number, stage: string, logged?: LoggedRound) => void;
  /** Aborting stops training (the worker is terminated) and rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Runtime cap: training stops cleanly and returns the best model so far. */
  maximumRuntimeSeconds?: number;
  /** `false` trains in the caller's thread, yielding to its event loop every ~10 ms (default: on a worker thread). */
  useWorker?: boolean;
  /**
   * Hand the dataset's buffers to the worker instead of copying them (they
   * are unusable here afterwards): for a dataset encoded for this training
   * alone, as the training job does. Default false.
   */
  transferData?: boolean;
}

type WorkerMessage =
  | {
    type: "progress";
    fraction: number;
    stage: string;
    logged?: LoggedRound;
  }
  | { type: "done"; model: EbmModel }
  | { type: "bags-done"; results: BagResult[] }
  | WorkerErrorMessage;

let liveWorkers = 0;

/**
 * How many trainings run on threads in this process (started by
 * {@link trainInBackground}, not yet settled): a cancelled or finished
 * training counts no more. Each counts once with its helper thread (two
 * cores). Threads kept warm for the next training do not count: see
 * `keptTrainingThreads` in ./threads.ts.
 *
 * @example
 * ```ts
 * import { liveTrainingWorkers } from "./worker.ts";
 * if (liveTrainingWorkers() !== 0) throw new Error("no training has started");
 * ```
 */
export function liveTrainingWorkers(): number {
  return liveWorkers;
}

/**
 * Trains without blocking the caller's event loop.
 *
 * @throws (rejects) The signal's reason when aborted; {@link ModelDataError} /
 *   {@link ModelParamError} as in-thread training would.
 *
 * @example
 * ```ts
 * import { encodeDataset } from "./encoding.ts";
 * import { trainInBackground } from "./worker.ts";
 *
 * const x = Array.from({ length: 60 }, (_, i) => i);
 * const data = encodeDataset({ x, y: x.map((v) => (v % 2 ? "odd" : "even")) }, [
 *   { name: "x", data_type: { data_type: "NUMBER" }, designation: "FEATURE", semantic_type: "CONTINUOUS" },
 *   { name: "y", data_type: { data_type: "STRING" }, designation: "TARGET", semantic_type: "CATEGORICAL" },
 * ]);
 * const controller = new AbortController();
 * controller.abort();
 * const outcome = await trainInBackground(data, {}, { signal: controller.signal }).catch((e) => e.name);
 * if (!(outcome === "AbortError")) throw new Error("example failed");
 * ```
 */
export function trainInBackground(
  data: EncodedDataset,
  params: Partial<TrainingParams> = {},
  options: BackgroundOptions = {},
): Promise<EbmModel> {
  const { onProgress, signal, maximumRuntimeSeconds } = options;
  if (options.useWorker === false) {
    return trainAsync(data, params, {
      onProgress,
      signal,
      maximumRuntimeSeconds,
    });
  }
  const transfer = options.transferData
    ? [
      ...data.features,
      data.labels,
      data.order,
      ...(data.values ? [data.values] : []),
      ...(data.rows ? [data.rows] : []),
    ].map((a) => a.buffer).filter(isArrayBuffer)
    : [];
  liveWorkers++;
  const stop = stopFlag();
  // The training worker's helper (another core, see workerBagHelper) runs
  // beside it, started here, and the two talk over a channel: a Worker
  // started by a Worker took half a second to run its first line (Deno
  // 2.9; one started here, 30 ms), so the helper missed the first fits of
  // every training (BENCHMARKS.md section 7, "The helper thread started
  // beside the training thread"). Both are warm when an earlier training
  // left them (./threads.ts).
  const threads = takeThreads(
    workerUrl(),
    availableCores() >= 2 && !signal?.aborted,
  );
  let helperPort: MessagePort | undefined;
  if (threads.helper) {
    const channel = new MessageChannel();
    postTo(threads.helper, { type: "helper", port: channel.port2 }, [
      channel.port2,
    ]);
    helperPort = channel.port1;
  }
  return runOnThreads<WorkerMessage, EbmModel>({
    threads,
    keep: data.nRows * Math.max(1, data.features.length) <= KEEP_CELLS,
    request: {
      value: {
        data,
        params,
        maximumRuntimeSeconds,
        stop,
        ...(helperPort ? { helperPort } : {}),
      },
    },
    transfer: helperPort ? [...transfer, helperPort] : transfer,
    signal,
    stop,
    onMessage(m, resolve) {
      if (m.type === "progress") onProgress?.(m.fraction, m.stage, m.logged);
      else if (m.type === "done") resolve(m.model);
    },
    failure: (message) =>
      `model worker failed: ${message}; retry, or run in-thread (useWorker: false).`,
  }).finally(() => liveWorkers--);
}

/**
 * The largest table (rows x features) whose training keeps its threads
 * warm for the next one. A fresh thread costs about a second of CPU, which
 * matters to a fit of a few seconds, not to a large one; and a kept
 * trainer collects only after a second idle, so a large training's garbage
 * would add to the next one's peak when trainings follow each other.
 */
export const KEEP_CELLS = 4_000_000;

/** What {@linkcode runOnThreads} posts and reads. */
export interface ThreadsRun<M extends { type: string }, T>
  extends Omit<WorkerRun<M, T>, "url" | "name" | "transfer"> {
  /** The training's threads (`takeThreads` in ./threads.ts). */
  threads: TrainingThreads;
  /** Buffers and ports moved with the request. */
  transfer: (ArrayBuffer | MessagePort)[];
  /**
   * Whether a run that ends well keeps its threads (default true): not
   * after a large table, whose garbage an idle thread would hold.
   */
  keep?: boolean;
  /**
   * The training's stop flag (see `stopFlag`): aborting sets it and waits
   * for the trainer's answer (it stops its helper too) at most
   * {@link STOP_GRACE_MS} before ending the threads; the end of the run
   * sets it too, so a helper's leftover bags stop.
   */
  stop: Int32Array;
}

/**
 * Runs a training on its threads, as {@linkcode runInWorker} runs a worker:
 * posts `run.request.value` to the trainer over a channel of the run's own
 * (`{ type: "line", port }` to the thread, then the request on the port,
 * where the trainer answers) and settles with what
 * `run.onMessage` resolves, or the error the trainer posts, or the
 * trainer's or the helper's own failure (said as whose it was: the helper's
 * with {@link HELPER_CRASHED}). A run that ends well keeps its threads for
 * the next training (`keepThreads`); any other end ends them.
 *
 * @example
 * ```ts
 * import { takeThreads } from "./threads.ts";
 * import { runOnThreads } from "./worker.ts";
 *
 * const threads = takeThreads(new URL("./train_worker.ts", import.meta.url), false);
 * const controller = new AbortController();
 * controller.abort(new Error("stopped"));
 * const outcome = await runOnThreads({
 *   threads,
 *   request: { value: null },
 *   transfer: [],
 *   stop: new Int32Array(new SharedArrayBuffer(4)),
 *   signal: controller.signal,
 *   onMessage: () => {},
 *   failure: (message) => `the example failed: ${message}`,
 * }).catch((e) => e.message);
 * if (outcome !== "stopped") throw new Error("example failed");
 * ```
 */
export function runOnThreads<M extends { type: string }, T>(
  run: ThreadsRun<M, T>,
): Promise<T> {
  const { signal, threads, stop } = run;
  const { trainer, helper } = threads;
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) {
      endThreads(threads);
      return reject(signal.reason);
    }
    // The run's own channel to the trainer carries the request, progress
    // and model: Deno's postMessage to a node:worker_threads thread copies
    // what it is told to transfer (160 MB of columns: 1.3-2.0 s), a Web
    // port moves it (1-2 ms; BENCHMARKS.md section 7, "Warm training
    // threads").
    const line = new MessageChannel();
    let stopping = false;
    let grace: ReturnType<typeof setTimeout> | undefined;
    const onMessage = (m: M | WorkerErrorMessage) => {
      if (stopping) {
        if (isWorkerError(m) || m.type === "done") stopped();
        return;
      }
      if (isWorkerError(m)) {
        finish(false);
        reject(reviveError(m));
        return;
      }
      run.onMessage(m, (value) => {
        finish(run.keep ?? true);
        resolve(value);
      });
    };
    // A thread's own failure (its script, not the work) ends the run, said
    // as whose it was.
    const crashed = (say: (message: string) => string) => (e: unknown) => {
      clearTimeout(grace);
      finish(false);
      if (stopping) reject(signal!.reason);
      else reject(new Error(say(e instanceof Error ? e.message : String(e))));
    };
    const trainerCrashed = crashed(run.failure);
    const helperCrashed = crashed(HELPER_CRASHED);
    const trainerExited = (code: number) =>
      trainerCrashed(new Error(`the thread exited (code ${code})`));
    const helperExited = (code: number) =>
      helperCrashed(new Error(`the thread exited (code ${code})`));
    let finished = false;
    const finish = (keep: boolean) => {
      if (finished) return;
      finished = true;
      signal?.removeEventListener("abort", onAbort);
      line.port1.close();
      trainer.off("error", trainerCrashed);
      trainer.off("exit", trainerExited);
      helper?.off("error", helperCrashed);
      helper?.off("exit", helperExited);
      // A helper may still fit bags the training gave up: they stop at
      // the flag's next check.
      Atomics.store(stop, 0, 1);
      if (keep) {
        if (helper) postTo(helper, { type: "release" });
        keepThreads(threads);
      } else endThreads(threads);
    };
    const stopped = () => {
      clearTimeout(grace);
      finish(false);
      reject(signal!.reason);
    };
    const onAbort = () => {
      // The worker's next check of the flag ends its work and its helper's;
      // its answer (an AbortError) then ends it here.
      stopping = true;
      Atomics.store(stop, 0, 1);
      grace = setTimeout(stopped, STOP_GRACE_MS);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    line.port1.onmessage = (e: MessageEvent<M | WorkerErrorMessage>) =>
      onMessage(e.data);
    trainer.on("error", trainerCrashed);
    trainer.on("exit", trainerExited);
    helper?.on("error", helperCrashed);
    helper?.on("exit", helperExited);
    postTo(trainer, { type: "line", port: line.port2 }, [line.port2]);
    line.port1.postMessage(run.request.value, run.transfer);
    // Posting copied (or moved) it: let the request be collected while the
    // worker runs.
    run.request.value = null;
  });
}

/**
 * How long an aborted worker with a stop flag may take to answer before it
 * is terminated anyway: a training checks its flag every round, so it
 * answers in milliseconds unless a round is very long.
 */
export const STOP_GRACE_MS = 5_000;

/** What {@linkcode runInWorker} starts, posts and reads. */
export interface WorkerRun<M extends { type: string }, T> {
  /** The worker's module. */
  url: URL;
  /** The worker's name (a module may install its handler only under it). */
  name?: string;
  /** Posted once; the box is emptied once posted, so the caller's copy can be collected. */
  request: { value: unknown };
  /** Buffers moved with the request. */
  transfer: Transferable[];
  /** Aborting terminates the worker and rejects with the signal's reason. */
  signal?: AbortSignal;
  /**
   * Reads each answer other than an error (a {@linkcode WorkerErrorMessage},
   * which rejects with the error {@linkcode reviveError} rebuilds);
   * `resolve` ends the run.
   */
  onMessage(m: M, resolve: (value: T) => void): void;
  /** The message for the caller when the worker itself fails (its script, not the work). */
  failure(message: string): string;
}

/**
 * Starts a worker, posts `run.request.value` and settles with what
 * `run.onMessage` resolves, or the error the worker posts or meets;
 * aborting terminates the worker. The worker is terminated however the run
 * ends. Ingestion's CSV parsing runs this way (training runs on warm
 * threads: {@linkcode runOnThreads}).
 *
 * @example
 * ```ts
 * import { runInWorker } from "./worker.ts";
 * const controller = new AbortController();
 * controller.abort(new Error("stopped"));
 * const outcome = await runInWorker({
 *   url: new URL("./train_worker.ts", import.meta.url),
 *   request: { value: null },
 *   transfer: [],
 *   signal: controller.signal,
 *   onMessage: () => {},
 *   failure: (message) => `the example worker failed: ${message}`,
 * }).catch((e) => e.message);
 * if (outcome !== "stopped") throw new Error("example failed");
 * ```
 */
export function runInWorker<M extends { type: string }, T>(
  run: WorkerRun<M, T>,
): Promise<T> {
  const { signal } = run;
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const worker = new Worker(run.url, { type: "module", name: run.name });
    const finish = () => {
      worker.terminate();
      signal?.removeEventListener("abort", onAbort);
    };
    const onAbort = () => {
      finish();
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    worker.onmessage = (e: MessageEvent<M | WorkerErrorMessage>) => {
      const m = e.data;
      if (isWorkerError(m)) {
        finish();
        reject(reviveError(m));
        return;
      }
      run.onMessage(m, (value) => {
        finish();
        resolve(value);
      });
    };
    // The worker's own failure (its script, not the work) ends the run.
    worker.onerror = (e: ErrorEvent) => {
      e.preventDefault();
      finish();
      reject(new Error(run.failure(e.message)));
    };
    worker.postMessage(run.request.value, run.transfer);
    // Posting copied (or moved) it: let the request be collected while the
    // worker runs.
    run.request.value = null;
  });
}

/** The model worker's file, next to this one (the npm build compiles both to .js). */
function workerUrl(): URL {
  const ext = import.meta.url.endsWith(".ts") ? "ts" : "js";
  return new URL(`./train_worker.${ext}`, import.meta.url);
}

/**
 * What a training ends with when its helper Worker dies (not an error its
 * work threw, which keeps its own message): said as the helper's, with
 * what to do.
 *
 * @example
 * ```ts
 * import { HELPER_CRASHED } from "./worker.ts";
 * if (!HELPER_CRASHED("out of memory").includes("train with one core")) throw new Error("example failed");
 * ```
 */
export const HELPER_CRASHED = (message: string): string =>
  `the helper thread of a two-thread fit crashed: ${message}; retry the training, or train with one core (useWorker: false)`;

/**
 * A {@link BagHelper} backed by one more model Worker (another core): it is
 * started at the first task and gets the dataset once (a copy); every task
 * runs `fitBags` there, stopping at `deadlineAt` (epoch ms) when given.
 * `close()` terminates it (tasks still pending, given up by the training,
 * resolve with no bags). Null where there is no `Worker` or one core
 * (training then fits every bag in its own thread, the same model). Given
 * `port`, the helper is the Worker at the port's other end, started by the
 * thread that started this one (see {@link trainInBackground}: a Worker
 * started by a Worker is slow to start); that thread also terminates it.
 *
 * @example
 * ```ts
 * import { encodeDataset } from "./encoding.ts";
 * import { fitBags } from "./bagging.ts";
 * import { resolveParams } from "./params.ts";
 * import { workerBagHelper } from "./worker.ts";
 *
 * const x = Array.from({ length: 300 }, (_, i) => i % 30);
 * const data = encodeDataset({ x, y: x.map((v) => (v > 14 ? "hi" : "lo")) }, [
 *   { name: "x", data_type: { data_type: "NUMBER" }, designation: "FEATURE", semantic_type: "CONTINUOUS" },
 *   { name: "y", data_type: { data_type: "STRING" }, designation: "TARGET", semantic_type: "CATEGORICAL" },
 * ]);
 * const helper = workerBagHelper(data, null, 2)!;
 * const params = resolveParams({ max_rounds: 20 }).params;
 * const task = () => ({ params, linear: false, linearBins: 0, sharedPairs: true, judged: false, bags: 3, claims: new Int32Array(new SharedArrayBuffer(8)) });
 * const there = await helper.run(task());
 * helper.close();
 * if (JSON.stringify(there) !== JSON.stringify(fitBags(data, task(), () => false))) throw new Error("example failed");
 * ```
 */
export function workerBagHelper(
  data: EncodedDataset,
  deadlineAt: number | null,
  cores: number = availableCores(),
  stop?: Int32Array,
  port?: MessagePort,
): { run: BagHelper; rows: RowHelper; close(): void } | null {
  if (cores < 2 || (!port && typeof Worker === "undefined")) return null;
  let worker: Worker | MessagePort | null = null;
  let dataSent = false;
  // The worker answers its tasks in order (a task given up answers []).
  const pending: {
    resolve: (r: BagResult[]) => void;
    reject: (e: Error) => void;
  }[] = [];
  const fail = (e: Error) => {
    for (const p of pending.splice(0)) p.reject(e);
  };
  const start = (): Worker | MessagePort => {
    if (!worker) {
      worker = port ?? new Worker(workerUrl(), { type: "module" });
      worker.onmessage = (e: MessageEvent<WorkerMessage>) => {
        const m = e.data;
        if (m.type === "error") {
          // A model error (the data's) keeps its type; anything else is said
          // as the helper's failure: the training's own thread met none, so
          // the bare message would not say where it came from.
          const e = reviveError(m);
          pending.shift()?.reject(
            e.constructor === Error || e instanceof TypeError ||
              e instanceof RangeError
              ? new Error(
                `the helper thread of a two-thread fit failed: ${e.message}; retry the training, or train with one core`,
                { cause: e },
              )
              : e,
          );
        } else if (m.type === "bags-done") {
          pending.shift()?.resolve(m.results);
        }
      };
      // Over a port, the Worker's own failure reaches the thread that
      // started it (runInWorker's `companion`), which ends the training.
      if (!port) {
        (worker as Worker).onerror = (e: ErrorEvent) => {
          e.preventDefault();
          fail(new Error(HELPER_CRASHED(e.message)));
        };
      }
    }
    return worker;
  };
  return {
    run(task: BagTask): Promise<BagResult[]> {
      return new Promise((resolve, reject) => {
        pending.push({ resolve, reject });
        const first = !dataSent;
        dataSent = true;
        start().postMessage({
          type: "bags",
          ...(first ? { data } : {}),
          task,
          deadlineAt,
          stop,
        });
      });
    },
    rows(setup: RowSetup): void {
      start().postMessage({ type: "rows", setup });
    },
    close() {
      // A port's Worker is terminated by the thread that started it; the
      // port itself is this training's alone.
      if (worker && !port) (worker as Worker).terminate();
      port?.close();
      worker = null;
      dataSent = false;
      // Only tasks the training gave up can be left: nobody waits on them.
      for (const p of pending.splice(0)) p.resolve([]);
    },
  };
}

/**
 * Whether a typed array's buffer can be transferred (an `ArrayBuffer`, not a
 * `SharedArrayBuffer`).
 *
 * @example
 * ```ts
 * import { isArrayBuffer } from "./worker.ts";
 * if (!(isArrayBuffer(new Uint8Array(2).buffer) && !isArrayBuffer(new SharedArrayBuffer(2)))) throw new Error("example failed");
 * ```
 */
export function isArrayBuffer(b: ArrayBufferLike): b is ArrayBuffer {
  return b instanceof ArrayBuffer;
}
