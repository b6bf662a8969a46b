/**
 * Containment assertions of the `@std/assert` fallback: regular expressions,
 * substrings and array members.
 *
 * @module
 */

import { AssertionError } from "./assertion_error.ts";
import { equal } from "./equal.ts";
import { format } from "./format.ts";

function suffix(msg?: string): string {
  return msg ? `: ${msg}` : ".";
}

/**
 * Asserts that `actual` matches the regular expression `expected`.
 *
 * @param actual The string under test.
 * @param expected The pattern it must match.
 * @param msg Message for the failure.
 *
 * @example
 * ```ts
 * import { assertMatch } from "./contains.ts";
 *
 * assertMatch("job-42", /^job-\d+$/);
 * ```
 */
export function assertMatch(
  actual: string,
  expected: RegExp,
  msg?: string,
): void {
  // Reset `lastIndex` so a global/sticky pattern gives the same answer twice.
  expected.lastIndex = 0;
  if (expected.test(actual)) return;
  throw new AssertionError(
    `Expected actual: "${actual}" to match: "${expected}"${suffix(msg)}`,
  );
}

/**
 * Asserts that `actual` does not match the regular expression `expected`.
 *
 * @param actual The string under test.
 * @param expected The pattern it must not match.
 * @param msg Message for the failure.
 *
 * @example
 * ```ts
 * import { assertNotMatch } from "./contains.ts";
 *
 * assertNotMatch("job-42", /secret/);
 * ```
 */
export function assertNotMatch(
  actual: string,
  expected: RegExp,
  msg?: string,
): void {
  expected.lastIndex = 0;
  if (!expected.test(actual)) return;
  throw new AssertionError(
    `Expected actual: "${actual}" to not match: "${expected}"${suffix(msg)}`,
  );
}

/**
 * Asserts that `actual` contains the substring `expected`.
 *
 * @param actual The string under test.
 * @param expected The substring it must contain.
 * @param msg Message for the failure.
 *
 * @example
 * ```ts
 * import { assertStringIncludes } from "./contains.ts";
 *
 * assertStringIncludes("401 Unauthorized: check MLP_CLIENT_ID", "MLP_CLIENT_ID");
 * ```
 */
export function assertStringIncludes(
  actual: string,
  expected: string,
  msg?: string,
): void {
  if (actual.includes(expected)) return;
  throw new AssertionError(
    `Expected actual: "${actual}" to contain: "${expected}"${suffix(msg)}`,
  );
}

/** An array-like value, as accepted by `assertArrayIncludes`. */
export type ArrayLikeArg<T> = ArrayLike<T> & object;

/**
 * Asserts that every element of `expected` is deeply equal (see `equal`) to
 * some element of `actual`.
 *
 * @param actual The array under test.
 * @param expected The elements it must include.
 * @param msg Message for the failure.
 *
 * @example
 * ```ts
 * import { assertArrayIncludes } from "./contains.ts";
 *
 * assertArrayIncludes([{ id: 1 }, { id: 2 }, 3], [{ id: 2 }, 3]);
 * ```
 */
export function assertArrayIncludes<T>(
  actual: ArrayLikeArg<T>,
  expected: ArrayLikeArg<T>,
  msg?: string,
): void {
  const items = Array.from(actual);
  const missing = Array.from(expected).filter((wanted) =>
    !items.some((item) => equal(item, wanted))
  );
  if (missing.length === 0) return;
  throw new AssertionError(
    `Expected actual: "${format(actual)}" to include: "${format(expected)}"${
      suffix(msg)
    }\nmissing: ${format(missing)}`,
  );
}
