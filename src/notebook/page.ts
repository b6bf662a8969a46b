/**
 * A list page of resources as a notebook table.
 *
 * @module
 */
import type { Page } from "../schemas/common.ts";
import { clipText, escapeHtml } from "./html.ts";
import { type MimeBundle, withDisplay } from "./jupyter.ts";
import { badgeStyle, CARD_STYLE, statusColor } from "./style.ts";

const CELL =
  "padding:2px 10px 2px 0;border-bottom:1px solid #e4e4e7;text-align:left";

/**
 * A list page as a small table of its items (name, id, status, created),
 * captioned with the kind and the page's position.
 *
 * @example
 * ```ts
 * import { pageTable } from "./page.ts";
 * const bundle = pageTable({
 *   data: [{ id: "m_1", name: "churn", status: "READY" }],
 *   pagination: { total_items: 1, items_per_page: 10, current_page: 1, total_pages: 1 },
 * }, "Model");
 * if (!String(bundle["text/plain"]).startsWith("Models: page 1 of 1, 1 in all")) throw new Error();
 * ```
 */
export function pageTable(page: Page<unknown>, kind: string): MimeBundle {
  const p = page.pagination;
  const caption = `${kind}s: page ${p.current_page} of ${
    Math.max(p.total_pages, 1)
  }, ${p.total_items} in all`;
  const rows = page.data.map((item) => {
    const r = (item ?? {}) as Record<string, unknown>;
    const status = typeof r.status === "string" ? r.status : "";
    return {
      // A long name is clipped, as a card's title is.
      name: clipText(String(r.name ?? ""), 120),
      id: clipText(String(r.id ?? ""), 120),
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
  return withDisplay({ "text/html": html, "text/plain": text }, (b) => b);
}
