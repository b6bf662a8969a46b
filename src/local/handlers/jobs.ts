/**
 * Create handlers of the three jobs (ingestion, onboarding, training): check
 * every referenced resource, refuse what cannot work (400 naming the field,
 * 409 while an input is not ready), create the job `STARTING` together with
 * the artifact it will produce, and start the work in the background.
 *
 * @module
 */
import { readDataFile, resolveDataPath } from "../store/buckets.ts";
import type { Caller } from "../http/auth.ts";
import type { PlatformContext } from "../context.ts";
import type { OnboardingConfiguration } from "../../schemas/mod.ts";
import { conflict, invalidField } from "../http/http_errors.ts";
import type { JobOutcome } from "../jobs/runner.ts";
import { ingestWork } from "../jobs/ingest.ts";
import { onboardWork } from "../jobs/onboard.ts";
import { trainWork } from "../jobs/train.ts";
import type { SchemaField } from "../model/encoding.ts";
import type { TrainingParams } from "../model/params.ts";
import type { KindName } from "../kinds.ts";
import {
  assertUniqueName,
  createRecord,
  findOwned,
  newRecord,
  refOf,
  updateRecord,
} from "../store/records.ts";
import type { StoredRecord } from "../store/store.ts";
import type { CreateHandler } from "./types.ts";

/** Fields every new job carries (SPEC.md: progress 0, stage `initializing`). */
function newJobFields(ctx: PlatformContext) {
  return {
    status: "STARTING",
    maximum_runtime_seconds: ctx.settings.maximumRuntimeSeconds,
    progress: 0,
    stage: "initializing",
    stage_progress: 0,
    message: null,
  };
}

/** Finds the caller's `kind` whose id the body's `field` holds. */
type Lookup = (kind: KindName, field: string) => StoredRecord;

/** A {@linkcode Lookup} in `body`: an unknown or foreign id is a 404 naming the field. */
function lookupIn(
  ctx: PlatformContext,
  caller: Caller,
  body: Record<string, string>,
): Lookup {
  return (kind, field) =>
    findOwned(ctx.store, caller.account.id, kind, body[field], field);
}

/** The `compute_configuration_id` of the body, which must be of `type`. */
function computeOf(
  owned: Lookup,
  type: "PROCESSING" | "TRAINING",
): StoredRecord {
  const cc = owned("computeConfigurations", "compute_configuration_id");
  if (cc.body.compute_type !== type) {
    throw invalidField(
      "compute_configuration_id",
      `compute configuration "${cc.body.name}" is ${cc.body.compute_type}; this job needs a ${type} compute configuration`,
    );
  }
  return cc;
}

/** Refuses an input artifact that is not READY (409 saying what to wait for). */
function requireReady(
  record: StoredRecord,
  noun: string,
  producer: string,
): void {
  const status = record.body.status;
  if (status === "READY") return;
  throw conflict(
    status === "FAILED" || status === "CANCELLED"
      ? `The ${noun} ${record.id} is ${status} (${
        record.internal.failure ?? "see its job"
      }); create it again with a new ${producer}.`
      : `The ${noun} ${record.id} is ${status}: wait until its ${producer} is COMPLETED, then retry.`,
  );
}

/**
 * Marks an artifact READY with `patch`, or FAILED / CANCELLED (as its job
 * ended) with the job's message.
 */
function finishArtifact(
  ctx: PlatformContext,
  kind: string,
  id: string,
  failure: string | null,
  patch: Record<string, unknown>,
  outcome: JobOutcome = failure ? "FAILED" : "COMPLETED",
): void {
  if (outcome === "COMPLETED") {
    updateRecord(ctx.store, kind, id, { status: "READY", ...patch });
  } else {
    updateRecord(ctx.store, kind, id, { status: outcome }, { failure });
  }
}

/**
 * `POST /data-processing-ingestion-jobs`. The bucket file is checked first
 * (the only step that awaits); then every reference is looked up again and
 * the job and its datasource are inserted in one synchronous step, so a
 * concurrent delete of a referenced resource either wins (this create is a
 * 404) or loses (the delete is a 409 naming this job).
 */
