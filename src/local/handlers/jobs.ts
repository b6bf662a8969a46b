/**
 * Create handlers of the three jobs (ingestion, onboarding, training): check
 * every referenced resource, refuse what cannot work (400 naming the field,
 * 409 while an input is not ready), create the job `STARTING` together with
 * the artifact it will produce, and start the work in the background.
 *
 * @module
 */
import {
  type JobKindName,
  type KindName,
  KINDS,
} from "../../schemas/routes.ts";
import type { Caller } from "../http/auth.ts";
import type { PlatformContext } from "../context.ts";
import { conflict, invalidField } from "../errors.ts";
import type { JobOutcome, JobWork } from "../jobs/runner.ts";
import { ingestWork } from "../jobs/ingest.ts";
import { onboardWork } from "../jobs/onboard.ts";
import { derivedFeatures } from "../model/dates.ts";
import { inputColumns } from "../model/encoder.ts";
import { trainWork } from "../jobs/train.ts";
import { constraintFields, resolveConstraints } from "./constraints.ts";
import { readDataBytes, resolveDataPath } from "../store/buckets.ts";
import {
  assertUniqueName,
  createRecord,
  findOwned,
  idOf,
  type NewFields,
  newRecord,
  refOf,
  updateRecord,
} from "../store/records.ts";
import type { Internal, Resources, StoredRecord } from "../store/store.ts";
import type { Op, Reply, SharedInput } from "./types.ts";
import type { z } from "zod";
import type { processingJobCreateFields } from "../../schemas/jobs.ts";

