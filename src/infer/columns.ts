/**
 * Column type inference: what a column's values say about its schema
 * field, and what a human should double-check. Numbers become `NUMBER`
 * (`INT64` when every value is whole, else `FLOAT64`) and `CONTINUOUS`;
 * text becomes `STRING` / `CATEGORICAL`. Guesses that are often wrong
 * (0/1 flags, small integer codes, identifiers, mixed columns, empty
 * columns) come with a review note.
 *
 * @module
 */
import {
  category,
  type FieldType,
  float,
  integer,
  number,
} from "../builders/fields.ts";
import type { ReviewNote } from "../builders/schema.ts";
import { isMissing } from "../frames/missing.ts";

/** What inference found in one column. */
export interface ColumnReport {
  /** Column name. */
  name: string;
  /** The inferred type. */
  type: FieldType;
  /** Missing cells (null, undefined, NaN, empty or blank text). */
  missing: number;
  /** Distinct non-missing values. */
  distinct: number;
  /** Set when the guess deserves a look. */
  note?: ReviewNote;
}

/** Integers with at most this many distinct values are flagged as possible codes. */
export const LOW_CARDINALITY = 10;

/**
 * A numeric target with more distinct values than this (and not only 0 and
 * 1) is predicted as a number (`REGRESSION`) unless a prediction type is
 * given; with at most this many it is a set of classes.
 */
export const REGRESSION_MIN_DISTINCT = 20;

/** Options of {@linkcode inferColumn}. */
export interface InferColumnOptions {
  /** The column is a target. */
  target?: boolean;
  /**
   * For a target: `CLASSIFICATION` makes it CATEGORICAL, `REGRESSION` a
   * CONTINUOUS number; default: REGRESSION for a numeric target with more
   * than {@linkcode REGRESSION_MIN_DISTINCT} distinct values.
   */
  predictionType?: "CLASSIFICATION" | "REGRESSION";
}

const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** An ISO 8601 date or date-time text (the model checks the calendar too). */
const ISO_DATE =
  /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * Infers one column's type from its values (strings from a CSV, or typed
 * values from rows and DataFrames).
 *
 * @example
 * ```ts
 * import { inferColumn } from "./columns.ts";
 * inferColumn("tenure", ["1", "34", "2"]).type.data_type.format; // "INT64"
 * inferColumn("charges", [29.85, 56.95, null]).type.data_type.format; // "FLOAT64"
 * inferColumn("contract", ["One year", "Month-to-month"]).type.semantic_type; // "CATEGORICAL"
 * inferColumn("senior", [0, 1, 0, 1]).note?.reason; // "only the values 0 and 1"
 * if (inferColumn("day", ["2016-08-28", "2016-08-29"]).note?.reason !== "ISO dates") throw new Error("example failed");
 * const strength = Array.from({ length: 30 }, (_, i) => String(10 + i * 1.5));
 * inferColumn("strength", strength, { target: true }).type.semantic_type; // "CONTINUOUS": a regression target
 * inferColumn("rating", ["1", "2", "3"], { target: true }).type.semantic_type; // "CATEGORICAL": classes
 * ```
 */
export function inferColumn(
  name: string,
  values: ArrayLike<unknown>,
  options: InferColumnOptions = {},
): ColumnReport {
  return inferCountedColumn(name, values, undefined, options);
}

/**
 * {@linkcode inferColumn} of a column given as its distinct cells and how
 * often each occurs (`counts[i]` copies of `values[i]`; every count 1 when
 * `counts` is undefined): the same report as the column written out, with
 * work and memory proportional to the distinct cells. A CSV column read as
 * dictionary codes is inferred this way, so a 1,000,000-row file never
 * becomes a million-element array per column.
 *
 * @example
 * ```ts
 * import { inferColumn, inferCountedColumn } from "./columns.ts";
 * const counted = inferCountedColumn("tenure", ["", "1", "34"], [2, 3, 1]);
 * const written = inferColumn("tenure", ["", "1", "1", "", "34", "1"]);
 * if (JSON.stringify(counted) !== JSON.stringify(written)) throw new Error();
 * counted.missing; // 2
 * ```
 */