export const createIngestionJob: CreateHandler = async (ctx, caller, body) => {
  const account = caller.account.id;
  const references = () => {
    const owned = lookupIn(ctx, caller, body);
    const cc = computeOf(owned, "PROCESSING");
    const ic = owned(
      "ingestionConfigurations",
      "data_processing_configuration_id",
    );
    const sc = owned("storageConnectors", "storage_connector_id");
    const schema = findOwned(
      ctx.store,
      account,
      "dataSchemas",
      (ic.body.data_schema as { id: string }).id,
    );
    return { cc, ic, sc, schema, bucket: String(sc.body.bucket_name) };
  };
  const file = await resolveDataPath(
    ctx.buckets,
    references().bucket,
    body.data_path,
  );
  // From here to the inserts: no await.
  const { cc, ic, sc, schema, bucket } = references();
  assertUniqueName(ctx.store, "ingestionJobs", account, body.name);
  assertUniqueName(ctx.store, "datasources", account, body.datasource_name);
  const fields = (schema.body.fields as SchemaField[]).map((
    { name, data_type, designation, semantic_type },
  ) => ({
    name,
    data_type,
    designation,
    semantic_type,
  }));
  const datasource = newRecord(ctx.store, caller, "datasources", {
    name: body.datasource_name,
    status: "PENDING",
    data_schema: refOf(schema),
    storage_connector: refOf(sc),
    data_path: body.data_path,
    row_count: null,
    columns: fields.map((f) => f.name),
  }, { fields });
  const job = newRecord(ctx.store, caller, "ingestionJobs", {
    job_type: body.job_type,
    name: body.name,
    compute_configuration: refOf(cc),
    data_processing_configuration: refOf(ic),
    storage_connector: refOf(sc),
    datasource: refOf(datasource),
    data_path: body.data_path,
    ...newJobFields(ctx),
  });
  ctx.store.putMany([datasource, job]);
  let rows = 0;
  ctx.runner.start(
    "ingestionJobs",
    job.id,
    ctx.settings.maximumRuntimeSeconds,
    ingestWork(ctx.store, {
      file,
      // Opened again at read time, checked on the opened handle (no window).
      read: (signal) =>
        readDataFile(ctx.buckets, bucket, body.data_path, signal),
      display: `"${body.data_path}" in bucket "${bucket}"`,
      fields,
      datasourceId: datasource.id,
    }, (n) => (rows = n)),
    (failure, outcome) =>
      finishArtifact(ctx, "datasources", datasource.id, failure, {
        row_count: rows,
      }, outcome),
  );
  return job;
};

