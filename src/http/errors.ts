/**
 * The error taxonomy of the SDK: one base class, {@linkcode MLPlatformError},
 * and a subclass per failure a caller may want to handle differently
 * (docs/api.md#errors, plus the transport's own: connection, timeout,
 * configuration and unreadable responses).
 *
 * Every error carries what support needs (`status`, `errorCode`,
 * `requestId`, the parsed `body`) and a message that says what to do next.
 * Secrets never reach these messages: the transport builds them from the
 * response only.
 *
 * @example Handle one failure, let the others through
 * ```ts
 * import { NotFoundError, MLPlatformError } from "./errors.ts";
 * const error = new NotFoundError({ status: 404, message: "no such model", errorCode: "NOT_FOUND" });
 * if (error instanceof NotFoundError && error instanceof MLPlatformError) {
 *   console.log(error.status, error.errorCode); // 404 "NOT_FOUND"
 * }
 * ```
 *
 * @module
 */
import type { Dependant, FieldIssue } from "../schemas/errors.ts";
import { JUPYTER_DISPLAY, type MimeBundle, renderAs } from "../display.ts";

/** What every error of the SDK may carry. */
export interface MLPlatformErrorInit {
  /** HTTP status, when a response was received. */
  status?: number;
  /** The explanation (the service's `message` when it sent one). */
  message: string;
  /** The service's machine-readable `error_code`. */
  errorCode?: string;
  /** The request identifier header of the response, for support. */
  requestId?: string;
  /** The parsed response body (JSON), or its text when it was not JSON. */
  body?: unknown;
  /** Hint appended to the message: what to do next. */
  hint?: string;
  /** The underlying error, if any. */
  cause?: unknown;
}

/**
 * Base class of every error the SDK throws (besides the caller's own abort
 * reason, which passes through unchanged).
 *
 * @example
 * ```ts
 * import { MLPlatformError } from "./errors.ts";
 * const e = new MLPlatformError({ status: 418, message: "teapot", requestId: "r-1" });
 * e.message; // "teapot (HTTP 418, request id r-1)"
 * ```
 */
export class MLPlatformError extends Error {
  /** HTTP status, when a response was received. */
  readonly status?: number;
  /** The service's machine-readable `error_code`. */
  readonly errorCode?: string;
  /** The request identifier header of the response, for support. */
  readonly requestId?: string;
  /** The parsed response body. */
  readonly body?: unknown;

  /** Builds the error; the message gets the status, code, request id and hint appended. */
  constructor(init: MLPlatformErrorInit) {
    super(composeMessage(init), { cause: init.cause });
    this.name = new.target.name;
    this.status = init.status;
    this.errorCode = init.errorCode;
    this.requestId = init.requestId;
    this.body = init.body;
  }

  /**
   * How Deno's Jupyter kernel renders the error when it is a cell's value: a
   * red card with the class, message, status, `error_code` and request id.
   * A prototype method, so no instance carries an extra property.
   *
   * @example
   * ```ts
   * import { NotFoundError } from "./errors.ts";
   * const error = new NotFoundError({ status: 404, message: "No model m_9", errorCode: "NOT_FOUND" });
   * error[Symbol.for("Jupyter.display") as never] !== undefined; // true
   * ```
   */
  [JUPYTER_DISPLAY](): MimeBundle {
    return renderAs("error", this);
  }
}

function composeMessage(init: MLPlatformErrorInit): string {
  const facts = [
    init.status !== undefined ? `HTTP ${init.status}` : undefined,
    init.errorCode,
    init.requestId ? `request id ${init.requestId}` : undefined,
  ].filter(Boolean);
  let text = init.message;
  if (facts.length) text += ` (${facts.join(", ")})`;
  // Services (ours included) often give the same advice; say it once.
  if (init.hint && !init.message.includes(init.hint.slice(0, 24))) {
    text += `. ${init.hint}`;
  }
  return text;
}

/**
 * 401: the credentials or the token were refused.
 *
 * @example
 * ```ts
 * import { AuthenticationError } from "./errors.ts";
 * new AuthenticationError({ status: 401, message: "Unauthorized" }).status; // 401
 * ```
 */
export class AuthenticationError extends MLPlatformError {}

/**
 * 403: authenticated, but not allowed to use this resource.
 *
 * @example
 * ```ts
 * import { PermissionDeniedError } from "./errors.ts";
 * new PermissionDeniedError({ status: 403, message: "Forbidden" }).status; // 403
 * ```
 */
export class PermissionDeniedError extends MLPlatformError {}

/**
 * 404: the resource does not exist (or is not visible to this account).
 *
 * @example
 * ```ts
 * import { NotFoundError } from "./errors.ts";
 * new NotFoundError({ status: 404, message: "Not found" }).status; // 404
 * ```
 */
