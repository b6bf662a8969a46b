/**
 * The one transport every call goes through. It turns a route of the route
 * table plus parameters into HTTP, and takes care of what every call needs:
 *
 * - the request body is validated with the route's schema before anything
 *   is sent (once: a caller that parsed it with that schema says
 *   `validated`), and the answer is checked with the route's response schema
 *   (a check compiled from it, falling back to zod's parse: response_check.ts);
 * - the bearer token (fetched, cached, renewed; one renewal and one retry
 *   on a 401), never sent to an origin other than the base URL's;
 * - `X-Active-Workspace` on training jobs, `X-Views-Cache-Control` on views;
 * - retries by the one table of `retry.ts` ({@linkcode RETRY_RULES}), with
 *   backoff and jitter, honouring `Retry-After`; a create whose outcome is
 *   unknown is re-sent and, on a 409, reconciled by name (creates are
 *   exactly-once by name: reconcile.ts);
 * - `202 Accepted`: the `Location` is polled until the final answer;
 * - redirects are followed by hand, so the token rule holds for them too;
 * - a timeout per HTTP attempt, and the caller's `AbortSignal` throughout.
 *
 * Its parts live beside it: URLs (urls.ts), one HTTP exchange
 * (exchange.ts), parsing with the route's schemas (parse.ts), settings and
 * call options (settings.ts).
 *
 * @module
 */
import type { z } from "zod";
import { TokenResponseSchema } from "../schemas/auth.ts";
import type { Route } from "../schemas/routes.ts";
import { errorFromResponse } from "./error_mapping.ts";
import {
  AuthenticationError,
  ConfigurationError,
  ConflictError,
  ConnectionError,
  InvalidResponseError,
  MLPlatformError,
  TimeoutError,
} from "./errors.ts";
import {
  backoffDelay,
  type CallKind,
  callKind,
  DEFAULT_RETRY_TIMEOUT,
  mayRetry,
  neverReachedServer,
  OUTCOME_UNKNOWN_STATUSES,
  parseRetryAfter,
  RETRY_RULES,
  type RetryLimits,
} from "./retry.ts";
import { Deadlines, TimeoutSignals } from "./deadlines.ts";
import {
  attempt,
  type AttemptRunner,
  authorized,
  isRedirect,
  locationUrl,
  type Outgoing,
  type Received,
  redirected,
  type Started,
} from "./exchange.ts";
import { parseRequest, parseWith } from "./parse.ts";
import { type ListPage, reconcileCreate } from "./reconcile.ts";
import { responseCheck } from "./response_check.ts";
import { TokenManager } from "./token.ts";
import { filledPath, messagePath, parseBaseUrl, requestUrl } from "./urls.ts";
import {
  type CallOptions,
  checkNumericOptions,
  type RequestOptions,
  type TransportSettings,
} from "./settings.ts";

export type { CallOptions, RequestOptions, TransportSettings };

/** How the retry loop may treat one request. */
interface Policy {
  /** Its row of the retry table. */
  kind: CallKind;
  /** Set when an attempt may have done its work without an answer. */
  state?: { outcomeUnknown: boolean };
  /** Needs the bearer token. */
  auth: boolean;
  /** Describes the call in messages, e.g. `GET /accounts`. */
  operation: string;
  /** A path with no id (list, create, token): a 404 is a missing endpoint. */
  endpoint?: boolean;
  signal?: AbortSignal;
  timeout: number;
}

const MAX_REDIRECTS = 10;

