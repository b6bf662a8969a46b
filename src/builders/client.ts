/**
 * The part of the client the builders use, as a structural type: every
 * `Client` satisfies it, and tests can hand in a small fake.
 *
 * @module
 */
import type { RequestOptions } from "../http/transport.ts";
import type { Dataset, Datasource, Model } from "../schemas/artifacts.ts";
import type {
  ComputeConfiguration,
  ComputeConfigurationCreate,
} from "../schemas/compute.ts";
import type { DataSchema, DataSchemaCreate } from "../schemas/data_schemas.ts";
import type {
  DeployedModel,
  DeployedModelCreate,
  DeploymentConfiguration,
  DeploymentConfigurationCreate,
} from "../schemas/deployments.ts";
import type {
  IngestionConfiguration,
  IngestionConfigurationCreate,
  IngestionJob,
  IngestionJobCreate,
} from "../schemas/ingestion.ts";
import type {
  OnboardingConfiguration,
  OnboardingConfigurationCreate,
  OnboardingJob,
  OnboardingJobCreate,
} from "../schemas/onboarding.ts";
import type {
  StorageConnector,
  StorageConnectorCreate,
} from "../schemas/storage.ts";
import type {
  TrainingConfiguration,
  TrainingConfigurationCreate,
  TrainingJob,
  TrainingJobCreate,
} from "../schemas/training.ts";
import type { SplitTable, ViewsRequest } from "../schemas/views.ts";
import type { Workspace, WorkspaceCreate } from "../schemas/workspaces.ts";

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
  readonly storageConnectors: Creatable<
    StorageConnectorCreate,
    StorageConnector
  >;
  /** Compute configurations. */
  readonly computeConfigurations: Creatable<
    ComputeConfigurationCreate,
    ComputeConfiguration
  >;
  /** Data schemas. */
  readonly dataSchemas: Creatable<DataSchemaCreate, DataSchema>;
  /** Ingestion configurations. */
  readonly ingestionConfigurations: Creatable<
    IngestionConfigurationCreate,
    IngestionConfiguration
  >;
  /** Ingestion jobs. */
  readonly ingestionJobs: Creatable<IngestionJobCreate, IngestionJob>;
  /** Onboarding configurations. */
  readonly onboardingConfigurations: Creatable<
    OnboardingConfigurationCreate,
    OnboardingConfiguration
  >;
  /** Onboarding jobs. */
  readonly onboardingJobs: Creatable<OnboardingJobCreate, OnboardingJob>;
  /** Workspaces. */
  readonly workspaces: Creatable<WorkspaceCreate, Workspace>;
  /** Training configurations. */
  readonly trainingConfigurations: Creatable<
    TrainingConfigurationCreate,
    TrainingConfiguration
  >;
  /** Training jobs: `create` takes the workspace. */
  readonly trainingJobs: Readable<TrainingJob> & {
    create(
      body: TrainingJobCreate,
      options?: RequestOptions & { workspaceId?: string },
    ): Promise<TrainingJob>;
  };
  /** Deployment configurations. */
  readonly deploymentConfigurations: Creatable<
    DeploymentConfigurationCreate,
    DeploymentConfiguration
  >;
  /** Deployed models, and their views. */
  readonly deployedModels: Creatable<DeployedModelCreate, DeployedModel> & {
    views(
      id: string,
      body: ViewsRequest,
      options?: RequestOptions,
    ): Promise<SplitTable>;
  };
  /** Datasources (made by ingestion jobs). */
  readonly datasources: Readable<Datasource>;
  /** Datasets (made by onboarding jobs). */
  readonly datasets: Readable<Dataset>;
  /** Models (made by training jobs). */
  readonly models: Readable<Model>;
}
