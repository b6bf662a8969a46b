/**
 * Vega-Lite v5 charts as Jupyter MIME bundles: one row's explanation, global
 * term importance and a term's shape function (a classifier's charts are
 * class_charts.ts's, a regression model's regression_charts.ts's). Each result renders when it is a cell's value and can also
 * be passed to `Deno.jupyter.display(chart, { raw: true })`.
 *
 * @module
 */
import type { SplitTable } from "../frames/types.ts";
import { checkAlignedTable } from "../frames/scan.ts";
import {
  type Chart,
  type ExplanationChartOptions,
  JUPYTER_DISPLAY,
  VEGALITE_MIME,
} from "../display.ts";

export {
  type Chart,
  type ExplanationChartOptions,
  type RegressionChartOptions,
  VEGALITE_MIME,
  type VegaLiteSpec,
} from "../display.ts";
export { type RegressionFit, regressionFit } from "../regression_fit.ts";
import {
  categoryLabel,
  fieldLabel,
  termLabel,
} from "../schemas/label_display.ts";
import type { FieldLabels } from "../schemas/labels.ts";

const SCHEMA = "https://vega.github.io/schema/vega-lite/v5.json";
/** The colour of a contribution or residual that raises the score. */
export const UP = "#dc2626";
/** ...and of one that lowers it. */
export const DOWN = "#2563eb";

/**
 * A Vega-Lite spec (the schema added) and its plain-text version as a
 * chart bundle that renders when it is a cell's value.
 *
 * @example
 * ```ts
 * import { chart } from "./charts.ts";
 * const c = chart({ mark: "bar" }, "bars");
 * if (c["text/plain"] !== "bars") throw new Error("unexpected");
 * ```
 */
export function chart(spec: Record<string, unknown>, text: string): Chart {
  const bundle: Chart = {
    [VEGALITE_MIME]: { $schema: SCHEMA, ...spec },
    "text/plain": text,
  };
  // Non-enumerable, so the bundle stays a plain bundle for display(..., { raw: true }).
  Object.defineProperty(bundle, JUPYTER_DISPLAY, {
    value: () => bundle,
    enumerable: false,
  });
  return bundle;
}

const signColor = {
  field: "direction",
  type: "nominal",
  scale: { domain: ["raises", "lowers"], range: [UP, DOWN] },
  title: "effect",
};

/**
 * Whether a views table answers a regression model: a numeric prediction
 * and no `probability.*` column.
 *
 * @example
 * ```ts
 * import { isRegressionTable } from "./charts.ts";
 * const regression = { columns: ["prediction.price", "bias"], index: [0], data: [[250000, 240000]] };
 * const classification = { columns: ["prediction.y", "probability.y.a", "bias"], index: [0], data: [["a", 0.9, 1]] };
 * if (!isRegressionTable(regression) || isRegressionTable(classification)) throw new Error("unexpected");
 * ```
 */
export function isRegressionTable(table: SplitTable): boolean {
  const at = table.columns.findIndex((c) => c.startsWith("prediction."));
  return at >= 0 &&
    !table.columns.some((c) => c.startsWith("probability.")) &&
    table.data.every((row) => row[at] === null || typeof row[at] === "number");
}

/**
 * Explains one row of a views answer: `bias` plus each `contribution.<term>`
 * adds up to the row's log-odds of the explained class (for regression, to
 * the prediction itself, or to its log for a log-link model).
 *
 * @example
 * ```ts
 * import { explanationChart } from "./charts.ts";
 * const table = {
 *   columns: ["prediction.churn", "bias", "contribution.tenure", "contribution.contract"],
 *   index: [0],
 *   data: [["Yes", -1, 2, -0.5]],
 * };
 * const spec = explanationChart(table, 0)["application/vnd.vegalite.v5+json"];
 * const steps = (spec.data as { values: { term: string; end: number }[] }).values;
 * if (steps.at(-1)!.end !== 0.5) throw new Error("log-odds should be -1 + 2 - 0.5");
 * // A log-link regression: bias + contributions = log(prediction).
 * const priced = { columns: ["prediction.price", "bias", "contribution.area"], index: [0], data: [[Math.exp(3), 2, 1]] };
 * const title = JSON.stringify(explanationChart(priced, 0)["application/vnd.vegalite.v5+json"].title);
 * if (!title.includes("log prediction 3.000")) throw new Error(title);
 * ```
 */
