/**
 * `MLPlatform`: the client plus fluent builders, awaitable jobs and one-call
 * steps, and {@linkcode connect}, which makes one from options or the
 * environment.
 *
 * ```ts ignore
 * const ml = connect(); // MLP_BASE_URL, MLP_CLIENT_ID, MLP_CLIENT_SECRET
 * const storage = await ml.storageConnector("my-bucket");
 * const schema = await ml.schema("churn")
 *   .feature("tenure", ml.integer())
 *   .feature("contract", ml.category())
 *   .target("churn")
 *   .create();
 * const source = await ml.ingest("churn.csv", { storage, schema });
 * const dataset = await ml.onboard(source);
 * const model = await ml.train(dataset, { maxRounds: 300 });
 * const live = await ml.deploy(model);
 * const result = await live.views({ tenure: [1, 34], contract: ["Month-to-month", "One year"] });
 * ```
 *
 * @module
 */
// The composition root plugs the notebook layer's renderers (cards, tables,
// charts, live progress) into the display hooks of errors, jobs and
// resources (src/display.ts), so every entry that makes a platform renders
// richly in Deno's Jupyter kernel with no setup; nothing below this file
// imports the notebook.
import "./notebook/register.ts";
import { Client, type ClientOptions, resolveClientOptions } from "./client.ts";
import { ConfigurationError } from "./http/errors.ts";
import type { RequestOptions } from "./http/transport.ts";
import { Job, type JobDefinition, type JobRef } from "./jobs/job.ts";
import { CancellationNotSupportedError } from "./jobs/errors.ts";
import type { ProgressOption } from "./jobs/progress.ts";
import type { JobSnapshot } from "./jobs/status.ts";
import type { Dataset, Datasource, Model } from "./schemas/artifacts.ts";
import type { ComputeConfiguration, ComputeType } from "./schemas/compute.ts";
import type { DataSchema } from "./schemas/data_schemas.ts";
import type { StorageConnector } from "./schemas/storage.ts";
import type { Workspace } from "./schemas/workspaces.ts";
import { uniqueName } from "./builders/base.ts";
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
import type { Hyperparameters } from "./builders/hyperparameters.ts";
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
import { predictionTypeOf, SchemaBuilder } from "./builders/schema.ts";
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
  ViewsBatchConfigurationBuilder,
  type ViewsBatchConfigurationOptions,
  ViewsBatchJobBuilder,
  type ViewsBatchJobOptions,
} from "./builders/batch.ts";
import type { ViewsBatches } from "./resources/batches.ts";
import {
  type InferOptions,
  type InferredFeatures,
  inferSchema,
  type InferSource,
} from "./infer/infer.ts";

/** Options of an {@linkcode MLPlatform}: the client's, plus progress display. */
export interface MLPlatformOptions extends ClientOptions {
  /** Progress of awaited jobs: `false` silences the terminal bar; a factory draws your own. */
  progress?: ProgressOption;
  /**
   * Reads a bucket object as text, so `quickstart()` can infer a schema
   * from the file it is about to ingest. `local()` sets it; with the hosted
   * service, pass `sample` to `quickstart()` instead.
   */
  readObject?: (bucket: string, path: string) => Promise<string>;
}

/** Options of {@linkcode MLPlatform.ingest}. */
export interface IngestOptions<F extends string, T extends string>
  extends JobControl {
  /** The storage connector holding the file. */
  storage: RefLike;
  /** The data schema the file follows. */
  schema: Typed<{ id: string; name?: string }, F, T> | string;
  /** A processing compute configuration (default: one made once per MLPlatform). */
  compute?: RefLike;
  /** An ingestion configuration (default: a new one for `schema`). */
  configuration?: RefLike;
  /** Name of the datasource (default: the file name and a unique suffix). */
  datasourceName?: string;
}

