/**
 * Per-group metrics of a model with protected fields
 * (docs/contract.md#model-constraints-and-protected-fields): the model
 * card's lines for them and for the constraints' cost, and a grouped bar
 * chart of every figure per group.
 *
 * @module
 */
import type {
  ConstraintCost,
  FieldGroupMetrics,
} from "../schemas/constraints.ts";
import { chart } from "./charts.ts";
import type { Chart } from "../display.ts";

// Figure names as people read them.
const LABELS: Record<string, string> = {
  positive_rate: "positive rate",
  auc: "ROC AUC",
  accuracy: "accuracy",
  fpr: "false positive rate",
  fnr: "false negative rate",
  mean_prediction: "mean prediction",
  r2: "R²",
  mae: "MAE",
};

const label = (m: string) => LABELS[m] ?? m.replaceAll("_", " ");
const fmt = (v: number | null | undefined) =>
  v === null || v === undefined || !Number.isFinite(v)
    ? "n/a"
    : Number(v.toPrecision(3)).toString();

function isGroupMetrics(value: unknown): value is FieldGroupMetrics[] {
  return Array.isArray(value) &&
    value.every((f) =>
      f && typeof f === "object" && typeof f.field === "string" &&
      Array.isArray(f.groups)
    );
}

/**
 * The model card's lines for `group_metrics` and `constraint_cost` (none for
 * another key or an unexpected shape): one line per group, one for the
 * largest gaps, one for the cost.
 *
 * @example
 * ```ts
 * import { fairnessRows } from "./fairness.ts";
 * const rows = fairnessRows("group_metrics", [{ field: "gender", groups: [
 *   { group: "F", count: 10, metrics: { auc: 0.81 } }, { group: "M", count: 12, metrics: { auc: 0.79 } },
 * ], largest_gap: { auc: 0.02 } }]);
 * if (rows.length !== 3 || !rows[0][1].includes("ROC AUC 0.81")) throw new Error(JSON.stringify(rows));
 * const [cost] = fairnessRows("constraint_cost", { metric: "validation_auc", constrained: 0.84, unconstrained: 0.85 });
 * if (cost[1] !== "validation ROC AUC: 0.84 with the constraints, 0.85 without") throw new Error(cost[1]);
 * ```
 */
export function fairnessRows(key: string, value: unknown): [string, string][] {
  if (key === "constraint_cost" && value && typeof value === "object") {
    const c = value as ConstraintCost;
    return [[
      "constraint cost",
      `validation ${label(c.metric.replace(/^validation_/, ""))}: ${
        fmt(c.constrained)
      } with the constraints, ${fmt(c.unconstrained)} without`,
    ]];
  }
  if (key !== "group_metrics" || !isGroupMetrics(value)) return [];
  return value.flatMap((f) => [
    ...f.groups.map((g): [string, string] => [
      `${f.field} = ${g.group}`,
      [
        `${g.count.toLocaleString("en-US")} rows`,
        ...Object.entries(g.metrics).map(([m, v]) => `${label(m)} ${fmt(v)}`),
      ].join(" · "),
    ]),
    [
      `${f.field}: largest gap`,
      Object.entries(f.largest_gap).map(([m, v]) => `${label(m)} ${fmt(v)}`)
        .join(" · "),
    ] as [string, string],
  ]);
}

/**
 * Every figure of every group as grouped bars, one row of charts per
 * protected field (the model record's `group_metrics`).
 *
 * @example
 * ```ts
 * import { groupMetricsChart } from "./fairness.ts";
 * const c = groupMetricsChart([{ field: "gender", groups: [
 *   { group: "F", count: 10, metrics: { auc: 0.81, accuracy: 0.7 } }, { group: "M", count: 12, metrics: { auc: 0.79, accuracy: null } },
 * ], largest_gap: { auc: 0.02, accuracy: null } }]);
 * const values = (c["application/vnd.vegalite.v5+json"].data as { values: unknown[] }).values;
 * if (values.length !== 3) throw new Error("unexpected"); // a null figure is not drawn
 * ```
 */
export function groupMetricsChart(report: FieldGroupMetrics[]): Chart {
  const values = report.flatMap((f) =>
    f.groups.flatMap((g) =>
      Object.entries(g.metrics).filter(([, v]) => v !== null).map((
        [m, v],
      ) => ({
        field: f.field,
        group: `${f.field} = ${g.group}`,
        figure: label(m),
        value: v,
        rows: g.count,
      }))
    )
  );
  const gaps = report.map((f) =>
    `${f.field}: ${
      Object.entries(f.largest_gap).map(([m, v]) => `${label(m)} gap ${fmt(v)}`)
        .join(", ")
    }`
  );
  return chart(
    {
      title: "Metrics per group of each protected field",
      data: { values },
      mark: "bar",
      encoding: {
        x: { field: "figure", type: "nominal", title: null },
        xOffset: { field: "group", type: "nominal" },
        y: { field: "value", type: "quantitative", title: null },
        color: { field: "group", type: "nominal", title: "group" },
        ...(report.length > 1
          ? { row: { field: "field", type: "nominal", title: null } }
          : {}),
        tooltip: [
          { field: "group" },
          { field: "figure" },
          { field: "value", format: ".3f" },
          { field: "rows" },
        ],
      },
    },
    `Per-group metrics. ${gaps.join("; ")}`,
  );
}
