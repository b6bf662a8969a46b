/**
 * Per-group metrics of a model for its protected fields
 * (docs/contract.md#model-constraints-and-protected-fields), like
 * Fairlearn's `MetricFrame`: for every value of a protected field, the rows'
 * count and the model's figures on them, and per figure the largest gap
 * between two groups. The model record carries them for its validation
 * rows; a `GROUP_METRICS` view computes them, with the same function, for
 * the rows it is sent, so the two agree exactly on the same rows.
 *
 * @module
 */

import { decimalNumber } from "../../csv.ts";
import type { RawValue } from "./columns.ts";
import { inputColumns } from "./encoder.ts";
import { predict } from "./explain.ts";
import type { EbmModel } from "./types.ts";

/** The figures of one group (null: not defined on its rows). */
export type GroupRow = {
  group: string;
  count: number;
  metrics: Record<string, number | null>;
};

/** The per-group figures of one protected field. */
export type FieldGroupMetrics = {
  field: string;
  groups: GroupRow[];
  /** Per figure, the largest minus the smallest group value (null with fewer than two). */
  largest_gap: Record<string, number | null>;
};

/** The group of a missing value. */
export const MISSING_GROUP = "(missing)";

/**
 * The figures a model's task gets per group: binary, the rate of positive
 * predictions (of `classes[1]`), ROC AUC, accuracy, false positive and false
 * negative rates; 3+ classes, accuracy and the mean one-vs-rest AUC;
 * regression, the mean prediction, R² and the mean absolute error.
 *
 * @example
 * ```ts
 * import { groupMetricNames } from "./fairness.ts";
 * if (groupMetricNames({ task: "regression", classes: [] }).join() !== "mean_prediction,r2,mae") throw new Error("example failed");
 * ```
 */
export function groupMetricNames(
  model: Pick<EbmModel, "task" | "classes">,
): string[] {
  if (model.task === "regression") return ["mean_prediction", "r2", "mae"];
  if (model.classes.length === 2) {
    return ["positive_rate", "auc", "accuracy", "fpr", "fnr"];
  }
  return ["accuracy", "auc"];
}

/**
 * Most distinct values a numeric protected field is grouped by; beyond, its
 * groups are its quartiles on the dataset ({@link groupCuts}), so an age or
 * an income gives four groups of about equal size, not one per value.
 */
export const MAX_VALUE_GROUPS = 10;

/**
 * The cut points that group a numeric protected field: null with at most
 * {@link MAX_VALUE_GROUPS} distinct values (each is a group), else its
 * quartiles (distinct ones; NaN, missing, left out).
 *
 * @example
 * ```ts
 * import { groupCuts, groupOf } from "./fairness.ts";
 * if (groupCuts(Float64Array.of(0, 1, 0, 1)) !== null) throw new Error("example failed");
 * const cuts = groupCuts(Float64Array.from({ length: 100 }, (_, i) => i))!;
 * if (cuts.join() !== "25,50,75" || groupOf(30, cuts) !== "[25, 50)") throw new Error(String(cuts));
 * ```
 */
export function groupCuts(values: ArrayLike<number>): number[] | null {
  const seen = new Set<number>();
  const finite: number[] = [];
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (Number.isNaN(v)) continue;
    finite.push(v);
    seen.add(v);
  }
  if (seen.size <= MAX_VALUE_GROUPS) return null;
  finite.sort((a, b) => a - b);
  const at = (q: number) => finite[Math.floor(q * finite.length)];
  return [...new Set([at(0.25), at(0.5), at(0.75)])];
}

/**
 * A protected value's group: its text (numbers as written), or
 * {@link MISSING_GROUP}; with `cuts` ({@link groupCuts}), a number's
 * interval: `< c1`, `[c1, c2)`, ..., `>= ck`. A text is a number here as
 * ingestion and views read one (`decimalNumber`): `0x10` is its own group,
 * not 16's interval.
 *
 * @example
 * ```ts
 * import { groupOf, MISSING_GROUP } from "./fairness.ts";
 *
 * if (groupOf("12", [10, 20]) !== "[10, 20)" || groupOf(25, [10, 20]) !== ">= 20") throw new Error("example failed");
 * if (groupOf("0x10", [10, 20]) !== "0x10" || groupOf(" ", [10]) !== MISSING_GROUP) throw new Error("example failed");
 * ```
 */
