/**
 * Split table -> plain columns or rows, without danfo.
 *
 * @module
 */
import { scanSplitTable } from "./scan.ts";
import { FrameError } from "./errors.ts";
import type { Columns, Row, SplitTable } from "./types.ts";

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
  const { names, index, columns } = scanSplitTable(table, { missing: null });
  const n = index.length;
  const rows: Row[] = new Array(n);
  const key = options.indexKey;
  if (key !== undefined && names.includes(key)) {
    throw new FrameError(
      `indexKey "${key}" is also a column name; choose another key for the index label`,
    );
  }
  for (let i = 0; i < n; i++) {
    const row: Row = {};
    if (key !== undefined) row[key] = index[i];
    for (let j = 0; j < names.length; j++) put(row, names[j], columns[j][i]);
    rows[i] = row;
  }
  return rows;
}