export function explanationChart(
  table: SplitTable,
  row = 0,
  options: ExplanationChartOptions = {},
): Chart {
  // Checked as toDataFrame() checks it: a contribution named twice was
  // charted twice.
  checkAlignedTable(table);
  const values = table.data[row];
  if (values === undefined) {
    throw new RangeError(
      `row ${row} is not in the table (it has ${table.data.length} rows)`,
    );
  }
  const biasAt = table.columns.indexOf("bias");
  // Terms shown by their labels (the answer's `field_labels`), the raw
  // name kept beside them for tooltips.
  const labels = table.field_labels;
  const terms = table.columns.flatMap((c, j) =>
    c.startsWith("contribution.") && typeof values[j] === "number" &&
      Number.isFinite(values[j])
      ? [{
        term: termLabel(c.slice("contribution.".length), labels),
        raw: c.slice("contribution.".length),
        value: values[j] as number,
      }]
      : []
  );
  // No contribution column is a model with no term left (all pruned): its
  // bias is the whole score.
  if (biasAt < 0) {
    throw new TypeError(
      "the table has no `bias` column; ask the views endpoint for RESULTS with explanations",
    );
  }
  if (typeof values[biasAt] !== "number") {
    throw new RangeError(
      `row ${row} has no explanation: its views are null (a row the model could not score)`,
    );
  }
  const top = options.top ?? 12;
  if (!Number.isInteger(top) || top < 0) {
    throw new RangeError(
      `top must be a whole number of terms, 0 or more (got ${top})`,
    );
  }
  const bias = Number(values[biasAt]);
  terms.sort((a, b) => Math.abs(b.value) - Math.abs(a.value));
  const kept = terms.slice(0, top);
  if (terms.length > top) {
    const rest = terms.slice(top);
    kept.push({
      term: `other (${rest.length} terms)`,
      raw: "",
      value: rest.reduce((s, t) => s + t.value, 0),
    });
  }
  const total = bias + terms.reduce((s, t) => s + t.value, 0);
  const predictionAt = table.columns.findIndex((c) =>
    c.startsWith("prediction.")
  );
  const predicted = values[predictionAt];
  const target = predictionAt >= 0 ? table.columns[predictionAt].slice(11) : "";
  // The classes, by their probability columns (a class may be named "1.0"
  // or "a,b": the column's rest is the class, whatever it holds).
  const prefix = `probability.${target}.`;
  const classes = predictionAt < 0
    ? []
    : table.columns.flatMap((c, j) =>
      c.startsWith(prefix)
        ? [{ name: c.slice(prefix.length), p: values[j] }]
        : []
    );
  // A log-link regression's explanation adds up to the prediction's log
  // (docs/contract.md#views): the sum says which, exactly. A classifier's
  // adds up to the log-odds of the explained class (two classes) or its
  // softmax logit (three or more).
  const scale = options.scale ??
    (!isRegressionTable(table)
      ? classes.length >= 3 ? "softmax logit" : "log-odds"
      : typeof predicted === "number" &&
          Math.abs(total - predicted) > 1e-6 * Math.max(1, Math.abs(total))
      ? "log prediction"
      : "prediction");
  const explained = explainedClass(options.explained, classes, total, target);
  // One nominal value per step: Vega-Lite draws equal values in one band,
  // so a feature named `bias` (or `prediction`, or two features sharing a
  // label) was drawn over another step. The intercept and the total keep
  // their names; a term that meets a name already taken shows its column.
  const taken = new Set<string>(
    options.kind === "bars" ? [] : ["bias", scale],
  );
  for (const t of kept) {
    t.term = distinctName(t.term, t.raw && `contribution.${t.raw}`, taken);
  }
  const label = predictionAt >= 0
    ? ` - ${fieldLabel(target, labels)} = ${
      typeof predicted === "number"
        ? Number(predicted.toPrecision(4)) // a regression value, readable
        : categoryLabel(target, String(predicted), labels)
    }`
    : "";
  const against = table.anchor
    ? ` against ${table.anchor.name ?? `${table.anchor.rows} reference rows`}`
    : "";
  const of = explained === undefined
    ? ""
    : ` of ${categoryLabel(target, explained, labels)}`;
  const title = `Row ${table.index?.[row] ?? row}${label}: ${scale}${of} ${
    total.toFixed(3)
  }${against}`;
  const text = `${title} (bias ${bias.toFixed(3)}; ${
    kept.map((t) => `${t.term} ${t.value >= 0 ? "+" : ""}${t.value.toFixed(3)}`)
      .join(", ")
  })`;

  if (options.kind === "bars") {
    return chart({
      title,
      data: {
        values: kept.map((t) => ({
          ...t,
          direction: t.value >= 0 ? "raises" : "lowers",
        })),
      },
      mark: "bar",
      encoding: {
        y: { field: "term", type: "nominal", sort: "-x", title: null },
        x: {
          field: "value",
          type: "quantitative",
          title: `contribution to ${scale}`,
        },
        color: signColor,
        tooltip: [{ field: "term" }, { field: "raw", title: "column" }, {
          field: "value",
          format: ".3f",
        }],
      },
    }, text);
  }
  let running = bias;
  const steps: Record<string, unknown>[] = [{
    term: "bias",
    start: 0,
    end: bias,
    value: bias,
    direction: "base",
  }];
  for (const t of kept) {
    steps.push({
      term: t.term,
      raw: t.raw,
      start: running,
      end: running + t.value,
      value: t.value,
      direction: t.value >= 0 ? "raises" : "lowers",
    });
    running += t.value;
  }
  steps.push({
    term: scale,
    start: 0,
    end: total,
    value: total,
    direction: "total",
  });
  return chart({
    title,
    data: { values: steps },
    mark: { type: "bar" },
    encoding: {
      x: {
        field: "term",
        type: "nominal",
        sort: null,
        title: null,
        axis: { labelAngle: -40 },
      },
      y: { field: "start", type: "quantitative", title: scale },
      y2: { field: "end" },
      color: {
        field: "direction",
        type: "nominal",
        scale: {
          domain: ["base", "raises", "lowers", "total"],
          range: ["#71717a", UP, DOWN, "#18181b"],
        },
        title: null,
      },
      tooltip: [{ field: "term" }, { field: "raw", title: "column" }, {
        field: "value",
        format: ".3f",
      }, {
        field: "end",
        title: "running total",
        format: ".3f",
      }],
    },
  }, text);
}

