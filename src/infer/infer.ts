/**
 * Schema inference from data: a CSV file (path, URL, Blob or text), rows,
 * columns or a danfo DataFrame, plus the target name, gives an editable
 * {@linkcode SchemaBuilder} with review notes. Nothing is sent until its
 * `create()`.
 *
 * @module
 */

import type { BuilderClient } from "../builders/builder_client.ts";
import { type FieldSpec, SchemaBuilder } from "../builders/schema.ts";
import { invalid } from "../builders/validate.ts";
import { type CsvStringColumn, parseCsv, parseCsvColumns } from "../csv.ts";
import { type ColumnReport, inferCountedColumn } from "./columns.ts";
import { gunzipIfGzip } from "../gzip.ts";

/** Anything a schema can be inferred from. */
export type InferSource =
  | string
  | URL
  | Blob
  | { csv: string }
  | Record<string, unknown>[]
  | Record<string, ArrayLike<unknown>>
  | DataFrameLike;

/** The parts of a danfo DataFrame inference reads. */
export interface DataFrameLike {
  /** Column names. */
  columns: string[];
  /** Rows of values. */
  values: unknown[][];
  /** `[rows, columns]`. */
  shape: number[];
}

/** Options of schema inference. */
export interface InferOptions<T extends string> {
  /** The column to predict (it must be in the data). */
  target: T | readonly T[];
  /** Schema name (default: the file name without extension, else `"schema"`). */
  name?: string;
  /** Columns to leave out (ids, leaks). */
  exclude?: readonly string[];
  /**
   * How the targets are predicted: `CLASSIFICATION` (CATEGORICAL targets) or
   * `REGRESSION` (CONTINUOUS numbers). Default: REGRESSION for a numeric
   * target with more than 20 distinct values (not only 0/1), else
   * CLASSIFICATION; the schema's `predictionType` says which was picked.
   */
  predictionType?: "CLASSIFICATION" | "REGRESSION";
  /** The client `create()` uses (set by `ml.inferSchema`). */
  client?: BuilderClient;
}

/** Feature names of rows or columns of type `R`, minus the targets. */
export type InferredFeatures<R, T extends string> = R extends
  readonly (infer Row)[] ? Exclude<keyof Row & string, T>
  : R extends DataFrameLike | string | URL | Blob | { csv: string } ? string
  : Exclude<keyof R & string, T>;

/**
 * Infers a schema from data and a target. Column types follow the values;
 * a target is a classification target (`CATEGORICAL`), or a regression
 * target (a `CONTINUOUS` number) when it holds more than 20 distinct
 * numbers or `predictionType: "REGRESSION"` says so. Check `review` and edit
 * with `.retype()`, `.drop()` before `create()`.
 *
 * @example From rows (the names flow into the types)
 * ```ts
 * import { inferSchema } from "./infer.ts";
 * const draft = await inferSchema([
 *   { tenure: 1, monthly: 29.85, contract: "Month-to-month", senior: 0, churn: "No" },
 *   { tenure: 34, monthly: 56.95, contract: "One year", senior: 1, churn: "Yes" },
 * ], { target: "churn", name: "churn" });
 * draft.featureNames.join(); // "tenure,monthly,contract,senior"
 * draft.fields.find((f) => f.name === "monthly")?.data_type.format; // "FLOAT64"
 * draft.review.map((n) => n.field).includes("senior"); // true: a 0/1 flag
 * ```
 *
 * @example A numeric target with many values is predicted as a number
 * ```ts
 * import { inferSchema } from "./infer.ts";
 * const rows = Array.from({ length: 40 }, (_, i) => ({ cement: 100 + i, strength: 10 + i * 0.7 }));
 * (await inferSchema(rows, { target: "strength" })).predictionType; // "REGRESSION"
 * (await inferSchema(rows, { target: "strength", predictionType: "CLASSIFICATION" })).predictionType; // "CLASSIFICATION"
 * ```
 */
export async function inferSchema<
  const S extends InferSource,
  const T extends string,
