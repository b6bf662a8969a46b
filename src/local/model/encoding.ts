/**
 * The onboarding step: turns a datasource (columns of raw values) into an
 * {@link Encoder} and an {@link EncodedDataset} the trainer can work on, and
 * applies the same encoding to new rows at views time ({@link encodeRows}).
 *
 * How the onboarding options act on this binned additive model:
 *
 * - `targets`: the one target column to predict (the local model trains one
 *   target per model). Rows whose target is empty are dropped (counted in
 *   `droppedRows`). Empty `targets` falls back to the schema's TARGET field.
 * - `prediction_type`: `CLASSIFICATION` (default: the target's values are
 *   classes) or `REGRESSION` (the target must be a NUMBER field; its values
 *   are kept as numbers in {@link EncodedDataset.values}, `target.kind` is
 *   `"numeric"` and `classes` is empty). Anything else is a data error.
 * - `strip_categories` (default true): trims leading/trailing whitespace of
 *   category values (and of target classes) before counting and at views time,
 *   so `" Yes"` and `"Yes"` are one category. A value that strips to `""` is missing.
 * - `one_hot_encoding_max_categories` (default 4096, at most
 *   {@link MAX_CATEGORIES}): a categorical feature keeps at most this many
 *   most-frequent categories as their own bins.
 * - `infrequency_threshold` (default 0): a category seen in fewer than this
 *   fraction of rows does not get its own bin either. Categories cut by either
 *   rule share one "other" bin (recorded in `rare`, so they still map to "other").
 *   The defaults keep every level; training shrinks rare ones (levels.ts).
 * - `impute` (default false): missing numbers become the training median and
 *   missing categories the most frequent category. Without it, missing values get
 *   their own "missing" bin (bin 0), whose score the model learns like any other.
 * - `handle_unseen_categories` (default true): at views time a category never
 *   seen in training falls into the "other" bin; when false, such a value is a
 *   {@link ModelInputError} naming the column and the value.
 *
 * Numeric binning (`bins`, `binning_strategy`) belongs to training, because those
 * are training-configuration hyperparameters; numeric features therefore stay
 * as `Float64Array` values here (NaN = missing). Categorical features are coded
 * as `Uint16Array`: 0 = missing, 1..m = `categories[i-1]`, m+1 = other.
 *
 * @example
 * ```ts
 * import { encodeDataset, encodeRows } from "./encoding.ts";
 *
 * const { encoder, labels } = encodeDataset(
 *   { x: [1, 2, 3, 4], c: ["a", "b", "a", null], y: ["n", "y", "n", "y"] },
 *   [
 *     { name: "x", data_type: { data_type: "NUMBER", format: "INT64" }, designation: "FEATURE", semantic_type: "CONTINUOUS" },
 *     { name: "c", data_type: { data_type: "STRING", format: null }, designation: "FEATURE", semantic_type: "CATEGORICAL" },
 *     { name: "y", data_type: { data_type: "STRING", format: null }, designation: "TARGET", semantic_type: "CATEGORICAL" },
 *   ],
 *   { targets: ["y"] },
 * );
 * if (!(encoder.target.classes.join() === "n,y" && labels[1] === 1)) throw new Error("example failed");
 * const rows = encodeRows(encoder, { x: [2.5], c: ["b"] });
 * if (!(rows.features[1][0] === 2)) throw new Error("example failed"); // "a" is category 1, "b" is 2
 * ```
 *
 * @module
 */

import type { z } from "zod";
import { OnboardingConfigurationCreateSchema } from "../../schemas/onboarding.ts";
import {
  categoryCoder,
  categoryUnusable,
  categoryValues,
  datesOf,
  isTypedColumn,
  lengthOfColumn,
  numericUnusable,
  numericValues,
  type RawOrTyped,
} from "./cells.ts";
import type { RawColumns, SchemaField } from "./columns.ts";
import { deriveDateParts } from "./dates.ts";
import { type Datasource, isDatasource } from "./datasource.ts";
import type {
  CategoricalEncoding,
  DroppedFeature,
  EncodedColumn,
  EncodedDataset,
  FeatureEncoding,
  NumericEncoding,
} from "./encoder.ts";
import { ModelDataError } from "./errors.ts";
import { createRng, shuffle } from "./rng.ts";
import { checkTargetRange } from "./target_range.ts";

