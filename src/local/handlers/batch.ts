/**
 * Batch views (our extension, docs/contract.md#batch-views): the
 * configuration create, the job create (every reference checked, the
 * deployed model RUNNING, both paths inside the bucket, then
 * {@linkcode launchJob}) and the results page of a READY views batch, read
 * from its output file through the bucket's checks.
 *
 * @module
 */
import { BatchResultsQuerySchema } from "../../schemas/batch.ts";
import { conflict, invalidField } from "../errors.ts";
import { parseOr400 } from "../http/request_body.ts";
import {
  batchLayout,
  batchWork,
  tempName,
  viewColumnsOf,
} from "../jobs/batch.ts";
import { batchIndexBlobs, readBatchPage } from "../jobs/batch_results.ts";
import {
  resolveDataPath,
  resolveOutputPath,
  withDataFile,
} from "../store/buckets.ts";
import { findOwned, refOf } from "../store/records.ts";
import { storedAsGiven } from "./configs.ts";
import { launchJob, newJobFields } from "./jobs.ts";
import type { Op } from "./types.ts";

/** `POST /views-batch-configurations`: stored as the schema defaulted it. */
export const createViewsBatchConfiguration: Op<
  "viewsBatchConfigurations",
  "create"
> = storedAsGiven("viewsBatchConfigurations");

/** Input files a views batch reads. */
const INPUT_SUFFIX = /\.csv(\.gz)?$/i;
/** An output name of a compressed format, which the job does not write. */
const COMPRESSED_SUFFIX = /\.(gz|gzip|tgz|bz2|xz|zst|zip|7z)$/i;

/**
 * `POST /views-batch-jobs`. The files are checked first (the only steps
 * that await); then every reference is looked up again and the job and its
 * views batch are inserted in one synchronous step, so a concurrent delete
 * of a referenced resource either wins (this create is a 404) or loses
 * (the delete is a 409 naming this job).
 */
export const createViewsBatchJob: Op<"viewsBatchJobs", "create"> = async (
  { ctx, caller, body },
) => {
  const references = () => {
    const account = caller.account.id;
    const dm = findOwned(
      ctx.store,
      account,
      "deployedModels",
      body.deployed_model_id,
      "deployed_model_id",
    );
    const config = findOwned(
      ctx.store,
      account,
      "viewsBatchConfigurations",
      body.views_batch_configuration_id,
      "views_batch_configuration_id",
    );
    const sc = findOwned(
      ctx.store,
      account,
      "storageConnectors",
      body.storage_connector_id,
      "storage_connector_id",
    );
    const cc = findOwned(
      ctx.store,
      account,
      "computeConfigurations",
      body.compute_configuration_id,
      "compute_configuration_id",
    );
    if (cc.body.compute_type !== "PROCESSING") {
      throw invalidField(
        "compute_configuration_id",
        `compute configuration "${cc.body.name}" is ${cc.body.compute_type}; a views batch job needs a PROCESSING compute configuration`,
      );
    }
    const model = ctx.serving.model(dm.id);
    if (dm.body.status !== "RUNNING" || !model) {
      throw conflict(
        dm.body.status === "FAILED"
          ? `The deployed model ${dm.id} FAILED (${
            dm.body.message ?? "see its record"
          }); deploy the model again, then start the views batch job.`
          : `The deployed model ${dm.id} is ${dm.body.status}, not RUNNING: poll GET /deployed-models/${dm.id} until its status is RUNNING, then retry.`,
      );
    }
    return { dm, config, sc, cc, model, bucket: String(sc.body.bucket_name) };
  };
  const first = references();
  if (!INPUT_SUFFIX.test(body.data_path)) {
    throw invalidField(
      "data_path",
      `"${body.data_path}" is not a CSV file: a views batch reads a .csv file, or a gzip-compressed .csv.gz`,
    );
  }
  if (COMPRESSED_SUFFIX.test(body.output_path)) {
    // Written as plain text under a .gz name, it read as a damaged archive.
    const lines = first.config.body.output_format === "JSON_LINES";
    throw invalidField(
      "output_path",
      `"${body.output_path}" names a compressed file, but the output is written uncompressed (${
        lines ? "JSON Lines" : "CSV"
      }): name it ${
        lines ? '".jsonl"' : '".csv"'
      }, and compress it afterwards if you need to`,
    );
  }
  const c = first.config.body;
  // Names trimmed as the input's header names are: the create trims them
  // now, but a configuration stored before it did may hold " id ".
  const shape = {
    viewType: String(c.view_types[0] ?? "RESULTS"),
    keep: c.keep_columns.map((name) => name.trim()),
    onError: String(c.on_error),
    errorColumn: c.error_column.trim(),
  };
  const layout = batchLayout(first.model, viewColumnsOf(first.model), shape);
  if (typeof layout === "string") {
    throw invalidField("views_batch_configuration_id", layout);
  }
  const input = await resolveDataPath(
    ctx.buckets,
    first.bucket,
    body.data_path,
  );
  const output = await resolveOutputPath(
    ctx.buckets,
    first.bucket,
    body.output_path,
  );
  if (output.file === input) {
    throw invalidField(
      "output_path",
      `"${body.output_path}" is the input file: write the output under another name`,
    );
  }
  // From here to the inserts: no await.
  const { dm, config, sc, cc, bucket } = references();
  const deployedModelId = dm.id;
  return launchJob(ctx, caller, {
    kind: "viewsBatchJobs",
    name: body.name,
    artifact: {
      name: body.views_batch_name,
      status: "PENDING",
      deployed_model: refOf(dm),
      views_batch_configuration: refOf(config),
      storage_connector: refOf(sc),
      data_path: body.data_path,
      output_path: body.output_path,
      output_format: config.body.output_format,
      columns: layout.columns,
      rows_in: null,
      rows_out: null,
      rows_with_errors: null,
    },
    job: (views_batch) => ({
      name: body.name,
      deployed_model: refOf(dm),
      views_batch_configuration: refOf(config),
      storage_connector: refOf(sc),
      compute_configuration: refOf(cc),
      views_batch,
      data_path: body.data_path,
      output_path: body.output_path,
      ...newJobFields(ctx),
    }),
    // The views batch points back at its job; both are stored together.
    link: (batch, job) => {
      batch.body.views_batch_job = refOf(job);
    },
    work: (batchId, done) =>
      batchWork({
        model: () => ctx.serving.model(deployedModelId),
        shape,
        format: String(config.body.output_format),
        openInput: (use) =>
          withDataFile(ctx.buckets, bucket, body.data_path, use),
        display: `"${body.data_path}" in bucket "${bucket}"`,
        outputFile: output.file,
        outputDisplay: `"${body.output_path}" in bucket "${bucket}"`,
        tempFile: tempName(output.file, batchId),
      }, (outcome) => {
        batchIndexBlobs.write(ctx.store, batchId, {
          format: String(config.body.output_format),
          columns: outcome.layout.columns,
          kinds: outcome.layout.kinds,
          rows: outcome.rowsOut,
          bytes: outcome.bytes,
          modified: outcome.modified,
          offsets: outcome.offsets,
        });
        done({
          rows_in: outcome.rowsIn,
          rows_out: outcome.rowsOut,
          rows_with_errors: outcome.rowsWithErrors,
          columns: outcome.layout.columns,
        });
      }),
  });
};