/**
 * Sends the calls of the route table. Usually reached through `Client`; use
 * it directly for a route the resources do not wrap.
 *
 * @example
 * ```ts
 * import { Transport } from "./transport.ts";
 * import { routes } from "../schemas/routes.ts";
 * import { sleep } from "../abort.ts";
 * const transport = new Transport({
 *   baseUrl: "https://mlp.invalid",
 *   clientId: "id",
 *   clientSecret: "secret",
 *   fetch: (input) => {
 *     const url = new URL(input instanceof Request ? input.url : String(input));
 *     const body = url.pathname === "/oauth/token"
 *       ? { access_token: "t", token_type: "Bearer", expires_in: 3600 }
 *       : { data: [], pagination: { total_items: 0, items_per_page: 10, current_page: 1, total_pages: 0 } };
 *     return Promise.resolve(Response.json(body));
 *   },
 *   timeout: 1000, maxRetries: 0, retryBaseDelay: 1, retryMaxDelay: 1, maxRetryAfter: 1,
 *   pollInterval: 1, viewsCacheControl: false, clock: Date.now, sleep,
 * });
 * const page = await transport.call(routes.accounts.list, {});
 * console.log(page.pagination.total_items); // 0
 * ```
 */
export class Transport {
  readonly #settings: TransportSettings;
  // The retry limits every call checks, built once rather than per request.
  readonly #limits: RetryLimits;
  readonly #base: URL;
  /** The base URL's href without its trailing slash: paths are appended to it. */
  readonly #prefix: string;
  /** The base URL's path without its trailing slash, for messages. */
  readonly #basePath: string;
  readonly #tokens?: TokenManager;
  /** The fetch and the timers every attempt runs under. */
  readonly #clocks: AttemptRunner;