export type { RawColumns, RawValue, SchemaField } from "./columns.ts";
export {
  type CategoricalEncoding,
  type DatePart,
  type DroppedFeature,
  type EncodedColumn,
  type EncodedDataset,
  type EncodedRows,
  type Encoder,
  type FeatureEncoding,
  inputColumns,
  inputOf,
  isRegressionTarget,
  type NumericEncoding,
  type TargetEncoding,
} from "./encoder.ts";
export { encodeRows } from "./encode_rows.ts";

/**
 * The onboarding configuration fields the encoder uses, as the wire schema
 * types them, plus the seed of the stratified row order (our extension,
 * docs/contract.md#model-validation-rows).
 */
export type OnboardingOptions =
  & Partial<
    Pick<
      z.output<typeof OnboardingConfigurationCreateSchema>,
      | "targets"
      | "one_hot_encoding_max_categories"
      | "infrequency_threshold"
      | "strip_categories"
      | "handle_unseen_categories"
      | "impute"
    >
  >
  & {
    /** Any stored value is accepted here; the encoder refuses what it can't do. */
    prediction_type?: string;
    /** Seed of the stratified row order. */
    seed?: number;
  };

// The defaults are the create schema's, so a configuration made through the
// API and the encoder called directly encode the same way.
const schemaDefaults = OnboardingConfigurationCreateSchema.parse({
  name: "defaults",
  targets: ["target"],
});

/** Documented defaults of {@link OnboardingOptions} (the create schema's). */
export const ONBOARDING_DEFAULTS: Readonly<
  Required<Omit<OnboardingOptions, "targets">>
> = {
  prediction_type: schemaDefaults.prediction_type,
  one_hot_encoding_max_categories:
    schemaDefaults.one_hot_encoding_max_categories,
  infrequency_threshold: schemaDefaults.infrequency_threshold,
  strip_categories: schemaDefaults.strip_categories,
  handle_unseen_categories: schemaDefaults.handle_unseen_categories,
  impute: schemaDefaults.impute,
  seed: 0,
};

/** Most categories a feature keeps (16-bit codes, 0 and m + 1 taken). */
export const MAX_CATEGORIES = 65_534;

function isCategorical(f: SchemaField): boolean {
  if (f.semantic_type === "CATEGORICAL") return true;
  if (f.semantic_type === "CONTINUOUS") {
    if (f.data_type.data_type !== "NUMBER") {
      throw new ModelDataError(
        f.name,
        "STRING_CONTINUOUS",
        `column '${f.name}' is ${f.data_type.data_type} but CONTINUOUS; declare it NUMBER, or CATEGORICAL.`,
      );
    }
    return false;
  }
  // Unknown semantic types are tolerated: strings are categories, numbers are continuous.
  return f.data_type.data_type !== "NUMBER";
}

