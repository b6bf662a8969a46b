/**
 * Parsing both ends of a call with the route table's schemas: a request part
 * before anything is sent ({@linkcode parseRequest}: a `ValidationError`
 * naming each field) and an answer ({@linkcode parseWith}: an
 * `InvalidResponseError` saying where it differs), each taking the compiled
 * check's fast path when the value is already what zod would return.
 *
 * @module
 */
import type { z } from "zod";
import { fieldIssues, issuePath } from "../schemas/errors.ts";
import { InvalidResponseError, ValidationError } from "./errors.ts";
import type { Received } from "./exchange.ts";
import { responseCheck } from "./response_check.ts";

/**
 * Parses a request part with its schema (defaults applied), or throws a
 * `ValidationError` naming each invalid field by its dotted path: nothing is
 * sent. `what` completes the message "Invalid {what}, nothing was sent".
 *
 * @example
 * ```ts
 * import { parseRequest } from "./parse.ts";
 * import { ListQuerySchema } from "../schemas/common.ts";
 * parseRequest(ListQuerySchema, { page: 2 }, "list parameters"); // { page: 2, items_per_page: 10 }
 * ```
 */
export function parseRequest<S extends z.ZodType>(
  schema: S,
  value: unknown,
  what: string,
): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new ValidationError({
    message: `Invalid ${what}, nothing was sent`,
    issues: fieldIssues(parsed.error.issues),
  });
}

/**
 * The answer's body as `schema`'s output, or an `InvalidResponseError`
 * naming up to three fields that differ; `operation` (e.g. `GET /models`)
 * opens the message.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * import { parseWith } from "./parse.ts";
 * const answer = { status: 200, headers: new Headers(), body: { n: 1 }, url: "https://h.invalid/" };
 * if (parseWith(z.object({ n: z.number() }), answer, "GET /n").n !== 1) throw new Error();
 * ```
 */
export function parseWith<S extends z.ZodType>(
  schema: S,
  answer: Received,
  operation: string,
): z.output<S> {
  // Most answers are exactly what zod would return: keep them as they are
  // (no copy). Anything else is parsed by zod: defaults, errors.
  if (responseCheck(schema)?.(answer.body)) return answer.body as z.output<S>;
  const parsed = schema.safeParse(answer.body);
  if (parsed.success) return parsed.data;
  const where = parsed.error.issues.slice(0, 3).map((i) =>
    `${issuePath(i.path) || "(body)"}: ${i.message}`
  ).join("; ");
  throw new InvalidResponseError({
    status: answer.status,
    body: answer.body,
    message: `${operation} answered a body of an unexpected shape (${where})`,
    hint:
      "Check that the base URL points at the platform API (not a proxy page), and update the SDK if the service changed",
  });
}
