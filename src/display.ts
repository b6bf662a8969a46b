/**
 * The display hook: how errors, jobs, resources and views answers render in
 * Deno's Jupyter kernel without the layers below the notebook importing it.
 *
 * Deno's kernel renders a cell's value by calling its
 * `[Symbol.for("Jupyter.display")]()` method. The lower layers (`http/`,
 * `jobs/`, `resources/`, `builders/`) give their values that method through
 * this module; the method looks up the renderer of the value's
 * {@linkcode DisplayKind} when the kernel asks, in a registry that the
 * notebook layer (`src/notebook/register.ts`, loaded by every package entry)
 * fills on import. Without a registered renderer a value shows as plain
 * text. Hooks ({@linkcode defineHook}) carry the other things the notebook
 * layer supplies: live job progress and the views answer's charts.
 *
 * The registry lives on `globalThis` under a `Symbol.for` key, so two copies
 * of the package in one kernel share it.
 *
 * @example A value renders through whatever renderer is registered for its kind
 * ```ts
 * import { displayAs, JUPYTER_DISPLAY, registerRenderer } from "./display.ts";
 * const ws = displayAs({ id: "ws_1", name: "research" }, "resource", "Workspace");
 * const restore = registerRenderer("resource", (value, title) => ({
 *   "text/plain": `${title} ${(value as { name: string }).name}`,
 * }));
 * try {
 *   if (ws[JUPYTER_DISPLAY]()["text/plain"] !== "Workspace research") throw new Error();
 *   if (JSON.stringify(ws) !== '{"id":"ws_1","name":"research"}') throw new Error("changed");
 * } finally {
 *   restore();
 * }
 * ```
 *
 * @module
 */
import type { SplitTable } from "./schemas/views.ts";

/** A Jupyter MIME bundle: MIME type -> content. */
export type MimeBundle = Record<string, string | object>;

/** The symbol Deno's kernel calls to render an object (`Deno.jupyter.$display`). */
export const JUPYTER_DISPLAY: unique symbol = Symbol.for(
  "Jupyter.display",
) as never;

/**
 * What a value is, for choosing its renderer: a resource or job snapshot
 * (`"resource"`, titled by its kind), an error, a split table (a views
 * answer), a list page, or a model's global explanation.
 */
export type DisplayKind =
  | "resource"
  | "error"
  | "table"
  | "page"
  | "explanation";

/** Renders a value of one {@linkcode DisplayKind}; `title` is e.g. the resource's kind. */
export type Renderer = (value: unknown, title?: string) => MimeBundle;

/** A value with the kernel's display method. */
export type Displayable<T> = T & { [JUPYTER_DISPLAY](): MimeBundle };

interface Registry {
  renderers: Map<DisplayKind, Renderer>;
  hooks: Map<string, unknown>;
}

const REGISTRY = Symbol.for("@mlplatform/sdk/display");

function registry(): Registry {
  const global = globalThis as { [REGISTRY]?: Registry };
  return global[REGISTRY] ??= { renderers: new Map(), hooks: new Map() };
}

/**
 * Registers the renderer of one kind (the notebook layer does, on import)
 * and returns a function that restores the previous one.
 *
 * @example
 * ```ts
 * import { registerRenderer, renderAs } from "./display.ts";
 * const restore = registerRenderer("error", (e) => ({ "text/plain": `oops: ${(e as Error).message}` }));
 * try {
 *   if (renderAs("error", new Error("x"))["text/plain"] !== "oops: x") throw new Error();
 * } finally {
 *   restore();
 * }
 * ```
 */
export function registerRenderer(
  kind: DisplayKind,
  render: Renderer,
): () => void {
  const { renderers } = registry();
  const previous = renderers.get(kind);
  renderers.set(kind, render);
  return () => {
    if (previous) renderers.set(kind, previous);
    else renderers.delete(kind);
  };
}

/**
 * The MIME bundle of `value` from its kind's registered renderer; plain text
 * (an error's name and message, else the value's JSON) when none is
 * registered.
 *
 * @example
 * ```ts
 * import { renderAs } from "./display.ts";
 * // A page as the list operations answer it (the notebook module, when it is
 * // loaded, renders it as a table; without it, as its JSON).
 * const bundle = renderAs("page", {
 *   data: [],
 *   pagination: { total_items: 0, items_per_page: 10, current_page: 1, total_pages: 0 },
 * });
 * if (typeof bundle["text/plain"] !== "string") throw new Error();
 * ```
 */
export function renderAs(
  kind: DisplayKind,
  value: unknown,
  title?: string,
): MimeBundle {
  const render = registry().renderers.get(kind);
  if (render) return render(value, title);
  return { "text/plain": plainText(value, title) };
}

/**
 * Gives `value` a non-enumerable `[Symbol.for("Jupyter.display")]` method
 * (so `JSON.stringify`, spreads and deep equality do not see it) that
 * renders it as `kind` when the kernel asks, and returns it. A frozen or
 * non-object value is returned as it is.
 *
 * @example
 * ```ts
 * import { displayAs, JUPYTER_DISPLAY } from "./display.ts";
 * const model = displayAs({ id: "m_1", name: "churn" }, "resource", "Model");
 * if (typeof model[JUPYTER_DISPLAY] !== "function") throw new Error();
 * if (Object.keys(model).join() !== "id,name") throw new Error("enumerable");
 * ```
 */
