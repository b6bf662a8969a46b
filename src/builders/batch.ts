// deno-doc-ignore-file private-type-ref missing-explicit-type missing-return-type -- protected builder internals are typed by the zod request schemas they validate with
/**
 * Batch views (our extension, docs/contract.md#batch-views): the views batch configuration
 * builder, the views batch job builder (a `Job` resolving to a
 * {@linkcode BatchResult}), and {@linkcode startBatch}, behind
 * `deployment.batch({ bucket, path, output })`, which makes what the job
 * needs (storage connector, compute, configuration) when not given.
 *
 * @module
 */
import { CancellationNotSupportedError } from "../jobs/errors.ts";
import { Job, type JobDefinition } from "../jobs/job.ts";
import type { PollOptions } from "../jobs/poll_schedule.ts";
import type { ProgressOption } from "../jobs/progress.ts";
import type {
  BATCH_ON_ERROR,
  BATCH_OUTPUT_FORMATS,
  BATCH_VIEW_TYPES,
  ViewsBatchJob,
} from "../schemas/batch.ts";
import { uniqueName } from "./base.ts";
import { BatchResult } from "./batch_result.ts";
import type { BuilderClient } from "./builder_client.ts";
import { ComputeBuilder } from "./compute.ts";
import {
  followJob,
  JobBuilder,
  type JobControl,
  type JobSteps,
} from "./job_builder.ts";
import { ResourceBuilder } from "./spec.ts";
import { idOf, type RefLike } from "./types.ts";

/** What a batch row gets: `RESULTS` (views with explanations) or `PREDICTIONS` (predictions and probabilities). */
export type BatchViewType = typeof BATCH_VIEW_TYPES[number];
/** `CSV` or `JSON_LINES`. */
export type BatchOutputFormat = typeof BATCH_OUTPUT_FORMATS[number];
/** `FAIL` the job on a bad row, or write it with a `NULL_PREDICTION` and an error. */
export type BatchOnError = typeof BATCH_ON_ERROR[number];

/** Options of a views batch configuration. */
export interface ViewsBatchConfigurationOptions {
  /** Configuration name (unique in the account). */
  name: string;
  /** Which views: `["RESULTS"]` (default) or `["PREDICTIONS"]`. */
  views?: readonly BatchViewType[];
  /** `CSV` (default) or `JSON_LINES`. */
  format?: BatchOutputFormat;
  /** Input columns copied to the output first (an id, ...). */
  keep?: readonly string[];
  /** `FAIL` (default) or `NULL_PREDICTION`. */
  onError?: BatchOnError;
  /** The error column's name with `NULL_PREDICTION` (default `error`). */
  errorColumn?: string;
}

/**
 * Builds `POST /views-batch-configurations`. Immutable; awaitable.
 *
 * @example
 * ```ts
 * import { ViewsBatchConfigurationBuilder } from "./batch.ts";
 * const body = new ViewsBatchConfigurationBuilder(undefined, { name: "nightly", keep: ["id"] })
 *   .with({ onError: "NULL_PREDICTION", format: "JSON_LINES" })
 *   .body();
 * if (JSON.stringify(body.keep_columns) !== '["id"]' || body.on_error !== "NULL_PREDICTION") {
 *   throw new Error(JSON.stringify(body));
 * }
 * if (body.view_types[0] !== "RESULTS" || body.output_format !== "JSON_LINES") throw new Error();
 * ```
 */
export class ViewsBatchConfigurationBuilder extends ResourceBuilder<
  "viewsBatchConfigurations",
  ViewsBatchConfigurationOptions
> {
  /** Its definition. */
  protected readonly spec = this.define({
    route: "viewsBatchConfigurations",
    wire: {
      views: "view_types",
      format: "output_format",
      keep: "keep_columns",
    },
  });
}

/** Options of a views batch job. */
export interface ViewsBatchJobOptions extends JobControl {
  /** Job name (default: `batch-<batchName>`). */
  name?: string;
  /** The RUNNING deployed model (or its id). */
  deployment: RefLike;
  /** The views batch configuration (or its id). */
  configuration: RefLike;
  /** The storage connector of the bucket (or its id). */
  storage: RefLike;
  /** A PROCESSING compute configuration (or its id). */
  compute: RefLike;
  /** The input inside the bucket: a `.csv` or `.csv.gz` file with a header row. */
  path: string;
  /** Where the output goes inside the same bucket (written whole, or not at all). */
  output: string;
  /** Name of the views batch it makes (default: the output's file name and a unique suffix). */
  batchName?: string;
}

