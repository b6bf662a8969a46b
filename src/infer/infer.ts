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
import { invalid, nearestName } from "../builders/validate.ts";
import { CsvError } from "../csv.ts";
import { separatorHint } from "../csv_hint.ts";
import { InflateError } from "../gzip.ts";
import { ValidationError } from "../http/errors.ts";
import { permissionRefusal } from "../permissions.ts";
import {
  type ColumnReport,
  type InferColumnOptions,
  inferCountedColumn,
} from "./columns.ts";
import { type CsvSource, tallyCsv } from "./csv_source.ts";

/**
 * Anything a schema can be inferred from: a CSV (a path, a URL, a Blob or
 * File, a stream of its bytes, `{ csv }` of its text; gzipped or not), rows,
 * columns or a danfo DataFrame.
 */
export type InferSource =
  | string
  | URL
  | Blob
  | ReadableStream<Uint8Array>
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
   * target with more than 20 distinct values (not only 0/1) or a value with
   * a fraction (0.5, 2.25), else CLASSIFICATION; the schema's
   * `predictionType` says which was picked, and a review note why.
   */
  predictionType?: "CLASSIFICATION" | "REGRESSION";
  /** The client `create()` uses (set by `ml.inferSchema`). */
  client?: BuilderClient;
}

/** Feature names of rows or columns of type `R`, minus the targets. */
export type InferredFeatures<R, T extends string> = R extends
  readonly (infer Row)[] ? Exclude<keyof Row & string, T>
  : R extends
    | DataFrameLike
    | string
    | URL
    | Blob
    | ReadableStream<Uint8Array>
    | { csv: string } ? string
  : Exclude<keyof R & string, T>;

/**
 * Infers a schema from data and a target. Column types follow the values;
 * a target is a classification target (`CATEGORICAL`), or a regression
 * target (a `CONTINUOUS` number) when it holds more than 20 distinct
 * numbers, a number with a fraction, or `predictionType: "REGRESSION"`
 * says so. Check `review` and edit with `.retype()`, `.drop()` before
 * `create()`.
 *
 * A CSV (a path, a URL, a Blob or File, a stream of its bytes, `{ csv }`;
 * gzipped or not) is read
 * 64 KiB at a time and each column tallied as it is parsed: the file is
 * never held whole, so its size does not bound what can be inferred.
 *
 * @throws {ValidationError} When the data is not a table: a target or an
 *   excluded name that is no column, a CSV that does not parse (a row with
 *   more or fewer fields than the header, a column named twice, a quote
 *   never closed; the issue names the file and the line, and `cause` is
 *   the parser's error), a `.csv.gz` that does not inflate.
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
 *
 * @example From a CSV file, read piece by piece (a `.csv.gz` reads the same)
 * ```ts
 * import { inferSchema } from "./infer.ts";
 * const dir = await Deno.makeTempDir();
 * const lines = ["plan,monthly,churn"];
 * for (let i = 0; i < 20_000; i++) lines.push(`"plan ${i % 3}, yearly",${(i % 97) / 4},${i % 5 ? "No" : "Yes"}`);
 * await Deno.writeTextFile(`${dir}/customers.csv`, lines.join("\r\n"));
 * const draft = await inferSchema(`${dir}/customers.csv`, { target: "churn" });
 * draft.name; // "customers"
 * if (draft.fields.find((f) => f.name === "monthly")?.data_type.format !== "FLOAT64") throw new Error();
 * if (draft.fields.find((f) => f.name === "plan")?.data_type.data_type !== "STRING") throw new Error();
 * // A stream of the file's bytes (as quickstart() reads a bucket file) gives the same.
 * using file = await Deno.open(`${dir}/customers.csv`);
 * const streamed = await inferSchema(file.readable, { target: "churn", name: "customers" });
 * if (JSON.stringify(streamed.fields) !== JSON.stringify(draft.fields)) throw new Error();
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @example A CSV that does not parse is a ValidationError naming the line
 * ```ts
 * import { inferSchema } from "./infer.ts";
 * import { ValidationError } from "../http/errors.ts";
 * const error = await inferSchema({ csv: "x,y\n1,a\n2,b,3\n" }, { target: "y" }).catch((e) => e);
 * if (!(error instanceof ValidationError) || !error.message.includes("CSV line 3: expected 2 fields")) throw error;
 * ```
 */
export async function inferSchema<
  const S extends InferSource,
  const T extends string,
