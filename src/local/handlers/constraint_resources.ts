/**
 * A data schema's protections and a training job's constraints as
 * sub-resources (docs/contract.md#model-constraints-and-protected-fields):
 * list, get and delete under their parent (a protection also created), and
 * the integrity rule on both sides: what a model was trained under cannot
 * be deleted while the model exists, and a schema or a training job cannot
 * be deleted before its protections or constraints.
 *
 * @module
 */
import type { z } from "zod";
import type {
  DataProtection,
  DataProtectionCreateSchema,
  Dependant,
} from "../../schemas/mod.ts";
import type { PlatformContext } from "../context.ts";
import type { Caller } from "../http/auth.ts";
import {
  conflict,
  integrityError,
  notFound,
  validationError,
} from "../errors.ts";
import { findOwned, updateRecord } from "../store/records.ts";
import type { StoredRecord } from "../store/store.ts";
import { protectionsOf } from "./constraints.ts";
import { schemaOfModel } from "./labels.ts";
import { type Params, subCollection } from "./sub_collection.ts";
import type { Reply, SharedInput } from "./types.ts";

type Protection = DataProtection;

/** A model as a dependant. */
function modelDependant(model: StoredRecord<"models">): Dependant {
  return {
    id: model.id,
    name: String(model.body.name ?? ""),
    dependant_type: "MODEL",
  };
}

/**
 * The protected fields a model is trained under: those its `group_metrics`
 * name, or while it is still being trained (`PENDING`), those of its
 * schema when its training job was created (the training reads them then,
 * and its record names them once it ends).
 */
function protectedUnder(model: StoredRecord<"models">): string[] {
  if (model.body.status === "PENDING") return model.internal.protected ?? [];
  return (model.body.group_metrics ?? []).map((g) => g.field);
}

/**
 * The models of the account trained (or being trained) on `schemaId`
 * under any of `fields`.
 */
function trainedUnder(
  ctx: PlatformContext,
  account: string,
  schemaId: string,
  fields: string[],
): Dependant[] {
  return ctx.store.list("models", account)
    .filter((m) =>
      protectedUnder(m).some((f) => fields.includes(f)) &&
      schemaOfModel(ctx, m.id)?.id === schemaId
    )
    .map(modelDependant);
}

const schemaOf = (ctx: PlatformContext, caller: Caller, params: Params) =>
  findOwned(ctx.store, caller.account.id, "dataSchemas", params.id);
const protectionsIn = (schema: StoredRecord<"dataSchemas">) =>
  (schema.body.data_protections ?? []) as Protection[];
const jobOf = (ctx: PlatformContext, caller: Caller, params: Params) =>
  findOwned(ctx.store, caller.account.id, "trainingJobs", params.id);

/** The model a training job made, while it exists. */
function madeModel(
  ctx: PlatformContext,
  job: StoredRecord<"trainingJobs">,
): Dependant[] {
  const id = job.body.model?.id;
  const model = id ? ctx.store.get("models", id) : undefined;
  return model ? [modelDependant(model)] : [];
}

/** `POST /data-schemas/{id}/data-protections`. */
function createProtection(
  { ctx, caller, params, body }: SharedInput<
    { id: string },
    z.output<typeof DataProtectionCreateSchema>
  >,
): Reply<never> {
  const schema = schemaOf(ctx, caller, params);
  const byName = new Map(schema.body.fields.map((f) => [f.name, f]));
  const invalid = body.fields.flatMap((name, j) => {
    const f = byName.get(name);
    return f && f.designation === "FEATURE" ? [] : [{
      path: `fields.${j}`,
      message: f
        ? `"${name}" is the ${f.designation}: only FEATURE fields can be protected`
        : `"${name}" is not a field of this schema`,
    }];
  });
  if (invalid.length) throw validationError(invalid);
  const taken = new Set(
    protectionsIn(schema).flatMap((p) => p.protected_fields.map((f) => f.name)),
  );
  const again = body.fields.find((name) => taken.has(name));
  if (again) {
    throw conflict(
      `data protection: "${again}" is already protected in this schema`,
    );
  }
  const [made] = protectionsOf([body]);
  updateRecord(ctx.store, "dataSchemas", schema.id, {
    data_protections: [...protectionsIn(schema), made],
  });
  return { body: made as never };
}

