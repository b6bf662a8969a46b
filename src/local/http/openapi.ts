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
  /** Where SPEC.md shows it. */
  description?: string;
  /** Path, query and header parameters. */
  parameters?: OpenApiParameter[];
  /** Empty for the public token call, bearer otherwise. */
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
  /** Title, version, description. */
  info: { title: string; version: string; description: string };
  /** The server's URL. */
  servers: Json[];
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

/** Which side of a schema: what a client sends, or what the server answers. */
type IO = "input" | "output";

const JSON_SCHEMA = {
  target: "draft-2020-12",
  unrepresentable: "any",
} as const;

/**
 * The document's named schemas, made by zod's `z.toJSONSchema` from a
 * registry: every schema carrying a `.meta({ id })` becomes a component
 * that the others reference through the registry's `uri`, so no `$ref` is
 * rewritten afterwards. A schema used both in requests and in answers whose
 * two sides differ (defaults) gets a second component, `<id>_input`.
 */
class Components {
  #used: { schema: z.ZodType; io: IO; key: string; slot: Json }[] = [];
  #named = new Map<string, z.ZodType>();
  /** On which sides each named schema is used. */
  #sides = new Map<string, Set<IO>>();
  #inputNames = new Set<string>();

  /**
   * A schema's place in the document: an object filled by
   * {@linkcode Components.schemas} with a `$ref` (named schemas) or the
   * schema inline, once every schema of the document is known.
   */
  use(schema: z.ZodType, io: IO): Json {
    const slot: Json = {};
    this.#used.push({ schema, io, key: `used_${this.#used.length}`, slot });
    this.#collect(schema, io);
    return slot;
  }

  /** Finds the named schemas `schema` holds (zod calls `override` on each). */
  #collect(schema: z.ZodType, io: IO): void {
    z.toJSONSchema(schema, {
      ...JSON_SCHEMA,
      io,
      override: ({ zodSchema }) => {
        const id = z.globalRegistry.get(zodSchema)?.id;
        if (typeof id === "string" && zodSchema instanceof z.ZodType) {
          this.#named.set(id, zodSchema);
          const sides = this.#sides.get(id) ?? new Set();
          this.#sides.set(id, sides.add(io));
        }
      },
    });
  }

  #resolve(
    schema: z.ZodType,
    io: IO,
    key: string,
    built: Record<IO, Record<string, Json>>,
  ): Json {
    const id = z.globalRegistry.get(schema)?.id;
    if (typeof id === "string") return { $ref: uri(this.#name(id, io)) };
    return built[io][key];
  }

  #name(id: string, io: IO): string {
    return io === "input" && this.#inputNames.has(id) ? `${id}_input` : id;
  }

  /** Every schema, both sides, with input-only names settled. */
  #build(): Record<IO, Record<string, Json>> {
    const generate = (io: IO) => {
      const registry = z.registry<{ id: string }>();
      for (const [id, schema] of this.#named) registry.add(schema, { id });
      for (const used of this.#used) {
        if (used.io === io && !z.globalRegistry.get(used.schema)?.id) {
          registry.add(used.schema, { id: used.key });
        }
      }
      const { schemas } = z.toJSONSchema(registry, {
        ...JSON_SCHEMA,
        io,
        uri: (id) => uri(this.#name(id, io)),
      });
      const out: Record<string, Json> = {};
      for (const [id, json] of Object.entries(schemas)) {
        const { $id: _id, $schema: _schema, ...rest } = json;
        out[id] = rest;
      }
      return out;
    };
    const output = generate("output");
    // An input side that differs from the output side gets its own name;
    // repeat until no reference changes what differs.
    let input = generate("input");
    for (;;) {
      const before = this.#inputNames.size;
      for (const id of this.#named.keys()) {
        const both = this.#sides.get(id)?.size === 2;
        if (both && JSON.stringify(input[id]) !== JSON.stringify(output[id])) {
          this.#inputNames.add(id);
        }
      }
      if (this.#inputNames.size === before) break;
      input = generate("input");
    }
    return { input, output };
  }

  /**
   * Fills every place {@linkcode Components.use} gave out, and returns the
   * components section: each named schema on the side it is used on (the
   * output side when used on both), then the differing input sides.
   */
  schemas(): Record<string, Json> {
    const built = this.#build();
    for (const { schema, io, key, slot } of this.#used) {
      Object.assign(slot, this.#resolve(schema, io, key, built));
    }
    const out: Record<string, Json> = {};
    for (const id of this.#named.keys()) {
      out[id] = this.#sides.get(id)?.has("output")
        ? built.output[id]
        : built.input[id];
    }
    for (const id of this.#inputNames) out[`${id}_input`] = built.input[id];
    return out;
  }
}

function uri(name: string): string {
  return `#/components/schemas/${name}`;
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

  // Query parameters with the bounds and defaults of their schema.
  const queryParameters = (query: z.ZodObject) =>
    Object.entries(query.shape).map(([name, field]) => {
      const { $schema: _, ...schema } = z.toJSONSchema(field as z.ZodType, {
        ...JSON_SCHEMA,
        io: "input",
      });
      return parameter(name, "query", { schema });
    });
  // page and items_per_page of lists.
  const listParameters = queryParameters(ListQuerySchema);

  const paths: OpenApiDocument["paths"] = {};
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
      const success: OpenApiResponse = route.response
        ? {
          description: "Success",
          content: {
            "application/json": { schema: schemaOf(route.response, "output") },
          },
        }
        : { description: "Deleted (no body)" };
      const operation: OpenApiOperation = {
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
      schemas: components.schemas(),
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
      },
    },
  };
  cached = { origin, doc };
  return doc;
}
