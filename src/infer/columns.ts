/**
 * Column type inference: what a column's values say about its schema
 * field, and what a human should double-check. Numbers become `NUMBER`
 * (`INT64` when every value is whole, else `FLOAT64`) and `CONTINUOUS`;
 * text becomes `STRING` / `CATEGORICAL`. A number is what ingestion reads
 * as one (`decimalNumber` in src/csv.ts: decimal and finite). Guesses that
 * are often wrong (0/1 flags, small integer codes, identifiers, mixed
 * columns, empty and constant columns, dates one cell keeps from being
 * dates, numbers too large to be finite) come with a review note; one that
 * is about a cell names it, and its line in a CSV file (else its index).
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
import { decimalNumber } from "../csv.ts";
import { isMissing } from "../frames/missing.ts";
import { dayNumber, ISO_DATE } from "../iso_dates.ts";

/** What inference found in one column. */
export interface ColumnReport {
  /** Column name. */
  name: string;
  /** The inferred type. */
  type: FieldType;
  /** Missing cells (null, undefined, NaN, empty or blank text). */
  missing: number;
  /**
   * Distinct non-missing values (of a bounded {@linkcode ColumnTally}: those
   * it kept, the exact count wherever a rule reads it).
   */
  distinct: number;
  /** Set when the guess deserves a look. */
  note?: ReviewNote;
}

/** Integers with at most this many distinct values are flagged as possible codes. */
export const LOW_CARDINALITY = 10;

/**
 * A numeric target with more distinct values than this (and not only 0 and
 * 1), or with any value that has a fraction, is predicted as a number
 * (`REGRESSION`) unless a prediction type is given; whole numbers with at
 * most this many distinct values are a set of classes.
 */
export const REGRESSION_MIN_DISTINCT = 20;

/** Options of {@linkcode inferColumn}. */
export interface InferColumnOptions {
  /** The column is a target. */
  target?: boolean;
  /**
   * For a target: `CLASSIFICATION` makes it CATEGORICAL, `REGRESSION` a
   * CONTINUOUS number; default: REGRESSION for a numeric target with more
   * than {@linkcode REGRESSION_MIN_DISTINCT} distinct values or a value
   * with a fraction.
   */
  predictionType?: "CLASSIFICATION" | "REGRESSION";
}

/**
 * A decimal number's shape. What is a number is `decimalNumber`'s to say
 * (src/csv.ts: ingestion reads cells with it); this tells a cell that only
 * overflows (`1e309`, a 400-digit integer) from other text, for its note.
 */
const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * A number written for people: a currency sign, thousands separators or a
 * percent sign ("$1,234.50", "-€12", "45%"). Only texts reach this test, so
 * a plain number never does.
 */
const FORMATTED_NUMBER =
  /^[+-]?[$€£¥]?\s?[+-]?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?\s?%?$/;

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
 * if (inferColumn("dose", ["0.5", "1.5", "2.25"], { target: true }).type.semantic_type !== "CONTINUOUS") throw new Error("fractions are amounts");
 * if (!inferColumn("plan", ["basic", "basic"]).note?.reason.startsWith("constant")) throw new Error("example failed");
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
 * work and memory proportional to the distinct cells.
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
  const tally = new ColumnTally(options);
  for (let i = 0; i < values.length; i++) {
    // Written out, a value's index is where it is; counted, it is unknown.
    if (counts === undefined) tally.add(values[i], 1, i);
    else tally.add(values[i], counts[i]);
  }
  return tally.report(name);
}

/**
 * How many distinct texts a bounded {@linkcode ColumnTally} keeps of a text
 * target: three tell a binary target from a multi-class one (monotone
 * constraints need a binary or regression target), whatever the file's size.
 */
export const TARGET_TEXTS_KEPT = 3;