>(
  source: S,
  options: InferOptions<T>,
): Promise<SchemaBuilder<InferredFeatures<S, T>, T>> {
  const targets = [options.target].flat() as T[];
  const exclude = new Set(options.exclude ?? []);
  const { names, report, defaultName } = await readSource(
    source,
    (name) =>
      exclude.has(name) ? undefined : {
        target: targets.includes(name as T),
        predictionType: options.predictionType,
      },
  );
  const hint = separatorHint(names);
  const missing = (n: string) => {
    const like = nearestName(n, names);
    return `"${n}" is not a column of the data (${
      like ? `did you mean "${like}"? ` : ""
    }columns: ${names.join(", ")})${hint}`;
  };
  const issues = targets.filter((t) => !names.includes(t)).map((t) => ({
    path: "target",
    message: missing(t),
  }));
  // A name to leave out that is no column (a typo: "ID" for "id") left the
  // column in, as a feature, without a word.
  (options.exclude ?? []).forEach((n, i) => {
    if (!names.includes(n)) {
      issues.push({
        path: `exclude.${i}`,
        message: missing(n),
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
  const reports: ColumnReport[] = names.filter((n) => !exclude.has(n)).map(
    report,
  );
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
  const draft = new SchemaBuilder(
    options.client,
    options.name ?? defaultName ?? "schema",
    fields,
    reports.flatMap((r) => (r.note ? [r.note] : [])),
  ) as SchemaBuilder<InferredFeatures<S, T>, T>;
  const classes = reports.filter((r) =>
    targets.includes(r.name as T) && r.type.semantic_type === "CATEGORICAL"
  );
  if (classes.length === 1) classesSeen.set(draft, classes[0].distinct);
  return draft;
}

/** The classes inference saw in a draft's one categorical target. */
const classesSeen = new WeakMap<object, number>();

/**
 * How many classes {@linkcode inferSchema} saw in the one categorical
 * target of the draft it returned (a file read in pieces keeps count up to
 * three: enough to tell a binary target from a multi-class one), or
 * `undefined` for a numeric target, several targets or another builder.
 * Quickstart reads it to refuse, before any create, what the training job
 * would refuse of a multi-class target (monotone constraints).
 *
 * @example
 * ```ts
 * import { inferSchema, inferredClasses } from "./infer.ts";
 *
 * const draft = await inferSchema({ x: [1, 2, 3, 4], y: ["a", "b", "c", "a"] }, { target: "y" });
 * if (inferredClasses(draft) !== 3) throw new Error("example failed");
 * ```
 */
export function inferredClasses(draft: object): number | undefined {
  return classesSeen.get(draft);
}

interface ReadTable {
  names: string[];
  /** A column's report (a column `optionsOf` gave options). */
  report(name: string): ColumnReport;
  defaultName?: string;
}

/** What a source (row, column) from JavaScript is, for an error message. */
const kindOf = (v: unknown) =>
  v === null || v === undefined
    ? String(v)
    : Array.isArray(v)
    ? "an array"
    : `a ${typeof v}`;

/**
 * Reads a source's columns: `optionsOf` gives a column's inference options,
 * or undefined for a column left out. A CSV is tallied as it is read (its
 * columns are never held), other sources' columns are read when reported.
 */
async function readSource(
  source: InferSource,
  optionsOf: (name: string) => InferColumnOptions | undefined,
): Promise<ReadTable> {
  const column = (name: string, values: ArrayLike<unknown>) =>
    inferCountedColumn(name, values, undefined, optionsOf(name));
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
    const base = String(source).split(/[\\/]/).pop()!.replace(/\.[^.]*$/, "");
    return {
      ...await csvTable(source, optionsOf, placeOf(source)),
      defaultName: base || undefined,
    };
  }
  if (
    typeof ReadableStream !== "undefined" && source instanceof ReadableStream
  ) {
    // A CSV's bytes as they arrive (a bucket file, a fetch body).
    return await csvTable(source, optionsOf, "the stream");
  }
  if (typeof Blob !== "undefined" && source instanceof Blob) {
    const name = (source as Blob & { name?: string }).name;
    return {
      // Bytes, not text(): a gzipped Blob (a picked .csv.gz File) reads as
      // the CSV it holds, as a path does (docs/contract.md#buckets-local-platform).
      ...await csvTable(
        source,
        optionsOf,
        name ? `the file ${JSON.stringify(name)}` : "the Blob",
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
      report: (n) =>
        column(
          n,
          source.map((row) => Object.hasOwn(row, n) ? row[n] : undefined),
        ),
    };
  }
  if ("csv" in source && typeof source.csv === "string") {
    return await csvTable({ csv: source.csv }, optionsOf, "the text");
  }
  if (isDataFrame(source)) {
    const { columns, values } = source;
    return {
      names: [...columns],
      report: (n) => {
        const j = columns.indexOf(n);
        return column(n, values.map((row) => row[j]));
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
    report: (n) => column(n, columns[n]),
  };
}

/**
 * A CSV read piece by piece ({@linkcode tallyCsv}): each column asked for
 * is tallied as its cells pass, so neither the text nor a column is held.
 * A CSV that does not parse, or gzip data that does not inflate, is
 * refused naming `place` (see {@linkcode unreadableCsv}).
 */
async function csvTable(
  source: CsvSource,
  optionsOf: (name: string) => InferColumnOptions | undefined,
  place: string,
): Promise<ReadTable> {
  let read: Awaited<ReturnType<typeof tallyCsv>>;
  try {
    read = await tallyCsv(source, optionsOf);
  } catch (error) {
    throw unreadableCsv(error, "source", place);
  }
  const { header, tallies } = read;
  return {
    names: header,
    report: (n) => tallies[header.indexOf(n)]!.report(n),
  };
}

/**
 * How a message names a path or URL: a path as given, an `http(s):` URL
 * without its credentials or query (a signed URL's signature stays out of
 * messages).
 */
function placeOf(source: string | URL): string {
  if (source instanceof URL && source.protocol !== "file:") {
    return JSON.stringify(`${source.origin}${source.pathname}`);
  }
  return JSON.stringify(String(source));
}

/**
 * The SDK's error for a CSV source that cannot be read as a table: a
 * {@linkcode CsvError} (a row with more or fewer fields than the header, a
 * column named twice, a quote never closed, an empty file) or an
 * {@linkcode InflateError} (a `.csv.gz` that is truncated or corrupt)
 * becomes a {@linkcode ValidationError} whose issue, at `path` (the option
 * naming the source), names the source (`place`), the line and what to do,
 * with the parser's error as its `cause`. A ValidationError this made is
 * made again naming `place` (quickstart names the bucket file of a stream);
 * any other error is returned as it is.
 *
 * @param error What reading the source threw.
 * @param path The option that gave the source (`source`, `path`).
 * @param place How the message names the source (`"data.csv"`).
 * @returns The error to throw.
 *
 * @example
 * ```ts
 * import { unreadableCsv } from "./infer.ts";
 * import { CsvError } from "../csv.ts";
 * import { ValidationError } from "../http/errors.ts";
 *
 * const parsed = new CsvError("CSV line 3: expected 2 fields like the header, found 3.", 3);
 * const e = unreadableCsv(parsed, "path", '"data.csv"');
 * if (!(e instanceof ValidationError && e.cause === parsed)) throw new Error("example failed");
 * if (e.issues[0].message !== '"data.csv" is not readable as CSV: CSV line 3: expected 2 fields like the header, found 3') throw new Error(e.message);
 * const other = new TypeError("no");
 * if (unreadableCsv(other, "path", '"data.csv"') !== other) throw new Error("example failed");
 * ```
 */
export function unreadableCsv(
  error: unknown,
  path: string,
  place: string,
): unknown {
  const cause = error instanceof ValidationError &&
      (error.cause instanceof CsvError || error.cause instanceof InflateError)
    ? error.cause
    : error;
  const missing = fileMissing(error);
  if (missing !== undefined) {
    return new ValidationError({
      message: "Invalid schema inference",
      issues: [{ path, message: `${place} ${missing}` }],
      hint:
        "Nothing was sent: a path is read from this machine's disk (over connect(), quickstart reads it here too: pass `sample`, a copy of the file on this machine)",
      cause: error,
    });
  }
  if (!(cause instanceof CsvError || cause instanceof InflateError)) {
    return error;
  }
  return new ValidationError({
    message: "Invalid schema inference",
    issues: [{
      path,
      message: `${place} is not readable as CSV: ${
        cause.message.replace(/\.$/, "")
      }`,
    }],
    hint: "Nothing was sent: fix the file and try again",
    cause,
  });
}

// What a path that cannot be opened lacks: the file (Deno's NotFound,
// Node's ENOENT), or the permission to read it (Deno without --allow-read);
// undefined for any other error. A bare NotFound left the SDK's classes.
function fileMissing(error: unknown): string | undefined {
  const refusal = permissionRefusal(error);
  if (refusal !== undefined) {
    return `may not be read by this process (${refusal}): run with --allow-read`;
  }
  const e = error as { name?: unknown; code?: unknown } | null;
  if (e && (e.name === "NotFound" || e.code === "ENOENT")) {
    return "was not found on this machine";
  }
  return undefined;
}

function isDataFrame(x: unknown): x is DataFrameLike {
  const d = x as DataFrameLike;
  return Array.isArray(d?.columns) && Array.isArray(d?.values) &&
    Array.isArray(d?.shape);
}
