/**
 * The local platform's error answers: one `HttpError` class carrying a status
 * and a body built from the shared error schemas (docs/api.md#errors and
 * the validation body of docs/contract.md#errors), and helpers for each case.
 *
 * @example
 * ```ts
 * import { notFound } from "./errors.ts";
 * const e = notFound("workspace", "ws_1");
 * if (e.status !== 404 || e.body.error_code !== "NOT_FOUND") throw new Error();
 * ```
 *
 * @module
 */
import type { z } from "zod";
import {
  type AnyErrorBody,
  type Dependant,
  ERROR_CODES,
  type FieldIssue,
} from "../schemas/mod.ts";
import { fieldIssues } from "../schemas/errors.ts";

/** An error the app answers with `status` and the JSON `body`. */
export class HttpError extends Error {
  /** HTTP status of the answer. */
  readonly status: number;
  /** JSON body of the answer (`message` and `error_code` at least). */
  readonly body: AnyErrorBody;
  /** Extra response headers (for example `Retry-After`). */
  readonly headers: Record<string, string>;

  /**
   * Creates the error; `body.message` becomes the error message.
   *
   * @example
   * ```ts
   * import { HttpError } from "./errors.ts";
   * const e = new HttpError(418, { message: "short and stout", error_code: "TEAPOT" });
   * if (e.message !== "short and stout") throw new Error();
   * ```
   */
  constructor(
    status: number,
    body: AnyErrorBody & { message: string },
    headers: Record<string, string> = {},
  ) {
    super(body.message);
    this.name = "HttpError";
    this.status = status;
    this.body = body;
    this.headers = headers;
  }
}

/**
 * 400 with the validation body of docs/contract.md#errors, naming each offending field.
 *
 * @example
 * ```ts
 * import { validationError } from "./errors.ts";
 * const e = validationError([{ path: "name", message: "must not be empty" }]);
 * if (e.status !== 400 || !e.message.includes("name")) throw new Error(e.message);
 * ```
 */
export function validationError(
  issues: FieldIssue[],
  message?: string,
): HttpError {
  const summary = issues.map((i) =>
    `${i.path || "(body)"}: ${i.message.replace(/[.\s]+$/, "")}`
  ).join("; ");
  return new HttpError(400, {
    message: message ?? `The request is invalid: ${summary}. Fix it and retry.`,
    error_code: ERROR_CODES.validation,
    errors: issues,
  });
}

/**
 * 400 for one field: shorthand of {@linkcode validationError}.
 *
 * @example
 * ```ts
 * import { invalidField } from "./errors.ts";
 * if (invalidField("query.age", "unknown feature").body.errors === undefined) throw new Error();
 * ```
 */
export function invalidField(path: string, message: string): HttpError {
  return validationError([{ path, message }]);
}

/**
 * Turns a zod error into a 400 whose issues carry dotted paths
 * (`fields.0.data_type.data_type`), prefixed with `prefix` when given.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * import { fromZodError } from "./errors.ts";
 * const r = z.object({ n: z.number() }).safeParse({ n: "1" });
 * if (r.success || fromZodError(r.error).body.errors?.toString() === "") throw new Error();
 * ```
 */
export function fromZodError(error: z.ZodError, prefix = ""): HttpError {
  return validationError(fieldIssues(error.issues, prefix));
}

/**
 * 401 (docs/api.md#errors: body `{ message }`).
 *
 * @example
 * ```ts
 * import { unauthorized } from "./errors.ts";
 * if (unauthorized("no token").status !== 401) throw new Error();
 * ```
 */
export function unauthorized(message: string): HttpError {
  return new HttpError(401, { message, error_code: ERROR_CODES.unauthorized }, {
    "WWW-Authenticate": 'Bearer realm="mlplatform"',
  });
}

/**
 * 403 with `{ message, error_code }`.
 *
 * @example
 * ```ts
 * import { forbidden } from "./errors.ts";
 * if (forbidden("no").body.error_code !== "FORBIDDEN") throw new Error();
 * ```
 */
export function forbidden(message: string): HttpError {
  return new HttpError(403, { message, error_code: ERROR_CODES.forbidden });
}

/**
 * 404 naming what was looked for.
 *
 * @example
 * ```ts
 * import { notFound } from "./errors.ts";
 * if (!notFound("model", "m_1").message.includes("m_1")) throw new Error();
 * ```
 */
export function notFound(noun: string, id: string): HttpError {
  return new HttpError(404, {
    message:
      `No ${noun} with id "${id}" in this account. Check the id (list the collection to see what exists).`,
    error_code: ERROR_CODES.notFound,
  });
}