/**
 * A column's values added as they come (a CSV file read piece by piece),
 * then its {@linkcode inferColumn} report: the same report as the values
 * given at once. It keeps counts, a flag for fractions and the distinct
 * values; with `bounded`, only the distinct values the rules can still
 * read: at most {@linkcode LOW_CARDINALITY} + 1 numbers of a feature (its
 * exact count matters only up to there), {@linkcode TARGET_TEXTS_KEPT}
 * texts of a text target (enough to tell two classes from more), none of a
 * column that holds both numbers and text. A numeric target (its count is
 * in the regression note) and a text feature (the identifier note) keep
 * all of theirs. `distinct` of a bounded report counts what was kept. A
 * note about a cell (a date that names no day, a number too large to be
 * finite) names the first such cell by the position `add` was given: a
 * CSV file's line with `lines`, else an index.
 *
 * @example
 * ```ts
 * import { ColumnTally, inferColumn } from "./columns.ts";
 * const tally = new ColumnTally({}, { bounded: true });
 * for (let i = 0; i < 1000; i++) tally.add(String(i % 100));
 * tally.add("", 5);
 * const report = tally.report("code");
 * report.missing; // 5
 * report.distinct; // 11: a feature's numbers are kept only up to 11
 * const cells = Array.from({ length: 1000 }, (_, i) => String(i % 100));
 * if (JSON.stringify(report.type) !== JSON.stringify(inferColumn("code", cells).type)) throw new Error();
 * ```
 *
 * @example A cell's note names its line
 * ```ts
 * import { ColumnTally } from "./columns.ts";
 * const tally = new ColumnTally({}, { lines: true });
 * ["2020-02-28", "2020-02-29", "2020-02-30"].forEach((day, i) => tally.add(day, 1, i + 2));
 * const note = tally.report("day").note;
 * if (note?.reason !== 'ISO dates, but "2020-02-30" (line 4) is not a real date') throw new Error(note?.reason);
 * ```
 */
export class ColumnTally {
  #rows = 0;
  #missing = 0;
  #numeric = 0;
  #text = 0;
  #fractional = false;
  /** The smallest number with a fraction, for the note of a target. */
  #fraction: number | undefined;
  #numbers = new Set<number>();
  #texts = new Set<string>();
  /** Every distinct text so far has an ISO date's shape. */
  #dates = true;
  /** Texts of a date's shape that name no day (`2021-02-30`), and the first. */
  #badDates = 0;
  #badDate: Cell | undefined;
  /** Cells that read as a number too large to be finite (`1e309`), and the first. */
  #infinite = 0;
  #infiniteCell: Cell | undefined;
  /**
   * Every text so far is a number written for people (see
   * `FORMATTED_NUMBER`), and the smallest of them, for the note: tested on
   * every text cell, kept or not, so the answer is the same in any order.
   */
  #formatted = true;
  #formattedExample: string | undefined;
  readonly #options: InferColumnOptions;
  /** How many distinct numbers and texts are kept (Infinity: all). */
  #keepNumbers = Infinity;
  #keepTexts = Infinity;
  readonly #bounded: boolean;
  /** What a position given to `add` is: a CSV file's line, or an index. */
  readonly #lines: boolean;

  /**
   * @param options The column's options (whether it is a target).
   * @param bounded Keep only the distinct values the rules read (see the class).
   * @param lines The positions given to `add` are a CSV file's lines (else
   *   indices of an array), as the notes name them.
   */
  constructor(
    options: InferColumnOptions = {},
    { bounded = false, lines = false }: { bounded?: boolean; lines?: boolean } =
      {},
  ) {
    this.#options = options;
    this.#bounded = bounded;
    this.#lines = lines;
    if (bounded) {
      if (!options.target) this.#keepNumbers = LOW_CARDINALITY + 1;
      else if (options.predictionType === "REGRESSION") {
        this.#keepNumbers = REGRESSION_MIN_DISTINCT + 1;
      }
      if (options.target) this.#keepTexts = TARGET_TEXTS_KEPT;
    }
  }

  /**
   * Adds `value` `times` times (a missing value: null, undefined, NaN, "").
   * `at` is where its first copy is (a line of a CSV file, or an index),
   * when known: a note about one cell names it.
   */
  add(value: unknown, times = 1, at?: number): void {
    if (times === 0) return;
    this.#rows += times;
    if (isMissing(value)) {
      this.#missing += times;
      return;
    }
    // A string is trimmed once, for the number test and as the text kept.
    const trimmed = typeof value === "string" ? value.trim() : undefined;
    // A number as ingestion reads one (decimal and finite): a cell it would
    // refuse in a NUMBER column is text here.
    const n = trimmed === undefined ? toNumber(value) : textNumber(trimmed);
    if (n === undefined) {
      this.#text += times;
      const t = trimmed ?? String(value).trim();
      if (
        trimmed === undefined ? isInfinite(value) : NUMERIC.test(trimmed)
      ) {
        this.#infinite += times;
        this.#infiniteCell = first(this.#infiniteCell, t, at);
      }
      if (this.#formatted) {
        if (!FORMATTED_NUMBER.test(t)) this.#formatted = false;
        else if (
          this.#formattedExample === undefined || t < this.#formattedExample
        ) this.#formattedExample = ownCopy(t);
      }
      if (this.#texts.size < this.#keepTexts) {
        if (!this.#texts.has(t)) {
          this.#texts.add(ownCopy(t));
          if (this.#dates) {
            if (!ISO_DATE.test(t)) this.#dates = false;
            else if (Number.isNaN(dayNumber(t))) {
              this.#badDates++;
              this.#badDate = first(this.#badDate, t, at);
            }
          }
        }
      }
    } else {
      this.#numeric += times;
      if (!Number.isInteger(n)) {
        this.#fractional = true;
        if (this.#fraction === undefined || n < this.#fraction) {
          this.#fraction = n;
        }
      }
      if (this.#numbers.size < this.#keepNumbers) this.#numbers.add(n);
    }
    if (
      this.#bounded && this.#numeric > 0 && this.#text > 0 &&
      this.#keepNumbers + this.#keepTexts > 0
    ) {
      // Numbers and text: the mixed-column note reads only the counts.
      this.#keepNumbers = this.#keepTexts = 0;
      this.#numbers = new Set();
      this.#texts = new Set();
    }
  }

  /** A cell for a note: its text quoted, and where it is when known. */
  #cell({ text, at }: Cell): string {
    const shown = JSON.stringify(
      text.length > 60 ? `${text.slice(0, 57)}...` : text,
    );
    if (at === undefined) return shown;
    return `${shown} (${this.#lines ? "line" : "index"} ${at})`;
  }

