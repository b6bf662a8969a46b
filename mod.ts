/**
 * `@mlplatform/sdk`: drive the machine-learning platform (docs/api.md) from
 * TypeScript, in a Deno notebook, a one-off script or Node.
 *
 * - {@linkcode connect} talks to the hosted service (credentials from options
 *   or `MLP_BASE_URL`, `MLP_CLIENT_ID`, `MLP_CLIENT_SECRET`).
 * - `local()`, from the `./local` entry (`@mlplatform/sdk/local`), runs the
 *   whole platform in-process, offline, on your own CSV files. This root
 *   entry never loads it (no Hono, no jose, no model).
 * - The `./notebook` entry (`@mlplatform/sdk/notebook`) has the Jupyter
 *   helpers: views tables, charts, cards.
 *
 * Both return an {@linkcode MLPlatform}: every endpoint as a typed method,
 * fluent builders (`ml.schema("churn").feature(...).target(...)`), and jobs
 * you simply `await`.
 *
 * @example Offline, from a CSV to explained predictions
 * ```ts
 * import { local } from "./local.ts";
 *
 * const ml = await local({ buckets: { data: "datasets" }, progress: false });
 * const { deployment } = await ml.quickstart({
 *   bucket: "data",
 *   path: "penguins.csv",
 *   target: "species",
 *   // A quick model (one estimator, at most 100 rounds); omit for the defaults.
 *   training: { estimators: 1, maxRounds: 100 },
 * });
 * const result = await deployment.views({
 *   island: ["Biscoe"],
 *   bill_length_mm: [45.2],
 *   bill_depth_mm: [14.8],
 *   flipper_length_mm: [212],
 *   body_mass_g: [5200],
 *   sex: ["female"],
 * });
 * console.log(result.rows()[0]["prediction.species"]); // "Gentoo"
 * await ml.close();
 * ```
 *
 * What this entry exports is listed by name below, each for a reason a user
 * has: the platform and client, the types of what they return, the errors to
 * catch, jobs, builders, frames and the wire types. Internals (helpers of the
 * builders, the transport, progress plumbing, zod schemas) stay importable
 * by path from `src/` for tests, and are not part of the package's promise.
 *
 * @module
 */
// The platform: connect(), MLPlatform and its one-call steps.
export { connect, MLPlatform } from "./src/platform.ts";
export type {
  ConstraintOptions,
  DeployOptions,
  IngestOptions,
  MLPlatformOptions,
  OnboardOptions,
  QuickstartOptions,
  QuickstartResult,
  TrainOptions,
} from "./src/platform.ts";
export type { PlatformBuilders } from "./src/platform_builders.ts";

// The client: every endpoint as a typed method (ml.client, or new Client()).
export { Client } from "./src/client.ts";
export type {
  ClientOptions,
  RequestOptions,
  TrainingJobCreateOptions,
} from "./src/client.ts";
export type {
  CallOptions,
  RouteResult,
  Transport,
} from "./src/http/transport.ts";
export type { Accounts } from "./src/resources/accounts.ts";
export type {
  Collection,
  CrudRoutes,
  ReadOnlyCollection,
  ReadRoutes,
} from "./src/resources/collection.ts";
export type {
  JobCollection,
  JobRoutes,
} from "./src/resources/job_collection.ts";
export type { DeployedModels } from "./src/resources/deployed_models.ts";
export type { Models } from "./src/resources/models.ts";
export type { TrainingJobs } from "./src/resources/training_jobs.ts";
export type { ViewsBatches } from "./src/resources/batches.ts";

// Errors to catch: one base class and a subclass per failure.
export {
  AuthenticationError,
  ConfigurationError,
  ConflictError,
  ConnectionError,
  InvalidResponseError,
  MLPlatformError,
  type MLPlatformErrorInit,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
  TimeoutError,
  ValidationError,
} from "./src/http/errors.ts";

// Jobs you await, watch, attach to and cancel.
export {
  Job,
  type JobDefinition,
  type JobRef,
  type JobRequestOptions,
  type WaitOptions,
} from "./src/jobs/job.ts";
export {
  CancellationNotSupportedError,
  JobCancelledError,
  JobFailedError,
  JobTimeoutError,
} from "./src/jobs/errors.ts";
export type { JobSnapshot, JobState } from "./src/jobs/status.ts";
export type {
  ProgressFactory,
  ProgressOption,
  ProgressReporter,
} from "./src/jobs/progress.ts";
export type { PollOptions } from "./src/jobs/poll_schedule.ts";

