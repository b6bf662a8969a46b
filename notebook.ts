/**
 * `@mlplatform/sdk/notebook`: helpers for Deno's Jupyter kernel. Views
 * tables, Vega-Lite charts of explanations and probabilities, resource and
 * error cards, live job progress. Everything is silent (or returns
 * `undefined`) outside Jupyter, and never renders secrets.
 *
 * @example
 * ```ts
 * import { isJupyter, viewsTable } from "./notebook.ts";
 * if (isJupyter()) throw new Error("deno test does not run in a notebook");
 * const table = viewsTable({ columns: ["prediction.species"], index: [0], data: [["Gentoo"]] });
 * if (!table["text/html"].includes("Gentoo")) throw new Error();
 * ```
 *
 * @module
 */
export * from "./src/notebook/mod.ts";
