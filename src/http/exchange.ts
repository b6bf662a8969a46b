/**
 * One HTTP exchange as the transport's retry loop sees it: the request
 * ({@linkcode Outgoing}), the answer read whole ({@linkcode Received}), the
 * fetch init and headers of one attempt (the bearer token only for the base
 * URL's origin), redirects, and the error a failed attempt becomes.
 *
 * @example
 * ```ts
 * import { authorized, type Outgoing } from "./exchange.ts";
 * const outgoing: Outgoing = { method: "GET", url: "https://cdn.invalid/x", sameOrigin: false, headers: {} };
 * if ("authorization" in authorized(outgoing, "t")) throw new Error("token sent to another origin");
 * ```
 *
 * @module
 */
import { abortable } from "../abort.ts";
import { permissionRefusal } from "../permissions.ts";
import type { Deadlines, TimeoutSignals } from "./deadlines.ts";
import {
  ConfigurationError,
  ConnectionError,
  InvalidResponseError,
  MLPlatformError,
  TimeoutError,
} from "./errors.ts";

/** One HTTP request as the retry loop sees it. */
export interface Outgoing {
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
export interface Received {
  status: number;
  headers: Headers;
  body: unknown;
  /** The URL the request went to (relative `Location`s resolve against it). */
  url: string;
}

/** A fetch answer as {@linkcode Received}. */
export class Answer implements Received {
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

/** The fetch and the timers attempts run under (one set per transport). */
export interface AttemptRunner {
  /** A custom fetch (an in-process app), or undefined for the global one. */
  fetch?: typeof fetch;
  /** Shared timeouts for attempts without a caller's signal. */
  timeouts: TimeoutSignals;
  /** Timers for attempts with a caller's signal. */
  deadlines: Deadlines;
}

/** What an attempt needs of its call. */
export interface AttemptPolicy {
  /** Describes the call in messages, e.g. `GET /accounts`. */
  operation: string;
  /** Milliseconds the attempt may take. */
  timeout: number;
  /** The caller's signal. */
  signal?: AbortSignal;
}

/** What the retry loop needs of an attempt its caller already started. */
export interface Started {
  /** The token the attempt was sent with (undefined: none). */
  token: string | undefined;
  /** The attempt itself (it may have failed). */
  attempt: Promise<Received>;
}

/**
 * The init of one attempt's request. A GET without a body leaves out
 * `method` and `body` (fetch's defaults): each member given costs fetch a
 * conversion and a check per call.
 */
export function requestInit(
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

/** Headers that carry credentials (the Fetch standard drops these across origins). */
const CREDENTIAL_HEADERS = new Set([
  "authorization",
  "cookie",
  "proxy-authorization",
]);

/**
 * The headers of one attempt: the request's, plus the bearer token when the
 * request goes to the base URL's origin (a Location or redirect to another
 * host, such as object storage or a CDN, must not receive it). To another
 * origin the caller's own credential headers (client option `headers`) are
 * dropped too: they followed a 202 or a redirect there.
 */
export function authorized(
  outgoing: Outgoing,
  token: string | undefined,
): Record<string, string> {
  const headers = { ...outgoing.headers };
  if (!outgoing.sameOrigin) {
    for (const name in headers) {
      if (CREDENTIAL_HEADERS.has(name.toLowerCase())) delete headers[name];
    }
  } else if (token) headers.authorization = `Bearer ${token}`;
  return headers;
}

/**
 * The error a failed attempt throws: a `TimeoutError` when its timeout
 * fired, an SDK error as it is, the runtime's refusal of network access (no
 * `--allow-net`) as a `ConfigurationError`, which is not retried, anything
 * else (the network) as a `ConnectionError`.
 */
export function attemptFailure(
  error: unknown,
  policy: AttemptPolicy,
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
  const refusal = permissionRefusal(error);
  if (refusal !== undefined) {
    // Deno without --allow-net refuses before anything is sent, and would
    // refuse every retry the same way (38 s of backoff before this).
    const host = new URL(outgoing.url).host;
    return new ConfigurationError({
      message:
        `${policy.operation}: the runtime refused network access to ${host} (${refusal}); nothing was sent`,
      hint: `Run Deno with --allow-net=${host} (or grant it when asked)`,
      cause: error,
    });
  }
  return new ConnectionError({
    message: `${policy.operation}: could not reach ${
      new URL(outgoing.url).origin
    } (${innermostMessage(error)})`,
    hint:
      "Check the base URL and the network; the call is retried automatically where that is safe",
    cause: error,
  });
}

/** The response with its body read as text (one promise for both). */
export async function readText(
  response: Response,
): Promise<{ response: Response; text: string }> {
  return { response, text: await response.text() };
}

/** A body as JSON, or as the text itself when it is not JSON; "" is undefined. */
export function parseBody(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A redirect status the transport follows by hand. */
export function isRedirect(status: number): boolean {
  return status === 301 || status === 302 || status === 303 ||
    status === 307 || status === 308;
}

/**
 * The URL a `Location` (of a redirect or a 202) names, resolved against
 * the answer's URL; only http(s) is followed. Deno's fetch reads `file:`
 * URLs, so a hostile `Location: file:///...` would have read a local file
 * as the answer.
 *
 * @example
 * ```ts
 * import { locationUrl } from "./exchange.ts";
 * if (locationUrl("/ops/1", "https://h.invalid/x", 202, "GET /x").href !== "https://h.invalid/ops/1") throw new Error();
 * let refused = false;
 * try { locationUrl("file:///etc/passwd", "https://h.invalid/x", 302, "GET /x"); } catch { refused = true; }
 * if (!refused) throw new Error("file: followed");
 * ```
 */
export function locationUrl(
  location: string,
  from: string,
  status: number,
  operation: string,
): URL {
  let url: URL | undefined;
  try {
    url = new URL(location, from);
  } catch {
    // Reported below.
  }
  if (url?.protocol === "http:" || url?.protocol === "https:") return url;
  throw new InvalidResponseError({
    status,
    message:
      `${operation} answered ${status} with a Location that is not an http(s) URL (${
        JSON.stringify(location.slice(0, 100))
      }); not followed`,
    hint: "The service broke docs/contract.md#202-accepted; report it",
  });
}

/** The request a redirect asks for (RFC 9110: 303, and 301/302 after POST, become GET). */
export function redirected(
  outgoing: Outgoing,
  status: number,
  answer: Received,
  baseOrigin: string,
): Outgoing {
  const location = locationUrl(
    answer.headers.get("location")!,
    answer.url,
    status,
    `${outgoing.method} ${new URL(outgoing.url).pathname}`,
  );
  const url = location.href;
  const sameOrigin = location.origin === baseOrigin;
  if (status === 307 || status === 308 || outgoing.method === "GET") {
    return { ...outgoing, url, sameOrigin };
  }
  const headers = { ...outgoing.headers };
  delete headers["content-type"];
  return { method: "GET", url, sameOrigin, headers };
}

/**
 * One HTTP exchange under the attempt's timeout and the caller's signal,
 * body fully read; a failure becomes {@linkcode attemptFailure}'s error.
 *
 * @example
 * ```ts
 * import { attempt } from "./exchange.ts";
 * import { Deadlines, TimeoutSignals } from "./deadlines.ts";
 * const runner = {
 *   fetch: () => Promise.resolve(Response.json({ ok: true })),
 *   timeouts: new TimeoutSignals({ keepAlive: true }),
 *   deadlines: new Deadlines(),
 * };
 * const outgoing = { method: "GET", url: "https://h.invalid/x", sameOrigin: true, headers: {} };
 * const answer = await attempt(runner, outgoing, {}, { operation: "GET /x", timeout: 1000 });
 * if (answer.status !== 200 || !(answer.body as { ok: boolean }).ok) throw new Error();
 * ```
 */
export async function attempt(
  runner: AttemptRunner,
  outgoing: Outgoing,
  headers: Record<string, string>,
  policy: AttemptPolicy,
): Promise<Received> {
  const caller = policy.signal;
  if (caller?.aborted) throw caller.reason;
  const custom = runner.fetch;
  const init = requestInit(outgoing, headers);
  if (!caller) {
    // The common case: a timeout on a deadline shared with the attempts
    // that start at about the same time (a timer each costs more than
    // the rest of a small call), on one shared timer.
    const slot = runner.timeouts.take(policy.timeout);
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
  const release = runner.deadlines.add(policy.timeout, () => {
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

/** The most specific message of an error chain (Deno and Node say "fetch failed" outside). */
function innermostMessage(error: unknown): string {
  let message = String(error);
  for (let e: unknown = error, depth = 0; e && depth < 5; depth++) {
    if (e instanceof Error && e.message) message = e.message;
    e = (e as { cause?: unknown }).cause;
  }
  return message;
}
