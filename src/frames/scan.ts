/**
 * One pass over a split table that checks its shape and builds the column
 * arrays (and, when asked, row copies for danfo) without per-cell allocation.
 *
 * @module
 */
import { FrameError } from "./errors.ts";
import type { Cell, SplitTable } from "./types.ts";

/** danfo dtype names this module can infer. */
export type Dtype = "int32" | "float32" | "string" | "boolean";

/** What {@linkcode scanSplitTable} returns. */
export interface ScannedTable {
  /** Column names, in table order. */
  names: string[];
  /** Row labels (generated 0..n-1 when the table has no `index`). */
  index: (number | string)[];
  /** One fresh array per column; missing cells are `missing`. */
  columns: unknown[][];
  /** Fresh row copies (only when `rows: true`); missing cells are `missing`. */
  rows?: unknown[][];
  /** danfo dtype of each column, inferred from every non-missing cell. */
  dtypes: Dtype[];
}

// Bit flags of the kinds of value seen in a column.
const INT = 1, FLOAT = 2, STRING = 4, BOOL = 8, OTHER = 16, MISSING = 32;

/**
 * Checks a split table and converts it column-wise in a single pass.
 * Missing cells (`null`, `undefined`, `NaN`, `""`) become `missing` in both
 * the columns and the row copies.
 *
 * @example
 * ```ts
 * import { scanSplitTable } from "./scan.ts";
 * const scanned = scanSplitTable(
 *   { columns: ["a", "b"], index: [7, 8], data: [[1, "x"], [2.5, ""]] },
 *   { missing: null },
 * );
 * if (JSON.stringify(scanned.columns) !== '[[1,2.5],["x",null]]') throw new Error("columns");
 * if (scanned.dtypes.join() !== "float32,string") throw new Error("dtypes");
 * ```
 */
export function scanSplitTable(
  table: SplitTable,
  options: { missing: Cell | typeof NaN; rows?: boolean },
): ScannedTable {
  const { names, data, index } = checkTable(table);
  const n = data.length;
  const m = names.length;
  const missing = options.missing;
  const wantRows = options.rows === true;
  // Preallocated columns filled row by row measured fastest (see bench/lines/frames.ts).
  const columns: unknown[][] = new Array(m);
  for (let j = 0; j < m; j++) columns[j] = new Array(n);
  const rows: unknown[][] | undefined = wantRows ? new Array(n) : undefined;
  const kinds = new Int32Array(m);
  for (let i = 0; i < n; i++) {
    const row = data[i];
    if (!Array.isArray(row) || row.length !== m) throw misaligned(i, row, m);
    // A native slice copies the row fastest; only missing cells are patched below.
    const copy = wantRows ? row.slice() : undefined;
    for (let j = 0; j < m; j++) {
      let v = row[j];
      switch (typeof v) {
        case "number":
          if (v !== v) {
            v = missing;
            kinds[j] |= MISSING;
            if (copy) copy[j] = missing;
          } else kinds[j] |= (v | 0) === v ? INT : FLOAT;
          break;
        case "string":
          if (v === "") {
            v = missing;
            kinds[j] |= MISSING;
            if (copy) copy[j] = missing;
          } else kinds[j] |= STRING;
          break;
        case "boolean":
          kinds[j] |= BOOL;
          break;
        default:
          if (v === null || v === undefined) {
            v = missing;
            kinds[j] |= MISSING;
            if (copy) copy[j] = missing;
          } else kinds[j] |= OTHER;
      }
      columns[j][i] = v;
    }
    if (rows) rows[i] = copy!;
  }
  const dtypes = Array.from(kinds, dtypeOf);
  return { names, index, columns, rows, dtypes };
}

/** The error for row `i` that is not an array of `m` cells. */
export function misaligned(i: number, row: unknown, m: number): FrameError {
  return new FrameError(
    `row ${i} of the split table has ${
      Array.isArray(row)
        ? `${row.length} cells`
        : `a ${typeof row} instead of an array`
    } but the table has ${m} columns; every row must align with \`columns\``,
  );
}

function dtypeOf(kind: number): Dtype {
  if (kind === INT) return "int32";
  if ((kind & ~MISSING) === BOOL) return "boolean";
  // Numbers only, or nothing but missing cells: float, since NaN is no integer
  // (danfo infers the same).
  if ((kind & ~(INT | FLOAT | MISSING)) === 0) return "float32";
  return "string";
}

/** A split table's parts, checked: what every conversion reads. */
export interface CheckedTable {
  /** Column names (strings, unique). */
  names: string[];
  /** The rows as given (each is checked where it is read). */
  data: unknown[];
  /** One label per row (0..n-1 when the table has none). */
  index: (number | string)[];
}

/**
 * The columns, rows and index of a split table, checked: names are unique
 * strings, `data` is an array, and there is one index label per row.
 *
 * @example
 * ```ts
 * import { checkTable } from "./scan.ts";
 * const { names, index } = checkTable({ columns: ["x"], data: [[1], [2]] } as never);
 * if (names.join() !== "x" || index.join() !== "0,1") throw new Error();
 * ```
 */
export function checkTable(table: SplitTable): CheckedTable {
  const names = checkColumns(table);
  const data = table.data;
  if (!Array.isArray(data)) {
    throw new FrameError(
      "split table has no `data` array; expected { columns, index, data } as the views endpoint returns it",
    );
  }
  return { names, data, index: checkIndex(table.index, data.length) };
}

/**
 * {@link checkTable}, and every row an array of one cell per column: for
 * the notebook displays, which read rows whole.
 *
 * @example
 * ```ts
 * import { checkAlignedTable } from "./scan.ts";
 * try {
 *   checkAlignedTable({ columns: ["x", "y"], data: [[1]] } as never);
 *   throw new Error("not refused");
 * } catch (e) {
 *   if (!String(e).includes("row 0 of the split table has 1 cells")) throw e;
 * }
 * ```
 */
export function checkAlignedTable(table: SplitTable): CheckedTable {
  const checked = checkTable(table);
  const m = checked.names.length;
  checked.data.forEach((row, i) => {
    if (!Array.isArray(row) || row.length !== m) throw misaligned(i, row, m);
  });
  return checked;
}

/** The table's column names, checked (strings, unique). */
export function checkColumns(table: SplitTable): string[] {
  if (table === null || typeof table !== "object") {
    throw new FrameError(
      `expected a split table { columns, index, data }, got ${
        table === null ? "null" : typeof table
      }`,
    );
  }
  const names = table.columns;
  if (!Array.isArray(names)) {
    throw new FrameError(
      "split table has no `columns` array; expected { columns, index, data } as the views endpoint returns it",
    );
  }
  const seen = new Set<string>();
  for (let j = 0; j < names.length; j++) {
    const name = names[j];
    if (typeof name !== "string") {
      throw new FrameError(
        `column ${j} of the split table is named by a ${typeof name}; names must be strings`,
      );
    }
    if (seen.has(name)) {
      throw new FrameError(
        `column "${name}" appears twice in the split table; column names must be unique`,
      );
    }
    seen.add(name);
  }
  return names;
}

/** The table's row labels, checked (one per row), or 0..n-1 when absent. */
export function checkIndex(index: unknown, n: number): (number | string)[] {
  if (index === undefined) return Array.from({ length: n }, (_, i) => i);
  if (!Array.isArray(index) || index.length !== n) {
    throw new FrameError(
      `split table index has ${
        Array.isArray(index) ? index.length : "no"
      } labels but ${n} rows; send one index label per row or leave \`index\` out`,
    );
  }
  return index;
}
