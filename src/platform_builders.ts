/**
 * The builders half of `MLPlatform` (platform.ts): column types, a fluent
 * builder per resource, views, deployment handles and `attach`. Builders of
 * jobs take the platform's progress display unless given one.
 *
 * @module
 */
import { Client, type ClientOptions } from "./client.ts";
import type { RequestOptions } from "./http/transport.ts";
import type { JobRef } from "./jobs/job.ts";
import type { PollOptions } from "./jobs/poll_schedule.ts";
import type { ProgressOption } from "./jobs/progress.ts";
import { ComputeBuilder, type ComputeOptions } from "./builders/compute.ts";
import {
  DeployedModelBuilder,
  type DeployedModelOptions,
  Deployment,
} from "./builders/deployment.ts";
import {
  DeploymentConfigurationBuilder,
  type DeploymentConfigurationOptions,
} from "./builders/deployment_configuration.ts";
import * as fieldTypes from "./builders/fields.ts";
import {
  type AttachedJobs,
  attachJob,
  type AttachKind,
  type AttachKindName,
  type CanonicalKind,
} from "./builders/attach.ts";
import {
  IngestionConfigurationBuilder,
  IngestionJobBuilder,
  type IngestionJobOptions,
} from "./builders/ingestion.ts";
import type { JobControl } from "./builders/job_builder.ts";
import {
  type EncodingOptions,
  OnboardingConfigurationBuilder,
  OnboardingJobBuilder,
  type OnboardingJobOptions,
} from "./builders/onboarding.ts";
import { SchemaBuilder } from "./builders/schema.ts";
import { StorageConnectorBuilder } from "./builders/storage.ts";
import {
  TrainingConfigurationBuilder,
  type TrainingConfigurationOptions,
  TrainingJobBuilder,
  type TrainingJobOptions,
} from "./builders/training.ts";
import {
  type ColumnSet,
  idOf,
  type RefLike,
  type Typed,
} from "./builders/types.ts";
import type { ViewsBuilder, ViewsQueryInput } from "./builders/views.ts";
import { WorkspaceBuilder } from "./builders/workspace.ts";
import {
  type InferOptions,
  type InferredFeatures,
  inferSchema,
  type InferSource,
} from "./infer/infer.ts";
import {
  ViewsBatchConfigurationBuilder,
  type ViewsBatchConfigurationOptions,
  ViewsBatchJobBuilder,
  type ViewsBatchJobOptions,
} from "./builders/batch.ts";
import type { ViewsBatches } from "./resources/batches.ts";
import type {
  DeployOptions,
  IngestOptions,
  MLPlatformOptions,
  OnboardOptions,
  QuickstartOptions,
  QuickstartResult,
  TrainOptions,
} from "./platform_options.ts";

export type {
  DeployOptions,
  IngestOptions,
  MLPlatformOptions,
  OnboardOptions,
  QuickstartOptions,
  QuickstartResult,
  TrainOptions,
};

/**
 * The platform client with fluent builders and column types; `MLPlatform`
 * adds the one-call steps on top.
 *
 * @example
 * ```ts
 * import { PlatformBuilders } from "./platform_builders.ts";
 * const ml = new PlatformBuilders({ baseUrl: "https://mlp.invalid", clientId: "id", clientSecret: "s" });
 * if (ml.workspace("w").body().name !== "w") throw new Error();
 * ```
 */
export class PlatformBuilders extends Client {
  /** The progress display of awaited jobs. */
  readonly progress?: ProgressOption;
  /** The poll schedule of jobs whose call names none. */
  readonly poll?: PollOptions;

  /** A platform client; see `ClientOptions`. */
  constructor(
    options: ClientOptions & { progress?: ProgressOption; poll?: PollOptions },
  ) {
    super(options);
    this.progress = options.progress;
    this.poll = options.poll;
  }

  // Column types --------------------------------------------------------

