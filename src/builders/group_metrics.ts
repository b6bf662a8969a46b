/**
 * The `GROUP_METRICS` views answer read back into the model record's shape
 * (docs/contract.md#model-constraints-and-protected-fields): per protected
 * field, its groups with their figures and the largest gap, so the figures
 * of the rows sent compare directly with `model.group_metrics`.
 *
 * @module
 */
import type { FieldGroupMetrics } from "../schemas/constraints.ts";

/** The row of a field's largest gap in the `GROUP_METRICS` table. */
const GAP = "(largest gap)";

/** A `GROUP_METRICS` split table (columns `field`, `group`, `count`, then the figures). */
export interface GroupMetricsTable {
  /** `field`, `group`, `count`, then one column per figure. */
  columns: readonly string[];
  /** One row per group, then one `(largest gap)` row per field. */
  data: readonly (readonly unknown[])[];
}

/**
 * Per protected field, its groups and largest gap, from a `GROUP_METRICS`
 * table.
 *
 * @example
 * ```ts
 * import { groupMetricsOf } from "./group_metrics.ts";
 * const [sex] = groupMetricsOf({
 *   columns: ["field", "group", "count", "auc"],
 *   data: [["sex", "f", 10, 0.8], ["sex", "m", 12, 0.7], ["sex", "(largest gap)", null, 0.1]],
 * });
 * if (sex.field !== "sex" || sex.groups[1].metrics.auc !== 0.7 || sex.largest_gap.auc !== 0.1) {
 *   throw new Error(JSON.stringify(sex));
 * }
 * ```
 */
export function groupMetricsOf(table: GroupMetricsTable): FieldGroupMetrics[] {
  const names = table.columns.slice(3);
  const figures = (row: readonly unknown[]) =>
    Object.fromEntries(
      names.map((m, j) => {
        const v = row[3 + j];
        return [m, typeof v === "number" ? v : null];
      }),
    );
  const out: FieldGroupMetrics[] = [];
  for (const row of table.data) {
    const field = String(row[0]);
    let f = out.find((x) => x.field === field);
    if (!f) {
      f = { field, groups: [], largest_gap: {} };
      out.push(f);
    }
    if (row[1] === GAP) f.largest_gap = figures(row);
    else {
      f.groups.push({
        group: String(row[1]),
        count: Number(row[2]),
        metrics: figures(row),
      });
    }
  }
  return out;
}
