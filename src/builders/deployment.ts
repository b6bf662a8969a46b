// deno-doc-ignore-file private-type-ref missing-explicit-type missing-return-type -- protected builder internals are typed by the zod request schemas they validate with
/**
 * Deployment: the deployed model builder (a job that resolves once the
 * model is `RUNNING`) and {@linkcode Deployment}, the handle it resolves
 * to, whose `views()` is typed by the model's feature and target names.
 *
 * @module
 */
import { JUPYTER_DISPLAY, type MimeBundle, renderAs } from "../display.ts";
import type { Model } from "../schemas/artifacts.ts";
import type { DeployedModel } from "../schemas/deployments.ts";
import type { CreateOptions } from "./base.ts";
import type { BuilderClient } from "./builder_client.ts";
import { JobBuilder, type JobControl, type JobSteps } from "./job_builder.ts";
import type { ColumnSet, RefLike, TypedRef } from "./types.ts";
import {
  ViewsBuilder,
  type ViewsOptions,
  type ViewsQueryInput,
} from "./views.ts";
import type { ViewsResult } from "./views_result.ts";
import type { Job } from "../jobs/job.ts";
import type { ViewsBatchJob } from "../schemas/batch.ts";
import { type DeploymentBatchOptions, startBatch } from "./batch.ts";
import type { BatchResult } from "./batch_result.ts";
import type { FieldGroupMetrics } from "../schemas/constraints.ts";
import { groupMetricsOf } from "./group_metrics.ts";
import { ConfigurationError } from "../http/errors.ts";

/** Options of `deployment.views()`, besides the query. */
export type DeploymentViewsOptions<T extends string> =
  & Omit<ViewsOptions<string, T>, "deployment" | "query" | "features">
  & CreateOptions;

/**
 * A deployed model you can query. `F` and `T` are its feature and target
 * names (from the schema, through every step), so the query and the result
 * columns are checked by the compiler.
 *
 * @example
 * ```ts
 * import { Deployment } from "./deployment.ts";
 * const d = new Deployment(undefined, {
 *   id: "dm_1", name: "churn", status: "RUNNING",
 *   model: { id: "m_1" }, deployment_configuration: { id: "dc_1" }, tags: [],
 *   account: { id: "acc" }, created_at: "2024-01-01T00:00:00Z", created_by: { id: "u" },
 * }, { features: ["tenure"], targets: ["churn"] });
 * d.query({ tenure: [1, 2] }).body().query; // { tenure: [1, 2] }
 * ```
 */
export class Deployment<F extends string = string, T extends string = string> {
  /** The deployed model resource. */
  readonly resource: DeployedModel;
  /** The model's features, when known (views columns are checked against them). */
  readonly features?: readonly string[];
  /** The model's targets, when known. */
  readonly targets?: readonly string[];
  readonly #client?: BuilderClient;

  /** Wraps a deployed model (and what is known of its model). */
  constructor(
    client: BuilderClient | undefined,
    resource: DeployedModel,
    model?: Pick<Model, "features" | "targets">,
  ) {
    this.#client = client;
    this.resource = resource;
    this.features = model?.features;
    this.targets = model?.targets;
  }

  /** Renders as the deployed model's card in Jupyter. */
  [JUPYTER_DISPLAY](): MimeBundle {
    return renderAs("resource", this.resource, "deployed model");
  }

  /** The deployed model's id. */
  get id(): string {
    return this.resource.id;
  }

  /** Its name. */
  get name(): string {
    return this.resource.name;
  }

  /** Its status as last retrieved (`RUNNING` when ready). */
  get status(): string {
    return this.resource.status;
  }

