/**
 * Create handlers of the resources that are plain configuration: storage
 * connectors, compute, data schemas, ingestion and onboarding
 * configurations, workspaces, training and deployment configurations.
 *
 * @module
 */
import { checkBucket } from "../store/buckets.ts";
import { invalidField } from "../http/http_errors.ts";
import { createRecord, findOwned, refOf } from "../store/records.ts";
import { timestamp } from "../ids.ts";
import { newId } from "../ids.ts";
import { ModelParamError } from "../model/errors.ts";
import { resolveParams } from "../model/params.ts";
import { hyperparameterShape } from "../../schemas/mod.ts";
import type { CreateHandler } from "./types.ts";

/** `POST /storage-connectors`: the bucket must be one this platform serves. */
export const createStorageConnector: CreateHandler = (ctx, caller, body) => {
  checkBucket(ctx.buckets, body.bucket_name);
  return createRecord(ctx.store, caller, "storageConnectors", {
    name: body.name,
    bucket_name: body.bucket_name,
  });
};

/** `POST /compute-configurations`. */
export const createComputeConfiguration: CreateHandler = (ctx, caller, body) =>
  createRecord(ctx.store, caller, "computeConfigurations", { ...body });

/** `POST /data-schemas`: every field gets an id and its response-only fields. */
export const createDataSchema: CreateHandler = (ctx, caller, body) => {
  const created_at = timestamp();
  const fields = (body.fields as Record<string, unknown>[]).map((f) => ({
    id: newId("fld"),
    ...f,
    dimension: null,
    unit: null,
    vector: false,
    created_at,
    updated_at: null,
    created_by: { ...caller.user },
  }));
  return createRecord(ctx.store, caller, "dataSchemas", {
    name: body.name,
    fields,
    friendly_names: [],
    category_friendly_names: [],
    data_anchors: [],
    data_protections: [],
  });
};

/** `POST /data-processing-ingestion-configurations`. */
export const createIngestionConfiguration: CreateHandler = (
  ctx,
  caller,
  body,
) => {
  const schema = findOwned(
    ctx.store,
    caller.account.id,
    "dataSchemas",
    body.data_schema_id,
    "data_schema_id",
  );
  return createRecord(ctx.store, caller, "ingestionConfigurations", {
    name: body.name,
    data_schema: refOf(schema),
    // SPEC.md lists these as strings without values; ours describe a CSV read row by row.
    observation_specification: {
      observation_type: "TABULAR",
      observation_source: "CSV",
      observation_shard_id: "0",
      observation_file_index: "0",
      observation_index: "row",
      observation_mask_index: "none",
      observation_mask_file_index: "none",
      observation_increment_index: "none",
    },
  });
};

/** `POST /data-processing-onboarding-configurations` (defaults from the schema). */
export const createOnboardingConfiguration: CreateHandler = (
  ctx,
  caller,
  body,
) => createRecord(ctx.store, caller, "onboardingConfigurations", { ...body });

/** `POST /workspaces`. */
export const createWorkspace: CreateHandler = (ctx, caller, body) =>
  createRecord(ctx.store, caller, "workspaces", { name: body.name });

/**
 * `POST /training-configurations`: hyperparameters resolved against the
 * model's defaults (echoed), the ones the model ignores listed in
 * `unused_parameters`.
 */
export const createTrainingConfiguration: CreateHandler = (
  ctx,
  caller,
  body,
) => {
  const given: Record<string, unknown> = {};
  for (const key of Object.keys(hyperparameterShape)) {
    if (body[key] !== undefined) {
      given[key === "random_seed" ? "seed" : key] = body[key];
    }
  }
  let resolved;
  try {
    resolved = resolveParams(given);
  } catch (error) {
    if (error instanceof ModelParamError) {
      const path = error.column === "seed" ? "random_seed" : error.column ?? "";
      throw invalidField(path, error.message);
    }
    throw error;
  }
  const { seed, ...params } = resolved.params as unknown as Record<
    string,
    unknown
  >;
  return createRecord(
    ctx.store,
    caller,
    "trainingConfigurations",
    {
      name: body.name,
      model_training_type: body.model_training_type,
      ...params,
      random_seed: seed,
      model_capabilities: {
        has_causal: false,
        estimators_data: false,
        ...body.model_capabilities,
      },
      unused_parameters: resolved.unused.map((p) =>
        p === "seed" ? "random_seed" : p
      ),
    },
    { params: resolved.params },
  );
};

/** `POST /deployment-configurations`. */
export const createDeploymentConfiguration: CreateHandler = (
  ctx,
  caller,
  body,
) => createRecord(ctx.store, caller, "deploymentConfigurations", { ...body });
