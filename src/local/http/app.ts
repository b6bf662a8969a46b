/**
 * The local platform's Hono app: every operation of the shared route table
 * (paths, methods, statuses and body schemas come from there), with bearer
 * authentication, request validation, 404/409 rules, fault injection, 202 +
 * Location results, the OpenAPI document at `/openapi.json` and the API
 * reference at `/docs`. Unexpected errors become 500s with a logged
 * `error_reference`; the app never crashes on a request.
 *
 * @module
 */
import { Hono } from "hono";
import {
  ERROR_CODES,
  type ErrorBody,
  type Route,
  routes,
} from "../../schemas/mod.ts";
import type { PlatformContext } from "../context.ts";
import { handlers } from "../handlers/mod.ts";
import type { Accepted, HandlerTable, Reply } from "../handlers/types.ts";
import type { Caller } from "./auth.ts";
import { renderDocs } from "./docs.ts";
import { errorResponse, InjectedFault } from "./error_response.ts";
import { notFound, rateLimited } from "../errors.ts";
import { openApiDocument } from "./openapi.ts";
import { jsonBody } from "./request_body.ts";

/** What an operation answers: a status and a JSON body (or none). */
type Answer = {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
};

/**
 * What the operations read of a call: Hono's `Context` has it, and so has a
 * views call taken past Hono ({@linkcode directCall}).
 */
interface Call {
  req: {
    header(name: string): string | undefined;
    param(): Record<string, string>;
    query(): Record<string, string>;
    readonly url: string;
    readonly raw: Request;
  };
}

/** 202 whose `Location` is where the operation's final answer will be. */
function accepted(c: Call, operationId: string): Answer {
  return {
    status: 202,
    headers: {
      Location: new URL(`/operations/${operationId}`, c.req.url).href,
    },
  };
}

function respond(answer: Answer, requestId?: string): Response {
  if (answer.status === 204 || answer.body === undefined) {
    const headers = requestId === undefined
      ? answer.headers
      : { ...answer.headers, "X-Request-Id": requestId };
    return new Response(null, { status: answer.status, headers });
  }
  // Headers set one by one after the response is built: given in its init,
  // each is converted and checked through WebIDL's record conversion, about
  // twice the cost (µs a call on the views path).
  const response = Response.json(answer.body, { status: answer.status });
  const headers = response.headers;
  for (const name in answer.headers) headers.set(name, answer.headers[name]);
  if (requestId !== undefined) headers.set("X-Request-Id", requestId);
  return response;
}

/**
 * Request ids: unique within this process, not secrets (a random prefix and a
 * counter; a UUID a request cost more than the rest of the id's handling).
 */
const REQUEST_ID_PREFIX = `req_${crypto.randomUUID().slice(0, 8)}`;
let requestCount = 0;

/** The caller's `X-Request-Id`, or a new one. */
function requestIdOf(c: Call): string {
  return c.req.header("x-request-id") ??
    `${REQUEST_ID_PREFIX}${(++requestCount).toString(36).padStart(6, "0")}`;
}

/** `response` with its `X-Request-Id` (headers set after it was built). */
function tagged(c: Call, response: Response): Response {
  response.headers.set("X-Request-Id", requestIdOf(c));
  return response;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * The answer of a call whose real answer was lost after the work was done:
 * an injected 500, or a response whose body fails while being read (over
 * HTTP the server then drops the connection mid-answer).
 */
function lostAnswer(fault: "lost-500" | "lost-drop"): Response {
  if (fault === "lost-500") {
    return errorResponse(new InjectedFault(), () => {});
  }
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.error(
        new Error("Connection dropped by fault injection (answer lost)"),
      );
    },
  });
  return new Response(body, {
    status: 200,
    headers: { "Content-Type": "application/json" },
  });
}

/**
 * A views URL without query or fragment, its id plain (nothing to decode):
 * the route table's path with `{id}` as the one captured group.
 */
const VIEWS_URL = new RegExp(
  `^https?://[^/?#]+${
    routes.deployedModels.views.path.replace(/[.*+?^$()|[\]\\]/g, "\\$&")
      .replace("{id}", "([\\w-]+)")
  }$`,
);

/** A path segment that may be "." or ".." (plain or percent-encoded). */
const DOT_SEGMENT = /\/(\.|%2e)/i;

/**
 * An operation in two steps: its handler's reply (the body already read),
 * and the answer made of it (a 202 for a reply that comes later).
 */
