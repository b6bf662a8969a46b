/**
 * Split table -> plain columns or rows, without danfo.
 *
 * @module
 */
import {
  checkColumns,
  checkIndex,
  misaligned,
  scanSplitTable,
} from "./scan.ts";
import { FrameError } from "./errors.ts";
import type { Cell, Columns, Row, SplitTable } from "./types.ts";

// A column may be named "__proto__"; plain assignment would replace the prototype.
function put(
  target: Record<string, unknown>,
  key: string,
  value: unknown,
): void {
  if (key === "__proto__") {
    Object.defineProperty(target, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else target[key] = value;
}

/**
 * Converts a split table to columns (`Record<string, Cell[]>`), keeping the
 * column order; missing cells become `null`.
 *
 * @example
 * ```ts
 * import { splitToColumns } from "./split.ts";
 * const columns = splitToColumns({ columns: ["x", "y"], index: [0, 1], data: [[1, "a"], [NaN, ""]] });
 * if (JSON.stringify(columns) !== '{"x":[1,null],"y":["a",null]}') throw new Error("unexpected");
 * ```
 */
export function splitToColumns(table: SplitTable): Columns {
  const { names, columns } = scanSplitTable(table, { missing: null });
  const out: Columns = {};
  for (let j = 0; j < names.length; j++) put(out, names[j], columns[j]);
  return out;
}

/**
 * Converts a split table to one plain object per row; missing cells become
 * `null`. With `indexKey`, each row also carries its index label under that key.
 *
 * @example
 * ```ts
 * import { splitToRows } from "./split.ts";
 * const rows = splitToRows({ columns: ["x"], index: ["a", "b"], data: [[1], [null]] }, { indexKey: "id" });
 * if (JSON.stringify(rows) !== '[{"id":"a","x":1},{"id":"b","x":null}]') throw new Error("unexpected");
 * ```
 */
export function splitToRows(
  table: SplitTable,
  options: { indexKey?: string } = {},
): Row[] {
  // One pass from the rows themselves (no column arrays, no dtypes: rows
  // need neither), with the same checks as the other conversions.
  const names = checkColumns(table);
  const data = table.data;
  if (!Array.isArray(data)) {
    throw new FrameError(
      "split table has no `data` array; expected { columns, index, data } as the views endpoint returns it",
    );
  }
  const n = data.length;
  const m = names.length;
  const index = checkIndex(table.index, n);
  const key = options.indexKey;
  if (key !== undefined && names.includes(key)) {
    throw new FrameError(
      `indexKey "${key}" is also a column name; choose another key for the index label`,
    );
  }
  const unsafe = names.includes("__proto__") || key === "__proto__";
  const rows: Row[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const cells = data[i];
    if (!Array.isArray(cells) || cells.length !== m) {
      throw misaligned(i, cells, m);
    }
    const row: Row = {};
    if (key !== undefined) {
      if (unsafe) put(row, key, index[i]);
      else row[key] = index[i];
    }
    for (let j = 0; j < m; j++) {
      let v = cells[j];
      // Missing cells (null, undefined, NaN, "") become null.
      if (v === undefined || v === "" || v !== v) v = null;
      if (unsafe) put(row, names[j], v);
      else row[names[j]] = v as Cell;
    }
    rows[i] = row;
  }
  return rows;
}
