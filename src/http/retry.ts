/**
 * Retry policy: which calls may be repeated after which failures, written
 * once in {@linkcode RETRY_RULES}; how long to wait (exponential backoff with
 * jitter, or the service's `Retry-After`); and whether a network error proves
 * the request never left the client.
 *
 * | call                                   | network error, timeout | statuses retried             | outcome unknown (500, 502, 504, 408, timeout or reset after sending) |
 * | -------------------------------------- | ---------------------- | ---------------------------- | ---------------------------------------------------------------------- |
 * | read: GET (polls of jobs and 202s too) | retried                | 408, 429, 500, 502, 503, 504 | retried: repeating a read is harmless                                   |
 * | delete: DELETE                         | retried                | 408, 429, 500, 502, 503, 504 | retried; a 404 after it means the earlier attempt deleted it           |
 * | token: `POST /oauth/token`             | retried                | 408, 429, 500, 502, 503, 504 | retried: a second token does no harm                                   |
 * | view: `POST /deployed-models/{id}/views` | retried              | 408, 429, 500, 502, 503, 504 | retried: a query, no side effect (docs/api.md#endpoints: predictions of a model)     |
 * | create: any other POST                 | only if never sent     | 429, 503 (not processed)     | reconciled: re-sent; on a 409 the resource of that name is looked up   |
 *
 * How long: a call retries while it has retries left (`maxRetries`, default
 * {@linkcode DEFAULT_MAX_RETRIES}) and its waits between attempts stay within
 * `retryTimeout` (default {@linkcode DEFAULT_RETRY_TIMEOUT}, 60 s), the
 * deadline-based policy of Google's client libraries: with the default
 * backoff (0.5 s doubling to 8 s, with jitter) ten retries take about 40 s,
 * so a transient fault that clears within a minute is ridden out, while a
 * permanent answer (400, 401 after renewal, 403, 404, 409, 422) ends the
 * call at once. Why not 2 (openai-node, Stripe) or 3 attempts (AWS)? Every
 * step of an awaited workflow (quickstart: token, creates, job polls,
 * reads, views) is one call, and a workflow of dozens of calls must
 * come through: with a quarter of all attempts failing (the chaos run,
 * `deno task chaos`), 2 retries leave 1.6% of calls failing and 27 of 100
 * workflows; 10 leave one call in four million. Awaited jobs add a
 * separate budget of failed polls in a row (`poll.errorBudget`, see
 * `src/jobs/job.ts`) on top.
 *
 * Creates are exactly-once by name: names are unique within an account, so
 * re-sending a create whose answer was lost cannot make a second resource.
 * The service either makes it (the first never landed) or answers 409; then
 * the transport lists the collection, finds the resource of that name and
 * returns it when it matches what was sent, else throws the `ConflictError`
 * with both (`sent` and `existing`).
 *
 * @module
 */

/** Default retries of one call after its first attempt (see the module doc). */
export const DEFAULT_MAX_RETRIES = 10;

/** Default longest total wait (ms) between one call's attempts: 60 s. */
export const DEFAULT_RETRY_TIMEOUT = 60_000;

/** How a call may be repeated: the rows of the table above. */
export type CallKind = "read" | "delete" | "token" | "view" | "create";

/** The retry rule of one {@linkcode CallKind}. */
export interface RetryRule {
  /** Answers repeated (with backoff, or after `Retry-After`). */
  readonly statuses: ReadonlySet<number>;
  /**
   * Which network errors and timeouts are repeated: `any`, or only those
   * that prove the request never reached the server (`unsent`).
   */
  readonly network: "any" | "unsent";
  /**
   * What to do when an attempt may have done its work without an answer
   * (500, 502, 504, 408, a timeout or a reset after sending): `retry` it
   * like any other failure, or `reconcile` (re-send, and on a 409 find the
   * resource by name).
   */
  readonly unknownOutcome: "retry" | "reconcile";
}

/** Statuses that say "try again" to a call that is safe to repeat. */
const TRANSIENT: ReadonlySet<number> = new Set([408, 429, 500, 502, 503, 504]);
const SAFE: RetryRule = {
  statuses: TRANSIENT,
  network: "any",
  unknownOutcome: "retry",
};

/**
 * The one retry table (see the module doc). Every call of the transport is
 * one of these kinds ({@linkcode callKind}).
 *
 * @example
 * ```ts
 * import { RETRY_RULES } from "./retry.ts";
 * RETRY_RULES.read.statuses.has(500); // true
 * RETRY_RULES.create.statuses.has(500); // false: outcome unknown, reconciled instead
 * RETRY_RULES.create.statuses.has(429); // true: not processed
 * ```
 */
export const RETRY_RULES: Readonly<Record<CallKind, RetryRule>> = {
  read: SAFE,
  delete: SAFE,
  token: SAFE,
  view: SAFE,
  create: {
    statuses: new Set([429, 503]),
    network: "unsent",
    unknownOutcome: "reconcile",
  },
};

/**
 * Statuses after which the server may have done the work although it did
 * not say so: the outcome of a create is then unknown.
 *
 * @example
 * ```ts
 * import { OUTCOME_UNKNOWN_STATUSES } from "./retry.ts";
 * OUTCOME_UNKNOWN_STATUSES.has(500); // true
 * OUTCOME_UNKNOWN_STATUSES.has(429); // false
 * ```
 */
export const OUTCOME_UNKNOWN_STATUSES: ReadonlySet<number> = new Set([
  408,
  500,
  502,
  504,
]);

/**
 * The kind of a call, from its method and route flags.
 *
 * @example
 * ```ts
 * import { callKind } from "./retry.ts";
 * callKind({ method: "POST", views: true }); // "view"
 * callKind({ method: "POST" }); // "create"
 * callKind({ method: "GET" }); // "read"
 * ```
 */
export function callKind(
  route: { method: string; public?: boolean; views?: boolean },
): CallKind {
  if (route.method === "GET") return "read";
  if (route.method === "DELETE") return "delete";
  if (route.public) return "token";
  if (route.views) return "view";
  return "create";
}

/** How many retries one call may make, and how long it may wait in all. */
export interface RetryLimits {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** Longest total wait between the attempts, in ms. */
  retryTimeout: number;
}

/**
 * Whether a call that made `retries` retries and has waited `waited` ms
 * between its attempts may retry once more after waiting `delay` ms: while
 * it has retries left and the waits stay within the deadline.
 *
 * @example
 * ```ts
 * import { mayRetry } from "./retry.ts";
 * const limits = { maxRetries: 10, retryTimeout: 60_000 };
 * if (!mayRetry(2, { delay: 2_000, waited: 1_500 }, limits)) throw new Error("has retries and time left");
 * if (mayRetry(10, { delay: 8_000, waited: 40_000 }, limits)) throw new Error("retries used up");
 * if (mayRetry(3, { delay: 30_000, waited: 45_000 }, limits)) throw new Error("past the deadline");
 * ```
 */
export function mayRetry(
  retries: number,
  { delay, waited }: { delay: number; waited: number },
  limits: RetryLimits,
): boolean {
  return retries < limits.maxRetries && waited + delay <= limits.retryTimeout;
}

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
  // Only the three HTTP-date forms (each starts with a day name): V8's
  // lenient Date.parse reads "-5" or "1," as dates of long ago, which made
  // a malformed value a wait of 0 ms instead of the backoff.
  if (!/^[A-Za-z]{3}/.test(text)) return undefined;
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
