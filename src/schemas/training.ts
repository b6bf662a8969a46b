// deno-doc-ignore-file private-type-ref missing-explicit-type -- wire types are inferred from these zod schemas (one source of truth), so they name zod's own types
/**
 * Training: configurations (the hyperparameters of docs/api.md#resources) and training jobs
 * that turn a dataset into a model.
 *
 * docs/api.md#resources asks readers to treat every training configuration field as
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
  RefSchema,
  TimestampSchema,
} from "./common.ts";
import { jobFields } from "./jobs.ts";
import { LearningCurveSchema } from "./learning_curve.ts";
import {
  ModelConstraintGroupSchema,
  ModelConstraintSchema,
  trainingConstraintFields,
} from "./constraints.ts";

/** Training types docs/api.md#resources shows. */
export const MODEL_TRAINING_TYPES = ["INDUCTION"] as const;
/** Binning strategies: docs/api.md#resources shows `UNIFORM`; `QUANTILE` is ours. */
export const BINNING_STRATEGIES = ["UNIFORM", "QUANTILE"] as const;
/** Boosting strategies docs/api.md#resources shows. */
export const BOOSTING_STRATEGIES = ["NO_GROUPING"] as const;

/**
 * Bounds of one numeric hyperparameter: `[min, max]` (or `(min, max]` when
 * `minExclusive`), an integer when `int`, and what the value means.
 */
export interface HyperparameterBounds {
  /** Smallest accepted value. */
  readonly min: number;
  /** The minimum itself is refused (`> min`). */
  readonly minExclusive?: boolean;
  /** Largest accepted value. */
  readonly max: number;
  /** Only integers (docs/api.md#resources lists the field among the integers). */
  readonly int?: boolean;
  /** What the value means and why the range is what it is. */
  readonly doc: string;
}

// A million rounds: far beyond any useful training, still cancellable (a
// mistake the jobs notebook shows being stopped); 1e12 is refused.
const MAX_ROUNDS = 1_000_000;
const MAX_ROWS = 1_000_000_000;

/**
 * The documented bounds of every numeric hyperparameter of the published (docs/api.md#resources)
 * training configuration: integers where docs/api.md#resources lists the field among the
 * integers, fractions in [0, 1], counts of rounds at most 1,000,000, depths at
 * most 32. A value outside them is refused before a request is sent (the
 * builders) and with a 400 naming the field at create time (the local
 * platform validates with these schemas; its model may be stricter, e.g.
 * `bins` at most 254, and says so in the same way).
 *
 * @example
 * ```ts
 * import { HYPERPARAMETER_BOUNDS } from "./training.ts";
 * HYPERPARAMETER_BOUNDS.max_rounds.max; // 1000000
 * HYPERPARAMETER_BOUNDS.l1_ratio; // { min: 0, max: 1, doc: "..." }
 * ```
 */
