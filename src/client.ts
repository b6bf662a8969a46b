/**
 * The typed client of the platform API: one property per resource family of
 * the route table (`client.dataSchemas.create(...)`, `client.trainingJobs.get(id)`,
 * `client.deployedModels.views(id, body)`, ...), all sent through one
 * transport (token, retries, timeouts, 202 polling, typed errors).
 *
 * `resolveClientOptions` completes options from the environment
 * (`MLP_BASE_URL`, `MLP_CLIENT_ID`, `MLP_CLIENT_SECRET`) and refuses a
 * client secret in a browser unless explicitly allowed.
 *
 * @example
 * ```ts
 * import { Client } from "./client.ts";
 * const client = new Client({
 *   baseUrl: "https://mlp.invalid",
 *   clientId: "id",
 *   clientSecret: "secret",
 *   fetch: (req) => Promise.resolve(Response.json(
 *     new URL((req as Request).url).pathname === "/oauth/token"
 *       ? { access_token: "t", token_type: "Bearer", expires_in: 3600 }
 *       : { data: [], pagination: { total_items: 0, items_per_page: 10, current_page: 1, total_pages: 0 } },
 *   )),
 * });
 * for await (const workspace of client.workspaces.iterate()) console.log(workspace.name);
 * ```
 *
 * @module
 */
import { ChildCollection, LabelCollection } from "./resources/labels.ts";
import type {
  CategoryFriendlyName,
  CategoryFriendlyNameCreate,
  DataAnchor,
  DataAnchorCreate,
  Dimension,
  DimensionCreate,
  FriendlyName,
  FriendlyNameCreate,
  Unit,
  UnitCreate,
} from "./schemas/labels.ts";
import type {
  ComputeConfiguration,
  ComputeConfigurationCreate,
} from "./schemas/compute.ts";
import type { DataSchema, DataSchemaCreate } from "./schemas/data_schemas.ts";
import type {
  DeploymentConfiguration,
  DeploymentConfigurationCreate,
} from "./schemas/deployments.ts";
import type {
  IngestionConfiguration,
  IngestionConfigurationCreate,
  IngestionJob,
  IngestionJobCreate,
} from "./schemas/ingestion.ts";
import type {
  OnboardingConfiguration,
  OnboardingConfigurationCreate,
  OnboardingJob,
  OnboardingJobCreate,
} from "./schemas/onboarding.ts";
import type { Dataset, Datasource } from "./schemas/artifacts.ts";
import type {
  DataProtectedField,
  DataProtection,
  DataProtectionCreate,
  ModelConstraint,
  ModelConstraintGroup,
} from "./schemas/constraints.ts";
import type {
  StorageConnector,
  StorageConnectorCreate,
} from "./schemas/storage.ts";
import type {
  TrainingConfiguration,
  TrainingConfigurationCreate,
} from "./schemas/training.ts";
import type { Workspace, WorkspaceCreate } from "./schemas/workspaces.ts";
import { routes } from "./schemas/routes.ts";
import { ConfigurationError } from "./http/errors.ts";
import { isBrowserLike, readEnv } from "./http/environment.ts";
import { sleep } from "./abort.ts";
import { Transport } from "./http/transport.ts";
import { checkNumericOptions } from "./http/settings.ts";
import { DEFAULT_MAX_RETRIES, DEFAULT_RETRY_TIMEOUT } from "./http/retry.ts";
import { Accounts } from "./resources/accounts.ts";
import { Collection, ReadOnlyCollection } from "./resources/collection.ts";
import { JobCollection } from "./resources/job_collection.ts";
import { DeployedModels } from "./resources/deployed_models.ts";
import { Models } from "./resources/models.ts";
import { TrainingJobs } from "./resources/training_jobs.ts";
import { ViewsBatches } from "./resources/batches.ts";
import type {
  ViewsBatchConfiguration,
  ViewsBatchConfigurationCreate,
  ViewsBatchJob,
  ViewsBatchJobCreate,
} from "./schemas/batch.ts";

export type { RequestOptions } from "./http/transport.ts";
export type { TrainingJobCreateOptions } from "./resources/training_jobs.ts";

/** The `X-Views-Cache-Control` value the published workflow sends (docs/api.md#endpoints). */
export const DEFAULT_VIEWS_CACHE_CONTROL = "no-cache, no-store";