/** `POST /data-processing-onboarding-jobs`: targets checked against the schema now. */
export const createOnboardingJob: CreateHandler = (ctx, caller, body) => {
  const account = caller.account.id;
  const owned = lookupIn(ctx, caller, body);
  const cc = computeOf(owned, "PROCESSING");
  const oc = owned(
    "onboardingConfigurations",
    "data_processing_configuration_id",
  );
  const source = owned("datasources", "datasource_id");
  requireReady(source, "datasource", "ingestion job");
  const fields = source.internal.fields as SchemaField[];
  const targets = oc.body.targets as string[];
  const where = `onboarding configuration "${oc.body.name}"`;
  if (targets.length !== 1) {
    throw invalidField(
      "data_processing_configuration_id",
      `${where} has ${targets.length} targets (${
        targets.join(", ")
      }); the local platform onboards exactly one target per dataset`,
    );
  }
  const target = fields.find((f) => f.name === targets[0]);
  if (!target) {
    throw invalidField(
      "data_processing_configuration_id",
      `target "${
        targets[0]
      }" of ${where} is not a column of the datasource's schema (${
        fields.map((f) => f.name).join(", ")
      })`,
    );
  }
  if (
    oc.body.prediction_type === "CLASSIFICATION" &&
    target.semantic_type !== "CATEGORICAL"
  ) {
    throw invalidField(
      "data_processing_configuration_id",
      `target "${target.name}" is ${target.semantic_type}; CLASSIFICATION needs a CATEGORICAL target (fix the schema or the targets of ${where})`,
    );
  }
  assertUniqueName(ctx.store, "onboardingJobs", account, body.name);
  assertUniqueName(ctx.store, "datasets", account, body.dataset_name);
  const dataset = newRecord(ctx.store, caller, "datasets", {
    name: body.dataset_name,
    status: "PENDING",
    datasource: refOf(source),
    data_processing_configuration: refOf(oc),
    row_count: null,
    targets,
  });
  const job = newRecord(ctx.store, caller, "onboardingJobs", {
    job_type: body.job_type,
    name: body.name,
    compute_configuration: refOf(cc),
    data_processing_configuration: refOf(oc),
    datasource: refOf(source),
    dataset: refOf(dataset),
    ...newJobFields(ctx),
  });
  ctx.store.putMany([dataset, job]);
  let patch: Record<string, unknown> = {};
  const c = oc.body as OnboardingConfiguration;
  ctx.runner.start(
    "onboardingJobs",
    job.id,
    ctx.settings.maximumRuntimeSeconds,
    onboardWork(ctx.store, {
      datasourceId: source.id,
      datasetId: dataset.id,
      fields,
      options: {
        targets,
        prediction_type: c.prediction_type,
        one_hot_encoding_max_categories: c.one_hot_encoding_max_categories,
        infrequency_threshold: c.infrequency_threshold,
        strip_categories: c.strip_categories,
        handle_unseen_categories: c.handle_unseen_categories,
        impute: c.impute,
      },
    }, (s) => {
      patch = {
        row_count: s.rows,
        dropped_rows: s.droppedRows,
        features: s.features,
        classes: { [s.target]: s.classes },
      };
    }),
    (failure, outcome) =>
      finishArtifact(ctx, "datasets", dataset.id, failure, patch, outcome),
  );
  return job;
};

/** `POST /training-jobs` (header `X-Active-Workspace`). */
export const createTrainingJob: CreateHandler = (
  ctx,
  caller,
  body,
  request,
) => {
  const account = caller.account.id;
  const workspaceId = request.headers.get("X-Active-Workspace")?.trim();
  if (!workspaceId) {
    throw invalidField(
      "X-Active-Workspace",
      "training jobs need the header X-Active-Workspace set to a workspace id (create one with POST /workspaces)",
    );
  }
  const ws = findOwned(
    ctx.store,
    account,
    "workspaces",
    workspaceId,
    "X-Active-Workspace",
  );
  const owned = lookupIn(ctx, caller, body);
  const dataset = owned("datasets", "dataset_id");
  requireReady(dataset, "dataset", "onboarding job");
  const tc = owned("trainingConfigurations", "training_configuration_id");
  const cc = computeOf(owned, "TRAINING");
  assertUniqueName(ctx.store, "trainingJobs", account, body.name);
  assertUniqueName(ctx.store, "models", account, body.model_name);
  const model = newRecord(ctx.store, caller, "models", {
    name: body.model_name,
    status: "PENDING",
    dataset: refOf(dataset),
    training_configuration: refOf(tc),
    workspace: refOf(ws),
    model_training_type: tc.body.model_training_type,
  });
  const job = newRecord(ctx.store, caller, "trainingJobs", {
    name: body.name,
    dataset: refOf(dataset),
    workspace: refOf(ws),
    training_configuration: refOf(tc),
    compute_configuration: refOf(cc),
    model: refOf(model),
    managed_spot_training: body.managed_spot_training,
    maximum_wait_time_seconds: 3600,
    model_constraints: [],
    model_constraint_groups: [],
    ...newJobFields(ctx),
  });
  // The model points back at its job; both are stored together.
  model.body.training_job = refOf(job);
  ctx.store.putMany([model, job]);
  let patch: Record<string, unknown> = {};
  ctx.runner.start(
    "trainingJobs",
    job.id,
    ctx.settings.maximumRuntimeSeconds,
    trainWork(ctx.store, {
      datasetId: dataset.id,
      modelId: model.id,
      params: tc.internal.params as Partial<TrainingParams>,
    }, (m, curve) => {
      patch = {
        features: m.features.map((f) => f.name),
        targets: [m.target],
        classes: { [m.target]: m.classes },
        terms: m.terms.map((t) => t.name),
        metrics: {
          validation_auc: m.metrics.validationAuc,
          validation_accuracy: m.metrics.validationAccuracy,
          validation_log_loss: m.metrics.validationLogLoss,
          train_log_loss: m.metrics.trainLogLoss,
          train_rows: m.metrics.trainRows,
          validation_rows: m.metrics.validationRows,
          validation_rmse: m.metrics.validationRmse ?? null,
          validation_mae: m.metrics.validationMae ?? null,
          validation_r2: m.metrics.validationR2 ?? null,
        },
        stop_reason: m.metrics.stopReason,
        learning_curve: curve,
      };
    }),
    (failure, outcome) =>
      finishArtifact(ctx, "models", model.id, failure, patch, outcome),
  );
  return job;
};

