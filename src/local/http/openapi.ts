/**
 * The OpenAPI 3.1 document of the local platform, generated from the shared
 * route table and zod schemas with zod 4's native `z.toJSONSchema` (JSON
 * Schema 2020-12, which OpenAPI 3.1 uses as is). Schemas carrying a
 * `.meta({ id })` become named components.
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
  ErrorBodySchema,
  IntegrityErrorBodySchema,
  ListQuerySchema,
  type Route,
  routes,
  ServerErrorBodySchema,
  TokenRequestSchema,
  UnauthorizedBodySchema,
  ValidationErrorBodySchema,
} from "../../schemas/mod.ts";

type Json = Record<string, unknown>;

/** The document's shape (loosely typed: it is plain JSON). */
export interface OpenApiDocument {
  openapi: string;
  info: Json;
  servers: Json[];
  paths: Record<string, Record<string, Json>>;
  components: { schemas: Record<string, Json>; securitySchemes: Json };
  [key: string]: unknown;
}

let cached: { origin: string; doc: OpenApiDocument } | undefined;

/** One OpenAPI parameter (a string unless `schema` says otherwise). */
function parameter(
  name: string,
  where: "path" | "query" | "header",
  extra: Json = {},
): Json {
  return {
    name,
    in: where,
    ...(where === "path" ? { required: true } : {}),
    schema: { type: "string" },
    ...extra,
  };
}

/** The path parameters of a route template (`{id}`). */
function pathParameters(path: string): Json[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map(([, p]) => parameter(p, "path"));
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
  const components: Record<string, Json> = {};
  // Turns a zod schema into JSON Schema with refs into components.
  const schemaOf = (schema: z.ZodType, io: "input" | "output"): Json => {
    const json = z.toJSONSchema(schema, {
      target: "draft-2020-12",
      io,
      unrepresentable: "any",
    }) as Json;
    const defs = (json.$defs ?? {}) as Record<string, Json>;
    delete json.$defs;
    delete json.$schema;
    // Input and output of one schema can differ (defaults): name each variant.
    const rename: Record<string, string> = {};
    for (const [id, def] of Object.entries(defs)) {
      const text = JSON.stringify(def);
      const existing = components[id];
      rename[id] = existing && JSON.stringify(existing) !== text
        ? `${id}_${io}`
        : id;
    }
    const fix = (value: Json): Json =>
      JSON.parse(
        JSON.stringify(value).replace(
          /"#\/\$defs\/([^"]+)"/g,
          (_, id: string) => `"#/components/schemas/${rename[id] ?? id}"`,
        ),
      );
    for (const [id, def] of Object.entries(defs)) {
      components[rename[id]] ??= fix(def);
    }
    return fix(json);
  };

  const errorResponse = (description: string, schema: z.ZodType) => ({
    description,
    content: { "application/json": { schema: schemaOf(schema, "output") } },
  });
  const errors = {
    "400": errorResponse(
      "Invalid request: the errors name each offending field",
      ValidationErrorBodySchema,
    ),
    "401": errorResponse(
      "Missing, invalid or expired access token",
      UnauthorizedBodySchema,
    ),
    "403": errorResponse("The credentials may not do this", ErrorBodySchema),
    "404": errorResponse("No such resource in this account", ErrorBodySchema),
    "409": {
      description:
        "Conflict (duplicate name, wrong state) or integrity error (dependants block a delete)",
      content: {
        "application/json": {
          schema: {
            oneOf: [
              schemaOf(IntegrityErrorBodySchema, "output"),
              schemaOf(ErrorBodySchema, "output"),
            ],
          },
        },
      },
    },
    "429": {
      ...errorResponse(
        "Too many requests: retry after Retry-After seconds",
        ErrorBodySchema,
      ),
      headers: { "Retry-After": { schema: { type: "integer" } } },
    },
    "500": errorResponse(
      "Unexpected failure; error_reference identifies it in the server log",
      ServerErrorBodySchema,
    ),
  };

  // page and items_per_page, with the bounds and defaults of the schema.
  const listParameters = Object.entries(
    schemaOf(ListQuerySchema, "input").properties as Record<string, Json>,
  ).map(([name, schema]) => parameter(name, "query", { schema }));

  const paths: OpenApiDocument["paths"] = {};
  for (const [group, ops] of Object.entries(routes)) {
    for (const [name, route] of Object.entries(ops as Record<string, Route>)) {
      const parameters = pathParameters(route.path);
      if (route.list) parameters.push(...listParameters);
      if (route.workspace) {
        parameters.push(
          parameter("X-Active-Workspace", "header", {
            required: true,
            description: "Workspace id",
          }),
        );
      }
      if (route.views) {
        parameters.push(
          parameter("X-Views-Cache-Control", "header", {
            required: false,
            example: "no-cache, no-store",
          }),
        );
      }
      const success: Json = route.response
        ? {
          description: "Success",
          content: {
            "application/json": { schema: schemaOf(route.response, "output") },
          },
        }
        : { description: "Deleted (no body)" };
      const operation: Json = {
        operationId: `${group}_${name}`,
        summary: route.summary,
        tags: [group],
        ...(route.spec
          ? { description: `SPEC.md section 4, endpoint ${route.spec}.` }
          : {}),
        ...(parameters.length ? { parameters } : {}),
        security: route.public ? [] : [{ bearerAuth: [] }],
        responses: {
          [String(route.status)]: success,
          "202": {
            description:
              "Accepted: poll the Location URL until the final answer",
            headers: {
              Location: { schema: { type: "string", format: "uri" } },
            },
          },
          ...(route.public
            ? {
              "400": errors["400"],
              "401": errors["401"],
              "500": errors["500"],
            }
            : errors),
        },
      };
      if (route.public) {
        operation.requestBody = {
          required: true,
          content: {
            "application/x-www-form-urlencoded": {
              schema: schemaOf(TokenRequestSchema, "input"),
            },
          },
        };
      } else if (route.body) {
        operation.requestBody = {
          required: true,
          content: {
            "application/json": { schema: schemaOf(route.body, "input") },
          },
        };
      }
      (paths[route.path] ??= {})[route.method.toLowerCase()] = operation;
    }
  }
  paths["/operations/{id}"] = {
    get: {
      operationId: "operations_get",
      summary: "Result of an operation answered 202 (202 again while pending)",
      tags: ["operations"],
      parameters: pathParameters("/operations/{id}"),
      security: [{ bearerAuth: [] }],
      responses: {
        "200": {
          description:
            "The final answer of the original operation (its own status)",
        },
        "202": { description: "Still running: poll again" },
        "401": errors["401"],
        "404": errors["404"],
      },
    },
  };
  const doc: OpenApiDocument = {
    openapi: "3.1.0",
    info: {
      title: "Machine-learning platform API (local platform)",
      version: "1.0.0",
      description:
        "The REST API of SPEC.md, served by @mlplatform/sdk's local platform. Every operation except POST /oauth/token needs 'Authorization: Bearer <token>'.",
    },
    servers: [{ url: origin }],
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
      },
    },
  };
  cached = { origin, doc };
  return doc;
}