  /** A views builder for `query` (add `.explain()`, then `await` or `.create()`). */
  query(
    query: ViewsQueryInput<F>,
    options: Omit<DeploymentViewsOptions<T>, keyof CreateOptions> = {},
  ): ViewsBuilder<F, T> {
    return new ViewsBuilder<F, T>(this.#client, {
      ...options,
      deployment: this.resource,
      query,
      features: this.features,
    });
  }

  /** Predictions and explanations for the rows of `query`. */
  views(
    query: ViewsQueryInput<F>,
    options: DeploymentViewsOptions<T> = {},
  ): Promise<ViewsResult<T>> {
    const { signal, timeout, headers, ...rest } = options;
    return this.query(query, rest).create({ signal, timeout, headers });
  }

  /**
   * Per-group metrics of the rows of `query` (our extension,
   * docs/contract.md#model-constraints-and-protected-fields): the model's
   * features and at least one protected field in `query`, the true target
   * values in `targets`; the answer has the shape of the model record's
   * `group_metrics` (per field, its groups' figures and the largest gap),
   * so on the model's validation rows it equals them.
   *
   * @example
   * ```ts
   * import { Deployment } from "./deployment.ts";
   * const table = { columns: ["field", "group", "count", "accuracy"], index: [0, 1, 2],
   *   data: [["sex", "f", 1, 1], ["sex", "m", 1, 0], ["sex", "(largest gap)", null, 1]] };
   * const client = { deployedModels: { views: () => Promise.resolve(table) } };
   * const d = new Deployment(client as never, {
   *   id: "dm_1", name: "churn", status: "RUNNING",
   *   model: { id: "m_1" }, deployment_configuration: { id: "dc_1" }, tags: [],
   *   account: { id: "acc" }, created_at: "2024-01-01T00:00:00Z", created_by: { id: "u" },
   * });
   * const [sex] = await d.groupMetrics({ tenure: [1, 2], sex: ["f", "m"] }, { churn: [1, 1] });
   * if (sex.largest_gap.accuracy !== 1 || sex.groups.length !== 2) throw new Error(JSON.stringify(sex));
   * ```
   */
  async groupMetrics(
    query: Readonly<Record<string, readonly unknown[]>>,
    targets: { [K in T]?: readonly unknown[] },
    options: CreateOptions = {},
  ): Promise<FieldGroupMetrics[]> {
    if (!this.#client) {
      throw new ConfigurationError({
        message: "This Deployment has no client, so it cannot ask for views",
        hint: "Get it from a connected MLPlatform: ml.deploy() or ml.attach()",
      });
    }
    const table = await this.#client.deployedModels.views(this.resource.id, {
      data: [{ view_type: "GROUP_METRICS" }],
      query: query as never,
      targets: targets as never,
    }, options);
    return groupMetricsOf(table);
  }

  /**
   * Scores a CSV file of a bucket (`.csv` or `.csv.gz`) into `output` in
   * the same bucket, on the platform, in chunks (our extension, docs/contract.md#batch-views):
   * returns the `Job` at once (await it, `watch()` it, `cancel()` it);
   * awaited, it gives a `BatchResult` with the row counts and the output
   * read back page by page through the API.
   *
   * ```ts ignore
   * const result = await deployment.batch({ bucket: "data", path: "customers.csv", output: "scored.csv", keep: ["id"] });
   * for await (const page of result.pages()) console.log(page.rows()[0]);
   * ```
   */
  batch(options: DeploymentBatchOptions): Job<ViewsBatchJob, BatchResult> {
    return startBatch(this.#client, this.resource, options);
  }

  /** The resource, for `JSON.stringify`. */
  toJSON(): DeployedModel {
    return this.resource;
  }
}

/** The {@linkcode Deployment} of a model whose data has the column set `C`. */
export type DeploymentOf<C extends ColumnSet> = Deployment<
  C["features"],
  C["targets"]
>;

/** Options of a deployed model. */
export interface DeployedModelOptions<C extends ColumnSet = ColumnSet>
  extends JobControl {
  /** Deployed model name (default: the model's name). */
  name?: string;
  /** The model to deploy. */
  model: TypedRef<C, { id: string; name?: string | null }>;
  /** The deployment configuration. */
  configuration: RefLike;
}

/**
 * Builds `POST /deployed-models`; `create()` returns a `Job` that resolves
 * to a {@linkcode Deployment} once the model is `RUNNING`.
 *
 * @example
 * ```ts
 * import { DeployedModelBuilder } from "./deployment.ts";
 * const body = new DeployedModelBuilder(undefined, { model: { id: "m_1", name: "churn" }, configuration: "dc_1" })
 *   .body();
 * if (JSON.stringify(body) !== '{"name":"churn","model_id":"m_1","deployment_configuration_id":"dc_1"}') {
 *   throw new Error(JSON.stringify(body));
 * }
 * ```
 */
export class DeployedModelBuilder<C extends ColumnSet = ColumnSet>
  extends JobBuilder<
    "deployedModels",
    DeployedModelOptions<C>,
    DeploymentOf<C>
  > {
  /** Its definition. */
  protected readonly spec = this.define({
    route: "deployedModels",
    wire: { configuration: "deployment_configuration_id" },
    defaults: ({ model }) => ({
      name: typeof model === "string" ? undefined : model?.name ?? undefined,
    }),
    steps: deploymentSteps<C>,
  });
}

/**
 * How a deployed model is followed once it exists: retrieved until
 * `RUNNING`, resolved to a {@linkcode Deployment}. It has no cancel (delete
 * it). Shared by the builder and `ml.attach`.
 */
export function deploymentSteps<C extends ColumnSet>(
  client: BuilderClient,
): JobSteps<DeployedModel, DeploymentOf<C>> {
  return {
    kind: "deployed model",
    readyStatuses: ["RUNNING"],
    defaultTimeout: 15 * 60_000,
    retrieve: (id, o) => client.deployedModels.get(id, o),
    resolve: async (deployed, o) => {
      const model = await client.models.get(deployed.model.id, o);
      return new Deployment<C["features"], C["targets"]>(
        client,
        deployed,
        model,
      );
    },
    cancelHint:
      "A deployed model is not a job to cancel: stop it with ml.deployedModels.delete(id)",
  };
}
