/**
 * Deep, type-strict structural equality with the semantics of `equal` from
 * `jsr:@std/assert@1`.
 *
 * @module
 */

type Keyed = Map<unknown, unknown> | Set<unknown>;

function isPrimitive(value: unknown): boolean {
  return value === null ||
    (typeof value !== "object" && typeof value !== "function");
}

// Objects made by `{}` and by `Object.create(null)` count as the same kind,
// everything else must share its constructor (as in std): an instance of a
// class never equals a plain object with the same fields.
function sameKind(a: object, b: object): boolean {
  const ca = (a as { constructor?: unknown }).constructor;
  const cb = (b as { constructor?: unknown }).constructor;
  return ca === cb || (ca === Object && !cb) || (!ca && cb === Object);
}

type Boxed = { valueOf(): unknown };

function isBoxed(value: object): value is Boxed {
  return value instanceof Number || value instanceof String ||
    value instanceof Boolean || value instanceof BigInt ||
    value instanceof Symbol;
}

function sameBytes(
  a: ArrayBuffer | DataView,
  b: ArrayBuffer | DataView,
): boolean {
  const x = a instanceof DataView
    ? new Uint8Array(a.buffer, a.byteOffset, a.byteLength)
    : new Uint8Array(a);
  const y = b instanceof DataView
    ? new Uint8Array(b.buffer, b.byteOffset, b.byteLength)
    : new Uint8Array(b);
  return x.length === y.length && x.every((byte, i) => byte === y[i]);
}

function ownEnumerableKeys(value: object): PropertyKey[] {
  return [
    ...Object.keys(value),
    ...Object.getOwnPropertySymbols(value).filter((symbol) =>
      Object.prototype.propertyIsEnumerable.call(value, symbol)
    ),
  ];
}

/**
 * Compares two values deeply: primitives by value (`NaN` equals `NaN`,
 * `0` equals `-0`), `Date` by time, `RegExp` and `URL` by their text, `Map` and
 * `Set` by content (deeply, in any order), other objects by constructor and by
 * their own enumerable string and symbol keys. A missing key never equals a key
 * holding `undefined`. Cycles are handled. Stricter than std in one respect:
 * boxed primitives, errors (`name`, `message`) and `ArrayBuffer`/`DataView`
 * bytes are compared too, where std sees no keys and calls them equal. `WeakMap`/`WeakSet` cannot be
 * compared and throw a `TypeError`.
 *
 * @param actual The first value.
 * @param expected The second value.
 * @returns `true` when both values are deeply equal.
 *
 * @example
 * ```ts
 * import { equal } from "./equal.ts";
 *
 * if (!equal({ a: [1, new Date(0)] }, { a: [1, new Date(0)] })) {
 *   throw new Error("expected deep equality");
 * }
 * if (equal({ a: undefined }, {}) || equal(1, "1")) {
 *   throw new Error("expected strict inequality");
 * }
 * ```
 */
export function equal(actual: unknown, expected: unknown): boolean {
  // Pairs already under comparison: a cycle that comes back to the same
  // pair is equal as far as that branch is concerned.
  const seen = new Map<object, object>();

  function compare(a: unknown, b: unknown): boolean {
    if (typeof a === "number" && typeof b === "number") {
      return a === b || (Number.isNaN(a) && Number.isNaN(b));
    }
    if (Object.is(a, b)) return true;
    if (isPrimitive(a) || isPrimitive(b)) return false;
    if (typeof a === "function" || typeof b === "function") return false;
    const x = a as object;
    const y = b as object;
    if (x instanceof Date && y instanceof Date) {
      return compare(x.getTime(), y.getTime());
    }
    if (
      (x instanceof RegExp && y instanceof RegExp) ||
      (x instanceof URL && y instanceof URL)
    ) {
      return String(x) === String(y);
    }
    if (!sameKind(x, y)) return false;
    // Stricter than std where std sees no enumerable keys and would call any
    // two instances equal: boxed primitives, errors and binary buffers.
    if (isBoxed(x)) {
      if (!Object.is(x.valueOf(), (y as Boxed).valueOf())) return false;
    }
    if (x instanceof Error) {
      const e = y as Error;
      if (x.name !== e.name || x.message !== e.message) return false;
    }
    if (x instanceof ArrayBuffer || x instanceof DataView) {
      if (!sameBytes(x, y as ArrayBuffer | DataView)) return false;
    }
    if (x instanceof WeakMap || x instanceof WeakSet) {
      throw new TypeError(
        `Cannot compare ${x.constructor.name} instances: their contents are not enumerable. Compare the values you put in them instead.`,
      );
    }
    if (x instanceof WeakRef) {
      return compare(x.deref(), (y as WeakRef<WeakKey>).deref());
    }
    if (seen.get(x) === y) return true;
    const xKeys = ownEnumerableKeys(x);
    const yKeys = ownEnumerableKeys(y);
    if (xKeys.length !== yKeys.length) return false;
    seen.set(x, y);
    if (x instanceof Map || x instanceof Set) {
      if (!compareKeyed(x, y as Keyed)) return false;
    }
    for (const key of xKeys) {
      if (!Object.prototype.hasOwnProperty.call(y, key)) return false;
      if (
        !compare(
          (x as Record<PropertyKey, unknown>)[key],
          (y as Record<PropertyKey, unknown>)[key],
        )
      ) return false;
    }
    return true;
  }

  function compareKeyed(a: Keyed, b: Keyed): boolean {
    if (a.size !== b.size) return false;
    const aEntries = [...a.entries()];
    // Fast path: primitive keys can be looked up directly.
    if (aEntries.every(([key]) => isPrimitive(key))) {
      for (const [key, value] of aEntries) {
        if (!b.has(key)) return false;
        if (
          a instanceof Map &&
          !compare(value, (b as Map<unknown, unknown>).get(key))
        ) {
          return false;
        }
      }
      return true;
    }
    // Object keys: every entry of `a` must match a distinct entry of `b`.
    const unmatched = [...b.entries()];
    for (const [aKey, aValue] of aEntries) {
      const index = unmatched.findIndex(([bKey, bValue]) =>
        compare(aKey, bKey) && (a instanceof Set || compare(aValue, bValue))
      );
      if (index === -1) return false;
      unmatched.splice(index, 1);
    }
    return true;
  }

  return compare(actual, expected);
}
