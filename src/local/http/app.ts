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
import type { Context } from "hono";
import type { z } from "zod";
import {
  type Account,
  ERROR_CODES,
  type ErrorBody,
  ListQuerySchema,
  type Route,
  routes,
  TokenRequestSchema,
} from "../../schemas/mod.ts";
import type { Caller } from "./auth.ts";
import type { PlatformContext, PlatformSettings } from "../context.ts";
import { renderDocs } from "./docs.ts";
import { errorResponse, InjectedFault } from "./error_response.ts";
import {
  createComputeConfiguration,
  createDataSchema,
  createDeploymentConfiguration,
  createIngestionConfiguration,
  createOnboardingConfiguration,
  createStorageConnector,
  createTrainingConfiguration,
  createWorkspace,
} from "../handlers/configs.ts";
import {
  cancelJob,
  createDeployedModel,
  createIngestionJob,
  createOnboardingJob,
  createTrainingJob,
  refuseRunningJob,
} from "../handlers/jobs.ts";
import type { CreateHandler, DeleteHooks } from "../handlers/types.ts";
import {
  computeViews,
  explanationOf,
  type ParsedViews,
  prepareViews,
} from "../handlers/views.ts";
import {
  conflict,
  forbidden,
  fromZodError,
  integrityError,
  invalidField,
  notFound,
  payloadTooLarge,
  rateLimited,
  unsupportedMediaType,
} from "./http_errors.ts";
import { datasourceBlobKey } from "../jobs/ingest.ts";
import { datasetBlobKey } from "../jobs/onboard.ts";
import { modelBlobKey } from "../jobs/train.ts";
import { isKind, type KindName, KINDS } from "../kinds.ts";
import { openApiDocument } from "./openapi.ts";
import { dependantsOf, findOwned, pageOf } from "../store/records.ts";
import type { StoredRecord } from "../store/store.ts";
import { newId } from "../ids.ts";

const CREATE: Record<KindName, CreateHandler | undefined> = {
  storageConnectors: createStorageConnector,
  computeConfigurations: createComputeConfiguration,
  dataSchemas: createDataSchema,
  ingestionConfigurations: createIngestionConfiguration,
  ingestionJobs: createIngestionJob,
  onboardingConfigurations: createOnboardingConfiguration,
  onboardingJobs: createOnboardingJob,
  workspaces: createWorkspace,
  trainingConfigurations: createTrainingConfiguration,
  trainingJobs: createTrainingJob,
  deploymentConfigurations: createDeploymentConfiguration,
  deployedModels: createDeployedModel,
  datasources: undefined,
  datasets: undefined,
  models: undefined,
};

/** An artifact still being produced cannot be deleted under its job. */
function refusePending(_ctx: PlatformContext, record: StoredRecord): void {
  if (record.body.status === "PENDING") {
    throw conflict(
      `The ${
        KINDS[record.kind as KindName].noun
      } ${record.id} is still being produced by its job; wait until the job ends, then delete it.`,
    );
  }
}

const DELETE_HOOKS: Partial<Record<KindName, DeleteHooks>> = {
  ingestionJobs: { before: refuseRunningJob },
  onboardingJobs: { before: refuseRunningJob },
  trainingJobs: { before: refuseRunningJob },
  datasources: {
    before: refusePending,
    after: (ctx, r) => ctx.store.deleteBlob(datasourceBlobKey(r.id)),
  },
  datasets: {
    before: refusePending,
    after: (ctx, r) => ctx.store.deleteBlob(datasetBlobKey(r.id)),
  },
  models: {
    before: refusePending,
    after: (ctx, r) => ctx.store.deleteBlob(modelBlobKey(r.id)),
  },
  deployedModels: { after: (ctx, r) => ctx.serving.undeploy(r.id) },
};

/** What an operation handler returns: a status and a JSON body (or none). */
type Answer = {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
};

