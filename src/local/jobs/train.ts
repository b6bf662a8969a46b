/**
 * The work of a training job (`INDUCTION`): re-encode the dataset, train the
 * explainable boosted model in the background (in a Web Worker where the
 * runtime has one, else yielding to the event loop: polls and views stay
 * responsive either way), report progress as it
 * trains, stop at the runtime cap with the best model so far, and store it.
 * The job carries its learning curve (`learning_curve`: training and
 * validation loss per logged round) while it trains; the model gets it too.
 *
 * @module
 */
import type { LearningCurvePoint } from "../../schemas/learning_curve.ts";
import type { LoggedRound } from "../model/ebm.ts";
import { trainInBackground } from "../model/worker.ts";
import type { TrainingParams } from "../model/params.ts";
import type { EbmModel } from "../model/types.ts";
import type { Store } from "../store/store.ts";
import { macrotask } from "./yield.ts";
import { takeEncoded } from "./onboard.ts";
import type { JobWork } from "./runner.ts";
import { modelBlobs } from "../store/blobs.ts";
import type { ConstraintCost } from "../../schemas/constraints.ts";
import { constrainDataset } from "../model/constraints.ts";
import type { FieldGroupMetrics } from "../model/fairness.ts";
import type { ModelConstraints } from "../model/types.ts";
import {
  constraintCost,
  validationGroupMetrics,
  validationRowsOf,
  withGroupCuts,
} from "./constrained.ts";

/** Most points a learning curve keeps (see {@linkcode curveRecorder}). */
export const MAX_CURVE_POINTS = 1000;

/**
 * Collects a training's logged rounds as the wire's learning curve. Every
 * logged round is kept up to `max` points; past that, every other point is
 * dropped and only every second (fourth...) round is kept from then on, so
 * the curve still spans the whole training at even spacing.
 *
 * @example
 * ```ts
 * import { curveRecorder } from "./train.ts";
 * const curve = curveRecorder(4);
 * for (let r = 1; r <= 10; r++) {
 *   curve.add({ round: r, stage: "training", trainingLoss: 1 / r, validationLoss: null });
 * }
 * const rounds = curve.points().map((p) => p.round).join();
 * if (rounds !== "1,5,9") throw new Error(rounds);
 * ```
 */
export function curveRecorder(max: number = MAX_CURVE_POINTS): {
  add(logged: LoggedRound): void;
  points(): LearningCurvePoint[];
} {
  let points: LearningCurvePoint[] = [];
  let stride = 1;
  let seen = 0;
  return {
    add(logged) {
      if (seen++ % stride !== 0) return;
      points.push({
        round: logged.round,
        stage: logged.stage,
        training_loss: logged.trainingLoss,
        validation_loss: logged.validationLoss,
      });
      if (points.length > max) {
        points = points.filter((_, i) => i % 2 === 0);
        stride *= 2;
      }
    },
    points: () => points,
  };
}

/**
 * Builds the training work; `onDone` gets the trained model and its
 * learning curve.
 *
 * @example
 * ```ts
 * import { MemoryStore } from "../store/store.ts";
 * import { uncheckedRecord } from "../../../tests/_helpers/records.ts";
 * import { JobRunner } from "./runner.ts";
 * import { trainWork } from "./train.ts";
 * const store = new MemoryStore();
 * store.put(uncheckedRecord({ kind: "trainingJobs", id: "t", account: "a", body: {} }));
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
    /** docs/contract.md#model-constraints-and-protected-fields; null: none. */
    constraints?: ModelConstraints | null;
    /** Also train without the constraints and report both figures. */
    measureCost?: boolean;
  },
  onDone: (
    model: EbmModel,
    curve: LearningCurvePoint[],
    extras: {
      groupMetrics?: FieldGroupMetrics[];
      constraintCost?: ConstraintCost;
    },
  ) => void,
): JobWork {
  return async (job) => {
    job.report("loading", 0, 0.01);
    // Onboarding's own encoded rows when they are still there.
    const full = takeEncoded(store, input.datasetId);
    const c = input.constraints && withGroupCuts(full, input.constraints);
    const data = c ? constrainDataset(full, c) : full;
    const validationRows = c?.protected.length
      ? validationRowsOf(full, input.params)
      : [];
    job.report("loading", 1, 0.05);
    await macrotask();
    // The same training without the constraints (protected fields stay
    // out), for the cost of the constraints; its data is copied, not moved.
    const reference = c && input.measureCost
      ? await trainInBackground(
        constrainDataset(full, {
          ...c,
          monotone: {},
          excluded: [],
          groups: null,
        }),
        input.params,
        {
          signal: job.signal,
          maximumRuntimeSeconds: job.secondsLeft() * 0.45,
          onProgress: (f) => job.report("training_unconstrained", f, 0.05),
        },
      )
      : null;
    const curve = curveRecorder();
    // Leave a tenth of the remaining time to store the model before the hard cap.
    const model = await trainInBackground(data, input.params, {
      signal: job.signal,
      // Encoded for this job alone: its buffers go to the worker uncopied.
      transferData: true,
      maximumRuntimeSeconds: Math.max(0.1, job.secondsLeft() * 0.9),
      onProgress: (fraction, stage, logged) => {
        if (logged) curve.add(logged);
        job.report(
          stage || "training",
          fraction,
          0.05 + 0.9 * fraction,
          logged ? { learning_curve: [...curve.points()] } : undefined,
        );
      },
    });
    job.report("storing", 0, 0.95);
    const groupMetrics = c
      ? validationGroupMetrics(store, input.datasetId, model, validationRows)
      : undefined;
    modelBlobs.write(store, input.modelId, model);
    job.report("storing", 1, 1);
    onDone(model, curve.points(), {
      groupMetrics,
      constraintCost: reference ? constraintCost(model, reference) : undefined,
    });
  };
}
