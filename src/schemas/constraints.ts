// deno-doc-ignore-file private-type-ref missing-explicit-type -- wire types are inferred from these zod schemas (one source of truth), so they name zod's own types
/**
 * Model constraints, constraint groups and data protections (our shapes of
 * SPEC's `model_constraints`, `model_constraint_groups` and
 * `data_protections`, docs/contract.md#model-constraints-and-protected-fields),
 * and the per-group metrics a model with protected fields carries.
 *
 * @module
 */
import { z } from "zod";
import { IdSchema, NameSchema, openEnum, TimestampSchema } from "./common.ts";

/** What a model constraint asks of its feature. */
export const MODEL_CONSTRAINT_TYPES = [
  "MONOTONE_INCREASING",
  "MONOTONE_DECREASING",
  "EXCLUDED",
] as const;

/** A model constraint in a training job create request. */
export const ModelConstraintCreateSchema = z.object({
  field: z.string().trim().min(1, "name the feature it constrains"),
  constraint_type: z.enum(MODEL_CONSTRAINT_TYPES),
}).meta({ id: "ModelConstraintCreate" });
/** A model constraint in a create request. */
export type ModelConstraintCreate = z.input<typeof ModelConstraintCreateSchema>;

/** A model constraint as the service returns it. */
export const ModelConstraintSchema = z.looseObject({
  id: IdSchema,
  field: z.string(),
  constraint_type: openEnum(MODEL_CONSTRAINT_TYPES),
}).meta({ id: "ModelConstraint" });
/** A model constraint. */
export type ModelConstraint = z.infer<typeof ModelConstraintSchema>;

/** A model constraint group in a create request: features that may interact. */
export const ModelConstraintGroupCreateSchema = z.object({
  name: NameSchema.optional(),
  fields: z.array(z.string().trim().min(1)).min(
    2,
    "a group names at least two features (pairs are formed inside it)",
  ).superRefine((names, ctx) => {
    // ["x", "x"] forms no pair: accepted, it constrained nothing.
    names.forEach((n, j) => {
      if (names.indexOf(n) < j) {
        ctx.addIssue({
          code: "custom",
          path: [j],
          message: `"${n}" is named twice in the group; name each feature once`,
        });
      }
    });
  }),
}).meta({ id: "ModelConstraintGroupCreate" });
/** A model constraint group in a create request. */
export type ModelConstraintGroupCreate = z.input<
  typeof ModelConstraintGroupCreateSchema
>;

/** A model constraint group as the service returns it. */
export const ModelConstraintGroupSchema = z.looseObject({
  id: IdSchema,
  name: z.string().nullish(),
  fields: z.array(z.string()),
}).meta({ id: "ModelConstraintGroup" });
/** A model constraint group. */
export type ModelConstraintGroup = z.infer<typeof ModelConstraintGroupSchema>;

/**
 * The constraint fields of a training job create body: each feature named
 * at most once among `model_constraints`; `measure_constraint_cost` also
 * fits the model without its constraints and reports both validation
 * figures on the model (`constraint_cost`).
 */
export const trainingConstraintFields = {
  model_constraints: z.array(ModelConstraintCreateSchema).superRefine(
    (list, ctx) => {
      const seen = new Set<string>();
      list.forEach((m, i) => {
        if (seen.has(m.field)) {
          ctx.addIssue({
            code: "custom",
            path: [i, "field"],
            message:
              `"${m.field}" is constrained twice: one constraint per feature`,
          });
        }
        seen.add(m.field);
      });
    },
  ).default([]),
  model_constraint_groups: z.array(ModelConstraintGroupCreateSchema).default(
    [],
  ),
  measure_constraint_cost: z.boolean().default(false),
} as const;

/** A data protection in a data schema create request: fields a model must not use. */
export const DataProtectionCreateSchema = z.object({
  name: NameSchema.optional(),
  fields: z.array(z.string().trim().min(1)).min(
    1,
    "a data protection names at least one field",
  ),
}).meta({ id: "DataProtectionCreate" });
/** A data protection in a create request. */
export type DataProtectionCreate = z.input<typeof DataProtectionCreateSchema>;

