/**
 * Pieces the model tests share to build generated tables: a schema field
 * and a standard normal draw.
 *
 * @module
 */
import type { SchemaField } from "../../src/local/model/encoding.ts";

/**
 * A schema field: a number (CONTINUOUS) or a category, a feature unless
 * `designation` says TARGET.
 *
 * @example
 * ```ts
 * import { field } from "./generated.ts";
 * const f = field("age", "number");
 * if (f.semantic_type !== "CONTINUOUS" || f.designation !== "FEATURE") throw new Error("example failed");
 * ```
 */
export function field(
  name: string,
  kind: "number" | "category",
  designation: "FEATURE" | "TARGET" = "FEATURE",
): SchemaField {
  return {
    name,
    data_type: { data_type: kind === "number" ? "NUMBER" : "STRING" },
    designation,
    semantic_type: kind === "number" ? "CONTINUOUS" : "CATEGORICAL",
  } as SchemaField;
}

/**
 * A standard normal draw from two uniform ones of `rng` (Box-Muller).
 *
 * @example
 * ```ts
 * import { normal } from "./generated.ts";
 * const x = normal(() => 0.5);
 * if (!(Math.abs(x + Math.sqrt(2 * Math.log(2))) < 1e-12)) throw new Error("example failed");
 * ```
 */
export function normal(rng: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
}
