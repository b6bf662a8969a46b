// deno-doc-ignore-file private-type-ref missing-explicit-type -- wire types are inferred from these zod schemas (one source of truth), so they name zod's own types
/**
 * The labels' part of a data schema's shape and of its create body
 * (docs/contract.md#labels-and-anchors): kept here so that data_schemas.ts
 * only spreads them in.
 *
 * @module
 */
import { z } from "zod";
import {
  CategoryFriendlyNameCreateSchema,
  CategoryFriendlyNameSchema,
  DataAnchorCreateSchema,
  DataAnchorSchema,
  DimensionCreateSchema,
  DimensionSchema,
  FriendlyNameCreateSchema,
  FriendlyNameSchema,
  LABEL_ARRAYS,
  labelIssues,
  UnitCreateSchema,
  UnitSchema,
} from "./labels.ts";

/** The schema's label arrays as the service returns them (empty by default). */
export const labelShapes = {
  friendly_names: z.array(FriendlyNameSchema).default([]),
  category_friendly_names: z.array(CategoryFriendlyNameSchema).default([]),
  data_anchors: z.array(DataAnchorSchema).default([]),
  /** Our extension: each field's unit, also shown as the field's `unit`. */
  units: z.array(UnitSchema).default([]),
  /** Our extension: each field's dimension, also shown as the field's `dimension`. */
  dimensions: z.array(DimensionSchema).default([]),
} as const;

/** Labels given at create: the bodies their sub-resources take. */
export const labelCreateFields = {
  friendly_names: z.array(FriendlyNameCreateSchema).optional(),
  category_friendly_names: z.array(CategoryFriendlyNameCreateSchema)
    .optional(),
  units: z.array(UnitCreateSchema).optional(),
  dimensions: z.array(DimensionCreateSchema).optional(),
  data_anchors: z.array(DataAnchorCreateSchema).optional(),
} as const;

/** A create body as the label check reads it. */
type CreateBody =
  & {
    fields: {
      name: string;
      data_type: { data_type: string };
      designation: string;
      semantic_type: string;
    }[];
  }
  & {
    [K in keyof typeof labelCreateFields]?: z.output<
      typeof labelCreateFields[K]
    >;
  };

/**
 * Adds an issue for every label of a create body that names a missing field,
 * does not fit its field, or repeats an earlier one (see `labelIssues`).
 *
 * @example
 * ```ts
 * import { DataSchemaCreateSchema } from "./data_schemas.ts";
 * const r = DataSchemaCreateSchema.safeParse({ name: "s", fields: [
 *   { name: "x", data_type: { data_type: "NUMBER" }, designation: "FEATURE", semantic_type: "CONTINUOUS" }],
 *   friendly_names: [{ field_name: "z", friendly_name: "Zed" }] });
 * if (r.success || r.error.issues[0].path.join(".") !== "friendly_names.0.field_name") throw new Error();
 * ```
 */
export function labelIssuesOfCreate(
  body: CreateBody,
  ctx: z.core.$RefinementCtx,
): void {
  for (const array of LABEL_ARRAYS) {
    const items = (body[array] ?? []) as Parameters<typeof labelIssues>[1][];
    items.forEach((item, i) => {
      for (
        const issue of labelIssues(array, item, body.fields, items.slice(0, i))
      ) {
        ctx.addIssue({
          code: "custom",
          path: [
            array,
            i,
            ...issue.path.split(".").map((p) =>
              /^\d+$/.test(p) ? Number(p) : p
            ),
          ],
          message: issue.message,
        });
      }
    });
  }
}
