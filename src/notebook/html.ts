/**
 * Escaping and secret masking shared by every notebook renderer: values from
 * the service are data, never markup, and secrets never reach an output.
 *
 * @module
 */
// One escaper for the whole project (the local platform's docs page too).
export { escapeHtml } from "../html.ts";

/** Shown instead of a secret. */
export const MASK = "••••••";

const SECRET_KEY = /secret|token|password|authorization/i;
// Bearer credentials and JSON web tokens that may sit inside free text (error messages).
const SECRET_TEXT =
  /\b(Bearer\s+)[\w.~+/=-]+|\beyJ[\w-]{5,}\.[\w-]{5,}\.[\w-]*/gi;

/**
 * Whether a field name denotes a secret (`/secret|token|password|authorization/i`).
 *
 * @example
 * ```ts
 * import { isSecretKey } from "./html.ts";
 * if (!isSecretKey("client_secret") || !isSecretKey("Authorization") || isSecretKey("name")) {
 *   throw new Error("unexpected");
 * }
 * ```
 */
export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

/**
 * Replaces bearer credentials and JSON web tokens inside free text by {@linkcode MASK}.
 *
 * @example
 * ```ts
 * import { maskSecretText } from "./html.ts";
 * const text = maskSecretText("401 with Authorization: Bearer abc.def.ghi");
 * if (text.includes("abc.def")) throw new Error("leaked");
 * ```
 */
export function maskSecretText(text: string): string {
  return text.replace(
    SECRET_TEXT,
    (_match, bearer?: string) => `${bearer ?? ""}${MASK}`,
  );
}

/**
 * Returns a deep copy of `value` in which every field whose name matches
 * {@linkcode isSecretKey} is replaced by {@linkcode MASK} and every string is
 * passed through {@linkcode maskSecretText}. Cycles are cut.
 *
 * @example
 * ```ts
 * import { maskSecrets } from "./html.ts";
 * const masked = maskSecrets({ name: "api", auth: { client_secret: "s3cr3t" } });
 * if (JSON.stringify(masked).includes("s3cr3t")) throw new Error("leaked");
 * ```
 */
export function maskSecrets<T>(value: T): T {
  return mask(value, new WeakSet()) as T;
}

function mask(value: unknown, seen: WeakSet<object>): unknown {
  if (typeof value === "string") return maskSecretText(value);
  if (value === null || typeof value !== "object") return value;
  if (value instanceof Date) return value;
  if (seen.has(value)) return "[circular]";
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => mask(item, seen));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const masked = isSecretKey(key) && item !== null && item !== undefined
      ? MASK
      : mask(item, seen);
    Object.defineProperty(out, key, {
      value: masked,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/**
 * `text` cut to at most `max` characters, the last of them `…` when cut (a
 * surrogate pair is never split): what a table cell or a card shows of a
 * long value, so that one 100,000-character string cannot bury the rest.
 *
 * @example
 * ```ts
 * import { clipText } from "./html.ts";
 * if (clipText("abcdef", 4) !== "abc…" || clipText("abc", 4) !== "abc") throw new Error();
 * ```
 */
export function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--; // keep a pair whole
  return `${text.slice(0, end)}…`;
}

/**
 * `text` on one line for a tab-separated plain-text table: tabs, line
 * breaks and other control characters written as escapes (`\t`, `\n`,
 * `\u0000`), so that a cell cannot start a column or a row of its own.
 *
 * @example
 * ```ts
 * import { oneLine } from "./html.ts";
 * if (oneLine("a\tb\nc") !== "a\\tb\\nc") throw new Error();
 * ```
 */
export function oneLine(text: string): string {
  return text.replace(
    // deno-lint-ignore no-control-regex -- control characters are what is replaced
    /[\u0000-\u001f\u007f]/g,
    (c) =>
      c === "\t"
        ? "\\t"
        : c === "\n"
        ? "\\n"
        : c === "\r"
        ? "\\r"
        : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
