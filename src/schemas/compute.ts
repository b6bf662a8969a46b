// deno-doc-ignore-file private-type-ref missing-explicit-type -- wire types are inferred from these zod schemas (one source of truth), so they name zod's own types
/**
 * Compute configurations: the machine a processing or training job runs on.
 *
 * @module
 */
import { z } from "zod";
import { configurationFields, NameSchema, openEnum } from "./common.ts";

/** Compute types docs/api.md#resources shows. */
export const COMPUTE_TYPES = ["PROCESSING", "TRAINING"] as const;
/** What a compute configuration is for. */
export type ComputeType = typeof COMPUTE_TYPES[number];

/** A compute configuration. */
export const ComputeConfigurationSchema = z.looseObject({
  ...configurationFields,
  machine_type: z.string(),
  compute_type: openEnum(COMPUTE_TYPES),
}).meta({ id: "ComputeConfiguration" });
/** A compute configuration. */
export type ComputeConfiguration = z.infer<typeof ComputeConfigurationSchema>;

/** Body of `POST /compute-configurations`. */
export const ComputeConfigurationCreateSchema = z.object({
  name: NameSchema,
  machine_type: z.string().trim().min(1, "machine_type is required"),
  compute_type: z.enum(COMPUTE_TYPES),
}).meta({ id: "ComputeConfigurationCreate" });
/** Body of `POST /compute-configurations`. */
export type ComputeConfigurationCreate = z.input<
  typeof ComputeConfigurationCreateSchema
>;