/** `value` parsed by `schema`, or a 400 naming each offending path. */
function parseOr400<S extends z.ZodType>(
  schema: S,
  value: unknown,
): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw fromZodError(parsed.error);
  return parsed.data;
}

/**
 * Whether a `Content-Type` names JSON: `application/json` (or a `+json`
 * type), with no charset or UTF-8.
 */
function isJsonType(type: string | null): boolean {
  if (!type) return false;
  const [mime, ...params] = type.split(";").map((p) => p.trim().toLowerCase());
  if (
    mime !== "application/json" && !/^application\/[\w.-]+\+json$/.test(mime)
  ) {
    return false;
  }
  const charset = params.find((p) => p.startsWith("charset="));
  return !charset || /^charset="?utf-8"?$/.test(charset);
}

/**
 * The request body as UTF-8 text, read with the size limit: a declared or
 * actual size over `limits.maxBodyBytes` is a 413 before anything is parsed.
 */
async function bodyText(
  request: Request,
  limits: PlatformSettings["limits"],
): Promise<string> {
  const max = limits.maxBodyBytes;
  if (Number(request.headers.get("Content-Length")) > max) {
    throw payloadTooLarge(max);
  }
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel().catch(() => {});
      throw payloadTooLarge(max);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw invalidField(
      "",
      "the body is not valid UTF-8 text; send JSON encoded as UTF-8",
    );
  }
}

/**
 * Refuses (400) JSON text nesting arrays and objects deeper than `max`,
 * counted on the text before it is parsed (brackets inside strings ignored).
 */
function checkDepth(text: string, max: number): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) {
      inString = true;
    } else if (c === 91 || c === 123) {
      if (++depth > max) {
        throw invalidField(
          "",
          `the body nests arrays and objects deeper than ${max} levels (limits.maxJsonDepth); send a flatter body`,
        );
      }
    } else if (c === 93 || c === 125) {
      depth--;
    }
  }
}

/**
 * Reads and validates a JSON body: 415 without a JSON `Content-Type`, 413
 * over the size limit, 400 for nesting over the depth limit, malformed JSON
 * or a body its schema refuses (naming the path).
 */
async function jsonBody(
  request: Request,
  schema: z.ZodType,
  limits: PlatformSettings["limits"],
): Promise<unknown> {
  const type = request.headers.get("Content-Type");
  if (!isJsonType(type)) throw unsupportedMediaType(type);
  const text = await bodyText(request, limits);
  checkDepth(text, limits.maxJsonDepth);
  let value: unknown;
  try {
    value = text.trim() === "" ? {} : JSON.parse(text);
  } catch (error) {
    throw invalidField(
      "",
      `the body is not valid JSON (${
        (error as Error).message
      }); send a JSON object with Content-Type: application/json`,
    );
  }
  return parseOr400(schema, value);
}

/** Reads the token call's form (or JSON) body, within the limits. */
async function tokenBody(
  request: Request,
  limits: PlatformSettings["limits"],
) {
  const type = request.headers.get("Content-Type");
  const text = await bodyText(request, limits);
  let raw: Record<string, unknown>;
  if (isJsonType(type)) {
    checkDepth(text, limits.maxJsonDepth);
    try {
      raw = JSON.parse(text);
    } catch {
      throw invalidField("", "the body is not valid JSON");
    }
  } else {
    raw = Object.fromEntries(new URLSearchParams(text));
  }
  return parseOr400(TokenRequestSchema, raw);
}

function listQuery(c: Context) {
  return parseOr400(ListQuerySchema, c.req.query());
}

/** The one page `GET /accounts/{id}` answers with: the list defaults. */
const FIRST_PAGE = ListQuerySchema.parse({});

/** 202 whose `Location` is where the operation's final answer will be. */
function accepted(c: Context, operationId: string): Answer {
  return {
    status: 202,
    headers: {
      Location: new URL(`/operations/${operationId}`, c.req.url).href,
    },
  };
}

