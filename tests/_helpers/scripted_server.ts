/**
 * A real HTTP server for transport tests: `Deno.serve` on 127.0.0.1, port 0,
 * whose handler follows a script (one step per API request, in order) and
 * records every request it receives. Token requests (`POST /oauth/token`)
 * are answered by a separate responder so that scripts list only the calls
 * under test; by default it issues `tok-1`, `tok-2`, ... valid for an hour.
 *
 * @example
 * ```ts
 * import { json, startScriptedServer } from "./scripted_server.ts";
 * await using server = startScriptedServer({ steps: [{ path: "/ping", respond: () => json({ ok: true }) }] });
 * const answer = await fetch(`${server.url}/ping`);
 * console.log(await answer.json(), server.api.length); // { ok: true } 1
 * ```
 *
 * @module
 */

/** A request as the server saw it. */
export interface RecordedRequest {
  /** HTTP method. */
  method: string;
  /** Path without the query. */
  path: string;
  /** Full URL. */
  url: URL;
  /** Request headers. */
  headers: Headers;
  /** Body text ("" when none). */
  body: string;
  /** Aborts when the client goes away. */
  signal: AbortSignal;
}

/** Answers one request. */
export type Responder = (
  request: RecordedRequest,
) => Response | Promise<Response>;

/** One scripted API request: what is expected and how to answer it. */
export interface Step {
  /** Expected method (not checked when absent). */
  method?: string;
  /** Expected path (not checked when absent). */
  path?: string | RegExp;
  /** The answer. */
  respond: Responder;
}

/** The script of a {@linkcode startScriptedServer}. */
export interface Script {
  /** API requests in order. */
  steps?: Step[];
  /** Answers `POST /oauth/token`; default issues `tok-N` with `expires_in` 3600. */
  token?: Responder;
}

/** A running scripted server. */
export interface ScriptedServer extends AsyncDisposable {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Every request, token calls included, in arrival order. */
  requests: RecordedRequest[];
  /** The token requests. */
  tokens: RecordedRequest[];
  /** The API (non-token) requests. */
  api: RecordedRequest[];
  /** Requests that did not match their step, or came after the script ended. */
  unexpected: string[];
  /** Stops the server. */
  close(): Promise<void>;
}

/**
 * A JSON response.
 *
 * @example
 * ```ts
 * import { json } from "./scripted_server.ts";
 * json({ a: 1 }, 201).status; // 201
 * ```
 */
export function json(
  body: unknown,
  status = 200,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

/**
 * A responder that never answers until the client gives up (for timeouts
 * and aborts): it resolves when the connection closes, so no work leaks.
 *
 * @example
 * ```ts
 * import { hang } from "./scripted_server.ts";
 * typeof hang(); // "function"
 * ```
 */
export function hang(): Responder {
  return (request) =>
    new Promise((resolve) => {
      const done = () => resolve(new Response(null, { status: 499 }));
      if (request.signal.aborted) done();
      request.signal.addEventListener("abort", done, { once: true });
    });
}

/**
 * The default token responder: `tok-1`, `tok-2`, ... each valid `expiresIn`
 * seconds.
 *
 * @example
 * ```ts
 * import { tokenIssuer } from "./scripted_server.ts";
 * const issue = tokenIssuer(60);
 * const body = await (await issue({} as never)).json();
 * console.log(body.access_token, body.expires_in); // "tok-1" 60
 * ```
 */
export function tokenIssuer(expiresIn = 3600): Responder {
  let issued = 0;
  return () =>
    json({
      access_token: `tok-${++issued}`,
      token_type: "Bearer",
      expires_in: expiresIn,
    });
}

/**
 * Starts a scripted server. Close it (or use `await using`) at the end.
 *
 * @example
 * ```ts
 * import { startScriptedServer } from "./scripted_server.ts";
 * const server = startScriptedServer({});
 * const answer = await fetch(`${server.url}/anything`);
 * await answer.body?.cancel();
 * console.log(answer.status, server.unexpected.length); // 599 1
 * await server.close();
 * ```
 */
export function startScriptedServer(script: Script): ScriptedServer {
  const steps = [...(script.steps ?? [])];
  const token = script.token ?? tokenIssuer();
  const requests: RecordedRequest[] = [];
  const tokens: RecordedRequest[] = [];
  const api: RecordedRequest[] = [];
  const unexpected: string[] = [];

  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (request) => {
      const url = new URL(request.url);
      const recorded: RecordedRequest = {
        method: request.method,
        path: url.pathname,
        url,
        headers: request.headers,
        body: await request.text(),
        // Read lazily: touching request.signal opts into Deno's abort
        // tracking, which only the hanging responders need.
        get signal() {
          return request.signal;
        },
      };
      requests.push(recorded);
      if (recorded.method === "POST" && recorded.path === "/oauth/token") {
        tokens.push(recorded);
        return token(recorded);
      }
      api.push(recorded);
      const step = steps.shift();
      const what = `${recorded.method} ${recorded.path}`;
      if (!step) {
        unexpected.push(`${what} after the script ended`);
        return json({ message: `unscripted request ${what}` }, 599);
      }
      const pathOk = step.path === undefined ||
        (typeof step.path === "string"
          ? step.path === recorded.path
          : step.path.test(recorded.path));
      if ((step.method && step.method !== recorded.method) || !pathOk) {
        unexpected.push(
          `${what}, expected ${step.method ?? "*"} ${step.path ?? "*"}`,
        );
        return json({ message: `unexpected request ${what}` }, 599);
      }
      return step.respond(recorded);
    },
  );
  const close = () => server.shutdown();
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    requests,
    tokens,
    api,
    unexpected,
    close,
    [Symbol.asyncDispose]: close,
  };
}
