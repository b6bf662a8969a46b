/**
 * Reading cells the way the encoder does: a category (stripped, or missing),
 * a number, whole columns of either from raw values or a typed datasource,
 * and the code of a category under a fitted encoding. Training and views
 * share them, so a value is read the same way at both times.
 *
 * @module
 */

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
    const t = v.trim();
    if (t === "") return NaN;
    const x = Number(t);
    if (Number.isFinite(x)) return x;
  }
  throw new Err(
    column,
    "BAD_NUMBER",
    `column '${column}' row ${row}: ${
      JSON.stringify(v) ?? String(v)
    } is not a number; give a finite number, or null/empty for missing (or declare the column STRING/CATEGORICAL).`,
  );
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
 * {@link categoryOf} does.
 */
export function categoryValues(
  column: RawOrTyped,
  name: string,
  strip: boolean,
  keep: Uint32Array | null,
): { codes: Uint32Array; dictionary: (string | null)[] } {
  const n = keep ? keep.length : lengthOfColumn(column);
  const row = (i: number) => keep ? keep[i] : i;
  const codes = new Uint32Array(n);
  if (isTypedColumn(column) && column.kind === "string") {
    const c = column;
    const dictionary: (string | null)[] = [null];
    for (const v of c.dictionary) {
      dictionary.push(categoryOf(v, strip, name, 0, ModelDataError));
    }
    for (let i = 0; i < n; i++) codes[i] = c.codes[row(i)];
    return { codes, dictionary };
  }
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
      dictionary.push(categoryOf(v, strip, name, r, ModelDataError));
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
