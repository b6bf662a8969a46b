// deno-doc-ignore-file private-type-ref missing-explicit-type -- wire types are inferred from these zod schemas (one source of truth), so they name zod's own types
/**
 * Training: configurations (the hyperparameters of SPEC.md) and training jobs
 * that turn a dataset into a model.
 *
 * SPEC.md asks readers to treat every training configuration field as
 * optional, so the response schema is fully optional-tolerant. Every
 * hyperparameter is optional in a create request too; the service applies
 * its documented default (on the local platform: `DEFAULT_PARAMS` in
 * src/local/model/params.ts) and echoes the resolved value.
 *
 * @module
 */
import { z } from "zod";
import {
  IdSchema,
  NameSchema,
  openEnum,
  ownedFields,
  RefSchema,
  TimestampSchema,
} from "./common.ts";
import { jobFields } from "./jobs.ts";
import { LearningCurveSchema } from "./learning_curve.ts";

/** Training types SPEC.md shows. */
export const MODEL_TRAINING_TYPES = ["INDUCTION"] as const;
/** Binning strategies: SPEC.md shows `UNIFORM`; `QUANTILE` is ours. */
export const BINNING_STRATEGIES = ["UNIFORM", "QUANTILE"] as const;
/** Boosting strategies SPEC.md shows. */
export const BOOSTING_STRATEGIES = ["NO_GROUPING"] as const;

const fraction = z.number().min(0).max(1);
const positive = z.number().positive();
const nonNegative = z.number().min(0);
const count = z.int().min(0);
const atLeastOne = z.int().min(1);

/**
 * Every hyperparameter of SPEC.md's training configuration, with the bounds
 * the local platform enforces. All optional.
 */
export const hyperparameterShape = {
  binning_strategy: z.enum(BINNING_STRATEGIES),
  boosting_strategy: z.enum(BOOSTING_STRATEGIES),
  alpha: nonNegative,
  alpha_factor: positive,
  bin_min_distance: nonNegative,
  estimators_winsorize_level: fraction,
  l1_ratio: fraction,
  l1_ratio_delta: nonNegative,
  learning_rate: z.number().positive().max(1),
  learning_rate_decay: z.number().positive().max(1),
  max_samples: z.number().positive(),
  partition_min_delta: nonNegative,
  partition_min_delta_factor: nonNegative,
  partition_min_delta_fraction: fraction,
  prune_threshold: nonNegative,
  subsample: z.number().positive().max(1),
  training_size: z.number().positive().max(1),
  validation_size: fraction,
  bins: z.int().min(2).max(1024),
  early_stopping_patience: count,
  estimators: atLeastOne,
  init_depth: count,
  learning_rate_patience: count,
  log_interval: atLeastOne,
  max_depth: atLeastOne,
  max_depth_momentum: count,
  max_interaction_degree: z.int().min(1).max(2),
  max_interactions: count,
  max_iterations: atLeastOne,
  max_polynomial_degree: atLeastOne,
  max_rounds: atLeastOne,
  model_complexity_max_iterations: count,
  model_complexity_patience: count,
  partition_min_samples: atLeastOne,
  prune_patience: count,
  exclude_implicit: z.boolean(),
  sparse_model: z.boolean(),
  /** Seed of every random choice in training (ours: SPEC.md shows none). */
  random_seed: z.int().min(0),
} as const;

/** Names of every hyperparameter. */
export type HyperparameterName = keyof typeof hyperparameterShape;

/** `model_capabilities` of a training configuration. */
export const ModelCapabilitiesSchema = z.looseObject({
  has_causal: z.boolean().optional(),
  estimators_data: z.boolean().optional(),
}).meta({ id: "ModelCapabilities" });

/** A training configuration, read optional-tolerant as SPEC.md asks. */
export const TrainingConfigurationSchema = z.looseObject({
  id: IdSchema,
  name: z.string().optional(),
  account: RefSchema.optional(),
  created_at: TimestampSchema.optional(),
  updated_at: TimestampSchema.nullish(),
  created_by: RefSchema.optional(),
  model_training_type: openEnum(MODEL_TRAINING_TYPES).optional(),
  ...Object.fromEntries(
    Object.entries(hyperparameterShape).map((
      [key, schema],
    ) => [key, (key.endsWith("_strategy") ? z.string() : schema).nullish()]),
  ) as {
    [K in HyperparameterName]: z.ZodOptional<
      z.ZodNullable<
        K extends `${string}_strategy` ? z.ZodString
          : typeof hyperparameterShape[K]
      >
    >;
  },
  model_capabilities: ModelCapabilitiesSchema.nullish(),
  /** Hyperparameters stored but not used by this training type (ours). */
  unused_parameters: z.array(z.string()).optional(),
}).meta({ id: "TrainingConfiguration" });
/** A training configuration. */
export type TrainingConfiguration = z.infer<
  typeof TrainingConfigurationSchema
>;

/** Body of `POST /training-configurations`. */
export const TrainingConfigurationCreateSchema = z.object({
  name: NameSchema,
  model_training_type: z.enum(MODEL_TRAINING_TYPES).default("INDUCTION"),
  ...hyperparameterShape,
  model_capabilities: z.object({
    has_causal: z.boolean().optional(),
    estimators_data: z.boolean().optional(),
  }).optional(),
}).partial({
  ...Object.fromEntries(
    Object.keys(hyperparameterShape).map((key) => [key, true]),
  ) as { [K in HyperparameterName]: true },
}).superRefine((body, ctx) => {
  const train = body.training_size ?? 0.8;
  const valid = body.validation_size ?? 0.2;
  if (train + valid > 1 + 1e-12) {
    ctx.addIssue({
      code: "custom",
      path: ["validation_size"],
      message:
        `training_size + validation_size must be at most 1 (got ${train} + ${valid})`,
    });
  }
}).meta({ id: "TrainingConfigurationCreate" });
/** Body of `POST /training-configurations`. */
export type TrainingConfigurationCreate = z.input<
  typeof TrainingConfigurationCreateSchema
>;

/** A training job. */
export const TrainingJobSchema = z.looseObject({
  ...ownedFields,
  ...jobFields,
  name: z.string(),
  dataset: RefSchema,
  workspace: RefSchema,
  training_configuration: RefSchema,
  compute_configuration: RefSchema,
  model: RefSchema,
  managed_spot_training: z.boolean().optional(),
  maximum_wait_time_seconds: z.number().int().optional(),
  model_constraints: z.array(z.unknown()).optional(),
  model_constraint_groups: z.array(z.unknown()).optional(),
  /** Loss per logged round, growing while the job runs (our extension). */
  learning_curve: LearningCurveSchema.optional(),
}).meta({ id: "TrainingJob" });
/** A training job. */
export type TrainingJob = z.infer<typeof TrainingJobSchema>;

/** Body of `POST /training-jobs` (with header `X-Active-Workspace`). */
export const TrainingJobCreateSchema = z.object({
  name: NameSchema,
  dataset_id: IdSchema,
  training_configuration_id: IdSchema,
  compute_configuration_id: IdSchema,
  model_name: NameSchema,
  managed_spot_training: z.boolean().default(false),
}).meta({ id: "TrainingJobCreate" });
/** Body of `POST /training-jobs`. */
export type TrainingJobCreate = z.input<typeof TrainingJobCreateSchema>;