function respond(answer: Answer): Response {
  if (answer.status === 204 || answer.body === undefined) {
    return new Response(null, {
      status: answer.status,
      headers: answer.headers,
    });
  }
  return Response.json(answer.body, {
    status: answer.status,
    headers: answer.headers,
  });
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

  app.use("*", async (c, next) => {
    const requestId = c.req.header("X-Request-Id") ?? newId("req");
    await next();
    c.res.headers.set("X-Request-Id", requestId);
  });

  app.get(
    "/openapi.json",
    (c) => c.json(openApiDocument(new URL(c.req.url).origin)),
  );
  app.get(
    "/docs",
    (c) => c.html(renderDocs(openApiDocument(new URL(c.req.url).origin))),
  );
  app.get("/", (c) => c.redirect("/docs"));

  /** Wraps an operation: faults, auth, 202 indirection, error answers. */
  const wrap = (
    route: Route,
    operation: (
      c: Context,
      caller: Caller | undefined,
    ) => Answer | Promise<Answer>,
  ) =>
  async (c: Context): Promise<Response> => {
    const context = `${route.method} ${route.path}`;
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
        : await ctx.tokens.verify(c.req.header("Authorization"));
      if (fault === "202" && caller) {
        const later = Promise.resolve().then(() => operation(c, caller)).then(
          respond,
          (e) => errorResponse(e, log, context),
        );
        return respond(
          accepted(c, ctx.operations.begin(caller.account.id, later)),
        );
      }
      const response = respond(await operation(c, caller));
      if (fault === "lost-500" || fault === "lost-drop") {
        // The work is done and committed; only its answer is lost.
        await response.body?.cancel();
        return lostAnswer(fault);
      }
      return response;
    } catch (error) {
      return errorResponse(error, log, context);
    }
  };

  app.get("/operations/:id", async (c) => {
    try {
      const caller = await ctx.tokens.verify(c.req.header("Authorization"));
      const op = ctx.operations.lookup(caller.account.id, c.req.param("id"));
      if (!op) throw notFound("operation", c.req.param("id"));
      if (!op.response) return respond(accepted(c, c.req.param("id")));
      return new Response(
        op.response.status === 204 ? null : op.response.body,
        {
          status: op.response.status,
          headers: op.response.headers,
        },
      );
    } catch (error) {
      return errorResponse(error, log, "GET /operations/{id}");
    }
  });

  const operations = operationTable(ctx);
  for (const [group, ops] of Object.entries(routes)) {
    for (const [name, route] of Object.entries(ops as Record<string, Route>)) {
      const operation = operations(group, name, route);
      const path = route.path.replace(/\{(\w+)\}/g, ":$1");
      const handler = wrap(route, operation);
      if (route.method === "GET") app.get(path, handler);
      else if (route.method === "POST") app.post(path, handler);
      else app.delete(path, handler);
    }
  }

  app.notFound((c) =>
    Response.json(
      {
        message: `No operation ${c.req.method} ${
          new URL(c.req.url).pathname
        }; see ${new URL("/docs", c.req.url).href} for the API.`,
        error_code: ERROR_CODES.notFound,
      } satisfies ErrorBody,
      { status: 404 },
    )
  );
  app.onError((error) => errorResponse(error, log));
  return app;
}

