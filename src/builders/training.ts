// deno-doc-ignore-file private-type-ref missing-explicit-type missing-return-type -- protected builder internals are typed by the zod request schemas they validate with
/**
 * Training: the configuration (hyperparameters) and the job that turns a
 * dataset into a model.
 *
 * @module
 */
import type { z } from "zod";
import type { Model } from "../schemas/artifacts.ts";
import {
  type TrainingConfiguration,
  TrainingConfigurationCreateSchema,
  type TrainingJob,
  TrainingJobCreateSchema,
} from "../schemas/training.ts";
import { type CreateOptions, OptionsBuilder, wireFields } from "./base.ts";
import type { BuilderClient } from "./builder_client.ts";
import {
  hyperparameterFields,
  type Hyperparameters,
} from "./hyperparameters.ts";
import { JobBuilder, type JobControl, type JobSteps } from "./job_builder.ts";
import { idOf, type RefLike, type Typed } from "./types.ts";

/** Options of a training configuration: a name, the hyperparameters, and the type. */
export interface TrainingConfigurationOptions extends Hyperparameters {
  /** Configuration name (unique in the account). */
  name: string;
  /** `INDUCTION` (default): an explainable boosted additive model. */
  modelTrainingType?: "INDUCTION";
  /** Capabilities asked of the model. */
  modelCapabilities?: { hasCausal?: boolean; estimatorsData?: boolean };
}

/**
 * Builds `POST /training-configurations`. Immutable; awaitable.
 *
 * @example
 * ```ts
 * import { TrainingConfigurationBuilder } from "./training.ts";
 * const b = new TrainingConfigurationBuilder(undefined, { name: "fast", learningRate: 0.2 });
 * b.with({ maxRounds: 200 }).body().max_rounds; // 200
 * try {
 *   b.with({ trainingSize: 0.9, validationSize: 0.3 }).body();
 * } catch (e) {
 *   if (!String(e).includes("validation_size")) throw e;
 * }
 * ```
 */
export class TrainingConfigurationBuilder extends OptionsBuilder<
  TrainingConfigurationOptions,
  typeof TrainingConfigurationCreateSchema,
  TrainingConfiguration
> {
  /** What is built. */
  readonly what = "training configuration";
  /** The body schema. */
  protected readonly schema = TrainingConfigurationCreateSchema;
  /** Wire -> option names. */
  protected override optionNames(): Record<string, string> {
    return wireFields(this.options).names;
  }
  /** The body as given. */
  protected raw(): Record<string, unknown> {
    const { name, modelTrainingType, modelCapabilities, ...rest } =
      this.options;
    return {
      name,
      model_training_type: modelTrainingType,
      ...hyperparameterFields(rest),
      model_capabilities: modelCapabilities && {
        has_causal: modelCapabilities.hasCausal,
        estimators_data: modelCapabilities.estimatorsData,
      },
    };
  }
  /** Sends it. */
  protected send(
    body: z.output<typeof TrainingConfigurationCreateSchema>,
    options?: CreateOptions,
  ): Promise<TrainingConfiguration> {
    return this.requireClient().trainingConfigurations.create(body, options);
  }
}

/** Options of a training job. */
export interface TrainingJobOptions<
  F extends string = string,
  T extends string = string,
> extends JobControl {
  /** Job name (default: `train-<modelName>`). */
  name?: string;
  /** The dataset to train on. */
  dataset: Typed<{ id: string }, F, T> | string;
  /** The training configuration. */
  configuration: RefLike;
  /** A training compute configuration. */
  compute: RefLike;
  /** The workspace (sent as `X-Active-Workspace`; default: the client's). */
  workspace?: RefLike;
  /** Name of the model to create. */
  modelName: string;
  /** Train on spot capacity (default false). */
  managedSpotTraining?: boolean;
}

/**
 * Builds `POST /training-jobs`; `create()` returns a `Job` resolving to
 * the model once `COMPLETED`.
 *
 * @example
 * ```ts
 * import { TrainingJobBuilder } from "./training.ts";
 * new TrainingJobBuilder(undefined, {
 *   dataset: "ds_1", configuration: "tc_1", compute: "cc_1", modelName: "churn",
 * }).body().managed_spot_training; // false
 * ```
 */
export class TrainingJobBuilder<
  F extends string = string,
  T extends string = string,
> extends JobBuilder<
  TrainingJobOptions<F, T>,
  typeof TrainingJobCreateSchema,
  TrainingJob,
  Typed<Model, F, T>
> {
  /** What is built. */
  readonly what = "training job";
  /** The body schema. */
  protected readonly schema = TrainingJobCreateSchema;
  /** Wire -> option names. */
  protected override optionNames(): Record<string, string> {
    return {
      dataset_id: "dataset",
      training_configuration_id: "configuration",
      compute_configuration_id: "compute",
      model_name: "modelName",
      managed_spot_training: "managedSpotTraining",
    };
  }
  /** The body as given. */
  protected raw(): Record<string, unknown> {
    const o = this.options;
    return {
      name: o.name ?? (o.modelName ? `train-${o.modelName}` : undefined),
      dataset_id: idOf(o.dataset),
      training_configuration_id: idOf(o.configuration),
      compute_configuration_id: idOf(o.compute),
      model_name: o.modelName,
      managed_spot_training: o.managedSpotTraining,
    };
  }
  /** Starts, retrieves and resolves a training job. */
  protected definition(
    client: BuilderClient,
    body: z.output<typeof TrainingJobCreateSchema>,
    options?: CreateOptions,
  ) {
    const workspaceId = idOf(this.options.workspace);
    return {
      ...trainingSteps<F, T>(client),
      // Left out when not given, so the client's own workspaceId applies.
      start: () =>
        client.trainingJobs.create(
          body,
          workspaceId ? { ...options, workspaceId } : options,
        ),
    };
  }
}

/**
 * How a training job is followed once it exists: retrieved, resolved to
 * its model, cancelled. Shared by the builder and `ml.attach`.
 */
export function trainingSteps<F extends string, T extends string>(
  client: BuilderClient,
): JobSteps<TrainingJob, Typed<Model, F, T>> {
  return {
    kind: "training job",
    retrieve: (id, o) => client.trainingJobs.get(id, o),
    resolve: (job, o) =>
      client.models.get(job.model.id, o) as Promise<Typed<Model, F, T>>,
    cancel: (id, o) => client.trainingJobs.cancel(id, o),
  };
}
