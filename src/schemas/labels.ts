// deno-doc-ignore-file private-type-ref missing-explicit-type -- wire types are inferred from these zod schemas (one source of truth), so they name zod's own types
/**
 * A data schema's labels (our extension, docs/contract.md#labels-and-anchors):
 * friendly names of fields, friendly names of categories, units, dimensions
 * and data anchors. Each is a sub-resource of its schema with an id, the
 * field it labels as a `{ id, name }` reference, `created_at` and
 * `created_by`; the schema lists them in its arrays (`friendly_names`,
 * `category_friendly_names`, `units`, `dimensions`, `data_anchors`) and shows
 * a field's unit and dimension on the field itself.
 *
 * @module
 */
import { z } from "zod";
import { IdSchema, ownRecord, RefSchema, TimestampSchema } from "./common.ts";

/** A reference value: a number, a category, or null for the missing value. */
const CellSchema = z.union([z.number(), z.string(), z.null()]);

/** The fields every label carries besides its own. */
const labelFields = {
  id: IdSchema,
  /** The schema field labelled. */
  field: RefSchema,
  created_at: TimestampSchema,
  created_by: RefSchema,
} as const;

/** The schema field a label is for, by its name (unique in a schema). */
const FieldNameSchema = z.string().trim().min(
  1,
  "name the schema field (its column name)",
);
/** A display text: not empty, at most 200 characters. */
const TextSchema = z.string().trim().min(1, "must not be empty").max(200);

/** A field's friendly name: `Monthly charges` for `monthly_charges`. */
export const FriendlyNameSchema = z.looseObject({
  ...labelFields,
  friendly_name: z.string(),
}).meta({ id: "FriendlyName" });
/** A field's friendly name. */
export type FriendlyName = z.infer<typeof FriendlyNameSchema>;
/** Body of `POST /data-schemas/{id}/friendly-names`. */
export const FriendlyNameCreateSchema = z.object({
  field_name: FieldNameSchema,
  friendly_name: TextSchema,
}).meta({ id: "FriendlyNameCreate" });
/** Body of `POST /data-schemas/{id}/friendly-names`. */
export type FriendlyNameCreate = z.input<typeof FriendlyNameCreateSchema>;

/** A category's friendly name: `Churned` for the value `Yes` of `churn`. */
export const CategoryFriendlyNameSchema = z.looseObject({
  ...labelFields,
  category: z.string(),
  friendly_name: z.string(),
}).meta({ id: "CategoryFriendlyName" });
/** A category's friendly name. */
export type CategoryFriendlyName = z.infer<typeof CategoryFriendlyNameSchema>;
/** Body of `POST /data-schemas/{id}/category-friendly-names`. */
export const CategoryFriendlyNameCreateSchema = z.object({
  field_name: FieldNameSchema,
  category: z.string().min(1, "name the category (a value of the column)"),
  friendly_name: TextSchema,
}).meta({ id: "CategoryFriendlyNameCreate" });
/** Body of `POST /data-schemas/{id}/category-friendly-names`. */
export type CategoryFriendlyNameCreate = z.input<
  typeof CategoryFriendlyNameCreateSchema
>;

/** A numeric field's unit: `USD`, `months`, `kg`. */
export const UnitSchema = z.looseObject({
  ...labelFields,
  unit: z.string(),
}).meta({ id: "Unit" });
/** A numeric field's unit. */
export type Unit = z.infer<typeof UnitSchema>;
/** Body of `POST /data-schemas/{id}/units`. */
export const UnitCreateSchema = z.object({
  field_name: FieldNameSchema,
  unit: TextSchema,
}).meta({ id: "UnitCreate" });
/** Body of `POST /data-schemas/{id}/units`. */
export type UnitCreate = z.input<typeof UnitCreateSchema>;

/** A numeric field's dimension, the quantity it measures: `currency`, `time`. */
export const DimensionSchema = z.looseObject({
  ...labelFields,
  dimension: z.string(),
}).meta({ id: "Dimension" });
/** A numeric field's dimension. */
export type Dimension = z.infer<typeof DimensionSchema>;
/** Body of `POST /data-schemas/{id}/dimensions`. */
export const DimensionCreateSchema = z.object({
  field_name: FieldNameSchema,
  dimension: TextSchema,
}).meta({ id: "DimensionCreate" });
/** Body of `POST /data-schemas/{id}/dimensions`. */
export type DimensionCreate = z.input<typeof DimensionCreateSchema>;

/** One term of a data anchor: the reference value of one feature. */
export const DataAnchorTermSchema = z.looseObject({
  id: IdSchema,
  field: RefSchema,
  /** The reference value (null: the feature's missing value). */
  value: CellSchema,
}).meta({ id: "DataAnchorTerm" });
/** One term of a data anchor. */
export type DataAnchorTerm = z.infer<typeof DataAnchorTermSchema>;

