/**
 * Errors that end a {@linkcode Job}: the job failed on the service
 * ({@linkcode JobFailedError}) or took longer than allowed
 * ({@linkcode JobTimeoutError}). Both carry the last snapshot seen, so a
 * caller can show the job's stage and progress or retrieve it again later.
 *
 * @module
 */
import { MLPlatformError, TimeoutError } from "../http/errors.ts";
import type { JobSnapshot } from "./status.ts";

/**
 * The job reached a failure status (`FAILED`, `ERROR`, `CANCELLED`,
 * `CANCELED`). `message` includes the service's own explanation.
 *
 * @example
 * ```ts
 * import { JobFailedError } from "./errors.ts";
 * const e = new JobFailedError("training job", {
 *   id: "tj_1", status: "FAILED", message: "target has one class",
 * });
 * e.snapshot.id; // "tj_1"
 * e.message.includes("target has one class"); // true
 * ```
 */
export class JobFailedError extends MLPlatformError {
  /** The job as last retrieved (its `status` is the failure status). */
  readonly snapshot: JobSnapshot;
  /** Builds the error from the failed snapshot. */
  constructor(kind: string, snapshot: JobSnapshot) {
    const cancelled = /^CANCEL+ED$/i.test(snapshot.status);
    super({
      message: cancelled
        ? `${kind} ${snapshot.id} was cancelled: ${
          snapshot.message || "the service gave no reason"
        }`
        : `${kind} ${snapshot.id} ended with status ${snapshot.status}: ${
          snapshot.message || "the service gave no reason"
        }`,
      errorCode: cancelled ? undefined : snapshot.status,
      body: snapshot,
      hint: cancelled
        ? (snapshot.message ? undefined : "Start a new job to run it again")
        : "Fix the cause named above (data, configuration or schema) and start a new job",
    });
    this.snapshot = snapshot;
  }
}

/**
 * The job was cancelled (status `CANCELLED` or `CANCELED`), by
 * `job.cancel()`, another client or the service. A {@linkcode JobFailedError},
 * so code that handles failures handles this too.
 *
 * @example
 * ```ts
 * import { JobCancelledError, JobFailedError } from "./errors.ts";
 * const e = new JobCancelledError("training job", {
 *   id: "tj_1", status: "CANCELLED", message: "cancelled by the user",
 * });
 * e instanceof JobFailedError; // true
 * e.snapshot.status; // "CANCELLED"
 * ```
 */
export class JobCancelledError extends JobFailedError {
  /** Builds the error from the cancelled snapshot. */
  constructor(kind: string, snapshot: JobSnapshot) {
    super(kind, snapshot);
  }
}

/**
 * The service has no cancel operation for this kind of job (it answered
 * 404 or 405 on the cancel path while the job itself exists), or the kind
 * cannot be cancelled at all (a deployed model is stopped by deleting it).
 *
 * @example
 * ```ts
 * import { CancellationNotSupportedError } from "./errors.ts";
 * const e = new CancellationNotSupportedError("training job", "tj_1", 405);
 * e.status; // 405
 * e.message.includes("does not support cancelling"); // true
 * ```
 */
export class CancellationNotSupportedError extends MLPlatformError {
  /** Builds the error for the job `id` of `kind`; `status` is what the cancel path answered. */
  constructor(kind: string, id: string, status?: number, hint?: string) {
    super({
      status,
      message: `this service does not support cancelling a ${kind} (${id})`,
      errorCode: "CANCEL_NOT_SUPPORTED",
      hint: hint ??
        "The job keeps running; wait for it, or stop waiting with wait({ signal })",
    });
  }
}

/**
 * The job did not reach the status the next step needs in time: after the
 * `timeout` given to `wait()`, or else after the job's
 * `maximum_runtime_seconds` plus a margin. The job itself may still be
 * running on the service; `snapshot` is the last state seen.
 *
 * @example
 * ```ts
 * import { JobTimeoutError } from "./errors.ts";
 * const e = new JobTimeoutError("ingestion job", { id: "ij_1", status: "RUNNING", progress: 0.4 }, 5000);
 * e.snapshot.progress; // 0.4
 * e.timeout; // 5000
 * ```
 */
export class JobTimeoutError extends TimeoutError {
  /** The job as last retrieved. */
  readonly snapshot: JobSnapshot;
  /** The time allowed, in milliseconds. */
  readonly timeout: number;
  /** Builds the error from the last snapshot and the time allowed (ms). */
  constructor(kind: string, snapshot: JobSnapshot, timeout: number) {
    const percent = typeof snapshot.progress === "number"
      ? `, ${Math.round(snapshot.progress * 100)}%`
      : "";
    super({
      message: `${kind} ${snapshot.id} was still ${snapshot.status}${percent}${
        snapshot.stage ? ` (${snapshot.stage})` : ""
      } after ${formatMs(timeout)}`,
      body: snapshot,
      hint:
        "It may still finish: wait again with a larger `timeout`, or retrieve the job later by its id",
    });
    this.snapshot = snapshot;
    this.timeout = timeout;
  }
}

function formatMs(ms: number): string {
  return ms >= 1000
    ? `${(ms / 1000).toFixed(ms % 1000 ? 1 : 0)} s`
    : `${ms} ms`;
}
