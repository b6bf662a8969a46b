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
 * @module
 */
export { connect, MLPlatform } from "./src/platform.ts";
export type * from "./src/platform.ts";
export { Client, resolveClientOptions } from "./src/client.ts";
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

export * from "./src/http/errors.ts";
export * from "./src/jobs/mod.ts";
export * from "./src/builders/mod.ts";
export * from "./src/infer/mod.ts";
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

export type * from "./src/schemas/mod.ts";
export { HYPERPARAMETER_BOUNDS } from "./src/schemas/training.ts";
export {
  type Chart,
  type ExplanationChartOptions,
  type MimeBundle,
  type RegressionChartOptions,
  VEGALITE_MIME,
  type VegaLiteSpec,
} from "./src/display.ts";
export type { RegressionFit } from "./src/regression_fit.ts";
