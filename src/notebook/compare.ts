/**
 * Several models side by side in a notebook: their metrics in one table and
 * the shape function of one feature overlaid in one Vega-Lite chart, so a
 * reader sees at a glance which model scores better and where they disagree.
 *
 * Numeric features are drawn as step lines over the feature's values (bins
 * are parsed from their `[lo, hi)` labels, so models binned differently
 * still share one axis); categorical ones as grouped bars.
 *
 * @example
 * ```ts
 * import { compareModels } from "./compare.ts";
 * const model = (id: string, auc: number) => ({
 *   model: { id, name: id, metrics: { validation_auc: auc } },
 *   explanation: {
 *     target: "churn", classes: ["No", "Yes"], score_classes: ["Yes"], intercept: [0],
 *     terms: [{ name: "tenure", features: ["tenure"], importance: 1,
 *       labels: [["missing", "[0, 12)", "[12, 72]"]], scores: [[0, 0.5, -0.5]] }],
 *   },
 * });
 * const comparison = compareModels([model("a", 0.81), model("b", 0.84)], { feature: "tenure" });
 * if (!comparison.table["text/plain"].includes("0.84")) throw new Error("metrics missing");
 * const spec = comparison.chart!["application/vnd.vegalite.v5+json"];
 * if ((spec.data as { values: unknown[] }).values.length !== 8) throw new Error("2 models x 2 bins x 2 ends");
 * ```
 *
 * @module
 */
import { categoryLabel, fieldLabel } from "../schemas/label_display.ts";
import type { GlobalExplanation } from "../schemas/artifacts.ts";
import { formatMetric, metricLabel } from "./card.ts";
import { type Chart, VEGALITE_MIME } from "./charts.ts";
import { escapeHtml } from "./html.ts";
import { JUPYTER_DISPLAY, type MimeBundle, withDisplay } from "./jupyter.ts";
import { CARD_STYLE } from "./style.ts";

/** One model to compare: the resource and its global explanation. */
export interface ComparedModel {
  /** The model resource (`ml.models.get(id)` or what `ml.train` returned). */
  model: {
    id: string;
    name?: string;
    metrics?: Record<string, number | null>;
  };
  /** Its global explanation (`ml.models.explanation(id)`); needed for the chart. */
  explanation?: GlobalExplanation;
}

/** Options of {@linkcode compareModels}. */
export interface CompareModelsOptions {
  /** The feature whose shape functions are overlaid; without it, no chart. */
  feature?: string;
  /** For a multiclass model, the class whose scores are drawn (default: the first scored class). */
  scoreClass?: string;
  /** Metrics to show, in this order (default: every metric any model has). */
  metrics?: string[];
}

/** What {@linkcode compareModels} returns; renders as the table. */
export interface ModelComparison {
  /** The metrics table, one column per model (HTML and plain text). */
  table: MimeBundle & { "text/html": string; "text/plain": string };
  /** The overlaid shape functions, when a feature was asked for. */
  chart?: Chart;
}

/**
 * Puts several models side by side: `table` holds their metrics (one
 * column per model, the best value of each row in bold) and `chart` the
 * shape function of `options.feature` for every model in one chart. The
 * result renders as the table when it is a cell's value; show the chart
 * with `comparison.chart` in the next cell.
 *
 * @example
 * ```ts
 * import { compareModels } from "./compare.ts";
 * const comparison = compareModels([
 *   { model: { id: "m_1", name: "small", metrics: { validation_auc: 0.8123, train_rows: 4000 } } },
 *   { model: { id: "m_2", name: "large", metrics: { validation_auc: 0.8456, train_rows: 4000 } } },
 * ]);
 * if (!comparison.table["text/plain"].includes("validation ROC AUC")) throw new Error("unexpected");
 * if (comparison.chart !== undefined) throw new Error("no feature, no chart");
 * ```
 */