export const HYPERPARAMETER_BOUNDS = {
  alpha: {
    min: 0,
    max: 1e6,
    doc:
      "Regularisation strength (L2, or elastic net with l1_ratio) of the term scores, 0..1e6.",
  },
  alpha_factor: {
    min: 0,
    minExclusive: true,
    max: 1000,
    doc: "Growth factor of alpha between searches, in (0, 1000].",
  },
  bin_min_distance: {
    min: 0,
    max: 1,
    doc:
      "Minimum distance between adjacent bin edges, as a fraction of the feature's range, 0..1.",
  },
  estimators_winsorize_level: {
    min: 0,
    max: 0.5,
    doc:
      "Fraction of the estimators' outputs clipped at each end before averaging, 0..0.5.",
  },
  l1_ratio: {
    min: 0,
    max: 1,
    doc: "Elastic-net mix: 0 = L2 only, 1 = L1 only, 0..1.",
  },
  l1_ratio_delta: {
    min: 0,
    max: 1,
    doc: "Step of l1_ratio in a search, 0..1.",
  },
  learning_rate: {
    min: 0,
    minExclusive: true,
    max: 1,
    doc: "Shrinkage of every boosting step, in (0, 1].",
  },
  learning_rate_decay: {
    min: 0,
    minExclusive: true,
    max: 1,
    doc:
      "Multiplier of the learning rate on a plateau, in (0, 1] (1 = no decay).",
  },
  max_samples: {
    min: 0,
    minExclusive: true,
    max: MAX_ROWS,
    doc:
      "Rows drawn per estimator: a fraction in (0, 1], or an integer count above 1 (at most 1e9).",
  },
  partition_min_delta: {
    min: 0,
    max: 1e6,
    doc: "Minimum loss reduction of a partition (split), 0..1e6.",
  },
  partition_min_delta_factor: {
    min: 0,
    max: 1000,
    doc: "Factor applied to partition_min_delta, 0..1000.",
  },
  partition_min_delta_fraction: {
    min: 0,
    max: 1,
    doc: "partition_min_delta as a fraction of the loss, 0..1.",
  },
  prune_threshold: {
    min: 0,
    max: 1e6,
    doc: "Terms whose importance is below this are pruned, 0..1e6.",
  },
  subsample: {
    min: 0,
    minExclusive: true,
    max: 1,
    doc: "Fraction of training rows drawn for each boosting round, in (0, 1].",
  },
  training_size: {
    min: 0,
    minExclusive: true,
    max: 1,
    doc: "Fraction of the dataset used to fit, in (0, 1].",
  },
  validation_size: {
    min: 0,
    max: 1,
    doc:
      "Fraction used for early stopping, 0..1 (training_size + validation_size <= 1).",
  },
  bins: {
    min: 2,
    max: 1024,
    int: true,
    doc: "Maximum bins per numeric feature, integer 2..1024.",
  },
  early_stopping_patience: {
    min: 0,
    max: MAX_ROUNDS,
    int: true,
    doc:
      "Rounds without validation improvement before stopping, integer 0..1000000.",
  },
  estimators: {
    min: 1,
    max: MAX_ROUNDS,
    int: true,
    doc: "Number of estimators, integer 1..1000000.",
  },
  init_depth: {
    min: 0,
    max: 32,
    int: true,
    doc: "Initial tree depth, integer 0..32.",
  },
  learning_rate_patience: {
    min: 0,
    max: MAX_ROUNDS,
    int: true,
    doc:
      "Rounds without improvement before learning_rate_decay applies, integer 0..1000000.",
  },
  log_interval: {
    min: 1,
    max: MAX_ROUNDS,
    int: true,
    doc: "Progress is reported every this many rounds, integer 1..1000000.",
  },
  max_depth: {
    min: 1,
    max: 32,
    int: true,
    doc: "Depth of the tree fitted in each boosting step, integer 1..32.",
  },
  max_depth_momentum: {
    min: 0,
    max: 32,
    int: true,
    doc: "Depth growth per round, integer 0..32.",
  },
  max_interaction_degree: {
    min: 1,
    max: 2,
    int: true,
    doc: "1 = single-feature terms only, 2 = also pairwise terms.",
  },
  max_interactions: {
    min: 0,
    max: 100_000,
    int: true,
    doc: "Maximum number of pairwise terms, integer 0..100000.",
  },
  max_iterations: {
    min: 1,
    max: MAX_ROUNDS,
    int: true,
    doc: "Iterations of an inner solver, integer 1..1000000.",
  },
  max_polynomial_degree: {
    min: 1,
    max: 10,
    int: true,
    doc: "Degree of polynomial terms, integer 1..10.",
  },
  max_rounds: {
    min: 1,
    max: MAX_ROUNDS,
    int: true,
    doc: "Maximum boosting rounds, integer 1..1000000.",
  },
  model_complexity_max_iterations: {
    min: 0,
    max: 1000,
    int: true,
    doc: "Iterations of the model-complexity search, integer 0..1000.",
  },
  model_complexity_patience: {
    min: 0,
    max: 1000,
    int: true,
    doc: "Patience of the model-complexity search, integer 0..1000.",
  },
  partition_min_samples: {
    min: 1,
    max: MAX_ROWS,
    int: true,
    doc: "Minimum training rows in every leaf, integer 1..1e9.",
  },
  prune_patience: {
    min: 0,
    max: MAX_ROUNDS,
    int: true,
    doc:
      "Rounds a term stays below prune_threshold before it is pruned, integer 0..1000000.",
  },
  random_seed: {
    min: 0,
    max: 4_294_967_295,
    int: true,
    doc:
      "Seed of every random choice in training (ours: docs/api.md#resources shows none), integer 0..2^32-1.",
  },
} as const satisfies Record<string, HyperparameterBounds>;

