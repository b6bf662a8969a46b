/**
 * What a job snapshot is and how its status is read: ready for the next
 * step, failed, or still in progress. Unknown statuses count as in
 * progress (docs/api.md#conventions: the service may add values).
 *
 * @module
 */
import { FAILURE_STATUSES } from "../schemas/jobs.ts";

/**
 * The fields of a job (or deployed model) that polling reads. Every job
 * response of the route table has them; other fields are kept as they are.
 */
export interface JobSnapshot {
  /** The job's id. */
  id: string;
  /** The job's name. */
  name?: string | null;
  /** Its status, e.g. `STARTING`, `RUNNING`, `COMPLETED`, `FAILED`. */
  status: string;
  /** Overall progress from 0 to 1. */
  progress?: number;
  /** Name of the current stage (`initializing`, `reading`, `training`...). */
  stage?: string | null;
  /** Progress within the stage, 0 to 1. */
  stage_progress?: number;
  /** The service's cap on the job's run time. */
  maximum_runtime_seconds?: number;
  /** Why a job failed, when it did. */
  message?: string | null;
}

/** How a status reads for a waiter. */
export type JobState = "ready" | "failed" | "pending";

/**
 * Classifies a status: `ready` when it is one of `readyStatuses`, `failed`
 * for `FAILED`, `ERROR`, `CANCELLED` or `CANCELED`, else `pending`.
 *
 * @example
 * ```ts
 * import { classifyStatus } from "./status.ts";
 * classifyStatus("COMPLETED", ["COMPLETED"]); // "ready"
 * classifyStatus("RUNNING", ["RUNNING"]); // "ready" (a deployed model)
 * classifyStatus("CANCELLED", ["COMPLETED"]); // "failed"
 * classifyStatus("QUEUED", ["COMPLETED"]); // "pending": unknown keeps waiting
 * ```
 */
export function classifyStatus(
  status: string,
  readyStatuses: readonly string[],
): JobState {
  const upper = status.toUpperCase();
  if (readyStatuses.includes(upper)) return "ready";
  if (FAILURE_STATUSES.includes(upper)) return "failed";
  return "pending";
}