export function compareModels(
  models: ComparedModel[],
  options: CompareModelsOptions = {},
): ModelComparison {
  if (models.length === 0) {
    throw new RangeError("compareModels needs at least one model");
  }
  const names = uniqueNames(models);
  const table = metricsTable(models, names, options.metrics);
  const comparison: ModelComparison = { table };
  if (options.feature !== undefined) {
    comparison.chart = shapeOverlay(models, names, options.feature, options);
  }
  Object.defineProperty(comparison, JUPYTER_DISPLAY, {
    value: () => table,
    enumerable: false,
  });
  return comparison;
}

// Two models may share a name (retrained under the same name): add the id.
function uniqueNames(models: ComparedModel[]): string[] {
  const base = models.map((m) => m.model.name ?? m.model.id);
  return base.map((n, i) =>
    base.indexOf(n) !== base.lastIndexOf(n) ? `${n} (${models[i].model.id})` : n
  );
}

// Metrics where a lower value is better; every other one is "higher is better".
const LOWER_IS_BETTER = /(loss|error|rmse|mae|mse|mape)$/;
const NOT_A_SCORE = /(rows|count|rounds|iterations)$/;

const CELL =
  "padding:2px 10px;border-bottom:1px solid #e4e4e7;text-align:right";

function metricsTable(
  models: ComparedModel[],
  names: string[],
  only?: string[],
): ModelComparison["table"] {
  const keys = only ?? [
    ...new Set(models.flatMap((m) => Object.keys(m.model.metrics ?? {}))),
  ];
  const rows = keys.map((key) => {
    const values = models.map((m) => m.model.metrics?.[key] ?? null);
    const finite = values.filter((v): v is number => Number.isFinite(v));
    const best = NOT_A_SCORE.test(key) || finite.length < 2
      ? undefined
      : LOWER_IS_BETTER.test(key)
      ? Math.min(...finite)
      : Math.max(...finite);
    return { key, values, best };
  });
  const html = `<div style="${CARD_STYLE};max-width:none">` +
    `<b>Models compared</b>` +
    `<table style="border-collapse:collapse;margin-top:4px"><tr>` +
    `<th style="${CELL};text-align:left"></th>${
      names.map((n) =>
        `<th style="${CELL};color:#52525b;font-weight:600">${
          escapeHtml(n)
        }</th>`
      ).join("")
    }</tr>${
      rows.map((r) =>
        `<tr><td style="${CELL};text-align:left;color:#52525b">${
          escapeHtml(metricLabel(r.key))
        }</td>${
          r.values.map((v) => {
            const text = escapeHtml(formatMetric(r.key, v));
            return `<td style="${CELL}">${
              v !== null && v === r.best ? `<b>${text}</b>` : text
            }</td>`;
          }).join("")
        }</tr>`
      ).join("")
    }</table></div>`;
  const labelWidth = Math.max(6, ...rows.map((r) => metricLabel(r.key).length));
  const widths = names.map((n, j) =>
    Math.max(
      n.length,
      ...rows.map((r) => formatMetric(r.key, r.values[j]).length),
    )
  );
  const text = [
    `Models compared: ${names.join(", ")}`,
    `  ${"".padEnd(labelWidth)}  ${
      names.map((n, j) => n.padStart(widths[j])).join("  ")
    }`,
    ...rows.map((r) =>
      `  ${metricLabel(r.key).padEnd(labelWidth)}  ${
        r.values.map((v, j) => formatMetric(r.key, v).padStart(widths[j]))
          .join("  ")
      }`
    ),
  ].join("\n");
  return withDisplay({ "text/html": html, "text/plain": text }, (b) => b);
}

// "[0, 12)" or "[12.5, 72]": a numeric bin with its two ends.
const INTERVAL = /^\[\s*(-?[\d.e+-]+)\s*,\s*(-?[\d.e+-]+)\s*[)\]]$/i;

