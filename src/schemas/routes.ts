// deno-doc-ignore-file private-type-ref missing-explicit-type -- wire types are inferred from these zod schemas (one source of truth), so they name zod's own types
/**
 * The route table: every operation of docs/api.md#endpoints and the gaps
 * docs/contract.md#paths fills, in one place. The client builds its requests from it and
 * the local platform registers its handlers and its OpenAPI document from it,
 * so a path corrected for the hosted service is a one-line change here.
 *
 * @module
 */
import type { z } from "zod";
import { AccountListSchema } from "./accounts.ts";
import { TokenResponseSchema } from "./auth.ts";
import { listOf } from "./common.ts";
import {
  ComputeConfigurationCreateSchema,
  ComputeConfigurationSchema,
} from "./compute.ts";
import { DataSchemaCreateSchema, DataSchemaSchema } from "./data_schemas.ts";
import {
  DeployedModelCreateSchema,
  DeployedModelSchema,
  DeploymentConfigurationCreateSchema,
  DeploymentConfigurationSchema,
} from "./deployments.ts";
import {
  IngestionConfigurationCreateSchema,
  IngestionConfigurationSchema,
  IngestionJobCreateSchema,
  IngestionJobSchema,
} from "./ingestion.ts";
import {
  OnboardingConfigurationCreateSchema,
  OnboardingConfigurationSchema,
  OnboardingJobCreateSchema,
  OnboardingJobSchema,
} from "./onboarding.ts";
import {
  StorageConnectorCreateSchema,
  StorageConnectorSchema,
} from "./storage.ts";
import {
  TrainingConfigurationCreateSchema,
  TrainingConfigurationSchema,
  TrainingJobCreateSchema,
  TrainingJobSchema,
} from "./training.ts";
import { SplitTableSchema, ViewsRequestSchema } from "./views.ts";
import { WorkspaceCreateSchema, WorkspaceSchema } from "./workspaces.ts";
import {
  BatchResultsQuerySchema,
  ViewsBatchConfigurationCreateSchema,
  ViewsBatchConfigurationSchema,
  ViewsBatchJobCreateSchema,
  ViewsBatchJobSchema,
  ViewsBatchResultsSchema,
  ViewsBatchSchema,
} from "./batch.ts";
import type { DependantType } from "./errors.ts";
import {
  DatasetSchema,
  DatasourceSchema,
  GlobalExplanationSchema,
  ModelSchema,
} from "./artifacts.ts";
import { LABEL_ROUTES } from "./label_routes.ts";
import { CONSTRAINT_ROUTES } from "./constraint_routes.ts";
import { ExplanationQuerySchema } from "./labels.ts";

/** HTTP methods the API uses. */
export type Method = "GET" | "POST" | "DELETE";

/** One operation. */
export interface Route {
  /** HTTP method. */
  readonly method: Method;
  /** Path template with `{param}` placeholders. */
  readonly path: string;
  /** Status of a final success answer. */
  readonly status: 200 | 201 | 204;
  /** Zod schema of the JSON request body, if any. */
  readonly body?: z.ZodType;
  /** Zod schema of the success body (absent for 204). */
  readonly response?: z.ZodType;
  /** True for the token call: form body, no bearer token. */
  readonly public?: boolean;
  /** Needs `X-Active-Workspace` (training jobs). */
  readonly workspace?: boolean;
  /** Sends `X-Views-Cache-Control` (views). */
  readonly views?: boolean;
  /** A list endpoint taking `page` and `items_per_page`. */
  readonly list?: boolean;
  /** Query parameters other than a list's (their zod object), for OpenAPI. */
  readonly query?: z.ZodObject;
  /** Endpoint number (1-13) in docs/api.md#endpoints, when the published API shows the operation. */
  readonly spec?: number;
  /** One line for the OpenAPI document. */
  readonly summary: string;
  /**
   * What the operation does, for the OpenAPI document, when more than its
   * kind of operation says (a create, a list, ...): the document writes
   * those from the route itself.
   */
  readonly description?: string;
  /** The noun of the resource it answers with, for messages and displays ("ingestion job"). */
  readonly noun?: string;
}