/** Names of the numeric hyperparameters. */
export type NumericHyperparameterName = keyof typeof HYPERPARAMETER_BOUNDS;

/** The zod schema of one numeric hyperparameter, from its bounds. */
function bounded(b: HyperparameterBounds): z.ZodNumber {
  let schema = b.int ? z.int() : z.number();
  schema = b.minExclusive
    ? schema.gt(b.min, `must be greater than ${b.min}`)
    : schema.min(b.min, `must be at least ${b.min}`);
  return schema.max(b.max, `must be at most ${b.max}`).describe(b.doc);
}

const numericShape = Object.fromEntries(
  Object.entries(HYPERPARAMETER_BOUNDS).map(([k, b]) => [k, bounded(b)]),
) as { [K in NumericHyperparameterName]: z.ZodNumber };

/**
 * Every hyperparameter of the published (docs/api.md#resources) training configuration, with the bounds
 * of {@link HYPERPARAMETER_BOUNDS}. All optional.
 */
export const hyperparameterShape = {
  binning_strategy: z.enum(BINNING_STRATEGIES),
  boosting_strategy: z.enum(BOOSTING_STRATEGIES),
  ...numericShape,
  exclude_implicit: z.boolean(),
  sparse_model: z.boolean(),
} as const;

/** Names of every hyperparameter. */
export type HyperparameterName = keyof typeof hyperparameterShape;

/** `model_capabilities` of a training configuration. */
export const ModelCapabilitiesSchema = z.looseObject({
  has_causal: z.boolean().optional(),
  estimators_data: z.boolean().optional(),
}).meta({ id: "ModelCapabilities" });

/** A training configuration, read optional-tolerant as docs/api.md#resources asks. */
export const TrainingConfigurationSchema = z.looseObject({
  id: IdSchema,
  name: z.string().optional(),
  account: RefSchema.optional(),
  created_at: TimestampSchema.optional(),
  updated_at: TimestampSchema.nullish(),
  created_by: RefSchema.optional(),
  model_training_type: openEnum(MODEL_TRAINING_TYPES).optional(),
  // Read tolerant of any value (another service may accept more than our
  // bounds): strategies as strings, numbers as numbers.
  ...Object.fromEntries(
    Object.entries(hyperparameterShape).map((
      [key, schema],
    ) => [
      key,
      (key.endsWith("_strategy")
        ? z.string()
        : key in HYPERPARAMETER_BOUNDS
        ? z.number()
        : schema).nullish(),
    ]),
  ) as {
    [K in HyperparameterName]: z.ZodOptional<
      z.ZodNullable<
        K extends `${string}_strategy` ? z.ZodString
          : K extends NumericHyperparameterName ? z.ZodNumber
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
  if (
    body.max_samples !== undefined && body.max_samples > 1 &&
    !Number.isInteger(body.max_samples)
  ) {
    ctx.addIssue({
      code: "custom",
      path: ["max_samples"],
      message:
        `max_samples above 1 is a count of rows and must be an integer (got ${body.max_samples}); give a fraction in (0, 1] or a whole number`,
    });
  }
  const train = body.training_size ?? 0.8;
  const valid = body.validation_size ?? 0.2;
  // Each out of its own range is already named; the sum is checked otherwise.
  if (train <= 1 && valid <= 1 && train + valid > 1 + 1e-12) {
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
  ...jobFields,
  name: z.string(),
  dataset: RefSchema,
  workspace: RefSchema,
  training_configuration: RefSchema,
  compute_configuration: RefSchema,
  model: RefSchema,
  managed_spot_training: z.boolean().optional(),
  maximum_wait_time_seconds: z.number().int().optional(),
  model_constraints: z.array(ModelConstraintSchema).optional(),
  model_constraint_groups: z.array(ModelConstraintGroupSchema).optional(),
  /** Whether the model also reports its validation figure without the constraints (ours). */
  measure_constraint_cost: z.boolean().optional(),
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
  // docs/contract.md#model-constraints-and-protected-fields
  ...trainingConstraintFields,
}).meta({ id: "TrainingJobCreate" });
/** Body of `POST /training-jobs`. */
export type TrainingJobCreate = z.input<typeof TrainingJobCreateSchema>;
