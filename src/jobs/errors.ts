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
    super({
      message: `${kind} ${snapshot.id} ended with status ${snapshot.status}: ${
        snapshot.message || "the service gave no reason"
      }`,
      errorCode: snapshot.status,
      body: snapshot,
      hint:
        "Fix the cause named above (data, configuration or schema) and start a new job",
    });
    this.snapshot = snapshot;
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
