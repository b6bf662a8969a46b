// deno-doc-ignore-file private-type-ref missing-explicit-type -- wire types are inferred from these zod schemas (one source of truth), so they name zod's own types
/**
 * The routes of a data schema's labels (docs/contract.md#labels-and-anchors):
 * for each label collection, create, list, get and delete under
 * `/data-schemas/{id}/...`. routes.ts spreads them into the route table.
 *
 * @module
 */
import type { z } from "zod";
import {
  CategoryFriendlyNameCreateSchema,
  CategoryFriendlyNameSchema,
  DataAnchorCreateSchema,
  DataAnchorSchema,
  DimensionCreateSchema,
  DimensionSchema,
  FriendlyNameCreateSchema,
  FriendlyNameSchema,
  type LabelArray,
  UnitCreateSchema,
  UnitSchema,
} from "./labels.ts";
import { subRoutesWithCreate } from "./sub_routes.ts";

/** The data schema collection the labels live under. */
const SCHEMA = "/data-schemas/{id}" as const;

/** What the integrity rule says of a label's delete. */
const INTEGRITY =
  "A deployed model of a model trained on the schema shows it, so deleting it then answers 409 INTEGRITY_ERROR listing those deployed models (docs/contract.md#errors); undeploy them first.";

/** Create, list, get and delete of one label collection. */
function labelRoutes<
  S extends string,
  C extends z.ZodType,
  R extends z.ZodType,
>(
  segment: S,
  noun: string,
  array: LabelArray,
  body: C,
  response: R,
  shows: string,
) {
  return subRoutesWithCreate({
    parent: SCHEMA,
    parentNoun: "data schema",
    segment,
    param: "label_id",
    noun,
    section: "docs/contract.md#labels-and-anchors",
    response,
    integrity: INTEGRITY,
    body,
    adds:
      `Adds a ${noun} to the data schema (listed in its ${array}): ${shows} A field that is missing or does not fit answers 400 naming it; a second one where only one may be (a field's friendly name, unit or dimension, a category's name, an anchor's name, a second default anchor) answers 409 CONFLICT.`,
  });
}

/** Every label collection's routes, grouped as the route table groups them. */
export const LABEL_ROUTES = {
  friendlyNames: labelRoutes(
    "friendly-names",
    "friendly name",
    "friendly_names",
    FriendlyNameCreateSchema,
    FriendlyNameSchema,
    "explanations, views answers (field_labels), model cards and charts show the field by it.",
  ),
  categoryFriendlyNames: labelRoutes(
    "category-friendly-names",
    "category friendly name",
    "category_friendly_names",
    CategoryFriendlyNameCreateSchema,
    CategoryFriendlyNameSchema,
    "explanations, views answers and charts show the category by it.",
  ),
  units: labelRoutes(
    "units",
    "unit",
    "units",
    UnitCreateSchema,
    UnitSchema,
    "the field's unit, also shown as the field's `unit` and after its name in labels (`Monthly charges (USD)`).",
  ),
  dimensions: labelRoutes(
    "dimensions",
    "dimension",
    "dimensions",
    DimensionCreateSchema,
    DimensionSchema,
    "the quantity the field measures, also shown as the field's `dimension`.",
  ),
  dataAnchors: labelRoutes(
    "data-anchors",
    "data anchor",
    "data_anchors",
    DataAnchorCreateSchema,
    DataAnchorSchema,
    "a reference row that views and explanations measure contributions against (docs/contract.md#data-anchors); with default true it applies to every one that names no other.",
  ),
} as const;