  /** A numeric column (`INT64` / `CONTINUOUS` by default). */
  number(options?: fieldTypes.NumberOptions): fieldTypes.FieldType {
    return fieldTypes.number(options);
  }
  /** A whole-number amount (`INT64` / `CONTINUOUS`). */
  integer(): fieldTypes.FieldType {
    return fieldTypes.integer();
  }
  /** A fractional amount (`FLOAT64` / `CONTINUOUS`). */
  float(): fieldTypes.FieldType {
    return fieldTypes.float();
  }
  /** Text labels (`STRING` / `CATEGORICAL`). */
  category(): fieldTypes.FieldType {
    return fieldTypes.category();
  }
  /** A 0/1 or small integer code read as labels (`INT64` / `CATEGORICAL`). */
  flag(): fieldTypes.FieldType {
    return fieldTypes.flag();
  }

  // Builders -----------------------------------------------------------

  /** A data schema builder: `.feature()`, `.target()`, then `.create()`. */
  schema(name: string): SchemaBuilder {
    return new SchemaBuilder(this, name);
  }

  /** Infers an editable schema from a CSV (path, URL, Blob), rows, columns or a DataFrame. */
  inferSchema<const S extends InferSource, const T extends string>(
    source: S,
    options: Omit<InferOptions<T>, "client">,
  ): Promise<SchemaBuilder<InferredFeatures<S, T>, T>> {
    return inferSchema(source, { ...options, client: this });
  }

  /** A storage connector for `bucket` (named after it unless `name` is given). Awaitable. */
  storageConnector(
    bucket: string,
    options: { name?: string } = {},
  ): StorageConnectorBuilder {
    return new StorageConnectorBuilder(this, {
      name: options.name ?? bucket,
      bucket,
    });
  }

  /** A compute configuration (`PROCESSING` on `ml.m5.large` by default). Awaitable. */
  compute(
    name: string,
    options: Omit<ComputeOptions, "name"> = {},
  ): ComputeBuilder {
    return new ComputeBuilder(this, { ...options, name });
  }

  /** A workspace. Awaitable. */
  workspace(name: string): WorkspaceBuilder {
    return new WorkspaceBuilder(this, { name });
  }

  /** An ingestion configuration for `schema`. Awaitable. */
  ingestionConfiguration<F extends string, T extends string>(
    name: string,
    schema: Typed<{ id: string }, F, T> | string,
  ): IngestionConfigurationBuilder<ColumnSet<F, T>> {
    return new IngestionConfigurationBuilder(this, { name, schema });
  }

