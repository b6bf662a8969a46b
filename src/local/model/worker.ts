/**
 * Background training that does not block the server: in a Web Worker where
 * the runtime has `Worker` (Deno, browsers), else in-thread training that
 * yields to the event loop every ~10 ms (Node 20). Both run the same training
 * code, so they return the same model.
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

import { type LoggedRound, trainAsync } from "./ebm.ts";
import type { EncodedDataset } from "./encoding.ts";
import {
  ModelDataError,
  ModelError,
  ModelInputError,
  ModelParamError,
} from "./errors.ts";
import type { TrainingParams } from "./params.ts";
import type { Model } from "./types.ts";

/** Options of {@link trainInBackground}. */
export interface BackgroundOptions {
  /** Called with the overall fraction (0..1), the stage name and each logged round's losses. */
  onProgress?: (fraction: number, stage: string, logged?: LoggedRound) => void;
  /** Aborting stops training (the worker is terminated) and rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Runtime cap: training stops cleanly and returns the best model so far. */
  maximumRuntimeSeconds?: number;
  /** `false` forces in-thread training even where `Worker` exists (default: use a worker when possible). */
  useWorker?: boolean;
}

type WorkerMessage =
  | {
    type: "progress";
    fraction: number;
    stage: string;
    logged?: LoggedRound;
  }
  | { type: "done"; model: Model }
  | {
    type: "error";
    name: string;
    message: string;
    column: string | null;
    code: string | null;
  };

/** Rebuilds a typed error from its posted fields (errors do not keep their class across workers). */
function reviveError(m: Extract<WorkerMessage, { type: "error" }>): Error {
  const kinds: Record<string, typeof ModelError> = {
    ModelDataError,
    ModelInputError,
    ModelParamError,
    ModelError,
  };
  const Kind = kinds[m.name];
  if (Kind) return new Kind(m.column, m.code ?? "ERROR", m.message);
  const e = new Error(m.message);
  e.name = m.name;
  return e;
}

let liveWorkers = 0;

/**
 * How many training Workers are alive in this process (started, not yet
 * terminated): a cancelled or finished training leaves none behind.
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
): Promise<Model> {
  const { onProgress, signal, maximumRuntimeSeconds } = options;
  if (options.useWorker === false || typeof Worker === "undefined") {
    return trainAsync(data, params, {
      onProgress,
      signal,
      maximumRuntimeSeconds,
    });
  }
  return new Promise<Model>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    // The npm build compiles both files to .js side by side: follow our own
    // extension so Deno running the package, or Bun, finds the worker too.
    const ext = import.meta.url.endsWith(".ts") ? "ts" : "js";
    const worker = new Worker(
      new URL(`./train_worker.${ext}`, import.meta.url),
      {
        type: "module",
      },
    );
    liveWorkers++;
    let terminated = false;
    const finish = () => {
      worker.terminate();
      if (!terminated) liveWorkers--;
      terminated = true;
      signal?.removeEventListener("abort", onAbort);
    };
    const onAbort = () => {
      finish();
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    worker.onmessage = (e: MessageEvent<WorkerMessage>) => {
      const m = e.data;
      if (m.type === "progress") onProgress?.(m.fraction, m.stage, m.logged);
      else if (m.type === "done") {
        finish();
        resolve(m.model);
      } else {
        finish();
        reject(reviveError(m));
      }
    };
    worker.onerror = (e: ErrorEvent) => {
      e.preventDefault();
      finish();
      reject(
        new Error(
          `training worker failed: ${e.message}; retry, or train in-thread with useWorker: false.`,
        ),
      );
    };
    worker.postMessage({ data, params, maximumRuntimeSeconds });
  });
}
