/**
 * The error thrown when data cannot be converted between tables, rows,
 * columns, DataFrames and queries.
 *
 * @module
 */

/**
 * Thrown when data has the wrong shape or holds a value that cannot be sent
 * (ragged rows, columns of different lengths, infinite numbers...). The
 * message names the row and column at fault and says how to fix it.
 *
 * @example
 * ```ts
 * import { FrameError } from "./errors.ts";
 * const error = new FrameError("column \"age\" has 2 values but 3 were expected");
 * if (!(error instanceof Error) || error.name !== "FrameError") throw new Error("unexpected");
 * ```
 */
export class FrameError extends Error {
  /** Creates the error; `cause` keeps the underlying error when there is one. */
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "FrameError";
  }
}