/**
 * `name`, or when it is taken, `name [raw]` (or `name (2)`, `name (3)`...):
 * a nominal value no other mark of the chart has. Records what it returns.
 *
 * @example
 * ```ts
 * import { distinctName } from "./charts.ts";
 * const taken = new Set(["bias"]);
 * if (distinctName("bias", "contribution.bias", taken) !== "bias [contribution.bias]") throw new Error();
 * if (distinctName("x", "", taken) !== "x" || distinctName("x", "", taken) !== "x (2)") throw new Error();
 * ```
 */
export function distinctName(
  name: string,
  raw: string,
  taken: Set<string>,
): string {
  let out = taken.has(name) && raw !== "" && raw !== name
    ? `${name} [${raw}]`
    : name;
  for (let k = 2; taken.has(out); k++) out = `${name} (${k})`;
  taken.add(out);
  return out;
}

// The class an explanation is of: the one asked for (checked against the
// table's classes), else for two classes the one whose log-odds the total
// is (the other's is its negative; at 0 both are, and none is named).
function explainedClass(
  asked: string | undefined,
  classes: { name: string; p: unknown }[],
  total: number,
  target: string,
): string | undefined {
  if (asked !== undefined) {
    if (!classes.some((c) => c.name === asked)) {
      throw new RangeError(
        `explained: ${
          JSON.stringify(asked)
        } is not a class of ${target} (classes: ${
          classes.map((c) => JSON.stringify(c.name)).join(", ") || "none"
        })`,
      );
    }
    return asked;
  }
  if (classes.length !== 2) return undefined;
  const [a, b] = classes.map((c) => c.p);
  if (typeof a !== "number" || typeof b !== "number" || !(a > 0 && b > 0)) {
    return undefined;
  }
  const logOdds = Math.log(b) - Math.log(a); // of the second class
  const tolerance = 1e-4 * Math.max(1, Math.abs(total));
  const ofB = Math.abs(total - logOdds) <= tolerance;
  const ofA = Math.abs(total + logOdds) <= tolerance;
  return ofA === ofB ? undefined : ofB ? classes[1].name : classes[0].name;
}

