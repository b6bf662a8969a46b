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