/** Maps each route of the table to the function that answers it. */
function operationTable(ctx: PlatformContext) {
  return (
    group: string,
    name: string,
    route: Route,
  ): (c: Context, caller: Caller | undefined) => Answer | Promise<Answer> => {
    const key = `${group}.${name}`;
    if (key === "auth.token") {
      return async (c) => {
        const body = await tokenBody(c.req.raw, ctx.settings.limits);
        return {
          status: route.status,
          body: await ctx.tokens.issue(body.client_id, body.client_secret),
          headers: { "Cache-Control": "no-store" },
        };
      };
    }
    if (key === "accounts.list") {
      return (c, caller) => {
        const visible = ctx.operator.accounts.filter((a) =>
          a.id === caller!.account.id
        );
        return {
          status: 200,
          body: pageOf(visible.map(accountBody), listQuery(c)),
        };
      };
    }
    if (key === "accounts.get") {
      return (c, caller) => {
        const id = c.req.param("id")!;
        const account = ctx.operator.accounts.find((a) => a.id === id);
        if (!account) throw notFound("account", id);
        if (account.id !== caller!.account.id) {
          throw forbidden(
            `These credentials belong to account ${
              caller!.account.id
            } and cannot see account ${id}; use that account's credentials.`,
          );
        }
        return {
          status: 200,
          body: pageOf([accountBody(account)], FIRST_PAGE),
        };
      };
    }
    if (key === "deployedModels.views") {
      return async (c, caller) => {
        const id = c.req.param("id")!;
        const body = await jsonBody(
          c.req.raw,
          route.body!,
          ctx.settings.limits,
        ) as ParsedViews;
        const { model, rows, concurrency } = prepareViews(
          ctx,
          caller!,
          id,
          body,
        );
        const run = () =>
          ctx.serving.run(
            id,
            concurrency,
            ctx.settings.viewsQueueSize,
            () => computeViews(model, body, rows),
          );
        const headers = { "Cache-Control": "no-store" };
        if (rows > ctx.settings.viewsAsyncRows) {
          const later = run().then(
            (table) => respond({ status: 200, body: table, headers }),
            (e) => errorResponse(e, ctx.log, "views"),
          );
          return accepted(c, ctx.operations.begin(caller!.account.id, later));
        }
        return { status: 200, body: await run(), headers };
      };
    }
    if (
      name === "cancel" &&
      (group === "ingestionJobs" || group === "onboardingJobs" ||
        group === "trainingJobs")
    ) {
      return async (c, caller) => ({
        status: 200,
        body: (await cancelJob(ctx, caller!, group, c.req.param("id")!)).body,
      });
    }
    if (key === "models.explanation") {
      return (c, caller) => ({
        status: 200,
        body: explanationOf(ctx, caller!, c.req.param("id")!),
      });
    }
    if (!isKind(group)) {
      throw new Error(`No handler for ${key}: add one to the local platform.`);
    }
    const kind = group;
    switch (name) {
      case "create": {
        const create = CREATE[kind];
        if (!create) break;
        return async (c, caller) => {
          const body = await jsonBody(
            c.req.raw,
            route.body!,
            ctx.settings.limits,
          );
          const record = await create(ctx, caller!, body, c.req.raw);
          return { status: route.status, body: record.body };
        };
      }
      case "get":
        return (c, caller) => ({
          status: 200,
          body:
            findOwned(ctx.store, caller!.account.id, kind, c.req.param("id")!)
              .body,
        });
      case "list":
        return (c, caller) => ({
          status: 200,
          body: pageOf(
            ctx.store.list(kind, caller!.account.id).map((r) => r.body),
            listQuery(c),
          ),
        });
      case "delete":
        return (c, caller) => {
          const record = findOwned(
            ctx.store,
            caller!.account.id,
            kind,
            c.req.param("id")!,
          );
          DELETE_HOOKS[kind]?.before?.(ctx, record);
          const dependants = dependantsOf(ctx.store, record);
          if (dependants.length) {
            throw integrityError(KINDS[kind].noun, record.id, dependants);
          }
          ctx.store.remove(kind, record.id);
          DELETE_HOOKS[kind]?.after?.(ctx, record);
          return { status: 204 };
        };
    }
    throw new Error(`No handler for ${key}: add one to the local platform.`);
  };
}

function accountBody(
  a: PlatformContext["operator"]["accounts"][number],
): Account {
  return {
    id: a.id,
    name: a.name,
    status: a.status,
    organisation: a.organisation,
    created_at: a.created_at,
    updated_at: null,
  };
}
