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
 *   exactly-once by name);
 * - `202 Accepted`: the `Location` is polled until the final answer;
 * - redirects are followed by hand, so the token rule holds for them too;
 * - a timeout per HTTP attempt, and the caller's `AbortSignal` throughout.
 *
 * @module
 */
import type { z } from "zod";
import { TokenResponseSchema } from "../schemas/auth.ts";
import { fieldIssues, issuePath } from "../schemas/errors.ts";
import { fillPath, type Route, routes } from "../schemas/routes.ts";
import { errorFromResponse } from "./error_mapping.ts";
import {
  AuthenticationError,
  ConfigurationError,
  ConflictError,
  ConnectionError,
  InvalidResponseError,
  MLPlatformError,
  TimeoutError,
  ValidationError,
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
import { responseCheck } from "./response_check.ts";
import { TokenManager } from "./token.ts";
import { abortable } from "../abort.ts";

/** Per-call options every resource method takes last. */
export interface RequestOptions {
  /** Aborts the call (retries and polling included); rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Milliseconds each HTTP attempt may take (overrides the client's `timeout`). */
  timeout?: number;
  /** Extra headers for this call. */
  headers?: Record<string, string>;
}

/** Settings of a {@linkcode Transport}; the client fills the defaults. */
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

/** What one call of {@linkcode Transport.call} sends. */
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

/** One HTTP request as the retry loop sees it. */
interface Outgoing {
  method: string;
  /**
   * The absolute URL as sent (a string: fetch parses it anyway, and parsing
   * it here as well cost a URL object per call).
   */
  url: string;
  /** The URL is on the base URL's origin: the token may go there. */
  sameOrigin: boolean;
  headers: Record<string, string>;
  body?: string;
}

/** One received answer, body fully read. */
interface Received {
  status: number;
  headers: Headers;
  body: unknown;
  /** The URL the request went to (relative `Location`s resolve against it). */
  url: string;
}

/** A fetch answer as {@linkcode Received}. */
class Answer implements Received {
  readonly status: number;
  readonly body: unknown;
  readonly url: string;
  readonly #response: Response;
  constructor(response: Response, body: unknown, url: string) {
    this.status = response.status;
    this.body = body;
    this.url = url;
    this.#response = response;
  }
  /**
   * Read only when needed (202, redirects, errors): building a fetch
   * answer's Headers object is not free.
   */
  get headers(): Headers {
    return this.#response.headers;
  }
}

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
  readonly #deadlines = new Deadlines();
  readonly #timeouts: TimeoutSignals;

  /** Checks the base URL; credentials are used at the first call. */
  constructor(settings: TransportSettings) {
    this.#settings = settings;
    // The global fetch keeps the process alive while a request is pending
    // (its connection does), so its timeouts need not; an in-process
    // handler may not (a hung one must still time out).
    this.#timeouts = new TimeoutSignals({ keepAlive: !!settings.fetch });
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
        exchange: (form) => this.#exchangeToken(form),
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
      url: this.#url(path, options.query),
      sameOrigin: true,
      headers,
    };
    if (body !== undefined) {
      headers["content-type"] = "application/json";
      outgoing.body = JSON.stringify(body);
    }
    const state = { outcomeUnknown: false };
    const policy: Policy = {
      kind: callKind(route),
      state,
      auth: !route.public,
      operation: `${route.method} ${this.#pathname(path, outgoing.url)}`,
      signal: options.signal,
      timeout: options.timeout ?? this.#settings.timeout,
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
    return parseAnswer(route, answer, policy.operation) as RouteResult<R>;
  }

  /**
   * Finds the resource a lost create made: the one of the collection named
   * as `sent` was. Returns it when it matches what was sent; otherwise
   * throws the conflict with both.
   */
  async #reconcile(
    route: Route,
    sent: unknown,
    conflict: ConflictError,
    options: CallOptions,
  ): Promise<unknown> {
    const name = (sent as { name?: unknown } | undefined)?.name;
    const list = listRouteOf(route);
    if (typeof name !== "string" || !list) throw conflict;
    let existing: unknown;
    for (let page = 1;; page++) {
      const answer = await this.call(list, {
        params: options.params,
        query: { page, items_per_page: 100 },
        signal: options.signal,
        timeout: options.timeout,
        headers: options.headers,
      }) as {
        data: { name?: unknown }[];
        pagination: { total_pages: number };
      };
      existing = answer.data.find((item) => item.name === name);
      if (existing || answer.data.length === 0) break;
      if (page >= answer.pagination.total_pages) break;
    }
    if (existing === undefined) throw conflict;
    if (matchesSent(sent, existing)) return existing;
    throw new ConflictError({
      status: conflict.status,
      errorCode: conflict.errorCode,
      requestId: conflict.requestId,
      body: { sent, existing },
      message:
        `${route.method} ${route.path}: an earlier attempt of this create got no answer, and a ${
          route.path.slice(1)
        } named ${
          JSON.stringify(name)
        } now exists that differs from what was sent`,
      hint:
        "Compare error.body.sent and error.body.existing; delete the existing one or create with another name",
    });
  }

  /**
   * The base URL plus `path` and `query`, as `URL` with `searchParams.set`
   * would write it (form encoding), without building a URL object.
   */
  #url(path: string, query?: CallOptions["query"]): string {
    let url = this.#prefix + path;
    if (query) {
      let separator = "?";
      for (const key in query) {
        const value = query[key];
        if (value === undefined || !Object.hasOwn(query, key)) continue;
        const text = String(value);
        url += separator +
          (FORM_SAFE.test(key) && FORM_SAFE.test(text)
            ? `${key}=${text}`
            : new URLSearchParams([[key, text]]).toString());
        separator = "&";
      }
    }
    return url;
  }

  /** The URL path of `url`, built from `path`, for messages. */
  #pathname(path: string, url: string): string {
    // A "." or ".." segment (an id such as "..") is resolved by the URL
    // parser: let it say what was requested.
    return path.includes("/.") ? new URL(url).pathname : this.#basePath + path;
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
    while (answer.status === 202) {
      const location = answer.headers.get("location");
      if (!location) {
        throw new InvalidResponseError({
          status: 202,
          body: answer.body,
          message:
            `${policy.operation} answered 202 Accepted without a Location header to poll`,
          hint: "The service broke SPEC.md section 4 rule 4; report it",
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
      const url = new URL(location, answer.url);
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
        { ...policy, kind: "read", operation: `GET ${url.pathname}` },
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
        outgoing = redirected(outgoing, status, answer, this.#base.origin);
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

  /** One HTTP exchange under the attempt's timeout, body fully read. */
  async #attempt(
    outgoing: Outgoing,
    headers: Record<string, string>,
    policy: Policy,
  ): Promise<Received> {
    const caller = policy.signal;
    if (caller?.aborted) throw caller.reason;
    const custom = this.#settings.fetch;
    const init = requestInit(outgoing, headers);
    if (!caller) {
      // The common case: a timeout on a deadline shared with the attempts
      // that start at about the same time (a timer each costs more than
      // the rest of a small call), on one shared timer.
      const slot = this.#timeouts.take(policy.timeout);
      try {
        if (custom) {
          // A custom fetch (an in-process app handler) gets one Request,
          // the form every handler accepts. It needs no signal: racing the
          // timeout stops handlers that ignore it too, and a Request's
          // dependent signal costs a weak reference each call.
          const { response, text } = await slot.race(
            custom(new Request(outgoing.url, init)).then(readText),
          );
          return new Answer(response, parseBody(text), outgoing.url);
        }
        // The global fetch follows the signal itself, body included (an
        // abort while the body is read rejects `text()`): no race needed.
        // The signal is this attempt's own (see TimeoutSignals).
        init.signal = slot.signal;
        const response = await fetch(outgoing.url, init);
        const text = await response.text();
        return new Answer(response, parseBody(text), outgoing.url);
      } catch (error) {
        throw attemptFailure(error, policy, outgoing, slot.signal.aborted);
      } finally {
        slot.release();
      }
    }
    // The caller's signal and the attempt's timeout, in one signal.
    const controller = new AbortController();
    const onAbort = () => controller.abort(caller.reason);
    caller.addEventListener("abort", onAbort, { once: true });
    let fired = false;
    const release = this.#deadlines.add(policy.timeout, () => {
      fired = true;
      controller.abort();
    });
    try {
      let response: Response;
      let text: string;
      if (custom) {
        const work = custom(new Request(outgoing.url, init)).then(readText);
        ({ response, text } = await abortable(work, controller.signal));
      } else {
        init.signal = controller.signal;
        response = await fetch(outgoing.url, init);
        text = await response.text();
      }
      return new Answer(response, parseBody(text), outgoing.url);
    } catch (error) {
      if (caller.aborted) throw caller.reason;
      throw attemptFailure(error, policy, outgoing, fired);
    } finally {
      release();
      caller.removeEventListener("abort", onAbort);
    }
  }

  /** `POST /oauth/token` through the same retry loop (it is safe to repeat). */
  async #exchangeToken(form: URLSearchParams) {
    const operation = "POST /oauth/token";
    const outgoing: Outgoing = {
      method: "POST",
      url: this.#url("/oauth/token"),
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
        timeout: this.#settings.timeout,
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

function parseBaseUrl(baseUrl: string): URL {
  try {
    const url = new URL(baseUrl);
    if (url.protocol !== "http:" && url.protocol !== "https:") throw 0;
    if (!url.pathname.endsWith("/")) url.pathname += "/";
    return url;
  } catch {
    throw new ConfigurationError({
      message: `Invalid base URL ${JSON.stringify(baseUrl)}`,
      hint:
        "Pass an absolute http(s) URL such as https://api.example.com (option baseUrl or MLP_BASE_URL)",
    });
  }
}

/**
 * Parses a request part with its schema (defaults applied), or throws a
 * `ValidationError` naming each invalid field by its dotted path: nothing is
 * sent. `what` completes the message "Invalid {what}, nothing was sent".
 *
 * @example
 * ```ts
 * import { parseRequest } from "./transport.ts";
 * import { ListQuerySchema } from "../schemas/common.ts";
 * parseRequest(ListQuerySchema, { page: 2 }, "list parameters"); // { page: 2, items_per_page: 10 }
 * ```
 */
export function parseRequest<S extends z.ZodType>(
  schema: S,
  value: unknown,
  what: string,
): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new ValidationError({
    message: `Invalid ${what}, nothing was sent`,
    issues: fieldIssues(parsed.error.issues),
  });
}

function parseAnswer(route: Route, answer: Received, operation: string) {
  if (!route.response) return undefined;
  return parseWith(route.response, answer, operation);
}

function parseWith<S extends z.ZodType>(
  schema: S,
  answer: Received,
  operation: string,
): z.output<S> {
  // Most answers are exactly what zod would return: keep them as they are
  // (no copy). Anything else is parsed by zod: defaults, errors.
  if (responseCheck(schema)?.(answer.body)) return answer.body as z.output<S>;
  const parsed = schema.safeParse(answer.body);
  if (parsed.success) return parsed.data;
  const where = parsed.error.issues.slice(0, 3).map((i) =>
    `${issuePath(i.path) || "(body)"}: ${i.message}`
  ).join("; ");
  throw new InvalidResponseError({
    status: answer.status,
    body: answer.body,
    message: `${operation} answered a body of an unexpected shape (${where})`,
    hint:
      "Check that the base URL points at the platform API (not a proxy page), and update the SDK if the service changed",
  });
}

/** Path templates split at their placeholders (literal, name, literal, ...). */
const templates = new Map<string, string[]>();

/**
 * `fillPath(template, params)` from the template split once, instead of a
 * regular expression replace per call; a missing parameter throws
 * fillPath's error.
 */
function filledPath(
  template: string,
  params: Record<string, string> | undefined,
): string {
  let parts = templates.get(template);
  if (!parts) {
    parts = template.split(/\{(\w+)\}/);
    templates.set(template, parts);
  }
  let path = parts[0];
  for (let i = 1; i < parts.length; i += 2) {
    const value = params?.[parts[i]];
    if (value === undefined || value === "") return fillPath(template, params);
    path += encodeURIComponent(value) + parts[i + 1];
  }
  return path;
}

/** Query keys and values that form encoding leaves as they are. */
const FORM_SAFE = /^[\w.*-]*$/;

/**
 * The init of one attempt's request. A GET without a body leaves out
 * `method` and `body` (fetch's defaults): each member given costs fetch a
 * conversion and a check per call.
 */
function requestInit(
  outgoing: Outgoing,
  headers: Record<string, string>,
): RequestInit {
  return outgoing.method === "GET" && outgoing.body === undefined
    ? { headers, redirect: "manual" }
    : {
      method: outgoing.method,
      headers,
      body: outgoing.body,
      redirect: "manual",
    };
}

/** What the retry loop needs of an attempt its caller already started. */
interface Started {
  /** The token the attempt was sent with (undefined: none). */
  token: string | undefined;
  /** The attempt itself (it may have failed). */
  attempt: Promise<Received>;
}

/**
 * The headers of one attempt: the request's, plus the bearer token when the
 * request goes to the base URL's origin (a Location or redirect to another
 * host, such as object storage or a CDN, must not receive it).
 */
function authorized(
  outgoing: Outgoing,
  token: string | undefined,
): Record<string, string> {
  const headers = { ...outgoing.headers };
  if (token && outgoing.sameOrigin) headers.authorization = `Bearer ${token}`;
  return headers;
}

/**
 * The error a failed attempt throws: a `TimeoutError` when its timeout
 * fired, an SDK error as it is, anything else (the network) as a
 * `ConnectionError`.
 */
function attemptFailure(
  error: unknown,
  policy: Policy,
  outgoing: Outgoing,
  timedOut: boolean,
): unknown {
  if (timedOut) {
    return new TimeoutError({
      message: `${policy.operation} timed out after ${policy.timeout} ms`,
      hint: "Retry, or raise the timeout option (client or call)",
    });
  }
  if (error instanceof MLPlatformError) return error;
  return new ConnectionError({
    message: `${policy.operation}: could not reach ${
      new URL(outgoing.url).origin
    } (${innermostMessage(error)})`,
    hint:
      "Check the base URL and the network; the call is retried automatically where that is safe",
    cause: error,
  });
}

async function readText(
  response: Response,
): Promise<{ response: Response; text: string }> {
  return { response, text: await response.text() };
}

function parseBody(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The list route of the collection a create route adds to. */
function listRouteOf(create: Route): Route | undefined {
  for (const group of Object.values(routes) as Record<string, Route>[]) {
    if (group.create === create) return group.list;
  }
  return undefined;
}

/**
 * Whether a resource found by name is the one `sent` would have made: every
 * field sent is there with the same value (objects and arrays compared the
 * same way, member by member; the service may add fields), and a reference
 * sent as `x_id` is the resource's `x.id`. Fields the resource does not show
 * (a secret, the name of an artifact a job makes) cannot be compared and are
 * passed over.
 *
 * @example
 * ```ts ignore
 * matchesSent({ name: "a", data_schema_id: "s1" }, { id: "1", name: "a", data_schema: { id: "s1" } }); // true
 * ```
 */
function matchesSent(sent: unknown, existing: unknown): boolean {
  if (!isRecord(sent) || !isRecord(existing)) return false;
  for (const [key, value] of Object.entries(sent)) {
    if (value === undefined) continue;
    if (Object.hasOwn(existing, key)) {
      if (!contains(existing[key], value)) return false;
    } else if (key.endsWith("_id")) {
      const ref = existing[key.slice(0, -3)];
      if (isRecord(ref) && ref.id !== value) return false;
    }
  }
  return true;
}

/** `value` is `have`, or is contained in it member by member. */
function contains(have: unknown, value: unknown): boolean {
  if (Array.isArray(value)) {
    return Array.isArray(have) && have.length === value.length &&
      value.every((v, i) => contains(have[i], v));
  }
  if (isRecord(value)) {
    return isRecord(have) &&
      Object.entries(value).every(([k, v]) =>
        v === undefined || (Object.hasOwn(have, k) && contains(have[k], v))
      );
  }
  return Object.is(have, value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isRedirect(status: number): boolean {
  return status === 301 || status === 302 || status === 303 ||
    status === 307 || status === 308;
}

/** The request a redirect asks for (RFC 9110: 303, and 301/302 after POST, become GET). */
function redirected(
  outgoing: Outgoing,
  status: number,
  answer: Received,
  baseOrigin: string,
): Outgoing {
  const location = new URL(answer.headers.get("location")!, answer.url);
  const url = location.href;
  const sameOrigin = location.origin === baseOrigin;
  if (status === 307 || status === 308 || outgoing.method === "GET") {
    return { ...outgoing, url, sameOrigin };
  }
  const headers = { ...outgoing.headers };
  delete headers["content-type"];
  return { method: "GET", url, sameOrigin, headers };
}

/** The most specific message of an error chain (Deno and Node say "fetch failed" outside). */
function innermostMessage(error: unknown): string {
  let message = String(error);
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    if (e instanceof Error && e.message) message = e.message;
    e = (e as { cause?: unknown }).cause;
  }
  return message;
}