/** Options of {@linkcode MLPlatform.onboard}. */
export interface OnboardOptions<T extends string>
  extends EncodingOptions, JobControl {
  /** Targets (default: every target of the datasource's schema). */
  targets?: readonly T[];
  /** A processing compute configuration (default: one made once per MLPlatform). */
  compute?: RefLike;
  /** An onboarding configuration (default: a new one from these options). */
  configuration?: RefLike;
  /** Name of the dataset (default: unique). */
  datasetName?: string;
}

/** Options of {@linkcode MLPlatform.train}: hyperparameters plus where to train. */
export interface TrainOptions extends Hyperparameters, JobControl {
  /** Workspace (default: the client's `workspaceId`, else one made once per MLPlatform). */
  workspace?: RefLike;
  /** A training configuration (default: a new one from the hyperparameters given). */
  configuration?: RefLike;
  /** A training compute configuration (default: one made once per MLPlatform). */
  compute?: RefLike;
  /** Name of the model (default: unique). */
  modelName?: string;
  /** Train on spot capacity (default false). */
  managedSpotTraining?: boolean;
}

/** Options of {@linkcode MLPlatform.deploy}. */
export interface DeployOptions extends JobControl {
  /** A deployment configuration (default: a new one from the options below). */
  configuration?: RefLike;
  /** Views requests served at once (default 4). */
  maximumConcurrency?: number;
  /** Memory in MB (default 2048). */
  memorySize?: number;
  /** Deployed model name (default: the model's name plus a unique suffix). */
  name?: string;
}

/** Options of {@linkcode MLPlatform.quickstart}. */
export interface QuickstartOptions<T extends string> {
  /** The bucket holding the file (a storage connector is made for it)... */
  bucket?: string;
  /** ...or an existing storage connector. */
  storage?: RefLike;
  /** Path of the CSV file inside the bucket. */
  path: string;
  /** The column to predict. */
  target: T;
  /**
   * The data to infer the schema from (default: `path` read from disk,
   * which works with the local platform's folder buckets; pass the CSV
   * (path, URL, Blob, rows) when the bucket is remote).
   */
  sample?: InferSource;
  /** Schema and resource name prefix (default: the file name). */
  name?: string;
  /** Columns to leave out of the schema. */
  exclude?: readonly string[];
  /**
   * `CLASSIFICATION` or `REGRESSION`. Default: REGRESSION when the target
   * holds more than 20 distinct numbers (not only 0/1), else CLASSIFICATION;
   * `schema` (and the model's `metrics`) show which was used.
   */
  predictionType?: "CLASSIFICATION" | "REGRESSION";
  /** Hyperparameters of training. */
  training?: Hyperparameters;
  /** Progress display; `false` for none. */
  progress?: ProgressOption;
}

/** What {@linkcode MLPlatform.quickstart} made, step by step. */
export interface QuickstartResult<F extends string, T extends string> {
  /** The storage connector. */
  storage: StorageConnector | { id: string };
  /** The data schema (inferred). */
  schema: Typed<DataSchema, F, T>;
  /** Review notes of the inferred schema. */
  review: readonly { field: string; reason: string; suggestion: string }[];
  /** The ingested datasource. */
  datasource: Typed<Datasource, F, T>;
  /** The onboarded dataset. */
  dataset: Typed<Dataset, F, T>;
  /** The trained model. */
  model: Typed<Model, F, T>;
  /** The running deployed model, ready for `views()`. */
  deployment: Deployment<F, T>;
}

/**
 * The platform client with builders and awaitable jobs. Every method of
 * `Client` is here too (`ml.models.list()`, ...).
 *
 * @example Builders show their request body before anything is sent
 * ```ts
 * import { MLPlatform } from "./platform.ts";
 * const ml = new MLPlatform({ baseUrl: "https://mlp.invalid", clientId: "id", clientSecret: "s" });
 * const body = ml.schema("churn")
 *   .feature("tenure", ml.integer())
 *   .target("churn")
 *   .body();
 * body.fields.length; // 2
 * ml.deploymentConfiguration("small", { maximumConcurrency: 2 }).body().memory_size; // 2048
 * ```
 */
