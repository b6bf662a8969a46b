// deno-doc-ignore-file private-type-ref missing-explicit-type -- wire types are inferred from these zod schemas (one source of truth), so they name zod's own types
/**
 * What jobs create: datasources (ingestion), datasets (onboarding) and models
 * (training). docs/api.md#resources names them but shows no fields beyond `{id,name}`; the
 * shapes here are ours (docs/contract.md#paths), tolerant like every response.
 *
 * @module
 */
import { z } from "zod";
import { openEnum, ownedFields, RefSchema, TimestampSchema } from "./common.ts";
import { LearningCurveSchema } from "./learning_curve.ts";
import { AppliedAnchorSchema, FieldLabelsSchema } from "./labels.ts";
import {
  ConstraintCostSchema,
  FieldGroupMetricsSchema,
} from "./constraints.ts";

/**
 * Lifecycle of an artifact: created with its job, ready when the job
 * completes, failed or cancelled with it (`CANCELLED` follows our cancel
 * extension of the published API, docs/contract.md#paths).
 */
export const ARTIFACT_STATUSES = [
  "PENDING",
  "READY",
  "FAILED",
  "CANCELLED",
] as const;

/** Fields every artifact carries besides its own: owned fields, name, status. */
const artifactFields = {
  ...ownedFields,
  name: z.string(),
  status: openEnum(ARTIFACT_STATUSES).optional(),
  updated_at: TimestampSchema.nullish(),
} as const;

/**
 * The prediction task a dataset is encoded for and a model learned: its
 * feature and target names, and each categorical target's classes.
 */
const taskFields = {
  features: z.array(z.string()).optional(),
  targets: z.array(z.string()).optional(),
  classes: z.record(z.string(), z.array(z.string())).optional(),
} as const;

/** A datasource: the rows read by an ingestion job. */
export const DatasourceSchema = z.looseObject({
  ...artifactFields,
  data_schema: RefSchema.optional(),
  storage_connector: RefSchema.optional(),
  data_path: z.string().optional(),
  row_count: z.number().int().nullish(),
  columns: z.array(z.string()).optional(),
}).meta({ id: "Datasource" });
/** A datasource. */
export type Datasource = z.infer<typeof DatasourceSchema>;

/** A dataset: a datasource encoded for a prediction task. */
export const DatasetSchema = z.looseObject({
  ...artifactFields,
  datasource: RefSchema.optional(),
  data_processing_configuration: RefSchema.optional(),
  row_count: z.number().int().nullish(),
  /** Rows left out while encoding (a missing target, for example). */
  dropped_rows: z.number().int().nonnegative().optional(),
  ...taskFields,
}).meta({ id: "Dataset" });
/** A dataset. */
export type Dataset = z.infer<typeof DatasetSchema>;

/**
 * Which rows a model's validation metrics were measured on (our extension,
 * docs/contract.md#model-validation-rows): the onboarded rows in the
 * seeded stratified order, after the first `training_size` fraction the next
 * `validation_size` fraction; `row_indices` lists them (datasource rows,
 * 0-based, header excluded, ascending), or is null beyond 50,000 rows.
 */
export const ValidationSplitSchema = z.looseObject({
  rule: z.literal("stratified"),
  seed: z.number(),
  training_size: z.number(),
  validation_size: z.number(),
  rows: z.number().int(),
  row_indices: z.array(z.number().int()).nullable(),
}).meta({ id: "ValidationSplit" });

/**
 * A schema feature the model could not use (our extension,
 * docs/contract.md#model-validation-rows): constant, empty, or an identifier.
 */
export const DroppedFeatureSchema = z.looseObject({
  name: z.string(),
  reason: z.string(),
}).meta({ id: "DroppedFeature" });

/**
 * A feature the model derived from a date column (our extension,
 * docs/contract.md#model-validation-rows): its name (`<column>:<part>`, the
 * name of its term in views and explanations), the input column it reads
 * and the part: `weekday` (Mon..Sun), `month` (Jan..Dec) or `hour` (0..23,
 * UTC).
 */
export const DerivedFeatureSchema = z.looseObject({
  name: z.string(),
  column: z.string(),
  part: z.string(),
}).meta({ id: "DerivedFeature" });

