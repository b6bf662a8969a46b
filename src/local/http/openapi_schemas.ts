/**
 * The JSON Schemas of the OpenAPI document, made from the zod schemas with
 * zod 4's native `z.toJSONSchema` (JSON Schema 2020-12, which OpenAPI 3.1
 * uses as is): answer schemas as named components, closed
 * (`additionalProperties: false`); request schemas inline under each request
 * body.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * import { Components } from "./openapi_schemas.ts";
 * const components = new Components();
 * const slot = components.use(z.looseObject({ n: z.number() }), "output");
 * components.schemas();
 * if (slot.additionalProperties !== false) throw new Error("answers are closed");
 * ```
 *
 * @module
 */
import { z } from "zod";

/** A JSON object (schemas and the parts of the document left open). */
type Json = Record<string, unknown>;

/** Which side of a schema: what a client sends, or what the server answers. */
export type IO = "input" | "output";

export const JSON_SCHEMA = {
  target: "draft-2020-12",
  unrepresentable: "any",
} as const;

/** Where the input side's named schemas point before they are inlined. */
const INPUT_REF = "#/input/";

/**
 * The document's schemas, made by zod's `z.toJSONSchema` from a registry.
 * On the answer side, every schema carrying a `.meta({ id })` becomes a
 * component the others reference through the registry's `uri`, so no
 * `$ref` is rewritten afterwards. The request side is written inline under
 * each request body, named schemas included (with their id as `title`):
 * generators such as openapi-typescript read a field with a `default` as
 * optional only there, so a request field with a default is optional in the
 * types they generate, as it is on the wire.
 */
export class Components {
  #used: { schema: z.ZodType; io: IO; key: string; slot: Json }[] = [];
  #named = new Map<string, z.ZodType>();
  /** On which sides each named schema is used. */
  #sides = new Map<string, Set<IO>>();

  /**
   * A schema's place in the document: an object filled by
   * {@linkcode Components.schemas} with a `$ref` (named answer schemas) or
   * the schema inline, once every schema of the document is known.
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

  /** Every schema of one side, by id (named) or by use key. */
  #generate(io: IO): Record<string, Json> {
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
      uri: (id) => io === "output" ? uri(id) : `${INPUT_REF}${id}`,
    });
    const out: Record<string, Json> = {};
    for (const [id, json] of Object.entries(schemas)) {
      const { $id: _id, $schema: _schema, ...rest } = json;
      out[id] = io === "output" ? closed(rest) : rest;
    }
    return out;
  }

  /**
   * Fills every place {@linkcode Components.use} gave out, and returns the
   * components section: each named schema used in an answer.
   */
  schemas(): Record<string, Json> {
    const output = this.#generate("output");
    const input = this.#generate("input");
    for (const { schema, io, key, slot } of this.#used) {
      const id = z.globalRegistry.get(schema)?.id;
      if (io === "output") {
        Object.assign(
          slot,
          typeof id === "string" ? { $ref: uri(id) } : output[key],
        );
      } else {
        Object.assign(
          slot,
          inlined(input[typeof id === "string" ? id : key], input),
        );
        if (typeof id === "string") slot.title = id;
      }
    }
    const out: Record<string, Json> = {};
    for (const id of this.#named.keys()) {
      if (this.#sides.get(id)?.has("output")) out[id] = output[id];
    }
    return out;
  }
}

/**
 * `schema` with every input-side reference replaced by the schema it names
 * (request schemas have no cycles: a cycle throws rather than loops).
 */
function inlined(
  schema: Json,
  named: Record<string, Json>,
  path: string[] = [],
): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (
      key === "$ref" && typeof value === "string" && value.startsWith(INPUT_REF)
    ) {
      const id = value.slice(INPUT_REF.length);
      if (path.includes(id)) {
        throw new Error(
          `request schema ${id} refers to itself: ${path.join(" -> ")}`,
        );
      }
      Object.assign(out, inlined(named[id], named, [...path, id]), {
        title: id,
      });
    } else if (
      DATA_KEYS.has(key) || value === null || typeof value !== "object"
    ) {
      out[key] = value;
    } else if (Array.isArray(value)) {
      out[key] = value.map((v) =>
        v && typeof v === "object" && !Array.isArray(v)
          ? inlined(v as Json, named, path)
          : v
      );
    } else {
      out[key] = inlined(value as Json, named, path);
    }
  }
  return out;
}

/** Keys whose values are data, not schemas. */
const DATA_KEYS = new Set(["examples", "default", "const", "enum"]);

/**
 * `schema` with every object that lists its properties closed
 * (`additionalProperties: false`): the answers of the local platform carry
 * exactly the fields the schemas declare, so a validator can catch one that
 * does not. The zod schemas stay tolerant for the client, which must keep
 * fields a newer service adds (docs/api.md#conventions); maps such as a
 * views query (`additionalProperties` a schema) are left as they are.
 */
function closed(schema: Json): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DATA_KEYS.has(key) || value === null || typeof value !== "object") {
      out[key] = value;
    } else if (Array.isArray(value)) {
      out[key] = value.map((v) =>
        v && typeof v === "object" && !Array.isArray(v) ? closed(v as Json) : v
      );
    } else if (key === "properties") {
      out[key] = Object.fromEntries(
        Object.entries(value as Json).map(([k, v]) => [k, closed(v as Json)]),
      );
    } else {
      out[key] = closed(value as Json);
    }
  }
  const open = out.additionalProperties;
  if (
    out.properties &&
    (open === undefined ||
      (typeof open === "object" && open !== null &&
        Object.keys(open).length === 0))
  ) out.additionalProperties = false;
  return out;
}

/** The reference to the component `name`. */
export function uri(name: string): string {
  return `#/components/schemas/${name}`;
}