/**
 * Global importance of a model's terms as sorted horizontal bars.
 *
 * @example
 * ```ts
 * import { importanceChart } from "./charts.ts";
 * const c = importanceChart([{ name: "tenure", importance: 0.9 }, { name: "contract", importance: 0.4 }]);
 * if (c["application/vnd.vegalite.v5+json"].mark !== "bar") throw new Error("unexpected");
 * ```
 */
export function importanceChart(
  terms: { name: string; importance: number; features?: string[] }[],
  options: {
    top?: number;
    /** Show terms by these labels (a global explanation's `field_labels`). */
    labels?: FieldLabels;
  } = {},
): Chart {
  const shown = [...terms].filter((t) => Number.isFinite(t.importance)).sort((
    a,
    b,
  ) => b.importance - a.importance)
    .slice(0, options.top ?? 30);
  // Two terms sharing a label are two bars (one band each), not one.
  const taken = new Set<string>();
  const sorted = shown.map((t) => ({
    name: distinctName(
      termLabel(t.name, options.labels, t.features),
      t.name,
      taken,
    ),
    term: t.name,
    importance: t.importance,
  }));
  return chart(
    {
      title: "Term importance",
      data: { values: sorted },
      mark: "bar",
      encoding: {
        y: { field: "name", type: "nominal", sort: "-x", title: null },
        x: { field: "importance", type: "quantitative", title: "importance" },
        tooltip: [{ field: "name" }, { field: "term", title: "term" }, {
          field: "importance",
          format: ".4f",
        }],
      },
    },
    `Term importance: ${
      sorted.map((t) => `${t.name} ${t.importance.toFixed(4)}`).join(", ")
    }`,
  );
}

/**
 * A term's shape function: the score it adds for each bin or category, in
 * the order given.
 *
 * @example
 * ```ts
 * import { shapeChart } from "./charts.ts";
 * const c = shapeChart({ labels: ["0-12", "12-24", "24+"], scores: [0.8, 0.1, -0.6] }, { term: "tenure" });
 * const values = (c["application/vnd.vegalite.v5+json"].data as { values: unknown[] }).values;
 * if (values.length !== 3) throw new Error("unexpected");
 * ```
 */
export function shapeChart(
  shape: { labels: string[]; scores: number[] },
  options: {
    term?: string;
    /** What a score is in: `"log-odds"` (default) or, for regression, the target's name. */
    unit?: string;
    /**
     * Show the term and its categories by these labels (a global
     * explanation's `field_labels`); `term` is then the raw term name.
     */
    labels?: FieldLabels;
  } = {},
): Chart {
  if (shape.labels.length !== shape.scores.length) {
    throw new RangeError(
      `shape has ${shape.labels.length} labels but ${shape.scores.length} scores; they must pair up one to one`,
    );
  }
  const { labels, term: feature } = options;
  const term = labels && feature ? termLabel(feature, labels) : feature;
  // Bins by their labels; two categories sharing a friendly name stay two
  // bars (Vega-Lite draws equal nominal values in one band).
  const taken = new Set<string>();
  const values = shape.labels.map((raw, i) => ({
    label: distinctName(
      labels && feature ? categoryLabel(feature, raw, labels) : raw,
      raw,
      taken,
    ),
    score: shape.scores[i],
    direction: shape.scores[i] >= 0 ? "raises" : "lowers",
  }));
  const title = `Shape of ${term ?? "term"}`;
  return chart(
    {
      title,
      // A numeric feature can have hundreds of bins: cap the width so the
      // chart fits a notebook page, and let Vega-Lite thin the labels.
      width: Math.min(640, Math.max(160, values.length * 18)),
      data: { values },
      mark: "bar",
      encoding: {
        x: {
          field: "label",
          type: "nominal",
          sort: null,
          title: term ?? null,
          axis: { labelOverlap: true },
        },
        y: {
          field: "score",
          type: "quantitative",
          title: `score (${options.unit ?? "log-odds"})`,
        },
        color: signColor,
        tooltip: [{ field: "label" }, { field: "score", format: ".3f" }],
      },
    },
    `${title}: ${
      values.map((v) => `${v.label} ${v.score.toFixed(3)}`).join(", ")
    }`,
  );
}
