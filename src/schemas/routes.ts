// deno-doc-ignore-file private-type-ref missing-explicit-type -- wire types are inferred from these zod schemas (one source of truth), so they name zod's own types
/**
 * The route table: every operation of SPEC.md section 4 and the gaps
 * DESIGN.md fills, in one place. The client builds its requests from it and
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
  DatasetSchema,
  DatasourceSchema,
  GlobalExplanationSchema,
  ModelSchema,
} from "./artifacts.ts";

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
  /** SPEC.md endpoint number (1-13), when SPEC.md shows the operation. */
  readonly spec?: number;
  /** One line for the OpenAPI document. */
  readonly summary: string;
}

/**
 * `POST {path}/{id}/cancel`: our extension of SPEC.md for jobs. A running
 * job stops and ends `CANCELLED`; a job that already ended is a 409.
 */
function cancelRoute<R extends z.ZodType>(
  path: string,
  noun: string,
  response: R,
) {
  return {
    method: "POST",
    path: `${path}/{id}/cancel`,
    status: 200,
    response,
    summary:
      `Cancel a ${noun}: it stops and ends CANCELLED (extension of SPEC.md; 409 once it has ended)`,
  } as const;
}

/** A collection with create, get, list and delete (DESIGN.md). */
function crud<C extends z.ZodType, R extends z.ZodType>(
  path: string,
  noun: string,
  body: C,
  response: R,
  spec: { create?: number; delete?: number } = {},
) {
  return {
    create: {
      method: "POST",
      path,
      status: 201,
      body,
      response,
      spec: spec.create,
      summary: `Create a ${noun}`,
    },
    get: {
      method: "GET",
      path: `${path}/{id}`,
      status: 200,
      response,
      summary: `Retrieve a ${noun}`,
    },
    list: {
      method: "GET",
      path,
      status: 200,
      response: listOf(response),
      list: true,
      summary: `List ${noun}s`,
    },
    delete: {
      method: "DELETE",
      path: `${path}/{id}`,
      status: 204,
      spec: spec.delete,
      summary: `Delete a ${noun}`,
    },
  } as const satisfies Record<string, Route>;
}

/** A read-only collection: get and list (created by jobs), and delete. */
function readOnly<R extends z.ZodType>(
  path: string,
  noun: string,
  response: R,
) {
  const { get, list, delete: del } = crud(path, noun, response, response);
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
      summary: "List the accounts these credentials see",
    },
    get: {
      method: "GET",
      path: "/accounts/{id}",
      status: 200,
      response: AccountListSchema,
      spec: 3,
      summary: "Retrieve one account (in the list envelope)",
    },
  },
  storageConnectors: crud(
    "/storage-connectors",
    "storage connector",
    StorageConnectorCreateSchema,
    StorageConnectorSchema,
  ),
  computeConfigurations: crud(
    "/compute-configurations",
    "compute configuration",
    ComputeConfigurationCreateSchema,
    ComputeConfigurationSchema,
  ),
  dataSchemas: crud(
    "/data-schemas",
    "data schema",
    DataSchemaCreateSchema,
    DataSchemaSchema,
    { create: 4 },
  ),
  ingestionConfigurations: crud(
    "/data-processing-ingestion-configurations",
    "data processing ingestion configuration",
    IngestionConfigurationCreateSchema,
    IngestionConfigurationSchema,
    { create: 5 },
  ),
  ingestionJobs: {
    ...crud(
      "/data-processing-ingestion-jobs",
      "data processing ingestion job",
      IngestionJobCreateSchema,
      IngestionJobSchema,
      { create: 6 },
    ),
    cancel: cancelRoute(
      "/data-processing-ingestion-jobs",
      "data processing ingestion job",
      IngestionJobSchema,
    ),
  },
  onboardingConfigurations: crud(
    "/data-processing-onboarding-configurations",
    "data processing onboarding configuration",
    OnboardingConfigurationCreateSchema,
    OnboardingConfigurationSchema,
    { create: 7, delete: 9 },
  ),
  onboardingJobs: {
    ...crud(
      "/data-processing-onboarding-jobs",
      "data processing onboarding job",
      OnboardingJobCreateSchema,
      OnboardingJobSchema,
      { create: 8 },
    ),
    cancel: cancelRoute(
      "/data-processing-onboarding-jobs",
      "data processing onboarding job",
      OnboardingJobSchema,
    ),
  },
  workspaces: crud(
    "/workspaces",
    "workspace",
    WorkspaceCreateSchema,
    WorkspaceSchema,
  ),
  trainingConfigurations: crud(
    "/training-configurations",
    "training configuration",
    TrainingConfigurationCreateSchema,
    TrainingConfigurationSchema,
  ),
  trainingJobs: {
    ...crud(
      "/training-jobs",
      "training job",
      TrainingJobCreateSchema,
      TrainingJobSchema,
    ),
    create: {
      method: "POST",
      path: "/training-jobs",
      status: 201,
      body: TrainingJobCreateSchema,
      response: TrainingJobSchema,
      workspace: true,
      spec: 10,
      summary: "Start a training job in the active workspace",
    },
    cancel: cancelRoute("/training-jobs", "training job", TrainingJobSchema),
  },
  deploymentConfigurations: crud(
    "/deployment-configurations",
    "deployment configuration",
    DeploymentConfigurationCreateSchema,
    DeploymentConfigurationSchema,
    { create: 11 },
  ),
  deployedModels: {
    ...crud(
      "/deployed-models",
      "deployed model",
      DeployedModelCreateSchema,
      DeployedModelSchema,
      { create: 12 },
    ),
    views: {
      method: "POST",
      path: "/deployed-models/{id}/views",
      status: 200,
      body: ViewsRequestSchema,
      response: SplitTableSchema,
      views: true,
      spec: 13,
      summary: "Predictions and explanations from a running deployed model",
    },
  },
  datasources: readOnly("/datasources", "datasource", DatasourceSchema),
  datasets: readOnly("/datasets", "dataset", DatasetSchema),
  models: {
    ...readOnly("/models", "model", ModelSchema),
    explanation: {
      method: "GET",
      path: "/models/{id}/explanation",
      status: 200,
      response: GlobalExplanationSchema,
      summary: "Global explanation: each term's importance and shape",
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
    return encodeURIComponent(value);
  });
}