// Builders: what ml.schema(), ml.workspace(), ... return, and their options.
export {
  type AttachedJobs,
  type AttachKind,
  type AttachKindName,
  type BuilderClient,
  type CanonicalKind,
  type ColumnNames,
  type ColumnSet,
  ComputeBuilder,
  type ComputeOptions,
  type Contribution,
  type CreateOptions,
  type DataProcessingJobOptions,
  DeployedModelBuilder,
  type DeployedModelOptions,
  Deployment,
  DeploymentConfigurationBuilder,
  type DeploymentConfigurationOptions,
  type DeploymentOf,
  type DeploymentViewsOptions,
  type EncodingOptions,
  type FEATURES,
  type FeaturesOf,
  type FieldSpec,
  type FieldType,
  type Hyperparameters,
  IngestionConfigurationBuilder,
  type IngestionConfigurationOptions,
  IngestionJobBuilder,
  type IngestionJobOptions,
  type JobControl,
  type NumberOptions,
  OnboardingConfigurationBuilder,
  type OnboardingConfigurationOptions,
  OnboardingJobBuilder,
  type OnboardingJobOptions,
  type QueryColumns,
  type QueryRows,
  type RefLike,
  type ResultCell,
  type ReviewNote,
  SchemaBuilder,
  StorageConnectorBuilder,
  type StorageConnectorOptions,
  type TARGETS,
  type TargetsOf,
  TrainingConfigurationBuilder,
  type TrainingConfigurationOptions,
  TrainingJobBuilder,
  type TrainingJobOptions,
  type Typed,
  type TypedBy,
  type TypedRef,
  type ViewColumn,
  ViewsBuilder,
  type ViewsOptions,
  type ViewsQueryInput,
  ViewsResult,
  WorkspaceBuilder,
  type WorkspaceOptions,
} from "./src/builders/mod.ts";
// Batch views (extension): deployment.batch() and what it resolves to.
export {
  type BatchOnError,
  type BatchOutputFormat,
  batchSteps,
  type BatchViewType,
  type DeploymentBatchOptions,
  startBatch,
  ViewsBatchConfigurationBuilder,
  type ViewsBatchConfigurationOptions,
  ViewsBatchJobBuilder,
  type ViewsBatchJobOptions,
} from "./src/builders/batch.ts";
export {
  BatchPage,
  type BatchPageOptions,
  BatchResult,
} from "./src/builders/batch_result.ts";
export {
  HYPERPARAMETER_BOUNDS,
  type HyperparameterBounds,
  type HyperparameterName,
} from "./src/schemas/training.ts";

// A schema from a CSV or a DataFrame.
export {
  type ColumnReport,
  type DataFrameLike,
  type InferOptions,
  type InferredFeatures,
  inferSchema,
  type InferSource,
} from "./src/infer/mod.ts";

// Frames: views answers as rows, columns and danfo DataFrames; large scoring.
export {
  type Cell as FrameCell,
  type ChunkContext,
  ChunkError,
  type ChunkProgress,
  type Columns,
  type Danfo,
  DEFAULT_CHUNK_SIZE,
  FrameError,
  isMissing,
  isRetryableError,
  loadDanfo,
  type QueryInput,
  type Row,
  scoreInChunks,
  type ScoreInChunksOptions,
  splitToColumns,
  splitToRows,
  toDataFrame,
  type ToDataFrameOptions,
  toViewsQuery,
  type ToViewsQueryOptions,
  type ViewsQuery,
} from "./src/frames/mod.ts";

// The wire: the resources the service sends, and the bodies creates take.
export type {
  Account,
  BatchResultsQuery,
  Cell,
  ComputeConfiguration,
  ComputeConfigurationCreate,
  ComputeType,
  DATA_TYPES,
  DataSchema,
  DataSchemaCreate,
  Dataset,
  Datasource,
  DataType,
  Dependant,
  DeployedModel,
  DeployedModelCreate,
  DeploymentConfiguration,
  DeploymentConfigurationCreate,
  ErrorBody,
  FieldIssue,
  GlobalExplanation,
  IngestionConfiguration,
  IngestionConfigurationCreate,
  IngestionJob,
  IngestionJobCreate,
  JobStatus,
  LearningCurvePoint,
  ListQuery,
  Model,
  NUMBER_FORMATS,
  OnboardingConfiguration,
  OnboardingConfigurationCreate,
  OnboardingJob,
  OnboardingJobCreate,
  Page,
  Pagination,
  PredictionType,
  Ref,
  Route,
  SchemaField,
  SchemaFieldCreate,
  SEMANTIC_TYPES,
  SplitTable,
  StorageConnector,
  StorageConnectorCreate,
  TermExplanation,
  TrainingConfiguration,
  TrainingConfigurationCreate,
  TrainingJob,
  TrainingJobCreate,
  ViewsBatch,
  ViewsBatchConfiguration,
  ViewsBatchConfigurationCreate,
  ViewsBatchJob,
  ViewsBatchJobCreate,
  ViewsBatchResults,
  ViewsRequest,
  Workspace,
  WorkspaceCreate,
} from "./src/schemas/mod.ts";

// Notebook displays and charts (the ./notebook entry has the rest).
export {
  type Chart,
  type ExplanationChartOptions,
  type MimeBundle,
  type RegressionChartOptions,
  VEGALITE_MIME,
  type VegaLiteSpec,
} from "./src/display.ts";
export type { RegressionFit } from "./src/regression_fit.ts";

// A data schema's labels and anchors (docs/contract.md#labels-and-anchors).
export type {
  ChildCollection,
  ChildRoutes,
  LabelCollection,
  Parent,
} from "./src/resources/labels.ts";
// Data protections and model constraints as sub-resources
// (docs/contract.md#model-constraints-and-protected-fields).
export type {
  DataProtectedField,
  DataProtection,
  DataProtectionCreate,
  ModelConstraint,
  ModelConstraintGroup,
} from "./src/schemas/constraints.ts";
export type {
  AnchorSpec,
  AnchorValue,
  FeatureOptions,
  FieldLabelOptions,
} from "./src/builders/schema_labels.ts";
export type {
  AppliedAnchor,
  CategoryFriendlyName,
  CategoryFriendlyNameCreate,
  DataAnchor,
  DataAnchorCreate,
  DataAnchorTerm,
  Dimension,
  DimensionCreate,
  FieldLabel,
  FieldLabels,
  FriendlyName,
  FriendlyNameCreate,
  Unit,
  UnitCreate,
  ViewsAnchor,
} from "./src/schemas/labels.ts";
export {
  categoryLabel,
  columnLabel,
  fieldLabel,
  termLabel,
} from "./src/schemas/label_display.ts";
export { labelledTable } from "./src/frames/labels.ts";
