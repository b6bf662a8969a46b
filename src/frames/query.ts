/**
 * Rows, columns, split tables or a danfo DataFrame -> a views query
 * (`{ feature: values[] }`), checked so that what is sent is what was meant.
 *
 * @module
 */
import type { DataFrame } from "danfojs-node";
import { FrameError } from "./errors.ts";
import { setOwn } from "./split.ts";
import { checkColumns } from "./scan.ts";
import type { Cell } from "../schemas/views.ts";
import type { SplitTable, ViewsQuery } from "./types.ts";

// deno-doc-ignore private-type-ref -- danfo's own DataFrame class (an optional peer dependency)
/** Anything {@linkcode toViewsQuery} accepts. */
export type QueryInput =
  | readonly Record<string, unknown>[]
  | Readonly<Record<string, readonly unknown[]>>
  | SplitTable
  | DataFrame;

/** Options of {@linkcode toViewsQuery}. */
export interface ToViewsQueryOptions {
  /** Columns to leave out, such as the target of a training file. Unknown names are an error. */
  drop?: string[];
}

/**
 * Converts rows (objects), columns, a split table or a danfo DataFrame to a
 * views query. Missing cells (`null`, `undefined`, `NaN`, `""`) become `null`;
 * `Date`s become ISO strings. Throws a {@linkcode FrameError} for ragged rows,
 * columns of different lengths, infinite numbers, booleans (the views
 * endpoint takes numbers, strings and null only) and values JSON cannot carry.
 *
 * @example
 * ```ts
 * import { toViewsQuery } from "./query.ts";
 * const query = toViewsQuery([
 *   { tenure: 1, contract: "Month-to-month", churn: "Yes" },
 *   { tenure: NaN, contract: "One year", churn: "No" },
 * ], { drop: ["churn"] });
 * if (JSON.stringify(query) !== '{"tenure":[1,null],"contract":["Month-to-month","One year"]}') {
 *   throw new Error("unexpected");
 * }
 * ```
 */
export function toViewsQuery(
  input: QueryInput,
  options: ToViewsQueryOptions = {},
): ViewsQuery {
  const { names, columns, length } = readInput(input);
  const drop = new Set(options.drop ?? []);
  for (const name of drop) {
    if (!names.includes(name)) {
      throw new FrameError(
        `cannot drop column "${name}": it is not in the data (columns: ${
          names.join(", ")
        })`,
      );
    }
  }
  const query: ViewsQuery = {};
  for (let j = 0; j < names.length; j++) {
    const name = names[j];
    if (drop.has(name)) continue;
    const values = columns(j);
    if (values.length !== length) {
      throw new FrameError(
        `column "${name}" has ${values.length} values but column "${
          names[0]
        }" has ${length}; ` +
          "every column of a views query needs one value per row",
      );
    }
    const out: Cell[] = new Array(length);
    for (let i = 0; i < length; i++) out[i] = toCell(values[i], name, i);
    // A column named `__proto__` is a key like any other (defining every
    // column instead cost a third of a one-row conversion).
    setOwn(query, name, out);
  }
  if (Object.keys(query).length === 0) {
    throw new FrameError(
      "the views query has no columns left; pass at least one feature column",
    );
  }
  return query;
}

interface Readable {
  names: string[];
  columns: (j: number) => ArrayLike<unknown>;
  length: number;
}

function readInput(input: QueryInput): Readable {
  if (input === null || typeof input !== "object") {
    throw new FrameError(
      `cannot build a views query from ${
        input === null ? "null" : typeof input
      }; ` +
        "pass rows (objects), columns ({ feature: values[] }), a split table or a danfo DataFrame",
    );
  }
  if (Array.isArray(input)) return readRows(input);
  if (isDataFrame(input)) {
    // getColumnData is danfo's column-major copy; reading it avoids a transpose.
    const data = input.getColumnData as unknown[][];
    return {
      names: [...input.columns],
      columns: (j) => data[j],
      length: input.shape[0],
    };
  }
  const table = input as SplitTable;
  if (Array.isArray(table.columns) && Array.isArray(table.data)) {
    return readSplit(table);
  }
  const record = input as Record<string, readonly unknown[]>;
  const names = Object.keys(record);
  if (names.length === 0) {
    throw new FrameError(
      "the columns object is empty; a views query needs at least one feature column",
    );
  }
  for (const name of names) {
    if (!Array.isArray(record[name])) {
      throw new FrameError(
        `column "${name}" is a ${typeof record[
          name
        ]}, not an array of values (one per row)`,
      );
    }
  }
  return {
    names,
    columns: (j) => record[names[j]],
    length: record[names[0]].length,
  };
}

