/**
 * Converts a CSV file into a datasource using the data schema: NUMBER fields
 * become numbers, STRING fields stay strings, empty cells become missing.
 * This is the ingestion step's typing rule.
 *
 * Two forms: {@link columnsFromCsv} gives columns of raw values (small
 * tables, tests); {@link datasourceFromCsv} parses the text straight into a
 * {@link Datasource} of typed columns (a `Float64Array` per NUMBER field,
 * dictionary codes per STRING field) without a string per cell, which is
 * what ingestion stores: 1,000,000 rows of 20 columns take about 100 MB
 * instead of gigabytes of strings and row arrays.
 *
 * @example
 * ```ts
 * import { parseCsv } from "../../csv.ts";
 * import { columnsFromCsv } from "./datasource.ts";
 *
 * const cols = columnsFromCsv(parseCsv("a,b\n1,x\n,y\n"), [
 *   { name: "a", data_type: { data_type: "NUMBER" }, designation: "FEATURE", semantic_type: "CONTINUOUS" },
 *   { name: "b", data_type: { data_type: "STRING" }, designation: "TARGET", semantic_type: "CATEGORICAL" },
 * ]);
 * if (!(cols.a[0] === 1 && cols.a[1] === null && cols.b[1] === "y")) throw new Error("example failed");
 * ```
 *
 * @module
 */

import { type CsvTable, decimalNumber } from "../../csv.ts";
import {
  type CsvColumn,
  type CsvColumns,
  CsvColumnsReader,
  CsvValueError,
  parseCsvColumns,
} from "../../csv_columns.ts";
import type { RawColumns, RawValue, SchemaField } from "./columns.ts";
import { ModelDataError } from "./errors.ts";
import { separatorHint } from "../../csv_hint.ts";

/** A typed datasource column (see `CsvColumn` of csv.ts: NaN / code 0 = missing). */
export type DatasourceColumn = CsvColumn;

/**
 * A datasource as typed columns, keyed by column name (a null-prototype
 * record, so any column name, `__proto__` included, is a plain key).
 * Serialises to JSON (for a persistent store) with the arrays as base64;
 * {@link asDatasource} reads either form back.
 */
export interface Datasource {
  format: "typed-columns/1";
  nRows: number;
  columns: Record<string, DatasourceColumn>;
}

/**
 * Whether a stored datasource blob is typed ({@link Datasource}, live or
 * from JSON) rather than columns of raw values (older stores).
 *
 * @example
 * ```ts
 * import { isDatasource } from "./datasource.ts";
 * if (!(isDatasource({ format: "typed-columns/1", nRows: 0, columns: {} }) && !isDatasource({ x: [1] }))) throw new Error("example failed");
 * ```
 */
export function isDatasource(blob: unknown): blob is StoredDatasource {
  return typeof blob === "object" && blob !== null && "format" in blob &&
    blob.format === "typed-columns/1" && "nRows" in blob &&
    typeof blob.nRows === "number" && "columns" in blob &&
    typeof blob.columns === "object" && blob.columns !== null;
}

/** A {@link Datasource} as stored: live, or its JSON form (columns unchecked). */
export interface StoredDatasource {
  format: "typed-columns/1";
  nRows: number;
  columns: Record<string, unknown>;
}

/**
 * Whether a stored blob is columns of raw values (an object of arrays).
 *
 * @example
 * ```ts
 * import { isRawColumns } from "./datasource.ts";
 * if (!(isRawColumns({ x: [1, "a", null] }) && !isRawColumns({ x: 1 }) && !isRawColumns(null))) throw new Error("example failed");
 * ```
 */
export function isRawColumns(blob: unknown): blob is RawColumns {
  return typeof blob === "object" && blob !== null &&
    Object.values(blob).every((v) => Array.isArray(v));
}

/** One column of a stored datasource, its arrays decoded from base64 when they are. */
function storedColumn(c: unknown): DatasourceColumn {
  const field = (name: string): unknown =>
    typeof c === "object" && c !== null && name in c
      ? Object.getOwnPropertyDescriptor(c, name)?.value
      : undefined;
  const base64 = () => fromBase64(String(field("base64"))).buffer;
  if (field("kind") === "number") {
    const values = field("values");
    return {
      kind: "number",
      values: values instanceof Float64Array
        ? values
        : new Float64Array(base64()),
    };
  }
  const codes = field("codes");
  const dictionary = field("dictionary");
  return {
    kind: "string",
    codes: codes instanceof Uint32Array ? codes : new Uint32Array(base64()),
    dictionary: Array.isArray(dictionary) ? dictionary.map(String) : [],
  };
}

