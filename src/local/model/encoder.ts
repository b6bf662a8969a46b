/**
 * The fitted encoder (JSON, stored with the dataset and the model) and the
 * encoded data it gives: what training consumes and views apply again.
 *
 * @module
 */

/** Encoding of a numeric (CONTINUOUS) feature. */
export interface NumericEncoding {
  name: string;
  kind: "numeric";
  /** Training median used for missing values when `impute` is on, else null. */
  fill: number | null;
  /**
   * True when the column holds ISO dates as text (a STRING column whose every
   * present value is one): each value is read as its day number, days since
   * 1970-01-01 UTC (see `dayNumber` in cells.ts), at training and at views;
   * the features after it may be parts derived from it (dates.ts, `derived`
   * on a categorical encoding). Absent: plain numbers.
   */
  date?: true;
}

/** Encoding of a categorical feature. Codes: 0 missing, 1..m categories, m+1 other. */
export interface CategoricalEncoding {
  name: string;
  kind: "categorical";
  /** Categories with their own bin, most frequent first. */
  categories: string[];
  /** Categories seen in training but sent to "other" (too rare or beyond the cap). */
  rare: string[];
  /** Mode used for missing values when `impute` is on, else null. */
  fill: string | null;
  strip: boolean;
  /** Whether an unseen category maps to "other" (true) or is an error (false). */
  handleUnseen: boolean;
  /**
   * True when the column is a NUMBER field read as categories (a code): a
   * cell is read as the number it holds, named by that number's text
   * (`"1.0"`, `" 01"` and `1` are the category `"1"`), as ingestion stores
   * the file's cells (`categoryOfNumber` in cells.ts). Absent: text.
   */
  number?: true;
  /**
   * A part derived from a date column (dates.ts): the column it reads (its
   * `name` is `<column>:<part>`, a name no view gives) and the part, whose
   * levels are the categories. Absent: the feature is the column `name`.
   */
  derived?: { column: string; part: DatePart };
}

/** A periodic part of a date column (dates.ts): its day of the week, month or hour. */
export type DatePart = "weekday" | "month" | "hour";

/** Encoding of one feature. */
export type FeatureEncoding = NumericEncoding | CategoricalEncoding;

/**
 * The input column a feature reads: its own name, or for a part derived
 * from a date column, that column.
 *
 * @example
 * ```ts
 * import { inputOf } from "./encoder.ts";
 *
 * const weekday = { name: "d:weekday", kind: "categorical" as const, categories: [], rare: [], fill: null, strip: true, handleUnseen: true, derived: { column: "d", part: "weekday" as const } };
 * if (inputOf(weekday) !== "d" || inputOf({ name: "x", kind: "numeric", fill: null }) !== "x") throw new Error("example failed");
 * ```
 */
export function inputOf(f: FeatureEncoding): string {
  return f.kind === "categorical" && f.derived ? f.derived.column : f.name;
}

/**
 * The input columns an encoder reads, once each, in feature order: what a
 * view gives (a date column once, whatever parts the model derives from it).
 *
 * @example
 * ```ts
 * import { inputColumns } from "./encoder.ts";
 *
 * const features = [
 *   { name: "d", kind: "numeric" as const, fill: null, date: true as const },
 *   { name: "d:weekday", kind: "categorical" as const, categories: [], rare: [], fill: null, strip: true, handleUnseen: true, derived: { column: "d", part: "weekday" as const } },
 * ];
 * if (inputColumns({ features, target: { name: "y", classes: [], strip: true } }).join() !== "d") throw new Error("example failed");
 * ```
 */
export function inputColumns(encoder: Encoder): string[] {
  return [...new Set(encoder.features.map(inputOf))];
}

/** Each encoder's input columns as a set, built once (an encoder is not changed). */
const INPUT_SETS = new WeakMap<Encoder, ReadonlySet<string>>();

/**
 * {@link inputColumns} as a set, kept per encoder: the names a views query
 * may give, checked on every call.
 *
 * @example
 * ```ts
 * import { inputColumnSet } from "./encoder.ts";
 *
 * const encoder = { features: [{ name: "x", kind: "numeric" as const, fill: null }], target: { name: "y", classes: [], strip: true } };
 * if (!inputColumnSet(encoder).has("x") || inputColumnSet(encoder) !== inputColumnSet(encoder)) throw new Error("example failed");
 * ```
 */
export function inputColumnSet(encoder: Encoder): ReadonlySet<string> {
  let names = INPUT_SETS.get(encoder);
  if (!names) INPUT_SETS.set(encoder, names = new Set(inputColumns(encoder)));
  return names;
}

/**
 * The encoded target. `kind` is `"categorical"` for classification (the
 * values are `classes`) and `"numeric"` for regression (`classes` empty);
 * stored encoders without `kind` are categorical.
 */
export interface TargetEncoding {
  name: string;
  kind?: "categorical" | "numeric";
  classes: string[];
  strip: boolean;
}

/** JSON-serialisable encoder: everything needed to encode new rows identically. */
export interface Encoder {
  features: FeatureEncoding[];
  target: TargetEncoding;
  /**
   * Feature columns of the schema the model cannot use, with why (constant,
   * empty, an identifier); absent when none was dropped. Views refuse them
   * as features, saying why.
   */
  dropped?: DroppedFeature[];
}

/** A schema feature the encoder left out, and why. */
export interface DroppedFeature {
  name: string;
  reason: string;
}

/**
 * Whether an encoder (or a model's encoder) is for regression: its target is
 * numeric.
 *
 * @example
 * ```ts
 * import { isRegressionTarget } from "./encoding.ts";
 *
 * if (!(isRegressionTarget({ name: "y", kind: "numeric", classes: [], strip: true }))) throw new Error("example failed");
 * if (isRegressionTarget({ name: "y", classes: ["a", "b"], strip: true })) throw new Error("example failed");
 * ```
 */
export function isRegressionTarget(target: TargetEncoding): boolean {
  return target.kind === "numeric";
}

/** One encoded feature column: Float64Array (numeric, NaN = missing) or Uint16Array codes. */
export type EncodedColumn = Float64Array | Uint16Array;

/** The onboarded dataset the trainer consumes. */
export interface EncodedDataset {
  encoder: Encoder;
  nRows: number;
  /** One column per `encoder.features` entry, same order. */
  features: EncodedColumn[];
  /**
   * Class index per row (into `encoder.target.classes`); for regression every
   * row's label is its target decile (0..9), used only to stratify `order`.
   */
  labels: Int32Array;
  /** Regression: the target value of every row (finite numbers); null for classification. */
  values: Float64Array | null;
  /**
   * Seeded, stratified row order: every prefix holds the classes (regression:
   * the target's deciles) in about their overall proportions, so training
   * takes the first `training_size` fraction and validation the next
   * `validation_size` fraction.
   */
  order: Uint32Array;
  /**
   * The datasource row (0-based, header excluded) of every encoded row:
   * rows with an empty target are dropped, so row `i` here is `rows[i]`
   * there. Absent: the same (nothing was dropped).
   */
  rows?: Uint32Array;
  /** The seed of `order` (the onboarding options' `seed`); absent: 0. */
  seed?: number;
  /** Rows dropped because their target was empty. */
  droppedRows: number;
}

/** Rows with features encoded for prediction. */
export interface EncodedRows {
  nRows: number;
  features: EncodedColumn[];
}
