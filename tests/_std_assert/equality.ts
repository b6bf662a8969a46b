/**
 * Equality assertions of the `@std/assert` fallback: deep, strict, almost and
 * partial (object match).
 *
 * @module
 */

import { AssertionError } from "./assertion_error.ts";
import { equal } from "./equal.ts";
import { diffMessage, format } from "./format.ts";

function suffix(msg?: string): string {
  return msg ? `: ${msg}` : ".";
}

/**
 * Asserts that `actual` and `expected` are deeply equal (see `equal`): same
 * types, same constructors, same keys, same values.
 *
 * @param actual The value under test.
 * @param expected The expected value.
 * @param msg Message for the failure.
 *
 * @example
 * ```ts
 * import { assertEquals } from "./equality.ts";
 *
 * assertEquals({ a: [1, 2] }, { a: [1, 2] });
 * ```
 */
export function assertEquals<T>(actual: T, expected: T, msg?: string): void {
  if (equal(actual, expected)) return;
  throw new AssertionError(
    `Values are not equal${suffix(msg)}${diffMessage(actual, expected)}`,
  );
}

/**
 * Asserts that `actual` and `expected` are not deeply equal.
 *
 * @param actual The value under test.
 * @param expected The value it must differ from.
 * @param msg Message for the failure.
 *
 * @example
 * ```ts
 * import { assertNotEquals } from "./equality.ts";
 *
 * assertNotEquals({ a: 1 }, { a: 2 });
 * ```
 */
export function assertNotEquals<T>(actual: T, expected: T, msg?: string): void {
  if (!equal(actual, expected)) return;
  throw new AssertionError(
    msg ?? `Expected actual: ${format(actual)} not to be: ${format(expected)}.`,
  );
}

/**
 * Asserts that `actual` and `expected` are the same value (`Object.is`).
 *
 * @param actual The value under test.
 * @param expected The expected value.
 * @param msg Message for the failure.
 *
 * @example
 * ```ts
 * import { assertStrictEquals } from "./equality.ts";
 *
 * const shared = { a: 1 };
 * assertStrictEquals(shared, shared);
 * ```
 */
export function assertStrictEquals<T>(
  actual: unknown,
  expected: T,
  msg?: string,
): asserts actual is T {
  if (Object.is(actual, expected)) return;
  const a = format(actual);
  const b = format(expected);
  const body = a === b
    ? `\n\n    ${a}\n\nThe values render the same but are not the same reference.`
    : diffMessage(actual, expected);
  throw new AssertionError(
    `Values are not strictly equal${suffix(msg)}${body}`,
  );
}

/**
 * Asserts that `actual` and `expected` are not the same value (`Object.is`).
 *
 * @param actual The value under test.
 * @param expected The value it must not be.
 * @param msg Message for the failure.
 *
 * @example
 * ```ts
 * import { assertNotStrictEquals } from "./equality.ts";
 *
 * assertNotStrictEquals({ a: 1 }, { a: 1 }); // two distinct objects
 * ```
 */
export function assertNotStrictEquals<T>(
  actual: T,
  expected: T,
  msg?: string,
): void {
  if (!Object.is(actual, expected)) return;
  throw new AssertionError(
    `Expected "actual" to not be strictly equal to: ${format(expected)}${
      suffix(msg)
    }\n`,
  );
}

/**
 * Asserts that two numbers are equal within `tolerance`, by default one
 * ten-millionth of `expected` (`Math.abs(expected * 1e-7)`, or `1e-7` when
 * `expected` is not finite), as in std.
 *
 * @param actual The number under test.
 * @param expected The expected number.
 * @param tolerance The largest accepted absolute difference.
 * @param msg Message for the failure.
 *
 * @example
 * ```ts
 * import { assertAlmostEquals } from "./equality.ts";
 *
 * assertAlmostEquals(0.1 + 0.2, 0.3);
 * assertAlmostEquals(0.51, 0.5, 0.02);
 * ```
 */
export function assertAlmostEquals(
  actual: number,
  expected: number,
  tolerance?: number,
  msg?: string,
): void {
  if (Object.is(actual, expected)) return;
  const delta = Math.abs(expected - actual);
  const limit = tolerance ??
    (Number.isFinite(expected) ? Math.abs(expected * 1e-7) : 1e-7);
  // `delta <= limit` is false for NaN, so NaN never passes against a number.
  if (delta <= limit) return;
  const f = (n: number) => Number.isInteger(n) ? n : n.toExponential();
  throw new AssertionError(
    `Expected actual: "${f(actual)}" to be close to "${f(expected)}": delta "${
      f(delta)
    }" is greater than "${f(limit)}"${suffix(msg)}`,
  );
}

type Loose = Record<PropertyKey, unknown>;

// Keeps, recursively, only the parts of `actual` whose keys `expected` has,
// turning nested objects into plain ones so that the comparison that follows
// is about the listed fields only.
function pick(
  actual: unknown,
  expected: unknown,
  seen: WeakMap<object, unknown>,
): unknown {
  if (
    actual === null || typeof actual !== "object" ||
    expected === null || typeof expected !== "object" ||
    actual instanceof RegExp || actual instanceof Date
  ) return actual;
  if (seen.has(actual)) return seen.get(actual);
  if (actual instanceof Map && expected instanceof Map) {
    const out = new Map();
    seen.set(actual, out);
    for (const [k, v] of actual) {
      if (expected.has(k)) out.set(k, pick(v, expected.get(k), seen));
    }
    return out;
  }
  if (actual instanceof Set && expected instanceof Set) {
    return new Set([...actual].filter((v) => expected.has(v)));
  }
  if (Array.isArray(actual) !== Array.isArray(expected)) return actual;
  const out: Loose = {};
  seen.set(actual, out);
  const keys = [
    ...Object.getOwnPropertyNames(actual),
    ...Object.getOwnPropertySymbols(actual),
  ].filter((key) =>
    key in (expected as object) && !(Array.isArray(actual) && key === "length")
  );
  for (const key of keys) {
    out[key] = pick((actual as Loose)[key], (expected as Loose)[key], seen);
  }
  return out;
}

/**
 * Asserts that `actual` contains, deeply, every field of `expected` with an
 * equal value; extra fields of `actual` are ignored. Arrays are matched
 * index by index, and extra trailing elements of `actual` are ignored too, as
 * in std.
 *
 * @param actual The object under test.
 * @param expected The fields it must have.
 * @param msg Message for the failure.
 *
 * @example
 * ```ts
 * import { assertObjectMatch } from "./equality.ts";
 *
 * assertObjectMatch({ id: "m1", status: { state: "RUNNING", n: 2 } }, {
 *   status: { state: "RUNNING" },
 * });
 * ```
 */
export function assertObjectMatch(
  // deno-lint-ignore no-explicit-any
  actual: Record<PropertyKey, any>,
  expected: Record<PropertyKey, unknown>,
  msg?: string,
): void {
  if (actual === null || typeof actual !== "object") {
    throw new TypeError(
      `Cannot assertObjectMatch ${format(actual)}: pass an object as "actual".`,
    );
  }
  assertEquals(
    pick(actual, expected, new WeakMap()),
    pick(expected, expected, new WeakMap()),
    msg,
  );
}