/**
 * Builds `POST /views-batch-jobs`; `create()` returns a `Job` that resolves
 * to a {@linkcode BatchResult} once the job is `COMPLETED`.
 *
 * @example
 * ```ts
 * import { ViewsBatchJobBuilder } from "./batch.ts";
 * const body = new ViewsBatchJobBuilder(undefined, {
 *   deployment: "dm_1", configuration: "vbc_1", storage: "sc_1", compute: "cc_1",
 *   path: "customers.csv.gz", output: "scored/customers.csv", batchName: "nightly",
 * }).body();
 * if (body.name !== "batch-nightly" || body.deployed_model_id !== "dm_1" || body.output_path !== "scored/customers.csv") {
 *   throw new Error(JSON.stringify(body));
 * }
 * ```
 */
export class ViewsBatchJobBuilder extends JobBuilder<
  "viewsBatchJobs",
  ViewsBatchJobOptions,
  BatchResult
> {
  /** Its definition. */
  protected readonly spec = this.define({
    route: "viewsBatchJobs",
    wire: {
      deployment: "deployed_model_id",
      configuration: "views_batch_configuration_id",
      storage: "storage_connector_id",
      path: "data_path",
      output: "output_path",
      batchName: "views_batch_name",
    },
    defaults: ({ batchName, output }) => {
      const made = batchName ?? uniqueName(baseName(output ?? "batch"));
      return { batchName: made, name: `batch-${made}` };
    },
    steps: batchSteps,
  });
}

/**
 * How a views batch job is followed once it exists: retrieved, cancelled,
 * and resolved to a {@linkcode BatchResult} on its views batch. Shared by
 * the builder and `ml.attach("batch", id)`.
 *
 * @example
 * ```ts
 * import { batchSteps } from "./batch.ts";
 * const client = {
 *   viewsBatchJobs: { get: () => Promise.resolve({}), cancel: () => Promise.resolve({}) },
 *   viewsBatches: { get: (id: string) => Promise.resolve({ id, rows_in: 2 }) },
 * };
 * const result = await batchSteps(client as never).resolve({ views_batch: { id: "vb_1" } } as never, {});
 * if (result.id !== "vb_1" || result.rowsIn !== 2) throw new Error();
 * ```
 */
export function batchSteps(
  client: BuilderClient,
): JobSteps<ViewsBatchJob, BatchResult> {
  const followed = followJob("viewsBatchJobs")(client);
  return {
    ...followed,
    resolve: async (job, o) =>
      new BatchResult(client, await followed.resolve(job, o)),
  };
}

/** Options of `deployment.batch()`. */
export interface DeploymentBatchOptions extends JobControl {
  /** The bucket holding the input (its storage connector is found, or made)... */
  bucket?: string;
  /** ...or the storage connector (or its id). */
  storage?: RefLike;
  /** The input inside the bucket: a `.csv` or `.csv.gz` file with a header row. */
  path: string;
  /** Where the output goes inside the same bucket; it appears only once complete. */
  output: string;
  /** Input columns carried through to the output (an id, ...). */
  keep?: readonly string[];
  /** `RESULTS` (default: predictions, probabilities and explanations) or `PREDICTIONS`. */
  views?: BatchViewType;
  /** `FAIL` (default) the job on a bad row, or `NULL_PREDICTION` with an error column. */
  onError?: BatchOnError;
  /** `CSV` (default) or `JSON_LINES`. */
  format?: BatchOutputFormat;
  /** A views batch configuration to use instead of `keep`, `views`, `onError`, `format`. */
  configuration?: RefLike;
  /** A PROCESSING compute configuration (default: the account's first, or a new one). */
  compute?: RefLike;
  /** Job name. */
  name?: string;
  /** Name of the views batch (default: the output's file name and a unique suffix). */
  batchName?: string;
}

/**
 * Scores `options.path` of a bucket with the deployed model `deployment`
 * into `options.output`: finds or makes the storage connector and a
 * PROCESSING compute, makes the views batch configuration (unless one is
 * given), and starts the job. The `Job` is returned at once; awaiting it
 * gives the {@linkcode BatchResult}.
 *
 * @example
 * ```ts
 * import { startBatch } from "./batch.ts";
 * let refused = "";
 * try {
 *   startBatch(undefined, "dm_1", { path: "in.csv", output: "out.csv" });
 * } catch (e) {
 *   refused = (e as Error).message;
 * }
 * if (!refused.includes("bucket")) throw new Error(refused);
 * ```
 */
