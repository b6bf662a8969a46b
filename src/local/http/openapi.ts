/**
 * The OpenAPI 3.1 document of the local platform, generated from the shared
 * route table and zod schemas (their JSON Schemas: openapi_schemas.ts): every
 * operation with its parameters, request body, every answer it can give, a
 * description, its tag, and the OAuth 2.0 client-credentials scheme.
 *
 * @example
 * ```ts
 * import { openApiDocument } from "./openapi.ts";
 * const doc = openApiDocument("http://localhost:8787");
 * if (doc.openapi !== "3.1.0" || !doc.paths["/oauth/token"]) throw new Error();
 * ```
 *
 * @module
 */
import { z } from "zod";
import {
  ConflictErrorBodySchema,
  ErrorBodySchema,
  IntegrityErrorBodySchema,
  KINDS,
  ListQuerySchema,
  type Route,
  routes,
  ServerErrorBodySchema,
  TokenRequestSchema,
  UnauthorizedBodySchema,
  ValidationErrorBodySchema,
} from "../../schemas/mod.ts";
import { Components, type IO, JSON_SCHEMA, uri } from "./openapi_schemas.ts";

/** A JSON object (schemas and the parts of the document left open). */
export type Json = Record<string, unknown>;

/** One parameter of an operation. */
export interface OpenApiParameter {
  /** Its name. */
  name: string;
  /** Where it goes. */
  in: "path" | "query" | "header";
  /** Whether it must be sent. */
  required?: boolean;
  /** Its JSON Schema. */
  schema: Json;
  /** Description, example, ... */
  [key: string]: unknown;
}

/** A body of one media type. */
export interface OpenApiContent {
  /** Its JSON Schema. */
  schema: Json;
}

/** One answer of an operation. */
export interface OpenApiResponse {
  /** What it means. */
  description: string;
  /** Its body by media type (none for a 204). */
  content?: Record<string, OpenApiContent>;
  /** Headers it carries. */
  headers?: Json;
}

/** One operation (a method of a path). */
export interface OpenApiOperation {
  /** `<group>_<name>` of the route table. */
  operationId: string;
  /** One line. */
  summary: string;
  /** The route group. */
  tags: string[];
  /** What it does, and where the docs say more. */
  description: string;
  /** Path, query and header parameters. */
  parameters?: OpenApiParameter[];
  /** Empty for the public token call, the OAuth2 scheme otherwise. */
  security: Json[];
  /** The request body, when there is one. */
  requestBody?: { required: boolean; content: Record<string, OpenApiContent> };
  /** Answers by status. */
  responses: Record<string, OpenApiResponse>;
}

/** The document's shape. */
export interface OpenApiDocument {
  /** OpenAPI version. */
  openapi: string;
  /** Title, version, description, licence. */
  info: {
    title: string;
    version: string;
    description: string;
    license: { name: string; identifier: string };
    contact: { name: string };
  };
  /** The server's URL. */
  servers: Json[];
  /** Every tag an operation uses, with what it groups. */
  tags: { name: string; description: string }[];
  /** Operations by path, then method. */
  paths: Record<string, Record<string, OpenApiOperation>>;
  /** Named schemas and the security scheme. */
  components: { schemas: Record<string, Json>; securitySchemes: Json };
}

let cached: { origin: string; doc: OpenApiDocument } | undefined;

/** One OpenAPI parameter (a string unless `schema` says otherwise). */
function parameter(
  name: string,
  where: "path" | "query" | "header",
  extra: Json = {},
): OpenApiParameter {
  return {
    name,
    in: where,
    ...(where === "path" ? { required: true } : {}),
    schema: { type: "string" },
    ...extra,
  };
}

/** The path parameters of a route template (`{id}`). */
function pathParameters(path: string): OpenApiParameter[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map(([, p]) => parameter(p, "path"));
}

/** The operation's description: the route's own, or what its kind does. */
function describe(group: string, name: string, route: Route): string {
  const noun = route.noun ?? "resource";
  const where = route.spec
    ? ` Endpoint ${route.spec} of docs/api.md#endpoints.`
    : " See docs/contract.md#paths.";
  if (route.description) return route.description;
  const job = group in KINDS &&
    "produces" in KINDS[group as keyof typeof KINDS];
  switch (name) {
    case "create":
      return `Creates a ${noun} from the body (fields with a default may be left out). Names are unique per collection in an account: a taken name answers 409 CONFLICT.${
        job
          ? ` The job starts STARTING and runs in the background: poll it until COMPLETED (docs/contract.md#jobs-and-deployments).`
          : ""
      }${where}`;
    case "get":
      return `Retrieves one ${noun} of the caller's account by id; another account's id answers 404.${where}`;
    case "list":
      return `Lists the ${noun}s of the caller's account, one page at a time (page, items_per_page; docs/contract.md#lists).${where}`;
    case "delete":
      return `Deletes a ${noun}. A resource other resources depend on is kept and answered 409 INTEGRITY_ERROR with its dependants (docs/contract.md#errors).${where}`;
    case "cancel":
      return `Cancels a running ${noun}: it stops and ends CANCELLED. Cancelling one that has ended answers 409 CONFLICT (docs/contract.md#jobs-and-deployments).`;
    default:
      return `${route.summary}.${where}`;
  }
}

