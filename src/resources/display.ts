/**
 * The display hooks of what the resource methods return: every resource
 * renders as a card, a list page as a small table, a views answer as a
 * coloured table and a global explanation as an importance chart, in Deno's
 * Jupyter kernel, through the renderers the notebook layer registers
 * (`src/display.ts`). The method is attached non-enumerably
 * (`JSON.stringify`, spreads and deep equality do not see it) and renders
 * only when the kernel asks, so the cost on a hot path (polling, views) is
 * one property definition.
 *
 * @module
 */
import type { Page } from "../schemas/common.ts";
import type { Route } from "../schemas/routes.ts";
import type { GlobalExplanation } from "../schemas/artifacts.ts";
import type { SplitTable } from "../frames/types.ts";
import { displayAs } from "../display.ts";

/**
 * The display name of a route group's resource, read from its `get` route's
 * summary ("Retrieve a data processing ingestion job" -> "Ingestion job"),
 * so the route table stays the one place that names things.
 *
 * @example
 * ```ts
 * import { kindOf } from "./display.ts";
 * import { routes } from "../schemas/routes.ts";
 * kindOf(routes.ingestionJobs.get); // "Ingestion job"
 * kindOf(routes.models.get); // "Model"
 * ```
 */
export function kindOf(route: Route): string {
  const noun = route.summary
    .replace(/^Retrieve (an?|one) /, "")
    .replace(/^data processing /, "")
    .replace(/\s*\(.*\)$/, "");
  return noun.charAt(0).toUpperCase() + noun.slice(1);
}

/**
 * Makes a resource render as a card titled with its `kind`. Frozen or
 * non-object values are returned as they are.
 *
 * @example
 * ```ts
 * import "../../mod.ts"; // any package entry loads the notebook renderers
 * import { displayResource } from "./display.ts";
 * const ws = displayResource({ id: "ws_1", name: "research" }, "Workspace");
 * const render = (ws as Record<symbol, () => Record<string, string>>)[Symbol.for("Jupyter.display")];
 * render()["text/plain"]; // "Workspace research (ws_1)"
 * JSON.stringify(ws); // '{"id":"ws_1","name":"research"}'
 * ```
 */
export function displayResource<T>(value: T, kind: string): T {
  return displayAs(value, "resource", kind);
}

/**
 * Makes a list page render as a table of its items (name, id, status,
 * created), and each item as a card of its own.
 *
 * @example
 * ```ts
 * import "../../mod.ts"; // any package entry loads the notebook renderers
 * import { displayPage } from "./display.ts";
 * const page = displayPage({
 *   data: [{ id: "m_1", name: "churn", status: "READY" }],
 *   pagination: { total_items: 1, items_per_page: 10, current_page: 1, total_pages: 1 },
 * }, "Model");
 * const render = (page as unknown as Record<symbol, () => Record<string, string>>)[Symbol.for("Jupyter.display")];
 * render()["text/html"].includes("churn"); // true
 * ```
 */
export function displayPage<T>(page: Page<T>, kind: string): Page<T> {
  for (const item of page.data) displayResource(item, kind);
  return displayAs(page, "page", kind);
}

/**
 * Makes a views answer (split table) render as the coloured views table.
 *
 * @example
 * ```ts
 * import "../../mod.ts"; // any package entry loads the notebook renderers
 * import { displayTable } from "./display.ts";
 * const table = displayTable({ columns: ["prediction.churn"], index: [0], data: [["Yes"]] });
 * const render = (table as unknown as Record<symbol, () => Record<string, string>>)[Symbol.for("Jupyter.display")];
 * render()["text/html"].includes("<table"); // true
 * ```
 */
export function displayTable<T extends SplitTable>(table: T): T {
  return displayAs(table, "table");
}

/**
 * Makes a model's global explanation render as a Vega-Lite chart of its
 * terms' importance.
 *
 * @example
 * ```ts
 * import "../../mod.ts"; // any package entry loads the notebook renderers
 * import { displayExplanation } from "./display.ts";
 * const explanation = displayExplanation({
 *   target: "churn", classes: ["No", "Yes"], score_classes: ["Yes"], intercept: [-1],
 *   terms: [{ name: "tenure", features: ["tenure"], importance: 0.4, labels: [["1"]], scores: [[0.1]] }],
 * });
 * const render = (explanation as unknown as Record<symbol, () => Record<string, unknown>>)[Symbol.for("Jupyter.display")];
 * "application/vnd.vegalite.v5+json" in render(); // true
 * ```
 */
export function displayExplanation<T extends GlobalExplanation>(
  explanation: T,
): T {
  return displayAs(explanation, "explanation");
}