/**
 * A stored datasource blob as a live {@link Datasource} (decoding the base64
 * arrays of its JSON form), or raw columns as they were stored.
 *
 * @example
 * ```ts
 * import { asDatasource, makeDatasource } from "./datasource.ts";
 * const d = makeDatasource(2, { x: { kind: "number", values: Float64Array.of(1, NaN) } });
 * const back = asDatasource(JSON.parse(JSON.stringify(d))) as typeof d;
 * const x = back.columns.x;
 * if (!(x.kind === "number" && x.values[0] === 1 && Number.isNaN(x.values[1]))) throw new Error("example failed");
 * ```
 */
export function asDatasource(blob: unknown): Datasource | RawColumns {
  if (!isDatasource(blob)) {
    if (isRawColumns(blob)) return blob;
    throw new TypeError(
      "the stored datasource is neither typed columns nor columns of values.",
    );
  }
  const columns: Record<string, DatasourceColumn> = Object.create(null);
  for (const [name, c] of Object.entries(blob.columns)) {
    columns[name] = storedColumn(c);
  }
  return makeDatasource(blob.nRows, columns);
}

/**
 * Wraps typed columns as a {@link Datasource} whose JSON form holds the
 * arrays as base64.
 *
 * @example
 * ```ts
 * import { makeDatasource } from "./datasource.ts";
 * const d = makeDatasource(1, { c: { kind: "string", codes: Uint32Array.of(1), dictionary: ["a"] } });
 * if (!(JSON.stringify(d).includes('"base64"'))) throw new Error("example failed");
 * ```
 */
export function makeDatasource(
  nRows: number,
  columns: Record<string, DatasourceColumn>,
): Datasource {
  const own: Record<string, DatasourceColumn> = Object.create(null);
  for (const [name, c] of Object.entries(columns)) own[name] = c;
  const d: Datasource = { format: "typed-columns/1", nRows, columns: own };
  Object.defineProperty(d, "toJSON", {
    enumerable: false,
    value: () => ({
      format: d.format,
      nRows: d.nRows,
      columns: Object.fromEntries(
        Object.entries(d.columns).map(([name, c]) => [
          name,
          c.kind === "number" ? { kind: c.kind, base64: toBase64(c.values) } : {
            kind: c.kind,
            base64: toBase64(c.codes),
            dictionary: c.dictionary,
          },
        ]),
      ),
    }),
  });
  return d;
}

function toBase64(a: Float64Array | Uint32Array): string {
  const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  let out = "";
  for (let i = 0; i < bytes.length; i += 0x6000) {
    out += btoa(String.fromCharCode(...bytes.subarray(i, i + 0x6000)));
  }
  return out;
}

