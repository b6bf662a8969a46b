/**
 * Schema inference: {@linkcode inferSchema} and the per-column rules.
 *
 * @module
 */
export * from "./infer.ts";
export * from "./columns.ts";
