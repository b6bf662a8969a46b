/**
 * The labels part of the schema builder (docs/contract.md#labels-and-anchors):
 * what `.feature(name, type, { friendlyName, unit })`, `.label()` and
 * `.anchor()` collect, and how it becomes the create body's label arrays.
 *
 * @module
 */
import type { DataSchemaCreate } from "../schemas/data_schemas.ts";
import type { FieldType } from "./fields.ts";

/** What a field is shown as: its friendly name, unit, dimension, category names. */
export interface FieldLabelOptions {
  /** Shown instead of the column name: `"Monthly charges"`. */
  readonly friendlyName?: string;
  /** A number's unit, shown after its name: `"USD"` gives `Monthly charges (USD)`. */
  readonly unit?: string;
  /** The quantity a number measures: `"currency"`, `"time"`. */
  readonly dimension?: string;
  /** A category's friendly name by its raw value: `{ Yes: "Churned" }`. */
  readonly categories?: Readonly<Record<string, string>>;
}

/** `.feature(name, options)`: labels, and the type when the field is new. */
export interface FeatureOptions extends FieldLabelOptions {
  /** The column type (needed unless the field is in the schema already). */
  readonly type?: FieldType;
}

/** A reference value: a number, a category, or null for the missing value. */
export type AnchorValue = number | string | null;

/** A data anchor as the builder holds it. */
export interface AnchorSpec {
  /** The anchor's name, unique in the schema. */
  readonly name: string;
  /** Applies to views and explanations that name no other anchor. */
  readonly default: boolean;
  /** Reference values by feature name. */
  readonly values: Readonly<Record<string, AnchorValue>>;
}

/** Whether a `.feature()` second argument is a column type (not options). */
export function isFieldType(value: unknown): value is FieldType {
  return typeof value === "object" && value !== null &&
    "data_type" in value && "semantic_type" in value;
}

/** Label options merged: later ones win, category names are merged. */
export function mergeLabels(
  a: FieldLabelOptions | undefined,
  b: FieldLabelOptions | undefined,
): FieldLabelOptions | undefined {
  if (!b) return a;
  const { type: _type, ...labels } = b as FeatureOptions;
  return {
    ...a,
    ...labels,
    ...(a?.categories || b.categories
      ? { categories: { ...a?.categories, ...b.categories } }
      : {}),
  };
}

type Arrays = Pick<
  DataSchemaCreate,
  | "friendly_names"
  | "category_friendly_names"
  | "units"
  | "dimensions"
  | "data_anchors"
>;

/**
 * The create body's label arrays for fields with `labels` and the anchors
 * (arrays left out when empty, so an unlabelled schema's body is unchanged).
 *
 * @example
 * ```ts
 * import { labelArrays } from "./schema_labels.ts";
 * const body = labelArrays([{ name: "mc", labels: { friendlyName: "Monthly charges", unit: "USD" } }], []);
 * if (body.units?.[0].unit !== "USD" || body.friendly_names?.[0].field_name !== "mc") throw new Error();
 * if ("dimensions" in body) throw new Error("empty arrays are left out");
 * ```
 */
export function labelArrays(
  fields: readonly { name: string; labels?: FieldLabelOptions }[],
  anchors: readonly AnchorSpec[],
): Arrays {
  const out: Required<Arrays> = {
    friendly_names: [],
    category_friendly_names: [],
    units: [],
    dimensions: [],
    data_anchors: [],
  };
  for (const { name: field_name, labels } of fields) {
    if (!labels) continue;
    if (labels.friendlyName !== undefined) {
      out.friendly_names.push({
        field_name,
        friendly_name: labels.friendlyName,
      });
    }
    if (labels.unit !== undefined) {
      out.units.push({ field_name, unit: labels.unit });
    }
    if (labels.dimension !== undefined) {
      out.dimensions.push({ field_name, dimension: labels.dimension });
    }
    for (
      const [category, friendly_name] of Object.entries(labels.categories ?? {})
    ) {
      out.category_friendly_names.push({ field_name, category, friendly_name });
    }
  }
  for (const a of anchors) {
    out.data_anchors.push({
      name: a.name,
      default: a.default,
      terms: Object.entries(a.values).map(([field_name, value]) => ({
        field_name,
        value,
      })),
    });
  }
  return Object.fromEntries(
    Object.entries(out).filter(([, v]) => v.length > 0),
  ) as Arrays;
}
