// deno-doc-ignore-file private-type-ref missing-explicit-type -- wire types are inferred from these zod schemas (one source of truth), so they name zod's own types
/**
 * Deployments: configurations (how a model is served) and deployed models.
 *
 * @module
 */
import { z } from "zod";
import {
  configurationFields,
  IdSchema,
  NameSchema,
  openEnum,
  ownedFields,
  RefSchema,
  TimestampSchema,
} from "./common.ts";

/** Deployment types docs/api.md#resources shows. */
export const DEPLOYMENT_TYPES = ["SERVERLESS"] as const;
/** Deployed model statuses we know (docs/api.md#resources: `STARTING`, `RUNNING`). */
export const DEPLOYED_MODEL_STATUSES = [
  "STARTING",
  "RUNNING",
  "FAILED",
] as const;

/** A deployment configuration. */
export const DeploymentConfigurationSchema = z.looseObject({
  ...configurationFields,
  deployment_type: openEnum(DEPLOYMENT_TYPES),
  maximum_concurrency: z.number().int(),
  memory_size: z.number().int(),
}).meta({ id: "DeploymentConfiguration" });
/** A deployment configuration. */
export type DeploymentConfiguration = z.infer<
  typeof DeploymentConfigurationSchema
>;

/** Body of `POST /deployment-configurations`. */
export const DeploymentConfigurationCreateSchema = z.object({
  deployment_type: z.enum(DEPLOYMENT_TYPES).default("SERVERLESS"),
  /** Views requests served at once; more wait in a short queue, then get 429. */
  maximum_concurrency: z.int().min(1, "must be at least 1").max(1000).default(
    4,
  ),
  /** Memory in MB. */
  memory_size: z.int().min(128, "must be at least 128 (MB)").max(10240)
    .default(2048),
  name: NameSchema,
}).meta({ id: "DeploymentConfigurationCreate" });
/** Body of `POST /deployment-configurations`. */
export type DeploymentConfigurationCreate = z.input<
  typeof DeploymentConfigurationCreateSchema
>;

/** A deployed model. */
export const DeployedModelSchema = z.looseObject({
  ...ownedFields,
  name: z.string(),
  status: openEnum(DEPLOYED_MODEL_STATUSES),
  updated_at: TimestampSchema.nullish(),
  model: RefSchema,
  deployment_configuration: RefSchema,
  tags: z.array(z.looseObject({ name: z.string() })).default([]),
  message: z.string().nullish(),
}).meta({ id: "DeployedModel" });
/** A deployed model. */
export type DeployedModel = z.infer<typeof DeployedModelSchema>;

/** Body of `POST /deployed-models`. */
export const DeployedModelCreateSchema = z.object({
  name: NameSchema,
  model_id: IdSchema,
  deployment_configuration_id: IdSchema,
}).meta({ id: "DeployedModelCreate" });
/** Body of `POST /deployed-models`. */
export type DeployedModelCreate = z.input<typeof DeployedModelCreateSchema>;