/** What a job produces: the body field naming the artifact, and its kind. */
export interface Produces {
  /** Body field of the job holding the artifact's `{ id, name }`. */
  readonly field: string;
  /** The artifact's resource kind. */
  readonly kind: string;
}

/** One resource kind (a collection of the API) and what is said of it. */
export interface Kind {
  /** Collection path (`/storage-connectors`). */
  readonly path: string;
  /** Singular noun for messages and displays ("ingestion job"). */
  readonly noun: string;
  /** The noun as docs/api.md#resources words it, in the OpenAPI summaries. */
  readonly title: string;
  /** Prefix of the ids the local platform gives (`sc_...`). */
  readonly prefix: string;
  /** The `dependant_type` of this kind (docs/api.md#errors). */
  readonly type: DependantType;
  /**
   * For jobs: the artifact the job creates (a job never blocks deleting
   * what it produced, nor the other way round: it is its history).
   */
  readonly produces?: Produces;
}

/**
 * Every resource kind, keyed like the route table's groups: the one place
 * that names collections, their paths, id prefixes, dependant types and
 * what each job produces.
 *
 * @example
 * ```ts
 * import { KINDS } from "./routes.ts";
 * if (KINDS.trainingJobs.produces.kind !== "models") throw new Error();
 * ```
 */
export const KINDS = {
  storageConnectors: {
    path: "/storage-connectors",
    noun: "storage connector",
    title: "storage connector",
    prefix: "sc",
    type: "STORAGE_CONNECTOR",
  },
  computeConfigurations: {
    path: "/compute-configurations",
    noun: "compute configuration",
    title: "compute configuration",
    prefix: "cc",
    type: "COMPUTE_CONFIGURATION",
  },
  dataSchemas: {
    path: "/data-schemas",
    noun: "data schema",
    title: "data schema",
    prefix: "dsch",
    type: "DATA_SCHEMA",
  },
  ingestionConfigurations: {
    path: "/data-processing-ingestion-configurations",
    noun: "ingestion configuration",
    title: "data processing ingestion configuration",
    prefix: "ic",
    type: "DATA_PROCESSING_INGESTION_CONFIGURATION",
  },
  ingestionJobs: {
    path: "/data-processing-ingestion-jobs",
    noun: "ingestion job",
    title: "data processing ingestion job",
    prefix: "ij",
    type: "DATA_PROCESSING_INGESTION_JOB",
    produces: { field: "datasource", kind: "datasources" },
  },
  onboardingConfigurations: {
    path: "/data-processing-onboarding-configurations",
    noun: "onboarding configuration",
    title: "data processing onboarding configuration",
    prefix: "oc",
    type: "DATA_PROCESSING_ONBOARDING_CONFIGURATION",
  },
  onboardingJobs: {
    path: "/data-processing-onboarding-jobs",
    noun: "onboarding job",
    title: "data processing onboarding job",
    prefix: "oj",
    type: "DATA_PROCESSING_ONBOARDING_JOB",
    produces: { field: "dataset", kind: "datasets" },
  },
  workspaces: {
    path: "/workspaces",
    noun: "workspace",
    title: "workspace",
    prefix: "ws",
    type: "WORKSPACE",
  },
  trainingConfigurations: {
    path: "/training-configurations",
    noun: "training configuration",
    title: "training configuration",
    prefix: "tc",
    type: "TRAINING_CONFIGURATION",
  },
  trainingJobs: {
    path: "/training-jobs",
    noun: "training job",
    title: "training job",
    prefix: "tj",
    type: "TRAINING_JOB",
    produces: { field: "model", kind: "models" },
  },
  deploymentConfigurations: {
    path: "/deployment-configurations",
    noun: "deployment configuration",
    title: "deployment configuration",
    prefix: "dc",
    type: "DEPLOYMENT_CONFIGURATION",
  },
  deployedModels: {
    path: "/deployed-models",
    noun: "deployed model",
    title: "deployed model",
    prefix: "dm",
    type: "DEPLOYED_MODEL",
  },
  datasources: {
    path: "/datasources",
    noun: "datasource",
    title: "datasource",
    prefix: "src",
    type: "DATASOURCE",
  },
  datasets: {
    path: "/datasets",
    noun: "dataset",
    title: "dataset",
    prefix: "dset",
    type: "DATASET",
  },
  models: {
    path: "/models",
    noun: "model",
    title: "model",
    prefix: "mdl",
    type: "MODEL",
  },
  viewsBatchConfigurations: {
    path: "/views-batch-configurations",
    noun: "views batch configuration",
    title: "views batch configuration",
    prefix: "vbc",
    type: "VIEWS_BATCH_CONFIGURATION",
  },
  viewsBatchJobs: {
    path: "/views-batch-jobs",
    noun: "views batch job",
    title: "views batch job",
    prefix: "vbj",
    type: "VIEWS_BATCH_JOB",
    produces: { field: "views_batch", kind: "viewsBatches" },
  },
  viewsBatches: {
    path: "/views-batches",
    noun: "views batch",
    title: "views batch",
    prefix: "vb",
    type: "VIEWS_BATCH",
  },
} as const satisfies Record<string, Kind>;

