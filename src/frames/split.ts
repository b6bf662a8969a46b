/**
 * Split table -> plain columns or rows, without danfo.
 *
 * @module
 */
import { checkTable, misaligned, scanSplitTable } from "./scan.ts";
import { FrameError } from "./errors.ts";
import type { Cell, Columns, Row, SplitTable } from "./types.ts";

/**
 * Sets an own enumerable key of `target`, `"__proto__"` included (a column
 * may be named so; assigning it would replace the prototype instead).
 *
 * @example
 * ```ts
 * import { setOwn } from "./split.ts";
 * const row: Record<string, unknown> = {};
 * setOwn(row, "__proto__", 1);
 * if (!Object.hasOwn(row, "__proto__") || JSON.stringify(row) !== '{"__proto__":1}') throw new Error();
 * ```
 */
export function setOwn(
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

function defineNull(target: Record<string, unknown>, key: string): void {
  Object.defineProperty(target, key, {
    value: null,
    enumerable: true,
    writable: true,
    configurable: true,
  });
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
  for (let j = 0; j < names.length; j++) setOwn(out, names[j], columns[j]);
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
  const { names, data, index } = checkTable(table);
  const n = data.length;
  const m = names.length;
  const key = options.indexKey;
  if (key !== undefined && names.includes(key)) {
    throw new FrameError(
      `indexKey "${key}" is also a column name; choose another key for the index label`,
    );
  }
  // Every row starts as a copy of one template holding every key (index key
  // first, then the columns in order, all null): copying a fast object and
  // overwriting its fields beats adding 40 properties one by one (10,000 x
  // 40 with JSON.parse: 31 against 57 ms of CPU), and the rows share one
  // shape. The keys are defined (V8 keeps an object built so in fast mode;
  // one built by 40 assignments turns into a dictionary, whose copies are
  // slow), as own data properties, "__proto__" included, so the copies'
  // are too and assigning to them never reaches the prototype setter.
  const template: Row = {};
  if (key !== undefined) defineNull(template, key);
  for (let j = 0; j < m; j++) defineNull(template, names[j]);
  const rows: Row[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const cells = data[i];
    if (!Array.isArray(cells) || cells.length !== m) {
      throw misaligned(i, cells, m);
    }
    const row: Row = { ...template };
    if (key !== undefined) row[key] = index[i];
    for (let j = 0; j < m; j++) {
      const v = cells[j];
      // Missing cells (null, undefined, NaN, "") stay the template's null.
      if (v !== null && v !== undefined && v !== "" && v === v) {
        row[names[j]] = v as Cell;
      }
    }
    rows[i] = row;
  }
  return rows;
}
