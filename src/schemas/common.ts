// deno-doc-ignore-file private-type-ref missing-explicit-type missing-return-type -- wire types are inferred from these zod schemas (one source of truth), so they name zod's own types
/**
 * Building blocks shared by every wire shape: identifiers, timestamps,
 * `{id,name}` references, open enumerations and the paginated list envelope.
 *
 * docs/api.md#conventions says the service may add fields and enum values at any
 * time, so response schemas here are *tolerant*: objects keep unknown keys
 * ({@linkcode z.looseObject}) and enums accept any string ({@linkcode openEnum}).
 * Request schemas are strict about the values we know, so a typo is caught
 * before it is sent.
 *
 * @module
 */
import { z } from "zod";

/** A string identifier assigned by the service. */
export const IdSchema = z.string().min(1);

/**
 * An ISO 8601 UTC timestamp. The service sends microseconds and a trailing
 * `Z` (`2024-05-01T12:00:00.123456Z`); readers accept any ISO string.
 */
export const TimestampSchema = z.string().meta({
  description: "ISO 8601 UTC timestamp with microseconds and a trailing Z",
  examples: ["2024-05-01T12:00:00.123456Z"],
});

/** Reference to another resource: `{ id, name }`. */
export const RefSchema = z.looseObject({
  id: IdSchema,
  name: z.string().nullish(),
}).meta({ id: "Reference" });
/** Reference to another resource: `{ id, name }`. */
export type Ref = z.infer<typeof RefSchema>;

/**
 * An enumeration that names the values we know yet accepts any other string,
 * as docs/api.md#conventions asks of readers. The inferred type keeps editor
 * completion for the known values.
 *
 * @example
 * ```ts
 * import { openEnum } from "./common.ts";
 * const Status = openEnum(["STARTING", "COMPLETED"]);
 * Status.parse("COMPLETED"); // "COMPLETED"
 * Status.parse("PAUSED"); // "PAUSED": unknown values are kept
 * ```
 */
export function openEnum<const T extends readonly [string, ...string[]]>(
  values: T,
): z.ZodType<Open<T[number]>> {
  return z.string().meta({ examples: [...values] }) as z.ZodType<
    Open<T[number]>
  >;
}

/**
 * An object mapping names to values of `value`, like `z.record(z.string(),
 * value)` except that every own key is an ordinary key: a column named
 * `__proto__`, `constructor` or `hasOwnProperty` is kept and checked like any
 * other (zod's record assigns keys, so `__proto__` would silently replace the
 * prototype and vanish). The output has a null prototype, so a missing name
 * reads `undefined`, never an inherited member.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * import { ownRecord } from "./common.ts";
 * const Columns = ownRecord(z.array(z.number()));
 * const parsed = Columns.parse(JSON.parse('{"__proto__": [1], "x": [2]}'));
 * Object.keys(parsed); // ["__proto__", "x"]
 * parsed.constructor; // undefined: not a key of this object
 * ```
 */
export function ownRecord<V extends z.ZodType>(
  value: V,
): z.ZodType<Record<string, z.output<V>>, Record<string, z.input<V>>> {
  return z.unknown().transform((input, ctx) => {
    if (input === null || typeof input !== "object" || Array.isArray(input)) {
      ctx.addIssue({
        code: "custom",
        message: `expected an object mapping names to values, got ${
          input === null
            ? "null"
            : Array.isArray(input)
            ? "an array"
            : typeof input
        }`,
      });
      return z.NEVER;
    }
    const out: Record<string, z.output<V>> = Object.create(null);
    const source = input as Record<string, unknown>;
    for (const key of Object.keys(source)) {
      const parsed = value.safeParse(source[key]);
      if (parsed.success) {
        // A null-prototype object has no `__proto__` setter: a plain key.
        out[key] = parsed.data;
        continue;
      }
      for (const issue of parsed.error.issues) {
        ctx.addIssue({
          code: "custom",
          message: issue.message,
          path: [key, ...issue.path],
        });
      }
    }
    return out;
  }).meta({
    type: "object",
    additionalProperties: z.toJSONSchema(value, {
      io: "input",
      unrepresentable: "any",
    }),
  }) as unknown as z.ZodType<
    Record<string, z.output<V>>,
    Record<string, z.input<V>>
  >;
}

/**
 * A known string literal union that still admits any other string (editors
 * keep completing the known values).
 */
export type Open<T extends string> = T | (string & Record<never, never>);

/** Fields every account-owned resource carries in responses. */
export const ownedFields = {
  id: IdSchema,
  account: RefSchema,
  created_at: TimestampSchema,
  created_by: RefSchema,
} as const;

/**
 * Fields every named, user-made resource carries in responses besides its
 * own: the {@linkcode ownedFields}, its name and when it last changed
 * (configurations of every kind, storage connectors, data schemas,
 * workspaces).
 */
