/**
 * Reading cells the way the encoder does: a category (stripped, or missing),
 * a number, whole columns of either from raw values or a typed datasource,
 * and the code of a category under a fitted encoding. Training and views
 * share them, so a value is read the same way at both times.
 *
 * @module
 */

import { decimalNumber } from "../../csv.ts";
import { dayNumber } from "../../iso_dates.ts";
import type { DatasourceColumn } from "./datasource.ts";
import type { CategoricalEncoding } from "./encoder.ts";
import { ModelDataError, type ModelInputError } from "./errors.ts";
import type { RawValue } from "./columns.ts";

export type ErrorKind = typeof ModelDataError | typeof ModelInputError;

/** Category string of a raw cell, or null when missing. */
export function categoryOf(
  v: unknown,
  strip: boolean,
  column: string,
  row: number,
  Err: ErrorKind,
): string | null {
  if (v === null || v === undefined) return null;
  let s: string;
  if (typeof v === "string") s = v;
  else if (typeof v === "number" && Number.isFinite(v)) s = String(v);
  else {
    throw new Err(
      column,
      "BAD_TYPE",
      `column '${column}' row ${row}: expected a category (string) or null, got ${
        JSON.stringify(v) ?? String(v)
      }.`,
    );
  }
  if (strip) s = s.trim();
  return s === "" ? null : s;
}

/**
 * Category string of a raw cell of a NUMBER column read as categories (a
 * code), or null when missing: the text of the number it holds, so that
 * `"1.0"`, `" 01 "`, `"1e0"` and `1` are the one category `"1"`, as
 * ingestion reads the file's cell (a number) and training names it.
 *
 * @throws {ModelDataError | ModelInputError} `BAD_NUMBER` naming the column
 *   and the row, as {@link numberOf}, when the cell holds no number.
 *
 * @example
 * ```ts
 * import { categoryOfNumber } from "./cells.ts";
 * import { ModelInputError } from "./errors.ts";
 *
 * const of = (v: unknown) => categoryOfNumber(v, "code", 0, ModelInputError);
 * if (!(of("1.0") === "1" && of(" 01 ") === "1" && of(2) === "2" && of("-0") === "0")) throw new Error("example failed");
 * if (!(of("") === null && of(null) === null)) throw new Error("example failed");
 * let refused = false;
 * try { of("one"); } catch (e) { refused = e instanceof ModelInputError && e.column === "code"; }
 * if (!refused) throw new Error("example failed");
 * ```
 */
export function categoryOfNumber(
  v: unknown,
  column: string,
  row: number,
  Err: ErrorKind,
): string | null {
  const x = numberOf(v, column, row, Err);
  return Number.isNaN(x) ? null : String(x);
}

/** Number of a raw cell (NaN when missing). */
export function numberOf(
  v: unknown,
  column: string,
  row: number,
  Err: ErrorKind,
): number {
  if (v === null || v === undefined) return NaN;
  if (typeof v === "number") {
    if (Number.isFinite(v)) return v;
  } else if (typeof v === "string") {
    if (v.trim() === "") return NaN;
    // Decimal only: Number() would read "0x10" as 16 (see decimalNumber).
    const x = decimalNumber(v);
    if (!Number.isNaN(x)) return x;
  }
  throw new Err(
    column,
    "BAD_NUMBER",
    `column '${column}' row ${row}: ${
      JSON.stringify(v) ?? String(v)
    } is not a number; give a finite number, or null/empty for missing (or declare the column STRING/CATEGORICAL).`,
  );
}

// The day number of an ISO date text: in `src/iso_dates.ts`, a leaf, so
// schema inference reads dates as the model does.
export { dayNumber };

/**
 * The day number ({@link dayNumber}) of a raw cell of a date feature: NaN
 * when missing.
 *
 * @throws {ModelDataError | ModelInputError} Naming the column and the row
 *   when the cell is not an ISO date text.
 */
export function dateOf(
  v: unknown,
  column: string,
  row: number,
  Err: ErrorKind,
): number {
  if (v === null || v === undefined) return NaN;
  if (typeof v === "string") {
    if (v.trim() === "") return NaN;
    const x = dayNumber(v);
    if (!Number.isNaN(x)) return x;
  }
  throw new Err(
    column,
    "BAD_TYPE",
    `column '${column}' row ${row}: ${
      JSON.stringify(v) ?? String(v)
    } is not a date; the model read this column as ISO dates (e.g. "2016-08-28"), give one per row, or null/empty for missing.`,
  );
}