interface Steps {
  reply(
    c: Call,
    caller: Caller | undefined,
    body: unknown,
  ): Reply<unknown> | Accepted | Promise<Reply<unknown> | Accepted>;
  answer(
    c: Call,
    caller: Caller | undefined,
    reply: Reply<unknown> | Accepted,
  ): Answer;
}

/** A views call taken past Hono, as the operations read it. */
function directCall(request: Request, id: string): Call {
  return {
    req: {
      header: (name) => request.headers.get(name) ?? undefined,
      param: () => ({ id }),
      query: () => ({}),
      url: request.url,
      raw: request,
    },
  };
}

/**
 * Builds the app over the shared platform state.
 *
 * @example
 * ```ts
 * import { createLocalPlatform } from "../local_platform.ts";
 * const platform = await createLocalPlatform();
 * const res = await platform.fetch(new Request(`${platform.baseUrl}/accounts`));
 * if (res.status !== 401) throw new Error(String(res.status));
 * await platform.close();
 * ```
 */
export function createApp(ctx: PlatformContext): Hono {
  const app = new Hono();
  const log = ctx.log;

  // Every answer carries an `X-Request-Id` (the caller's, or a new one). The
  // operations set it where they build their answer, not in a catch-all
  // middleware: with one handler a route, Hono skips its middleware chain.
  app.get(
    "/openapi.json",
    (c) => tagged(c, c.json(openApiDocument(new URL(c.req.url).origin))),
  );
  app.get(
    "/docs",
    (c) =>
      tagged(
        c,
        c.html(renderDocs(openApiDocument(new URL(c.req.url).origin))),
      ),
  );
  app.get("/", (c) => tagged(c, c.redirect("/docs")));

  /** Wraps an operation: faults, auth, 202 indirection, error answers. */
  const wrap = (
    route: Route,
    operation: (
      c: Call,
      caller: Caller | undefined,
    ) => Answer | Promise<Answer>,
  ) => {
    const context = `${route.method} ${route.path}`;
    return async (c: Call): Promise<Response> => {
      const requestId = requestIdOf(c);
      try {
        const fault = ctx.faults.active ? ctx.faults.next() : "none";
        const latency = ctx.faults.options.latencyMs ?? 0;
        if (latency > 0) await sleep(latency);
        if (fault === "slow") await sleep(ctx.faults.options.slowMs ?? 1000);
        if (fault === "500") throw new InjectedFault();
        if (fault === "429") {
          throw rateLimited(
            "Too many requests (injected by fault injection); retry after the Retry-After delay.",
            ctx.faults.options.retryAfterSeconds ?? 1,
          );
        }
        const caller = route.public
          ? undefined
          : await ctx.tokens.verify(c.req.header("authorization"));
        if (fault === "202" && caller) {
          const later = Promise.resolve().then(() => operation(c, caller)).then(
            (answer) => respond(answer),
            (e) => errorResponse(e, log, context),
          );
          return respond(
            accepted(c, ctx.operations.begin(caller.account.id, later)),
            requestId,
          );
        }
        const response = respond(await operation(c, caller), requestId);
        if (fault === "lost-500" || fault === "lost-drop") {
          // The work is done and committed; only its answer is lost.
          await response.body?.cancel();
          return tagged(c, lostAnswer(fault));
        }
        return response;
      } catch (error) {
        return tagged(c, errorResponse(error, log, context));
      }
    };
  };

  app.get("/operations/:id", async (c) => {
    try {
      const caller = await ctx.tokens.verify(c.req.header("authorization"));
      const op = ctx.operations.lookup(caller.account.id, c.req.param("id"));
      if (!op) throw notFound("operation", c.req.param("id"));
      if (!op.response) {
        return respond(accepted(c, c.req.param("id")), requestIdOf(c));
      }
      return tagged(
        c,
        new Response(
          op.response.status === 204 ? null : op.response.body,
          {
            status: op.response.status,
            headers: op.response.headers,
          },
        ),
      );
    } catch (error) {
      return tagged(c, errorResponse(error, log, "GET /operations/{id}"));
    }
  });

  // One loop mounts every route with its handler. `handlers` satisfies the
  // mapped type of the route table (handlers/types.ts), so here both are
  // read as plain tables: group, then operation name.
  const table: Record<string, Record<string, Route>> = routes;
  let views: ((c: Call) => Promise<Response>) | undefined;
  let viewsSteps: Steps | undefined;
  const answering: HandlerTable = handlers;
  for (const [group, operations] of Object.entries(table)) {
    for (const [name, route] of Object.entries(operations)) {
      const run = answering[group][name];
      const context = `${route.method} ${route.path}`;
      const answer = (reply: Reply<unknown>): Answer => ({
        status: route.status,
        body: reply.body,
        headers: reply.headers,
      });
      const steps: Steps = {
        reply: (c, caller, body) =>
          run({
            ctx,
            caller,
            params: c.req.param(),
            body,
            // Parsing the URL's query costs a views call more than its row.
            query: c.req.url.includes("?") ? c.req.query() : {},
            request: c.req.raw,
          }),
        answer: (c, caller, reply) => {
          if (!("later" in reply)) return answer(reply);
          const later = reply.later.then(
            (done) => respond(answer(done)),
            (e) => errorResponse(e, log, context),
          );
          return accepted(
            c,
            ctx.operations.begin(caller?.account.id ?? "", later),
          );
        },
      };
      const operation = async (
        c: Call,
        caller: Caller | undefined,
      ): Promise<Answer> => {
        const body = route.body
          ? await jsonBody(c.req.raw, route.body, ctx.settings.limits)
          : undefined;
        return steps.answer(c, caller, await steps.reply(c, caller, body));
      };
      const path = route.path.replace(/\{(\w+)\}/g, ":$1");
      const handler = wrap(route, operation);
      app.on(route.method, path, handler);
      if (route === routes.deployedModels.views) {
        views = handler;
        viewsSteps = steps;
      }
    }
  }
  if (!views || !viewsSteps) {
    throw new Error("the route table has no views operation");
  }
  // A views call is the platform's hot path: a POST to
  // /deployed-models/{id}/views with a plain id and no query goes to its
  // handler directly, past Hono's router and context (the same handler, so
  // the same faults, auth, errors and headers); any other call, and any
  // other form of that URL, goes through Hono.
  const viewsHandler = views;
  const viewsRoute = routes.deployedModels.views;
  const { reply: viewsReply, answer: viewsAnswer } = viewsSteps;
  const viewsContext = `${viewsRoute.method} ${viewsRoute.path}`;
  /**
   * A views call by a caller whose token was verified before, without fault
   * injection: the wrapped handler's steps (body, operation, answer, error
   * answers) with one `await` for the body, where the operation answers at
   * once (views.ts, `viewsNow`).
   */
  const directViews = async (
    request: Request,
    id: string,
    caller: Caller,
  ): Promise<Response> => {
    const c = directCall(request, id);
    const requestId = requestIdOf(c);
    try {
      const body = await jsonBody(
        request,
        viewsRoute.body,
        ctx.settings.limits,
      );
      const reply = viewsReply(c, caller, body);
      return respond(
        viewsAnswer(c, caller, reply instanceof Promise ? await reply : reply),
        requestId,
      );
    } catch (error) {
      return tagged(c, errorResponse(error, log, viewsContext));
    }
  };
  const honoFetch = app.fetch;
  app.fetch = (request, env, executionCtx) => {
    if (request.method === "POST") {
      const id = VIEWS_URL.exec(request.url)?.[1];
      if (id !== undefined) {
        // Any other caller (a new, bad or expired token, an account no
        // longer ACTIVE) and any fault injection: the wrapped handler.
        const caller = ctx.faults.active
          ? undefined
          : ctx.tokens.known(request.headers.get("authorization"));
        return caller
          ? directViews(request, id, caller)
          : viewsHandler(directCall(request, id));
      }
    }
    // Deno.serve hands on the request line's path as sent: "/a/../b" reached
    // the router unresolved (a 404 saying there is no GET /b), where
    // node:http and an in-process Request resolve it as the URL standard
    // does ("." and "..", also written %2e). Resolve it the same way here.
    if (DOT_SEGMENT.test(request.url)) {
      const resolved = new URL(request.url).href;
      if (resolved !== request.url) {
        // Not `new Request(resolved, request)`: reading a served request's
        // signal makes Deno warn about its legacy abort behaviour.
        request = new Request(resolved, {
          method: request.method,
          headers: request.headers,
          body: request.body,
          duplex: "half",
        } as RequestInit);
      }
    }
    return honoFetch(request, env, executionCtx);
  };

  app.notFound((c) =>
    tagged(
      c,
      Response.json(
        {
          message: `No operation ${c.req.method} ${
            new URL(c.req.url).pathname
          }; see ${new URL("/docs", c.req.url).href} for the API.`,
          error_code: ERROR_CODES.notFound,
        } satisfies ErrorBody,
        { status: 404 },
      ),
    )
  );
  app.onError((error, c) => tagged(c, errorResponse(error, log)));
  return app;
}