/**
 * One class's validation metrics (our extension, docs/contract.md#model-validation-rows):
 * its one-vs-rest ROC AUC on its probability, null when
 * the validation rows lack the class.
 */
export const ClassMetricsSchema = z.looseObject({
  class: z.string(),
  validation_auc: z.number().nullable(),
}).meta({ id: "ClassMetrics" });

/**
 * A regression model's link (our extension, docs/contract.md#views):
 * `identity` (the prediction is `bias` plus the contributions) or `log`
 * (it is `exp` of that sum).
 */
export const LinkSchema = z.enum(["identity", "log"]).meta({ id: "Link" });

/** A model: what a training job learned. */
export const ModelSchema = z.looseObject({
  ...artifactFields,
  dataset: RefSchema.optional(),
  training_job: RefSchema.optional(),
  training_configuration: RefSchema.optional(),
  workspace: RefSchema.optional(),
  model_training_type: z.string().optional(),
  ...taskFields,
  terms: z.array(z.string()).optional(),
  metrics: z.record(z.string(), z.number().nullable()).optional(),
  /** Why boosting stopped (the round cap, early stopping, the runtime cap). */
  stop_reason: z.string().optional(),
  /**
   * Regression (our extension, docs/contract.md#views): how the prediction
   * follows from `bias` plus the contributions: `identity`, their sum;
   * `log`, their sum is the prediction's natural log.
   */
  link: LinkSchema.optional(),
  /** Per class, in `classes` order: its validation metrics (our extension). */
  class_metrics: z.array(ClassMetricsSchema).optional(),
  /** Schema features left out of the model, with why (our extension). */
  dropped_features: z.array(DroppedFeatureSchema).optional(),
  /** Features derived from a date column, with the column (our extension). */
  derived_features: z.array(DerivedFeatureSchema).optional(),
  /** The rows `metrics` validated on (our extension). */
  validation: ValidationSplitSchema.optional(),
  /** The loss per logged round of the training that made it (our extension). */
  learning_curve: LearningCurveSchema.optional(),
  /** Its schema's labels, read when the model is (docs/contract.md#labels-and-anchors). */
  field_labels: FieldLabelsSchema.optional(),
  /** Per protected field, its groups' figures on the validation rows (ours). */
  group_metrics: z.array(FieldGroupMetricsSchema).optional(),
  /** The validation figure with and without the constraints, when asked (ours). */
  constraint_cost: ConstraintCostSchema.optional(),
}).meta({ id: "Model" });
/** A model. */
export type Model = z.infer<typeof ModelSchema>;

/** One term of a model's global explanation. */
export const TermExplanationSchema = z.looseObject({
  name: z.string(),
  features: z.array(z.string()),
  importance: z.number(),
  /** Bin labels along each feature of the term (one list per feature). */
  labels: z.array(z.array(z.string())),
  /**
   * Scores per class (binary: one list, for the positive class), flattened
   * row-major over the term's bins.
   */
  scores: z.array(z.array(z.number())),
}).meta({ id: "TermExplanation" });
/** One term of a model's global explanation. */
export type TermExplanation = z.infer<typeof TermExplanationSchema>;

/** `GET /models/{id}/explanation`: how every term shapes the prediction. */
export const GlobalExplanationSchema = z.looseObject({
  target: z.string(),
  classes: z.array(z.string()),
  /**
   * Which class each list of `scores` speaks for (regression: the target's
   * name, the scores being in its units, or with the `log` link in their
   * log; `classes` is then empty).
   */
  score_classes: z.array(z.string()),
  /** Regression: the model's link; with `log` the scores are in the log of the target's units. */
  link: LinkSchema.optional(),
  intercept: z.array(z.number()),
  terms: z.array(TermExplanationSchema),
  /** Labels of the fields that have any (our extension, docs/contract.md#labels-and-anchors). */
  field_labels: FieldLabelsSchema.optional(),
  /** The anchor the shapes and intercept are measured against, when one is. */
  anchor: AppliedAnchorSchema.optional(),
}).meta({ id: "GlobalExplanation" });
/** A model's global explanation. */
export type GlobalExplanation = z.infer<typeof GlobalExplanationSchema>;
