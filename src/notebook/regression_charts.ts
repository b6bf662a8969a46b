/**
 * Charts of a regression model's answers: predicted against actual values
 * and residuals, as Vega-Lite bundles (charts.ts holds the others).
 *
 * @module
 */
import type { Chart, RegressionChartOptions } from "../display.ts";
import { numericPairs, regressionFit } from "../regression_fit.ts";
import { chart, DOWN, UP } from "./charts.ts";

/**
 * Predicted against actual values of a regression model as a scatter, with
 * the diagonal where a perfect model's points would lie; the title carries
 * R² and RMSE.
 *
 * @example
 * ```ts
 * import { predictedVsActualChart } from "./regression_charts.ts";
 * const c = predictedVsActualChart([10, 20, 30], [12, 19, 29], { target: "strength" });
 * if (!c["text/plain"].startsWith("Predicted vs actual strength: 3 rows, R² 0.97")) throw new Error(c["text/plain"]);
 * const layers = c["application/vnd.vegalite.v5+json"].layer as unknown[];
 * if (layers.length !== 2) throw new Error("the points and the diagonal");
 * ```
 */
export function predictedVsActualChart(
  actual: ArrayLike<unknown>,
  predicted: ArrayLike<unknown>,
  options: RegressionChartOptions = {},
): Chart {
  const { target, fit, points } = regression(actual, predicted, options);
  let lo = Infinity, hi = -Infinity;
  for (const p of points) {
    lo = Math.min(lo, p.actual, p.predicted);
    hi = Math.max(hi, p.actual, p.predicted);
  }
  const title = `Predicted vs actual ${target}: ${fit.rows} rows, R² ${
    fit.r2 === null ? "n/a" : fit.r2.toFixed(3)
  }, RMSE ${fit.rmse.toPrecision(3)}`;
  const scale = { domain: [lo, hi], nice: true, zero: false };
  return chart({
    title,
    width: 360,
    height: 360,
    layer: [
      pointsLayer(points, {
        x: axis("actual", `actual ${target}`, scale),
        y: axis("predicted", `predicted ${target}`, scale),
      }),
      {
        data: {
          values: [{ actual: lo, predicted: lo }, {
            actual: hi,
            predicted: hi,
          }],
        },
        mark: { type: "line", color: "#71717a", strokeDash: [4, 4] },
        encoding: {
          x: { field: "actual", type: "quantitative" },
          y: { field: "predicted", type: "quantitative" },
        },
      },
    ],
  }, title);
}

/**
 * Residuals (actual - predicted) of a regression model against the
 * prediction, with the zero line: a good model's points scatter evenly
 * around it, a pattern shows what it misses.
 *
 * @example
 * ```ts
 * import { residualChart } from "./regression_charts.ts";
 * const c = residualChart([10, 20, 30], [12, 19, 29], { target: "strength" });
 * const values = (c["application/vnd.vegalite.v5+json"].layer as { data: { values: { residual: number }[] } }[])[0].data.values;
 * if (values.map((v) => v.residual).join() !== "-2,1,1") throw new Error("unexpected");
 * ```
 */
export function residualChart(
  actual: ArrayLike<unknown>,
  predicted: ArrayLike<unknown>,
  options: RegressionChartOptions = {},
): Chart {
  const { target, fit, points: pairs } = regression(
    actual,
    predicted,
    options,
  );
  const points = pairs.map((p) => ({
    ...p,
    residual: p.actual - p.predicted,
  }));
  const title = `Residuals of ${target}: ${fit.rows} rows, mean ${
    fit.meanResidual.toPrecision(3)
  }, MAE ${fit.mae.toPrecision(3)}`;
  return chart({
    title,
    width: 420,
    height: 280,
    layer: [
      pointsLayer(points, {
        x: axis("predicted", `predicted ${target}`, { zero: false }),
        y: axis("residual", "residual (actual - predicted)"),
        color: {
          condition: { test: "datum.residual >= 0", value: UP },
          value: DOWN,
        },
        tooltip: ["residual"],
      }),
      {
        data: { values: [{ residual: 0 }] },
        mark: { type: "rule", color: "#71717a", strokeDash: [4, 4] },
        encoding: { y: { field: "residual", type: "quantitative" } },
      },
    ],
  }, title);
}

// What both regression charts show: the target's name, the fit and the rows
// with a numeric actual and prediction.
function regression(
  actual: ArrayLike<unknown>,
  predicted: ArrayLike<unknown>,
  options: RegressionChartOptions,
) {
  return {
    target: options.target ?? "target",
    fit: regressionFit(actual, predicted),
    points: numericPairs(actual, predicted),
  };
}

// A quantitative axis of the regression charts.
function axis(
  field: string,
  title: string,
  scale?: Record<string, unknown>,
): Record<string, unknown> {
  return { field, type: "quantitative", title, ...(scale ? { scale } : {}) };
}

// The points of a regression chart: one dot per row, its row number, actual
// and predicted values (and any `tooltip` fields) shown on hover.
function pointsLayer(
  values: object[],
  encoding: {
    x: Record<string, unknown>;
    y: Record<string, unknown>;
    color?: Record<string, unknown>;
    tooltip?: string[];
  },
): Record<string, unknown> {
  const { tooltip = [], ...axes } = encoding;
  return {
    data: { values },
    mark: { type: "point", filled: true, opacity: 0.6 },
    encoding: {
      ...axes,
      tooltip: [
        { field: "row" },
        ...["actual", "predicted", ...tooltip].map((field) => ({
          field,
          format: ".4~g",
        })),
      ],
    },
  };
}
