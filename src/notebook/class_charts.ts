/**
 * Charts of a classification model's answers: its validation AUC per class
 * and the distribution of a predicted probability, as Vega-Lite bundles
 * (charts.ts holds the explanation charts).
 *
 * @module
 */
import type { SplitTable } from "../frames/types.ts";
import { type Chart, chart } from "./charts.ts";

/**
 * A classification model's validation ROC AUC per class (one class against
 * the rest, as a model record's `class_metrics` gives them), as bars: where
 * a multi-class model separates its classes well and where it does not.
 * Classes without an AUC (absent from the validation rows) are left out.
 *
 * @example
 * ```ts
 * import { classAucChart } from "./class_charts.ts";
 * const c = classAucChart([{ class: "a", validation_auc: 0.9 }, { class: "b", validation_auc: null }]);
 * const values = (c["application/vnd.vegalite.v5+json"].data as { values: unknown[] }).values;
 * if (values.length !== 1 || !c["text/plain"].includes("a 0.9000")) throw new Error("unexpected");
 * ```
 */
export function classAucChart(
  classMetrics: { class: string; validation_auc: number | null }[],
): Chart {
  const values = classMetrics.filter((c) =>
    typeof c.validation_auc === "number" && Number.isFinite(c.validation_auc)
  );
  return chart(
    {
      title: "Validation ROC AUC per class (one vs rest)",
      data: { values },
      mark: "bar",
      encoding: {
        y: { field: "class", type: "nominal", sort: null, title: null },
        x: {
          field: "validation_auc",
          type: "quantitative",
          title: "ROC AUC",
          scale: { domain: [0.5, 1], clamp: true },
        },
        tooltip: [{ field: "class" }, {
          field: "validation_auc",
          format: ".4f",
        }],
      },
    },
    `Validation ROC AUC per class: ${
      values.map((c) => `${c.class} ${c.validation_auc!.toFixed(4)}`).join(
        ", ",
      )
    }`,
  );
}

/**
 * Histogram of one `probability.*` column of a views answer (by default the
 * last one, e.g. `probability.churn.Yes` for a No/Yes target).
 *
 * @example
 * ```ts
 * import { probabilityHistogram } from "./class_charts.ts";
 * const c = probabilityHistogram({
 *   columns: ["probability.churn.No", "probability.churn.Yes"],
 *   index: [0, 1],
 *   data: [[0.9, 0.1], [0.3, 0.7]],
 * });
 * const values = (c["application/vnd.vegalite.v5+json"].data as { values: { probability: number }[] }).values;
 * if (values[1].probability !== 0.7) throw new Error("unexpected");
 * ```
 */
export function probabilityHistogram(
  table: SplitTable,
  options: { column?: string; bins?: number } = {},
): Chart {
  const candidates = table.columns.filter((c) => c.startsWith("probability."));
  const column = options.column ?? candidates.at(-1);
  const at = column === undefined ? -1 : table.columns.indexOf(column);
  if (at < 0) {
    throw new TypeError(
      column === undefined
        ? "the table has no probability.* column; pass a views RESULTS answer"
        : `column "${column}" is not in the table (probability columns: ${
          candidates.join(", ") || "none"
        })`,
    );
  }
  const values = table.data.flatMap((row) =>
    typeof row[at] === "number" && Number.isFinite(row[at])
      ? [{ probability: row[at] as number }]
      : []
  );
  const mean = values.reduce((s, v) => s + v.probability, 0) /
    (values.length || 1);
  return chart(
    {
      title: `Distribution of ${column}`,
      data: { values },
      mark: "bar",
      encoding: {
        x: {
          field: "probability",
          type: "quantitative",
          bin: { maxbins: options.bins ?? 20, extent: [0, 1] },
          title: column,
        },
        y: { aggregate: "count", type: "quantitative", title: "rows" },
      },
    },
    `Distribution of ${column}: ${values.length} rows, mean ${mean.toFixed(3)}`,
  );
}
