/**
 * The options of `MLPlatform` (platform.ts) and of its one-call steps
 * (`ingest`, `onboard`, `train`, `deploy`, `quickstart`), and what
 * `quickstart` returns.
 *
 * @module
 */
import type { ClientOptions } from "./client.ts";
import type { PollOptions } from "./jobs/poll_schedule.ts";
import type { ProgressOption } from "./jobs/progress.ts";
import type { Dataset, Datasource, Model } from "./schemas/artifacts.ts";
import type { DataSchema } from "./schemas/data_schemas.ts";
import type { StorageConnector } from "./schemas/storage.ts";
import type { Deployment } from "./builders/deployment.ts";
import type { Hyperparameters } from "./builders/hyperparameters.ts";
import type { JobControl } from "./builders/job_builder.ts";
import type { EncodingOptions } from "./builders/onboarding.ts";
import type { RefLike, Typed } from "./builders/types.ts";
import type { InferSource } from "./infer/infer.ts";

/** Options of an `MLPlatform`: the client's, plus progress display and job polling. */
export interface MLPlatformOptions extends ClientOptions {
  /** Progress of awaited jobs: `false` silences the terminal bar; a factory draws your own. */
  progress?: ProgressOption;
  /**
   * Poll schedule of the jobs this platform starts or attaches to, when a
   * call names none (default: 240 ms at first, growing to 5 s). `local()`
   * polls its in-process platform sooner: its small jobs end in milliseconds.
   */
  poll?: PollOptions;
  /**
   * Reads a bucket object as text, so `quickstart()` can infer a schema
   * from the file it is about to ingest. `local()` sets it; with the hosted
   * service, pass `sample` to `quickstart()` instead.
   */
  readObject?: (bucket: string, path: string) => Promise<string>;
  /**
   * Hands `use` a bucket object's bytes as a stream (closed when `use`
   * settles), so `quickstart()` infers its schema without holding the file.
   * `local()` sets it; preferred to `readObject` when both are set.
   */
  streamObject?: <T>(
    bucket: string,
    path: string,
    use: (bytes: ReadableStream<Uint8Array>) => Promise<T>,
  ) => Promise<T>;
}

/** Options of `MLPlatform.ingest`. */
export interface IngestOptions<F extends string, T extends string>
  extends JobControl {
  /** The storage connector holding the file. */
  storage: RefLike;
  /** The data schema the file follows. */
  schema: Typed<{ id: string; name?: string }, F, T> | string;
  /** A processing compute configuration (default: one made once per MLPlatform). */
  compute?: RefLike;
  /** An ingestion configuration (default: a new one for `schema`). */
  configuration?: RefLike;
  /** Name of the datasource (default: the file name and a unique suffix). */
  datasourceName?: string;
}

/** Options of `MLPlatform.onboard`. */
export interface OnboardOptions<T extends string>
  extends EncodingOptions, JobControl {
  /** Targets (default: every target of the datasource's schema). */
  targets?: readonly T[];
  /** A processing compute configuration (default: one made once per MLPlatform). */
  compute?: RefLike;
  /** An onboarding configuration (default: a new one from these options, which it refuses beside it). */
  configuration?: RefLike;
  /** Name of the dataset (default: unique). */
  datasetName?: string;
}

/**
 * Model constraints in one call (docs/contract.md#model-constraints-and-protected-fields):
 * the options `train()` and `quickstart({ training })` take beside the
 * hyperparameters.
 */
export interface ConstraintOptions {
  /** Per numeric feature, the one way the prediction moves as it grows. */
  monotone?: Readonly<Record<string, "increasing" | "decreasing">>;
  /** Features kept out of the model (no term of them). */
  exclude?: readonly string[];
  /** Groups of features inside which pairs may form (none outside them). */
  interactions?: readonly (readonly string[])[];
  /** Also fit without the constraints and report both validation figures on the model (`constraint_cost`). */
  measureConstraintCost?: boolean;
}

/** Options of `MLPlatform.train`: hyperparameters and constraints, plus where to train. */
export interface TrainOptions
  extends Hyperparameters, ConstraintOptions, JobControl {
  /** Workspace (default: the client's `workspaceId`, else one made once per MLPlatform). */
  workspace?: RefLike;
  /** A training configuration (default: a new one from the hyperparameters given, which it refuses beside it). */
  configuration?: RefLike;
  /** A training compute configuration (default: one made once per MLPlatform). */
  compute?: RefLike;
  /** Name of the model (default: unique). */
  modelName?: string;
  /** Train on spot capacity (default false). */
  managedSpotTraining?: boolean;
}

/** Options of `MLPlatform.deploy`. */
export interface DeployOptions extends JobControl {
  /** A deployment configuration (default: a new one from the options below, which it refuses beside it). */
  configuration?: RefLike;
  /** Views requests served at once (default 4). */
  maximumConcurrency?: number;
  /** Memory in MB (default 2048). */
  memorySize?: number;
  /** Deployed model name (default: the model's name plus a unique suffix). */
  name?: string;
}

/** Options of `MLPlatform.quickstart`. */
export interface QuickstartOptions<T extends string> {
  /** The bucket holding the file (a storage connector is made for it)... */
  bucket?: string;
  /** ...or an existing storage connector. */
  storage?: RefLike;
  /** Path of the CSV file inside the bucket. */
  path: string;
  /** The column to predict. */
  target: T;
  /**
   * The data to infer the schema from (default: `path` read from disk,
   * which works with the local platform's folder buckets; pass the CSV
   * (path, URL, Blob, rows) when the bucket is remote).
   */
  sample?: InferSource;
  /** Schema and resource name prefix (default: the file name). */
  name?: string;
  /** Columns to leave out of the schema. */
  exclude?: readonly string[];
  /**
   * `CLASSIFICATION` or `REGRESSION`. Default: REGRESSION when the target
   * holds more than 20 distinct numbers (not only 0/1) or a number with a
   * fraction, else CLASSIFICATION; `schema` (and the model's `metrics`)
   * show which was used, `review` why.
   */
  predictionType?: "CLASSIFICATION" | "REGRESSION";
  /** Hyperparameters of training, and its constraints (`monotone`, `exclude`, `interactions`, `measureConstraintCost`). */
  training?: Hyperparameters & ConstraintOptions;
  /** Progress display; `false` for none. */
  progress?: ProgressOption;
}

/** What `MLPlatform.quickstart` made, step by step. */
export interface QuickstartResult<F extends string, T extends string> {
  /** The storage connector. */
  storage: StorageConnector | { id: string };
  /** The data schema (inferred). */
  schema: Typed<DataSchema, F, T>;
  /** Review notes of the inferred schema. */
  review: readonly { field: string; reason: string; suggestion: string }[];
  /** The ingested datasource. */
  datasource: Typed<Datasource, F, T>;
  /** The onboarded dataset. */
  dataset: Typed<Dataset, F, T>;
  /** The trained model. */
  model: Typed<Model, F, T>;
  /** The running deployed model, ready for `views()`. */
  deployment: Deployment<F, T>;
}
