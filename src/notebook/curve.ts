/**
 * The learning curve of a training: training and validation loss per logged
 * boosting round, as a Vega-Lite chart (drawn live under a training job's
 * progress bar, and from a finished model) and as a short line of figures
 * for a terminal.
 *
 * @module
 */
import type { LearningCurvePoint } from "../schemas/learning_curve.ts";
import { type Chart, VEGALITE_MIME } from "./charts.ts";
import { JUPYTER_DISPLAY } from "./jupyter.ts";

/** One logged round of a training (the wire shape of `learning_curve` items). */
export type CurvePoint = LearningCurvePoint;

/**
 * The `learning_curve` of a job snapshot or model, when it carries a
 * well-formed one (the field is optional: services without it give `[]`).
 *
 * @example
 * ```ts
 * import { curveOf } from "./curve.ts";
 * curveOf({ id: "tj_1", status: "RUNNING" }).length; // 0
 * curveOf({ learning_curve: [{ round: 1, training_loss: 0.6, validation_loss: 0.61 }] })[0].round; // 1
 * ```
 */
export function curveOf(value: unknown): CurvePoint[] {
  const curve = (value as { learning_curve?: unknown } | null)
    ?.learning_curve;
  if (!Array.isArray(curve)) return [];
  return curve.filter((p): p is CurvePoint =>
    p !== null && typeof p === "object" &&
    typeof (p as CurvePoint).round === "number" &&
    typeof (p as CurvePoint).training_loss === "number"
  );
}

/**
 * A line chart of training and validation loss per logged round.
 *
 * @example
 * ```ts
 * import { learningCurveChart } from "./curve.ts";
 * const chart = learningCurveChart([
 *   { round: 10, training_loss: 0.52, validation_loss: 0.55 },
 *   { round: 20, training_loss: 0.45, validation_loss: 0.5 },
 * ], { title: "churn" });
 * const values = (chart["application/vnd.vegalite.v5+json"].data as { values: unknown[] }).values;
 * if (values.length !== 4) throw new Error("two rounds, two losses each");
 * ```
 */
export function learningCurveChart(
  points: CurvePoint[],
  options: { title?: string } = {},
): Chart {
  const values = points.flatMap((p) => [
    { round: p.round, loss: p.training_loss, split: "training" },
    ...(typeof p.validation_loss === "number"
      ? [{ round: p.round, loss: p.validation_loss, split: "validation" }]
      : []),
  ]);
  const title = `Learning curve${options.title ? ` of ${options.title}` : ""}`;
  const bundle: Chart = {
    [VEGALITE_MIME]: {
      $schema: "https://vega.github.io/schema/vega-lite/v5.json",
      title,
      width: 420,
      height: 200,
      data: { values },
      mark: { type: "line", point: points.length <= 40 },
      encoding: {
        x: { field: "round", type: "quantitative", title: "boosting round" },
        y: {
          field: "loss",
          type: "quantitative",
          title: "loss",
          scale: { zero: false },
        },
        color: {
          field: "split",
          type: "nominal",
          scale: {
            domain: ["training", "validation"],
            range: ["#2563eb", "#dc2626"],
          },
          title: null,
        },
        tooltip: [{ field: "split" }, { field: "round" }, {
          field: "loss",
          format: ".4f",
        }],
      },
    },
    "text/plain": `${title}: ${points.length} logged rounds${
      points.length ? `; ${curveFigures(points)}` : ""
    }`,
  };
  Object.defineProperty(bundle, JUPYTER_DISPLAY, {
    value: () => bundle,
    enumerable: false,
  });
  return bundle;
}

/**
 * The latest figures of a curve for a terminal line, e.g.
 * `round 40 loss 0.412 val 0.436`; `""` for no points.
 *
 * @example
 * ```ts
 * import { curveFigures } from "./curve.ts";
 * curveFigures([{ round: 40, training_loss: 0.41234, validation_loss: 0.4361 }]); // "round 40 loss 0.412 val 0.436"
 * ```
 */
export function curveFigures(points: CurvePoint[]): string {
  const last = points.at(-1);
  if (last === undefined) return "";
  const val = typeof last.validation_loss === "number"
    ? ` val ${last.validation_loss.toFixed(3)}`
    : "";
  return `round ${last.round} loss ${last.training_loss.toFixed(3)}${val}`;
}
