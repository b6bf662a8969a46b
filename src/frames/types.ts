/**
 * Shapes shared by the frame helpers: the service's split-orientation table,
 * column and row forms of the same data, and a views query.
 *
 * @module
 */
import type { ViewsRequest } from "../schemas/views.ts";

/** One cell value as it travels in JSON. Missing values are `null`. */
export type Cell = string | number | boolean | null;

/**
 * A split-orientation table as the views endpoint answers it: `data[i]` is
 * row `i`, aligned by position with `columns`; `index[i]` labels that row.
 * Its wire shape lives in `src/schemas/views.ts`.
 */
export type { SplitTable } from "../schemas/views.ts";

/** Column form: one array per column name, all of the same length. */
export type Columns = Record<string, Cell[]>;

/** Row form: one plain object per row, keyed by column name. */
export type Row = Record<string, Cell>;

/**
 * A views query: each feature name maps to its values, one per row to score,
 * all arrays of the same length; cells are numbers, strings, or `null` for
 * missing. Its wire shape is `ViewsRequest["query"]` in `src/schemas/views.ts`.
 */
export type ViewsQuery = ViewsRequest["query"];