/** A protected field of a data protection. */
export const DataProtectedFieldSchema = z.looseObject({
  id: IdSchema,
  name: z.string(),
}).meta({ id: "DataProtectedField" });
/** A protected field. */
export type DataProtectedField = z.infer<typeof DataProtectedFieldSchema>;

/** A data protection as the service returns it. */
export const DataProtectionSchema = z.looseObject({
  id: IdSchema,
  name: z.string().nullish(),
  protected_fields: z.array(DataProtectedFieldSchema),
  /** When it was given (absent on protections stored before it was kept). */
  created_at: TimestampSchema.optional(),
}).meta({ id: "DataProtection" });
/** A data protection. */
export type DataProtection = z.infer<typeof DataProtectionSchema>;

/**
 * Checks a data schema create body's protections against its fields: each
 * protected field must be a FEATURE field of the schema, protected by one
 * protection only (as `POST .../data-protections` refuses a field another
 * protection already protects; one protection naming a field twice
 * protects it once).
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * import { checkProtections } from "./constraints.ts";
 * const Body = z.object({
 *   fields: z.array(z.object({ name: z.string(), designation: z.string() })),
 *   data_protections: z.array(z.object({ fields: z.array(z.string()) })),
 * }).superRefine(checkProtections);
 * const fields = [{ name: "sex", designation: "FEATURE" }];
 * if (!Body.safeParse({ fields, data_protections: [{ fields: ["sex", "sex"] }] }).success) throw new Error();
 * const twice = Body.safeParse({ fields, data_protections: [{ fields: ["sex"] }, { fields: ["sex"] }] });
 * if (twice.success || twice.error.issues[0].path.join(".") !== "data_protections.1.fields.0") throw new Error();
 * ```
 */
export function checkProtections(
  body: {
    fields: { name: string; designation: string }[];
    data_protections?: { fields: string[] }[];
  },
  ctx: z.RefinementCtx,
): void {
  const byName = new Map(body.fields.map((f) => [f.name, f]));
  /** Each protected field, and the protection that first protects it. */
  const protectedBy = new Map<string, number>();
  body.data_protections?.forEach((p, i) =>
    p.fields.forEach((name, j) => {
      const f = byName.get(name);
      const by = protectedBy.get(name) ?? i;
      if (!f || f.designation !== "FEATURE") {
        ctx.addIssue({
          code: "custom",
          path: ["data_protections", i, "fields", j],
          message: f
            ? `"${name}" is the ${f.designation}: only FEATURE fields can be protected`
            : `"${name}" is not a field of this schema`,
        });
      } else if (by !== i) {
        ctx.addIssue({
          code: "custom",
          path: ["data_protections", i, "fields", j],
          message:
            `"${name}" is already protected by data_protections.${by}: protect a field in one protection only`,
        });
      }
      protectedBy.set(name, by);
    })
  );
}

/** One group's figures for a protected field (null: not defined on its rows). */
export const GroupMetricsRowSchema = z.looseObject({
  group: z.string(),
  count: z.number().int(),
  metrics: z.record(z.string(), z.number().nullable()),
}).meta({ id: "GroupMetricsRow" });

/** A protected field's per-group metrics on the model's validation rows. */
export const FieldGroupMetricsSchema = z.looseObject({
  field: z.string(),
  groups: z.array(GroupMetricsRowSchema),
  largest_gap: z.record(z.string(), z.number().nullable()),
}).meta({ id: "FieldGroupMetrics" });
/** A protected field's per-group metrics. */
export type FieldGroupMetrics = z.infer<typeof FieldGroupMetricsSchema>;

/** The validation figure with and without the constraints (`measure_constraint_cost`). */
export const ConstraintCostSchema = z.looseObject({
  metric: z.string(),
  constrained: z.number().nullable(),
  unconstrained: z.number().nullable(),
}).meta({ id: "ConstraintCost" });
/** The accuracy cost of a model's constraints. */
export type ConstraintCost = z.infer<typeof ConstraintCostSchema>;
