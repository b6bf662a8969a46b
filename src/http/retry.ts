/**
 * Retry policy pieces: which statuses are worth repeating, how long to wait
 * (exponential backoff with jitter, or the service's `Retry-After`), an
 * abortable sleep, and whether a network error proves the request never
 * left the client.
 *
 * @module
 */

/** Statuses that say "try again later" rather than "you are wrong". */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([
  429,
  502,
  503,
  504,
]);

/**
 * Milliseconds to wait from a `Retry-After` value: delta seconds or an HTTP
 * date (relative to `now`). Undefined when absent or unreadable.
 *
 * @example
 * ```ts
 * import { parseRetryAfter } from "./retry.ts";
 * parseRetryAfter("3"); // 3000
 * parseRetryAfter("Thu, 01 Jan 1970 00:00:05 GMT", 1000); // 4000
 * parseRetryAfter(null); // undefined
 * ```
 */
export function parseRetryAfter(
  value: string | null | undefined,
  now: number = Date.now(),
): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * The wait before retry number `attempt` (0 for the first retry): doubling
 * from `baseDelay`, capped at `maxDelay`, with "equal jitter" (between half
 * and all of it) so that many clients do not retry in lockstep.
 *
 * @example
 * ```ts
 * import { backoffDelay } from "./retry.ts";
 * const d = backoffDelay(2, { baseDelay: 100, maxDelay: 10_000 }, () => 0.5);
 * d; // 300: 400 ms halved, plus half of the other half
 * ```
 */
export function backoffDelay(
  attempt: number,
  { baseDelay, maxDelay }: { baseDelay: number; maxDelay: number },
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(maxDelay, baseDelay * 2 ** attempt);
  return Math.round(ceiling / 2 + random() * ceiling / 2);
}

/**
 * True when a `fetch` failure proves the request never reached the server
 * (refused connection, unknown host): only then may a create be repeated.
 * Deno and Node word these errors differently, so both the message chain and
 * the `code` of each cause are looked at.
 *
 * @example
 * ```ts
 * import { neverReachedServer } from "./retry.ts";
 * const refused = new TypeError("fetch failed", { cause: Object.assign(new Error("x"), { code: "ECONNREFUSED" }) });
 * neverReachedServer(refused); // true
 * neverReachedServer(new TypeError("connection reset")); // false
 * ```
 */
export function neverReachedServer(error: unknown): boolean {
  const pattern =
    /ECONNREFUSED|connection refused|ENOTFOUND|EAI_AGAIN|dns error|failed to lookup address|ConnectionRefused/i;
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    const { message, code, name } = e as {
      message?: unknown;
      code?: unknown;
      name?: unknown;
    };
    if (
      [message, code, name].some((v) =>
        typeof v === "string" && pattern.test(v)
      )
    ) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