/**
 * A data anchor: the reference row explanations are measured against
 * (docs/contract.md#data-anchors). Its terms give some features a reference
 * value; the features it leaves out are measured against the training
 * population. With `default` true it applies to every views call and
 * explanation of models trained on the schema that does not name another.
 */
export const DataAnchorSchema = z.looseObject({
  id: IdSchema,
  name: z.string(),
  default: z.boolean(),
  terms: z.array(DataAnchorTermSchema),
  created_at: TimestampSchema,
  created_by: RefSchema,
}).meta({ id: "DataAnchor" });
/** A data anchor. */
export type DataAnchor = z.infer<typeof DataAnchorSchema>;
/** Body of `POST /data-schemas/{id}/data-anchors`. */
export const DataAnchorCreateSchema = z.object({
  name: TextSchema,
  default: z.boolean().default(false),
  terms: z.array(z.object({ field_name: FieldNameSchema, value: CellSchema }))
    .min(1, "give at least one term: { field_name, value }"),
}).superRefine((body, ctx) => {
  const seen = new Set<string>();
  body.terms.forEach((t, i) => {
    if (seen.has(t.field_name)) {
      ctx.addIssue({
        code: "custom",
        path: ["terms", i, "field_name"],
        message: `"${t.field_name}" has a term already: one value per field`,
      });
    }
    seen.add(t.field_name);
  });
}).meta({ id: "DataAnchorCreate" });
/** Body of `POST /data-schemas/{id}/data-anchors`. */
export type DataAnchorCreate = z.input<typeof DataAnchorCreateSchema>;

/**
 * What a field is shown as, gathered from its schema's labels: in the
 * global explanation and views answers (`field_labels`), keyed by field name.
 */
export const FieldLabelSchema = z.looseObject({
  /** The display text: the friendly name and unit, `Monthly charges (USD)`. */
  label: z.string(),
  friendly_name: z.string().nullable(),
  unit: z.string().nullable(),
  dimension: z.string().nullable(),
  /** Friendly names of categories, raw value to friendly name. */
  categories: z.record(z.string(), z.string()),
}).meta({ id: "FieldLabel" });
/** What a field is shown as. */
export type FieldLabel = z.infer<typeof FieldLabelSchema>;
/** Labels of the fields that have any, keyed by raw field name. */
export const FieldLabelsSchema = z.record(z.string(), FieldLabelSchema).meta({
  id: "FieldLabels",
});
/** Labels of the fields that have any, keyed by raw field name. */
export type FieldLabels = z.infer<typeof FieldLabelsSchema>;

/** The anchor an answer was measured against (absent: none). */
export const AppliedAnchorSchema = z.looseObject({
  /** The data anchor's id, or null for rows sent with the request. */
  id: z.string().nullable(),
  name: z.string().nullable(),
  /** Rows the reference averages over (1 for a data anchor). */
  rows: z.number().int().positive(),
}).meta({ id: "AppliedAnchor" });
/** The anchor an answer was measured against. */
export type AppliedAnchor = z.infer<typeof AppliedAnchorSchema>;

/**
 * The `anchor` of a views request: a data anchor's id, rows of reference
 * values (`{ query }`, some or all features, contributions then measured
 * against their mean), or null for none (not even the schema's default).
 */
export const ViewsAnchorSchema = z.union([
  z.string().min(1, "a data anchor id"),
  // Empty columns are refused here, not by a `min(1)` on the arrays: inside
  // the union that failed every branch and said only "Invalid input".
  z.object({ query: ownRecord(z.array(CellSchema)) }).superRefine(
    (anchor, ctx) => {
      const columns = Object.entries(anchor.query);
      const lengths = columns.map(([, c]) => c.length);
      const empty = columns.find(([, c]) => c.length === 0);
      if (!lengths.length) {
        ctx.addIssue({
          code: "custom",
          path: ["query"],
          message: "give at least one feature's reference values",
        });
      } else if (empty) {
        ctx.addIssue({
          code: "custom",
          path: ["query", empty[0]],
          message:
            "give at least one reference value (one per reference row), or leave the column out",
        });
      } else if (lengths.some((n) => n !== lengths[0])) {
        ctx.addIssue({
          code: "custom",
          path: ["query"],
          message: "every column needs one value per reference row",
        });
      }
    },
  ),
  z.null(),
]).meta({ id: "ViewsAnchor" });
/** The `anchor` of a views request. */
export type ViewsAnchor = z.infer<typeof ViewsAnchorSchema>;

/** Query of `GET /models/{id}/explanation`. */
export const ExplanationQuerySchema = z.object({
  /** A data anchor of the model's schema; `none` for no anchor. */
  anchor_id: z.string().min(1).optional(),
});