export function groupOf(
  v: RawValue | undefined,
  cuts?: number[] | null,
): string {
  if (v === null || v === undefined) return MISSING_GROUP;
  if (cuts) {
    const x = typeof v === "number" ? v : decimalNumber(v);
    if (typeof v === "string" && v.trim() === "") return MISSING_GROUP;
    if (!Number.isNaN(x)) {
      const k = cuts.filter((c) => c <= x).length;
      return k === 0
        ? `< ${cuts[0]}`
        : k === cuts.length
        ? `>= ${cuts[k - 1]}`
        : `[${cuts[k - 1]}, ${cuts[k]})`;
    }
  }
  if (typeof v === "number") return Number.isNaN(v) ? MISSING_GROUP : String(v);
  const s = v.trim();
  return s === "" ? MISSING_GROUP : s;
}

/**
 * ROC AUC of `score` for the rows where `positive` holds (ties count one
 * half); null without both kinds of row.
 */
function aucOf(score: number[], positive: boolean[]): number | null {
  const idx = score.map((_, i) => i).sort((a, b) => score[a] - score[b]);
  let pos = 0, neg = 0, rankSum = 0;
  for (let i = 0; i < idx.length;) {
    let j = i;
    while (j < idx.length && score[idx[j]] === score[idx[i]]) j++;
    const rank = (i + 1 + j) / 2;
    for (let t = i; t < j; t++) {
      if (positive[idx[t]]) {
        pos++;
        rankSum += rank;
      } else neg++;
    }
    i = j;
  }
  if (pos === 0 || neg === 0) return null;
  return (rankSum - (pos * (pos + 1)) / 2) / (pos * neg);
}

/** The figures of the rows `rows` (see {@link groupMetricNames}). */
function figures(
  model: EbmModel,
  rows: number[],
  pred: ReturnType<typeof predict>,
  truth: (string | number | null)[],
): Record<string, number | null> {
  const n = rows.length;
  const ratio = (a: number, b: number) => (b > 0 ? a / b : null);
  if (model.task === "regression") {
    const values = pred.values!;
    let mean = 0, yMean = 0, abs = 0;
    for (const i of rows) {
      mean += values[i] / n;
      yMean += Number(truth[i]) / n;
    }
    let sse = 0, sst = 0;
    for (const i of rows) {
      const y = Number(truth[i]);
      sse += (y - values[i]) ** 2;
      sst += (y - yMean) ** 2;
      abs += Math.abs(y - values[i]);
    }
    return {
      mean_prediction: n ? mean : null,
      r2: sst > 0 ? 1 - sse / sst : null,
      mae: ratio(abs, n),
    };
  }
  const { classes } = model;
  let right = 0;
  for (const i of rows) if (pred.predicted[i] === truth[i]) right++;
  const accuracy = ratio(right, n);
  const aucFor = (k: number) =>
    aucOf(
      rows.map((i) => pred.probabilities[i][k]),
      rows.map((i) => truth[i] === classes[k]),
    );
  if (classes.length !== 2) {
    const aucs = classes.map((_, k) => aucFor(k)).filter((a) => a !== null);
    return {
      accuracy,
      auc: aucs.length ? aucs.reduce((a, b) => a + b, 0) / aucs.length : null,
    };
  }
  let tp = 0, fp = 0, tn = 0, fn = 0;
  for (const i of rows) {
    const p = pred.predicted[i] === classes[1], y = truth[i] === classes[1];
    if (p && y) tp++;
    else if (p) fp++;
    else if (y) fn++;
    else tn++;
  }
  return {
    positive_rate: ratio(tp + fp, n),
    auc: aucFor(1),
    accuracy,
    fpr: ratio(fp, fp + tn),
    fnr: ratio(fn, fn + tp),
  };
}