export class MLPlatform extends Client {
  /** The progress display of awaited jobs. */
  readonly progress?: ProgressOption;
  readonly #computes = new Map<ComputeType, Promise<ComputeConfiguration>>();
  #workspace?: Promise<Workspace>;
  readonly #defaultWorkspaceId?: string;
  readonly #readObject?: (bucket: string, path: string) => Promise<string>;

  /** A platform client; see `ClientOptions`. */
  constructor(options: MLPlatformOptions) {
    super(options);
    this.progress = options.progress;
    this.#readObject = options.readObject;
    this.#defaultWorkspaceId = options.workspaceId;
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
    return new IngestionJobBuilder(this, this.#withProgress(options));
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
    return new OnboardingJobBuilder(this, this.#withProgress(options));
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
    return new TrainingJobBuilder(this, this.#withProgress(options));
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
    return new DeployedModelBuilder(this, this.#withProgress(options));
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
    return new ViewsBatchJobBuilder(this, this.#withProgress(options));
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
        this.#withProgress(options ?? {}),
      )
      : attachJob(
        this,
        kindOrRef,
        this.#withProgress((idOrOptions ?? {}) as JobControl),
      );
  }

  // One-call steps -------------------------------------------------------

  /**
   * Ingests `path` from `storage` following `schema`: makes the ingestion
   * configuration (and a processing compute) when not given, starts the
   * job, and resolves to the datasource once `COMPLETED`.
   */
  ingest<F extends string, T extends string>(
    path: string,
    options: IngestOptions<F, T>,
  ): Job<JobSnapshot, Typed<Datasource, F, T>> {
    return this.#deferred("ingestion job", undefined, options, async () => {
      const base = baseName(path);
      const configuration = options.configuration ??
        await this.ingestionConfiguration(
          uniqueName(`${base}-ingestion`),
          options.schema,
        ).create();
      const compute = options.compute ?? await this.#compute("PROCESSING");
      return this.ingestionJob<F, T>({
        configuration: idOf(configuration),
        storage: options.storage,
        compute,
        path,
        datasourceName: options.datasourceName ?? uniqueName(base),
      }).toDefinition();
    });
  }

  /**
   * Onboards a datasource into a dataset: targets default to the schema's
   * (and are checked against it), the configuration and compute are made
   * when not given; resolves to the dataset once `COMPLETED`.
   */
  onboard<F extends string, T extends string>(
    source: Typed<{ id: string }, F, T> | string,
    options: OnboardOptions<NoInfer<T>> = {},
  ): Job<JobSnapshot, Typed<Dataset, F, T>> {
    return this.#deferred("onboarding job", undefined, options, async () => {
      const {
        targets,
        compute,
        configuration,
        datasetName,
        progress: _progress, // progress and poll: the Job's, not the body's
        poll: _poll,
        ...encoding
      } = options;
      let config = configuration;
      if (!config) {
        const fields = await this.#schemaTargets(source);
        const schemaTargets = fields?.map((f) => f.name);
        const chosen = targets ?? schemaTargets ?? [];
        config = await this.onboardingConfiguration(
          uniqueName("onboarding"),
          {
            // A CONTINUOUS number target is predicted as a number.
            predictionType: fields &&
              predictionTypeOf(
                fields.filter((f) => (chosen as string[]).includes(f.name)),
              ),
            ...encoding,
            targets: chosen,
          },
        ).with({ schemaTargets }).create();
      }
      return this.onboardingJob<F, T>({
        datasource: source,
        configuration: config,
        compute: compute ?? await this.#compute("PROCESSING"),
        datasetName: datasetName ?? uniqueName("dataset"),
      }).toDefinition();
    });
  }

