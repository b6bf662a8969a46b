/**
 * Pieces the model tests share to build generated tables: a schema field,
 * a standard normal draw and a seeded 3-class table.
 *
 * @module
 */
import {
  encodeDataset,
  type EncodedDataset,
  type SchemaField,
} from "../../src/local/model/encoding.ts";
import { createRng } from "../../src/local/model/rng.ts";

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

/**
 * A 3-class table (`hi`, `mid`, `lo` in `y`) of `n` rows, seeded: two
 * interacting numbers `a` and `b`, a weak one `w` and a 6-level category
 * `c`; the model tests that compare two ways of fitting it (stage reuse,
 * a race's spare bags) share it.
 *
 * @example
 * ```ts
 * import { threeClassTable } from "./generated.ts";
 * const data = threeClassTable(60, 1);
 * if (data.nRows !== 60 || data.features.length !== 4) throw new Error("example failed");
 * ```
 */
export function threeClassTable(n: number, seed: number): EncodedDataset {
  const rng = createRng(seed);
  const a = Array.from({ length: n }, () => rng() * 4);
  const b = Array.from({ length: n }, () => rng() * 4);
  const w = Array.from({ length: n }, () => rng());
  const c = Array.from({ length: n }, () => `l${Math.floor(rng() * 6)}`);
  const y = a.map((x, i) => {
    const s = (x - 2) * (b[i] - 2) + w[i] + (c[i] === "l1" ? 1 : 0) +
      rng() - 0.5;
    return s > 0.8 ? "hi" : s < -0.8 ? "lo" : "mid";
  });
  return encodeDataset(
    { a, b, w, c, y },
    [
      field("a", "number"),
      field("b", "number"),
      field("w", "number"),
      field("c", "category"),
      field("y", "category", "TARGET"),
    ],
    { targets: ["y"] },
  );
}
