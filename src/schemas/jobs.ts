// deno-doc-ignore-file private-type-ref missing-explicit-type -- wire types are inferred from these zod schemas (one source of truth), so they name zod's own types
/**
 * What every asynchronous job shares: status, progress and stage.
 *
 * docs/api.md#states shows `STARTING` and `COMPLETED`; docs/contract.md#jobs-and-deployments adds `RUNNING` and
 * `FAILED`. Readers accept any other status and treat it as still running.
 *
 * @module
 */
import { z } from "zod";
import {
  IdSchema,
  NameSchema,
  type Open,
  openEnum,
  ownedFields,
  RefSchema,
  TimestampSchema,
} from "./common.ts";

/** Job statuses we know. */
export const JOB_STATUSES = [
  "STARTING",
  "RUNNING",
  "COMPLETED",
  "FAILED",
] as const;
/** A job's status (open: unknown values are kept). */
export type JobStatus = Open<typeof JOB_STATUSES[number]>;

/** Statuses that end a job unsuccessfully (docs/contract.md#jobs-and-deployments). */
export const FAILURE_STATUSES: readonly string[] = [
  "FAILED",
  "ERROR",
  "CANCELLED",
  "CANCELED",
];

/** Job types docs/api.md#states shows. */
export const JOB_TYPES = ["INITIAL"] as const;

/** Fields every job response carries: the owned fields, status, progress and stage. */
export const jobFields = {
  ...ownedFields,
  status: openEnum(JOB_STATUSES),
  progress: z.number().default(0),
  stage: z.string().nullish(),
  stage_progress: z.number().default(0),
  maximum_runtime_seconds: z.number().int().optional(),
  message: z.string().nullish(),
  updated_at: TimestampSchema.nullish(),
} as const;

/**
 * Fields every data processing job (ingestion, onboarding) carries in
 * responses besides its own: the owned and job fields, its type, name, and
 * the compute and processing configurations it runs with.
 */
export const processingJobFields = {
  ...jobFields,
  job_type: openEnum(JOB_TYPES),
  name: z.string(),
  compute_configuration: RefSchema,
  data_processing_configuration: RefSchema,
} as const;

/**
 * Fields every data processing job's create body starts with: its type
 * (`INITIAL` by default), name, and the ids of its compute and processing
 * configurations.
 */
export const processingJobCreateFields = {
  job_type: z.enum(JOB_TYPES).default("INITIAL"),
  name: NameSchema,
  compute_configuration_id: IdSchema,
  data_processing_configuration_id: IdSchema,
} as const;
