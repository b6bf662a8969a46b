/**
 * Column types for schema builders: `number()`, `integer()`, `float()`,
 * `category()` and `flag()`, each the `data_type` and `semantic_type` pair
 * the published (docs/api.md#resources) schema fields carry.
 *
 * @module
 */
import type {
  DATA_TYPES,
  NUMBER_FORMATS,
  SEMANTIC_TYPES,
} from "../schemas/data_schemas.ts";

/** A column type: what `data_type` and `semantic_type` a field gets. */
export interface FieldType {
  /** `{ data_type: "NUMBER" | "STRING", format }` (format null for strings). */
  readonly data_type: {
    readonly data_type: typeof DATA_TYPES[number];
    readonly format: typeof NUMBER_FORMATS[number] | null;
  };
  /** `CONTINUOUS` (ordered numbers) or `CATEGORICAL` (labels). */
  readonly semantic_type: typeof SEMANTIC_TYPES[number];
}

/** Options of {@linkcode number}. */
export interface NumberOptions {
  /** `INT64` (default, as docs/api.md#resources shows) or `FLOAT64` for fractional values. */
  format?: "INT64" | "FLOAT64";
  /** Treat the numbers as labels (codes, small counts) instead of amounts. */
  categorical?: boolean;
}

/**
 * A numeric column: `NUMBER` / `INT64` / `CONTINUOUS` by default.
 *
 * @example
 * ```ts
 * import { number } from "./fields.ts";
 * number().data_type.format; // "INT64"
 * number({ format: "FLOAT64" }).data_type.format; // "FLOAT64"
 * number({ categorical: true }).semantic_type; // "CATEGORICAL"
 * ```
 */
export function number(options: NumberOptions = {}): FieldType {
  return {
    data_type: { data_type: "NUMBER", format: options.format ?? "INT64" },
    semantic_type: options.categorical ? "CATEGORICAL" : "CONTINUOUS",
  };
}

/**
 * A whole-number amount: `NUMBER` / `INT64` / `CONTINUOUS`.
 *
 * @example
 * ```ts
 * import { integer } from "./fields.ts";
 * integer().semantic_type; // "CONTINUOUS"
 * ```
 */
export function integer(): FieldType {
  return number({ format: "INT64" });
}

/**
 * A fractional amount: `NUMBER` / `FLOAT64` / `CONTINUOUS`.
 *
 * @example
 * ```ts
 * import { float } from "./fields.ts";
 * float().data_type.format; // "FLOAT64"
 * ```
 */
export function float(): FieldType {
  return number({ format: "FLOAT64" });
}

/**
 * Text labels: `STRING` / `CATEGORICAL` (format null).
 *
 * @example
 * ```ts
 * import { category } from "./fields.ts";
 * category().data_type.data_type; // "STRING"
 * ```
 */
export function category(): FieldType {
  return {
    data_type: { data_type: "STRING", format: null },
    semantic_type: "CATEGORICAL",
  };
}

/**
 * A 0/1 (or small integer code) column read as labels:
 * `NUMBER` / `INT64` / `CATEGORICAL`.
 *
 * @example
 * ```ts
 * import { flag } from "./fields.ts";
 * flag().semantic_type; // "CATEGORICAL"
 * ```
 */
export function flag(): FieldType {
  return number({ format: "INT64", categorical: true });
}
