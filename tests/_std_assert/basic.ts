/**
 * Truthiness, existence, type and control-flow assertions of the
 * `@std/assert` fallback.
 *
 * @module
 */

import { AssertionError } from "./assertion_error.ts";

/** Values that are falsy in JavaScript. */
export type Falsy = false | 0 | 0n | "" | null | undefined;

/** Any class (constructor), as accepted by `assertInstanceOf`. */
// deno-lint-ignore no-explicit-any
export type AnyConstructor = new (...args: any[]) => any;
/** The instance type of a class `T`. */
export type GetConstructorType<T extends AnyConstructor> = InstanceType<T>;

function suffix(msg?: string): string {
  return msg ? `: ${msg}` : ".";
}

/**
 * Asserts that `expr` is truthy.
 *
 * @param expr The value to check.
 * @param msg Message for the failure.
 *
 * @example
 * ```ts
 * import { assert } from "./basic.ts";
 *
 * assert("non-empty");
 * ```
 */
export function assert(expr: unknown, msg = ""): asserts expr {
  if (!expr) throw new AssertionError(msg);
}

/**
 * Asserts that `expr` is falsy.
 *
 * @param expr The value to check.
 * @param msg Message for the failure.
 *
 * @example
 * ```ts
 * import { assertFalse } from "./basic.ts";
 *
 * assertFalse(0);
 * ```
 */
export function assertFalse(expr: unknown, msg = ""): asserts expr is Falsy {
  if (expr) throw new AssertionError(msg);
}

/**
 * Asserts that `actual` is neither `null` nor `undefined`.
 *
 * @param actual The value to check.
 * @param msg Message for the failure.
 *
 * @example
 * ```ts
 * import { assertExists } from "./basic.ts";
 *
 * assertExists(0); // 0 exists; only null and undefined fail
 * ```
 */
export function assertExists<T>(
  actual: T,
  msg?: string,
): asserts actual is NonNullable<T> {
  if (actual === undefined || actual === null) {
    throw new AssertionError(
      msg ?? `actual: "${actual}" expected to not be null or undefined.`,
    );
  }
}

/**
 * Asserts that `actual` is an instance of `expectedType`.
 *
 * @param actual The value to check.
 * @param expectedType The class it must be an instance of.
 * @param msg Message for the failure.
 *
 * @example
 * ```ts
 * import { assertInstanceOf } from "./basic.ts";
 *
 * assertInstanceOf(new Date(), Date);
 * ```
 */
export function assertInstanceOf<T extends AnyConstructor>(
  actual: unknown,
  expectedType: T,
  msg = "",
): asserts actual is GetConstructorType<T> {
  if (actual instanceof expectedType) return;
  const expectedName = expectedType.name;
  let actualName = "";
  if (actual === null) actualName = "null";
  else if (actual === undefined) actualName = "undefined";
  else if (typeof actual === "object") {
    actualName = actual.constructor?.name ?? "Object";
  } else actualName = typeof actual;
  const text = expectedName === actualName
    ? `Expected object to be an instance of "${expectedName}"`
    : actualName === "function"
    ? `Expected object to be an instance of "${expectedName}" but was not an instanced object`
    : `Expected object to be an instance of "${expectedName}" but was "${actualName}"`;
  throw new AssertionError(`${text}${suffix(msg)}`);
}

/**
 * Asserts that `actual` is not an instance of `unexpectedType`.
 *
 * @param actual The value to check.
 * @param unexpectedType The class it must not be an instance of.
 * @param msg Message for the failure.
 *
 * @example
 * ```ts
 * import { assertNotInstanceOf } from "./basic.ts";
 *
 * assertNotInstanceOf(1, String);
 * ```
 */
export function assertNotInstanceOf<A, T>(
  actual: A,
  // deno-lint-ignore no-explicit-any
  unexpectedType: abstract new (...args: any[]) => T,
  msg?: string,
): asserts actual is Exclude<A, T> {
  if (actual instanceof unexpectedType) {
    throw new AssertionError(
      `Expected object to not be an instance of "${unexpectedType.name}"${
        suffix(msg)
      }`,
    );
  }
}

/**
 * Fails unconditionally, for code paths a test must never reach.
 *
 * @param msg What went wrong.
 * @returns Never returns.
 *
 * @example
 * ```ts
 * import { fail } from "./basic.ts";
 *
 * let caught = false;
 * try {
 *   fail("boom");
 * } catch {
 *   caught = true;
 * }
 * if (!caught) throw new Error("fail() must throw");
 * ```
 */
export function fail(msg?: string): never {
  throw new AssertionError(`Failed assertion${suffix(msg)}`);
}

/**
 * Marks code that must be unreachable; throws when reached.
 *
 * @param msg What went wrong.
 * @returns Never returns.
 *
 * @example
 * ```ts
 * import { unreachable } from "./basic.ts";
 *
 * const kind = "a" as "a" | "b";
 * if (kind !== "a" && kind !== "b") unreachable(`unknown kind ${kind}`);
 * ```
 */
export function unreachable(msg?: string): never {
  throw new AssertionError(msg ?? "Unreachable.");
}