/** Fields every new job carries (docs/api.md#resources: progress 0, stage `initializing`). */
export function newJobFields(ctx: PlatformContext) {
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
function lookupIn(
  ctx: PlatformContext,
  caller: Caller,
  body: Record<string, unknown>,
) {
  return <K extends KindName>(kind: K, field: string): StoredRecord<K> =>
    findOwned(ctx.store, caller.account.id, kind, String(body[field]), field);
}

/** The `compute_configuration_id` of the body, which must be of `type`. */
function computeOf(
  owned: ReturnType<typeof lookupIn>,
  type: "PROCESSING" | "TRAINING",
): StoredRecord<"computeConfigurations"> {
  const cc = owned("computeConfigurations", "compute_configuration_id");
  if (cc.body.compute_type !== type) {
    throw invalidField(
      "compute_configuration_id",
      `compute configuration "${cc.body.name}" is ${cc.body.compute_type}; this job needs a ${type} compute configuration`,
    );
  }
  return cc;
}

/** What every data processing job's create body names (`processingJobCreateFields`). */
type ProcessingJobBody = z.output<
  z.ZodObject<typeof processingJobCreateFields>
>;

/** The configurations a data processing job runs with. */
type ProcessingConfigurationKind =
  | "ingestionConfigurations"
  | "onboardingConfigurations";

/**
 * What a data processing job (ingestion, onboarding) names besides its own
 * inputs: its PROCESSING compute configuration and its `kind` of processing
 * configuration, and the fields its job body starts with.
 */
function processingInputs<K extends ProcessingConfigurationKind>(
  { ctx, caller, body }: SharedInput<unknown, ProcessingJobBody>,
  kind: K,
) {
  const owned = lookupIn(ctx, caller, body);
  const cc = computeOf(owned, "PROCESSING");
  const config = owned(kind, "data_processing_configuration_id");
  const jobFields = {
    job_type: body.job_type,
    name: body.name,
    compute_configuration: refOf(cc),
    data_processing_configuration: refOf(config),
  };
  return { owned, config, jobFields };
}

/** Refuses an input artifact that is not READY (409 saying what to wait for). */
function requireReady(
  record: StoredRecord<ArtifactKind>,
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

/** The kind of what a job of kind `J` produces. */
type ArtifactOf<J extends JobKindName> = typeof KINDS[J]["produces"]["kind"];
/** The kinds jobs produce (datasources, datasets, models). */
type ArtifactKind = ArtifactOf<JobKindName>;

/**
 * Marks an artifact READY with `patch`, or FAILED / CANCELLED (as its job
 * ended) with the job's message.
 */
function finishArtifact(
  ctx: PlatformContext,
  kind: ArtifactKind,
  id: string,
  failure: string | null,
  patch: Partial<Resources[ArtifactKind]>,
  outcome: JobOutcome = failure ? "FAILED" : "COMPLETED",
): void {
  if (outcome === "COMPLETED") {
    updateRecord(ctx.store, kind, id, { ...patch, status: "READY" });
  } else {
    updateRecord(ctx.store, kind, id, { status: outcome }, { failure });
  }
}

/** What one job-create handler decides; {@linkcode launchJob} does the rest. */
export interface JobPlan<J extends JobKindName> {
  /** The job's kind. */
  kind: J;
  /** The job's name (checked free before anything is built). */
  name: string;
  /** The artifact's fields (`status: "PENDING"`); checked free by name. */
  artifact: NewFields<ArtifactOf<J>>;
  /** The artifact's server-only fields. */
  internal?: Internal;
  /** The job's fields, given the artifact's `{ id, name }`; checked free by name. */
  job: (artifact: { id: string; name: string }) => NewFields<J>;
  /** Links the two records before they are stored (the model names its job). */
  link?: (artifact: StoredRecord<ArtifactOf<J>>, job: StoredRecord<J>) => void;
  /**
   * The job's work, given the artifact's id and `done`, which the work calls
   * with the artifact's fields once it has them (stored if the job completes).
   */
  work: (
    artifactId: string,
    done: (result: Partial<Resources[ArtifactOf<J>]>) => void,
  ) => JobWork;
}

/**
 * The job-create skeleton every job shares, in one synchronous step after
 * the handler's checks: both names free, the artifact `PENDING` and the job
 * `STARTING` built, both stored together (all or none), the work started in
 * the background, and the artifact finished as the job ends.
 */
export function launchJob<J extends JobKindName>(
  ctx: PlatformContext,
  caller: Caller,
  plan: JobPlan<J>,
): Reply<Resources[J]> {
  const account = caller.account.id;
  const artifactKind: ArtifactOf<J> = KINDS[plan.kind].produces.kind;
  assertUniqueName(ctx.store, plan.kind, account, plan.name);
  const artifact = newRecord(
    ctx.store,
    caller,
    artifactKind,
    plan.artifact,
    plan.internal,
  );
  const job = newRecord(
    ctx.store,
    caller,
    plan.kind,
    plan.job(refOf(artifact)),
  );
  plan.link?.(artifact, job);
  ctx.store.putMany([artifact, job]);
  let result: Partial<Resources[ArtifactOf<J>]> = {};
  ctx.runner.start(
    plan.kind,
    job.id,
    ctx.settings.maximumRuntimeSeconds,
    plan.work(artifact.id, (fields) => (result = fields)),
    (failure, outcome) =>
      finishArtifact(
        ctx,
        artifactKind,
        artifact.id,
        failure,
        outcome === "COMPLETED" ? result : {},
        outcome,
      ),
  );
  return { body: job.body };
}

/**
 * `POST /data-processing-ingestion-jobs`. The bucket file is checked first
 * (the only step that awaits); then every reference is looked up again and
 * the job and its datasource are inserted in one synchronous step, so a
 * concurrent delete of a referenced resource either wins (this create is a
 * 404) or loses (the delete is a 409 naming this job).
 */
export const createIngestionJob: Op<"ingestionJobs", "create"> = async (
  input,
) => {
  const { ctx, caller, body } = input;
  const references = () => {
    const { owned, config: ic, jobFields } = processingInputs(
      input,
      "ingestionConfigurations",
    );
    const sc = owned("storageConnectors", "storage_connector_id");
    const schema = findOwned(
      ctx.store,
      caller.account.id,
      "dataSchemas",
      ic.body.data_schema.id,
    );
    return { jobFields, sc, schema, bucket: String(sc.body.bucket_name) };
  };
  const file = await resolveDataPath(
    ctx.buckets,
    references().bucket,
    body.data_path,
  );
  // From here to the inserts: no await.
  const { jobFields, sc, schema, bucket } = references();
  const fields = schema.body.fields.map((
    { name, data_type, designation, semantic_type },
  ) => ({ name, data_type, designation, semantic_type }));
  return launchJob(ctx, caller, {
    kind: "ingestionJobs",
    name: body.name,
    artifact: {
      name: body.datasource_name,
      status: "PENDING",
      data_schema: refOf(schema),
      storage_connector: refOf(sc),
      data_path: body.data_path,
      row_count: null,
      columns: fields.map((f) => f.name),
    },
    internal: { fields },
    job: (datasource) => ({
      ...jobFields,
      storage_connector: refOf(sc),
      datasource,
      data_path: body.data_path,
      ...newJobFields(ctx),
    }),
    work: (datasourceId, done) =>
      ingestWork(ctx.store, {
        file,
        // Opened again at read time, checked on the opened handle (no window).
        read: (signal) =>
          readDataBytes(ctx.buckets, bucket, body.data_path, signal),
        display: `"${body.data_path}" in bucket "${bucket}"`,
        fields,
        datasourceId,
      }, (rows) => done({ row_count: rows })),
  });
};

/** `POST /data-processing-onboarding-jobs`: targets checked against the schema now. */
export const createOnboardingJob: Op<"onboardingJobs", "create"> = (
  input,
) => {
  const { ctx, caller, body } = input;
  const { owned, config: oc, jobFields } = processingInputs(
    input,
    "onboardingConfigurations",
  );
  const source = owned("datasources", "datasource_id");
  requireReady(source, "datasource", "ingestion job");
  const fields = source.internal.fields ?? [];
  const c = oc.body;
  const targets = c.targets;
  const where = `onboarding configuration "${c.name}"`;
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
    c.prediction_type === "CLASSIFICATION" &&
    target.semantic_type !== "CATEGORICAL"
  ) {
    throw invalidField(
      "data_processing_configuration_id",
      `target "${target.name}" is ${target.semantic_type}; CLASSIFICATION needs a CATEGORICAL target (fix the schema or the targets of ${where})`,
    );
  }
  return launchJob(ctx, caller, {
    kind: "onboardingJobs",
    name: body.name,
    artifact: {
      name: body.dataset_name,
      status: "PENDING",
      datasource: refOf(source),
      data_processing_configuration: refOf(oc),
      row_count: null,
      targets,
    },
    job: (dataset) => ({
      ...jobFields,
      datasource: refOf(source),
      dataset,
      ...newJobFields(ctx),
    }),
    work: (datasetId, done) =>
      onboardWork(ctx.store, {
        datasourceId: source.id,
        datasetId,
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
      }, (s) =>
        done({
          row_count: s.rows,
          dropped_rows: s.droppedRows,
          features: s.features,
          classes: { [s.target]: s.classes },
        })),
  });
};

/** `POST /training-jobs` (header `X-Active-Workspace`). */
export const createTrainingJob: Op<"trainingJobs", "create"> = (
  { ctx, caller, body, request },
) => {
  const workspaceId = request.headers.get("X-Active-Workspace")?.trim();
  if (!workspaceId) {
    throw invalidField(
      "X-Active-Workspace",
      "training jobs need the header X-Active-Workspace set to a workspace id (create one with POST /workspaces)",
    );
  }
  const ws = findOwned(
    ctx.store,
    caller.account.id,
    "workspaces",
    workspaceId,
    "X-Active-Workspace",
  );
  const owned = lookupIn(ctx, caller, body);
  const dataset = owned("datasets", "dataset_id");
  requireReady(dataset, "dataset", "onboarding job");
  const tc = owned("trainingConfigurations", "training_configuration_id");
  const cc = computeOf(owned, "TRAINING");
  const constraints = resolveConstraints(ctx, dataset, body);
  return launchJob(ctx, caller, {
    kind: "trainingJobs",
    name: body.name,
    artifact: {
      name: body.model_name,
      status: "PENDING",
      dataset: refOf(dataset),
      training_configuration: refOf(tc),
      workspace: refOf(ws),
      model_training_type: tc.body.model_training_type,
    },
    // What the model is trained under while it is PENDING: its schema's
    // protections cannot be deleted meanwhile (constraint_resources.ts).
    internal: { protected: constraints.model?.protected ?? [] },
    job: (model) => ({
      name: body.name,
      dataset: refOf(dataset),
      workspace: refOf(ws),
      training_configuration: refOf(tc),
      compute_configuration: refOf(cc),
      model,
      managed_spot_training: body.managed_spot_training,
      maximum_wait_time_seconds: 3600,
      model_constraints: constraints.model_constraints,
      model_constraint_groups: constraints.model_constraint_groups,
      measure_constraint_cost: constraints.measureCost,
      ...newJobFields(ctx),
    }),
    // The model points back at its job; both are stored together.
    link: (model, job) => {
      model.body.training_job = refOf(job);
    },
    work: (modelId, done) =>
      trainWork(ctx.store, {
        datasetId: dataset.id,
        modelId,
        params: tc.internal.params ?? {},
        constraints: constraints.model,
        measureCost: constraints.measureCost,
      }, (m, curve, extras) => {
        const derived = derivedFeatures(m.encoder);
        return done({
          // The input columns a view gives (a date column once).
          features: inputColumns(m.encoder),
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
            // Configurations the inner-validation search compared (1: none).
            candidates: m.metrics.candidates ?? 1,
            // The pairs model's weight in the model served (mix.ts; absent
            // when the search did not compare pairs with none).
            ...(m.metrics.pairsWeight !== undefined
              ? { pairs_weight: m.metrics.pairsWeight }
              : {}),
            // Main terms a greedy round stepped, when the search chose
            // greedy rounds (wide tables; absent for cyclic rounds).
            ...(m.metrics.greedyTerms !== undefined
              ? { greedy_terms: m.metrics.greedyTerms }
              : {}),
          },
          // Per class: its one-vs-rest validation AUC (classification;
          // null without validation rows, as for a class they lack).
          ...(m.classes.length
            ? {
              class_metrics: m.classes.map((c, k) => ({
                class: c,
                validation_auc: m.metrics.validationClassAuc?.[k] ?? null,
              })),
            }
            : {}),
          // Schema features the model could not use, and why.
          ...(m.encoder.dropped
            ? {
              dropped_features: m.encoder.dropped.map((d) => ({
                name: d.name,
                reason: d.reason,
              })),
            }
            : {}),
          // Features the model derived from a date column (dates.ts).
          ...(derived.length ? { derived_features: derived } : {}),
          stop_reason: m.metrics.stopReason,
          // Regression: how the prediction follows from the explanation.
          ...(m.task === "regression" ? { link: m.link ?? "identity" } : {}),
          // Which rows `metrics` validated on:
          // docs/contract.md#model-validation-rows.
          ...(m.validation
            ? {
              validation: {
                rule: m.validation.rule,
                seed: m.validation.seed,
                training_size: m.validation.trainingSize,
                validation_size: m.validation.validationSize,
                rows: m.validation.count,
                row_indices: m.validation.rows,
              },
            }
            : {}),
          learning_curve: curve,
          ...constraintFields(extras),
        });
      }),
  });
};

