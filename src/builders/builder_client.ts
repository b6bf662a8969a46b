/**
 * The part of the client the builders use, as a structural type: every
 * `Client` satisfies it, and tests can hand in a small fake. Each
 * collection is the `Client`'s own, narrowed to the methods the builders
 * call, so the request and resource types follow the client's.
 *
 * @module
 */
import type { Client } from "../client.ts";
import type { RequestOptions } from "../http/transport.ts";

export type { RequestOptions };

/** A collection the builders read from. */
export interface Readable<R> {
  /** Retrieves one item by id. */
  get(id: string, options?: RequestOptions): Promise<R>;
}

/** A collection the builders create in. */
export interface Creatable<B, R> extends Readable<R> {
  /** Creates one item from a request body. */
  create(body: B, options?: RequestOptions): Promise<R>;
}

/** The client calls the builders make. */
export interface BuilderClient {
  /** Storage connectors. */
  readonly storageConnectors: Pick<
    Client["storageConnectors"],
    "get" | "create" | "iterate"
  >;
  /** Compute configurations. */
  readonly computeConfigurations: Pick<
    Client["computeConfigurations"],
    "get" | "create" | "iterate"
  >;
  /** Data schemas. */
  readonly dataSchemas: Pick<Client["dataSchemas"], "get" | "create">;
  /** Ingestion configurations. */
  readonly ingestionConfigurations: Pick<
    Client["ingestionConfigurations"],
    "get" | "create"
  >;
  /** Ingestion jobs. */
  readonly ingestionJobs: Pick<
    Client["ingestionJobs"],
    "get" | "create" | "cancel"
  >;
  /** Onboarding configurations. */
  readonly onboardingConfigurations: Pick<
    Client["onboardingConfigurations"],
    "get" | "create"
  >;
  /** Onboarding jobs. */
  readonly onboardingJobs: Pick<
    Client["onboardingJobs"],
    "get" | "create" | "cancel"
  >;
  /** Workspaces. */
  readonly workspaces: Pick<Client["workspaces"], "get" | "create">;
  /** Training configurations. */
  readonly trainingConfigurations: Pick<
    Client["trainingConfigurations"],
    "get" | "create"
  >;
  /** Training jobs: `create` takes the workspace. */
  readonly trainingJobs: Pick<
    Client["trainingJobs"],
    "get" | "create" | "cancel"
  >;
  /** Deployment configurations. */
  readonly deploymentConfigurations: Pick<
    Client["deploymentConfigurations"],
    "get" | "create"
  >;
  /** Deployed models, and their views. */
  readonly deployedModels: Pick<
    Client["deployedModels"],
    "get" | "create" | "views"
  >;
  /** Datasources (made by ingestion jobs). */
  readonly datasources: Pick<Client["datasources"], "get">;
  /** Datasets (made by onboarding jobs). */
  readonly datasets: Pick<Client["datasets"], "get">;
  /** Models (made by training jobs). */
  readonly models: Pick<Client["models"], "get">;
  /** Views batch configurations. */
  readonly viewsBatchConfigurations: Pick<
    Client["viewsBatchConfigurations"],
    "get" | "create" | "delete"
  >;
  /** Views batch jobs. */
  readonly viewsBatchJobs: Pick<
    Client["viewsBatchJobs"],
    "get" | "create" | "cancel"
  >;
  /** Views batches (made by views batch jobs), and their result pages. */
  readonly viewsBatches: Pick<Client["viewsBatches"], "get" | "results">;
}
