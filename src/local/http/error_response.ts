/**
 * Turns any thrown value into the JSON answer docs/api.md#errors describes:
 * `HttpError`s keep their status and body; anything unexpected becomes a 500
 * with an `error_reference` that is also logged together with the stack, so
 * the operator can find the failure a user reports.
 *
 * @example
 * ```ts
 * import { errorResponse } from "./error_response.ts";
 * const logged: string[] = [];
 * const res = errorResponse(new Error("boom"), (m) => logged.push(m));
 * const body = await res.json();
 * if (res.status !== 500 || !logged[0].includes(body.error_reference)) throw new Error();
 * ```
 *
 * @module
 */
import { ERROR_CODES, type ServerErrorBody } from "../../schemas/mod.ts";
import { HttpError } from "../errors.ts";
import { newId } from "../ids.ts";

/** Marks a 500 chosen by fault injection (not logged as a failure). */
export class InjectedFault extends Error {
  /** Creates the error. */
  constructor() {
    super("Injected fault");
    this.name = "InjectedFault";
  }
}

/**
 * The Response for `error`. Unexpected errors are logged with their stack
 * and the reference the answer carries; their details are not sent.
 */
export function errorResponse(
  error: unknown,
  log: (message: string, error?: unknown) => void,
  context = "",
): Response {
  if (error instanceof HttpError) {
    return Response.json(error.body, {
      status: error.status,
      headers: error.headers,
    });
  }
  const reference = newId("err");
  const serverError = (message: string) =>
    Response.json(
      {
        message,
        error_code: ERROR_CODES.internal,
        error_reference: reference,
      } satisfies ServerErrorBody,
      { status: 500 },
    );
  if (error instanceof InjectedFault) {
    return serverError(
      `Injected server error (fault injection is on); retry the request. Reference ${reference}.`,
    );
  }
  log(
    `[${reference}] unexpected error${context ? ` in ${context}` : ""}`,
    error,
  );
  return serverError(
    `The local platform failed unexpectedly; the failure is logged under reference ${reference}. Retry, and report the reference if it persists.`,
  );
}
