/**
 * The single rule for missing values used by every conversion in this folder.
 *
 * A cell is missing when it is `null`, `undefined`, `NaN` or the empty string
 * `""` (an empty CSV cell). Plain outputs (rows, columns, queries) write a
 * missing cell as `null`, which survives JSON; danfo DataFrames write it as
 * `NaN`, danfo's own marker, so `isNa()`, `fillNa()`, `dropNa()` and numeric
 * operations treat it as missing and numeric columns stay numeric.
 *
 * @module
 */

/**
 * Whether a cell counts as missing: `null`, `undefined`, `NaN` or `""`.
 *
 * @example
 * ```ts
 * import { isMissing } from "./missing.ts";
 * const flags = [null, undefined, NaN, "", 0, "No", false].map(isMissing);
 * if (flags.join() !== "true,true,true,true,false,false,false") throw new Error("unexpected");
 * ```
 */
export function isMissing(value: unknown): boolean {
  // `value !== value` is true only for NaN.
  return value === null || value === undefined || value === "" ||
    (typeof value === "number" && value !== value);
}
