/**
 * The shared datasets the model tests and benchmarks train on, read the way
 * ingestion reads them: parsed CSV, schema fields (numeric columns NUMBER /
 * CONTINUOUS, the rest STRING / CATEGORICAL, the target TARGET), datasource
 * columns and, for {@link loadEncoded}, the onboarded dataset.
 *
 * @module
 */
import { type CsvTable, parseCsv } from "../../src/csv.ts";
import { columnsFromCsv } from "../../src/local/model/datasource.ts";
import { createRng, shuffle } from "../../src/local/model/rng.ts";
import {
  encodeDataset,
  type EncodedDataset,
  type RawColumns,
  type SchemaField,
} from "../../src/local/model/encoding.ts";

/** Folder of the datasets (`datasets/` in the repository). */
export const DATASETS_DIR: string =
  new URL("../../datasets/", import.meta.url).pathname;

/**
 * A shared dataset: its file (`.csv`, or `.csv.gz` read as its CSV), its
 * target and its numeric columns: `numeric`, or, when absent, every column
 * but `strings` ({@link numericOf}).
 */
export interface DatasetSpec {
  file: string;
  target: string;
  numeric?: readonly string[];
  /** The string (categorical) columns, when `numeric` is absent. */
  strings?: readonly string[];
  /** Onboarding prediction type (default CLASSIFICATION). */
  predictionType?: "CLASSIFICATION" | "REGRESSION";
  /** Columns the benchmark's peers go without (e.g. a date one-hot is noise to them). */
  peersDrop?: readonly string[];
}

/** The numeric columns of a table with `header` under `spec`. */
export function numericOf(
  spec: DatasetSpec,
  header: readonly string[],
): string[] {
  if (spec.numeric) return header.filter((c) => spec.numeric!.includes(c));
  return header.filter((c) => !(spec.strings ?? []).includes(c));
}

const numericOnly = (
  file: string,
  target: string,
  strings: string[] = [target],
  predictionType?: "REGRESSION",
): DatasetSpec => ({ file, target, strings, predictionType });

/** cells.csv: binary `class`, 56 numeric columns. */
export const CELLS: DatasetSpec = numericOnly("cells.csv", "class");
/** ad_data.csv: binary `Class`, 130 columns (wide, few rows). */
export const AD_DATA: DatasetSpec = numericOnly("ad_data.csv", "Class", [
  "Class",
  "Genotype",
]);
/** pd_speech.csv: binary `class`, 751 numeric columns, 252 rows. */
export const PD_SPEECH: DatasetSpec = numericOnly("pd_speech.csv", "class");
/** grants.csv.gz: binary `class`, 1,502 mostly 0/1 columns (gzipped). */
export const GRANTS: DatasetSpec = numericOnly("grants.csv.gz", "class", [
  "class",
  "sponsor_code",
  "contract_value_band",
  "category_code",
  "month",
  "weekday",
]);
/** scat.csv: three-class `Species`, 110 rows, categories and empty cells. */
export const SCAT: DatasetSpec = numericOnly("scat.csv", "Species", [
  "Species",
  "Month",
  "Site",
  "Location",
]);
/** oils.csv: seven-class `class`, 96 rows. */
export const OILS: DatasetSpec = numericOnly("oils.csv", "class");
/** digits.csv: ten-class `target`, 64 pixel columns. */
export const DIGITS: DatasetSpec = numericOnly("digits.csv", "target");
/** wine.csv: three-class `target`, 178 rows. */
export const WINE: DatasetSpec = numericOnly("wine.csv", "target");
/** car_prices.csv: numeric `Price` (regression), many 0/1 flags. */
export const CAR_PRICES: DatasetSpec = numericOnly(
  "car_prices.csv",
  "Price",
  [],
  "REGRESSION",
);
/** biomass.csv: numeric `HHV` (regression), five numeric columns. */
export const BIOMASS: DatasetSpec = numericOnly(
  "biomass.csv",
  "HHV",
  [],
  "REGRESSION",
);
/** check_times.csv: numeric `check_time` (regression, noisy, right-skewed). */
export const CHECK_TIMES: DatasetSpec = numericOnly(
  "check_times.csv",
  "check_time",
  [],
  "REGRESSION",
);
/** chicago.csv: numeric `ridership` (regression), a `date` column. */
export const CHICAGO: DatasetSpec = {
  ...numericOnly("chicago.csv", "ridership", ["date"], "REGRESSION"),
  peersDrop: ["date"],
};

/** wa_churn.csv: binary `churn`. */
export const CHURN: DatasetSpec = {
  file: "wa_churn.csv",
  target: "churn",
  numeric: ["tenure", "monthly_charges", "total_charges"],
};

/** penguins.csv: three-class `species`. */
export const PENGUINS: DatasetSpec = {
  file: "penguins.csv",
  target: "species",
  numeric: [
    "bill_length_mm",
    "bill_depth_mm",
    "flipper_length_mm",
    "body_mass_g",
  ],
};