export class NotFoundError extends MLPlatformError {}

/**
 * 409: a duplicate, or a delete blocked by the resources that depend on it
 * (`dependants`, empty for a plain conflict).
 *
 * @example
 * ```ts
 * import { ConflictError } from "./errors.ts";
 * const e = new ConflictError({
 *   status: 409,
 *   message: "in use",
 *   dependants: [{ id: "job_1", dependant_type: "DATA_PROCESSING_ONBOARDING_JOB" }],
 * });
 * e.dependants.length; // 1
 * ```
 */
export class ConflictError extends MLPlatformError {
  /** The resources blocking the operation (integrity body), else empty. */
  readonly dependants: Dependant[];
  /** Builds the error with its dependants. */
  constructor(init: MLPlatformErrorInit & { dependants?: Dependant[] }) {
    super(init);
    this.dependants = init.dependants ?? [];
  }
}

/**
 * 400 or 422 from the service, or a request body refused before sending
 * (then `status` is undefined and no request was made). `issues` names each
 * invalid field by its dotted path.
 *
 * @example
 * ```ts
 * import { ValidationError } from "./errors.ts";
 * const e = new ValidationError({
 *   message: "Invalid request body",
 *   issues: [{ path: "name", message: "must not be empty" }],
 * });
 * e.issues[0].path; // "name"
 * ```
 */
export class ValidationError extends MLPlatformError {
  /** Every invalid field: dotted path and what is wrong. */
  readonly issues: FieldIssue[];
  /** Builds the error; the issues are listed in the message. */
  constructor(init: MLPlatformErrorInit & { issues?: FieldIssue[] }) {
    const issues = init.issues ?? [];
    // A service message often lists the issues already; don't say them twice.
    const listed = issues
      .filter((i) => !init.message.includes(i.message))
      .map((i) => `${i.path || "(body)"}: ${i.message}`)
      .join("; ");
    super({
      ...init,
      message: listed ? `${init.message}: ${listed}` : init.message,
    });
    this.issues = issues;
  }
}

/**
 * 429: too many requests. `retryAfter` is the wait the service asked for, in
 * milliseconds, when it said.
 *
 * @example
 * ```ts
 * import { RateLimitError } from "./errors.ts";
 * new RateLimitError({ status: 429, message: "slow down", retryAfter: 2000 }).retryAfter; // 2000
 * ```
 */
export class RateLimitError extends MLPlatformError {
  /** Milliseconds the service asked to wait, if it said. */
  readonly retryAfter?: number;
  /** Builds the error. */
  constructor(init: MLPlatformErrorInit & { retryAfter?: number }) {
    super(init);
    this.retryAfter = init.retryAfter;
  }
}

/**
 * 5xx: the service failed. Quote `errorReference` to support.
 *
 * @example
 * ```ts
 * import { ServerError } from "./errors.ts";
 * new ServerError({ status: 500, message: "boom", errorReference: "ref-42" }).errorReference; // "ref-42"
 * ```
 */
export class ServerError extends MLPlatformError {
  /** The service's unique reference to this failure (`error_reference`). */
  readonly errorReference?: string;
  /** Builds the error; the reference is shown in the message. */
  constructor(init: MLPlatformErrorInit & { errorReference?: string }) {
    super({
      ...init,
      message: init.errorReference
        ? `${init.message} [error reference ${init.errorReference}]`
        : init.message,
    });
    this.errorReference = init.errorReference;
  }
}

/**
 * The service could not be reached, or the connection broke before a full
 * answer arrived.
 *
 * @example
 * ```ts
 * import { ConnectionError } from "./errors.ts";
 * new ConnectionError({ message: "Could not reach http://x" }) instanceof Error; // true
 * ```
 */
export class ConnectionError extends MLPlatformError {}

/**
 * No answer within the configured timeout.
 *
 * @example
 * ```ts
 * import { TimeoutError } from "./errors.ts";
 * new TimeoutError({ message: "GET /accounts timed out after 10 ms" }).name; // "TimeoutError"
 * ```
 */
export class TimeoutError extends MLPlatformError {}

/**
 * The client is set up wrongly (missing base URL or credentials, a secret in
 * a browser): nothing was sent.
 *
 * @example
 * ```ts
 * import { ConfigurationError } from "./errors.ts";
 * new ConfigurationError({ message: "No base URL" }).name; // "ConfigurationError"
 * ```
 */
export class ConfigurationError extends MLPlatformError {}

/**
 * A success answer whose body does not match the expected shape (for
 * example a proxy's HTML page): the SDK refuses to guess.
 *
 * @example
 * ```ts
 * import { InvalidResponseError } from "./errors.ts";
 * new InvalidResponseError({ status: 200, message: "not JSON" }).status; // 200
 * ```
 */
export class InvalidResponseError extends MLPlatformError {}