function median(xs: Float64Array): number | null {
  const v = xs.filter((x) => !Number.isNaN(x)).sort();
  if (v.length === 0) return null;
  const m = v.length >> 1;
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

/**
 * Builds the encoder from a datasource and encodes it for training.
 *
 * @param columns The datasource: one array of raw values per column (all
 *   the same length), or a typed {@link Datasource} as ingestion stores it.
 * @param fields The data schema fields.
 * @param options The onboarding configuration (see the module doc for each option).
 * @throws {ModelDataError} Naming the column: a schema column missing from the
 *   data, a non-numeric value in a NUMBER column, an empty target, a single
 *   class, an unsupported prediction type or more than one target.
 *
 * @example
 * ```ts
 * import { encodeDataset } from "./encoding.ts";
 * import { ModelDataError } from "./errors.ts";
 *
 * const fields = [
 *   { name: "x", data_type: { data_type: "NUMBER" }, designation: "FEATURE", semantic_type: "CONTINUOUS" },
 *   { name: "y", data_type: { data_type: "STRING" }, designation: "TARGET", semantic_type: "CATEGORICAL" },
 * ];
 * try {
 *   encodeDataset({ x: [1, 2], y: ["a", "a"] }, fields, { targets: ["y"] });
 * } catch (e) {
 *   if (!(e instanceof ModelDataError && e.column === "y")) throw new Error("example failed");
 * }
 * ```
 */
export function encodeDataset(
  columns: RawColumns | Datasource,
  fields: ReadonlyArray<SchemaField>,
  options: OnboardingOptions = {},
): EncodedDataset {
  const o = { ...ONBOARDING_DEFAULTS, ...stripUndefined(options) };
  if (
    o.prediction_type !== "CLASSIFICATION" && o.prediction_type !== "REGRESSION"
  ) {
    throw new ModelDataError(
      null,
      "UNSUPPORTED_PREDICTION_TYPE",
      `prediction_type '${o.prediction_type}' is not supported by the local platform; use CLASSIFICATION or REGRESSION.`,
    );
  }
  const regression = o.prediction_type === "REGRESSION";
  checkFraction("infrequency_threshold", o.infrequency_threshold);
  if (
    !Number.isInteger(o.one_hot_encoding_max_categories) ||
    o.one_hot_encoding_max_categories < 1
  ) {
    throw new ModelDataError(
      "one_hot_encoding_max_categories",
      "OUT_OF_RANGE",
      `one_hot_encoding_max_categories must be an integer >= 1, got ${o.one_hot_encoding_max_categories}.`,
    );
  }
  const targets = options.targets?.length
    ? options.targets
    : fields.filter((f) => f.designation === "TARGET").map((f) => f.name);
  if (targets.length !== 1) {
    throw new ModelDataError(
      targets[1] ?? null,
      "TARGET_COUNT",
      targets.length === 0
        ? "no target: name one in the onboarding configuration's targets (or designate a schema field TARGET)."
        : `the local platform trains one target per model, got ${targets.length} (${
          targets.join(", ")
        }); onboard one target at a time.`,
    );
  }
  const targetName = targets[0];
  const targetField = fields.find((f) => f.name === targetName);
  if (!targetField) {
    throw new ModelDataError(
      targetName,
      "TARGET_NOT_IN_SCHEMA",
      `target '${targetName}' is not a field of the data schema; add it or fix the onboarding configuration's targets.`,
    );
  }
  const featureFields = fields.filter((f) =>
    f.designation !== "TARGET" && f.name !== targetName
  );
  if (featureFields.length === 0) {
    throw new ModelDataError(
      null,
      "NO_FEATURES",
      "the data schema has no FEATURE fields; add at least one.",
    );
  }
  const typed = isTyped(columns);
  const columnOf = (name: string): RawOrTyped | undefined =>
    typed
      ? (Object.hasOwn(columns.columns, name)
        ? columns.columns[name]
        : undefined)
      : Object.hasOwn(columns, name) && Array.isArray(columns[name])
      ? columns[name]
      : undefined;
  const lengthOf = lengthOfColumn;
  for (const f of [targetField, ...featureFields]) {
    if (columnOf(f.name) === undefined) {
      throw new ModelDataError(
        f.name,
        "COLUMN_MISSING",
        `column '${f.name}' is in the data schema but not in the datasource; check the CSV header or the schema.`,
      );
    }
  }
  const nAll = lengthOf(columnOf(targetName)!);
  for (const f of featureFields) {
    const len = lengthOf(columnOf(f.name)!);
    if (len !== nAll) {
      throw new ModelDataError(
        f.name,
        "LENGTH_MISMATCH",
        `column '${f.name}' has ${len} values, expected ${nAll}.`,
      );
    }
  }

  // Target: drop rows with an empty target; classes sorted so the order is stable.
  const rawTarget = columnOf(targetName)!;
  if (regression && targetField.data_type.data_type !== "NUMBER") {
    throw new ModelDataError(
      targetName,
      "TARGET_NOT_NUMERIC",
      `target '${targetName}' is ${targetField.data_type.data_type}; REGRESSION needs a NUMBER target (declare it NUMBER, or use CLASSIFICATION).`,
    );
  }
  let keep: Uint32Array;
  let classes: string[] = [];
  let labels: Int32Array;
  let values: Float64Array | null = null;
  let strata: number;
  if (regression) {
    const all = numericValues(rawTarget, targetName, null);
    let n = 0;
    keep = new Uint32Array(nAll);
    for (let r = 0; r < nAll; r++) if (!Number.isNaN(all[r])) keep[n++] = r;
    keep = keep.slice(0, n);
    values = new Float64Array(n);
    for (let i = 0; i < n; i++) values[i] = all[keep[i]];
    checkTargetRange(targetName, values, keep);
    labels = deciles(values);
    strata = 10;
  } else {
    const cat = categoryValues(rawTarget, targetName, o.strip_categories, null);
    // Rows per dictionary entry: the kept rows (a class) counted, then listed.
    const uses = new Float64Array(cat.dictionary.length);
    for (let r = 0; r < nAll; r++) uses[cat.codes[r]]++;
    let n = 0;
    cat.dictionary.forEach((c, k) => n += c === null ? 0 : uses[k]);
    keep = new Uint32Array(n);
    for (let r = 0, i = 0; r < nAll; r++) {
      if (cat.dictionary[cat.codes[r]] !== null) keep[i++] = r;
    }
    const seen = new Set<string>();
    cat.dictionary.forEach((c, k) => c !== null && uses[k] > 0 && seen.add(c));
    classes = [...seen].sort();
    if (classes.length === 1) {
      throw new ModelDataError(
        targetName,
        "TARGET_SINGLE_CLASS",
        `target column '${targetName}' has a single class ('${
          classes[0]
        }'); classification needs at least two.`,
      );
    }
    const classIndex = new Map(classes.map((c, i) => [c, i]));
    const classOfCode = cat.dictionary.map((c) =>
      c === null ? -1 : classIndex.get(c) ?? -1
    );
    labels = new Int32Array(n);
    for (let i = 0; i < n; i++) labels[i] = classOfCode[cat.codes[keep[i]]];
    strata = classes.length;
  }
  const n = keep.length;
  if (n === 0) {
    throw new ModelDataError(
      targetName,
      "TARGET_EMPTY",
      `target column '${targetName}' has no values; every row is empty.`,
    );
  }

  const schemaNames = new Set(fields.map((f) => f.name));
  const encFeatures: FeatureEncoding[] = [];
  const encoded: EncodedColumn[] = [];
  const dropped: DroppedFeature[] = [];
  for (const f of featureFields) {
    const raw = columnOf(f.name)!;
    if (!isCategorical(f)) {
      const x = numericValues(raw, f.name, keep);
      const reason = numericUnusable(x);
      if (reason) {
        dropped.push({ name: f.name, reason });
        continue;
      }
      const enc: NumericEncoding = {
        name: f.name,
        kind: "numeric",
        fill: o.impute ? median(x) : null,
      };
      if (enc.fill !== null) {
        for (let i = 0; i < n; i++) if (Number.isNaN(x[i])) x[i] = enc.fill;
      }
      encFeatures.push(enc);
      encoded.push(x);
      continue;
    }
    // A typed column's codes are read where they are, at the kept rows
    // (`at`), not copied: 4 bytes a row and column less while encoding.
    const at = isTypedColumn(raw) && raw.kind === "string" ? keep : null;
    // A NUMBER column read as categories: each cell is the number it holds.
    const number = f.data_type.data_type === "NUMBER";
    const cat = categoryValues(
      raw,
      f.name,
      o.strip_categories,
      at ? null : keep,
      number,
    );
    // The dictionary entry of every kept row.
    const kept = at === null ? cat.codes : null;
    const entry = (i: number) => kept ? kept[i] : cat.codes[at![i]];
    // Rows per category (a category may have several dictionary entries,
    // e.g. " a" and "a" when stripping).
    const perCode = new Float64Array(cat.dictionary.length);
    for (let i = 0; i < n; i++) perCode[entry(i)]++;
    const counts = new Map<string, number>();
    cat.dictionary.forEach((c, k) => {
      if (c !== null && perCode[k] > 0) {
        counts.set(c, (counts.get(c) ?? 0) + perCode[k]);
      }
    });
    const days = datesOf(cat.dictionary, perCode);
    if (days) {
      // ISO dates: a number (the day), not a category of its own per day.
      const x = new Float64Array(n);
      for (let i = 0; i < n; i++) x[i] = days[entry(i)];
      const unusable = numericUnusable(x);
      if (unusable) {
        dropped.push({ name: f.name, reason: unusable });
        continue;
      }
      const enc: NumericEncoding = {
        name: f.name,
        kind: "numeric",
        fill: o.impute ? median(x) : null,
        date: true,
      };
      if (enc.fill !== null) {
        for (let i = 0; i < n; i++) if (Number.isNaN(x[i])) x[i] = enc.fill;
      }
      encFeatures.push(enc);
      encoded.push(x);
      // Its weekday, month, hour (dates.ts), when the dates span their cycles.
      const parts = deriveDateParts(f.name, x, enc.fill, schemaNames);
      encFeatures.push(...parts.encodings);
      encoded.push(...parts.columns);
      continue;
    }
    const reason = categoryUnusable(counts, n);
    if (reason) {
      dropped.push({ name: f.name, reason });
      continue;
    }
    // Most frequent first; ties by name so the vocabulary is deterministic.
    const ranked = [...counts].sort((a, b) =>
      b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)
    );
    const minCount = o.infrequency_threshold * n;
    const most = Math.min(o.one_hot_encoding_max_categories, MAX_CATEGORIES);
    const categories: string[] = [];
    const rare: string[] = [];
    for (const [c, k] of ranked) {
      if (categories.length < most && k >= minCount) categories.push(c);
      else rare.push(c);
    }
    const enc: CategoricalEncoding = {
      name: f.name,
      kind: "categorical",
      categories,
      rare,
      fill: o.impute && ranked.length ? ranked[0][0] : null,
      strip: o.strip_categories,
      handleUnseen: o.handle_unseen_categories,
    };
    if (number) enc.number = true;
    const codeOf = categoryCoder(enc);
    // Entries no kept row uses (their rows had no target) are never looked up.
    const binOfCode = Uint16Array.from(
      cat.dictionary,
      (c, k) => perCode[k] > 0 ? codeOf(c, 0, ModelDataError) : 0,
    );
    const codes = new Uint16Array(n);
    for (let i = 0; i < n; i++) codes[i] = binOfCode[entry(i)];
    encFeatures.push(enc);
    encoded.push(codes);
  }
  if (encFeatures.length === 0) {
    throw new ModelDataError(
      dropped[0].name,
      "NO_USABLE_FEATURES",
      `no feature can be used: ${
        dropped.map((d) => `'${d.name}' (${d.reason})`).join(", ")
      }; add a column that varies between rows.`,
    );
  }

  return {
    encoder: {
      features: encFeatures,
      target: {
        name: targetName,
        kind: regression ? "numeric" : "categorical",
        classes,
        strip: o.strip_categories,
      },
      ...(dropped.length ? { dropped } : {}),
    },
    nRows: n,
    features: encoded,
    labels,
    values,
    order: stratifiedOrder(labels, strata, o.seed),
    rows: keep,
    seed: o.seed,
    droppedRows: nAll - n,
  };
}

