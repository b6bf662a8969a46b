/**
 * How well a regression model's predictions fit the actual values: R², RMSE,
 * MAE and the mean residual, over the rows where both are finite numbers.
 * Plain statistics, used by `ViewsResult.fit` and by the notebook's
 * regression charts.
 *
 * @module
 */

/** How well predictions fit: rows compared, R², RMSE, MAE and mean residual. */
export interface RegressionFit {
  /** Rows where both the actual and the predicted value are finite numbers. */
  rows: number;
  /** 1 - SSE/SST (null with fewer than 2 rows or a constant actual). */
  r2: number | null;
  /** Root mean squared error. */
  rmse: number;
  /** Mean absolute error. */
  mae: number;
  /** Mean of actual - predicted (0 for unbiased predictions). */
  meanResidual: number;
}

/**
 * R², RMSE, MAE and the mean residual of predictions against actual values,
 * over the rows where both are finite numbers (a missing actual is skipped).
 *
 * @example
 * ```ts
 * import { regressionFit } from "./regression_fit.ts";
 * const fit = regressionFit([1, 2, 3, 4], [1.1, 1.9, 3.2, 3.8]);
 * if (fit.rows !== 4 || fit.r2!.toFixed(2) !== "0.98" || fit.mae.toFixed(2) !== "0.15") throw new Error("unexpected");
 * ```
 */
export function regressionFit(
  actual: ArrayLike<unknown>,
  predicted: ArrayLike<unknown>,
): RegressionFit {
  const pairs = numericPairs(actual, predicted);
  const n = pairs.length;
  if (n === 0) {
    throw new RangeError(
      "no row has both a numeric actual and a numeric prediction; pass the target's values in the order of the views rows",
    );
  }
  let sse = 0, abs = 0, sum = 0;
  for (const p of pairs) {
    const r = p.actual - p.predicted;
    sse += r * r;
    abs += Math.abs(r);
    sum += r;
  }
  const r2 = rSquared(
    pairs.map((p) => p.predicted),
    pairs.map((p) => p.actual),
  );
  return {
    rows: n,
    r2: Number.isNaN(r2) ? null : r2,
    rmse: Math.sqrt(sse / n),
    mae: abs / n,
    meanResidual: sum / n,
  };
}

/**
 * Coefficient of determination R² = 1 - SSE / SST of predictions against
 * actual values: the one R² of the SDK (the model's validation R² and
 * {@linkcode regressionFit} both use it). NaN where it is undefined: fewer
 * than two rows, or a constant actual (SST = 0); `regressionFit` reports
 * that as null.
 *
 * @example
 * ```ts
 * import { rSquared } from "./regression_fit.ts";
 * if (rSquared([1, 2, 3], [1, 2, 3]) !== 1) throw new Error("perfect fit");
 * if (rSquared([1.5, 2.5], [1, 3]) !== 0.75) throw new Error("0.75");
 * if (!Number.isNaN(rSquared([], [])) || !Number.isNaN(rSquared([2, 2], [1, 1]))) throw new Error("undefined");
 * ```
 */
export function rSquared(
  predicted: ArrayLike<number>,
  actual: ArrayLike<number>,
): number {
  const n = actual.length;
  if (n < 2) return NaN;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += actual[i];
  mean /= n;
  let sse = 0, sst = 0;
  for (let i = 0; i < n; i++) {
    sse += (predicted[i] - actual[i]) ** 2;
    sst += (actual[i] - mean) ** 2;
  }
  return sst > 0 ? 1 - sse / sst : NaN;
}

/**
 * The rows where both the actual and the predicted value are finite numbers
 * (numeric strings count), with their row number.
 *
 * @example
 * ```ts
 * import { numericPairs } from "./regression_fit.ts";
 * const pairs = numericPairs([1, null, "3"], [1.5, 2, 2.5]);
 * if (pairs.map((p) => p.row).join() !== "0,2" || pairs[1].actual !== 3) throw new Error();
 * ```
 */
export function numericPairs(
  actual: ArrayLike<unknown>,
  predicted: ArrayLike<unknown>,
): { row: number; actual: number; predicted: number }[] {
  if (actual.length !== predicted.length) {
    throw new RangeError(
      `${actual.length} actual values but ${predicted.length} predictions; pass one actual value per views row, in the same order`,
    );
  }
  const out: { row: number; actual: number; predicted: number }[] = [];
  for (let i = 0; i < actual.length; i++) {
    const a = toFinite(actual[i]);
    const p = toFinite(predicted[i]);
    if (a !== undefined && p !== undefined) {
      out.push({ row: i, actual: a, predicted: p });
    }
  }
  return out;
}

function toFinite(value: unknown): number | undefined {
  const n = typeof value === "number"
    ? value
    : typeof value === "string" && value.trim() !== ""
    ? Number(value)
    : NaN;
  return Number.isFinite(n) ? n : undefined;
}