  /** The report of the values added so far. */
  report(name: string): ColumnReport {
    const options = this.#options;
    const missing = this.#missing;
    const numeric = this.#numeric;
    const text = this.#text;
    const size = this.#numbers.size + this.#texts.size;
    // The one value of a column that holds one (numbers or texts, not both).
    const only = size !== 1 || (numeric > 0 && text > 0)
      ? undefined
      : this.#numbers.size
      ? String([...this.#numbers][0])
      : JSON.stringify([...this.#texts][0]);
    const report = (type: FieldType, note?: Omit<ReviewNote, "field">) => {
      note = this.#oneValue(name, type, only) ?? note;
      return {
        name,
        type,
        missing,
        distinct: size,
        note: note && { field: name, ...note },
      };
    };
    const present = this.#rows - missing;

    if (present === 0) {
      return report(category(), {
        reason: "every value is missing",
        suggestion: `.drop("${name}"), it carries no information`,
      });
    }
    if (text > 0) {
      if (this.#infiniteCell !== undefined) {
        // Ingestion refuses such a cell in a NUMBER column: text, and said.
        const cell = this.#cell(this.#infiniteCell);
        const more = this.#infinite > 1
          ? ` (and ${this.#infinite - 1} more such cells)`
          : "";
        return report(category(), {
          reason: `${
            numeric > 0 ? `${numeric} numbers and ${text} text values: ` : ""
          }${cell} is not a finite number (too large, it reads as Infinity)${more}`,
          suggestion:
            `kept as text, as a NUMBER column holding it would not ingest; write a finite number in that cell, or leave it empty (missing), then .retype("${name}", ml.float())`,
        });
      }
      if (this.#formatted && !options.target) {
        return report(category(), {
          reason:
            `numbers written as text (such as "${this.#formattedExample}")`,
          suggestion:
            `kept as text, one category a value; to use it as a number, remove the currency signs, thousands separators and percent signs in the file, then .retype("${name}", ml.float())`,
        });
      }
      if (numeric > 0) {
        return report(category(), {
          reason: `${numeric} numbers and ${text} text values`,
          suggestion:
            `check the data; if the text marks missing values, clean it and use .retype("${name}", ml.float())`,
        });
      }
      if (!options.target && this.#dates && this.#badDate !== undefined) {
        // The model reads a column as dates only when every cell is a day
        // (`datesOf` in src/local/model/cells.ts): one that is none makes
        // it text, a category a date (an identifier when each row differs).
        const cell = this.#cell(this.#badDate);
        return report(category(), {
          reason: this.#badDates === 1
            ? `ISO dates, but ${cell} is not a real date`
            : `ISO dates, but ${cell} and ${
              this.#badDates - 1
            } more values are not real dates`,
          suggestion:
            `the model reads "${name}" as dates only when every value is one: as it is, each date is a category of its own (and the column is dropped as an identifier when every row differs); fix or empty (missing) that cell in the file, and the model reads each date as its day number`,
        });
      }
      if (!options.target && this.#dates) {
        // Not an identifier: the local model reads ISO dates as day numbers
        // (`dayNumber` in src/iso_dates.ts).
        return report(category(), {
          reason: "ISO dates",
          suggestion:
            `kept as text: the model reads each date as its day number (days since 1970-01-01 UTC)`,
        });
      }
      if (!options.target && size > 50 && size > 0.5 * present) {
        return report(category(), {
          reason: `${size} distinct text values in ${present} rows`,
          suggestion:
            `looks like an identifier or free text: .drop("${name}") unless it matters`,
        });
      }
      return report(category());
    }
    // Every present value is a number.
    const numbers = this.#numbers;
    const fractional = this.#fractional;
    const flag = numbers.size <= 2 &&
      [...numbers].every((v) => v === 0 || v === 1);
    if (options.target) {
      const format = fractional ? "FLOAT64" : "INT64";
      const many = size > REGRESSION_MIN_DISTINCT;
      const guessed = options.predictionType === undefined;
      // Values with fractions (0.5, 2.25) are amounts, not class labels:
      // a number whatever their count.
      if (
        options.predictionType === "REGRESSION" ||
        (guessed && (many || fractional) && !flag)
      ) {
        return report(
          number({ format }),
          !guessed ? undefined : many
            ? {
              reason:
                `${size} distinct numbers: predicted as a number (REGRESSION)`,
              suggestion:
                'to predict classes instead, pass predictionType: "CLASSIFICATION"',
            }
            : {
              reason:
                `${size} distinct numbers with fractions (such as ${this.#fraction}): predicted as a number (REGRESSION)`,
              suggestion:
                'to predict each value as a class instead, pass predictionType: "CLASSIFICATION"',
            },
        );
      }
      return report(
        number({ format, categorical: true }),
        many
          ? {
            reason: `${size} distinct numbers in a classification target`,
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
    if (size <= LOW_CARDINALITY) {
      return report(integer(), {
        reason: `only ${size} distinct integers`,
        suggestion:
          `if these are codes rather than amounts, .retype("${name}", ml.flag())`,
      });
    }
    return report(integer());
  }

  /**
   * The note of a column holding one value (`only`), which any other note
   * would misdescribe: a feature with no missing cell is constant, and the
   * model leaves it out (`numericUnusable` and `categoryUnusable` in
   * src/local/model/cells.ts, which record the same reason); a class
   * target with one class is refused by training. Undefined otherwise.
   */
  #oneValue(
    name: string,
    type: FieldType,
    only: string | undefined,
  ): Omit<ReviewNote, "field"> | undefined {
    if (only === undefined) return undefined;
    if (!this.#options.target) {
      if (this.#missing > 0) return undefined;
      return {
        reason: `constant: every row has the same value (${only})`,
        suggestion:
          `the model will not use it (a trained model lists it among its dropped features); .drop("${name}") leaves it out`,
      };
    }
    if (type.semantic_type !== "CATEGORICAL") return undefined;
    return {
      reason: `one class only: every row with a value has ${only}`,
      suggestion:
        `classification needs at least two classes, and training refuses this target: check the data, or predict another column`,
    };
  }
}

/** A cell a note names: its text, and where it is when known. */
interface Cell {
  text: string;
  at: number | undefined;
}

/** Of `kept` and the cell `text` at `at`, the one first in the data. */
function first(kept: Cell | undefined, text: string, at?: number): Cell {
  if (kept !== undefined) {
    const [a, b] = [kept.at ?? Infinity, at ?? Infinity];
    if (a < b || (a === b && kept.text <= text)) return kept;
  }
  return { text: ownCopy(text), at };
}

/**
 * `text` in a string of its own: a short piece cut from a long text (a CSV
 * piece) can be a view that keeps the whole long text alive; a value kept
 * for long (a distinct value) must not.
 *
 * @example
 * ```ts
 * import { ownCopy } from "./columns.ts";
 * const long = "x".repeat(100_000) + "Month-to-month";
 * if (ownCopy(long.slice(100_000)) !== "Month-to-month") throw new Error();
 * ```
 */
export function ownCopy(text: string): string {
  // V8 cuts views of 13 characters or more; " " + text is flattened into a
  // new string before the cut.
  return text.length < 13 ? text : (" " + text).slice(1);
}

/** The number a value that is no string is, else undefined (text). */
function toNumber(value: unknown): number | undefined {
  if (typeof value === "number") {
    return Number.isFinite(value) ? value : undefined;
  }
  if (typeof value === "bigint") {
    const n = Number(value);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/** The number a (trimmed) text is, as ingestion reads it, else undefined. */
function textNumber(text: string): number | undefined {
  const n = decimalNumber(text);
  return Number.isNaN(n) ? undefined : n;
}

/** A number or bigint too large to be finite (Infinity, 10n ** 400n). */
function isInfinite(value: unknown): boolean {
  return (typeof value === "number" || typeof value === "bigint") &&
    !Number.isFinite(Number(value));
}
