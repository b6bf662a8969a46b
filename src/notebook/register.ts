/**
 * Fills the display registry (`src/display.ts`) with the notebook's
 * renderers, on import: resources and job snapshots as cards, errors as red
 * cards, views answers as coloured tables, list pages as tables, global
 * explanations as importance charts, plus the live progress bar of awaited
 * jobs and the views answer's charts. Every package entry (`mod.ts`,
 * `local.ts`, `notebook.ts`) imports it, so rich display needs no setup.
 *
 * @example
 * ```ts
 * import "./register.ts";
 * import { renderAs } from "../display.ts";
 * const bundle = renderAs("resource", { id: "ws_1", name: "research" }, "Workspace");
 * if (!String(bundle["text/html"]).includes("research")) throw new Error("no card");
 * ```
 *
 * @module
 */
import { registerRenderer, viewsCharts } from "../display.ts";
import { notebookProgressHook } from "../jobs/progress.ts";
import type { GlobalExplanation } from "../schemas/artifacts.ts";
import type { Page } from "../schemas/common.ts";
import { fieldLabel } from "../schemas/label_display.ts";
import { explanationChart, importanceChart } from "./charts.ts";
import { probabilityHistogram } from "./class_charts.ts";
import { predictedVsActualChart, residualChart } from "./regression_charts.ts";
import { toMimeBundle } from "./displayable.ts";
import { pageTable } from "./page.ts";
import { notebookProgress } from "./progress.ts";
import { viewsTable } from "./views_table.ts";

registerRenderer("resource", (value, kind) => toMimeBundle(value, { kind }));
registerRenderer("error", (error) => toMimeBundle(error));
registerRenderer(
  "table",
  (table) => viewsTable(table as Parameters<typeof viewsTable>[0]),
);
registerRenderer(
  "page",
  (page, kind) => pageTable(page as Page<unknown>, kind ?? "Item"),
);
registerRenderer("explanation", (value) => {
  const explanation = value as GlobalExplanation;
  const chart = importanceChart(
    explanation.terms.map((t) => ({
      name: t.name,
      importance: t.importance,
      features: t.features,
    })),
    { labels: explanation.field_labels },
  );
  const title = `Global explanation of ${
    fieldLabel(explanation.target, explanation.field_labels)
  }${explanation.anchor ? ` against ${explanation.anchor.name}` : ""}`;
  return { ...chart, "text/plain": `${title}. ${chart["text/plain"]}` };
});
notebookProgressHook.set((title) => notebookProgress(title));
viewsCharts.set({
  explanationChart,
  probabilityHistogram,
  predictedVsActualChart,
  residualChart,
});