/** What each tag (a route-table group) holds. */
function tagDescription(group: string): string {
  if (group === "auth") return "Access tokens (OAuth 2.0 client credentials)";
  if (group === "accounts") return "Accounts, made by the operator";
  if (group === "operations") {
    return "Results of operations answered 202 Accepted";
  }
  const kind = KINDS[group as keyof typeof KINDS];
  return kind ? `${kind.title[0].toUpperCase()}${kind.title.slice(1)}s` : group;
}

/**
 * Builds (once per origin) the OpenAPI 3.1 document.
 *
 * @param origin The server URL listed in `servers`.
 */
export function openApiDocument(
  origin = "http://localhost:8787",
): OpenApiDocument {
  if (cached?.origin === origin) return cached.doc;
  const components = new Components();
  const schemaOf = (schema: z.ZodType, io: IO): Json =>
    components.use(schema, io);
  const json = (schema: Json) => ({ "application/json": { schema } });
  const errorResponse = (description: string, schema: z.ZodType) => ({
    description,
    content: json(schemaOf(schema, "output")),
  });
  const retryAfter = {
    "Retry-After": {
      description: "Seconds to wait before retrying",
      schema: { type: "integer", minimum: 0 },
    },
  };
  const errors = {
    "400": errorResponse(
      "Invalid request: the errors name each offending field",
      ValidationErrorBodySchema,
    ),
    "401": {
      ...errorResponse(
        "Missing, invalid or expired access token: get a new one from POST /oauth/token",
        UnauthorizedBodySchema,
      ),
      headers: {
        "WWW-Authenticate": {
          description: "The authentication scheme to use (Bearer)",
          schema: { type: "string" },
        },
      },
    },
    "403": errorResponse(
      "The credentials' account may not do this (it is not ACTIVE)",
      ErrorBodySchema,
    ),
    "404": errorResponse(
      "No such resource in this account",
      ErrorBodySchema,
    ),
    "409": {
      description:
        "Conflict, told apart by error_code: CONFLICT (a taken name, a job that has ended) or INTEGRITY_ERROR (dependants block a delete; they are listed)",
      content: json({
        oneOf: [
          schemaOf(ConflictErrorBodySchema, "output"),
          schemaOf(IntegrityErrorBodySchema, "output"),
        ],
        discriminator: {
          propertyName: "error_code",
          mapping: {
            CONFLICT: uri("ConflictError"),
            INTEGRITY_ERROR: uri("IntegrityError"),
          },
        },
      }),
    },
    "413": errorResponse(
      "The request body is larger than the platform accepts",
      ErrorBodySchema,
    ),
    "415": errorResponse(
      "The request body is not of the media type the operation takes",
      ErrorBodySchema,
    ),
    "429": {
      ...errorResponse(
        "Too many requests: retry after Retry-After seconds",
        ErrorBodySchema,
      ),
      headers: retryAfter,
    },
    "500": errorResponse(
      "Unexpected failure; error_reference identifies it in the server log",
      ServerErrorBodySchema,
    ),
  };
  const accepted: OpenApiResponse = {
    description:
      "Accepted: the result is not ready; poll the Location URL (GET /operations/{id}) until it answers the final result",
    headers: {
      Location: {
        description: "The URL to poll for the final answer",
        required: true,
        schema: { type: "string", format: "uri" },
      },
    },
  };

  // Query parameters with the bounds and defaults of their schema.
  const queryParameters = (query: z.ZodObject) =>
    Object.entries(query.shape).map(([name, field]) => {
      const { $schema: _, ...schema } = z.toJSONSchema(field as z.ZodType, {
        ...JSON_SCHEMA,
        io: "input",
      });
      return parameter(name, "query", {
        schema,
        description: name === "page"
          ? "Page number, from 1"
          : name === "items_per_page"
          // Its own bounds: a list's 1 to 100, a results page's 1 to 10000.
          ? `Items a page, ${schema.minimum} to ${schema.maximum}`
          : field.description ?? name,
      });
    });
  // page and items_per_page of lists.
  const listParameters = queryParameters(ListQuerySchema);

  const security = [{ oauth2: [] }];
  const paths: OpenApiDocument["paths"] = {};
  const tags = new Set<string>();
  /** The final answers of every operation, by status, for the 202 poll. */
  const finals = new Map<string, Set<z.ZodType>>();
  const table: Record<string, Record<string, Route>> = routes;
  for (const [group, ops] of Object.entries(table)) {
    for (const [name, route] of Object.entries(ops)) {
      const parameters = pathParameters(route.path);
      if (route.list) parameters.push(...listParameters);
      if (route.query) parameters.push(...queryParameters(route.query));
      if (route.workspace) {
        parameters.push(
          parameter("X-Active-Workspace", "header", {
            required: true,
            description: "Id of the workspace the job runs in",
          }),
        );
      }
      if (route.views) {
        parameters.push(
          parameter("X-Views-Cache-Control", "header", {
            required: false,
            description: "Cache directive for the views answer",
            example: "no-cache, no-store",
          }),
        );
      }
      const success: OpenApiResponse = route.response
        ? {
          description: route.status === 201 ? "Created" : "Success",
          content: json(schemaOf(route.response, "output")),
        }
        : { description: "Deleted (no body)" };
      const status = String(route.status);
      const answers = finals.get(status) ?? new Set();
      if (route.response) answers.add(route.response);
      finals.set(status, answers);
      const bodyErrors: Record<string, OpenApiResponse> =
        route.body || route.public
          ? { "413": errors["413"], "415": errors["415"] }
          : {};
      tags.add(group);
      const operation: OpenApiOperation = {
        operationId: `${group}_${name}`,
        summary: route.summary,
        description: describe(group, name, route),
        tags: [group],
        ...(parameters.length ? { parameters } : {}),
        security: route.public ? [] : security,
        responses: {
          [status]: success,
          ...(route.public ? {} : { "202": accepted }),
          ...(route.public
            ? {
              "400": errors["400"],
              "401": {
                ...errorResponse(
                  "Unknown client_id or wrong client_secret (OAuth 2.0 invalid_client)",
                  UnauthorizedBodySchema,
                ),
              },
              ...bodyErrors,
              "429": errors["429"],
              "500": errors["500"],
            }
            : {
              ...(route.body || route.list || route.path.includes("{")
                ? { "400": errors["400"] }
                : {}),
              "401": errors["401"],
              "403": errors["403"],
              "404": errors["404"],
              ...(route.method === "GET" ? {} : { "409": errors["409"] }),
              ...bodyErrors,
              "429": errors["429"],
              "500": errors["500"],
            }),
        },
      };
      if (route.public) {
        // Form-encoded, as docs/api.md#endpoints has it; JSON is taken too
        // (docs/contract.md#errors), and any other media type is a 415.
        const schema = schemaOf(TokenRequestSchema, "input");
        operation.requestBody = {
          required: true,
          content: {
            "application/x-www-form-urlencoded": { schema },
            "application/json": { schema },
          },
        };
      } else if (route.body) {
        operation.requestBody = {
          required: true,
          content: json(schemaOf(route.body, "input")),
        };
      }
      (paths[route.path] ??= {})[route.method.toLowerCase()] = operation;
    }
  }
  // The poll answers, once ready, what the operation would have: any final
  // answer of any operation, with its own status.
  const pollResponses: Record<string, OpenApiResponse> = {};
  for (const [status, schemas] of finals) {
    pollResponses[status] = schemas.size
      ? {
        description:
          "The final answer of the operation that was accepted, with its own status",
        content: json({
          anyOf: [...schemas].map((s) => schemaOf(s, "output")),
        }),
      }
      : { description: "The final answer of the operation: no body" };
  }
  tags.add("operations");
  paths["/operations/{id}"] = {
    get: {
      operationId: "operations_get",
      summary: "Result of an operation answered 202 (202 again while pending)",
      description:
        "Polls an operation answered 202 Accepted: 202 again while it runs, then the operation's own final answer, success or error, as the original call would have given it (docs/contract.md#202-accepted). Another account's operation is unknown (404).",
      tags: ["operations"],
      parameters: pathParameters("/operations/{id}"),
      security,
      responses: {
        ...pollResponses,
        "202": { ...accepted, description: "Still running: poll again" },
        "400": errors["400"],
        "401": errors["401"],
        "403": errors["403"],
        "404": errors["404"],
        "409": errors["409"],
        "413": errors["413"],
        "415": errors["415"],
        "429": errors["429"],
        "500": errors["500"],
      },
    },
  };
  const doc: OpenApiDocument = {
    openapi: "3.1.0",
    info: {
      title: "Machine-learning platform API (local platform)",
      version: "1.0.0",
      description:
        "The platform's REST API (docs/api.md#endpoints, with the choices of docs/contract.md#paths where the published API is silent), served by @mlplatform/sdk's local platform. Every operation except POST /oauth/token needs an access token from that endpoint (OAuth 2.0 client credentials), sent as 'Authorization: Bearer <token>'. Answer shapes are closed: they list every field the local platform sends; clients of the hosted service should still keep fields it may add (docs/api.md#conventions).",
      license: { name: "MIT", identifier: "MIT" },
      contact: { name: "@mlplatform/sdk maintainers" },
    },
    servers: [{ url: origin, description: "This local platform" }],
    tags: [...tags].map((name) => ({
      name,
      description: tagDescription(name),
    })),
    paths,
    components: {
      schemas: components.schemas(),
      securitySchemes: {
        oauth2: {
          type: "oauth2",
          description:
            "OAuth 2.0 client credentials: POST /oauth/token with client_id and client_secret gives a bearer token",
          flows: {
            clientCredentials: {
              tokenUrl: `${origin}/oauth/token`,
              scopes: {},
            },
          },
        },
      },
    },
  };
  cached = { origin, doc };
  return doc;
}