/** A resource kind's name (a route-table group other than auth and accounts). */
export type KindName = keyof typeof KINDS;

/** The kinds whose resources are jobs (their work runs in the background). */
export type JobKindName = {
  [K in KindName]: typeof KINDS[K] extends { produces: Produces } ? K : never;
}[KindName];

/** Job kinds, in pipeline order. */
export const JOB_KINDS = [
  "ingestionJobs",
  "onboardingJobs",
  "trainingJobs",
  "viewsBatchJobs",
] as const satisfies readonly JobKindName[];

/**
 * Whether a name is a resource kind of {@linkcode KINDS}.
 *
 * @example
 * ```ts
 * import { isKind } from "./routes.ts";
 * if (!isKind("models") || isKind("accounts")) throw new Error();
 * ```
 */
export function isKind(name: string): name is KindName {
  return Object.hasOwn(KINDS, name);
}

/**
 * `POST {path}/{id}/cancel`: our extension of the published API for jobs
 * (docs/contract.md#jobs-and-deployments). A running
 * job stops and ends `CANCELLED`; a job that already ended is a 409.
 */
function cancelRoute<K extends Kind, R extends z.ZodType>(
  kind: K,
  response: R,
) {
  return {
    method: "POST",
    path: `${kind.path}/{id}/cancel`,
    status: 200,
    response,
    noun: kind.noun,
    summary:
      `Cancel a ${kind.title}: it stops and ends CANCELLED (extension of the published API, docs/contract.md#jobs-and-deployments; 409 once it has ended)`,
  } as const;
}

/** A collection with create, get, list and delete (docs/contract.md#paths). */
function crud<K extends Kind, C extends z.ZodType, R extends z.ZodType>(
  kind: K,
  body: C,
  response: R,
  spec: { create?: number; delete?: number } = {},
) {
  const { path, title: noun } = kind;
  return {
    create: {
      method: "POST",
      path,
      status: 201,
      body,
      response,
      spec: spec.create,
      noun: kind.noun,
      summary: `Create a ${noun}`,
    },
    get: {
      method: "GET",
      path: `${path}/{id}`,
      status: 200,
      response,
      noun: kind.noun,
      summary: `Retrieve a ${noun}`,
    },
    list: {
      method: "GET",
      path,
      status: 200,
      response: listOf(response),
      list: true,
      noun: kind.noun,
      summary: `List ${noun}s`,
    },
    delete: {
      method: "DELETE",
      path: `${path}/{id}`,
      status: 204,
      spec: spec.delete,
      noun: kind.noun,
      summary: `Delete a ${noun}`,
    },
  } as const satisfies Record<string, Route>;
}

/** A read-only collection: get and list (created by jobs), and delete. */
function readOnly<K extends Kind, R extends z.ZodType>(
  kind: K,
  response: R,
) {
  const { get, list, delete: del } = crud(kind, response, response);
  return { get, list, delete: del } as const;
}

