/**
 * The error thrown by every assertion of the `@std/assert` fallback.
 *
 * @module
 */

/**
 * Raised when an assertion fails. Same name and shape as
 * `AssertionError` from `jsr:@std/assert@1`, so `assertThrows(fn, AssertionError)`
 * works the same with either module.
 *
 * @example
 * ```ts
 * import { AssertionError } from "./assertion_error.ts";
 *
 * const error = new AssertionError("values differ");
 * if (error.name !== "AssertionError" || !(error instanceof Error)) {
 *   throw new Error("AssertionError must be a named Error");
 * }
 * ```
 */
export class AssertionError extends Error {
  /**
   * Creates an assertion error.
   *
   * @param message What was asserted and what was found instead.
   * @param options Standard error options (for example a `cause`).
   */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "AssertionError";
  }
}
