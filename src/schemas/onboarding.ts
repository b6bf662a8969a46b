// deno-doc-ignore-file private-type-ref missing-explicit-type -- wire types are inferred from these zod schemas (one source of truth), so they name zod's own types
/**
 * Onboarding: a configuration saying how a datasource is encoded for a
 * prediction task, and jobs that turn a datasource into a dataset.
 *
 * @module
 */
import { z } from "zod";
import {
  columnNamesSchema,
  configurationFields,
  IdSchema,
  NameSchema,
  openEnum,
  RefSchema,
} from "./common.ts";
import { processingJobCreateFields, processingJobFields } from "./jobs.ts";

/** Configuration types docs/api.md#resources shows. */
export const CONFIGURATION_TYPES = ["INITIAL"] as const;
/**
 * Prediction types: docs/api.md#resources shows `CLASSIFICATION` (a CATEGORICAL target);
 * `REGRESSION` (a NUMBER target, predicted as a number) is ours.
 */
export const PREDICTION_TYPES = ["CLASSIFICATION", "REGRESSION"] as const;
/** A prediction type. */
export type PredictionType = typeof PREDICTION_TYPES[number];
/** Encoding strategies docs/api.md#resources shows. */
export const ENCODING_STRATEGIES = ["STREAM"] as const;
/** Sharding strategies docs/api.md#resources shows. */
export const SHARDING_STRATEGIES = ["PROPORTIONATE"] as const;

const fraction = z.number().min(0).max(1);

/** A data processing onboarding configuration. */
export const OnboardingConfigurationSchema = z.looseObject({
  ...configurationFields,
  configuration_type: openEnum(CONFIGURATION_TYPES),
  prediction_type: openEnum(PREDICTION_TYPES),
  encoding_strategy: openEnum(ENCODING_STRATEGIES),
  handle_unseen_categories: z.boolean(),
  impute: z.boolean(),
  one_hot_encoding_max_categories: z.number().int(),
  strip_categories: z.boolean(),
  targets: z.array(z.string()),
  feature_groups: z.array(z.unknown()).optional(),
  infrequency_threshold: z.number().optional(),
  mask_category_fraction: z.number().optional(),
  mask_fraction: z.number().optional(),
  mask_median_fraction: z.number().optional(),
  mask_rows_fraction: z.number().optional(),
  shards: z.string().optional(),
  sharding_strategy: openEnum(SHARDING_STRATEGIES).optional(),
}).meta({ id: "OnboardingConfiguration" });
/** A data processing onboarding configuration. */
export type OnboardingConfiguration = z.infer<
  typeof OnboardingConfigurationSchema
>;

/**
 * Body of `POST /data-processing-onboarding-configurations`. Fields past the
 * ones docs/api.md#resources requires are optional; their defaults are the ones documented
 * here and applied by the service.
 */
export const OnboardingConfigurationCreateSchema = z.object({
  configuration_type: z.enum(CONFIGURATION_TYPES).default("INITIAL"),
  name: NameSchema,
  prediction_type: z.enum(PREDICTION_TYPES).default("CLASSIFICATION"),
  encoding_strategy: z.enum(ENCODING_STRATEGIES).default("STREAM"),
  /** Map categories never seen in training to the "other" bucket (else a views error). */
  handle_unseen_categories: z.boolean().default(true),
  /** Replace missing values (median / most frequent) instead of giving them their own bin. */
  impute: z.boolean().default(false),
  /**
   * At most this many categories per column are kept (the most frequent);
   * the rest share one "other" bucket. The default, 4096, keeps every
   * level of a many-level column (a zip code, a product id) where a byte's
   * 254 merged all but the most frequent: the model shrinks each level's
   * effect toward the levels' mean by its rows (ridge-like, for a column of
   * 10 levels or more), so rare levels do not overfit (BENCHMARKS.md, 7:
   * "Table kinds the benchmark lacks"). Above 65,534 (what a category code
   * holds) counts as 65,534.
   */
  one_hot_encoding_max_categories: z.number().int().min(1).default(4096),
  /** Trim white space around category values. */
  strip_categories: z.boolean().default(true),
  /** Target column names (at least one), trimmed as a schema's field names are. */
  targets: columnNamesSchema("target").min(
    1,
    "name at least one target column",
  ),
  /**
   * Categories rarer than this fraction of rows share one bucket. Default
   * 0: every level seen in training keeps its own (before, 0.005: a level
   * under 0.5% of the rows went to "other"; give it to keep that).
   */
  infrequency_threshold: fraction.default(0),
  mask_category_fraction: fraction.default(0),
  mask_fraction: fraction.default(0),
  mask_median_fraction: fraction.default(0),
  mask_rows_fraction: fraction.default(0),
  shards: z.string().regex(
    /^\d+(\.\d+)?\s*(B|KB|MB|GB|TB)$/i,
    'a size with a unit, like "128MB"',
  ).default("128MB"),
  sharding_strategy: z.enum(SHARDING_STRATEGIES).default("PROPORTIONATE"),
  feature_groups: z.array(z.unknown()).default([]),
}).meta({ id: "OnboardingConfigurationCreate" });
/** Body of `POST /data-processing-onboarding-configurations`. */
export type OnboardingConfigurationCreate = z.input<
  typeof OnboardingConfigurationCreateSchema
>;

/** A data processing onboarding job. */
export const OnboardingJobSchema = z.looseObject({
  ...processingJobFields,
  datasource: RefSchema,
  dataset: RefSchema,
}).meta({ id: "OnboardingJob" });
/** A data processing onboarding job. */
export type OnboardingJob = z.infer<typeof OnboardingJobSchema>;

/** Body of `POST /data-processing-onboarding-jobs`. */
export const OnboardingJobCreateSchema = z.object({
  ...processingJobCreateFields,
  datasource_id: IdSchema,
  dataset_name: NameSchema,
}).meta({ id: "OnboardingJobCreate" });
/** Body of `POST /data-processing-onboarding-jobs`. */
export type OnboardingJobCreate = z.input<typeof OnboardingJobCreateSchema>;