export function displayAs<T>(
  value: T,
  kind: DisplayKind,
  title?: string,
): Displayable<T> {
  if (
    value === null || typeof value !== "object" || !Object.isExtensible(value)
  ) {
    return value as Displayable<T>;
  }
  Object.defineProperty(value, JUPYTER_DISPLAY, {
    value: () => renderAs(kind, value, title),
    enumerable: false,
    configurable: true,
    writable: true,
  });
  return value as Displayable<T>;
}

/** A slot the notebook layer fills: see {@linkcode defineHook}. */
export interface Hook<F> {
  /** The registered value, if any. */
  get(): F | undefined;
  /** Registers `value` (`undefined` clears it); returns a function that restores the previous one. */
  set(value: F | undefined): () => void;
}

/**
 * A named slot in the display registry, typed by the layer that reads it
 * (e.g. `jobs/progress.ts` reads the notebook's progress bar through one).
 *
 * @example
 * ```ts
 * import { defineHook } from "./display.ts";
 * const greeting = defineHook<(name: string) => string>("example greeting");
 * const restore = greeting.set((name) => `hello ${name}`);
 * try {
 *   if (greeting.get()?.("ada") !== "hello ada") throw new Error();
 * } finally {
 *   restore();
 * }
 * if (greeting.get() !== undefined) throw new Error("restored");
 * ```
 */
export function defineHook<F>(name: string): Hook<F> {
  return {
    get: () => registry().hooks.get(name) as F | undefined,
    set(value) {
      const { hooks } = registry();
      const previous = hooks.get(name);
      if (value === undefined) hooks.delete(name);
      else hooks.set(name, value);
      return () => {
        if (previous === undefined) hooks.delete(name);
        else hooks.set(name, previous);
      };
    },
  };
}

/** The Vega-Lite MIME type Jupyter renders. */
export const VEGALITE_MIME = "application/vnd.vegalite.v5+json";

/** A Vega-Lite specification (loosely typed). */
export type VegaLiteSpec = { $schema: string; [key: string]: unknown };

/** A chart: a MIME bundle with the spec and a plain-text summary. */
export interface Chart {
  /** The Vega-Lite v5 specification, data included. */
  [VEGALITE_MIME]: VegaLiteSpec;
  /** A one-line summary for consoles. */
  "text/plain": string;
}

/** Options of the explanation chart of a views row. */
export interface ExplanationChartOptions {
  /** `"waterfall"` (default): from bias through the contributions to the log-odds; `"bars"`: sorted bars. */
  kind?: "waterfall" | "bars";
  /** Largest terms shown; the rest are summed into one "other" step. Default 12. */
  top?: number;
  /**
   * What bias and contributions add up to: `"log-odds"` (two classes),
   * `"softmax logit"` (three or more), `"prediction"` (regression, in the
   * target's units) or `"log prediction"` (a regression model whose `link`
   * is `log`). Default: read from the table (a numeric prediction and no
   * `probability.*` column is a regression; its explanation adds up to the
   * prediction, or else to its log; a classifier's count of
   * `probability.<target>.*` columns tells its classes).
   */
  scale?: "log-odds" | "softmax logit" | "prediction" | "log prediction";
  /**
   * The class the row was explained for (the views request's
   * `targets.<target>`; by default the service explains the predicted
   * class), named in the title. A class the table has no probability of
   * is a `RangeError`. Default: for two classes, the one whose log-odds
   * the explanation adds up to; for more, none is named (their softmax
   * logit cannot be told from the probabilities).
   */
  explained?: string;
}

/** Options of the regression charts. */
export interface RegressionChartOptions {
  /** The target's name, for titles and axes (default `"target"`). */
  target?: string;
}

/** The charts of a views answer, drawn by the notebook layer. */
export interface ViewsCharts {
  /** One row's explanation: bias plus each term's contribution. */
  explanationChart(
    table: SplitTable,
    row?: number,
    options?: ExplanationChartOptions,
  ): Chart;
  /** The distribution of one probability column. */
  probabilityHistogram(
    table: SplitTable,
    options?: { column?: string; bins?: number },
  ): Chart;
  /** Predicted against actual values, with the diagonal. */
  predictedVsActualChart(
    actual: ArrayLike<unknown>,
    predicted: ArrayLike<unknown>,
    options?: RegressionChartOptions,
  ): Chart;
  /** Residuals against the prediction, with the zero line. */
  residualChart(
    actual: ArrayLike<unknown>,
    predicted: ArrayLike<unknown>,
    options?: RegressionChartOptions,
  ): Chart;
}

/** Where the notebook layer registers the {@linkcode ViewsCharts}. */
export const viewsCharts: Hook<ViewsCharts> = defineHook("views charts");

/**
 * The registered {@linkcode ViewsCharts}; throws when no notebook layer is
 * loaded (every package entry loads it; a module imported by path may not).
 *
 * @example
 * ```ts
 * import { chartsOrThrow, viewsCharts } from "./display.ts";
 * const restore = viewsCharts.set(undefined);
 * try {
 *   let thrown = false;
 *   try { chartsOrThrow(); } catch { thrown = true; }
 *   if (!thrown) throw new Error("expected a clear error");
 * } finally {
 *   restore();
 * }
 * ```
 */
export function chartsOrThrow(): ViewsCharts {
  const charts = viewsCharts.get();
  if (charts === undefined) {
    throw new Error(
      "charts are drawn by the notebook layer: import @mlplatform/sdk (or its ./notebook or ./local entry) before asking for one",
    );
  }
  return charts;
}

function plainText(value: unknown, title?: string): string {
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return title ? `${title} ${text}` : text;
}
