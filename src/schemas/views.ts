// deno-doc-ignore-file private-type-ref missing-explicit-type -- wire types are inferred from these zod schemas (one source of truth), so they name zod's own types
/**
 * Views: querying a deployed model for predictions and explanations, and the
 * split-orientation table it answers with.
 *
 * @module
 */
import { z } from "zod";
import { ownRecord } from "./common.ts";
import {
  AppliedAnchorSchema,
  FieldLabelsSchema,
  ViewsAnchorSchema,
} from "./labels.ts";

/**
 * View types: docs/api.md#resources shows `RESULTS`; `GROUP_METRICS` is ours
 * (per-group metrics of the rows sent, by their protected fields,
 * docs/contract.md#model-constraints-and-protected-fields).
 */
export const VIEW_TYPES = ["RESULTS", "GROUP_METRICS"] as const;

/** A value in a query column: a number, a string, or null for missing. */
export const CellSchema = z.union([z.number(), z.string(), z.null()]);
/** A value in a query column. */
export type Cell = z.infer<typeof CellSchema>;

/**
 * A query column: one cell per row. Views are the hot path, so cells are
 * checked in one loop rather than by a zod union per cell (10x faster on a
 * 1,000-row query); the first bad cell is named by its row.
 */
const QueryColumnSchema = z.array(z.unknown()).superRefine((column, ctx) => {
  for (let i = 0; i < column.length; i++) {
    const cell = column[i];
    if (
      cell !== null && typeof cell !== "string" &&
      (typeof cell !== "number" || !Number.isFinite(cell))
    ) {
      ctx.addIssue({
        code: "custom",
        path: [i],
        message: `row ${i} holds ${
          typeof cell === "number" ? String(cell) : typeof cell
        }: a cell must be a finite number, a string, or null for missing`,
      });
      return;
    }
  }
}).meta({
  items: { type: ["number", "string", "null"] },
}) as unknown as z.ZodType<
  Cell[],
  Cell[]
>;

/**
 * Rows of a split table, each an array aligned with `columns`. Only the row
 * shape is checked (cells are any JSON value), in one loop: a 10,000-row
 * answer must not cost more to check than to parse.
 */
const RowsSchema = z.array(z.unknown()).superRefine((rows, ctx) => {
  for (let i = 0; i < rows.length; i++) {
    if (!Array.isArray(rows[i])) {
      ctx.addIssue({
        code: "custom",
        path: [i],
        message: "must be a row: an array aligned with columns",
      });
      return;
    }
  }
}).meta({
  items: {
    type: "array",
    description: "One row: a cell per column",
    items: { type: ["string", "number", "boolean", "null"] },
  },
}) as unknown as z.ZodType<
  unknown[][],
  unknown[][]
>;

/**
 * Body of `POST /deployed-models/{id}/views`.
 *
 * `query` maps each feature to its column of values (one per row, all the
 * same length). `targets` optionally names, per target, the class to explain:
 * one value for every row, or one per row (docs/contract.md#views).
 */
export const ViewsRequestSchema = z.object({
  data: z.array(z.object({ view_type: z.enum(VIEW_TYPES) })).min(
    1,
    'ask for at least one view, e.g. [{ view_type: "RESULTS" }]',
  ).default([{ view_type: "RESULTS" }]),
  // Own-key records: a feature named `__proto__` or `constructor` is a name
  // like any other (checked against the model's features, never dropped).
  query: ownRecord(QueryColumnSchema),
  targets: ownRecord(z.union([CellSchema, z.array(CellSchema)])).default(
    () => Object.create(null),
  ),
  /** What contributions are measured against (docs/contract.md#data-anchors). */
  anchor: ViewsAnchorSchema.optional(),
}).superRefine((body, ctx) => {
  // One pass over the names, no arrays made: this runs on every views call.
  let first: string | undefined;
  let n = 0;
  for (const name of Object.keys(body.query)) {
    const len = body.query[name].length;
    if (first === undefined) {
      first = name;
      n = len;
    } else if (len !== n) {
      ctx.addIssue({
        code: "custom",
        path: ["query", name],
        message:
          `has ${len} values but "${first}" has ${n}: every column needs one value per row`,
      });
    }
  }
  if (first === undefined) {
    ctx.addIssue({
      code: "custom",
      path: ["query"],
      message: "query needs at least one feature column",
    });
  }
}).meta({ id: "ViewsRequest" });
/** Body of a views request. */
export type ViewsRequest = z.input<typeof ViewsRequestSchema>;

/** A split-orientation table: `columns`, `index`, and rows aligned with `columns`. */
export const SplitTableSchema = z.looseObject({
  columns: z.array(z.string()),
  index: z.array(z.union([z.number(), z.string()])),
  data: RowsSchema,
  /** Labels of the fields that have any (our extension, docs/contract.md#labels-and-anchors). */
  field_labels: FieldLabelsSchema.optional(),
  /** The anchor contributions were measured against, when one was. */
  anchor: AppliedAnchorSchema.optional(),
}).superRefine((t, ctx) => {
  if (t.index.length !== t.data.length) {
    ctx.addIssue({
      code: "custom",
      path: ["index"],
      message:
        `has ${t.index.length} entries but data has ${t.data.length} rows`,
    });
  }
  // A row of another length than columns left cells undefined (or extra)
  // in the user's table: each row is checked (one comparison per row).
  const width = t.columns.length;
  for (let i = 0; i < t.data.length; i++) {
    if (t.data[i].length !== width) {
      ctx.addIssue({
        code: "custom",
        path: ["data", i],
        message: `row ${i} has ${t.data[i].length} cells for ${width} columns`,
      });
      return;
    }
  }
}).meta({ id: "SplitTable" });
/** A split-orientation table. */
export type SplitTable = z.infer<typeof SplitTableSchema>;