>(
  source: S,
  options: InferOptions<T>,
): Promise<SchemaBuilder<InferredFeatures<S, T>, T>> {
  const { names, column, defaultName } = await readSource(source);
  const targets = [options.target].flat() as T[];
  const exclude = new Set(options.exclude ?? []);
  const issues = targets.filter((t) => !names.includes(t)).map((t) => ({
    path: "target",
    message: `"${t}" is not a column of the data (columns: ${
      names.join(", ")
    })`,
  }));
  // A name to leave out that is no column (a typo: "ID" for "id") left the
  // column in, as a feature, without a word.
  (options.exclude ?? []).forEach((n, i) => {
    if (!names.includes(n)) {
      issues.push({
        path: `exclude.${i}`,
        message: `"${n}" is not a column of the data (columns: ${
          names.join(", ")
        })`,
      });
    }
  });
  // A header cell left empty became a field named "" (two for `a,,`), which
  // the platform then refuses far from the file: named here by position.
  names.forEach((n, j) => {
    if (n === "" && !exclude.has("")) {
      issues.push({
        path: "columns",
        message: `column ${
          j + 1
        } of the data has no name; name it, or leave it out with exclude: [""]`,
      });
    }
  });
  if (issues.length) throw invalid("schema inference", issues);
  const reports: ColumnReport[] = names.filter((n) => !exclude.has(n)).map((
    n,
  ) => {
    const { values, counts } = column(n);
    return inferCountedColumn(n, values, counts, {
      target: targets.includes(n as T),
      predictionType: options.predictionType,
    });
  });
  const textTargets = reports.filter((r) =>
    targets.includes(r.name as T) && r.type.data_type.data_type !== "NUMBER"
  );
  if (options.predictionType === "REGRESSION" && textTargets.length) {
    throw invalid(
      "schema inference",
      textTargets.map((r) => ({
        path: "target",
        message:
          `"${r.name}" holds text, and REGRESSION predicts a number; use predictionType: "CLASSIFICATION" or a numeric target`,
      })),
    );
  }
  const fields: FieldSpec[] = reports.map((r) => ({
    name: r.name,
    designation: targets.includes(r.name as T) ? "TARGET" : "FEATURE",
    data_type: r.type.data_type,
    semantic_type: r.type.semantic_type,
  }));
  return new SchemaBuilder(
    options.client,
    options.name ?? defaultName ?? "schema",
    fields,
    reports.flatMap((r) => (r.note ? [r.note] : [])),
  ) as SchemaBuilder<InferredFeatures<S, T>, T>;
}

interface ReadTable {
  names: string[];
  /**
   * A column's cells, or its distinct cells and how often each occurs
   * (`counts`) when the source has them so (a CSV's dictionary codes).
   */
  column(name: string): { values: ArrayLike<unknown>; counts?: Uint32Array };
  defaultName?: string;
}

/** What a source (row, column) from JavaScript is, for an error message. */
const kindOf = (v: unknown) =>
  v === null ? "null" : Array.isArray(v) ? "an array" : `a ${typeof v}`;