/**
 * Per-group metrics of `model` on rows given as raw columns (every model
 * feature, and each field of `fields`) with their true target values.
 * Rows whose target is missing are left out. Groups are the fields'
 * distinct values (sorted; missing is a group of its own).
 *
 * @throws {ModelInputError} As `predict`, naming a feature column.
 *
 * @example
 * ```ts
 * import { encodeDataset } from "./encoding.ts";
 * import { train } from "./train.ts";
 * import { groupMetrics } from "./fairness.ts";
 * const x = Array.from({ length: 80 }, (_, i) => i % 10);
 * const g = x.map((_, i) => (i % 2 ? "a" : "b"));
 * const y = x.map((v) => (v > 4 ? "yes" : "no"));
 * const data = encodeDataset({ x, y }, [
 *   { name: "x", data_type: { data_type: "NUMBER" }, designation: "FEATURE", semantic_type: "CONTINUOUS" },
 *   { name: "y", data_type: { data_type: "STRING" }, designation: "TARGET", semantic_type: "CATEGORICAL" },
 * ]);
 * const model = train(data, { max_rounds: 20 });
 * const [m] = groupMetrics(model, { x, g }, y, ["g"]);
 * if (m.groups.map((r) => `${r.group}:${r.count}`).join() !== "a:40,b:40") throw new Error("example failed");
 * ```
 */
export function groupMetrics(
  model: EbmModel,
  columns: Record<string, ReadonlyArray<RawValue>>,
  targets: ReadonlyArray<RawValue>,
  fields: readonly string[],
): FieldGroupMetrics[] {
  const features: Record<string, ReadonlyArray<RawValue>> = Object.create(
    null,
  );
  for (const name of inputColumns(model.encoder)) {
    if (Object.hasOwn(columns, name)) features[name] = columns[name];
  }
  const pred = predict(model, features);
  const strip = model.encoder.target.strip;
  const truth = Array.from(targets, (v): string | number | null => {
    if (v === null || (typeof v === "number" && Number.isNaN(v))) return null;
    if (model.task === "regression") return Number(v);
    const s = strip ? String(v).trim() : String(v);
    return s === "" ? null : s;
  });
  const names = groupMetricNames(model);
  return fields.map((field) => {
    const values = columns[field] ?? [];
    const cuts = model.constraints?.groupCuts?.[field] ?? null;
    const byGroup = new Map<string, number[]>();
    truth.forEach((t, i) => {
      if (t === null) return;
      const g = groupOf(values[i], cuts);
      let list = byGroup.get(g);
      if (!list) byGroup.set(g, list = []);
      list.push(i);
    });
    // Intervals in their order, then values as text.
    const rank = (g: string) =>
      cuts
        ? g.startsWith("< ")
          ? 0
          : g.startsWith(">= ")
          ? cuts.length
          : g.startsWith("[")
          ? cuts.indexOf(Number(g.slice(1, g.indexOf(",")))) + 1
          : cuts.length + 1
        : 0;
    const keys = [...byGroup.keys()].sort((a, b) =>
      rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0)
    );
    const groups = keys.map((group): GroupRow => {
      const rows = byGroup.get(group)!;
      return {
        group,
        count: rows.length,
        metrics: figures(model, rows, pred, truth),
      };
    });
    const largest_gap: Record<string, number | null> = {};
    for (const name of names) {
      const v = groups.map((g) => g.metrics[name]).filter((x) => x !== null);
      largest_gap[name] = v.length >= 2
        ? Math.max(...v) - Math.min(...v)
        : null;
    }
    return { field, groups, largest_gap };
  });
}

/**
 * The per-group metrics as a split table (the `GROUP_METRICS` view): one
 * row per field and group, then one `(largest gap)` row per field.
 *
 * @example
 * ```ts
 * import { groupMetricsTable } from "./fairness.ts";
 * const t = groupMetricsTable([{ field: "g", groups: [{ group: "a", count: 2, metrics: { mae: 1 } }], largest_gap: { mae: null } }], ["mae"]);
 * if (t.columns.join() !== "field,group,count,mae" || t.data.length !== 2) throw new Error("example failed");
 * ```
 */
export function groupMetricsTable(
  report: FieldGroupMetrics[],
  names: string[],
): { columns: string[]; index: number[]; data: (string | number | null)[][] } {
  const data: (string | number | null)[][] = [];
  for (const f of report) {
    for (const g of f.groups) {
      data.push([f.field, g.group, g.count, ...names.map((m) => g.metrics[m])]);
    }
    data.push([
      f.field,
      "(largest gap)",
      null,
      ...names.map((m) => f.largest_gap[m]),
    ]);
  }
  return {
    columns: ["field", "group", "count", ...names],
    index: data.map((_, i) => i),
    data,
  };
}