  /** An ingestion job; `create()` (or `await`) gives a Job of the datasource. */
  ingestionJob<F extends string, T extends string>(
    options: IngestionJobOptions<ColumnSet<F, T>>,
  ): IngestionJobBuilder<ColumnSet<F, T>> {
    return new IngestionJobBuilder(this, this.#withDefaults(options));
  }

  /** An onboarding configuration for `targets`. Awaitable. */
  onboardingConfiguration<const T extends string>(
    name: string,
    options: EncodingOptions & { targets: readonly T[] },
  ): OnboardingConfigurationBuilder<T> {
    return new OnboardingConfigurationBuilder<T>(this, { ...options, name });
  }

  /** An onboarding job; `create()` (or `await`) gives a Job of the dataset. */
  onboardingJob<F extends string, T extends string>(
    options: OnboardingJobOptions<ColumnSet<F, T>>,
  ): OnboardingJobBuilder<ColumnSet<F, T>> {
    return new OnboardingJobBuilder(this, this.#withDefaults(options));
  }

  /** A training configuration with typed, documented hyperparameters. Awaitable. */
  trainingConfiguration(
    name: string,
    options: Omit<TrainingConfigurationOptions, "name"> = {},
  ): TrainingConfigurationBuilder {
    return new TrainingConfigurationBuilder(this, { ...options, name });
  }

  /** A training job; `create()` (or `await`) gives a Job of the model. */
  trainingJob<F extends string, T extends string>(
    options: TrainingJobOptions<ColumnSet<F, T>>,
  ): TrainingJobBuilder<ColumnSet<F, T>> {
    return new TrainingJobBuilder(this, this.#withDefaults(options));
  }

  /** A deployment configuration (4 concurrent, 2048 MB by default). Awaitable. */
  deploymentConfiguration(
    name: string,
    options: Omit<DeploymentConfigurationOptions, "name"> = {},
  ): DeploymentConfigurationBuilder {
    return new DeploymentConfigurationBuilder(this, { ...options, name });
  }

  /** A deployed model; `create()` (or `await`) gives a Job of the running deployment. */
  deployedModel<F extends string, T extends string>(
    options: DeployedModelOptions<ColumnSet<F, T>>,
  ): DeployedModelBuilder<ColumnSet<F, T>> {
    return new DeployedModelBuilder(this, this.#withDefaults(options));
  }

  /** A views batch configuration (extension): which views, the format, kept columns, bad rows. */
  viewsBatchConfiguration(
    name: string,
    options: Omit<ViewsBatchConfigurationOptions, "name"> = {},
  ): ViewsBatchConfigurationBuilder {
    return new ViewsBatchConfigurationBuilder(this, { ...options, name });
  }

  /** A views batch job (extension); `deployment.batch()` makes what it needs for you. */
  viewsBatchJob(options: ViewsBatchJobOptions): ViewsBatchJobBuilder {
    return new ViewsBatchJobBuilder(this, this.#withDefaults(options));
  }

  /** Views batches, made by views batch jobs: `ml.batches.list()`, `ml.batches.results(id)`. */
  get batches(): ViewsBatches {
    return this.viewsBatches;
  }

  /** A views request on a deployment: add `.explain()`, then `await` it. */
  views<F extends string, T extends string>(
    deployment: Deployment<F, T>,
    query: ViewsQueryInput<F>,
  ): ViewsBuilder<F, T> {
    return deployment.query(query);
  }

  /** A handle on an existing deployed model (by id or resource), for `views()`. */
  async deployment(
    ref: RefLike,
    options?: RequestOptions,
  ): Promise<Deployment> {
    const resource = await this.deployedModels.get(idOf(ref), options);
    const model = await this.models.get(resource.model.id, options);
    return new Deployment(this, resource, model);
  }

  /**
   * The {@linkcode Job} of an existing job or deployed model, from its kind
   * and id (or the `ref` that `job.ref()` gave): `await` it for the typed
   * result, `watch()` it, `cancel()` it, with the usual progress display.
   * Works in any process and over `connect()` or `local()`: the id is all
   * it needs.
   *
   * ```ts ignore
   * const job = ml.train(dataset, { max_rounds: 500 });   // starts; does not wait
   * const ref = await job.ref();     // { kind: "training job", id: "tj_..." }: save it
   * // ... later, in another kernel or script:
   * const model = await ml.attach("training", ref.id);    // or ml.attach(ref)
   * ```
   */
  attach<
    K extends AttachKindName,
    F extends string = string,
    T extends string = string,
  >(
    kind: K,
    id: string,
    options?: JobControl,
  ): AttachedJobs<F, T>[CanonicalKind<K>];
  /** The {@linkcode Job} that `ref` (from `job.ref()`) names. */
  attach(
    ref: JobRef,
    options?: JobControl,
  ): AttachedJobs<string, string>[AttachKind];
  attach(
    kindOrRef: string | JobRef,
    idOrOptions?: string | JobControl,
    options?: JobControl,
  ): AttachedJobs<string, string>[AttachKind] {
    return typeof kindOrRef === "string"
      ? attachJob(
        this,
        kindOrRef as AttachKindName,
        idOrOptions as string,
        this.#withDefaults(options ?? {}),
      )
      : attachJob(
        this,
        kindOrRef,
        this.#withDefaults((idOrOptions ?? {}) as JobControl),
      );
  }

  /** `options` with this platform's progress display and poll schedule where they name none. */
  #withDefaults<O extends JobControl>(options: O): O {
    return {
      ...options,
      ...(options.progress === undefined && this.progress !== undefined
        ? { progress: this.progress }
        : {}),
      ...(options.poll === undefined && this.poll !== undefined
        ? { poll: this.poll }
        : {}),
    };
  }
}