export function startBatch(
  client: BuilderClient | undefined,
  deployment: RefLike,
  options: DeploymentBatchOptions,
): Job<ViewsBatchJob, BatchResult> {
  if (options.bucket === undefined && options.storage === undefined) {
    throw new TypeError(
      "batch() needs the bucket holding the input: pass { bucket: name } or { storage: connector }.",
    );
  }
  if (client === undefined) {
    throw new TypeError(
      "This deployment has no client: get it from ml.deploy(), ml.quickstart() or ml.deployment(id) to run batch().",
    );
  }
  // The platform's progress display (ml.progress), unless told otherwise.
  const progress = options.progress ??
    (client as { progress?: ProgressOption }).progress;
  // And its poll schedule (ml.poll; local() polls sooner), likewise.
  const poll = options.poll ?? (client as { poll?: PollOptions }).poll;
  const configurationBuilder = options.configuration === undefined
    ? new ViewsBatchConfigurationBuilder(client, {
      name: uniqueName(`batch-${baseName(options.output)}`),
      views: options.views ? [options.views] : undefined,
      keep: options.keep,
      onError: options.onError,
      format: options.format,
    })
    : undefined;
  const jobBuilder = (ids: {
    configuration: RefLike;
    storage: RefLike;
    compute: RefLike;
  }) =>
    new ViewsBatchJobBuilder(client, {
      name: options.name,
      deployment,
      ...ids,
      path: options.path,
      output: options.output,
      batchName: options.batchName,
      progress,
      poll,
    });
  /** The configuration this call made, deleted again if the job is refused. */
  let made: string | undefined;
  const prepare = async (): Promise<
    JobDefinition<ViewsBatchJob, BatchResult>
  > => {
    // Both bodies are checked before anything is made: a bad `path` was
    // refused ("nothing was sent") after a configuration had been stored.
    configurationBuilder?.body();
    jobBuilder({ configuration: "-", storage: "-", compute: "-" }).body();
    const storage = options.storage ??
      await storageFor(client, options.bucket!);
    const compute = options.compute ?? await processingCompute(client);
    let configuration = options.configuration;
    if (configuration === undefined && configurationBuilder) {
      configuration = await configurationBuilder.create();
      made = idOf(configuration);
    }
    return jobBuilder({
      configuration: idOf(configuration!),
      storage: idOf(storage),
      compute: idOf(compute),
    }).toDefinition();
  };
  let definition:
    | Promise<JobDefinition<ViewsBatchJob, BatchResult>>
    | undefined;
  const get = () => (definition ??= prepare());
  return new Job<ViewsBatchJob, BatchResult>({
    kind: "views batch job",
    progress,
    poll,
    start: async () => {
      try {
        return await (await get()).start();
      } catch (error) {
        // Refused (a path outside the bucket, no such file, ...): the
        // configuration made for this call goes too, or every refused call
        // would leave one behind. A job that was made after all keeps it
        // (the platform refuses the delete while a job depends on it).
        if (made !== undefined) {
          await client.viewsBatchConfigurations.delete(made).catch(() => {});
        }
        throw error;
      }
    },
    retrieve: async (id, o) => (await get()).retrieve(id, o),
    resolve: async (s, o) => (await get()).resolve(s, o),
    cancel: async (id, o) => {
      const made = await get();
      if (made.cancel === undefined) {
        throw new CancellationNotSupportedError("views batch job", id);
      }
      return made.cancel(id, o);
    },
  });
}

/** The account's storage connector of `bucket`, or a new one. */
async function storageFor(
  client: BuilderClient,
  bucket: string,
): Promise<{ id: string }> {
  for await (const sc of client.storageConnectors.iterate()) {
    if (sc.bucket_name === bucket) return sc;
  }
  return await client.storageConnectors.create({
    name: uniqueName(`bucket-${bucket}`),
    bucket_name: bucket,
  });
}

/** The account's first PROCESSING compute configuration, or a new one. */
async function processingCompute(
  client: BuilderClient,
): Promise<{ id: string }> {
  for await (const cc of client.computeConfigurations.iterate()) {
    if (cc.compute_type === "PROCESSING") return cc;
  }
  return await new ComputeBuilder(client, {
    name: uniqueName("processing"),
    computeType: "PROCESSING",
  }).create();
}

/** `scored/customers.csv.gz` -> `customers`. */
function baseName(path: unknown): string {
  // Not a string: the body's check names the option; no TypeError first.
  if (typeof path !== "string") return "batch";
  return path.split(/[\\/]/).pop()!.replace(/\..*$/, "") || "batch";
}
