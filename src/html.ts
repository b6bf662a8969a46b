/**
 * HTML escaping, shared by every part that writes HTML (the notebook
 * renderers and the local platform's API reference page): values are data,
 * never markup. A low module of its own, so the server does not import the
 * notebook layer to escape text.
 *
 * @module
 */

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * Escapes text for HTML element content and quoted attribute values.
 *
 * @example
 * ```ts
 * import { escapeHtml } from "./html.ts";
 * if (escapeHtml(`<b a="1">&'`) !== "&lt;b a=&quot;1&quot;&gt;&amp;&#39;") throw new Error("unexpected");
 * ```
 */
export function escapeHtml(text: unknown): string {
  return String(text).replace(/[&<>"']/g, (c) => ENTITIES[c]);
}
