/**
 * The learning curve of a training: training and validation loss per logged
 * boosting round, as a Vega-Lite chart (drawn live under a training job's
 * progress bar, and from a finished model). Reading the curve and its
 * terminal figures lives with the jobs (`src/jobs/curve.ts`).
 *
 * @module
 */
import { type Chart, JUPYTER_DISPLAY, VEGALITE_MIME } from "../display.ts";
import { curveFigures, type CurvePoint } from "../jobs/curve.ts";

export { curveFigures, curveOf, type CurvePoint } from "../jobs/curve.ts";

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
