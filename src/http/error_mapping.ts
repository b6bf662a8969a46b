/**
 * Turns a failed HTTP answer into the matching error class, reading the body
 * shapes of docs/api.md#errors tolerantly and adding a hint about what to do.
 *
 * @module
 */
import { AnyErrorBodySchema, type FieldIssue } from "../schemas/errors.ts";
import {
  AuthenticationError,
  ConflictError,
  MLPlatformError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
  ValidationError,
} from "./errors.ts";

/**
 * Request identifier headers seen in the wild, in order of preference.
 * docs/api.md#errors keeps the identifier "for support" without naming the header.
 */
export const REQUEST_ID_HEADERS: readonly string[] = [
  "x-request-id",
  "request-id",
  "x-amzn-requestid",
  "x-amz-request-id",
  "x-correlation-id",
  "x-trace-id",
];

/**
 * The request identifier of a response, if one of the known headers is set.
 *
 * @example
 * ```ts
 * import { requestIdOf } from "./error_mapping.ts";
 * requestIdOf(new Headers({ "x-amzn-RequestId": "abc" })); // "abc"
 * ```
 */
export function requestIdOf(headers: Headers): string | undefined {
  for (const name of REQUEST_ID_HEADERS) {
    const value = headers.get(name);
    if (value) return value;
  }
  return undefined;
}

/** What {@linkcode errorFromResponse} needs to know about a failed answer. */
export interface FailedResponse {
  /** HTTP status. */
  status: number;
  /** Response headers. */
  headers: Headers;
  /** Parsed JSON body, or the text when it was not JSON. */
  body: unknown;
  /** `GET /models/{id}`-like description of the call, for the message. */
  operation: string;
  /** Milliseconds from Retry-After, when present. */
  retryAfter?: number;
  /**
   * The path names no resource by id (a list, a create, the token call):
   * a 404 then means the base URL (or the service) has no such endpoint,
   * not that an id is wrong.
   */
  endpoint?: boolean;
}

/**
 * The error for a non-success answer: the class follows the status, the
 * fields come from the body whatever its shape.
 *
 * @example
 * ```ts
 * import { errorFromResponse } from "./error_mapping.ts";
 * const e = errorFromResponse({
 *   status: 404,
 *   headers: new Headers({ "x-request-id": "r-9" }),
 *   body: { message: "Model not found", error_code: "NOT_FOUND" },
 *   operation: "GET /models/m_1",
 * });
 * e.name; // "NotFoundError"
 * e.requestId; // "r-9"
 * ```
 *
 * @example A 404 of an endpoint (no id in its path) is about the base URL
 * ```ts
 * import { errorFromResponse } from "./error_mapping.ts";
 * const e = errorFromResponse({
 *   status: 404,
 *   headers: new Headers(),
 *   body: { message: "No operation POST /v1/oauth/token", error_code: "NOT_FOUND" },
 *   operation: "POST /v1/oauth/token",
 *   endpoint: true,
 * });
 * if (!e.message.includes("check the base URL") || e.message.includes("Check the id")) throw new Error(e.message);
 * ```
 */
export function errorFromResponse(failed: FailedResponse): MLPlatformError {
  const parsed = AnyErrorBodySchema.safeParse(failed.body);
  const fields = parsed.success ? parsed.data : {};
  const { status, operation } = failed;
  const init = {
    status,
    errorCode: fields.error_code,
    requestId: requestIdOf(failed.headers),
    body: failed.body,
    message: `${operation} failed: ${
      fields.message ?? describeUnknownBody(failed.body)
    }`,
  };
  switch (status) {
    case 400:
    case 422:
      return new ValidationError({
        ...init,
        issues: fields.errors ?? [] satisfies FieldIssue[],
        hint: "Correct the listed fields and send the request again",
      });
    case 401:
      return new AuthenticationError({
        ...init,
        hint:
          "Check the client id and secret (MLP_CLIENT_ID, MLP_CLIENT_SECRET) and that they belong to this base URL",
      });
    case 403:
      return new PermissionDeniedError({
        ...init,
        hint:
          "These credentials may not use this resource: ask an account administrator for access, or use the right account or workspace",
      });
    case 404:
      return new NotFoundError({
        ...init,
        hint: failed.endpoint
          // No id to check: a base URL with a path the API does not have
          // (a version segment, a typo) makes every endpoint 404.
          ? "The service has no such endpoint: check the base URL (option baseUrl or MLP_BASE_URL), which is the API's root (its paths carry no version segment), or whether this service offers the operation"
          : "Check the id (list the collection to see what exists) and that it belongs to this account",
      });
    case 409:
      return new ConflictError({
        ...init,
        dependants: fields.dependants,
        hint: fields.dependants?.length
          ? `Delete or detach the dependants first: ${
            fields.dependants.map((d) => `${d.dependant_type} ${d.id}`).join(
              ", ",
            )
          }`
          : /^POST \S*\/cancel$/.test(operation) || /^DELETE /.test(operation)
          // A cancel of a job that has ended, or a delete of what is in
          // use (a running job): a state, no name taken.
          ? "The resource is not in a state that allows this (the message says which): wait for it, or start again"
          : "A resource with these values already exists: choose another name or reuse the existing one",
      });
    case 429:
      return new RateLimitError({
        ...init,
        retryAfter: failed.retryAfter,
        hint: failed.retryAfter !== undefined
          ? `Wait ${
            Math.ceil(failed.retryAfter / 1000)
          } s before retrying, or raise maxRetries`
          : "Slow down and retry later, or raise maxRetries",
      });
  }
  if (status >= 500) {
    return new ServerError({
      ...init,
      errorReference: fields.error_reference,
      hint:
        "The service failed; retry later and quote the error reference and request id to support if it persists",
    });
  }
  return new MLPlatformError({
    ...init,
    hint: "Unexpected status for this operation",
  });
}

function describeUnknownBody(body: unknown): string {
  if (typeof body === "string" && body.trim()) {
    return body.trim().slice(0, 200);
  }
  return "the service gave no explanation";
}
