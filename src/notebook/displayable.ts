/**
 * Makes any resource, error or views table render itself in Deno's Jupyter
 * kernel, which calls an object's `[Symbol.for("Jupyter.display")]()` method.
 * Outside Jupyter the attached method is inert.
 *
 * @module
 */
import { errorCard, resourceCard } from "./card.ts";
import {
  type Displayable,
  JUPYTER_DISPLAY,
  type MimeBundle,
} from "../display.ts";
import { viewsTable } from "./views_table.ts";
import { withDisplay } from "./jupyter.ts";

export type { Displayable } from "../display.ts";

/**
 * The MIME bundle (`text/html` and `text/plain`) of a resource, an error or a
 * split table (`{ columns, index, data }`), secrets masked.
 *
 * @example
 * ```ts
 * import { toMimeBundle } from "./displayable.ts";
 * const bundle = toMimeBundle({ id: "ws_1", name: "research", client_secret: "hunter2" });
 * if (String(bundle["text/html"]).includes("hunter2")) throw new Error("leaked");
 * ```
 */
export function toMimeBundle(
  value: unknown,
  options: { kind?: string } = {},
): MimeBundle {
  if (value instanceof Error || value === null || typeof value !== "object") {
    const card = errorCard(value);
    return withDisplay(
      { "text/html": card.html, "text/plain": card.text },
      (b) => b,
    );
  }
  const table = value as { columns?: unknown; data?: unknown };
  if (Array.isArray(table.columns) && Array.isArray(table.data)) {
    return viewsTable(value as Parameters<typeof viewsTable>[0]);
  }
  const card = resourceCard(value, options);
  return withDisplay(
    { "text/html": card.html, "text/plain": card.text },
    (b) => b,
  );
}

/**
 * Attaches a non-enumerable `[Symbol.for("Jupyter.display")]` method to
 * `value` (so `JSON.stringify` and equality are unaffected) and returns it.
 * The bundle is computed when the kernel asks, so it shows current values.
 * A frozen object gets a displayable wrapper instead.
 *
 * @example
 * ```ts
 * import { displayable } from "./displayable.ts";
 * const model = displayable({ id: "m_1", name: "churn", status: "COMPLETED" }, { kind: "Model" });
 * const bundle = model[Symbol.for("Jupyter.display") as never] as () => Record<string, string>;
 * if (!bundle.call(model)["text/html"].includes("churn")) throw new Error("unexpected");
 * if (JSON.stringify(model) !== '{"id":"m_1","name":"churn","status":"COMPLETED"}') throw new Error("changed");
 * ```
 */
export function displayable<T extends object>(
  value: T,
  options: { kind?: string } = {},
): Displayable<T> {
  return attachDisplay(value, () => toMimeBundle(value, options));
}

/**
 * Attaches `render` as the non-enumerable `[Symbol.for("Jupyter.display")]`
 * method of `value` (a frozen object gets a wrapper instead) and returns it:
 * the mechanism under {@linkcode displayable}, for renderers of their own.
 *
 * @example
 * ```ts
 * import { attachDisplay } from "./displayable.ts";
 * const page = attachDisplay({ total: 3 }, () => ({ "text/plain": "3 items" }));
 * if (JSON.stringify(page) !== '{"total":3}') throw new Error("changed");
 * ```
 */
export function attachDisplay<T extends object>(
  value: T,
  render: () => MimeBundle,
): Displayable<T> {
  const target = Object.isExtensible(value) ? value : Object.create(value);
  Object.defineProperty(target, JUPYTER_DISPLAY, {
    value: render,
    enumerable: false,
    configurable: true,
    writable: true,
  });
  return target as Displayable<T>;
}
