/**
 * `MLPlatform`: the client plus fluent builders (platform_builders.ts),
 * awaitable jobs and one-call steps (their options: platform_options.ts),
 * and {@linkcode connect}, which makes one from options or the environment.
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
import { resolveClientOptions } from "./client.ts";
import { PlatformBuilders } from "./platform_builders.ts";
import { ConfigurationError } from "./http/errors.ts";
import type { Job, JobDefinition } from "./jobs/job.ts";
import { deferredJob } from "./jobs/deferred.ts";
import type { JobSnapshot } from "./jobs/status.ts";
import type { Dataset, Datasource, Model } from "./schemas/artifacts.ts";
import type { ComputeConfiguration, ComputeType } from "./schemas/compute.ts";
import type { DataSchema } from "./schemas/data_schemas.ts";
import type { Workspace } from "./schemas/workspaces.ts";
import { uniqueName } from "./builders/base.ts";
import type { Deployment } from "./builders/deployment.ts";
import type { JobControl } from "./builders/job_builder.ts";
import { predictionTypeOf } from "./builders/schema.ts";
import { constraintsOf } from "./builders/training.ts";
import {
  checkQuickstartOptions,
  checkQuickstartTraining,
} from "./platform_quickstart.ts";
import { argumentIssue, invalid } from "./builders/validate.ts";
import type { FieldIssue } from "./schemas/errors.ts";
import { idOf, type RefLike, type Typed } from "./builders/types.ts";
import {
  inferredClasses,
  type InferSource,
  unreadableCsv,
} from "./infer/infer.ts";
import type {
  ConstraintOptions,
  DeployOptions,
  IngestOptions,
  MLPlatformOptions,
  OnboardOptions,
  QuickstartOptions,
  QuickstartResult,
  TrainOptions,
} from "./platform_options.ts";

export type {
  ConstraintOptions,
  DeployOptions,
  IngestOptions,
  MLPlatformOptions,
  OnboardOptions,
  QuickstartOptions,
  QuickstartResult,
  TrainOptions,
};

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
export class MLPlatform extends PlatformBuilders {
  readonly #computes = new Map<ComputeType, Promise<ComputeConfiguration>>();
  #workspace?: Promise<Workspace>;
  readonly #defaultWorkspaceId?: string;
  readonly #readObject?: (bucket: string, path: string) => Promise<string>;
  readonly #streamObject?: MLPlatformOptions["streamObject"];

  /** A platform client; see `ClientOptions`. */
  constructor(options: MLPlatformOptions) {
    super(options);
    this.#readObject = options.readObject;
    this.#streamObject = options.streamObject;
    this.#defaultWorkspaceId = options.workspaceId;
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
    return this.#deferred(
      "ingestion job",
      undefined,
      options ?? {},
      async (made) => {
        refuseArguments("ingestion", ingestIssues(path, options));
        const base = baseName(path);
        let configuration = options.configuration;
        if (!configuration) {
          configuration = await this.ingestionConfiguration(
            uniqueName(`${base}-ingestion`),
            options.schema,
          ).create();
          made(this.ingestionConfigurations, configuration.id);
        }
        const compute = options.compute ?? await this.#compute("PROCESSING");
        return this.ingestionJob<F, T>({
          configuration: idOf(configuration),
          storage: options.storage,
          compute,
          path,
          datasourceName: options.datasourceName ?? uniqueName(base),
        }).toDefinition();
      },
    );
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
    return this.#deferred(
      "onboarding job",
      undefined,
      options,
      async (made) => {
        refuseArguments("onboarding", [argumentIssue("datasource", source)]);
        const {
          targets,
          compute,
          configuration,
          datasetName,
          progress: _progress, // progress and poll: the Job's, not the body's
          poll: _poll,
          ...encoding
        } = options;
        unusedWith(configuration, { targets, ...encoding });
        let config = configuration;
        if (!config) {
          const fields = await this.#schemaTargets(source);
          const schemaTargets = fields?.map((f) => f.name);
          const chosen = targets ?? schemaTargets ?? [];
          // A text target cannot be regressed: the job failed on it, late.
          const text = fields?.find((f) =>
            (chosen as string[]).includes(f.name) &&
            f.data_type.data_type !== "NUMBER"
          );
          if (encoding.predictionType === "REGRESSION" && text) {
            throw invalid("onboarding options", [{
              path: "predictionType",
              message:
                `REGRESSION needs a NUMBER target; "${text.name}" is ${text.data_type.data_type}: use CLASSIFICATION, or declare it NUMBER`,
            }]);
          }
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
          made(this.onboardingConfigurations, config.id);
        }
        return this.onboardingJob<F, T>({
          datasource: source,
          configuration: config,
          compute: compute ?? await this.#compute("PROCESSING"),
          datasetName: datasetName ?? uniqueName("dataset"),
        }).toDefinition();
      },
    );
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
    return this.#deferred("training job", undefined, options, async (made) => {
      refuseArguments("training", [argumentIssue("dataset", dataset)]);
      const {
        workspace,
        configuration,
        compute,
        modelName,
        managedSpotTraining,
        progress: _progress, // progress and poll: the Job's, not the body's
        poll: _poll,
        monotone,
        exclude,
        interactions,
        measureConstraintCost,
        ...hyperparameters
      } = options;
      unusedWith(configuration, hyperparameters);
      // Checked before anything is made (a direction, a feature twice).
      const constraints = constraintsOf({
        monotone,
        exclude,
        interactions,
        measureConstraintCost,
      }) as { modelConstraints?: never; modelConstraintGroups?: never };
      let config = configuration;
      if (!config) {
        config = await this.trainingConfiguration(
          uniqueName("training"),
          hyperparameters,
        ).create();
        made(this.trainingConfigurations, config.id);
      }
      return this.trainingJob<F, T>({
        dataset,
        configuration: config,
        compute: compute ?? await this.#compute("TRAINING"),
        workspace: workspace ??
          (this.#defaultWorkspaceId ? undefined : await this.#ownWorkspace()),
        modelName: modelName ?? uniqueName("model"),
        managedSpotTraining,
        // Feature names typed as text here: the service refuses one that is
        // not a feature with a 400 naming the constraint.
        ...constraints,
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
    return this.#deferred(
      "deployed model",
      ["RUNNING"],
      options,
      async (made) => {
        refuseArguments("deployment", [argumentIssue("model", model)]);
        const { maximumConcurrency, memorySize } = options;
        unusedWith(options.configuration, { maximumConcurrency, memorySize });
        let config = options.configuration;
        if (!config) {
          config = await this.deploymentConfiguration(
            uniqueName("deployment"),
            {
              maximumConcurrency: options.maximumConcurrency,
              memorySize: options.memorySize,
            },
          ).create();
          made(this.deploymentConfigurations, config.id);
        }
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
      },
    );
  }

  // Infers quickstart's schema from what ingestion will read: the bucket
  // object when this client can read it (local platform), else the path on
  // this machine. A method of its own so nothing in quickstart()'s suspended
  // frame can keep the file's text (139 MB at 1,000,000 rows) alive through
  // ingestion and training. Streamed when the platform can: the file is
  // never held (inferring the 1M-row churn file's 111 MB training split
  // peaked at 614-633 MB from a Blob of its text, 112-113 MB streamed).
  async #quickstartDraft<const T extends string>(
    options: QuickstartOptions<T>,
    base: string,
  ) {
    const infer = (sample: InferSource) =>
      this.inferSchema(sample, {
        target: options.target,
        name: uniqueName(base),
        exclude: options.exclude,
        predictionType: options.predictionType,
      });
    if (options.sample) return await infer(options.sample);
    const { bucket, path } = options;
    try {
      if (bucket && this.#streamObject) {
        return await this.#streamObject(bucket, path, infer);
      }
      return await infer(
        bucket && this.#readObject
          ? { csv: await this.#readObject(bucket, path) }
          : path,
      );
    } catch (error) {
      // A file that is no CSV (a ragged row, a column named twice, a
      // truncated .csv.gz) is refused naming it and its bucket, not "the
      // stream" inference was given: a ValidationError, as the SDK's errors
      // are, whether reading or inferring found it.
      throw unreadableCsv(
        error,
        "path",
        JSON.stringify(path) +
          (bucket && (this.#streamObject || this.#readObject)
            ? ` in bucket ${JSON.stringify(bucket)}`
            : ""),
      );
    }
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
    checkQuickstartOptions(options);
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
    // Validate everything local before the first request: the training
    // options too, which were refused only once ingestion and onboarding
    // had run and stored their resources.
    const schemaBody = draft.body();
    checkQuickstartTraining(
      options.training,
      schemaBody.fields,
      (h) => {
        this.trainingConfiguration("quickstart", h).body();
      },
      inferredClasses(draft),
    );
    // The training configuration before any data moves: a hyperparameter
    // within the wire's bounds that the service refuses (the local model's
    // `bins` above 254, say) is refused before ingestion and onboarding.
    const {
      monotone,
      exclude,
      interactions,
      measureConstraintCost,
      ...hyperparameters
    } = options.training ?? {};
    const configuration = await this.trainingConfiguration(
      uniqueName("training"),
      hyperparameters,
    ).create();
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
    const model = await this.train(dataset, {
      configuration,
      monotone,
      exclude,
      interactions,
      measureConstraintCost,
      progress,
    });
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

  /**
   * One Job over several steps (jobs/deferred.ts), with this platform's
   * progress display by default: a one-call step's Job. `prepare` reports each configuration it makes
   * for this job alone with `made(collection, id)`: when the job's create
   * is refused (a path outside the bucket, an unknown model, a constraint
   * on no feature), they are deleted again, so a refused call leaves
   * nothing behind. (The delete is refused, and ignored, when a job that
   * was made after all depends on it.)
   */
  #deferred<S extends JobSnapshot, T>(
    kind: string,
    readyStatuses: readonly string[] | undefined,
    control: JobControl,
    prepare: (made: Made) => Promise<JobDefinition<S, T>>,
  ): Job<S, T> {
    const undo: (() => Promise<unknown>)[] = [];
    return deferredJob(
      kind,
      readyStatuses,
      {
        progress: control.progress ?? this.progress,
        poll: control.poll ?? this.poll,
      },
      () => prepare((collection, id) => undo.push(() => collection.delete(id))),
      async () => {
        for (const step of undo.splice(0).reverse()) {
          await step().catch(() => {});
        }
      },
    );
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

/**
 * Refuses the options a given `configuration` makes unused (it holds its
 * own settings): they were dropped without a word.
 */
function unusedWith(
  configuration: RefLike | undefined,
  given: Record<string, unknown>,
): void {
  if (configuration === undefined) return;
  const unused = Object.keys(given).filter((k) => given[k] !== undefined);
  if (!unused.length) return;
  throw invalid(
    "options",
    unused.map((path) => ({
      path,
      message:
        `not used: \`configuration\` is given and holds its own settings; set ${path} on it, or leave \`configuration\` out`,
    })),
  );
}

/** Reports a configuration made for one job alone: its collection and id. */
type Made = (
  collection: { delete(id: string): Promise<unknown> },
  id: string,
) => void;

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

/** Throws the arguments' issues (those that are not undefined) as one ValidationError. */
function refuseArguments(
  what: string,
  issues: readonly (FieldIssue | undefined)[],
): void {
  const found = issues.filter((i): i is FieldIssue => i !== undefined);
  if (found.length) throw invalid(`${what} arguments`, found);
}

// What ingest(path, options) lacks: a path, an options object, its storage
// and (without a configuration, which names one) its schema.
function ingestIssues(
  path: unknown,
  options: unknown,
): (FieldIssue | undefined)[] {
  if (options === null || typeof options !== "object") {
    return [argumentIssue("path", path, "text"), {
      path: "options",
      message:
        "expected { storage, schema }: the bucket's connector and the data schema",
    }];
  }
  const o = options as Record<string, unknown>;
  return [
    argumentIssue("path", path, "text"),
    argumentIssue("storage", o.storage) ??
      (o.configuration === undefined
        ? argumentIssue("schema", o.schema)
        : undefined),
  ];
}
