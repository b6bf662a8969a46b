/**
 * The work of a training job (`INDUCTION`): re-encode the dataset, train the
 * explainable boosted model in the background (in a Web Worker where the
 * runtime has one, else yielding to the event loop: polls and views stay
 * responsive either way), report progress as it
 * trains, stop at the runtime cap with the best model so far, and store it.
 *
 * @module
 */
import { trainInBackground } from "../model/worker.ts";
import type { TrainingParams } from "../model/params.ts";
import type { Model } from "../model/types.ts";
import type { Store } from "../store.ts";
import { macrotask } from "./ingest.ts";
import { loadEncoded } from "./onboard.ts";
import type { JobWork } from "./runner.ts";

/** Blob key of a trained model. */
export const modelBlobKey = (id: string): string => `model:${id}`;

/**
 * Builds the training work; `onDone` gets the trained model.
 *
 * @example
 * ```ts
 * import { MemoryStore } from "../store.ts";
 * import { JobRunner } from "./runner.ts";
 * import { trainWork } from "./train.ts";
 * const store = new MemoryStore();
 * store.put({ kind: "trainingJobs", id: "t", account: "a", body: {}, internal: {} });
 * await new JobRunner(store, () => {}).start("trainingJobs", "t", 60,
 *   trainWork(store, { datasetId: "none", modelId: "m", params: {} }, () => {}));
 * if (store.get("trainingJobs", "t")!.body.status !== "FAILED") throw new Error();
 * ```
 */
export function trainWork(
  store: Store,
  input: {
    datasetId: string;
    modelId: string;
    params: Partial<TrainingParams>;
  },
  onDone: (model: Model) => void,
): JobWork {
  return async (job) => {
    job.report("loading", 0, 0.01);
    const data = loadEncoded(store, input.datasetId);
    job.report("loading", 1, 0.05);
    await macrotask();
    // Leave a tenth of the remaining time to store the model before the hard cap.
    const model = await trainInBackground(data, input.params, {
      signal: job.signal,
      maximumRuntimeSeconds: Math.max(0.1, job.secondsLeft() * 0.9),
      onProgress: (fraction, stage) =>
        job.report(stage || "training", fraction, 0.05 + 0.9 * fraction),
    });
    job.report("storing", 0, 0.95);
    store.putBlob(modelBlobKey(input.modelId), model);
    job.report("storing", 1, 1);
    onDone(model);
  };
}