function readRows(rows: readonly unknown[]): Readable {
  if (rows.length === 0) {
    throw new FrameError(
      "cannot build a views query from 0 rows: there are no feature names to send",
    );
  }
  const first = rows[0];
  if (!isPlainRow(first)) throw notARow(0, first);
  const names = Object.keys(first);
  const n = rows.length;
  const columns: unknown[][] = names.map(() => new Array(n));
  for (let i = 0; i < n; i++) {
    const row = rows[i];
    if (!isPlainRow(row)) throw notARow(i, row);
    let count = 0;
    for (const _ in row) count++;
    for (let j = 0; j < names.length; j++) {
      const name = names[j];
      if (!Object.hasOwn(row, name)) {
        throw new FrameError(
          `row ${i} has no "${name}" but row 0 has; every row needs the same keys (use null for a missing value)`,
        );
      }
      columns[j][i] = (row as Record<string, unknown>)[name];
    }
    if (count !== names.length) {
      const extra = Object.keys(row).find((key) => !names.includes(key));
      throw new FrameError(
        `row ${i} has key "${extra}" that row 0 does not; every row needs the same keys`,
      );
    }
  }
  return { names, columns: (j) => columns[j], length: n };
}

function readSplit(table: SplitTable): Readable {
  // Checked like toDataFrame's (strings, each once): a name twice made the
  // last column's values the first one's in the query, without a word.
  const names = checkColumns(table);
  const m = names.length;
  const n = table.data.length;
  const columns: unknown[][] = names.map(() => new Array(n));
  for (let i = 0; i < n; i++) {
    const row = table.data[i];
    if (!Array.isArray(row) || row.length !== m) {
      throw new FrameError(
        `row ${i} of the split table has ${
          Array.isArray(row) ? row.length : "no"
        } cells but ${m} columns`,
      );
    }
    for (let j = 0; j < m; j++) columns[j][i] = row[j];
  }
  return { names, columns: (j) => columns[j], length: n };
}

function toCell(value: unknown, column: string, row: number): Cell {
  switch (typeof value) {
    case "number":
      if (value !== value) return null;
      if (value === Infinity || value === -Infinity) {
        throw new FrameError(
          `column "${column}", row ${row}: ${value} cannot be sent (JSON has no infinities); ` +
            "replace it with a finite number or null for missing",
        );
      }
      return value;
    case "string":
      return value === "" ? null : value;
    case "boolean":
      throw new FrameError(
        `column "${column}", row ${row}: the views endpoint takes no booleans; ` +
          `send ${value} as the value the model was trained on (a string such as "${value}", or 1/0)`,
      );
    case "undefined":
      return null;
    case "bigint":
      if (Number.isSafeInteger(Number(value))) return Number(value);
      throw new FrameError(
        `column "${column}", row ${row}: bigint ${value} does not fit a JSON number; send it as a string`,
      );
  }
  if (value === null) return null;
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) {
      throw new FrameError(
        `column "${column}", row ${row}: invalid Date; pass a valid date or null`,
      );
    }
    return value.toISOString();
  }
  const kind = describe(value);
  throw new FrameError(
    `column "${column}", row ${row}: ${
      /^[aeiou]/i.test(kind) ? "an" : "a"
    } ${kind} is not a query value; use numbers, strings or null`,
  );
}

function isPlainRow(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function notARow(i: number, value: unknown): FrameError {
  return new FrameError(
    `row ${i} is ${
      Array.isArray(value) ? "an array" : describe(value)
    }; rows must be objects keyed by feature name`,
  );
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (typeof value !== "object") return typeof value;
  return Array.isArray(value) ? "array" : (value.constructor?.name ?? "object");
}

function isDataFrame(value: object): value is DataFrame {
  // Duck-typed so that checking never loads danfo.
  const candidate = value as {
    columns?: unknown;
    shape?: unknown;
    $dataIncolumnFormat?: unknown;
  };
  return Array.isArray(candidate.columns) && Array.isArray(candidate.shape) &&
    "$dataIncolumnFormat" in candidate;
}
