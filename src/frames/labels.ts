/**
 * A views answer under its labels (docs/contract.md#labels-and-anchors): the
 * same rows, with each column named by its label (`Monthly charges (USD)`
 * for `contribution.monthly_charges`) and the predicted classes by their
 * friendly names. The raw names stay in the answer itself; this is a view
 * for reading and display.
 *
 * @module
 */
import { categoryLabel, columnLabel } from "../schemas/label_display.ts";
import type { FieldLabels } from "../schemas/labels.ts";
import type { SplitTable } from "./types.ts";

/**
 * The table with labelled column names (made unique: a label two columns
 * share gets the raw name in brackets) and predicted classes by their
 * friendly names. A table without labels comes back as it is.
 *
 * @example
 * ```ts
 * import { labelledTable } from "./labels.ts";
 * const t = labelledTable({
 *   columns: ["prediction.churn", "bias", "contribution.mc"],
 *   index: [0],
 *   data: [["Yes", -1, 0.5]],
 *   field_labels: {
 *     mc: { label: "Monthly charges (USD)", friendly_name: "Monthly charges", unit: "USD", dimension: null, categories: {} },
 *     churn: { label: "Churn", friendly_name: "Churn", unit: null, dimension: null, categories: { Yes: "Churned" } },
 *   },
 * });
 * if (t.columns.join() !== "Churn,bias,Monthly charges (USD)" || t.data[0][0] !== "Churned") throw new Error();
 * ```
 */
export function labelledTable(
  table: SplitTable,
  labels: FieldLabels | undefined = table.field_labels,
): SplitTable {
  if (!labels) return table;
  const target = table.columns.find((c) => c.startsWith("prediction."))
    ?.slice("prediction.".length);
  const names = table.columns.map((c) => columnLabel(c, labels, target));
  const columns = names.map((n, j) =>
    names.indexOf(n) !== j || names.lastIndexOf(n) !== j
      ? `${n} [${table.columns[j]}]`
      : n
  );
  const mapped = table.columns.map((c) =>
    c.startsWith("prediction.") ? c.slice("prediction.".length) : undefined
  );
  const data = table.data.map((row) =>
    row.map((cell, j) => {
      const field = mapped[j];
      return field !== undefined && typeof cell === "string"
        ? categoryLabel(field, cell, labels)
        : cell;
    })
  );
  return { columns, index: [...table.index], data };
}
