/**
 * The client-credentials access token (docs/api.md#authentication): exchanged once,
 * cached, renewed shortly before it expires, dropped when the service
 * refuses it, and shared by concurrent calls so that a burst of requests
 * makes one token request, not one each.
 *
 * The secret and the token live in private class fields, so they never show
 * in `Deno.inspect`, `util.inspect` or `JSON.stringify` of this object.
 *
 * @module
 */
import type { TokenResponse } from "../schemas/auth.ts";

/** How a {@linkcode TokenManager} gets its token and tells the time. */
export interface TokenManagerOptions {
  /** The account API client id. */
  clientId: string;
  /** The account API client secret. */
  clientSecret: string;
  /**
   * Performs `POST /oauth/token` with this form body and returns the parsed
   * answer (the transport supplies it, with its retries and timeout). The
   * signal aborts once no caller waits for the answer any more.
   */
  exchange: (
    form: URLSearchParams,
    signal: AbortSignal,
  ) => Promise<TokenResponse>;
  /** Milliseconds since the epoch; injectable so tests need no sleeps. */
  clock?: () => number;
}

/** The token request under way and the callers waiting for it. */
interface Flight {
  promise: Promise<string>;
  controller: AbortController;
  /** Callers with a signal still waiting. */
  waiting: number;
  /** A caller without a signal waits: the request is never abandoned. */
  pinned: boolean;
}

/**
 * Caches and renews the bearer token.
 *
 * @example
 * ```ts
 * import { TokenManager } from "./token.ts";
 * let calls = 0;
 * const tokens = new TokenManager({
 *   clientId: "id",
 *   clientSecret: "secret",
 *   exchange: () => Promise.resolve({ access_token: `t${++calls}`, token_type: "Bearer", expires_in: 3600 }),
 * });
 * const [a, b] = await Promise.all([tokens.token(), tokens.token()]);
 * console.log(a, b, calls); // "t1" "t1" 1
 * ```
 */
export class TokenManager {
  readonly #clientId: string;
  readonly #clientSecret: string;
  readonly #exchange: TokenManagerOptions["exchange"];
  readonly #clock: () => number;
  #token?: string;
  #renewAt = 0;
  #inflight?: Flight;

  /** Keeps the credentials private; nothing is requested until {@linkcode token}. */
  constructor(options: TokenManagerOptions) {
    this.#clientId = options.clientId;
    this.#clientSecret = options.clientSecret;
    this.#exchange = options.exchange;
    this.#clock = options.clock ?? Date.now;
  }

  /** The client id (not secret). */
  get clientId(): string {
    return this.#clientId;
  }

  /**
   * A valid token: the cached one, the one being requested by another call,
   * or a new one. The caller's `signal` stops only this caller's wait: the
   * shared request goes on for the others. When the last caller waiting
   * for it has aborted (a caller without a signal waits to the end), the
   * request is aborted too, retries and backoff included: nobody is left
   * for its answer, and its timers kept a finished script's process alive
   * (up to a minute against an unreachable service). An already aborted
   * signal sends nothing.
   */
  token(signal?: AbortSignal): Promise<string> {
    const cached = this.cached();
    if (cached !== undefined) return Promise.resolve(cached);
    if (signal?.aborted) return Promise.reject(signal.reason);
    const flight = this.#inflight ?? this.#start();
    if (!signal) {
      flight.pinned = true;
      return flight.promise;
    }
    flight.waiting++;
    return new Promise<string>((resolve, reject) => {
      const onAbort = () => {
        reject(signal.reason);
        if (--flight.waiting === 0 && !flight.pinned) {
          if (this.#inflight === flight) this.#inflight = undefined;
          flight.controller.abort(signal.reason);
        }
      };
      signal.addEventListener("abort", onAbort, { once: true });
      flight.promise.then(resolve, reject).finally(() =>
        signal.removeEventListener("abort", onAbort)
      );
    });
  }

  /** Starts the shared token request that {@linkcode token}'s callers wait for. */
  #start(): Flight {
    const controller = new AbortController();
    const flight: Flight = {
      controller,
      waiting: 0,
      pinned: false,
      promise: this.#request(controller.signal).finally(() => {
        if (this.#inflight === flight) this.#inflight = undefined;
      }),
    };
    // Each caller handles the outcome; one aborted with no caller left is
    // nobody's to handle.
    flight.promise.catch(() => {});
    this.#inflight = flight;
    return flight;
  }

  /**
   * The cached token while it is valid (not due for renewal), else
   * undefined: what {@linkcode token} resolves to at once, without a
   * promise, for hot paths.
   *
   * @example
   * ```ts
   * import { TokenManager } from "./token.ts";
   * const tokens = new TokenManager({
   *   clientId: "id",
   *   clientSecret: "secret",
   *   exchange: () => Promise.resolve({ access_token: "t1", token_type: "Bearer", expires_in: 3600 }),
   * });
   * if (tokens.cached() !== undefined) throw new Error("nothing fetched yet");
   * await tokens.token();
   * if (tokens.cached() !== "t1") throw new Error("cached after the exchange");
   * ```
   */
  cached(): string | undefined {
    return this.#token !== undefined && this.#clock() < this.#renewAt
      ? this.#token
      : undefined;
  }

  /**
   * Forgets `token` after the service refused it (401), so the next
   * {@linkcode token} call asks for a new one. A token already replaced by a
   * concurrent renewal is left alone.
   */
  invalidate(token: string): void {
    if (this.#token === token) {
      this.#token = undefined;
      this.#renewAt = 0;
    }
  }

  async #request(signal: AbortSignal): Promise<string> {
    const form = new URLSearchParams({
      grant_type: "client_credentials",
      client_id: this.#clientId,
      client_secret: this.#clientSecret,
    });
    const issuedAt = this.#clock();
    const answer = await this.#exchange(form, signal);
    // Aborted as it answered: no caller is left, and a newer request may
    // be under way; its token is the one kept.
    if (signal.aborted) throw signal.reason;
    const lifetime = answer.expires_in * 1000;
    // Renew a little early, so a request never leaves with a token that
    // expires in flight: a tenth of the lifetime, at most a minute.
    this.#token = answer.access_token;
    this.#renewAt = issuedAt + lifetime - Math.min(60_000, lifetime / 10);
    return answer.access_token;
  }

  /** Hides the secret and the token from `Deno.inspect`. */
  [Symbol.for("Deno.customInspect")](): string {
    return `TokenManager { clientId: ${JSON.stringify(this.#clientId)} }`;
  }

  /** Hides the secret and the token from Node's `util.inspect`. */
  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `TokenManager { clientId: ${JSON.stringify(this.#clientId)} }`;
  }

  /** Only the client id survives `JSON.stringify`. */
  toJSON(): { clientId: string } {
    return { clientId: this.#clientId };
  }
}
