/**
 * `@mlplatform/sdk/notebook`: helpers for Deno's Jupyter kernel. Views
 * tables, Vega-Lite charts of explanations and probabilities, resource and
 * error cards, live job progress. Everything is silent (or returns
 * `undefined`) outside Jupyter, and never renders secrets.
 *
 * @example
 * ```ts
 * import { isJupyter, viewsTable } from "./notebook.ts";
 * if (isJupyter()) throw new Error("deno test does not run in a notebook");
 * const table = viewsTable({ columns: ["prediction.species"], index: [0], data: [["Gentoo"]] });
 * if (!table["text/html"].includes("Gentoo")) throw new Error();
 * ```
 *
 * Importing any entry of the package registers these renderers, so errors,
 * jobs, resources and views answers render as cards, tables and charts on
 * their own; this entry adds the helpers to call directly. Internals of the
 * renderers (escaping, metric labels, progress bundles) stay importable by
 * path from `src/notebook/`.
 *
 * @module
 */
export {
  type Card,
  type Chart,
  type ComparedModel,
  compareModels,
  type CompareModelsOptions,
  type CurvePoint,
  type Displayable,
  displayable,
  errorCard,
  explanationChart,
  type ExplanationChartOptions,
  getJupyter,
  groupMetricsChart,
  importanceChart,
  isJupyter,
  isRegressionTable,
  JUPYTER_DISPLAY,
  type JupyterLike,
  learningCurveChart,
  maskSecrets,
  type MimeBundle,
  type ModelComparison,
  type NotebookProgress,
  notebookProgress,
  type NotebookProgressOptions,
  predictedVsActualChart,
  probabilityHistogram,
  type RegressionChartOptions,
  type RegressionFit,
  regressionFit,
  residualChart,
  resourceCard,
  shapeChart,
  toMimeBundle,
  VEGALITE_MIME,
  type VegaLiteSpec,
  viewsTable,
  type ViewsTableOptions,
} from "./src/notebook/mod.ts";
// The types the helpers above take (also exported by the root entry).
export type {
  FieldGroupMetrics,
  GlobalExplanation,
  SplitTable,
} from "./src/schemas/mod.ts";
export type { JobSnapshot } from "./src/jobs/status.ts";