/**
 * The day number ({@link dayNumber}) of every entry of a column's dictionary
 * of distinct texts (NaN for null, missing), when every entry some row uses
 * (`uses[k] > 0`) is an ISO date or missing and at least one is a date;
 * otherwise null (the column is not a date column).
 *
 * @example
 * ```ts
 * import { datesOf } from "./cells.ts";
 *
 * const days = datesOf([null, "1970-01-03", "1970-01-01"], [1, 2, 1]);
 * if (!(days && Number.isNaN(days[0]) && days[1] === 2 && days[2] === 0)) throw new Error("example failed");
 * if (datesOf([null, "1970-01-03", "soon"], [0, 1, 1]) !== null || datesOf([null], [3]) !== null) throw new Error("example failed");
 * ```
 */
export function datesOf(
  dictionary: ReadonlyArray<string | null>,
  uses: ArrayLike<number>,
): Float64Array | null {
  const days = new Float64Array(dictionary.length).fill(NaN);
  let dates = 0;
  for (let k = 0; k < dictionary.length; k++) {
    const text = dictionary[k];
    if (text === null || !(uses[k] > 0)) continue;
    days[k] = dayNumber(text);
    if (Number.isNaN(days[k])) return null;
    dates++;
  }
  return dates > 0 ? days : null;
}

/** A column as the encoder gets it: raw values, or a typed datasource column. */
export type RawOrTyped = ReadonlyArray<RawValue> | DatasourceColumn;

/** Whether a column is a typed datasource column (not raw values). */
export function isTypedColumn(column: RawOrTyped): column is DatasourceColumn {
  return !Array.isArray(column);
}

/**
 * The numbers of a column at rows `keep` (all rows when null), NaN for
 * missing; raw values are checked as {@link numberOf} does (errors name the
 * column and the row).
 */
export function numericValues(
  column: RawOrTyped,
  name: string,
  keep: Uint32Array | null,
): Float64Array {
  const n = keep ? keep.length : lengthOfColumn(column);
  const row = (i: number) => keep ? keep[i] : i;
  const out = new Float64Array(n);
  if (!isTypedColumn(column)) {
    for (let i = 0; i < n; i++) {
      out[i] = numberOf(column[row(i)], name, row(i), ModelDataError);
    }
    return out;
  }
  const c = column;
  if (c.kind === "number") {
    for (let i = 0; i < n; i++) out[i] = c.values[row(i)];
    return out;
  }
  // Strings declared NUMBER here (a schema that changed): convert each once.
  const asNumber = c.dictionary.map((v, k) =>
    numberOf(v, name, c.codes.indexOf(k + 1), ModelDataError)
  );
  for (let i = 0; i < n; i++) {
    const k = c.codes[row(i)];
    out[i] = k === 0 ? NaN : asNumber[k - 1];
  }
  return out;
}

/**
 * The categories of a column at rows `keep` (all when null), dictionary
 * coded: `codes[i]` indexes `dictionary`, whose entries are the (stripped)
 * category strings, or null for missing. Raw cells are checked as
 * {@link categoryOf} does, or with `number` (a NUMBER column read as
 * categories) read as {@link categoryOfNumber} does. A typed column's every
 * row (`keep` null) gives the column's own codes, not a copy: the caller
 * only reads them.
 */
export function categoryValues(
  column: RawOrTyped,
  name: string,
  strip: boolean,
  keep: Uint32Array | null,
  number = false,
): { codes: Uint32Array; dictionary: (string | null)[] } {
  const n = keep ? keep.length : lengthOfColumn(column);
  const row = (i: number) => keep ? keep[i] : i;
  const category = (v: unknown, r: number) =>
    number
      ? categoryOfNumber(v, name, r, ModelDataError)
      : categoryOf(v, strip, name, r, ModelDataError);
  if (isTypedColumn(column) && column.kind === "string") {
    const c = column;
    const dictionary: (string | null)[] = [null];
    for (const v of c.dictionary) dictionary.push(category(v, 0));
    // Every row: the column's own codes (read, never written), no copy.
    if (!keep) return { codes: c.codes, dictionary };
    const codes = new Uint32Array(n);
    for (let i = 0; i < n; i++) codes[i] = c.codes[row(i)];
    return { codes, dictionary };
  }
  const codes = new Uint32Array(n);
  // Raw cells or numbers: one dictionary entry per distinct value.
  const dictionary: (string | null)[] = [null];
  const index = new Map<unknown, number>();
  const values = isTypedColumn(column) && column.kind === "number"
    ? column.values
    : null;
  const cell = (r: number): unknown => {
    if (!values) return isTypedColumn(column) ? null : column[r];
    const x = values[r];
    return Number.isNaN(x) ? null : x;
  };
  for (let i = 0; i < n; i++) {
    const r = row(i);
    const v = cell(r);
    let k = index.get(v);
    if (k === undefined) {
      dictionary.push(category(v, r));
      index.set(v, k = dictionary.length - 1);
    }
    codes[i] = k;
  }
  return { codes, dictionary };
}