/** How to reach the service and how patient to be. */
export interface ClientOptions {
  /** Base URL of the service, e.g. `https://api.example.com` (env `MLP_BASE_URL` with `connect()`). */
  baseUrl: string;
  /** Account API client id (env `MLP_CLIENT_ID`). */
  clientId?: string;
  /** Account API client secret (env `MLP_CLIENT_SECRET`); never logged or inspected. */
  clientSecret?: string;
  /** The fetch to use, e.g. an in-process handler (default: global fetch). */
  fetch?: typeof fetch;
  /** Milliseconds each HTTP attempt may take. Default 60 000. */
  timeout?: number;
  /**
   * Retries of one call where repeating is safe (see `src/http/retry.ts`).
   * Default 10, within `retryTimeout`.
   */
  maxRetries?: number;
  /** Longest total wait between one call's attempts, in ms. Default 60 000. */
  retryTimeout?: number;
  /** `X-Views-Cache-Control` of views; false to not send it. Default `"no-cache, no-store"`. */
  viewsCacheControl?: string | false;
  /** Default workspace of training jobs (`X-Active-Workspace`). */
  workspaceId?: string;
  /** Allow a client secret in a browser-like runtime (docs/api.md#authentication says not to). */
  dangerouslyAllowBrowser?: boolean;
  /** First retry delay in ms, doubling per retry, with jitter. Default 500. */
  retryBaseDelay?: number;
  /** Largest retry delay in ms. Default 8 000. */
  retryMaxDelay?: number;
  /** Longest `Retry-After` in ms the client waits on its own. Default 60 000. */
  maxRetryAfter?: number;
  /** Wait between polls of a 202 `Location` without `Retry-After`, in ms. Default 1 000. */
  pollInterval?: number;
  /** Headers added to every call. */
  headers?: Record<string, string>;
  /** Clock in ms since the epoch (token expiry); injectable for tests. Default `Date.now`. */
  clock?: () => number;
  /** Waits between retries and polls; injectable for tests. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * Completes client options from the environment and checks them: `baseUrl`,
 * `clientId` and `clientSecret` fall back to `MLP_BASE_URL`,
 * `MLP_CLIENT_ID` and `MLP_CLIENT_SECRET` (an unreadable environment, such
 * as Deno without `--allow-env`, counts as unset). Throws a
 * `ConfigurationError` naming what is missing and how to set it, or when a
 * secret would be used in a browser.
 *
 * @example
 * ```ts
 * import { resolveClientOptions } from "./client.ts";
 * const options = resolveClientOptions({ baseUrl: "https://mlp.invalid", clientId: "id", clientSecret: "s" });
 * console.log(options.baseUrl); // "https://mlp.invalid"
 * ```
 */
export function resolveClientOptions(
  partial: Partial<ClientOptions> = {},
): ClientOptions & { clientId: string; clientSecret: string } {
  const baseUrl = partial.baseUrl ?? readEnv("MLP_BASE_URL");
  const clientId = partial.clientId ?? readEnv("MLP_CLIENT_ID");
  const clientSecret = partial.clientSecret ?? readEnv("MLP_CLIENT_SECRET");
  const missing = [
    [baseUrl, "baseUrl", "MLP_BASE_URL"],
    [clientId, "clientId", "MLP_CLIENT_ID"],
    [clientSecret, "clientSecret", "MLP_CLIENT_SECRET"],
  ].filter(([value]) => !value).map(([, option, env]) =>
    `${option} (option) or ${env} (environment)`
  );
  if (missing.length) {
    throw new ConfigurationError({
      message: `Missing ${missing.join(", ")}`,
      hint:
        "Pass them to connect({ ... }) or export them, e.g. MLP_BASE_URL=https://... MLP_CLIENT_ID=... MLP_CLIENT_SECRET=...; under Deno, reading the environment needs --allow-env. To try the SDK without an account, use local()",
    });
  }
  const options = { ...partial, baseUrl, clientId, clientSecret } as
    & ClientOptions
    & { clientId: string; clientSecret: string };
  assertSecretAllowed(options);
  return options;
}

function assertSecretAllowed(options: Partial<ClientOptions>): void {
  if (
    options.clientSecret && !options.dangerouslyAllowBrowser && isBrowserLike()
  ) {
    throw new ConfigurationError({
      message:
        "Refusing to use a client secret in a browser-like runtime: docs/api.md#authentication says credentials must never be exposed in browser code, where any visitor can read them",
      hint:
        "Call the platform from a server and give the browser only your own API, or, if this page is private to you, pass dangerouslyAllowBrowser: true",
    });
  }
}

/**
 * The platform API client.
 *
 * @example Every resource family is a property
 * ```ts
 * import { Client } from "./client.ts";
 * const client = new Client({ baseUrl: "https://mlp.invalid", clientId: "id", clientSecret: "secret" });
 * console.log(typeof client.dataSchemas.create); // "function"
 * console.log(JSON.stringify(client)); // {"baseUrl":"https://mlp.invalid","clientId":"id"}
 * ```
 */
export class Client {
  readonly #transport: Transport;