export const configurationFields = {
  ...ownedFields,
  name: z.string(),
  updated_at: TimestampSchema.nullish(),
} as const;

/** Pagination block of every list response. */
export const PaginationSchema = z.looseObject({
  total_items: z.int().nonnegative(),
  items_per_page: z.int().positive(),
  current_page: z.int().positive(),
  total_pages: z.int().nonnegative(),
}).meta({ id: "Pagination" });
/** Pagination block of every list response. */
export type Pagination = z.infer<typeof PaginationSchema>;

/**
 * The list envelope `{ data: T[], pagination }` around any item schema.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * import { listOf } from "./common.ts";
 * const Names = listOf(z.object({ name: z.string() }));
 * const page = Names.parse({
 *   data: [{ name: "a" }],
 *   pagination: { total_items: 1, items_per_page: 10, current_page: 1, total_pages: 1 },
 * });
 * page.data[0].name; // "a"
 * ```
 */
export function listOf<T extends z.ZodType>(item: T) {
  return z.looseObject({ data: z.array(item), pagination: PaginationSchema });
}
/** A page of a paginated list. */
export type Page<T> = { data: T[]; pagination: Pagination };

/** Decimal digits only: a whole number as a query string writes it. */
const DIGITS = /^[0-9]+$/;

/**
 * A whole-number query parameter (`page=2`) from `min` to `max`, `fallback`
 * when absent: decimal digits, or a number (the client's own code gives
 * one). Any other numeral (`0x2`, `1e1`, ` 2`, `+2`, `2.0`) is refused
 * naming the parameter, not read as a number, as the OpenAPI document's
 * `integer` says.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * import { queryInteger } from "./common.ts";
 * const Query = z.object({ page: queryInteger(1, undefined, 1) });
 * if (Query.parse({ page: "12" }).page !== 12 || Query.parse({}).page !== 1) throw new Error();
 * if (Query.safeParse({ page: "0x2" }).success || Query.safeParse({ page: "1e1" }).success) throw new Error();
 * ```
 */
export function queryInteger(
  min: number,
  max: number | undefined,
  fallback: number,
) {
  const whole = z.int({
    error: (issue) =>
      issue.code !== "invalid_type"
        ? undefined
        : typeof issue.input === "number"
        ? "must be a whole number"
        : "must be a whole number written in decimal digits",
  }).min(min);
  return z.preprocess(
    (value) =>
      typeof value === "string" && DIGITS.test(value) ? Number(value) : value,
    (max === undefined ? whole : whole.max(max)).default(fallback),
  );
}

/** Query parameters of list endpoints (docs/contract.md#lists: 1-based, at most 100 a page). */
export const ListQuerySchema = z.object({
  page: queryInteger(1, undefined, 1),
  items_per_page: queryInteger(1, 100, 10),
});
/** Query parameters of list endpoints. */
export type ListQuery = z.input<typeof ListQuerySchema>;

/** A non-empty resource name (trimmed length 1 to 200). */
export const NameSchema = z.string().trim().min(1, "must not be empty").max(
  200,
  "must be at most 200 characters",
);

/**
 * A column's name in a request body: trimmed, as a CSV header's names and a
 * data schema's field names are (docs/contract.md#buckets-local-platform),
 * so `" id "` names the column `id`; a name that is empty or only white
 * space could match no column, and is refused.
 */
export const ColumnNameSchema = z.string().trim().min(
  1,
  "must name a column: it is empty (or only spaces)",
);

/**
 * A list of column names (`what`: "column", "target", ...), each a
 * {@linkcode ColumnNameSchema} (or `name`, one built on it), none listed
 * twice once trimmed; the issue names the repeat's index.
 *
 * @example
 * ```ts
 * import { columnNamesSchema } from "./common.ts";
 * const Keep = columnNamesSchema("column");
 * if (Keep.parse([" id ", "region"]).join() !== "id,region") throw new Error();
 * const twice = Keep.safeParse(["id", " id"]);
 * if (twice.success || twice.error.issues[0].path.join(".") !== "1") throw new Error();
 * if (Keep.safeParse(["  "]).success) throw new Error("a blank name is refused");
 * ```
 */
export function columnNamesSchema(
  what: string,
  name: z.ZodType<string, string> = ColumnNameSchema,
) {
  return z.array(name).superRefine((names, ctx) => {
    const seen = new Set<string>();
    names.forEach((name, i) => {
      if (seen.has(name)) {
        ctx.addIssue({
          code: "custom",
          path: [i],
          message:
            `"${name}" is listed twice (names are trimmed): name each ${what} once`,
        });
      }
      seen.add(name);
    });
  });
}
