// deno-doc-ignore-file private-type-ref missing-explicit-type -- wire types are inferred from these zod schemas (one source of truth), so they name zod's own types
/**
 * Ingestion: a configuration naming the data schema, and jobs that read a
 * file from a storage connector into a new datasource.
 *
 * @module
 */
import { z } from "zod";
import {
  configurationFields,
  IdSchema,
  NameSchema,
  RefSchema,
} from "./common.ts";
import { processingJobCreateFields, processingJobFields } from "./jobs.ts";

/** How the ingested observations are laid out (all strings in docs/api.md#resources). */
export const ObservationSpecificationSchema = z.looseObject({
  observation_type: z.string(),
  observation_source: z.string(),
  observation_shard_id: z.string(),
  observation_file_index: z.string(),
  observation_index: z.string(),
  observation_mask_index: z.string(),
  observation_mask_file_index: z.string(),
  observation_increment_index: z.string(),
}).partial().meta({ id: "ObservationSpecification" });

/** A data processing ingestion configuration. */
export const IngestionConfigurationSchema = z.looseObject({
  ...configurationFields,
  data_schema: RefSchema,
  observation_specification: ObservationSpecificationSchema.optional(),
}).meta({ id: "IngestionConfiguration" });
/** A data processing ingestion configuration. */
export type IngestionConfiguration = z.infer<
  typeof IngestionConfigurationSchema
>;

/** Body of `POST /data-processing-ingestion-configurations`. */
export const IngestionConfigurationCreateSchema = z.object({
  name: NameSchema,
  data_schema_id: IdSchema,
}).meta({ id: "IngestionConfigurationCreate" });
/** Body of `POST /data-processing-ingestion-configurations`. */
export type IngestionConfigurationCreate = z.input<
  typeof IngestionConfigurationCreateSchema
>;

/** A data processing ingestion job. */
export const IngestionJobSchema = z.looseObject({
  ...processingJobFields,
  storage_connector: RefSchema,
  datasource: RefSchema,
  data_path: z.string(),
}).meta({ id: "IngestionJob" });
/** A data processing ingestion job. */
export type IngestionJob = z.infer<typeof IngestionJobSchema>;

/** Body of `POST /data-processing-ingestion-jobs`. */
export const IngestionJobCreateSchema = z.object({
  ...processingJobCreateFields,
  storage_connector_id: IdSchema,
  data_path: z.string().trim().min(1, "data_path is required"),
  datasource_name: NameSchema,
}).meta({ id: "IngestionJobCreate" });
/** Body of `POST /data-processing-ingestion-jobs`. */
export type IngestionJobCreate = z.input<typeof IngestionJobCreateSchema>;
