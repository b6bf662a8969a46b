/**
 * Feature detection of Deno's Jupyter kernel. Outside the kernel (plain
 * `deno run`, Node, browsers) everything here reports "not in Jupyter" and
 * never touches the `Deno` namespace beyond a guarded read.
 *
 * @module
 */

import { JUPYTER_DISPLAY, type MimeBundle } from "../display.ts";

export { JUPYTER_DISPLAY, type MimeBundle };

/** The part of `Deno.jupyter` these helpers use. */
export interface JupyterLike {
  /** Sends a display; `{ raw: true }` sends `obj` as a MIME bundle as is. */
  display(
    obj: unknown,
    options?: { raw?: boolean; update?: boolean; display_id?: string },
  ): Promise<void>;
}

/**
 * Returns `Deno.jupyter` inside Deno's Jupyter kernel, `undefined` anywhere
 * else. (Outside the kernel, Deno's `Deno.jupyter` getter throws; that is
 * caught here.)
 *
 * @example
 * ```ts
 * import { getJupyter } from "./jupyter.ts";
 * if (getJupyter() !== undefined) throw new Error("not expected outside a notebook");
 * ```
 */
export function getJupyter(): JupyterLike | undefined {
  const deno = (globalThis as { Deno?: { jupyter?: unknown } }).Deno;
  if (deno === undefined) return undefined;
  try {
    const jupyter = deno.jupyter as JupyterLike | undefined;
    return typeof jupyter?.display === "function" ? jupyter : undefined;
  } catch {
    return undefined; // "Deno.jupyter is only available in `deno jupyter` subcommand"
  }
}

/**
 * Whether the code runs inside Deno's Jupyter kernel.
 *
 * @example
 * ```ts
 * import { isJupyter } from "./jupyter.ts";
 * if (isJupyter()) throw new Error("deno test does not run in a notebook");
 * ```
 */
export function isJupyter(): boolean {
  return getJupyter() !== undefined;
}

/**
 * Gives `value` (a MIME bundle or a card a helper returns) a non-enumerable
 * `[Symbol.for("Jupyter.display")]` method answering `render(value)`, so it
 * renders when it is a cell's value, as the charts do, and returns it. Its
 * keys, its JSON and `Deno.jupyter.display(value, { raw: true })` are
 * unchanged.
 *
 * @example
 * ```ts
 * import { JUPYTER_DISPLAY, withDisplay } from "./jupyter.ts";
 * const card = withDisplay({ html: "<b>x</b>", text: "x" }, (c) => ({ "text/html": c.html, "text/plain": c.text }));
 * if (card[JUPYTER_DISPLAY as never] === undefined || JSON.stringify(card) !== '{"html":"<b>x</b>","text":"x"}') throw new Error();
 * ```
 */
export function withDisplay<T extends object>(
  value: T,
  render: (value: T) => MimeBundle,
): T {
  Object.defineProperty(value, JUPYTER_DISPLAY, {
    value: () => render(value),
    enumerable: false,
    configurable: true,
    writable: true,
  });
  return value;
}
