/**
 * Model constraints and data protections on the local platform
 * (docs/contract.md#model-constraints-and-protected-fields): a data schema's
 * protections get their ids; a training job's constraints are checked
 * against its dataset's schema (a 400 naming the constraint when a feature
 * is missing, categorical for a monotone constraint, or protected) and
 * turned into what the model trains under; the model record gets its
 * per-group metrics and the constraints' cost.
 *
 * @module
 */
import type { z } from "zod";
import type {
  ConstraintCost,
  DataProtection,
  DataProtectionCreateSchema,
  FieldGroupMetrics,
  ModelConstraint,
  ModelConstraintGroup,
  trainingConstraintFields,
} from "../../schemas/constraints.ts";
import type { PlatformContext } from "../context.ts";
import { invalidField } from "../errors.ts";
import { newId, timestamp } from "../ids.ts";
import type { ModelConstraints } from "../model/types.ts";
import type { StoredRecord } from "../store/store.ts";

/** A data schema create body's protections, each with its ids. */
export function protectionsOf(
  given: z.output<typeof DataProtectionCreateSchema>[],
): DataProtection[] {
  const created_at = timestamp();
  return given.map((p) => ({
    id: newId("dpr"),
    name: p.name ?? null,
    // A field named twice is protected once (its sub-resource has one id).
    protected_fields: [...new Set(p.fields)].map((name) => ({
      id: newId("dpf"),
      name,
    })),
    created_at,
  }));
}

/** The constraint fields of a parsed training job create body. */
type ConstraintBody = {
  [K in keyof typeof trainingConstraintFields]: z.output<
    typeof trainingConstraintFields[K]
  >;
};

/** What a training job's constraints become: its record's fields and the model's. */
export interface ResolvedConstraints {
  model_constraints: ModelConstraint[];
  model_constraint_groups: ModelConstraintGroup[];
  /** Null: nothing to constrain (no constraint, group or protected field). */
  model: ModelConstraints | null;
  measureCost: boolean;
}

/** The schema fields of a dataset (through its datasource), and its protected fields. */
function schemaOf(ctx: PlatformContext, dataset: StoredRecord<"datasets">) {
  const sourceId = dataset.body.datasource?.id;
  const source = sourceId ? ctx.store.get("datasources", sourceId) : undefined;
  const schemaId = source?.body.data_schema?.id;
  const schema = schemaId ? ctx.store.get("dataSchemas", schemaId) : undefined;
  return {
    fields: schema?.body.fields ?? [],
    protected: [
      ...new Set(
        (schema?.body.data_protections ?? []).flatMap((p) =>
          p.protected_fields.map((f) => f.name)
        ),
      ),
    ],
  };
}

/**
 * Checks a training job's constraints against its dataset's schema and
 * resolves them.
 *
 * @throws {HttpError} 400 naming `model_constraints.<i>.field` or
 *   `model_constraint_groups.<i>.fields.<j>`.
 */
export function resolveConstraints(
  ctx: PlatformContext,
  dataset: StoredRecord<"datasets">,
  body: ConstraintBody,
): ResolvedConstraints {
  const schema = schemaOf(ctx, dataset);
  const byName = new Map(schema.fields.map((f) => [f.name, f]));
  const isProtected = (name: string) => schema.protected.includes(name);
  const feature = (name: string, path: string) => {
    const f = byName.get(name);
    if (!f || f.designation !== "FEATURE") {
      throw invalidField(
        path,
        f
          ? `"${name}" is the dataset's ${f.designation}, not a feature`
          : `"${name}" is not a feature of the dataset's schema; its features are ${
            schema.fields.filter((g) => g.designation === "FEATURE").map((g) =>
              g.name
            ).join(", ")
          }`,
      );
    }
    if (isProtected(name)) {
      throw invalidField(
        path,
        `"${name}" is a protected field of the dataset's schema: a model never uses it, so it cannot be constrained`,
      );
    }
    return f;
  };
  const monotone: ModelConstraints["monotone"] = {};
  const excluded: string[] = [];
  body.model_constraints.forEach((c, i) => {
    const path = `model_constraints.${i}.field`;
    const f = feature(c.field, path);
    if (c.constraint_type === "EXCLUDED") {
      excluded.push(c.field);
      return;
    }
    const classes = Object.values(dataset.body.classes ?? {})[0] ?? [];
    if (classes.length > 2) {
      throw invalidField(
        path,
        `monotone constraints need a binary or regression target; the dataset's target has ${classes.length} classes (a softmax logit per class has no one direction)`,
      );
    }
    if (f.semantic_type !== "CONTINUOUS") {
      throw invalidField(
        path,
        `"${c.field}" is ${f.semantic_type}: only a numeric (CONTINUOUS) feature can be monotone`,
      );
    }
    monotone[c.field] = c.constraint_type === "MONOTONE_INCREASING"
      ? "increasing"
      : "decreasing";
  });
  body.model_constraint_groups.forEach((g, i) =>
    g.fields.forEach((name, j) =>
      feature(name, `model_constraint_groups.${i}.fields.${j}`)
    )
  );
  refuseNothingLeft(dataset.body.features, body.model_constraints, schema);
  const groups = body.model_constraint_groups.length
    ? body.model_constraint_groups.map((g) => [...new Set(g.fields)])
    : null;
  const any = body.model_constraints.length > 0 || groups !== null ||
    schema.protected.length > 0;
  return {
    model_constraints: body.model_constraints.map((c) => ({
      id: newId("mcn"),
      field: c.field,
      constraint_type: c.constraint_type,
    })),
    model_constraint_groups: body.model_constraint_groups.map((g) => ({
      id: newId("mcg"),
      name: g.name ?? null,
      fields: g.fields,
    })),
    model: any
      ? { monotone, excluded, protected: schema.protected, groups }
      : null,
    measureCost: body.measure_constraint_cost,
  };
}

/**
 * Refuses a training that would have no feature: every feature the dataset
 * kept is excluded by a constraint or protected by the schema (the model
 * would have no term; the training crashed). A 400 naming the last
 * exclusion, or `dataset_id` when the protections alone leave nothing.
 */
function refuseNothingLeft(
  features: readonly string[] | undefined,
  constraints: ConstraintBody["model_constraints"],
  schema: { protected: readonly string[] },
): void {
  if (!features?.length) return; // a record from before `features` was kept
  const excluded = constraints.filter((c) => c.constraint_type === "EXCLUDED")
    .map((c) => c.field);
  const left = features.filter((f) =>
    !excluded.includes(f) && !schema.protected.includes(f)
  );
  if (left.length > 0) return;
  let last = -1;
  constraints.forEach((c, i) => {
    if (c.constraint_type === "EXCLUDED") last = i;
  });
  const why = features.map((f) =>
    `${f} (${schema.protected.includes(f) ? "protected" : "excluded"})`
  ).join(", ");
  throw invalidField(
    last >= 0 ? `model_constraints.${last}.field` : "dataset_id",
    `no feature of the dataset is left to train on: ${why}; keep at least one feature the model may use`,
  );
}

/** The model record's fields for its per-group metrics and the constraints' cost. */
export function constraintFields(
  extras: {
    groupMetrics?: FieldGroupMetrics[];
    constraintCost?: ConstraintCost;
  },
): { group_metrics?: FieldGroupMetrics[]; constraint_cost?: ConstraintCost } {
  return {
    ...(extras.groupMetrics ? { group_metrics: extras.groupMetrics } : {}),
    ...(extras.constraintCost
      ? { constraint_cost: extras.constraintCost }
      : {}),
  };
}
