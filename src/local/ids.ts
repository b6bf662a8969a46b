/**
 * Timestamps and identifiers for local resources.
 *
 * docs/api.md#resources asks for ISO 8601 UTC timestamps with microseconds and a
 * trailing `Z`; `Date#toISOString` only has milliseconds, so the microseconds
 * come from the high-resolution clock, kept strictly increasing so that two
 * resources created in the same millisecond still sort in creation order.
 *
 * @module
 */

let lastMicros = 0;

/**
 * The current time as `2024-05-01T12:00:00.123456Z` (microseconds, UTC).
 * Successive calls never return the same or an earlier value.
 *
 * @example
 * ```ts
 * import { timestamp } from "./ids.ts";
 * const a = timestamp(), b = timestamp();
 * if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/.test(a) || !(b > a)) throw new Error(a);
 * ```
 */
export function timestamp(): string {
  const micros = Math.max(
    Math.floor((performance.timeOrigin + performance.now()) * 1000),
    lastMicros + 1,
  );
  lastMicros = micros;
  const iso = new Date(Math.floor(micros / 1000)).toISOString(); // ...sss Z
  return `${iso.slice(0, 23)}${String(micros % 1000).padStart(3, "0")}Z`;
}

/**
 * A new random identifier with a readable prefix (`sc_3f2a...`), so a user
 * can tell from an id alone which kind of resource it names.
 *
 * @example
 * ```ts
 * import { newId } from "./ids.ts";
 * const id = newId("ws");
 * if (!id.startsWith("ws_") || id === newId("ws")) throw new Error(id);
 * ```
 */
export function newId(prefix: string): string {
  return `${prefix}_${crypto.randomUUID().replaceAll("-", "")}`;
}

/**
 * `bytes` random bytes as lower-case hex (secrets, signing keys, id suffixes).
 *
 * @example
 * ```ts
 * import { randomHex } from "./ids.ts";
 * if (!/^[0-9a-f]{8}$/.test(randomHex(4))) throw new Error();
 * ```
 */
export function randomHex(bytes: number): string {
  return [...crypto.getRandomValues(new Uint8Array(bytes))]
    .map((b) => b.toString(16).padStart(2, "0")).join("");
}