/**
 * 409 conflict body (`{ message, error_code }`), for duplicates and wrong states.
 *
 * @example
 * ```ts
 * import { conflict } from "./errors.ts";
 * if (conflict("taken").status !== 409) throw new Error();
 * ```
 */
export function conflict(message: string): HttpError {
  return new HttpError(409, { message, error_code: ERROR_CODES.conflict });
}

/**
 * 409 integrity body listing the resources that block a delete.
 *
 * @example
 * ```ts
 * import { integrityError } from "./errors.ts";
 * const e = integrityError("data schema", "sch_1", [
 *   { id: "ic_1", name: "ingest", dependant_type: "DATA_PROCESSING_INGESTION_CONFIGURATION" },
 * ]);
 * if (!("dependants" in e.body) || e.body.dependants?.length !== 1) throw new Error();
 * ```
 */
export function integrityError(
  noun: string,
  id: string,
  dependants: Dependant[],
): HttpError {
  const list = dependants.map((d) => `${d.dependant_type} ${d.id}`).join(", ");
  return new HttpError(409, {
    message:
      `The ${noun} "${id}" is still used by ${dependants.length} resource(s) (${list}); delete those first.`,
    error_code: ERROR_CODES.integrity,
    dependants,
  });
}

/**
 * 429 with `Retry-After` (seconds).
 *
 * @example
 * ```ts
 * import { rateLimited } from "./errors.ts";
 * if (rateLimited("busy", 2).headers["Retry-After"] !== "2") throw new Error();
 * ```
 */
export function rateLimited(
  message: string,
  retryAfterSeconds: number,
): HttpError {
  return new HttpError(429, { message, error_code: ERROR_CODES.rateLimited }, {
    "Retry-After": String(retryAfterSeconds),
  });
}

/** `error_code` of a 413: the request body is larger than the platform accepts. */
export const PAYLOAD_TOO_LARGE = "PAYLOAD_TOO_LARGE";
/** `error_code` of a 415: the request body is not of the media type the operation takes. */
export const UNSUPPORTED_MEDIA_TYPE = "UNSUPPORTED_MEDIA_TYPE";

/**
 * 413: the body is larger than `limit` bytes.
 *
 * @example
 * ```ts
 * import { payloadTooLarge } from "./errors.ts";
 * const e = payloadTooLarge(1024);
 * if (e.status !== 413 || !e.message.includes("1024")) throw new Error();
 * ```
 */
export function payloadTooLarge(limit: number): HttpError {
  return new HttpError(413, {
    message:
      `The request body is larger than this platform accepts (${limit} bytes, limits.maxBodyBytes); send less per request (views: fewer rows per chunk), or raise the limit in the platform's options.`,
    error_code: PAYLOAD_TOO_LARGE,
  });
}

/**
 * A 415 for a request body sent with a `Content-Encoding` (gzip, br,
 * deflate): the platform reads bodies uncompressed.
 *
 * @example
 * ```ts
 * import { unsupportedContentEncoding } from "./errors.ts";
 * const e = unsupportedContentEncoding("gzip");
 * if (!(e.status === 415 && String(e.body.message).includes("uncompressed"))) throw new Error("example failed");
 * ```
 */
export function unsupportedContentEncoding(got: string): HttpError {
  return new HttpError(415, {
    message:
      `This platform reads request bodies uncompressed, but the request's Content-Encoding is "${
        got.slice(0, 100)
      }"; send the body as it is, without a Content-Encoding header.`,
    error_code: UNSUPPORTED_MEDIA_TYPE,
  });
}

/**
 * 415: a body was sent with another (or no) `Content-Type` than the
 * operation takes: JSON (`takes` `"json"`, every operation with a body), or
 * a form-encoded body (`"form"`, the token call, which takes JSON too).
 *
 * @example
 * ```ts
 * import { unsupportedMediaType } from "./errors.ts";
 * if (unsupportedMediaType("text/plain").status !== 415) throw new Error();
 * const form = unsupportedMediaType("application/xml", "form");
 * if (!form.message.includes("application/x-www-form-urlencoded")) throw new Error(form.message);
 * ```
 */
export function unsupportedMediaType(
  got: string | null,
  takes: "json" | "form" = "json",
): HttpError {
  const given = got ? `"${got.slice(0, 100)}"` : "missing";
  return new HttpError(415, {
    message: takes === "form"
      ? `This operation takes a form-encoded body, but the request's Content-Type is ${given}; send the body form-encoded with Content-Type: application/x-www-form-urlencoded (or as JSON with Content-Type: application/json).`
      : `This operation takes a JSON body, but the request's Content-Type is ${given}; send the body as JSON with Content-Type: application/json.`,
    error_code: UNSUPPORTED_MEDIA_TYPE,
  });
}