  /** Accounts (docs/api.md#endpoints, endpoints 2 and 3): list, get, iterate. */
  readonly accounts: Accounts;
  /** Storage connectors. */
  readonly storageConnectors: Collection<
    StorageConnectorCreate,
    StorageConnector
  >;
  /** Compute configurations (processing and training). */
  readonly computeConfigurations: Collection<
    ComputeConfigurationCreate,
    ComputeConfiguration
  >;
  /** Data schemas (docs/api.md#endpoints, endpoint 4). */
  readonly dataSchemas: Collection<DataSchemaCreate, DataSchema>;
  /** A data schema's field friendly names (docs/contract.md#labels-and-anchors). */
  readonly friendlyNames: LabelCollection<FriendlyNameCreate, FriendlyName>;
  /** A data schema's category friendly names. */
  readonly categoryFriendlyNames: LabelCollection<
    CategoryFriendlyNameCreate,
    CategoryFriendlyName
  >;
  /** A data schema's units. */
  readonly units: LabelCollection<UnitCreate, Unit>;
  /** A data schema's dimensions. */
  readonly dimensions: LabelCollection<DimensionCreate, Dimension>;
  /** A data schema's data anchors (docs/contract.md#data-anchors). */
  readonly dataAnchors: LabelCollection<DataAnchorCreate, DataAnchor>;
  /** A data schema's data protections (docs/contract.md#model-constraints-and-protected-fields). */
  readonly dataProtections: LabelCollection<
    DataProtectionCreate,
    DataProtection
  >;
  /** A data protection's fields: the parent is `{ id, protection_id }`. */
  readonly dataProtectedFields: ChildCollection<DataProtectedField>;
  /** A training job's model constraints (read and deleted; given at its create). */
  readonly modelConstraints: ChildCollection<ModelConstraint>;
  /** A training job's model constraint groups (read and deleted; given at its create). */
  readonly modelConstraintGroups: ChildCollection<ModelConstraintGroup>;
  /** Data processing ingestion configurations (endpoint 5). */
  readonly ingestionConfigurations: Collection<
    IngestionConfigurationCreate,
    IngestionConfiguration
  >;
  /** Data processing ingestion jobs (endpoint 6). */
  readonly ingestionJobs: JobCollection<IngestionJobCreate, IngestionJob>;
  /** Data processing onboarding configurations (endpoints 7 and 9). */
  readonly onboardingConfigurations: Collection<
    OnboardingConfigurationCreate,
    OnboardingConfiguration
  >;
  /** Data processing onboarding jobs (endpoint 8). */
  readonly onboardingJobs: JobCollection<OnboardingJobCreate, OnboardingJob>;
  /** Workspaces. */
  readonly workspaces: Collection<WorkspaceCreate, Workspace>;
  /** Training configurations. */
  readonly trainingConfigurations: Collection<
    TrainingConfigurationCreate,
    TrainingConfiguration
  >;
  /** Training jobs (endpoint 10; `create(body, { workspaceId })`). */
  readonly trainingJobs: TrainingJobs;
  /** Deployment configurations (endpoint 11). */
  readonly deploymentConfigurations: Collection<
    DeploymentConfigurationCreate,
    DeploymentConfiguration
  >;
  /** Deployed models (endpoint 12) and their views (endpoint 13). */
  readonly deployedModels: DeployedModels;
  /** Datasources, created by ingestion jobs. */
  readonly datasources: ReadOnlyCollection<Datasource>;
  /** Datasets, created by onboarding jobs. */
  readonly datasets: ReadOnlyCollection<Dataset>;
  /** Models, created by training jobs, with their global explanation. */
  readonly models: Models;
  /** Views batch configurations (extension: batch views). */
  readonly viewsBatchConfigurations: Collection<
    ViewsBatchConfigurationCreate,
    ViewsBatchConfiguration
  >;
  /** Views batch jobs: score a bucket's CSV file with a deployed model (extension). */
  readonly viewsBatchJobs: JobCollection<ViewsBatchJobCreate, ViewsBatchJob>;
  /** Views batches, made by views batch jobs, with their result pages (extension). */
  readonly viewsBatches: ViewsBatches;

