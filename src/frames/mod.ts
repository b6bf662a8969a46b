/**
 * Tables for people: the views endpoint's split tables as rows, columns or
 * danfo DataFrames (danfo loaded only when asked for), the way back to a
 * views query, and chunked scoring of large queries.
 *
 * @example
 * ```ts
 * import { splitToRows, toViewsQuery } from "./mod.ts";
 * const rows = splitToRows({ columns: ["tenure"], index: [0], data: [[3]] });
 * const query = toViewsQuery(rows);
 * if (query.tenure[0] !== 3) throw new Error("unexpected");
 * ```
 *
 * @module
 */
export type { Cell, Columns, Row, SplitTable, ViewsQuery } from "./types.ts";
export { FrameError } from "./errors.ts";
export { isMissing } from "./missing.ts";
export { splitToColumns, splitToRows } from "./split.ts";
export { labelledTable } from "./labels.ts";
export {
  type Danfo,
  loadDanfo,
  toDataFrame,
  type ToDataFrameOptions,
} from "./danfo.ts";
export {
  type QueryInput,
  toViewsQuery,
  type ToViewsQueryOptions,
} from "./query.ts";
export {
  type ChunkContext,
  ChunkError,
  type ChunkProgress,
  DEFAULT_CHUNK_SIZE,
  isRetryableError,
  scoreInChunks,
  type ScoreInChunksOptions,
} from "./chunked.ts";
