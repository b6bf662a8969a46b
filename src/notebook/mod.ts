/**
 * Notebook displays for Deno's Jupyter kernel: resource and error cards, live
 * job progress, views tables and Vega-Lite charts. Everything is silent (or
 * returns `undefined`) outside Jupyter, and never renders secrets.
 *
 * @example
 * ```ts
 * import { isJupyter, notebookProgress } from "./mod.ts";
 * if (isJupyter() || notebookProgress("job") !== undefined) throw new Error("not a notebook");
 * ```
 *
 * @module
 */
import "./register.ts";

export {
  getJupyter,
  isJupyter,
  JUPYTER_DISPLAY,
  type JupyterLike,
  type MimeBundle,
} from "./jupyter.ts";
export {
  escapeHtml,
  isSecretKey,
  MASK,
  maskSecrets,
  maskSecretText,
} from "./html.ts";
export {
  type Card,
  errorCard,
  formatMetric,
  metricLabel,
  resourceCard,
} from "./card.ts";
export {
  curveFigures,
  curveOf,
  type CurvePoint,
  learningCurveChart,
} from "./curve.ts";
export {
  type ComparedModel,
  compareModels,
  type CompareModelsOptions,
  type ModelComparison,
} from "./compare.ts";
export { type Displayable, displayable, toMimeBundle } from "./displayable.ts";
export { pageTable } from "./page.ts";
export { viewsTable, type ViewsTableOptions } from "./views_table.ts";
export { groupMetricsChart } from "./fairness.ts";
export {
  type NotebookProgress,
  notebookProgress,
  type NotebookProgressOptions,
  progressBundle,
} from "./progress.ts";
export {
  type Chart,
  explanationChart,
  type ExplanationChartOptions,
  importanceChart,
  isRegressionTable,
  type RegressionChartOptions,
  type RegressionFit,
  regressionFit,
  shapeChart,
  VEGALITE_MIME,
  type VegaLiteSpec,
} from "./charts.ts";
export { classAucChart, probabilityHistogram } from "./class_charts.ts";
export { predictedVsActualChart, residualChart } from "./regression_charts.ts";