/** `POST /deployed-models`: the model must be READY; it loads in the background. */
export const createDeployedModel: Op<"deployedModels", "create"> = (
  { ctx, caller, body },
) => {
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
  return { body: record.body };
};

/** Statuses after which a job does not change any more. */
const ENDED = new Set(["COMPLETED", "FAILED", "CANCELLED"]);

/**
 * `POST /{job collection}/{id}/cancel` (our extension of the published API, docs/contract.md#jobs-and-deployments): stops a
 * STARTING or RUNNING job, which ends `CANCELLED` with a message, and its
 * datasource, dataset or model with it; a job that has ended is a 409.
 *
 * @example
 * ```ts
 * import { cancelJob } from "./jobs.ts";
 * const cancelIngestion = cancelJob("ingestionJobs");
 * if (typeof cancelIngestion !== "function") throw new Error();
 * ```
 */
export function cancelJob<J extends JobKindName>(
  kind: J,
): (input: SharedInput<{ id: string }>) => Promise<Reply<Resources[J]>> {
  return async ({ ctx, caller, params: { id } }) => {
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
      const jobKind: JobKindName = kind;
      updateRecord(ctx.store, jobKind, id, { status: "CANCELLED", message });
      const produces = KINDS[kind].produces;
      const ref = idOf(record.body[produces.field]);
      if (ref) {
        finishArtifact(ctx, produces.kind, ref, message, {}, "CANCELLED");
      }
    }
    return { body: findOwned(ctx.store, caller.account.id, kind, id).body };
  };
}

/**
 * A running job cannot be deleted (409 saying to wait).
 *
 * @example
 * ```ts
 * import { refuseRunningJob } from "./jobs.ts";
 * import { uncheckedRecord } from "../../../tests/_helpers/records.ts";
 * const ctx = { runner: { isRunning: () => true } };
 * const record = uncheckedRecord({ kind: "trainingJobs", id: "tj_1", account: "a", body: { status: "RUNNING" } });
 * let status = 0;
 * try { refuseRunningJob(ctx as never, record); } catch (e) { status = e instanceof Error && "status" in e ? Number(e.status) : 0; }
 * if (status !== 409) throw new Error();
 * ```
 */
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