  /** Checks the base URL; credentials are used at the first call. */
  constructor(settings: TransportSettings) {
    this.#settings = settings;
    // The global fetch keeps the process alive while a request is pending
    // (its connection does), so its timeouts need not; an in-process
    // handler may not (a hung one must still time out).
    this.#clocks = {
      fetch: settings.fetch,
      timeouts: new TimeoutSignals({ keepAlive: !!settings.fetch }),
      deadlines: new Deadlines(),
    };
    this.#limits = {
      maxRetries: settings.maxRetries,
      retryTimeout: settings.retryTimeout ?? DEFAULT_RETRY_TIMEOUT,
    };
    this.#base = parseBaseUrl(settings.baseUrl);
    this.#prefix = this.#base.href.replace(/\/$/, "");
    this.#basePath = this.#base.pathname.replace(/\/$/, "");
    if (settings.clientId && settings.clientSecret) {
      this.#tokens = new TokenManager({
        clientId: settings.clientId,
        clientSecret: settings.clientSecret,
        clock: settings.clock,
        exchange: (form, signal) => this.#exchangeToken(form, signal),
      });
    }
  }

  /** The base URL, normalised (no trailing slash). */
  get baseUrl(): string {
    return this.#prefix;
  }

  /** The client id, when credentials were given. */
  get clientId(): string | undefined {
    return this.#tokens?.clientId;
  }

  /**
   * Performs the operation `route` and returns its parsed answer (undefined
   * for a 204).
   */
  async call<R extends Route>(
    route: R,
    options: CallOptions,
  ): Promise<RouteResult<R>> {
    let body = route.body ? options.body : undefined;
    if (route.body && !options.validated) {
      // A body zod would return as it is (no default to fill, no key to
      // strip) is sent as it is: the compiled check says so without zod's
      // copy. Anything else is parsed, which writes the messages.
      if (!responseCheck(route.body)?.(body)) {
        body = parseRequest(
          route.body,
          body,
          `request body for ${route.method} ${route.path}`,
        );
      }
    }
    const path = filledPath(route.path, options.params);
    const headers = this.#headers(route, options);
    const outgoing: Outgoing = {
      method: route.method,
      url: requestUrl(this.#prefix, path, options.query),
      sameOrigin: true,
      headers,
    };
    if (body !== undefined) {
      headers["content-type"] = "application/json";
      outgoing.body = JSON.stringify(body);
    }
    const timeout = options.timeout ?? this.#settings.timeout;
    if (options.timeout !== undefined) {
      checkNumericOptions({ timeout }, "call option");
    }
    const state = { outcomeUnknown: false };
    const policy: Policy = {
      kind: callKind(route),
      state,
      auth: !route.public,
      operation: `${route.method} ${
        messagePath(this.#basePath, path, outgoing.url)
      }`,
      endpoint: !route.path.includes("{"),
      signal: options.signal,
      timeout,
    };
    let answer: Received;
    try {
      // The first attempt starts here when the token is at hand, and a
      // success (2xx) is used as it is: the retry loop, with its frame and
      // its state, is entered only for anything else (an error, a
      // redirect, a 401, a failed attempt), which it handles as before.
      const token = policy.auth ? this.#tokens?.cached() : undefined;
      if (token === undefined && policy.auth) {
        answer = await this.#send(outgoing, policy);
      } else {
        const attempt = this.#attempt(
          outgoing,
          authorized(outgoing, token),
          policy,
        );
        let first: Received | undefined;
        try {
          first = await attempt;
        } catch {
          // Handled by the retry loop, which awaits the same attempt.
        }
        answer = first && first.status >= 200 && first.status < 300
          ? first
          : await this.#send(outgoing, policy, { token, attempt });
      }
      if (answer.status === 202) {
        answer = await this.#followAccepted(answer, outgoing.headers, policy);
      }
    } catch (error) {
      // A create re-sent after an unknown outcome and refused as a
      // duplicate: the lost attempt probably made it.
      if (
        error instanceof ConflictError && state.outcomeUnknown &&
        policy.kind === "create"
      ) {
        const existing = await this.#reconcile(route, body, error, options);
        return parseWith(
          route.response!,
          {
            status: route.status,
            headers: new Headers(),
            body: existing,
            url: outgoing.url,
          },
          policy.operation,
        ) as RouteResult<R>;
      }
      throw error;
    }
    // No response schema (a 204's route): undefined.
    return (route.response
      ? parseWith(route.response, answer, policy.operation)
      : undefined) as RouteResult<R>;
  }

  /**
   * Finds the resource a lost create made (reconcile.ts), listing its
   * collection (or, for a cancel, reading its job) with this call's
   * parameters, signal, timeout and headers.
   */
  #reconcile(
    route: Route,
    sent: unknown,
    conflict: ConflictError,
    options: CallOptions,
  ): Promise<unknown> {
    const { params, signal, timeout, headers } = options;
    const same = { params, signal, timeout, headers };
    return reconcileCreate(
      route,
      sent,
      conflict,
      (list, page) =>
        this.call(list, {
          ...same,
          query: { page, items_per_page: 100 },
        }) as Promise<ListPage>,
      (get) => this.call(get, same),
    );
  }

  /**
   * The headers of one call, in one object: accept, the client's, the
   * route's own (workspace, views cache), then the call's.
   */
  #headers(route: Route, options: CallOptions): Record<string, string> {
    const headers: Record<string, string> = {
      accept: "application/json",
      ...this.#settings.headers,
    };
    if (route.workspace) {
      const workspace = options.workspaceId ?? this.#settings.workspaceId;
      if (!workspace) {
        throw new ConfigurationError({
          message:
            `${route.method} ${route.path} needs a workspace (X-Active-Workspace)`,
          hint:
            "Pass { workspaceId } to this call or to the client options; create one with client.workspaces.create({ name })",
        });
      }
      headers["x-active-workspace"] = workspace;
    }
    if (route.views && this.#settings.viewsCacheControl !== false) {
      headers["x-views-cache-control"] = this.#settings.viewsCacheControl;
    }
    return options.headers ? { ...headers, ...options.headers } : headers;
  }

  /** Polls the `Location` of 202 answers until the final one. */
  async #followAccepted(
    answer: Received,
    headers: Record<string, string>,
    policy: Policy,
  ): Promise<Received> {
    let pollHeaders: Record<string, string> | undefined;
    const poll: Policy = { ...policy, kind: "read", endpoint: false };
    while (answer.status === 202) {
      const location = answer.headers.get("location");
      if (!location) {
        throw new InvalidResponseError({
          status: 202,
          body: answer.body,
          message:
            `${policy.operation} answered 202 Accepted without a Location header to poll`,
          hint: "The service broke docs/api.md#endpoints; report it",
        });
      }
      const wait = parseRetryAfter(
        answer.headers.get("retry-after"),
        this.#settings.clock(),
      ) ?? this.#settings.pollInterval;
      await this.#settings.sleep(
        Math.min(wait, this.#settings.maxRetryAfter),
        policy.signal,
      );
      const url = locationUrl(location, answer.url, 202, policy.operation);
      if (!pollHeaders) {
        pollHeaders = { ...headers };
        delete pollHeaders["content-type"];
      }
      answer = await this.#send(
        {
          method: "GET",
          url: url.href,
          sameOrigin: url.origin === this.#base.origin,
          headers: pollHeaders,
        },
        { ...poll, operation: `GET ${url.pathname}` },
      );
    }
    return answer;
  }

  /**
   * One request with its retries, its 401 renewal and its redirects;
   * throws the mapped error for a failed final answer.
   */
  async #send(
    first: Outgoing,
    policy: Policy,
    started?: Started,
  ): Promise<Received> {
    const rule = RETRY_RULES[policy.kind];
    const state = policy.state ?? { outcomeUnknown: false };
    let outgoing = first;
    let retries = 0;
    let waited = 0;
    const limits = this.#limits;
    let redirects = 0;
    let renewed = false;
    for (;;) {
      let token: string | undefined;
      let attempt: Promise<Received>;
      if (started) {
        // The first attempt, started by the caller with this token.
        ({ token, attempt } = started);
        started = undefined;
      } else {
        token = policy.auth
          ? this.#tokens?.cached() ?? await this.#token(policy)
          : undefined;
        attempt = this.#attempt(outgoing, authorized(outgoing, token), policy);
      }
      let answer: Received;
      try {
        answer = await attempt;
      } catch (error) {
        if (
          !(error instanceof ConnectionError || error instanceof TimeoutError)
        ) throw error;
        const unsent = error instanceof ConnectionError &&
          neverReachedServer(error.cause);
        // A timeout or reset after sending: the work may have been done.
        const unknown = !unsent;
        const repeatable = rule.network === "any" || unsent ||
          (unknown && rule.unknownOutcome === "reconcile");
        const delay = this.#backoff(retries);
        if (repeatable && mayRetry(retries, { delay, waited }, limits)) {
          state.outcomeUnknown ||= unknown;
          waited += delay;
          await this.#settings.sleep(delay, policy.signal);
          retries++;
          continue;
        }
        throw error;
      }
      const { status } = answer;
      if (status === 401 && token && !renewed && outgoing.sameOrigin) {
        // The token may have been revoked or expired early: renew it once.
        this.#tokens!.invalidate(token);
        renewed = true;
        continue;
      }
      if (isRedirect(status) && answer.headers.has("location")) {
        if (++redirects > MAX_REDIRECTS) {
          throw new ConnectionError({
            status,
            message:
              `${policy.operation} was redirected more than ${MAX_REDIRECTS} times`,
            hint: "Check the base URL",
          });
        }
        const next = redirected(outgoing, status, answer, this.#base.origin);
        if (!next.sameOrigin && next.body !== undefined) {
          // A 307/308 keeps the body: the token call's would carry the
          // client secret (and a create's the user's data) to another
          // origin, which the token rule forbids in spirit as in letter.
          throw new ConnectionError({
            status,
            message: `${policy.operation} was redirected to another origin (${
              new URL(next.url).origin
            }) with its body; not followed`,
            hint: "Check the base URL",
          });
        }
        outgoing = next;
        continue;
      }
      // A success needs no header: reading them costs more than the rest.
      const retryAfter = status < 300 ? undefined : parseRetryAfter(
        answer.headers.get("retry-after-ms") !== null
          ? String(Number(answer.headers.get("retry-after-ms")) / 1000)
          : answer.headers.get("retry-after"),
        this.#settings.clock(),
      );
      const unknown = OUTCOME_UNKNOWN_STATUSES.has(status);
      const repeatable = rule.statuses.has(status) ||
        (unknown && rule.unknownOutcome === "reconcile");
      const delay = repeatable ? retryAfter ?? this.#backoff(retries) : 0;
      if (
        repeatable && mayRetry(retries, { delay, waited }, limits) &&
        (retryAfter ?? 0) <= this.#settings.maxRetryAfter
      ) {
        state.outcomeUnknown ||= unknown;
        waited += delay;
        await this.#settings.sleep(delay, policy.signal);
        retries++;
        continue;
      }
      if (
        status === 404 && policy.kind === "delete" && state.outcomeUnknown
      ) {
        // An earlier attempt reached the service and deleted it.
        return {
          status: 204,
          headers: answer.headers,
          body: undefined,
          url: answer.url,
        };
      }
      if (status >= 300) {
        throw errorFromResponse({
          status,
          headers: answer.headers,
          body: answer.body,
          operation: policy.operation,
          retryAfter,
          endpoint: policy.endpoint,
        });
      }
      return answer;
    }
  }

  #backoff(retry: number): number {
    return backoffDelay(retry, {
      baseDelay: this.#settings.retryBaseDelay,
      maxDelay: this.#settings.retryMaxDelay,
    });
  }

  #token(policy: Policy): Promise<string> {
    if (!this.#tokens) {
      throw new ConfigurationError({
        message: `${policy.operation} needs credentials, and none were given`,
        hint:
          "Pass { clientId, clientSecret } to the client, or set MLP_CLIENT_ID and MLP_CLIENT_SECRET and use connect()",
      });
    }
    return this.#tokens.token(policy.signal);
  }

  /** One HTTP exchange under the attempt's timeout (exchange.ts). */
  #attempt(
    outgoing: Outgoing,
    headers: Record<string, string>,
    policy: Policy,
  ): Promise<Received> {
    return attempt(this.#clocks, outgoing, headers, policy);
  }

  /** `POST /oauth/token` through the same retry loop (it is safe to repeat). */
  async #exchangeToken(form: URLSearchParams, signal?: AbortSignal) {
    const operation = `POST ${this.#basePath}/oauth/token`;
    const outgoing: Outgoing = {
      method: "POST",
      url: requestUrl(this.#prefix, "/oauth/token"),
      sameOrigin: true,
      headers: {
        accept: "application/json",
        "content-type": "application/x-www-form-urlencoded",
      },
      body: form.toString(),
    };
    let answer: Received;
    try {
      answer = await this.#send(outgoing, {
        kind: "token",
        auth: false,
        operation,
        endpoint: true,
        timeout: this.#settings.timeout,
        signal,
      });
    } catch (error) {
      if (
        error instanceof MLPlatformError &&
        (error.status === 400 || error.status === 401)
      ) {
        throw new AuthenticationError({
          status: error.status,
          errorCode: error.errorCode,
          requestId: error.requestId,
          body: error.body,
          message: "The service refused the client credentials",
          hint:
            "Check the client id and secret (MLP_CLIENT_ID, MLP_CLIENT_SECRET) and that they were issued for this base URL",
        });
      }
      throw error;
    }
    return parseWith(TokenResponseSchema, answer, operation);
  }

  /** Hides the credentials from `Deno.inspect`. */
  [Symbol.for("Deno.customInspect")](): string {
    return `Transport { baseUrl: ${JSON.stringify(this.baseUrl)} }`;
  }

  /** Hides the credentials from Node's `util.inspect`. */
  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return `Transport { baseUrl: ${JSON.stringify(this.baseUrl)} }`;
  }

  /** Only the base URL and client id survive `JSON.stringify`. */
  toJSON(): { baseUrl: string; clientId?: string } {
    return { baseUrl: this.baseUrl, clientId: this.clientId };
  }
}

// deno-doc-ignore private-type-ref -- the output type of the route's zod response schema
/** The parsed answer of a route: its response schema's output, or undefined. */
export type RouteResult<R extends Route> = R extends
  { response: infer S extends z.ZodType } ? z.output<S>
  // A route only known as `Route` may have any answer.
  : Route extends R ? unknown
  : undefined;