function shapeOverlay(
  models: ComparedModel[],
  names: string[],
  feature: string,
  options: CompareModelsOptions,
): Chart {
  const shapes = models.map((m, i) => {
    const e = m.explanation;
    if (e === undefined) {
      throw new TypeError(
        `model ${
          names[i]
        } has no explanation; pass { model, explanation: await ml.models.explanation(id) } to draw shapes`,
      );
    }
    const term = e.terms.find((t) =>
      t.features.length === 1 && t.features[0] === feature
    );
    if (term === undefined) {
      const known = e.terms.filter((t) => t.features.length === 1).map((t) =>
        t.name
      );
      throw new RangeError(
        `model ${
          names[i]
        } has no term for feature "${feature}" (its features: ${
          known.join(", ")
        })`,
      );
    }
    const wanted = options.scoreClass ?? e.score_classes[0];
    const at = Math.max(0, e.score_classes.indexOf(wanted));
    return {
      model: names[i],
      labels: term.labels[0],
      scores: term.scores[at],
      scoreClass: e.score_classes[at],
    };
  });
  // The feature and its categories by the schema's labels (the first
  // model's that has them); the data stay keyed by the raw name.
  const labels = models.find((m) => m.explanation?.field_labels)?.explanation
    ?.field_labels;
  const shown = fieldLabel(feature, labels);
  const classes = [...new Set(shapes.map((s) => s.scoreClass))];
  const yTitle = `score${classes.length === 1 ? ` (${classes[0]})` : ""}`;
  const numeric = shapes.every((s) =>
    s.labels.every((l) => l === "missing" || INTERVAL.test(l))
  );
  const title = `Shape of ${shown}: ${names.join(" vs ")}`;
  let spec: Record<string, unknown>;
  let values: Record<string, unknown>[];
  if (numeric) {
    // Each bin becomes a flat segment from its lower to its upper end.
    // `step` keeps the two points at a shared bin edge in drawing order.
    values = shapes.flatMap((s) =>
      s.labels.flatMap((label, b) => {
        const m = INTERVAL.exec(label);
        const point = (x: string, end: number) => ({
          model: s.model,
          [feature]: Number(x),
          score: s.scores[b],
          step: 2 * b + end,
        });
        return m ? [point(m[1], 0), point(m[2], 1)] : [];
      })
    );
    spec = {
      mark: { type: "line", interpolate: "linear" },
      encoding: {
        x: { field: feature, type: "quantitative", title: shown },
        y: { field: "score", type: "quantitative", title: yTitle },
        color: { field: "model", type: "nominal", title: "model" },
        order: { field: "step", type: "quantitative" },
        tooltip: [{ field: "model" }, { field: feature }, {
          field: "score",
          format: ".3f",
        }],
      },
    };
  } else {
    const named = (label: string) => categoryLabel(feature, label, labels);
    const order = [...new Set(shapes.flatMap((s) => s.labels.map(named)))];
    values = shapes.flatMap((s) =>
      s.labels.map((label, b) => ({
        model: s.model,
        [feature]: named(label),
        score: s.scores[b],
      }))
    );
    spec = {
      mark: "bar",
      encoding: {
        x: {
          field: feature,
          type: "nominal",
          sort: order,
          title: shown,
          axis: { labelAngle: -30 },
        },
        xOffset: { field: "model", type: "nominal" },
        y: { field: "score", type: "quantitative", title: yTitle },
        color: { field: "model", type: "nominal", title: "model" },
        tooltip: [{ field: "model" }, { field: feature }, {
          field: "score",
          format: ".3f",
        }],
      },
    };
  }
  const bundle: Chart = {
    [VEGALITE_MIME]: {
      $schema: "https://vega.github.io/schema/vega-lite/v5.json",
      title,
      width: 480,
      data: { values },
      ...spec,
    },
    "text/plain": `${title}. ${
      shapes.map((s) =>
        `${s.model}: ${s.labels.length} bins, scores ${
          Math.min(...s.scores).toFixed(3)
        } to ${Math.max(...s.scores).toFixed(3)}`
      ).join("; ")
    }`,
  };
  Object.defineProperty(bundle, JUPYTER_DISPLAY, {
    value: () => bundle,
    enumerable: false,
  });
  return bundle;
}