const protections = subCollection({
  noun: "data protection",
  param: "protection_id",
  parent: schemaOf,
  items: protectionsIn,
  blockers: (ctx, schema, p: Protection) =>
    trainedUnder(
      ctx,
      schema.account,
      schema.id,
      p.protected_fields.map((f) => f.name),
    ),
  remove: (ctx, schema, p) =>
    updateRecord(ctx.store, "dataSchemas", schema.id, {
      data_protections: protectionsIn(schema).filter((q) => q.id !== p.id),
    }),
});

const protectedFields = subCollection({
  noun: "protected field",
  param: "field_id",
  parent: schemaOf,
  items: (schema, params) => {
    const p = protectionsIn(schema).find((q) => q.id === params.protection_id);
    if (!p) throw notFound("data protection", params.protection_id);
    return p.protected_fields;
  },
  blockers: (ctx, schema, f) =>
    trainedUnder(ctx, schema.account, schema.id, [f.name]),
  remove: (ctx, schema, f, params) => {
    const all = protectionsIn(schema);
    const p = all.find((q) => q.id === params.protection_id)!;
    if (p.protected_fields.length === 1) {
      throw conflict(
        `protected field ${f.id} is the last field of data protection ${p.id}: delete the protection instead`,
      );
    }
    updateRecord(ctx.store, "dataSchemas", schema.id, {
      data_protections: all.map((q) =>
        q.id === p.id
          ? {
            ...q,
            protected_fields: q.protected_fields.filter((g) => g.id !== f.id),
          }
          : q
      ),
    });
  },
});

/** The constraints or the groups of a training job, as a sub-collection. */
function jobArray(
  array: "model_constraints" | "model_constraint_groups",
  noun: string,
  param: string,
) {
  return subCollection({
    noun,
    param,
    parent: jobOf,
    items: (job) => (job.body[array] ?? []) as { id: string }[],
    blockers: (ctx, job) => madeModel(ctx, job),
    remove: (ctx, job, item) =>
      updateRecord(ctx.store, "trainingJobs", job.id, {
        [array]: (job.body[array] ?? []).filter((c) => c.id !== item.id),
      }),
  });
}

/** Every protection and constraint collection's operations, as the handlers table groups them. */
export const constraintHandlers = {
  dataProtections: { ...protections, create: createProtection },
  dataProtectedFields: protectedFields,
  modelConstraints: jobArray(
    "model_constraints",
    "model constraint",
    "constraint_id",
  ),
  modelConstraintGroups: jobArray(
    "model_constraint_groups",
    "model constraint group",
    "group_id",
  ),
};

/** A schema's protections, each with its fields, as dependants. */
export function protectionDependants(
  protections: readonly Protection[] | undefined,
): Dependant[] {
  return (protections ?? []).flatMap((p): Dependant[] => [
    {
      id: p.id,
      name: p.name ?? p.protected_fields.map((f) => f.name).join(", "),
      dependant_type: "DATA_PROTECTION",
    },
    ...p.protected_fields.map((f) => ({
      id: f.id,
      name: f.name,
      dependant_type: "DATA_PROTECTED_FIELD" as const,
    })),
  ]);
}

/** A training job's constraints and groups as dependants. */
function constraintDependants(job: StoredRecord<"trainingJobs">): Dependant[] {
  return [
    ...(job.body.model_constraints ?? []).map((c): Dependant => ({
      id: c.id,
      name: `${c.field} ${c.constraint_type}`,
      dependant_type: "MODEL_CONSTRAINT",
    })),
    ...(job.body.model_constraint_groups ?? []).map((g): Dependant => ({
      id: g.id,
      name: g.name ?? g.fields.join(", "),
      dependant_type: "MODEL_CONSTRAINT_GROUP",
    })),
  ];
}

/**
 * The training job delete's step after the running check: a job with
 * constraints answers 409 listing them with its other dependants.
 */
export function refuseConstrained(
  others: Dependant[],
  record: StoredRecord,
): void {
  if (record.kind !== "trainingJobs") return;
  const own = constraintDependants(record as StoredRecord<"trainingJobs">);
  if (own.length) {
    throw integrityError("training job", record.id, [...others, ...own]);
  }
}