async function readSource(source: InferSource): Promise<ReadTable> {
  // From JavaScript anything arrives: no table was a TypeError ("Cannot use
  // 'in' operator"), refused here naming it.
  if (
    source === null ||
    (typeof source !== "object" && typeof source !== "string")
  ) {
    throw invalid("schema inference", [{
      path: "source",
      message: `${
        kindOf(source)
      } is no table; pass a CSV path, URL, Blob or { csv }, rows, columns or a DataFrame`,
    }]);
  }
  if (typeof source === "string" || source instanceof URL) {
    const text = await readText(source);
    const base = String(source).split(/[\\/]/).pop()!.replace(/\.[^.]*$/, "");
    return { ...csvTable(text), defaultName: base || undefined };
  }
  if (typeof Blob !== "undefined" && source instanceof Blob) {
    const name = (source as Blob & { name?: string }).name;
    return {
      // Bytes, not text(): a gzipped Blob (a picked .csv.gz File) reads as
      // the CSV it holds, as a path does (docs/contract.md#buckets-local-platform).
      ...csvTable(
        new TextDecoder().decode(
          await gunzipIfGzip(new Uint8Array(await source.arrayBuffer())),
        ),
      ),
      defaultName: name?.replace(/\.[^.]*$/, ""),
    };
  }
  if (Array.isArray(source)) {
    // A row that is no object was read as a row of missing values (a
    // number), or its indices as columns (an array); null was a TypeError.
    const bad = source.findIndex((row) =>
      row === null || typeof row !== "object" || Array.isArray(row)
    );
    if (bad >= 0) {
      throw invalid("schema inference", [{
        path: `rows.${bad}`,
        message: `${
          kindOf(source[bad])
        } is no row; each row is an object of column values`,
      }]);
    }
    const names: string[] = [];
    const seen = new Set<string>();
    for (const row of source) {
      for (const key of Object.keys(row)) {
        if (!seen.has(key)) seen.add(key), names.push(key);
      }
    }
    // Own keys only: a row without "constructor" has no value there (not
    // Object's constructor), and "__proto__" read from JSON is a plain key.
    return {
      names,
      column: (n) => ({
        values: source.map((row) => Object.hasOwn(row, n) ? row[n] : undefined),
      }),
    };
  }
  if ("csv" in source && typeof source.csv === "string") {
    return csvTable(source.csv);
  }
  if (isDataFrame(source)) {
    const { columns, values } = source;
    return {
      names: [...columns],
      column: (n) => {
        const j = columns.indexOf(n);
        return { values: values.map((row) => row[j]) };
      },
    };
  }
  const columns = source as Record<string, ArrayLike<unknown>>;
  const names = Object.keys(columns);
  const notArray = names.find((n) =>
    !Array.isArray(columns[n]) && !ArrayBuffer.isView(columns[n])
  );
  if (notArray !== undefined) {
    throw invalid("schema inference", [{
      path: notArray,
      message: `${
        kindOf(columns[notArray])
      } is not an array; each column is an array of values, one per row`,
    }]);
  }
  // Columns of different lengths are no table: each was read on its own.
  const short = names.find((n) =>
    columns[n]?.length !== columns[names[0]]?.length
  );
  if (short !== undefined) {
    throw invalid("schema inference", [{
      path: short,
      message: `"${short}" has ${columns[short]?.length} values but "${
        names[0]
      }" has ${
        columns[names[0]]?.length
      }; every column needs one value per row`,
    }]);
  }
  return {
    names: Object.keys(columns),
    column: (n) => ({ values: columns[n] }),
  };
}

function csvTable(text: string): ReadTable {
  // Column by column from dictionary codes: each distinct cell text is kept
  // once, not one string per cell (a 1,000,000-row file stays small).
  const header = parseCsv(text.slice(0, headerEnd(text))).header;
  const { columns } = parseCsvColumns(
    text,
    new Map(header.map((name) => [name, "string" as const])),
  );
  return {
    names: header,
    // Each distinct cell once, with its count (code 0 is the empty cell):
    // no million-element array of cells per column.
    column: (n) => {
      const { codes, dictionary } = columns.get(n) as CsvStringColumn;
      const counts = new Uint32Array(dictionary.length + 1);
      for (let i = 0; i < codes.length; i++) counts[codes[i]]++;
      return { values: ["", ...dictionary], counts };
    },
  };
}

/** End of the header record (its first line break outside quotes, after any blank lines). */
function headerEnd(text: string): number {
  let quoted = false;
  let start = 0;
  while (start < text.length && /[\r\n\uFEFF]/.test(text[start])) start++;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === "\n" || c === "\r")) return i;
  }
  return text.length;
}

function isDataFrame(x: unknown): x is DataFrameLike {
  const d = x as DataFrameLike;
  return Array.isArray(d?.columns) && Array.isArray(d?.values) &&
    Array.isArray(d?.shape);
}

/** Deno's file reader, when running in Deno. */
interface DenoReader {
  Deno?: { readTextFile?(path: string | URL): Promise<string> };
}

/**
 * Reads a text file: a path or `file:` URL from disk (Deno or Node), an
 * `http(s):` URL with fetch. Gzip data (a `.csv.gz` file) reads as the text
 * it holds.
 */
async function readText(source: string | URL): Promise<string> {
  const url = source instanceof URL ? source : undefined;
  let bytes: Uint8Array;
  if (url && url.protocol !== "file:") {
    const response = await fetch(url);
    if (!response.ok) {
      throw new Error(`Could not read ${url}: HTTP ${response.status}`);
    }
    bytes = new Uint8Array(await response.arrayBuffer());
  } else {
    const deno = (globalThis as DenoReader).Deno;
    if (deno?.readTextFile && !isGzipName(source)) {
      return await deno.readTextFile(source);
    }
    const fs = await import("node:fs/promises");
    bytes = await fs.readFile(source);
  }
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(
    await gunzipIfGzip(bytes),
  );
}

/** Whether a path or URL names a gzip file (`.gz`). */
function isGzipName(source: string | URL): boolean {
  return String(source).toLowerCase().endsWith(".gz");
}
