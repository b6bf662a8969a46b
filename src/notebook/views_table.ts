/**
 * A views answer as an HTML table: contribution cells coloured by sign
 * (red pushes the explained class up, blue pushes it down) and by magnitude.
 *
 * @module
 */
import type { SplitTable } from "../frames/types.ts";
import { checkAlignedTable } from "../frames/scan.ts";
import { clipText, escapeHtml, isSecretKey, MASK, oneLine } from "./html.ts";
import { type MimeBundle, withDisplay } from "./jupyter.ts";
import { columnLabel } from "../schemas/label_display.ts";

/** Options of {@linkcode viewsTable}. */
export interface ViewsTableOptions {
  /** Rows shown; the rest is summarised in a footer. Default 50. */
  maxRows?: number;
}

const CELL = "padding:2px 8px;border-bottom:1px solid #e4e4e7;text-align:right";
// What a cell or a header shows of a long value (a class name, a free-text
// column): the rest is "…", the value's start up to TITLE in its tooltip.
const SHOWN = 120;
const OUTPUT = /^(prediction\.|probability\.|contribution\.|bias$)/;
const TITLE = 1000;

/**
 * Renders a split table as `{ "text/html", "text/plain" }`. Columns named
 * `contribution.*` are shaded: the strongest contribution shown gets the
 * deepest colour.
 *
 * @example
 * ```ts
 * import { viewsTable } from "./views_table.ts";
 * const bundle = viewsTable({
 *   columns: ["prediction.churn", "bias", "contribution.tenure", "contribution.contract"],
 *   index: [0],
 *   data: [["Yes", -1.2, 0.8, -0.4]],
 * });
 * if (!bundle["text/html"].includes("rgba(220,38,38,1.00)")) throw new Error("strongest cell not full red");
 * ```
 */
export function viewsTable(
  table: SplitTable,
  options: ViewsTableOptions = {},
): MimeBundle & { "text/html": string; "text/plain": string } {
  // Checked as toDataFrame() checks it: no data was a TypeError, a column
  // named twice or a short row was shown without a word.
  checkAlignedTable(table);
  const maxRows = options.maxRows ?? 50;
  const n = table.data.length;
  const shown = table.data.slice(0, maxRows);
  const contribution = table.columns.map((c) => c.startsWith("contribution."));
  // What the views endpoint answers (predictions, probabilities, bias and
  // each term's contribution) is the model's output, never a credential,
  // whatever its feature is named (n_tokens_content); another column named
  // like a secret is masked, but for numbers (a count of tokens is no
  // credential).
  const secret = table.columns.map((c) => !OUTPUT.test(c) && isSecretKey(c));
  const masked = (v: unknown, j: number) =>
    secret[j] && typeof v !== "number" && v !== null && v !== undefined;
  let scale = 0;
  for (const row of shown) {
    for (let j = 0; j < row.length; j++) {
      const v = row[j];
      if (contribution[j] && typeof v === "number" && Number.isFinite(v)) {
        scale = Math.max(scale, Math.abs(v));
      }
    }
  }
  // A labelled column shows its label, the raw name beneath it.
  const target = table.columns.find((c) => c.startsWith("prediction."))
    ?.slice("prediction.".length);
  const head = `<tr><th style="${CELL}"></th>${
    table.columns.map((c) => {
      const label = columnLabel(c, table.field_labels, target);
      const raw = label === c
        ? ""
        : `<br><span style="font-weight:400;color:#71717a">${
          escapeHtml(clipText(c, SHOWN))
        }</span>`;
      return `<th style="${CELL};font-weight:600" title="${
        escapeHtml(clipText(c, TITLE))
      }">${escapeHtml(clipText(label, SHOWN))}${raw}</th>`;
    }).join("")
  }</tr>`;
  const body = shown.map((row, i) =>
    `<tr><th style="${CELL};color:#71717a;font-weight:400">${
      escapeHtml(clipText(String(table.index?.[i] ?? i), SHOWN))
    }</th>${
      row.map((v, j) => {
        const shade = contribution[j] && typeof v === "number" && scale > 0
          ? `;background:${shadeOf(v, scale)}`
          : "";
        const text = masked(v, j) ? MASK : format(v);
        const title = text.length > SHOWN
          ? ` title="${escapeHtml(clipText(text, TITLE))}"`
          : "";
        return `<td style="${CELL}${shade}"${title}>${
          escapeHtml(clipText(text, SHOWN))
        }</td>`;
      }).join("")
    }</tr>`
  ).join("");
  const more = n > shown.length
    ? `<div style="color:#71717a;font-size:11px">${
      n - shown.length
    } more rows not shown (${n} in all)</div>`
    : "";
  const html =
    `<div style="font-family:system-ui,sans-serif;font-size:12px;overflow-x:auto"><table style="border-collapse:collapse">${head}${body}</table>${more}</div>`;
  // One line per row, one tab per column: a cell's own tabs and line
  // breaks are written as escapes, a long value clipped.
  const plain = (value: string) => clipText(oneLine(value), SHOWN);
  const text = [
    ["", ...table.columns].map(plain).join("\t"),
    ...shown.map((row, i) =>
      [
        plain(String(table.index?.[i] ?? i)),
        ...row.map((v, j) => masked(v, j) ? MASK : plain(format(v))),
      ].join("\t")
    ),
    ...(n > shown.length ? [`… ${n - shown.length} more rows`] : []),
  ].join("\n");
  // Renders as the table when it is a cell's value.
  return withDisplay({ "text/html": html, "text/plain": text }, (b) => b);
}

function shadeOf(value: number, scale: number): string {
  const alpha = Math.min(1, Math.abs(value) / scale).toFixed(2);
  return value >= 0 ? `rgba(220,38,38,${alpha})` : `rgba(37,99,235,${alpha})`;
}

function format(value: unknown): string {
  if (
    value === null || value === undefined ||
    (typeof value === "number" && Number.isNaN(value))
  ) return "";
  if (typeof value === "number" && !Number.isInteger(value)) {
    return String(Number(value.toPrecision(4)));
  }
  return String(value);
}