/** concrete.csv: numeric `compressive_strength` (regression). */
export const CONCRETE: DatasetSpec = {
  file: "concrete.csv",
  target: "compressive_strength",
  numeric: [
    "cement",
    "blast_furnace_slag",
    "fly_ash",
    "water",
    "superplasticizer",
    "coarse_aggregate",
    "fine_aggregate",
    "age",
    "compressive_strength",
  ],
  predictionType: "REGRESSION",
};

/** sacramento.csv: numeric `price` (regression) with high-cardinality `city`/`zip`. */
export const SACRAMENTO: DatasetSpec = {
  file: "sacramento.csv",
  target: "price",
  numeric: ["beds", "baths", "sqft", "price", "latitude", "longitude"],
  predictionType: "REGRESSION",
};

/** A dataset read from its CSV file. */
export interface LoadedDataset {
  spec: DatasetSpec;
  /** The file's text. */
  text: string;
  table: CsvTable;
  fields: SchemaField[];
  /** Every column, the target included. */
  columns: RawColumns;
  /** The feature columns (every column but the target), as a views query. */
  features: RawColumns;
}

/** Schema fields of a CSV header under `spec`. */
export function fieldsOf(
  header: readonly string[],
  spec: DatasetSpec,
): SchemaField[] {
  const numbers = numericOf(spec, header);
  return header.map((name) => {
    const numeric = numbers.includes(name);
    return {
      name,
      data_type: { data_type: numeric ? "NUMBER" : "STRING", format: null },
      designation: name === spec.target ? "TARGET" : "FEATURE",
      semantic_type: numeric || (name === spec.target &&
          spec.predictionType === "REGRESSION")
        ? "CONTINUOUS"
        : "CATEGORICAL",
    };
  });
}

/** A dataset file's text (a `.gz` file unpacked). */
export async function readDatasetText(file: string): Promise<string> {
  if (!file.endsWith(".gz")) return await Deno.readTextFile(file);
  const f = await Deno.open(file);
  const stream = f.readable.pipeThrough(new DecompressionStream("gzip"))
    .pipeThrough(new TextDecoderStream());
  let text = "";
  for await (const chunk of stream) text += chunk;
  return text;
}

/** The columns but `name` (a table's features as a views query, without its target). */
export function withoutColumn(columns: RawColumns, name: string): RawColumns {
  return Object.fromEntries(
    Object.entries(columns).filter(([k]) => k !== name),
  );
}

/** Reads and parses a shared dataset into schema fields and columns. */
export async function loadDataset(spec: DatasetSpec): Promise<LoadedDataset> {
  const text = await readDatasetText(`${DATASETS_DIR}${spec.file}`);
  const table = parseCsv(text);
  const fields = fieldsOf(table.header, spec);
  const columns = columnsFromCsv(table, fields);
  const features = withoutColumn(columns, spec.target);
  return { spec, text, table, fields, columns, features };
}

/** {@link loadDataset} plus the dataset onboarded with `targets: [target]`. */
export async function loadEncoded(
  spec: DatasetSpec,
): Promise<LoadedDataset & { data: EncodedDataset }> {
  const d = await loadDataset(spec);
  return {
    ...d,
    data: encodeDataset(d.columns, d.fields, {
      targets: [spec.target],
      prediction_type: spec.predictionType,
    }),
  };
}

/**
 * Seeded 80/20 split of a dataset's columns into train and test columns
 * (the accuracy and regression tests' held-out rows).
 */
export function splitColumns(
  columns: RawColumns,
  seed: number,
): { train: RawColumns; test: RawColumns } {
  const n = Object.values(columns)[0].length;
  const rows = Array.from({ length: n }, (_, i) => i);
  shuffle(rows, createRng(seed));
  const cut = Math.round(n * 0.8);
  const pick = (idx: number[]) =>
    Object.fromEntries(
      Object.entries(columns).map(([k, v]) => [k, idx.map((i) => v[i])]),
    );
  return { train: pick(rows.slice(0, cut)), test: pick(rows.slice(cut)) };
}

/**
 * Every `step`-th row of a loaded dataset, onboarded like
 * {@link loadEncoded}: a small table with the full one's columns, classes
 * and spread, for tests whose property does not depend on the row count
 * (determinism, progress, parameter limits) and should train in a blink.
 */
export function everyNth(
  d: LoadedDataset,
  step: number,
): LoadedDataset & { data: EncodedDataset } {
  const pick = <T>(values: readonly T[]) =>
    values.filter((_, i) => i % step === 0);
  const columns: RawColumns = Object.fromEntries(
    Object.entries(d.columns).map(([k, v]) => [k, pick(v)]),
  );
  const features = withoutColumn(columns, d.spec.target);
  return {
    ...d,
    columns,
    features,
    data: encodeDataset(columns, d.fields, {
      targets: [d.spec.target],
      prediction_type: d.spec.predictionType,
    }),
  };
}
