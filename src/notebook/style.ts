/**
 * The few colours and inline styles the notebook renderers share, so that a
 * card, a progress bar and a table look like one product.
 *
 * @module
 */
import { FAILURE_STATUSES } from "../schemas/jobs.ts";

/**
 * Badge colour of a status: green when done or serving, red when failed, amber while working.
 *
 * @example
 * ```ts
 * import { statusColor } from "./style.ts";
 * if (statusColor("COMPLETED") === statusColor("FAILED")) throw new Error("unexpected");
 * ```
 */
export function statusColor(status: string): string {
  const s = status.toUpperCase();
  if (
    s === "COMPLETED" || s === "RUNNING" || s === "ACTIVE" || s === "SUCCEEDED"
  ) return "#15803d";
  if (FAILURE_STATUSES.includes(s)) return "#b91c1c";
  return "#b45309";
}

/** Inline style of a card's outer box. */
export const CARD_STYLE =
  "font-family:system-ui,sans-serif;font-size:13px;border:1px solid #d4d4d8;border-radius:6px;" +
  "padding:8px 12px;max-width:640px;line-height:1.45";

/**
 * Inline style of a status badge of the given colour.
 *
 * @example
 * ```ts
 * import { badgeStyle } from "./style.ts";
 * if (!badgeStyle("#15803d").includes("background:#15803d")) throw new Error("unexpected");
 * ```
 */
export function badgeStyle(color: string): string {
  return `background:${color};color:#fff;border-radius:9px;padding:1px 8px;font-size:11px;font-weight:600`;
}