/**
 * `GET /views-batches/{id}/results`: one page of a READY views batch's
 * output, read from the file through the bucket's checks (409 while the
 * batch is not READY, or when its file changed since it was written).
 */
export const viewsBatchResults: Op<"viewsBatches", "results"> = async (
  { ctx, caller, params: { id }, query },
) => {
  const { page, items_per_page: per } = parseOr400(
    BatchResultsQuerySchema,
    query,
  );
  const batch = findOwned(ctx.store, caller.account.id, "viewsBatches", id);
  const index = batchIndexBlobs.read(ctx.store, id);
  if (batch.body.status !== "READY" || !index) {
    throw conflict(
      `The views batch ${id} is ${batch.body.status}, not READY: wait until its views batch job is COMPLETED${
        batch.body.status === "PENDING" ? "" : ", or start a new one"
      }.`,
    );
  }
  const sc = findOwned(
    ctx.store,
    caller.account.id,
    "storageConnectors",
    batch.body.storage_connector.id,
  );
  const bucket = String(sc.body.bucket_name);
  const path = batch.body.output_path;
  const rows = await withDataFile(ctx.buckets, bucket, path, async (handle) => {
    const now = await handle.stat();
    if (
      now.size !== index.bytes ||
      (index.modified !== undefined && now.mtimeMs !== index.modified)
    ) {
      throw conflict(
        `The output "${path}" in bucket "${bucket}" changed since the views batch ${id} wrote it; run the views batch job again to read its results.`,
      );
    }
    return await readBatchPage(handle, index, (page - 1) * per, per);
  }).catch((error) => {
    if (error?.status === 400) {
      throw conflict(
        `The output "${path}" of the views batch ${id} cannot be read from bucket "${bucket}" any more (${error.body?.message}); run the views batch job again.`,
      );
    }
    throw error;
  });
  return {
    body: {
      columns: index.columns,
      index: rows.index,
      data: rows.data,
      pagination: {
        total_items: index.rows,
        items_per_page: per,
        current_page: page,
        total_pages: Math.ceil(index.rows / per),
      },
    },
  };
};