/** Every operation, grouped by resource family. */
export const routes = {
  auth: {
    token: {
      method: "POST",
      path: "/oauth/token",
      status: 200,
      response: TokenResponseSchema,
      public: true,
      spec: 1,
      summary: "Exchange client credentials for an access token",
      description:
        "The OAuth 2.0 client-credentials grant (RFC 6749 section 4.4): a form-encoded grant_type=client_credentials, client_id and client_secret give a bearer access token (a JWT) valid for expires_in seconds. Unknown credentials answer 401; credentials of an account that is not ACTIVE get their token, and 403 on use. See docs/api.md#authentication.",
    },
  },
  accounts: {
    list: {
      method: "GET",
      path: "/accounts",
      status: 200,
      response: AccountListSchema,
      list: true,
      spec: 2,
      noun: "account",
      summary: "List the accounts these credentials see",
      description:
        "Accounts are made by the operator, never through the API (docs/api.md#the-workflow): this lists the ones the caller's credentials see, one page at a time.",
    },
    get: {
      method: "GET",
      path: "/accounts/{id}",
      status: 200,
      response: AccountListSchema,
      spec: 3,
      noun: "account",
      summary: "Retrieve one account (in the list envelope)",
      description:
        "One account by id, answered inside the list envelope as the published API shows it (docs/api.md#endpoints, endpoint 3).",
    },
  },
  storageConnectors: crud(
    KINDS.storageConnectors,
    StorageConnectorCreateSchema,
    StorageConnectorSchema,
  ),
  computeConfigurations: crud(
    KINDS.computeConfigurations,
    ComputeConfigurationCreateSchema,
    ComputeConfigurationSchema,
  ),
  dataSchemas: crud(
    KINDS.dataSchemas,
    DataSchemaCreateSchema,
    DataSchemaSchema,
    { create: 4 },
  ),
  ...LABEL_ROUTES,
  ...CONSTRAINT_ROUTES,
  ingestionConfigurations: crud(
    KINDS.ingestionConfigurations,
    IngestionConfigurationCreateSchema,
    IngestionConfigurationSchema,
    { create: 5 },
  ),
  ingestionJobs: {
    ...crud(KINDS.ingestionJobs, IngestionJobCreateSchema, IngestionJobSchema, {
      create: 6,
    }),
    cancel: cancelRoute(KINDS.ingestionJobs, IngestionJobSchema),
  },
  onboardingConfigurations: crud(
    KINDS.onboardingConfigurations,
    OnboardingConfigurationCreateSchema,
    OnboardingConfigurationSchema,
    { create: 7, delete: 9 },
  ),
  onboardingJobs: {
    ...crud(
      KINDS.onboardingJobs,
      OnboardingJobCreateSchema,
      OnboardingJobSchema,
      { create: 8 },
    ),
    cancel: cancelRoute(KINDS.onboardingJobs, OnboardingJobSchema),
  },
  workspaces: crud(KINDS.workspaces, WorkspaceCreateSchema, WorkspaceSchema),
  trainingConfigurations: crud(
    KINDS.trainingConfigurations,
    TrainingConfigurationCreateSchema,
    TrainingConfigurationSchema,
  ),
  trainingJobs: {
    ...crud(KINDS.trainingJobs, TrainingJobCreateSchema, TrainingJobSchema),
    create: {
      method: "POST",
      path: KINDS.trainingJobs.path,
      status: 201,
      body: TrainingJobCreateSchema,
      response: TrainingJobSchema,
      workspace: true,
      spec: 10,
      noun: KINDS.trainingJobs.noun,
      summary: "Start a training job in the active workspace",
      description:
        "Trains a model on a dataset with a training configuration, in the workspace named by the X-Active-Workspace header. Answers 201 with the job STARTING; poll it until COMPLETED, then read its model (docs/contract.md#jobs-and-deployments).",
    },
    cancel: cancelRoute(KINDS.trainingJobs, TrainingJobSchema),
  },
  deploymentConfigurations: crud(
    KINDS.deploymentConfigurations,
    DeploymentConfigurationCreateSchema,
    DeploymentConfigurationSchema,
    { create: 11 },
  ),
  deployedModels: {
    ...crud(
      KINDS.deployedModels,
      DeployedModelCreateSchema,
      DeployedModelSchema,
      { create: 12 },
    ),
    views: {
      method: "POST",
      path: `${KINDS.deployedModels.path}/{id}/views`,
      status: 200,
      body: ViewsRequestSchema,
      response: SplitTableSchema,
      views: true,
      spec: 13,
      summary: "Predictions and explanations from a running deployed model",
      description:
        "Predictions, class probabilities and additive explanations (bias plus one contribution per term equals the prediction) for the rows of query, as a split-orientation table (docs/contract.md#views), with the schema's field_labels; anchor measures the contributions against a data anchor or reference rows (docs/contract.md#data-anchors). Large requests answer 202 with a Location to poll; a deployed model beyond its concurrency and queue answers 429 with Retry-After.",
    },
  },
  datasources: readOnly(KINDS.datasources, DatasourceSchema),
  datasets: readOnly(KINDS.datasets, DatasetSchema),
  models: {
    ...readOnly(KINDS.models, ModelSchema),
    explanation: {
      method: "GET",
      path: `${KINDS.models.path}/{id}/explanation`,
      status: 200,
      response: GlobalExplanationSchema,
      query: ExplanationQuerySchema,
      summary: "Global explanation: each term's importance and shape",
      description:
        "The model's global explanation: for each term (a feature or a pair), its mean absolute contribution and its shape over the feature's bins, with its schema's field_labels. anchor_id (or the schema's default anchor; none for no anchor) measures the shapes and the intercept against a data anchor (docs/contract.md#data-anchors).",
    },
  },
  // Batch views: our extension (docs/contract.md#batch-views).
  viewsBatchConfigurations: crud(
    KINDS.viewsBatchConfigurations,
    ViewsBatchConfigurationCreateSchema,
    ViewsBatchConfigurationSchema,
  ),
  viewsBatchJobs: {
    ...crud(
      KINDS.viewsBatchJobs,
      ViewsBatchJobCreateSchema,
      ViewsBatchJobSchema,
    ),
    cancel: cancelRoute(KINDS.viewsBatchJobs, ViewsBatchJobSchema),
  },
  viewsBatches: {
    ...readOnly(KINDS.viewsBatches, ViewsBatchSchema),
    results: {
      method: "GET",
      path: `${KINDS.viewsBatches.path}/{id}/results`,
      status: 200,
      response: ViewsBatchResultsSchema,
      query: BatchResultsQuerySchema,
      noun: KINDS.viewsBatches.noun,
      summary:
        "One page of a READY views batch's output, read back from its file (our extension, docs/contract.md#batch-views)",
    },
  },
} as const satisfies Record<string, Record<string, Route>>;