  /**
   * Builds a client; nothing is sent until the first call. Throws a
   * `ConfigurationError` for an invalid base URL, or a secret in a browser.
   */
  constructor(options: ClientOptions) {
    assertSecretAllowed(options);
    checkNumericOptions(options as unknown as Record<string, unknown>);
    const transport = new Transport({
      baseUrl: options.baseUrl,
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      fetch: options.fetch,
      timeout: options.timeout ?? 60_000,
      maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
      retryTimeout: options.retryTimeout ?? DEFAULT_RETRY_TIMEOUT,
      retryBaseDelay: options.retryBaseDelay ?? 500,
      retryMaxDelay: options.retryMaxDelay ?? 8_000,
      maxRetryAfter: options.maxRetryAfter ?? 60_000,
      pollInterval: options.pollInterval ?? 1_000,
      viewsCacheControl: options.viewsCacheControl ??
        DEFAULT_VIEWS_CACHE_CONTROL,
      workspaceId: options.workspaceId,
      headers: options.headers,
      clock: options.clock ?? Date.now,
      sleep: options.sleep ?? sleep,
    });
    this.#transport = transport;
    this.accounts = new Accounts(transport);
    this.storageConnectors = new Collection(
      transport,
      routes.storageConnectors,
    );
    this.computeConfigurations = new Collection(
      transport,
      routes.computeConfigurations,
    );
    this.dataSchemas = new Collection(transport, routes.dataSchemas);
    this.friendlyNames = new LabelCollection(transport, routes.friendlyNames);
    this.categoryFriendlyNames = new LabelCollection(
      transport,
      routes.categoryFriendlyNames,
    );
    this.units = new LabelCollection(transport, routes.units);
    this.dimensions = new LabelCollection(transport, routes.dimensions);
    this.dataAnchors = new LabelCollection(transport, routes.dataAnchors);
    this.dataProtections = new LabelCollection(
      transport,
      routes.dataProtections,
    );
    this.dataProtectedFields = new ChildCollection(
      transport,
      routes.dataProtectedFields,
    );
    this.modelConstraints = new ChildCollection(
      transport,
      routes.modelConstraints,
    );
    this.modelConstraintGroups = new ChildCollection(
      transport,
      routes.modelConstraintGroups,
    );
    this.ingestionConfigurations = new Collection(
      transport,
      routes.ingestionConfigurations,
    );
    this.ingestionJobs = new JobCollection(transport, routes.ingestionJobs);
    this.onboardingConfigurations = new Collection(
      transport,
      routes.onboardingConfigurations,
    );
    this.onboardingJobs = new JobCollection(transport, routes.onboardingJobs);
    this.workspaces = new Collection(transport, routes.workspaces);
    this.trainingConfigurations = new Collection(
      transport,
      routes.trainingConfigurations,
    );
    this.trainingJobs = new TrainingJobs(transport);
    this.deploymentConfigurations = new Collection(
      transport,
      routes.deploymentConfigurations,
    );
    this.deployedModels = new DeployedModels(transport);
    this.datasources = new ReadOnlyCollection(transport, routes.datasources);
    this.datasets = new ReadOnlyCollection(transport, routes.datasets);
    this.models = new Models(transport);
    this.viewsBatchConfigurations = new Collection(
      transport,
      routes.viewsBatchConfigurations,
    );
    this.viewsBatchJobs = new JobCollection(transport, routes.viewsBatchJobs);
    this.viewsBatches = new ViewsBatches(transport);
  }

  /** The base URL calls go to (normalised, no trailing slash). */
  get baseUrl(): string {
    return this.#transport.baseUrl;
  }

  /**
   * The transport, for calling a route of the route table the resources do
   * not wrap: `client.transport.call(routes.x.y, { params })`.
   */
  get transport(): Transport {
    return this.#transport;
  }

  /** Shows the base URL and client id only: never the secret or a token. */
  [Symbol.for("Deno.customInspect")](): string {
    return `Client ${JSON.stringify(this.toJSON())}`;
  }

  /** Node's `util.inspect`: the base URL and client id only. */
  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `Client ${JSON.stringify(this.toJSON())}`;
  }

  /** `JSON.stringify(client)`: the base URL and client id only. */
  toJSON(): { baseUrl: string; clientId?: string } {
    return this.#transport.toJSON();
  }
}
