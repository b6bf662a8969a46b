/**
 * Whether a REGRESSION target can be learned at all, checked when a dataset
 * is encoded (onboarding): its squared errors must neither overflow nor
 * underflow, and it must vary.
 *
 * @module
 */
import { ModelDataError } from "./errors.ts";

/** A REGRESSION target's largest magnitude: beyond it squared errors overflow. */
const MAX_REGRESSION_TARGET = 1e100;
/**
 * The least spread (largest minus smallest value) of a REGRESSION target
 * that varies: below it squared errors underflow to 0 (1e-200 squared is
 * 0 in floating point), so no split gains anything, nothing is learned and
 * the reported error reads 0.
 */
const MIN_REGRESSION_SPREAD = 1e-100;

/**
 * Refuses a regression target that cannot be learned: a value beyond
 * {@link MAX_REGRESSION_TARGET} (naming its row), one value on every row
 * (nothing to predict, as a single class is for classification), or a
 * spread below {@link MIN_REGRESSION_SPREAD}.
 *
 * @throws {ModelDataError} Naming the column, with code
 *   `TARGET_OUT_OF_RANGE` or `TARGET_CONSTANT` and what to do.
 *
 * @example
 * ```ts
 * import { checkTargetRange } from "./target_range.ts";
 * import { ModelDataError } from "./errors.ts";
 * checkTargetRange("y", Float64Array.of(1, 2.5), Uint32Array.of(0, 1)); // fine
 * try {
 *   checkTargetRange("y", Float64Array.of(3, 3), Uint32Array.of(0, 1));
 *   throw new Error("accepted");
 * } catch (e) {
 *   if (!(e instanceof ModelDataError && e.code === "TARGET_CONSTANT")) throw e;
 * }
 * ```
 */
export function checkTargetRange(
  name: string,
  values: Float64Array,
  rows: Uint32Array,
): void {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v < min) min = v;
    if (v > max) max = v;
    if (Math.abs(v) <= MAX_REGRESSION_TARGET) continue;
    throw new ModelDataError(
      name,
      "TARGET_OUT_OF_RANGE",
      `target '${name}' has the value ${v} (row ${
        rows[i] + 1
      }): REGRESSION needs values within ±${MAX_REGRESSION_TARGET} (their squared errors must stay finite); rescale the column (e.g. to thousands or millions).`,
    );
  }
  if (values.length > 0 && max === min) {
    throw new ModelDataError(
      name,
      "TARGET_CONSTANT",
      `target '${name}' is ${min} on every one of its ${values.length} rows: there is nothing to predict; check the column (or the rows onboarded), or pick another target.`,
    );
  }
  if (max - min < MIN_REGRESSION_SPREAD) {
    throw new ModelDataError(
      name,
      "TARGET_OUT_OF_RANGE",
      `target '${name}' varies only from ${min} to ${max}: REGRESSION needs values that differ by at least ${MIN_REGRESSION_SPREAD} (smaller squared errors underflow to 0 and nothing is learned); rescale the column to smaller units (multiply it by a large power of ten).`,
    );
  }
}
