// deno-doc-ignore-file private-type-ref missing-explicit-type -- wire types are inferred from these zod schemas (one source of truth), so they name zod's own types
/**
 * The routes of a data schema's protections and a training job's
 * constraints (docs/contract.md#model-constraints-and-protected-fields):
 * each readable and deletable under its parent, a protection also added
 * later. routes.ts spreads them into the route table.
 *
 * @module
 */
import {
  DataProtectedFieldSchema,
  DataProtectionCreateSchema,
  DataProtectionSchema,
  ModelConstraintGroupSchema,
  ModelConstraintSchema,
} from "./constraints.ts";
import { subRoutes, subRoutesWithCreate } from "./sub_routes.ts";

const SECTION = "docs/contract.md#model-constraints-and-protected-fields";

/** What the integrity rule says of deleting what a model was trained under. */
const TRAINED_UNDER =
  "A model trained under it (its group_metrics name the field) still exists, so deleting it then answers 409 INTEGRITY_ERROR listing those models (docs/contract.md#errors); delete them first.";

/** Every protection and constraint collection's routes, grouped as the route table groups them. */
export const CONSTRAINT_ROUTES = {
  dataProtections: subRoutesWithCreate({
    parent: "/data-schemas/{id}",
    parentNoun: "data schema",
    segment: "data-protections",
    param: "protection_id",
    noun: "data protection",
    section: SECTION,
    response: DataProtectionSchema,
    integrity: TRAINED_UNDER,
    body: DataProtectionCreateSchema,
    adds:
      "Adds a data protection to the data schema (listed in its data_protections): its fields are kept out of the features of every model trained after, refused in a model constraint, and the model reports per-group metrics of each. A field that is not a FEATURE field of the schema answers 400 naming it; a field another protection already protects answers 409 CONFLICT.",
  }),
  dataProtectedFields: subRoutes({
    parent: "/data-schemas/{id}/data-protections/{protection_id}",
    parentNoun: "data protection",
    segment: "protected-fields",
    param: "field_id",
    noun: "protected field",
    section: SECTION,
    response: DataProtectedFieldSchema,
    integrity:
      `${TRAINED_UNDER} A protection's last field cannot be deleted alone (409 CONFLICT): delete the protection.`,
  }),
  modelConstraints: subRoutes({
    parent: "/training-jobs/{id}",
    parentNoun: "training job",
    segment: "model-constraints",
    param: "constraint_id",
    noun: "model constraint",
    section: SECTION,
    response: ModelConstraintSchema,
    integrity:
      "Given at the job's create (model_constraints). While the model the job made exists, deleting it answers 409 INTEGRITY_ERROR listing the model (docs/contract.md#errors); a training job with constraints cannot be deleted before them.",
  }),
  modelConstraintGroups: subRoutes({
    parent: "/training-jobs/{id}",
    parentNoun: "training job",
    segment: "model-constraint-groups",
    param: "group_id",
    noun: "model constraint group",
    section: SECTION,
    response: ModelConstraintGroupSchema,
    integrity:
      "Given at the job's create (model_constraint_groups). While the model the job made exists, deleting it answers 409 INTEGRITY_ERROR listing the model (docs/contract.md#errors); a training job with constraint groups cannot be deleted before them.",
  }),
} as const;