/** The label collections of a data schema, by the schema array that lists them. */
export const LABEL_ARRAYS = [
  "friendly_names",
  "category_friendly_names",
  "units",
  "dimensions",
  "data_anchors",
] as const;
/** A label collection of a data schema. */
export type LabelArray = typeof LABEL_ARRAYS[number];

/** What is wrong with a label; `taken` when it repeats one already there. */
export interface LabelIssue {
  /** The offending field, inside the label. */
  path: string;
  /** What is wrong and what to do. */
  message: string;
  /** A repeat of an existing label (a 409 for a sub-resource create). */
  taken?: boolean;
}

/** The field facts a label is checked against. */
interface FieldFacts {
  name: string;
  data_type: { data_type: string };
  designation: string;
  semantic_type: string;
}
/** A label as created or stored: what {@linkcode labelIssues} reads. */
type LabelLike = {
  [key: string]: unknown;
  field_name?: string;
  field?: { name?: string | null };
  category?: string;
  name?: string;
  default?: boolean;
  terms?: ReadonlyArray<
    { field_name?: string; field?: { name?: string | null }; value: unknown }
  >;
};

const fieldOf = (
  l: { field_name?: string; field?: { name?: string | null } },
) => l.field_name ?? l.field?.name ?? "";

/**
 * What is wrong with one label of `array` for a schema with `fields` and the
 * labels `existing` already there: each issue with its path inside the label.
 * One friendly name, unit and dimension per field, one name per category;
 * categories only on CATEGORICAL fields, units and dimensions only on
 * numbers; an anchor's terms name features with a value of their type, its
 * name is new, and a schema has at most one default anchor.
 *
 * @example
 * ```ts
 * import { labelIssues } from "./labels.ts";
 * const fields = [{ name: "x", data_type: { data_type: "STRING" }, designation: "FEATURE", semantic_type: "CATEGORICAL" }];
 * const issues = labelIssues("units", { field_name: "x", unit: "kg" }, fields, []);
 * if (!(issues[0].path === "field_name" && issues[0].message.includes("NUMBER"))) throw new Error();
 * ```
 */
export function labelIssues(
  array: LabelArray,
  label: LabelLike,
  fields: readonly FieldFacts[],
  existing: readonly LabelLike[],
): LabelIssue[] {
  const issues: LabelIssue[] = [];
  const find = (name: string, path: string) => {
    const field = fields.find((f) => f.name === name);
    if (!field) {
      issues.push({
        path,
        message: `no field named "${name}" in this schema (fields: ${
          fields.map((f) => f.name).join(", ")
        })`,
      });
    }
    return field;
  };
  if (array === "data_anchors") {
    if (existing.some((a) => a.name === label.name)) {
      issues.push({
        path: "name",
        message: `an anchor named "${label.name}" exists already`,
        taken: true,
      });
    }
    if (label.default && existing.some((a) => a.default)) {
      issues.push({
        path: "default",
        message: "this schema has a default anchor already; delete it first",
        taken: true,
      });
    }
    (label.terms ?? []).forEach((t, i) => {
      const field = find(fieldOf(t), `terms.${i}.field_name`);
      if (!field) return;
      if (field.designation !== "FEATURE") {
        issues.push({
          path: `terms.${i}.field_name`,
          message:
            `"${field.name}" is a ${field.designation}, not a FEATURE: an anchor gives features their reference value`,
        });
      }
      const want = field.data_type.data_type === "NUMBER" ? "number" : "string";
      if (t.value !== null && typeof t.value !== want) {
        issues.push({
          path: `terms.${i}.value`,
          message:
            `"${field.name}" holds ${field.data_type.data_type} values: give a ${want} or null`,
        });
      }
    });
    return issues;
  }
  const name = fieldOf(label);
  const field = find(name, "field_name");
  if (!field) return issues;
  const isNumber = field.data_type.data_type === "NUMBER";
  if (
    array === "category_friendly_names" && field.semantic_type !== "CATEGORICAL"
  ) {
    issues.push({
      path: "field_name",
      message:
        `"${name}" is ${field.semantic_type}, not CATEGORICAL: only categories have friendly names`,
    });
  }
  if ((array === "units" || array === "dimensions") && !isNumber) {
    issues.push({
      path: "field_name",
      message:
        `"${name}" holds ${field.data_type.data_type} values: only NUMBER fields have a ${
          array === "units" ? "unit" : "dimension"
        }`,
    });
  }
  const taken = existing.find((l) =>
    fieldOf(l) === name &&
    (array !== "category_friendly_names" || l.category === label.category)
  );
  if (taken) {
    issues.push({
      path: array === "category_friendly_names" ? "category" : "field_name",
      message: `"${name}"${
        array === "category_friendly_names"
          ? ` category "${label.category}"`
          : ""
      } has one already; delete it before giving another`,
      taken: true,
    });
  }
  return issues;
}
