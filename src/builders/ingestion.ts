// deno-doc-ignore-file private-type-ref missing-explicit-type missing-return-type -- protected builder internals are typed by the zod request schemas they validate with
/**
 * Ingestion: the configuration naming the data schema, and the job that
 * reads a file from a storage connector into a new datasource.
 *
 * @module
 */
import type { IngestionConfiguration } from "../schemas/ingestion.ts";
import {
  type DataProcessingJobOptions,
  ProducingJobBuilder,
} from "./job_builder.ts";
import { nameAfter, ResourceBuilder } from "./spec.ts";
import type { ColumnSet, RefLike, TypedBy, TypedRef } from "./types.ts";

/** Options of an ingestion configuration. */
export interface IngestionConfigurationOptions<
  C extends ColumnSet = ColumnSet,
> {
  /** Configuration name (unique in the account). */
  name: string;
  /** The data schema (or its id) the files follow. */
  schema: TypedRef<C>;
}

/**
 * Builds `POST /data-processing-ingestion-configurations`. Immutable; awaitable.
 *
 * @example
 * ```ts
 * import { IngestionConfigurationBuilder } from "./ingestion.ts";
 * const body = new IngestionConfigurationBuilder(undefined, { name: "churn-in", schema: { id: "sch_1" } }).body();
 * if (body.data_schema_id !== "sch_1") throw new Error(JSON.stringify(body));
 * ```
 */
export class IngestionConfigurationBuilder<C extends ColumnSet = ColumnSet>
  extends ResourceBuilder<
    "ingestionConfigurations",
    IngestionConfigurationOptions<C>,
    TypedBy<IngestionConfiguration, C>
  > {
  /** Its definition. */
  protected readonly spec = this.define({
    route: "ingestionConfigurations",
    wire: { schema: "data_schema_id" },
  });
}

/** Options of an ingestion job. */
export interface IngestionJobOptions<C extends ColumnSet = ColumnSet>
  extends DataProcessingJobOptions {
  /** The ingestion configuration (or its id). */
  configuration: TypedRef<C>;
  /** The storage connector holding the file. */
  storage: RefLike;
  /** Path of the file inside the bucket. */
  path: string;
  /** Name of the datasource to create. */
  datasourceName: string;
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
 * const body = b.body();
 * if (body.name !== "ingest-churn" || body.data_path !== "wa_churn.csv") throw new Error(JSON.stringify(body));
 * ```
 */
export class IngestionJobBuilder<C extends ColumnSet = ColumnSet>
  extends ProducingJobBuilder<"ingestionJobs", IngestionJobOptions<C>, C> {
  /** Its definition. */
  protected readonly spec = this.define({
    route: "ingestionJobs",
    wire: {
      configuration: "data_processing_configuration_id",
      storage: "storage_connector_id",
      path: "data_path",
    },
    defaults: nameAfter("ingest", "datasourceName"),
  });
}
