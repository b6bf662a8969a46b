/**
 * Worker entry for {@link ./worker.ts}: receives an encoded dataset and the
 * parameters, trains with the same code as in-thread training, and posts
 * progress messages and finally the model (or the error) back.
 *
 * Messages out: `{ type: "progress", fraction, stage, logged? }`, `{ type: "done", model }`,
 * `{ type: "error", name, message, column, code }`.
 *
 * @example
 * ```ts
 * // Started by trainInBackground; not imported directly:
 * const url = new URL("./train_worker.ts", import.meta.url);
 * if (!(url.pathname.endsWith("train_worker.ts"))) throw new Error("example failed");
 * ```
 *
 * @module
 */

import { train } from "./ebm.ts";
import type { EncodedDataset } from "./encoding.ts";
import { ModelError } from "./errors.ts";
import type { TrainingParams } from "./params.ts";

/** The request the main thread posts. */
export interface TrainRequest {
  data: EncodedDataset;
  params: Partial<TrainingParams>;
  maximumRuntimeSeconds?: number;
}

// Only the two members used, so this file type-checks without the worker lib.
const scope = globalThis as unknown as {
  onmessage: ((e: MessageEvent<TrainRequest>) => void) | null;
  postMessage(message: unknown): void;
};

scope.onmessage = (e) => {
  const { data, params, maximumRuntimeSeconds } = e.data;
  try {
    const model = train(data, params, {
      maximumRuntimeSeconds,
      onProgress: (fraction, stage, logged) =>
        scope.postMessage({ type: "progress", fraction, stage, logged }),
    });
    scope.postMessage({ type: "done", model });
  } catch (err) {
    const m = err instanceof ModelError ? err : null;
    scope.postMessage({
      type: "error",
      name: err instanceof Error ? err.name : "Error",
      message: err instanceof Error ? err.message : String(err),
      column: m?.column ?? null,
      code: m?.code ?? null,
    });
  }
};
