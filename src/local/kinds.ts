/**
 * What the local platform knows about each resource family of the route
 * table: the noun used in messages, the id prefix, the SPEC.md
 * `dependant_type`, and which reference a job produces (a job never blocks
 * deleting what it produced: it is its history, not a user of it).
 *
 * @example
 * ```ts
 * import { KINDS } from "./kinds.ts";
 * if (KINDS.trainingJobs.produces !== "model") throw new Error();
 * ```
 *
 * @module
 */
import type { DependantType } from "../schemas/mod.ts";

/** Description of one resource family. */
export interface Kind {
  /** Singular noun for messages. */
  noun: string;
  /** Id prefix. */
  prefix: string;
  /** SPEC.md `dependant_type` of this kind. */
  type: DependantType;
  /** For jobs: the body key of the artifact the job creates. */
  produces?: string;
}

/** Every resource family, keyed like the route table's groups. */
export const KINDS = {
  storageConnectors: {
    noun: "storage connector",
    prefix: "sc",
    type: "STORAGE_CONNECTOR",
  },
  computeConfigurations: {
    noun: "compute configuration",
    prefix: "cc",
    type: "COMPUTE_CONFIGURATION",
  },
  dataSchemas: { noun: "data schema", prefix: "dsch", type: "DATA_SCHEMA" },
  ingestionConfigurations: {
    noun: "ingestion configuration",
    prefix: "ic",
    type: "DATA_PROCESSING_INGESTION_CONFIGURATION",
  },
  ingestionJobs: {
    noun: "ingestion job",
    prefix: "ij",
    type: "DATA_PROCESSING_INGESTION_JOB",
    produces: "datasource",
  },
  onboardingConfigurations: {
    noun: "onboarding configuration",
    prefix: "oc",
    type: "DATA_PROCESSING_ONBOARDING_CONFIGURATION",
  },
  onboardingJobs: {
    noun: "onboarding job",
    prefix: "oj",
    type: "DATA_PROCESSING_ONBOARDING_JOB",
    produces: "dataset",
  },
  workspaces: { noun: "workspace", prefix: "ws", type: "WORKSPACE" },
  trainingConfigurations: {
    noun: "training configuration",
    prefix: "tc",
    type: "TRAINING_CONFIGURATION",
  },
  trainingJobs: {
    noun: "training job",
    prefix: "tj",
    type: "TRAINING_JOB",
    produces: "model",
  },
  deploymentConfigurations: {
    noun: "deployment configuration",
    prefix: "dc",
    type: "DEPLOYMENT_CONFIGURATION",
  },
  deployedModels: {
    noun: "deployed model",
    prefix: "dm",
    type: "DEPLOYED_MODEL",
  },
  datasources: { noun: "datasource", prefix: "src", type: "DATASOURCE" },
  datasets: { noun: "dataset", prefix: "dset", type: "DATASET" },
  models: { noun: "model", prefix: "mdl", type: "MODEL" },
} as const satisfies Record<string, Kind>;

/** A resource family name (a route-table group other than auth and accounts). */
export type KindName = keyof typeof KINDS;

/** Job kinds, whose work runs in the background. */
export const JOB_KINDS = [
  "ingestionJobs",
  "onboardingJobs",
  "trainingJobs",
] as const;

/**
 * Whether a route-table group is a resource family served generically.
 *
 * @example
 * ```ts
 * import { isKind } from "./kinds.ts";
 * if (!isKind("models") || isKind("accounts")) throw new Error();
 * ```
 */
export function isKind(name: string): name is KindName {
  return Object.hasOwn(KINDS, name);
}
