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
import {
  encodeDataset,
  type EncodedDataset,
  type RawColumns,
  type SchemaField,
} from "../../src/local/model/encoding.ts";

/** Folder of the datasets (`datasets/` in the repository). */
export const DATASETS_DIR: string =
  new URL("../../datasets/", import.meta.url).pathname;

/** A shared dataset: its file, its target and its numeric columns. */
export interface DatasetSpec {
  file: string;
  target: string;
  numeric: readonly string[];
  /** Onboarding prediction type (default CLASSIFICATION). */
  predictionType?: "CLASSIFICATION" | "REGRESSION";
}

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
  return header.map((name) => {
    const numeric = spec.numeric.includes(name);
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

/** Reads and parses a shared dataset into schema fields and columns. */
export async function loadDataset(spec: DatasetSpec): Promise<LoadedDataset> {
  const text = await Deno.readTextFile(`${DATASETS_DIR}${spec.file}`);
  const table = parseCsv(text);
  const fields = fieldsOf(table.header, spec);
  const columns = columnsFromCsv(table, fields);
  const features = Object.fromEntries(
    Object.entries(columns).filter(([k]) => k !== spec.target),
  );
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
  const features = Object.fromEntries(
    Object.entries(columns).filter(([k]) => k !== d.spec.target),
  );
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
