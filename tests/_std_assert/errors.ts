/**
 * Error assertions of the `@std/assert` fallback: `assertIsError`,
 * `assertThrows` and `assertRejects`, with both std overloads.
 *
 * @module
 */

import { AssertionError } from "./assertion_error.ts";

/** A class of errors (`TypeError`, a subclass of `Error`, ...). */
// deno-lint-ignore no-explicit-any
export type ErrorClass<E extends Error> = abstract new (...args: any[]) => E;

function suffix(msg?: string): string {
  return msg ? `: ${msg}` : ".";
}

// Terminal colour codes would make `msgIncludes` checks depend on whether the
// error was formatted for a TTY.
const ANSI =
  // deno-lint-ignore no-control-regex
  /[\u001B\u009B][[\]()#;?]*(?:(?:(?:;[-a-zA-Z\d\/#&.:=?%@~_]*)*)?\u0007|(?:\d{1,4}(?:;\d{0,4})*)?[\dA-ORZcf-nqry=><])/g;

function stripAnsi(text: string): string {
  return text.replace(ANSI, "");
}

/**
 * Asserts that `error` is an `Error`, optionally of class `ErrorClass` and
 * with a message that includes `msgMatches` (a string) or matches it (a
 * RegExp).
 *
 * @param error The value to check.
 * @param ErrorClass The class it must be an instance of.
 * @param msgMatches Text the message must include, or a pattern it must match.
 * @param msg Message for the failure.
 *
 * @example
 * ```ts
 * import { assertIsError } from "./errors.ts";
 *
 * assertIsError(new RangeError("out of range"), RangeError, /range/);
 * ```
 */
export function assertIsError<E extends Error = Error>(
  error: unknown,
  ErrorClass?: ErrorClass<E>,
  msgMatches?: string | RegExp,
  msg?: string,
): asserts error is E {
  if (!(error instanceof Error)) {
    throw new AssertionError(
      `Expected "error" to be an Error object${suffix(msg)}`,
    );
  }
  if (ErrorClass && !(error instanceof ErrorClass)) {
    throw new AssertionError(
      `Expected error to be instance of "${ErrorClass.name}", but was "${error.constructor?.name}"${
        suffix(msg)
      }`,
    );
  }
  if (msgMatches === undefined || msgMatches === "") return;
  const message = stripAnsi(error.message);
  const ok = typeof msgMatches === "string"
    ? message.includes(stripAnsi(msgMatches))
    : (msgMatches.lastIndex = 0, msgMatches.test(message));
  if (ok) return;
  throw new AssertionError(
    `Expected error message to include ${
      msgMatches instanceof RegExp
        ? msgMatches.toString()
        : JSON.stringify(msgMatches)
    }, but got ${JSON.stringify(error.message)}${suffix(msg)}`,
    { cause: error },
  );
}

function isErrorClass(value: unknown): value is ErrorClass<Error> {
  return typeof value === "function" &&
    (value.prototype instanceof Error || value.prototype === Error.prototype);
}

/** Tells the `(fn, ErrorClass, msgIncludes?, msg?)` and `(fn, msg?)` overloads of `assertThrows`/`assertRejects` apart. */
function overload<E extends Error>(
  name: string,
  errorClassOrMsg: ErrorClass<E> | string | undefined,
  msgIncludesOrMsg: string | undefined,
  msg: string | undefined,
): { ErrorClass?: ErrorClass<E>; msgIncludes?: string; msg?: string } {
  if (typeof errorClassOrMsg === "string") return { msg: errorClassOrMsg };
  if (errorClassOrMsg === undefined) return { msg: msgIncludesOrMsg ?? msg };
  if (!isErrorClass(errorClassOrMsg)) {
    throw new TypeError(
      `${name}: the second argument must be an Error class or a message string.`,
    );
  }
  return { ErrorClass: errorClassOrMsg, msgIncludes: msgIncludesOrMsg, msg };
}

/**
 * Runs `fn` and asserts that it throws; returns what it threw.
 *
 * @param fn The function expected to throw.
 * @param msg Message for the failure.
 * @returns The thrown value.
 *
 * @example
 * ```ts
 * import { assertThrows } from "./errors.ts";
 *
 * const thrown = assertThrows(() => JSON.parse("{"));
 * if (!(thrown instanceof SyntaxError)) throw new Error("expected SyntaxError");
 * ```
 */
export function assertThrows(fn: () => unknown, msg?: string): unknown;
/**
 * Runs `fn` and asserts that it throws an instance of `ErrorClass` whose
 * message includes `msgIncludes`; returns the error.
 *
 * @param fn The function expected to throw.
 * @param ErrorClass The class the error must be an instance of.
 * @param msgIncludes Text the error message must include.
 * @param msg Message for the failure.
 * @returns The thrown error, typed as `E`.
 *
 * @example
 * ```ts
 * import { assertThrows } from "./errors.ts";
 *
 * const error = assertThrows(() => JSON.parse("{"), SyntaxError);
 * if (error.name !== "SyntaxError") throw new Error("wrong error returned");
 * ```
 */
export function assertThrows<E extends Error = Error>(
  fn: () => unknown,
  ErrorClass: ErrorClass<E>,
  msgIncludes?: string,
  msg?: string,
): E;
export function assertThrows<E extends Error = Error>(
  fn: () => unknown,
  errorClassOrMsg?: ErrorClass<E> | string,
  msgIncludesOrMsg?: string,
  msg?: string,
): E | unknown {
  let ErrorClass: ErrorClass<E> | undefined;
  let msgIncludes: string | undefined;
  ({ ErrorClass, msgIncludes, msg } = overload(
    "assertThrows",
    errorClassOrMsg,
    msgIncludesOrMsg,
    msg,
  ));
  try {
    fn();
  } catch (error) {
    if (ErrorClass) {
      if (!(error instanceof Error)) {
        throw new AssertionError(`A non-Error object was thrown${suffix(msg)}`);
      }
      assertIsError(error, ErrorClass, msgIncludes, msg);
    }
    return error;
  }
  throw new AssertionError(`Expected function to throw${suffix(msg)}`);
}

/**
 * Awaits the promise returned by `fn` and asserts that it rejects; resolves
 * to the rejection reason. A synchronous throw is a failure: use
 * `assertThrows` for synchronous code.
 *
 * @param fn The function returning the promise expected to reject.
 * @param msg Message for the failure.
 * @returns The rejection reason.
 *
 * @example
 * ```ts
 * import { assertRejects } from "./errors.ts";
 *
 * await assertRejects(() => Promise.reject(new Error("nope")));
 * ```
 */
export function assertRejects(
  fn: () => PromiseLike<unknown>,
  msg?: string,
): Promise<unknown>;
/**
 * Awaits the promise returned by `fn` and asserts that it rejects with an
 * instance of `ErrorClass` whose message includes `msgIncludes`.
 *
 * @param fn The function returning the promise expected to reject.
 * @param ErrorClass The class the error must be an instance of.
 * @param msgIncludes Text the error message must include.
 * @param msg Message for the failure.
 * @returns The rejection error, typed as `E`.
 *
 * @example
 * ```ts
 * import { assertRejects } from "./errors.ts";
 *
 * const error = await assertRejects(
 *   () => Promise.reject(new TypeError("bad input")),
 *   TypeError,
 *   "bad",
 * );
 * if (error.message !== "bad input") throw new Error("wrong error returned");
 * ```
 */
export function assertRejects<E extends Error = Error>(
  fn: () => PromiseLike<unknown>,
  ErrorClass: ErrorClass<E>,
  msgIncludes?: string,
  msg?: string,
): Promise<E>;
export async function assertRejects<E extends Error = Error>(
  fn: () => PromiseLike<unknown>,
  errorClassOrMsg?: ErrorClass<E> | string,
  msgIncludesOrMsg?: string,
  msg?: string,
): Promise<E | unknown> {
  let ErrorClass: ErrorClass<E> | undefined;
  let msgIncludes: string | undefined;
  ({ ErrorClass, msgIncludes, msg } = overload(
    "assertRejects",
    errorClassOrMsg,
    msgIncludesOrMsg,
    msg,
  ));
  let promise: PromiseLike<unknown>;
  try {
    promise = fn();
  } catch (error) {
    throw new AssertionError(
      `Function throws when expected to reject${suffix(msg)}`,
      { cause: error },
    );
  }
  if (
    !promise || typeof promise !== "object" ||
    typeof promise.then !== "function"
  ) {
    throw new AssertionError(
      `Function throws when expected to reject${
        suffix(msg)
      } (it returned ${typeof promise}, not a promise)`,
    );
  }
  try {
    await promise;
  } catch (error) {
    if (ErrorClass) {
      if (!(error instanceof Error)) {
        throw new AssertionError(
          `A non-Error object was rejected${suffix(msg)}`,
        );
      }
      assertIsError(error, ErrorClass, msgIncludes, msg);
    }
    return error;
  }
  throw new AssertionError(`Expected function to reject${suffix(msg)}`);
}
