/**
 * `@mlplatform/sdk`: drive the machine-learning platform of SPEC.md from
 * TypeScript, in a Deno notebook, a one-off script or Node.
 *
 * - {@linkcode connect} talks to the hosted service (credentials from options
 *   or `MLP_BASE_URL`, `MLP_CLIENT_ID`, `MLP_CLIENT_SECRET`).
 * - {@linkcode local} runs the whole platform in-process, offline, on your own
 *   CSV files: a real model, real explanations, no account.
 *
 * Both return an {@linkcode MLPlatform}: every endpoint as a typed method,
 * fluent builders (`ml.schema("churn").feature(...).target(...)`), and jobs
 * you simply `await`.
 *
 * @example Offline, from a CSV to explained predictions
 * ```ts
 * import { local } from "./mod.ts";
 *
 * const ml = await local({ buckets: { data: "../shared/datasets" }, progress: false });
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
import type { ClientOptions } from "./src/client.ts";
import type { LocalPlatformOptions } from "./src/local/options.ts";
import type { LocalPlatform } from "./src/local/platform.ts";
import type { LocalClient } from "./src/local/mod.ts";
import { MLPlatform, type MLPlatformOptions } from "./src/platform.ts";

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
export type { DeployedModels } from "./src/resources/deployed_models.ts";
export type { Models } from "./src/resources/models.ts";
export type { TrainingJobs } from "./src/resources/training_jobs.ts";
export type {
  AccountConfig,
  Credential,
  CredentialConfig,
  LocalPlatformOptions,
  Operator,
  OperatorAccount,
  OperatorConfig,
  OrganisationConfig,
} from "./src/local/options.ts";
export type { FaultOptions } from "./src/local/faults.ts";
export type { LocalPlatform } from "./src/local/platform.ts";

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
export * from "./src/notebook/mod.ts";

export type * from "./src/schemas/mod.ts";

/** Options of {@linkcode local}: the platform's, plus the client's. */
export type LocalOptions =
  & LocalPlatformOptions
  & Partial<Omit<MLPlatformOptions, keyof ClientOptions>>
  & {
    /** Client options (timeouts, retries, ...) for the connected client. */
    client?: Partial<ClientOptions>;
  };

/** An {@linkcode MLPlatform} connected to an in-process local platform. */
export interface LocalMLPlatform extends MLPlatform {
  /** The platform the client talks to. */
  readonly platform: LocalPlatform;
  /** Stops the platform's background work and closes its store. */
  close(): Promise<void>;
}

/**
 * Runs the whole platform of SPEC.md in-process (no socket, no account) and
 * returns an {@linkcode MLPlatform} connected to it. Map bucket names to
 * local folders with `buckets`; persist everything with `dataDir`. The
 * local platform (Hono, jose, the model) is loaded only when this is called,
 * so {@linkcode connect} users never pay for it.
 *
 * @example
 * ```ts
 * import { local } from "./mod.ts";
 * const ml = await local({ progress: false });
 * const [account] = (await ml.accounts.list()).data;
 * console.log(account.status); // "ACTIVE"
 * await ml.close();
 * ```
 */
export async function local(
  options: LocalOptions = {},
): Promise<LocalMLPlatform> {
  const { createLocalClient } = await import("./src/local/mod.ts");
  const { client, progress, ...platformOptions } = options;
  const ml: LocalClient<MLPlatform> = await createLocalClient(
    { ...platformOptions, client },
    (o) =>
      new MLPlatform({
        ...o,
        progress,
        readObject: (bucket, path) => ml.platform.readObject(bucket, path),
      }),
  );
  return Object.defineProperty(ml, "close", {
    value: () => ml.platform.close(),
    enumerable: false,
  }) as LocalMLPlatform;
}