function isTyped(columns: RawColumns | Datasource): columns is Datasource {
  return isDatasource(columns);
}

export { ID_ROWS } from "./cells.ts";

/** Decile (0..9) of every value by rank, ties by row: the regression strata. */
function deciles(values: Float64Array): Int32Array {
  const n = values.length;
  const byValue = Uint32Array.from(values.keys()).sort((a, b) =>
    values[a] - values[b] || a - b
  );
  const out = new Int32Array(n);
  for (let r = 0; r < n; r++) out[byValue[r]] = Math.floor((10 * r) / n);
  return out;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  const out: Partial<T> = { ...o };
  for (const k in out) if (out[k] === undefined) delete out[k];
  return out;
}

function checkFraction(name: string, v: number): void {
  if (typeof v !== "number" || !(v >= 0 && v <= 1)) {
    throw new ModelDataError(
      name,
      "OUT_OF_RANGE",
      `${name} must be a fraction between 0 and 1, got ${v}.`,
    );
  }
}

/**
 * Seeded stratified order: shuffle each class, then interleave the classes by
 * giving each row the key (rank within its class + jitter) / class size and
 * sorting by it. Every prefix then holds each class in proportion, which is
 * what a stratified split needs, for any split fraction.
 */
function stratifiedOrder(
  labels: Int32Array,
  k: number,
  seed: number,
): Uint32Array {
  const rng = createRng(seed);
  const byClass: number[][] = Array.from({ length: k }, () => []);
  labels.forEach((y, i) => byClass[y].push(i));
  const key = new Float64Array(labels.length);
  for (const rows of byClass) {
    shuffle(rows, rng);
    rows.forEach((r, rank) => key[r] = (rank + rng()) / rows.length);
  }
  const order = Uint32Array.from(labels.keys());
  return order.sort((a, b) => key[a] - key[b] || a - b);
}