/** `POST /deployed-models`: the model must be READY; it loads in the background. */
export const createDeployedModel: CreateHandler = (ctx, caller, body) => {
  const owned = lookupIn(ctx, caller, body);
  const model = owned("models", "model_id");
  requireReady(model, "model", "training job");
  const dc = owned("deploymentConfigurations", "deployment_configuration_id");
  const record = createRecord(ctx.store, caller, "deployedModels", {
    name: body.name,
    status: "STARTING",
    model: refOf(model),
    deployment_configuration: refOf(dc),
    tags: [],
    message: null,
  });
  ctx.serving.deploy(record.id);
  return record;
};

/** Statuses after which a job does not change any more. */
const ENDED = new Set(["COMPLETED", "FAILED", "CANCELLED"]);

/**
 * `POST /{job collection}/{id}/cancel` (our extension of SPEC.md): stops a
 * STARTING or RUNNING job, which ends `CANCELLED` with a message, and its
 * datasource, dataset or model with it; a job that has ended is a 409.
 */
export async function cancelJob(
  ctx: PlatformContext,
  caller: Caller,
  kind: "ingestionJobs" | "onboardingJobs" | "trainingJobs",
  id: string,
): Promise<StoredRecord> {
  const record = findOwned(ctx.store, caller.account.id, kind, id);
  const status = String(record.body.status);
  if (ENDED.has(status)) {
    throw conflict(
      `The job ${id} has already ended (${status}); only a STARTING or RUNNING job can be cancelled.`,
    );
  }
  const message = `Cancelled at ${
    new Date().toISOString()
  } by a client request; start a new job to run it again.`;
  if (!await ctx.runner.cancel(kind, id, message)) {
    // Not running in this process (left over from a previous run): end it here.
    updateRecord(ctx.store, kind, id, { status: "CANCELLED", message });
    const output = OUTPUTS[kind];
    const ref = record.body[output.field] as { id: string } | undefined;
    if (ref) {
      finishArtifact(ctx, output.kind, ref.id, message, {}, "CANCELLED");
    }
  }
  return findOwned(ctx.store, caller.account.id, kind, id);
}

/** What each kind of job produces: the field naming it and its collection. */
const OUTPUTS = {
  ingestionJobs: { field: "datasource", kind: "datasources" },
  onboardingJobs: { field: "dataset", kind: "datasets" },
  trainingJobs: { field: "model", kind: "models" },
} as const;

/** A running job cannot be deleted (409 saying to wait). */
export function refuseRunningJob(
  ctx: PlatformContext,
  record: StoredRecord,
): void {
  if (ctx.runner.isRunning(record.kind, record.id)) {
    throw conflict(
      `The job ${record.id} is ${record.body.status}; wait until it is COMPLETED or FAILED, then delete it.`,
    );
  }
}
