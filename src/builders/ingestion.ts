// deno-doc-ignore-file private-type-ref missing-explicit-type missing-return-type -- protected builder internals are typed by the zod request schemas they validate with
/**
 * Ingestion: the configuration naming the data schema, and the job that
 * reads a file from a storage connector into a new datasource.
 *
 * @module
 */
import type { z } from "zod";
import type { Datasource } from "../schemas/artifacts.ts";
import {
  type IngestionConfiguration,
  IngestionConfigurationCreateSchema,
  type IngestionJob,
  IngestionJobCreateSchema,
} from "../schemas/ingestion.ts";
import { type CreateOptions, OptionsBuilder } from "./base.ts";
import type { BuilderClient } from "./builder_client.ts";
import { JobBuilder, type JobControl, type JobSteps } from "./job_builder.ts";
import { idOf, type RefLike, type Typed } from "./types.ts";

/** Options of an ingestion configuration. */
export interface IngestionConfigurationOptions<
  F extends string = string,
  T extends string = string,
> {
  /** Configuration name (unique in the account). */
  name: string;
  /** The data schema (or its id) the files follow. */
  schema: Typed<{ id: string }, F, T> | string;
}

/**
 * Builds `POST /data-processing-ingestion-configurations`. Immutable; awaitable.
 *
 * @example
 * ```ts
 * import { IngestionConfigurationBuilder } from "./ingestion.ts";
 * new IngestionConfigurationBuilder(undefined, { name: "churn-in", schema: { id: "sch_1" } }).body();
 * // { name: "churn-in", data_schema_id: "sch_1" }
 * ```
 */
export class IngestionConfigurationBuilder<
  F extends string = string,
  T extends string = string,
> extends OptionsBuilder<
  IngestionConfigurationOptions<F, T>,
  typeof IngestionConfigurationCreateSchema,
  Typed<IngestionConfiguration, F, T>
> {
  /** What is built. */
  readonly what = "ingestion configuration";
  /** The body schema. */
  protected readonly schema = IngestionConfigurationCreateSchema;
  /** Wire -> option names. */
  protected override optionNames(): Record<string, string> {
    return { data_schema_id: "schema" };
  }
  /** The body as given. */
  protected raw(): Record<string, unknown> {
    return {
      name: this.options.name,
      data_schema_id: idOf(this.options.schema),
    };
  }
  /** Sends it. */
  protected send(
    body: z.output<typeof IngestionConfigurationCreateSchema>,
    options?: CreateOptions,
  ): Promise<Typed<IngestionConfiguration, F, T>> {
    return this.requireClient().ingestionConfigurations.create(body, options);
  }
}

/** Options of an ingestion job. */
export interface IngestionJobOptions<
  F extends string = string,
  T extends string = string,
> extends JobControl {
  /** Job name (default: `ingest-<datasourceName>`). */
  name?: string;
  /** The ingestion configuration (or its id). */
  configuration: Typed<{ id: string }, F, T> | string;
  /** The storage connector holding the file. */
  storage: RefLike;
  /** A processing compute configuration. */
  compute: RefLike;
  /** Path of the file inside the bucket. */
  path: string;
  /** Name of the datasource to create. */
  datasourceName: string;
  /** `INITIAL` (default). */
  jobType?: "INITIAL";
}

/**
 * Builds `POST /data-processing-ingestion-jobs`; `create()` returns a
 * `Job` that resolves to the datasource once the job is `COMPLETED`.
 *
 * @example
 * ```ts
 * import { IngestionJobBuilder } from "./ingestion.ts";
 * const b = new IngestionJobBuilder(undefined, {
 *   configuration: "ic_1", storage: "sc_1", compute: "cc_1",
 *   path: "wa_churn.csv", datasourceName: "churn",
 * });
 * b.body().name; // "ingest-churn"
 * ```
 */
export class IngestionJobBuilder<
  F extends string = string,
  T extends string = string,
> extends JobBuilder<
  IngestionJobOptions<F, T>,
  typeof IngestionJobCreateSchema,
  IngestionJob,
  Typed<Datasource, F, T>
> {
  /** What is built. */
  readonly what = "ingestion job";
  /** The body schema. */
  protected readonly schema = IngestionJobCreateSchema;
  /** Wire -> option names. */
  protected override optionNames(): Record<string, string> {
    return {
      compute_configuration_id: "compute",
      data_processing_configuration_id: "configuration",
      storage_connector_id: "storage",
      data_path: "path",
      datasource_name: "datasourceName",
      job_type: "jobType",
    };
  }
  /** The body as given. */
  protected raw(): Record<string, unknown> {
    const o = this.options;
    return {
      job_type: o.jobType,
      name: o.name ??
        (o.datasourceName ? `ingest-${o.datasourceName}` : undefined),
      compute_configuration_id: idOf(o.compute),
      data_processing_configuration_id: idOf(o.configuration),
      storage_connector_id: idOf(o.storage),
      data_path: o.path,
      datasource_name: o.datasourceName,
    };
  }
  /** Starts, retrieves and resolves an ingestion job. */
  protected definition(
    client: BuilderClient,
    body: z.output<typeof IngestionJobCreateSchema>,
    options?: CreateOptions,
  ) {
    return {
      ...ingestionSteps<F, T>(client),
      start: () => client.ingestionJobs.create(body, options),
    };
  }
}

/**
 * How an ingestion job is followed once it exists: retrieved, resolved to
 * its datasource, cancelled. Shared by the builder and `ml.attach`.
 */
export function ingestionSteps<F extends string, T extends string>(
  client: BuilderClient,
): JobSteps<IngestionJob, Typed<Datasource, F, T>> {
  return {
    kind: "ingestion job",
    retrieve: (id, o) => client.ingestionJobs.get(id, o),
    resolve: (job, o) =>
      client.datasources.get(job.datasource.id, o) as Promise<
        Typed<Datasource, F, T>
      >,
    cancel: (id, o) => client.ingestionJobs.cancel(id, o),
  };
}