export function lengthOfColumn(column: RawOrTyped): number {
  if (!isTypedColumn(column)) return column.length;
  return column.kind === "number" ? column.values.length : column.codes.length;
}

/** A coder per encoding: serving codes every views call's rows with one. */
const coders = new WeakMap<
  CategoricalEncoding,
  (c: string | null, row: number, Err: ErrorKind) => number
>();

/**
 * Returns a function mapping a (stripped) category to its code under `enc`,
 * built once per encoding (an encoding does not change after training:
 * rebuilding the map of every category on each one-row views call was 14%
 * of the views server's busy time).
 */
export function categoryCoder(
  enc: CategoricalEncoding,
): (c: string | null, row: number, Err: ErrorKind) => number {
  let coder = coders.get(enc);
  if (!coder) coders.set(enc, coder = buildCoder(enc));
  return coder;
}

function buildCoder(
  enc: CategoricalEncoding,
): (c: string | null, row: number, Err: ErrorKind) => number {
  const codes = new Map<string, number>();
  enc.categories.forEach((c, i) => codes.set(c, i + 1));
  const other = enc.categories.length + 1;
  for (const c of enc.rare) codes.set(c, other);
  const fillCode = enc.fill === null ? 0 : codes.get(enc.fill) ?? other;
  return (c, row, Err) => {
    if (c === null) return fillCode;
    const k = codes.get(c);
    if (k !== undefined) return k;
    if (enc.handleUnseen) return other;
    throw new Err(
      enc.name,
      "UNSEEN_CATEGORY",
      `column '${enc.name}' row ${row}: category '${c}' was not seen in training; use one of ${
        JSON.stringify(enc.categories.slice(0, 10))
      }${
        enc.categories.length > 10 ? " ..." : ""
      } (or onboard with handle_unseen_categories).`,
    );
  };
}

/**
 * Fewest rows with a value at which a categorical column whose every value
 * is different counts as an identifier: below it, a small table's distinct
 * categories may still be real ones.
 */
export const ID_ROWS = 20;

/**
 * Why a numeric column cannot be used (no value, or the same value on every
 * row: a missing value on some rows is information), or null.
 *
 * @example
 * ```ts
 * import { numericUnusable } from "./cells.ts";
 * if (numericUnusable(Float64Array.of(1, 1)) === null || numericUnusable(Float64Array.of(1, NaN)) !== null) throw new Error("example failed");
 * ```
 */
export function numericUnusable(x: Float64Array): string | null {
  let first = NaN, missing = false;
  for (const v of x) {
    if (Number.isNaN(v)) missing = true;
    else if (Number.isNaN(first)) first = v;
    else if (v !== first) return null;
  }
  if (Number.isNaN(first)) return "empty: no row has a value";
  return missing ? null : "constant: every row has the same value";
}

/**
 * Why a categorical column (its rows per category over `n` rows) cannot be
 * used: no value, one category on every row, or a different value on every
 * row (an identifier: no category would ever be seen again); or null.
 *
 * @example
 * ```ts
 * import { categoryUnusable } from "./cells.ts";
 * if (categoryUnusable(new Map([["a", 2], ["b", 1]]), 3) !== null || categoryUnusable(new Map(), 3) === null) throw new Error("example failed");
 * ```
 */
export function categoryUnusable(
  counts: ReadonlyMap<string, number>,
  n: number,
): string | null {
  if (counts.size === 0) return "empty: no row has a value";
  let valued = 0;
  for (const k of counts.values()) valued += k;
  // One category and no missing value: nothing tells rows apart.
  if (counts.size === 1 && valued === n) {
    return "constant: every row has the same value";
  }
  if (valued >= ID_ROWS && counts.size === valued && valued === n) {
    return "an identifier: every row has a different value";
  }
  return null;
}
