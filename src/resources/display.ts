/**
 * Notebook rendering of what the resource methods return: every resource
 * becomes a card, a list page a small table, a views answer a coloured
 * table and a global explanation an importance chart, in Deno's Jupyter
 * kernel. The method is attached non-enumerably (`JSON.stringify`, spreads
 * and deep equality do not see it) and renders only when the kernel asks, so
 * the cost on a hot path (polling, views) is one property definition.
 *
 * @module
 */
import type { Page } from "../schemas/common.ts";
import type { Route } from "../schemas/routes.ts";
import type { GlobalExplanation } from "../schemas/artifacts.ts";
import type { SplitTable } from "../frames/types.ts";
import { attachDisplay, displayable } from "../notebook/displayable.ts";
import { importanceChart } from "../notebook/charts.ts";
import { escapeHtml } from "../notebook/html.ts";
import type { MimeBundle } from "../notebook/jupyter.ts";
import { badgeStyle, CARD_STYLE, statusColor } from "../notebook/style.ts";

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
 * import { displayResource } from "./display.ts";
 * const ws = displayResource({ id: "ws_1", name: "research" }, "Workspace");
 * const render = (ws as Record<symbol, () => Record<string, string>>)[Symbol.for("Jupyter.display")];
 * render()["text/plain"]; // "Workspace research (ws_1)"
 * JSON.stringify(ws); // '{"id":"ws_1","name":"research"}'
 * ```
 */
export function displayResource<T>(value: T, kind: string): T {
  if (!isExtensible(value)) return value;
  return displayable(value, { kind }) as T;
}

/**
 * Makes a list page render as a table of its items (name, id, status,
 * created), and each item as a card of its own.
 *
 * @example
 * ```ts
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
  return attach(page, () => pageBundle(page, kind));
}

/**
 * Makes a views answer (split table) render as the coloured views table.
 *
 * @example
 * ```ts
 * import { displayTable } from "./display.ts";
 * const table = displayTable({ columns: ["prediction.churn"], index: [0], data: [["Yes"]] });
 * const render = (table as unknown as Record<symbol, () => Record<string, string>>)[Symbol.for("Jupyter.display")];
 * render()["text/html"].includes("<table"); // true
 * ```
 */
export function displayTable<T extends SplitTable>(table: T): T {
  if (!isExtensible(table)) return table;
  return displayable(table) as T;
}

/**
 * Makes a model's global explanation render as a Vega-Lite chart of its
 * terms' importance.
 *
 * @example
 * ```ts
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
  return attach(explanation, () => {
    const chart = importanceChart(
      explanation.terms.map((t) => ({
        name: t.name,
        importance: t.importance,
      })),
    );
    const title = `Global explanation of ${explanation.target}`;
    return { ...chart, "text/plain": `${title}. ${chart["text/plain"]}` };
  });
}

function isExtensible<T>(value: T): value is T & object {
  return value !== null && typeof value === "object" &&
    Object.isExtensible(value);
}

// Non-enumerable, so invisible to JSON, spreads and deep equality.
function attach<T>(value: T, render: () => MimeBundle): T {
  return isExtensible(value) ? attachDisplay(value, render) : value;
}

const CELL =
  "padding:2px 10px 2px 0;border-bottom:1px solid #e4e4e7;text-align:left";

function pageBundle(page: Page<unknown>, kind: string): MimeBundle {
  const p = page.pagination;
  const caption = `${kind}s: page ${p.current_page} of ${
    Math.max(p.total_pages, 1)
  }, ${p.total_items} in all`;
  const rows = page.data.map((item) => {
    const r = (item ?? {}) as Record<string, unknown>;
    const status = typeof r.status === "string" ? r.status : "";
    return {
      name: String(r.name ?? ""),
      id: String(r.id ?? ""),
      status,
      created: String(r.created_at ?? ""),
    };
  });
  const html = `<div style="${CARD_STYLE}"><b>${escapeHtml(caption)}</b>` +
    (rows.length === 0
      ? ""
      : `<table style="border-collapse:collapse;margin-top:4px">` +
        `<tr>${
          ["name", "id", "status", "created"].map((h) =>
            `<th style="${CELL};color:#52525b;font-weight:600">${h}</th>`
          ).join("")
        }</tr>` +
        rows.map((r) =>
          `<tr><td style="${CELL}">${escapeHtml(r.name)}</td>` +
          `<td style="${CELL}"><code style="color:#71717a">${
            escapeHtml(r.id)
          }</code></td>` +
          `<td style="${CELL}">${
            r.status
              ? `<span style="${badgeStyle(statusColor(r.status))}">${
                escapeHtml(r.status)
              }</span>`
              : ""
          }</td><td style="${CELL};color:#71717a">${
            escapeHtml(r.created)
          }</td></tr>`
        ).join("") + `</table>`) +
    `</div>`;
  const text = [
    caption,
    ...rows.map((r) =>
      `  ${r.name} (${r.id})${r.status ? ` [${r.status}]` : ""}`
    ),
  ].join("\n");
  return { "text/html": html, "text/plain": text };
}
