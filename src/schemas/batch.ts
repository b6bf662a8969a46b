// deno-doc-ignore-file private-type-ref missing-explicit-type -- wire types are inferred from these zod schemas (one source of truth), so they name zod's own types
/**
 * Batch views (our extension, docs/contract.md#batch-views): a views
 * batch configuration (which views, the output format, the input columns
 * carried through, what a bad row gets), a views batch job that scores a CSV
 * file of a bucket with a deployed model into an output file of the same
 * bucket, the views batch it produces, and one page of that output read back
 * through the API.
 *
 * @module
 */
import { z } from "zod";
import {
  ColumnNameSchema,
  columnNamesSchema,
  configurationFields,
  IdSchema,
  NameSchema,
  openEnum,
  ownedFields,
  PaginationSchema,
  queryInteger,
  RefSchema,
  TimestampSchema,
} from "./common.ts";
import { jobFields } from "./jobs.ts";
import { ARTIFACT_STATUSES } from "./artifacts.ts";

/**
 * What a batch row gets: `RESULTS` is the views table of docs/api.md#resources (the
 * prediction, the class probabilities, the bias and every contribution);
 * `PREDICTIONS` keeps only the prediction and probability columns (a
 * smaller file when the explanations are not needed).
 */
export const BATCH_VIEW_TYPES = ["RESULTS", "PREDICTIONS"] as const;
/** Output file formats: CSV with a header, or one JSON object per line. */
export const BATCH_OUTPUT_FORMATS = ["CSV", "JSON_LINES"] as const;
/**
 * What a row the model cannot score does: `FAIL` ends the job FAILED naming
 * the row, column and reason (nothing is written); `NULL_PREDICTION` writes
 * the row with empty view columns and the reason in the error column.
 */
export const BATCH_ON_ERROR = ["FAIL", "NULL_PREDICTION"] as const;

/** A column name of a batch's output: trimmed, 1 to 200 characters. */
const BatchColumnSchema = ColumnNameSchema.max(
  200,
  "must be at most 200 characters",
);

/**
 * Kept column names: each trimmed (as the input's header names are) and
 * non-empty, none twice, at most 1000.
 */
const ColumnListSchema = columnNamesSchema("column", BatchColumnSchema).max(
  1000,
);

/** A views batch configuration. */
export const ViewsBatchConfigurationSchema = z.looseObject({
  ...configurationFields,
  view_types: z.array(openEnum(BATCH_VIEW_TYPES)),
  output_format: openEnum(BATCH_OUTPUT_FORMATS),
  keep_columns: z.array(z.string()),
  on_error: openEnum(BATCH_ON_ERROR),
  error_column: z.string(),
}).meta({ id: "ViewsBatchConfiguration" });
/** A views batch configuration. */
export type ViewsBatchConfiguration = z.infer<
  typeof ViewsBatchConfigurationSchema
>;

/** Body of `POST /views-batch-configurations`. */
export const ViewsBatchConfigurationCreateSchema = z.object({
  name: NameSchema,
  /** Which views each row gets (default `["RESULTS"]`; one of the two). */
  view_types: z.array(z.enum(BATCH_VIEW_TYPES)).length(
    1,
    'name one view type: ["RESULTS"] or ["PREDICTIONS"]',
  ).default(["RESULTS"]),
  /** `CSV` (default) or `JSON_LINES`. */
  output_format: z.enum(BATCH_OUTPUT_FORMATS).default("CSV"),
  /** Input columns copied to the output before the views (an id, ...), in this order. */
  keep_columns: ColumnListSchema.default([]),
  /** `FAIL` (default) or `NULL_PREDICTION`. */
  on_error: z.enum(BATCH_ON_ERROR).default("FAIL"),
  /** Name of the error column written with `NULL_PREDICTION` (default `error`), trimmed. */
  error_column: BatchColumnSchema.default("error"),
}).superRefine((body, ctx) => {
  // The error column follows the kept ones: one name for both would give
  // the output two columns of that name, and every job would be refused.
  const at = body.keep_columns.indexOf(body.error_column);
  if (body.on_error === "NULL_PREDICTION" && at >= 0) {
    ctx.addIssue({
      code: "custom",
      path: ["keep_columns", at],
      message:
        `"${body.error_column}" is also the error_column: the output would have two columns of that name; keep another column or set another error_column`,
    });
  }
}).meta({ id: "ViewsBatchConfigurationCreate" });
/** Body of `POST /views-batch-configurations`. */
export type ViewsBatchConfigurationCreate = z.input<
  typeof ViewsBatchConfigurationCreateSchema
>;

