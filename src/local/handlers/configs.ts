/**
 * Create handlers of the resources that are plain configuration: storage
 * connectors, compute, data schemas, ingestion and onboarding
 * configurations, workspaces, training and deployment configurations.
 *
 * @module
 */
import { checkBucket } from "../store/buckets.ts";
import { invalidField } from "../errors.ts";
import {
  createRecord,
  findOwned,
  type NewFields,
  refOf,
} from "../store/records.ts";
import { newId, timestamp } from "../ids.ts";
import { ModelParamError } from "../model/errors.ts";
import { resolveParams, type TrainingParams } from "../model/params.ts";
import { hyperparameterShape } from "../../schemas/mod.ts";
import type { KindName } from "../../schemas/routes.ts";
import type { Resources } from "../store/store.ts";
import type { Op, Reply, SharedInput } from "./types.ts";
import { initialLabels } from "./labels.ts";
import { protectionsOf } from "./constraints.ts";

/** A created record's answer: its body. */
function created<B>(record: { body: B }): Reply<B> {
  return { body: record.body };
}

/** `POST /storage-connectors`: the bucket must be one this platform serves. */
export const createStorageConnector: Op<"storageConnectors", "create"> = (
  { ctx, caller, body },
) => {
  checkBucket(ctx.buckets, body.bucket_name);
  return created(createRecord(ctx.store, caller, "storageConnectors", {
    name: body.name,
    bucket_name: body.bucket_name,
  }));
};

/**
 * The create of a kind whose resource is its request body as given, plus
 * the fields every resource carries.
 *
 * @example
 * ```ts
 * import { storedAsGiven } from "./configs.ts";
 * if (typeof storedAsGiven("workspaces") !== "function") throw new Error();
 * ```
 */
export function storedAsGiven<K extends KindName>(
  kind: K,
): (
  input: SharedInput<Record<never, string>, NewFields<K>>,
) => Reply<Resources[K]> {
  return ({ ctx, caller, body }) =>
    created(createRecord(ctx.store, caller, kind, { ...body }));
}

/** `POST /compute-configurations`. */
export const createComputeConfiguration = storedAsGiven(
  "computeConfigurations",
);

/** `POST /data-schemas`: every field gets an id and its response-only fields. */
export const createDataSchema: Op<"dataSchemas", "create"> = (
  { ctx, caller, body },
) => {
  const created_at = timestamp();
  const fields = body.fields.map((f) => ({
    id: newId("fld"),
    ...f,
    dimension: null,
    unit: null,
    vector: false,
    created_at,
    updated_at: null,
    created_by: { ...caller.user },
  }));
  return created(createRecord(ctx.store, caller, "dataSchemas", {
    name: body.name,
    ...initialLabels(body, fields, caller, created_at),
    data_protections: protectionsOf(body.data_protections),
  }));
};

/** `POST /data-processing-ingestion-configurations`. */
export const createIngestionConfiguration: Op<
  "ingestionConfigurations",
  "create"
> = ({ ctx, caller, body }) => {
  const schema = findOwned(
    ctx.store,
    caller.account.id,
    "dataSchemas",
    body.data_schema_id,
    "data_schema_id",
  );
  return created(createRecord(ctx.store, caller, "ingestionConfigurations", {
    name: body.name,
    data_schema: refOf(schema),
    // docs/api.md#resources lists these (strings) without values; ours describe a CSV read row by row.
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
  }));
};

/** `POST /data-processing-onboarding-configurations` (defaults from the schema). */
export const createOnboardingConfiguration = storedAsGiven(
  "onboardingConfigurations",
);

/** `POST /workspaces`. */
export const createWorkspace: Op<"workspaces", "create"> = (
  { ctx, caller, body },
) =>
  created(createRecord(ctx.store, caller, "workspaces", { name: body.name }));

/**
 * `POST /training-configurations`: hyperparameters resolved against the
 * model's defaults (echoed), the ones the model ignores listed in
 * `unused_parameters`.
 */
export const createTrainingConfiguration: Op<
  "trainingConfigurations",
  "create"
> = ({ ctx, caller, body }) => {
  const given: Record<string, unknown> = {};
  const sent = new Map(Object.entries(body));
  for (const key of Object.keys(hyperparameterShape)) {
    const value = sent.get(key);
    if (value !== undefined) {
      given[key === "random_seed" ? "seed" : key] = value;
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
  const { seed, ...params } = resolved.params;
  // What was given, validated, and no more: training resolves the defaults
  // itself and searches (bins, pairs) only what was not given.
  const chosen: Partial<TrainingParams> = {};
  for (const [key, value] of Object.entries(resolved.params)) {
    if (Object.hasOwn(given, key)) Object.assign(chosen, { [key]: value });
  }
  return created(createRecord(
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
    { params: chosen },
  ));
};

/** `POST /deployment-configurations`. */
export const createDeploymentConfiguration = storedAsGiven(
  "deploymentConfigurations",
);
