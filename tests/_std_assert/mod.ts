/**
 * Offline stand-in for `jsr:@std/assert@1`: the same exported names,
 * signatures and semantics, for machines where JSR cannot be reached.
 * `scripts/test.ts` maps `@std/assert` here only when a probe of JSR fails;
 * tests always import `"@std/assert"`, never this file.
 *
 * Deep equality is our own implementation of std's rules (node:assert's
 * `deepStrictEqual` differs: it tells `0` from `-0` and compares prototypes
 * rather than constructors); values are rendered with `node:util`'s
 * `inspect`, so the module runs under Deno and Node alike.
 *
 * @example
 * ```ts
 * import { assertEquals, assertThrows, AssertionError } from "./mod.ts";
 *
 * assertEquals([1, { a: "x" }], [1, { a: "x" }]);
 * assertThrows(() => assertEquals<unknown>(1, "1"), AssertionError);
 * ```
 *
 * @module
 */

export { AssertionError } from "./assertion_error.ts";
export { equal } from "./equal.ts";
export {
  type AnyConstructor,
  assert,
  assertExists,
  assertFalse,
  assertInstanceOf,
  assertNotInstanceOf,
  fail,
  type Falsy,
  type GetConstructorType,
  unreachable,
} from "./basic.ts";
export {
  assertAlmostEquals,
  assertEquals,
  assertNotEquals,
  assertNotStrictEquals,
  assertObjectMatch,
  assertStrictEquals,
} from "./equality.ts";
export {
  assertGreater,
  assertGreaterOrEqual,
  assertLess,
  assertLessOrEqual,
} from "./ordering.ts";
export {
  type ArrayLikeArg,
  assertArrayIncludes,
  assertMatch,
  assertNotMatch,
  assertStringIncludes,
} from "./contains.ts";
export {
  assertIsError,
  assertRejects,
  assertThrows,
  type ErrorClass,
} from "./errors.ts";
