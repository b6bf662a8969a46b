/**
 * Attach: the same {@linkcode Job} for a job (or deployed model) that
 * already exists, from its kind and id alone, in this process or any other
 * (after a kernel restart, from a script that started it, over `connect()`
 * or `local()`). Awaiting it waits and gives the typed result, `watch()`
 * yields its snapshots, `cancel()` stops it; its progress display is the
 * usual one.
 *
 * @module
 */
import type { Dataset, Datasource, Model } from "../schemas/artifacts.ts";
import type { DeployedModel } from "../schemas/deployments.ts";
import type { IngestionJob } from "../schemas/ingestion.ts";
import type { OnboardingJob } from "../schemas/onboarding.ts";
import type { TrainingJob } from "../schemas/training.ts";
import type { ViewsBatchJob } from "../schemas/batch.ts";
import { batchSteps } from "./batch.ts";
import type { BatchResult } from "./batch_result.ts";
import { Job, type JobRef } from "../jobs/job.ts";
import type { BuilderClient } from "./builder_client.ts";
import { type Deployment, deploymentSteps } from "./deployment.ts";
import { followJob, type JobControl, type JobSteps } from "./job_builder.ts";
import type { Typed } from "./types.ts";

/** The kinds `attach` knows, by their short name. */
export type AttachKind =
  | "ingestion"
  | "onboarding"
  | "training"
  | "deployment"
  | "batch";

/** A kind as `attach` takes it: the short name or the Job's own `kind` (`job.kind`). */
export type AttachKindName =
  | AttachKind
  | "ingestion job"
  | "onboarding job"
  | "training job"
  | "deployed model"
  | "views batch job";

/** The Job `attach` gives for each kind. */
export interface AttachedJobs<F extends string, T extends string> {
  /** An ingestion job, resolving to its datasource. */
  ingestion: Job<IngestionJob, Typed<Datasource, F, T>>;
  /** An onboarding job, resolving to its dataset. */
  onboarding: Job<OnboardingJob, Typed<Dataset, F, T>>;
  /** A training job, resolving to its model. */
  training: Job<TrainingJob, Typed<Model, F, T>>;
  /** A deployed model, resolving to a `Deployment` once `RUNNING`. */
  deployment: Job<DeployedModel, Deployment<F, T>>;
  /** A views batch job, resolving to its `BatchResult`. */
  batch: Job<ViewsBatchJob, BatchResult>;
}

/** The short name of a kind name. */
export type CanonicalKind<K extends AttachKindName> = K extends
  "ingestion" | "ingestion job" ? "ingestion"
  : K extends "onboarding" | "onboarding job" ? "onboarding"
  : K extends "training" | "training job" ? "training"
  : K extends "batch" | "views batch job" ? "batch"
  : "deployment";

const CANONICAL: Record<AttachKindName, AttachKind> = {
  ingestion: "ingestion",
  "ingestion job": "ingestion",
  onboarding: "onboarding",
  "onboarding job": "onboarding",
  training: "training",
  "training job": "training",
  deployment: "deployment",
  "deployed model": "deployment",
  batch: "batch",
  "views batch job": "batch",
};

/**
 * A {@linkcode Job} on the existing job `id` of `kind` (or on `ref`, what
 * `job.ref()` gave). Nothing is created: the job is retrieved (a
 * `NotFoundError` when there is no such job) and then followed like one
 * this process started.
 *
 * @example
 * ```ts
 * import { attachJob } from "./attach.ts";
 * import { Client } from "../client.ts";
 * const client = new Client({
 *   baseUrl: "https://mlp.invalid", clientId: "id", clientSecret: "s",
 *   fetch: (req) => {
 *     const path = new URL((req as Request).url).pathname;
 *     return Promise.resolve(Response.json(
 *       path === "/oauth/token" ? { access_token: "t", token_type: "Bearer", expires_in: 3600 }
 *       : path.startsWith("/training-jobs/") ? {
 *         id: "tj_1", name: "t", status: "COMPLETED", progress: 1, stage_progress: 1,
 *         account: { id: "a" }, created_at: "2025-01-01T00:00:00Z", created_by: { id: "u" },
 *         dataset: { id: "d" }, workspace: { id: "w" }, training_configuration: { id: "tc" },
 *         compute_configuration: { id: "cc" }, model: { id: "m_1" },
 *       }
 *       : { id: "m_1", name: "churn", account: { id: "a" }, created_at: "2025-01-01T00:00:00Z", created_by: { id: "u" } },
 *     ));
 *   },
 * });
 * const job = attachJob(client, "training", "tj_1", { progress: false });
 * const model = await job;
 * if (model.id !== "m_1") throw new Error("unexpected");
 * ```
 */
export function attachJob<
  K extends AttachKindName,
  F extends string = string,
  T extends string = string,
>(
  client: BuilderClient,
  kind: K,
  id: string,
  control?: JobControl,
): AttachedJobs<F, T>[CanonicalKind<K>];
/** A {@linkcode Job} on the job `ref` names (what `job.ref()` gave, e.g. read back from JSON). */
export function attachJob(
  client: BuilderClient,
  ref: JobRef,
  control?: JobControl,
): AttachedJobs<string, string>[AttachKind];
export function attachJob(
  client: BuilderClient,
  kindOrRef: string | JobRef,
  idOrControl?: string | JobControl,
  control: JobControl = {},
): AttachedJobs<string, string>[AttachKind] {
  const ref = typeof kindOrRef === "string"
    ? { kind: kindOrRef, id: idOrControl as string }
    : kindOrRef;
  if (typeof kindOrRef !== "string" && typeof idOrControl === "object") {
    control = idOrControl;
  }
  const kind = CANONICAL[ref.kind as AttachKindName];
  if (kind === undefined || !Object.hasOwn(CANONICAL, ref.kind)) {
    throw new TypeError(
      `Cannot attach to a "${ref.kind}": the kinds are ${
        Object.keys(CANONICAL).map((k) => `"${k}"`).join(", ")
      }.`,
    );
  }
  if (typeof ref.id !== "string" || ref.id === "") {
    throw new TypeError(
      `attach needs the ${kind} job's id (got ${JSON.stringify(ref.id)}).`,
    );
  }
  const steps = STEPS[kind](client) as JobSteps<
    { id: string; status: string },
    unknown
  >;
  return new Job({
    ...steps,
    // Nothing to create: the job's current state stands for its "created" one.
    start: () => steps.retrieve(ref.id, {}),
    progress: control.progress,
    poll: control.poll,
  }) as AttachedJobs<string, string>[AttachKind];
}

const STEPS = {
  ingestion: followJob("ingestionJobs"),
  onboarding: followJob("onboardingJobs"),
  training: followJob("trainingJobs"),
  deployment: deploymentSteps,
  batch: batchSteps,
} as const;