function fromBase64(s: string): Uint8Array {
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/**
 * Parses CSV (its text, or its UTF-8 bytes, decoded a piece at a time) into
 * a {@link Datasource} typed by the schema's fields (columns of the file the
 * schema does not name are skipped).
 *
 * @throws {ModelDataError} Naming the column: a schema field absent from the
 *   CSV header, or a NUMBER cell that is not a number (with its line).
 * @throws {CsvError} When the text is not valid CSV (naming the line).
 *
 * @example
 * ```ts
 * import { datasourceFromCsv } from "./datasource.ts";
 *
 * const d = datasourceFromCsv("a,b\n1,x\n,y\n", [
 *   { name: "a", data_type: { data_type: "NUMBER" }, designation: "FEATURE", semantic_type: "CONTINUOUS" },
 *   { name: "b", data_type: { data_type: "STRING" }, designation: "TARGET", semantic_type: "CATEGORICAL" },
 * ]);
 * const a = d.columns.a, b = d.columns.b;
 * if (!(d.nRows === 2 && a.kind === "number" && Number.isNaN(a.values[1]) && b.kind === "string" && b.dictionary[1] === "y")) throw new Error("example failed");
 * ```
 */
export function datasourceFromCsv(
  text: string | Uint8Array,
  fields: ReadonlyArray<SchemaField>,
): Datasource {
  let parsed;
  try {
    parsed = parseCsvColumns(text, kindsOf(fields));
  } catch (error) {
    throw dataError(error);
  }
  return typedBy(fields, parsed);
}

/**
 * {@link datasourceFromCsv} of a file whose bytes arrive in pieces (a gzip
 * file as it inflates): no more than a piece and the record under way is
 * held beside the columns, whatever the file's size.
 *
 * @throws As {@link datasourceFromCsv}; an error of `chunks` as it is.
 *
 * @example
 * ```ts
 * import { datasourceFromChunks } from "./datasource.ts";
 * async function* pieces() {
 *   yield new TextEncoder().encode("a,b\n1,");
 *   yield new TextEncoder().encode("x\n2,y\n");
 * }
 * const d = await datasourceFromChunks(pieces(), [
 *   { name: "a", data_type: { data_type: "NUMBER" }, designation: "FEATURE", semantic_type: "CONTINUOUS" },
 * ]);
 * const a = d.columns.a;
 * if (!(d.nRows === 2 && a.kind === "number" && a.values[1] === 2)) throw new Error("example failed");
 * ```
 */
export async function datasourceFromChunks(
  chunks: AsyncIterable<Uint8Array>,
  fields: ReadonlyArray<SchemaField>,
): Promise<Datasource> {
  const reader = new CsvColumnsReader(kindsOf(fields));
  let parsed;
  try {
    for await (const chunk of chunks) reader.push(chunk);
    parsed = reader.end();
  } catch (error) {
    throw dataError(error);
  }
  return typedBy(fields, parsed);
}

/** The kind of column each schema field is parsed into. */
function kindsOf(
  fields: ReadonlyArray<SchemaField>,
): Map<string, "number" | "string"> {
  const kinds = new Map<string, "number" | "string">();
  for (const f of fields) {
    kinds.set(f.name, f.data_type.data_type === "NUMBER" ? "number" : "string");
  }
  return kinds;
}

/** A cell that is not a number, said as the column's error. */
function dataError(error: unknown): unknown {
  if (error instanceof CsvValueError) {
    return new ModelDataError(
      error.column,
      "BAD_NUMBER",
      `column '${error.column}' line ${error.line}: '${error.cell}' is not a number; fix the cell or declare the column STRING.`,
    );
  }
  return error;
}

/** The parsed columns the schema names, as a datasource. */
function typedBy(
  fields: ReadonlyArray<SchemaField>,
  parsed: CsvColumns,
): Datasource {
  const columns: Record<string, DatasourceColumn> = Object.create(null);
  for (const f of fields) {
    const c = parsed.columns.get(f.name);
    if (!c) throw missingColumn(f.name, parsed.header);
    columns[f.name] = c;
  }
  return makeDatasource(parsed.rows, columns);
}

function missingColumn(name: string, header: string[]): ModelDataError {
  return new ModelDataError(
    name,
    "COLUMN_MISSING",
    `column '${name}' of the data schema is not in the CSV header (${
      header.slice(0, 8).join(", ")
    }${header.length > 8 ? ", ..." : ""})${
      separatorHint(header)
    }; fix the schema or the file.`,
  );
}

/**
 * Builds the datasource columns for the schema's fields from a CSV table.
 * Columns of the CSV that the schema does not name are left out.
 *
 * @throws {ModelDataError} Naming the column: a schema field absent from the
 *   CSV header, or a NUMBER cell that is not a number (with its line number).
 *
 * @example
 * ```ts
 * import { parseCsv } from "../../csv.ts";
 * import { columnsFromCsv } from "./datasource.ts";
 * import { ModelDataError } from "./errors.ts";
 *
 * try {
 *   columnsFromCsv(parseCsv("a\nx\n"), [
 *     { name: "a", data_type: { data_type: "NUMBER" }, designation: "FEATURE", semantic_type: "CONTINUOUS" },
 *   ]);
 * } catch (e) {
 *   if (!(e instanceof ModelDataError && e.message.includes("line 2"))) throw new Error("example failed");
 * }
 * ```
 */
export function columnsFromCsv(
  table: CsvTable,
  fields: ReadonlyArray<SchemaField>,
): RawColumns {
  const out: Record<string, RawValue[]> = Object.create(null);
  for (const f of fields) {
    const c = table.header.indexOf(f.name);
    if (c < 0) throw missingColumn(f.name, table.header);
    const numeric = f.data_type.data_type === "NUMBER";
    const col: RawValue[] = new Array(table.rows.length);
    for (let r = 0; r < table.rows.length; r++) {
      const cell = table.rows[r][c];
      if (cell === "") col[r] = null;
      else if (!numeric) col[r] = cell;
      else {
        // Decimal only: Number() would read "0x10" as 16 (see decimalNumber).
        const x = decimalNumber(cell);
        if (Number.isNaN(x)) {
          throw new ModelDataError(
            f.name,
            "BAD_NUMBER",
            `column '${f.name}' line ${
              table.lines[r]
            }: '${cell}' is not a number; fix the cell or declare the column STRING.`,
          );
        }
        col[r] = x;
      }
    }
    out[f.name] = col;
  }
  return out;
}