export function inferCountedColumn(
  name: string,
  values: ArrayLike<unknown>,
  counts: ArrayLike<number> | undefined,
  options: InferColumnOptions = {},
): ColumnReport {
  let missing = 0;
  let numeric = 0;
  let text = 0;
  let rows = 0;
  let fractional = false;
  const distinct = new Set<string | number>();
  for (let i = 0; i < values.length; i++) {
    const times = counts === undefined ? 1 : counts[i];
    if (times === 0) continue;
    rows += times;
    const value = values[i];
    if (isMissing(value)) {
      missing += times;
      continue;
    }
    const n = toNumber(value);
    if (n === undefined) {
      text += times;
      distinct.add(String(value).trim());
    } else {
      numeric += times;
      if (!Number.isInteger(n)) fractional = true;
      distinct.add(n);
    }
  }
  const report = (type: FieldType, note?: Omit<ReviewNote, "field">) => ({
    name,
    type,
    missing,
    distinct: distinct.size,
    note: note && { field: name, ...note },
  });
  const present = rows - missing;

  if (present === 0) {
    return report(category(), {
      reason: "every value is missing",
      suggestion: `.drop("${name}"), it carries no information`,
    });
  }
  if (text > 0) {
    if (numeric > 0) {
      return report(category(), {
        reason: `${numeric} numbers and ${text} text values`,
        suggestion:
          `check the data; if the text marks missing values, clean it and use .retype("${name}", ml.float())`,
      });
    }
    if (
      !options.target && [...distinct].every((v) => ISO_DATE.test(String(v)))
    ) {
      // Not an identifier: the local model reads ISO dates as day numbers
      // (`dayNumber` in src/local/model/cells.ts).
      return report(category(), {
        reason: "ISO dates",
        suggestion:
          `kept as text: the model reads each date as its day number (days since 1970-01-01 UTC)`,
      });
    }
    if (
      !options.target && distinct.size > 50 && distinct.size > 0.5 * present
    ) {
      return report(category(), {
        reason: `${distinct.size} distinct text values in ${present} rows`,
        suggestion:
          `looks like an identifier or free text: .drop("${name}") unless it matters`,
      });
    }
    return report(category());
  }
  // Every present value is a number.
  const flag = distinct.size <= 2 &&
    [...distinct].every((v) => v === 0 || v === 1);
  if (options.target) {
    const format = fractional ? "FLOAT64" : "INT64";
    const many = distinct.size > REGRESSION_MIN_DISTINCT;
    if (
      options.predictionType === "REGRESSION" ||
      (options.predictionType === undefined && many && !flag)
    ) {
      return report(
        number({ format }),
        options.predictionType === undefined
          ? {
            reason:
              `${distinct.size} distinct numbers: predicted as a number (REGRESSION)`,
            suggestion:
              'to predict classes instead, pass predictionType: "CLASSIFICATION"',
          }
          : undefined,
      );
    }
    return report(
      number({ format, categorical: true }),
      many
        ? {
          reason:
            `${distinct.size} distinct numbers in a classification target`,
          suggestion:
            'classification needs a few classes: bin the target first, or predict it as a number with predictionType: "REGRESSION"',
        }
        : undefined,
    );
  }
  if (fractional) return report(float());
  if (flag) {
    return report(integer(), {
      reason: "only the values 0 and 1",
      suggestion:
        `a yes/no flag: fine as a number; .retype("${name}", ml.flag()) reads it as a category`,
    });
  }
  if (distinct.size <= LOW_CARDINALITY) {
    return report(integer(), {
      reason: `only ${distinct.size} distinct integers`,
      suggestion:
        `if these are codes rather than amounts, .retype("${name}", ml.flag())`,
    });
  }
  return report(integer());
}

function toNumber(value: unknown): number | undefined {
  if (typeof value === "number") {
    return Number.isFinite(value) ? value : undefined;
  }
  if (typeof value === "bigint") return Number(value);
  if (typeof value === "string") {
    const t = value.trim();
    return NUMERIC.test(t) ? Number(t) : undefined;
  }
  return undefined;
}
