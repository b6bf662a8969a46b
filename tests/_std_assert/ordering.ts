/**
 * Ordering assertions of the `@std/assert` fallback (`>`, `>=`, `<`, `<=`).
 *
 * @module
 */

import { AssertionError } from "./assertion_error.ts";
import { format } from "./format.ts";

function fail(
  actual: unknown,
  op: string,
  expected: unknown,
  msg?: string,
): never {
  throw new AssertionError(
    msg ?? `Expect ${format(actual)} ${op} ${format(expected)}`,
  );
}

/**
 * Asserts `actual > expected`.
 *
 * @param actual The value under test.
 * @param expected The bound.
 * @param msg Message for the failure.
 *
 * @example
 * ```ts
 * import { assertGreater } from "./ordering.ts";
 *
 * assertGreater(2, 1);
 * ```
 */
export function assertGreater<T>(actual: T, expected: T, msg?: string): void {
  if (!(actual > expected)) fail(actual, ">", expected, msg);
}

/**
 * Asserts `actual >= expected`.
 *
 * @param actual The value under test.
 * @param expected The bound.
 * @param msg Message for the failure.
 *
 * @example
 * ```ts
 * import { assertGreaterOrEqual } from "./ordering.ts";
 *
 * assertGreaterOrEqual(2, 2);
 * ```
 */
export function assertGreaterOrEqual<T>(
  actual: T,
  expected: T,
  msg?: string,
): void {
  if (!(actual >= expected)) fail(actual, ">=", expected, msg);
}

/**
 * Asserts `actual < expected`.
 *
 * @param actual The value under test.
 * @param expected The bound.
 * @param msg Message for the failure.
 *
 * @example
 * ```ts
 * import { assertLess } from "./ordering.ts";
 *
 * assertLess(1, 2);
 * ```
 */
export function assertLess<T>(actual: T, expected: T, msg?: string): void {
  if (!(actual < expected)) fail(actual, "<", expected, msg);
}

/**
 * Asserts `actual <= expected`.
 *
 * @param actual The value under test.
 * @param expected The bound.
 * @param msg Message for the failure.
 *
 * @example
 * ```ts
 * import { assertLessOrEqual } from "./ordering.ts";
 *
 * assertLessOrEqual(2, 2);
 * ```
 */
export function assertLessOrEqual<T>(
  actual: T,
  expected: T,
  msg?: string,
): void {
  if (!(actual <= expected)) fail(actual, "<=", expected, msg);
}
