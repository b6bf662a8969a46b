// deno-doc-ignore-file private-type-ref missing-explicit-type -- wire types are inferred from these zod schemas (one source of truth), so they name zod's own types
/**
 * Data schemas: the columns of the source data and their roles.
 *
 * @module
 */
import { z } from "zod";
import {
  configurationFields,
  IdSchema,
  NameSchema,
  openEnum,
  RefSchema,
  TimestampSchema,
} from "./common.ts";
import {
  labelCreateFields,
  labelIssuesOfCreate,
  labelShapes,
} from "./labels_body.ts";
import {
  checkProtections,
  DataProtectionCreateSchema,
  DataProtectionSchema,
} from "./constraints.ts";

/** Primitive types a column can hold. */
export const DATA_TYPES = ["NUMBER", "STRING"] as const;
/** Roles a column plays. */
export const DESIGNATIONS = ["FEATURE", "TARGET"] as const;
/** How a column's values are interpreted. */
export const SEMANTIC_TYPES = ["CONTINUOUS", "CATEGORICAL"] as const;
/** Number formats. docs/api.md#resources shows `INT64`; `FLOAT64` is ours for fractional columns. */
export const NUMBER_FORMATS = ["INT64", "FLOAT64"] as const;

/** Column type: `{ data_type, format }` (format null for strings). */
export const DataTypeSchema = z.looseObject({
  data_type: openEnum(DATA_TYPES),
  format: z.string().nullable(),
}).meta({ id: "DataType" });
/** Column type. */
export type DataType = z.infer<typeof DataTypeSchema>;

/** A schema field as the service returns it. */
export const SchemaFieldSchema = z.looseObject({
  id: IdSchema,
  name: z.string(),
  data_type: DataTypeSchema,
  designation: openEnum(DESIGNATIONS),
  semantic_type: openEnum(SEMANTIC_TYPES),
  dimension: z.string().nullish(),
  unit: z.string().nullish(),
  vector: z.boolean().optional(),
  created_at: TimestampSchema.optional(),
  updated_at: TimestampSchema.nullish(),
  created_by: RefSchema.optional(),
}).meta({ id: "SchemaField" });
/** A schema field as the service returns it. */
export type SchemaField = z.infer<typeof SchemaFieldSchema>;

/** A schema field in a create request. */
export const SchemaFieldCreateSchema = z.object({
  name: z.string().trim().min(1, "a field needs a name"),
  data_type: z.object({
    data_type: z.enum(DATA_TYPES),
    format: z.enum(NUMBER_FORMATS).nullable().default(null),
  }),
  designation: z.enum(DESIGNATIONS),
  semantic_type: z.enum(SEMANTIC_TYPES),
}).superRefine((field, ctx) => {
  // docs/contract.md#views: a pair term is `<feature>*<feature>`; a feature
  // x*z beside x and z made two terms (and view columns) of one name.
  if (field.designation === "FEATURE" && field.name.includes("*")) {
    ctx.addIssue({
      code: "custom",
      path: ["name"],
      message:
        `"${field.name}": a feature's name may not contain "*", which joins the features of a pair term (contribution.a*b); rename the column, or leave it out`,
    });
  }
  if (field.data_type.data_type === "STRING" && field.data_type.format) {
    ctx.addIssue({
      code: "custom",
      path: ["data_type", "format"],
      message: "must be null for a STRING column",
    });
  }
  if (
    field.data_type.data_type === "STRING" &&
    field.semantic_type === "CONTINUOUS"
  ) {
    ctx.addIssue({
      code: "custom",
      path: ["semantic_type"],
      message: "a STRING column must be CATEGORICAL",
    });
  }
}).meta({ id: "SchemaFieldCreate" });
/** A schema field in a create request. */
export type SchemaFieldCreate = z.input<typeof SchemaFieldCreateSchema>;

/** A data schema. */
export const DataSchemaSchema = z.looseObject({
  ...configurationFields,
  fields: z.array(SchemaFieldSchema),
  ...labelShapes,
  data_protections: z.array(DataProtectionSchema).default([]),
}).meta({ id: "DataSchema" });
/** A data schema. */
export type DataSchema = z.infer<typeof DataSchemaSchema>;

/** Body of `POST /data-schemas`: a name and at least one uniquely named field. */
export const DataSchemaCreateSchema = z.object({
  name: NameSchema,
  fields: z.array(SchemaFieldCreateSchema).min(
    1,
    "a schema needs at least one field",
  ),
  ...labelCreateFields,
  // Fields a model must not use (docs/contract.md#model-constraints-and-protected-fields).
  data_protections: z.array(DataProtectionCreateSchema).default([]),
}).superRefine((body, ctx) => {
  labelIssuesOfCreate(body, ctx);
  checkProtections(body, ctx);
  const seen = new Set<string>();
  body.fields.forEach((field, i) => {
    if (seen.has(field.name)) {
      ctx.addIssue({
        code: "custom",
        path: ["fields", i, "name"],
        message: `duplicate field name "${field.name}"`,
      });
    }
    seen.add(field.name);
  });
}).meta({ id: "DataSchemaCreate" });
/** Body of `POST /data-schemas`. */
export type DataSchemaCreate = z.input<typeof DataSchemaCreateSchema>;