/** The route table's type. */
export type Routes = typeof routes;

/**
 * Fills a path template: `/models/{id}` with `{ id: "m 1" }` gives
 * `/models/m%201`. Every placeholder must be given.
 *
 * @example
 * ```ts
 * import { fillPath } from "./routes.ts";
 * fillPath("/deployed-models/{id}/views", { id: "dm_1" }); // "/deployed-models/dm_1/views"
 * try { fillPath("/models/{id}", { id: ".." }); throw 0; } catch (e) { if (e === 0) throw new Error(".. sent"); }
 * ```
 */
export function fillPath(
  template: string,
  params: Record<string, string> = {},
): string {
  return template.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = params[key];
    if (value === undefined || value === "") {
      throw new TypeError(
        `Missing path parameter "${key}" for ${template}: pass the resource id.`,
      );
    }
    // Sent as text (/models/%5Bobject%20Object%5D) or resolved away: refuse.
    const wrong = typeof value !== "string"
      ? (value === null ? "null" : `of type ${typeof value}`)
      : /^\.\.?$/.test(value)
      ? `"${value}", a folder step in a URL`
      : "";
    if (wrong) {
      throw new TypeError(
        `Path parameter "${key}" for ${template} is ${wrong}, not an id: pass the resource id as a string (e.g. model.id).`,
      );
    }
    return encodeURIComponent(value);
  });
}