/** A views batch job: scores `data_path` into `output_path`. */
export const ViewsBatchJobSchema = z.looseObject({
  ...jobFields,
  name: z.string(),
  deployed_model: RefSchema,
  views_batch_configuration: RefSchema,
  storage_connector: RefSchema,
  compute_configuration: RefSchema,
  views_batch: RefSchema,
  data_path: z.string(),
  output_path: z.string(),
}).meta({ id: "ViewsBatchJob" });
/** A views batch job. */
export type ViewsBatchJob = z.infer<typeof ViewsBatchJobSchema>;

/** A path inside a bucket, relative to it. */
const BucketPathSchema = (field: string) =>
  z.string().trim().min(1, `${field} is required`).max(1024);

/** Body of `POST /views-batch-jobs`. */
export const ViewsBatchJobCreateSchema = z.object({
  name: NameSchema,
  /** The RUNNING deployed model that scores the rows. */
  deployed_model_id: IdSchema,
  views_batch_configuration_id: IdSchema,
  /** The storage connector of the bucket holding the input and receiving the output. */
  storage_connector_id: IdSchema,
  /** A PROCESSING compute configuration. */
  compute_configuration_id: IdSchema,
  /** The input: a CSV file (`.csv`, or gzip-compressed `.csv.gz`) with a header row. */
  data_path: BucketPathSchema("data_path"),
  /** Where the output goes in the same bucket; it appears only when complete. */
  output_path: BucketPathSchema("output_path"),
  /** Name of the views batch the job makes. */
  views_batch_name: NameSchema,
}).meta({ id: "ViewsBatchJobCreate" });
/** Body of `POST /views-batch-jobs`. */
export type ViewsBatchJobCreate = z.input<typeof ViewsBatchJobCreateSchema>;

/** A views batch: the output of a views batch job and its counts. */
export const ViewsBatchSchema = z.looseObject({
  ...ownedFields,
  name: z.string(),
  status: openEnum(ARTIFACT_STATUSES).optional(),
  updated_at: TimestampSchema.nullish(),
  deployed_model: RefSchema,
  views_batch_configuration: RefSchema,
  storage_connector: RefSchema,
  views_batch_job: RefSchema.optional(),
  data_path: z.string(),
  output_path: z.string(),
  output_format: openEnum(BATCH_OUTPUT_FORMATS),
  /** Output columns in order: the kept columns, the views, then the error column. */
  columns: z.array(z.string()),
  /** Data rows read from the input (null until the job completes). */
  rows_in: z.number().int().nullish(),
  /** Rows written to the output (every row read, in the same order). */
  rows_out: z.number().int().nullish(),
  /** Rows written with null views and an error (`NULL_PREDICTION`). */
  rows_with_errors: z.number().int().nullish(),
}).meta({ id: "ViewsBatch" });
/** A views batch. */
export type ViewsBatch = z.infer<typeof ViewsBatchSchema>;

/** Query of `GET /views-batches/{id}/results`: 1-based pages of up to 10,000 rows. */
export const BatchResultsQuerySchema = z.object({
  page: queryInteger(1, undefined, 1),
  items_per_page: queryInteger(1, 10_000, 1000),
});
/** Query of `GET /views-batches/{id}/results`. */
export type BatchResultsQuery = z.input<typeof BatchResultsQuerySchema>;

/**
 * Rows of a results page: each an array of cells (a number, a string or
 * null). Checked in one loop, not by a zod union per cell: a page of
 * 10,000 rows of 20 columns must not cost more to check than to parse.
 */
const ResultRowsSchema = z.array(z.unknown()).superRefine((rows, ctx) => {
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    if (!Array.isArray(row)) {
      ctx.addIssue({
        code: "custom",
        path: [i],
        message: "must be a row: an array aligned with columns",
      });
      return;
    }
    for (let j = 0; j < row.length; j++) {
      const cell = row[j];
      if (
        cell !== null && typeof cell !== "string" && typeof cell !== "number"
      ) {
        ctx.addIssue({
          code: "custom",
          path: [i, j],
          message: `holds ${typeof cell}: a cell is a number, a string or null`,
        });
        return;
      }
    }
  }
}).meta({
  items: { type: "array", items: { type: ["number", "string", "null"] } },
}) as unknown as z.ZodType<
  (string | number | null)[][],
  (string | number | null)[][]
>;

/**
 * One page of a views batch's output, read back through the API: a
 * split-orientation table (`index` holds each row's 0-based position in
 * the output) and the list pagination.
 */
export const ViewsBatchResultsSchema = z.looseObject({
  columns: z.array(z.string()),
  index: z.array(z.number().int()),
  data: ResultRowsSchema,
  pagination: PaginationSchema,
}).meta({ id: "ViewsBatchResults" });
/** One page of a views batch's output. */
export type ViewsBatchResults = z.infer<typeof ViewsBatchResultsSchema>;