  /**
   * Trains a model on `dataset` with the given hyperparameters: the
   * workspace, training configuration and training compute are made when
   * not given; resolves to the model once `COMPLETED`.
   */
  train<F extends string, T extends string>(
    dataset: Typed<{ id: string }, F, T> | string,
    options: TrainOptions = {},
  ): Job<JobSnapshot, Typed<Model, F, T>> {
    return this.#deferred("training job", undefined, options, async () => {
      const {
        workspace,
        configuration,
        compute,
        modelName,
        managedSpotTraining,
        progress: _progress, // progress and poll: the Job's, not the body's
        poll: _poll,
        ...hyperparameters
      } = options;
      const config = configuration ??
        await this.trainingConfiguration(
          uniqueName("training"),
          hyperparameters,
        )
          .create();
      return this.trainingJob<F, T>({
        dataset,
        configuration: config,
        compute: compute ?? await this.#compute("TRAINING"),
        workspace: workspace ??
          (this.#defaultWorkspaceId ? undefined : await this.#ownWorkspace()),
        modelName: modelName ?? uniqueName("model"),
        managedSpotTraining,
      }).toDefinition();
    });
  }

  /**
   * Deploys a model (making a deployment configuration when not given) and
   * resolves to a {@linkcode Deployment} once it is `RUNNING`.
   */
  deploy<F extends string, T extends string>(
    model: Typed<{ id: string; name?: string | null }, F, T> | string,
    options: DeployOptions = {},
  ): Job<JobSnapshot, Deployment<F, T>> {
    return this.#deferred("deployed model", ["RUNNING"], options, async () => {
      const config = options.configuration ??
        await this.deploymentConfiguration(uniqueName("deployment"), {
          maximumConcurrency: options.maximumConcurrency,
          memorySize: options.memorySize,
        }).create();
      return this.deployedModel<F, T>({
        model,
        configuration: config,
        // Unique by default: deploying the same model twice (a re-run
        // notebook cell) must not collide on the name.
        name: options.name ??
          uniqueName(
            typeof model === "string" ? "deployed" : model.name ?? "deployed",
          ),
      }).toDefinition();
    });
  }

  // Infers quickstart's schema from what ingestion will read: the bucket
  // object when this client can read it (local platform), else the path on
  // this machine. A method of its own so nothing in quickstart()'s suspended
  // frame can keep the file's text (139 MB at 1,000,000 rows) alive through
  // ingestion and training. The text goes in as it is: a Blob of it held two
  // more copies at once (inferring the 1M-row churn file peaked at 737-825
  // MB through a Blob, 512-554 MB from the text).
  async #quickstartDraft<const T extends string>(
    options: QuickstartOptions<T>,
    base: string,
  ) {
    const sample = options.sample ??
      (options.bucket && this.#readObject
        ? { csv: await this.#readObject(options.bucket, options.path) }
        : options.path);
    return await this.inferSchema(sample, {
      target: options.target,
      name: uniqueName(base),
      exclude: options.exclude,
      predictionType: options.predictionType,
    });
  }

  /**
   * From a CSV file and a target to a running deployed model in one awaited
   * call: storage connector, inferred schema, ingestion, onboarding,
   * training and deployment, with sensible defaults.
   *
   * ```ts ignore
   * const { deployment, model, review } = await ml.quickstart({
   *   bucket: "demo", path: "wa_churn.csv", target: "churn",
   * });
   * ```
   */
  async quickstart<const T extends string>(
    options: QuickstartOptions<T>,
  ): Promise<QuickstartResult<string, T>> {
    const progress = options.progress ?? this.progress;
    const base = options.name ?? baseName(options.path);
    if (!options.storage && !options.bucket) {
      throw new ConfigurationError({
        message:
          "quickstart needs `bucket` (a bucket name) or `storage` (a storage connector)",
        hint:
          'e.g. ml.quickstart({ bucket: "demo", path: "data.csv", target: "y" })',
      });
    }
    const draft = await this.#quickstartDraft(options, base);
    // Validate everything local before the first request.
    draft.body();
    const storage = options.storage ??
      await this.storageConnector(options.bucket!, {
        name: uniqueName(options.bucket!),
      }).create();
    const schema = await draft.create();
    const datasource = await this.ingest(options.path, {
      storage,
      schema,
      progress,
    });
    const dataset = await this.onboard(datasource, {
      progress,
      predictionType: draft.predictionType,
    });
    const model = await this.train(dataset, { ...options.training, progress });
    const deployment = await this.deploy(model, { progress });
    return {
      storage: typeof storage === "string" ? { id: storage } : storage,
      schema,
      review: draft.review,
      datasource,
      dataset,
      model,
      deployment,
    };
  }

  // Internals -------------------------------------------------------------

  #withProgress<O extends JobControl>(options: O): O {
    return options.progress === undefined && this.progress !== undefined
      ? { ...options, progress: this.progress }
      : options;
  }

  // One Job over several steps: the preparatory creates run first (at once,
  // like any Job's start), then the job itself; polling and the result
  // come from the real job's definition, the progress display and poll
  // schedule from the step's options (known before anything is sent).
  #deferred<S extends JobSnapshot, T>(
    kind: string,
    readyStatuses: readonly string[] | undefined,
    control: JobControl,
    prepare: () => Promise<JobDefinition<S, T>>,
  ): Job<S, T> {
    let definition: Promise<JobDefinition<S, T>> | undefined;
    const get = () => (definition ??= prepare());
    return new Job<S, T>({
      kind,
      readyStatuses,
      progress: control.progress ?? this.progress,
      poll: control.poll,
      start: async () => (await get()).start(),
      retrieve: async (id, o) => (await get()).retrieve(id, o),
      resolve: async (s, o) => (await get()).resolve(s, o),
      cancel: async (id, o) => {
        const definition = await get();
        if (definition.cancel === undefined) {
          throw new CancellationNotSupportedError(
            kind,
            id,
            undefined,
            definition.cancelHint,
          );
        }
        return definition.cancel(id, o);
      },
    });
  }

  #compute(type: ComputeType): Promise<ComputeConfiguration> {
    let pending = this.#computes.get(type);
    if (!pending) {
      pending = this.compute(uniqueName(type.toLowerCase()), {
        computeType: type,
      }).create();
      pending.catch(() => this.#computes.delete(type)); // retry on next use
      this.#computes.set(type, pending);
    }
    return pending;
  }

  #ownWorkspace(): Promise<Workspace> {
    if (!this.#workspace) {
      this.#workspace = this.workspace(uniqueName("workspace")).create();
      this.#workspace.catch(() => (this.#workspace = undefined));
    }
    return this.#workspace;
  }

  async #schemaTargets(
    source: RefLike,
  ): Promise<DataSchema["fields"] | undefined> {
    const datasource = await this.datasources.get(idOf(source));
    const ref = datasource.data_schema;
    if (!ref) return undefined;
    const schema = await this.dataSchemas.get(ref.id);
    return schema.fields.filter((f) => f.designation === "TARGET");
  }
}

function baseName(path: string): string {
  return path.split(/[\\/]/).pop()!.replace(/\.[^.]*$/, "") || "data";
}

/**
 * An {@linkcode MLPlatform} for the hosted service: options first, else the
 * environment (`MLP_BASE_URL`, `MLP_CLIENT_ID`, `MLP_CLIENT_SECRET`).
 * Throws a `ConfigurationError` naming what is missing, or when a secret
 * would be used in a browser.
 *
 * @example
 * ```ts
 * import { connect } from "./platform.ts";
 * const ml = connect({ baseUrl: "https://mlp.invalid", clientId: "id", clientSecret: "s" });
 * typeof ml.schema; // "function"
 * ```
 */
export function connect(
  options: Partial<MLPlatformOptions> = {},
): MLPlatform {
  return new MLPlatform(resolveClientOptions(options));
}
