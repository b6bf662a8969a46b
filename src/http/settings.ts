/**
 * What the transport (transport.ts) is set up with ({@linkcode TransportSettings},
 * filled by the client) and what one call of it takes
 * ({@linkcode CallOptions}, {@linkcode RequestOptions}).
 *
 * @module
 */
import { ConfigurationError } from "./errors.ts";

/** Per-call options every resource method takes last. */
export interface RequestOptions {
  /** Aborts the call (retries and polling included); rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Milliseconds each HTTP attempt may take (overrides the client's `timeout`). */
  timeout?: number;
  /** Extra headers for this call. */
  headers?: Record<string, string>;
}

/** Settings of a `Transport`; the client fills the defaults. */
export interface TransportSettings {
  /** Base URL of the service, e.g. `https://api.example.com`. */
  baseUrl: string;
  /** Account API client id. */
  clientId?: string;
  /** Account API client secret (kept private by the token manager). */
  clientSecret?: string;
  /** The fetch to use (default: the global one, looked up at call time). */
  fetch?: typeof fetch;
  /** Milliseconds each HTTP attempt may take. */
  timeout: number;
  /** Retries after the first attempt, where repeating is safe. */
  maxRetries: number;
  /** Longest total wait (ms) between one call's attempts; default 60 000 (`retry.ts`). */
  retryTimeout?: number;
  /** First backoff delay in ms (doubles each retry). */
  retryBaseDelay: number;
  /** Largest backoff delay in ms. */
  retryMaxDelay: number;
  /** Longest `Retry-After` (ms) the client waits for; a longer one is thrown to the caller. */
  maxRetryAfter: number;
  /** Wait between polls of a 202 `Location` when the service gives no `Retry-After`. */
  pollInterval: number;
  /** `X-Views-Cache-Control` value for views, or false to not send it. */
  viewsCacheControl: string | false;
  /** Default `X-Active-Workspace` for training jobs. */
  workspaceId?: string;
  /** Headers sent with every call. */
  headers?: Record<string, string>;
  /** Milliseconds since the epoch (token expiry, HTTP-date Retry-After). */
  clock: () => number;
  /** Waits between retries and polls. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** What one call of `Transport.call` sends. */
export interface CallOptions extends RequestOptions {
  /** Path parameters of the route's template. */
  params?: Record<string, string>;
  /** Query string parameters (undefined ones are left out). */
  query?: Record<string, string | number | undefined>;
  /** JSON body, validated with the route's body schema. */
  body?: unknown;
  /**
   * `body` is already the output of this route's body schema (the caller
   * parsed it with that same schema, defaults applied): send it as it is
   * instead of parsing it a second time. For hot paths such as views, whose
   * builder validates the body before sending.
   */
  validated?: boolean;
  /** `X-Active-Workspace` for this call (routes flagged `workspace`). */
  workspaceId?: string;
}

/**
 * Throws a `ConfigurationError` naming the first numeric client option
 * that is not a number of 0 or more (finite, except where Infinity means
 * no limit). From JavaScript a NaN or a string got through: a NaN timeout
 * never fired (a hung request hung the call), a NaN `pollInterval` polled a
 * 202 without pause, a NaN `maxRetryAfter` or `retryTimeout` silently
 * turned every retry off.
 *
 * @example
 * ```ts
 * import { checkNumericOptions } from "./settings.ts";
 * checkNumericOptions({ timeout: 1000, maxRetries: Infinity });
 * let refused = false;
 * try { checkNumericOptions({ pollInterval: NaN }); } catch { refused = true; }
 * if (!refused) throw new Error("NaN accepted");
 * ```
 */
export function checkNumericOptions(
  options: Record<string, unknown>,
  what = "client option",
): void {
  const unlimited = ["maxRetries", "retryTimeout", "maxRetryAfter"];
  for (
    const name of [
      "timeout",
      "maxRetries",
      "retryTimeout",
      "retryBaseDelay",
      "retryMaxDelay",
      "maxRetryAfter",
      "pollInterval",
    ]
  ) {
    const value = options[name];
    if (value === undefined) continue;
    if (
      typeof value !== "number" || Number.isNaN(value) || value < 0 ||
      (!Number.isFinite(value) && !unlimited.includes(name))
    ) {
      throw new ConfigurationError({
        message: `Invalid ${what} ${name}: ${
          typeof value === "string" ? JSON.stringify(value) : String(value)
        } (${typeof value})`,
        hint: `Pass ${name} as a ${
          unlimited.includes(name) ? "" : "finite "
        }number of 0 or more (milliseconds, or a count for maxRetries)`,
      });
    }
  }
}
