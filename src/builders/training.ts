// deno-doc-ignore-file private-type-ref missing-explicit-type missing-return-type -- protected builder internals are typed by the zod request schemas they validate with
/**
 * Training: the configuration (hyperparameters) and the job that turns a
 * dataset into a model.
 *
 * @module
 */
import type { TrainingJobCreateOptions } from "../resources/training_jobs.ts";
import type { CreateOptions } from "./base.ts";
import type { Hyperparameters } from "./hyperparameters.ts";
import {
  type ProcessingJobOptions,
  ProducingJobBuilder,
} from "./job_builder.ts";
import { nameAfter, ResourceBuilder } from "./spec.ts";
import { invalid } from "./validate.ts";
import type { FieldIssue } from "../schemas/errors.ts";
import { type ColumnSet, idOf, type RefLike, type TypedRef } from "./types.ts";

/** Options of a training configuration: a name, the hyperparameters, and the type. */
export interface TrainingConfigurationOptions extends Hyperparameters {
  /** Configuration name (unique in the account). */
  name: string;
  /** `INDUCTION` (default): an explainable boosted additive model. */
  modelTrainingType?: "INDUCTION";
  /** Capabilities asked of the model. */
  modelCapabilities?: { hasCausal?: boolean; estimatorsData?: boolean };
}

/**
 * Builds `POST /training-configurations`. Immutable; awaitable.
 *
 * @example
 * ```ts
 * import { TrainingConfigurationBuilder } from "./training.ts";
 * const b = new TrainingConfigurationBuilder(undefined, { name: "fast", learningRate: 0.2 });
 * if (b.with({ maxRounds: 200 }).body().max_rounds !== 200) throw new Error();
 * let refused = "";
 * try {
 *   b.with({ trainingSize: 0.9, validationSize: 0.3 }).body();
 * } catch (e) {
 *   refused = String(e);
 * }
 * if (!refused.includes('validation_size (option "validationSize")')) throw new Error(refused);
 * ```
 */
export class TrainingConfigurationBuilder extends ResourceBuilder<
  "trainingConfigurations",
  TrainingConfigurationOptions
> {
  /** Its definition. */
  protected readonly spec = this.define({
    route: "trainingConfigurations",
    seenAs: SEEN_AS,
  });

  /** The body as given; the capabilities' own fields in snake_case too. */
  protected override raw(): Record<string, unknown> {
    const body = super.raw();
    const capabilities = this.options.modelCapabilities;
    if (capabilities) {
      body.model_capabilities = {
        has_causal: capabilities.hasCausal,
        estimators_data: capabilities.estimatorsData,
      };
    }
    return body;
  }
}

/**
 * Names scikit-learn, XGBoost, LightGBM and InterpretML give the same
 * settings, suggested when a user brings them along (they are not
 * accepted: one name for each setting).
 */
const SEEN_AS: Readonly<Record<string, string>> = {
  max_iter: "max_rounds",
  n_estimators: "max_rounds",
  num_boost_round: "max_rounds",
  num_iterations: "max_rounds",
  outer_bags: "estimators",
  max_bins: "bins",
  max_bin: "bins",
  random_state: "random_seed",
  seed: "random_seed",
  early_stopping_rounds: "early_stopping_patience",
  n_iter_no_change: "early_stopping_patience",
  interactions: "max_interactions",
  min_samples_leaf: "partition_min_samples",
  min_child_samples: "partition_min_samples",
  min_data_in_leaf: "partition_min_samples",
  validation_fraction: "validation_size",
  l2_regularization: "alpha",
  reg_lambda: "alpha",
  eta: "learning_rate",
};

/** Options of a training job. */
export interface TrainingJobOptions<C extends ColumnSet = ColumnSet>
  extends ProcessingJobOptions {
  /** The dataset to train on (or its id). */
  dataset: TypedRef<C>;
  /** The workspace (sent as `X-Active-Workspace`; default: the client's). */
  workspace?: RefLike;
  /** Name of the model to create. */
  modelName: string;
  /** Train on spot capacity (default false). */
  managedSpotTraining?: boolean;
  /**
   * Per feature: monotone or excluded (docs/contract.md#model-constraints-and-protected-fields);
   * see {@linkcode TrainingJobBuilder.monotone} and {@linkcode TrainingJobBuilder.exclude}.
   */
  modelConstraints?: readonly TrainingConstraint<C["features"]>[];
  /** Feature groups inside which pairs may form; see {@linkcode TrainingJobBuilder.interactions}. */
  modelConstraintGroups?: readonly (readonly C["features"][])[];
  /** Also fit without the constraints and report both validation figures (`constraint_cost`). */
  measureConstraintCost?: boolean;
}

/** One model constraint: a feature monotone in a direction, or excluded. */
export interface TrainingConstraint<F extends string = string> {
  /** The feature. */
  field: F;
  /** What is asked of it. */
  constraint: "increasing" | "decreasing" | "excluded";
}

const CONSTRAINT_TYPES = {
  increasing: "MONOTONE_INCREASING",
  decreasing: "MONOTONE_DECREASING",
  excluded: "EXCLUDED",
} as const;

/** The one-call constraints of `ml.train` and `quickstart({ training })`. */
export interface OneCallConstraints {
  /** Per numeric feature, its direction. */
  monotone?: Readonly<Record<string, "increasing" | "decreasing">>;
  /** Features kept out of the model. */
  exclude?: readonly string[];
  /** Groups of features inside which pairs may form. */
  interactions?: readonly (readonly string[])[];
  /** Also fit without the constraints. */
  measureConstraintCost?: boolean;
}

/**
 * What is wrong with one-call constraints as given (from JavaScript too):
 * a direction that is not `increasing` or `decreasing`, a feature
 * constrained twice, a group of fewer than two features, a value of the
 * wrong shape; each issue named by its option under `prefix`. What needs
 * the dataset's schema (a feature that does not exist, a categorical one
 * made monotone) is the service's to say, or quickstart's on its inferred
 * schema.
 *
 * @example
 * ```ts
 * import { constraintIssues } from "./training.ts";
 * const issues = constraintIssues({ monotone: { a: "up" as never }, exclude: ["a"] }, "training.");
 * if (issues.map((i) => i.path).join() !== "training.monotone.a,training.exclude.0") throw new Error(JSON.stringify(issues));
 * if (constraintIssues({ monotone: { a: "increasing" }, interactions: [["a", "b"]] }).length !== 0) throw new Error();
 * ```
 */
export function constraintIssues(
  given: OneCallConstraints,
  prefix = "",
): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const add = (path: string, message: string) =>
    issues.push({ path: `${prefix}${path}`, message });
  const seen = new Set<string>();
  const { monotone, exclude, interactions, measureConstraintCost } = given;
  if (monotone !== undefined) {
    if (
      monotone === null || typeof monotone !== "object" ||
      Array.isArray(monotone)
    ) {
      add(
        "monotone",
        'give an object { feature: "increasing" | "decreasing" }',
      );
    } else {
      for (const [name, direction] of Object.entries(monotone)) {
        if (direction !== "increasing" && direction !== "decreasing") {
          add(
            `monotone.${name}`,
            `must be "increasing" or "decreasing", got ${
              JSON.stringify(direction)
            }`,
          );
        }
        seen.add(name);
      }
    }
  }
  if (exclude !== undefined) {
    if (!Array.isArray(exclude)) {
      add("exclude", "give an array of feature names");
    } else {
      exclude.forEach((name, i) => {
        if (typeof name !== "string" || name.trim() === "") {
          add(
            `exclude.${i}`,
            `must be a feature name, got ${JSON.stringify(name)}`,
          );
        } else if (seen.has(name)) {
          add(
            `exclude.${i}`,
            `"${name}" is constrained twice: one constraint per feature`,
          );
        }
        seen.add(name);
      });
    }
  }
  if (interactions !== undefined) {
    if (!Array.isArray(interactions)) {
      add(
        "interactions",
        "give an array of groups, each an array of feature names",
      );
    } else {
      interactions.forEach((group, i) => {
        if (!Array.isArray(group)) {
          add(`interactions.${i}`, "a group is an array of feature names");
        } else if (group.length < 2) {
          add(
            `interactions.${i}`,
            "a group names at least two features (pairs are formed inside it)",
          );
        } else {
          group.forEach((name, j) => {
            if (typeof name !== "string" || name.trim() === "") {
              add(
                `interactions.${i}.${j}`,
                `must be a feature name, got ${JSON.stringify(name)}`,
              );
            } else if (group.indexOf(name) < j) {
              add(
                `interactions.${i}.${j}`,
                `"${name}" is named twice in the group; name each feature once`,
              );
            }
          });
        }
      });
    }
  }
  if (
    measureConstraintCost !== undefined &&
    typeof measureConstraintCost !== "boolean"
  ) {
    add(
      "measureConstraintCost",
      `must be true or false, got ${JSON.stringify(measureConstraintCost)}`,
    );
  }
  return issues;
}

/**
 * The training job options of the one-call constraints
 * (`ml.train(dataset, { monotone, exclude, interactions, measureConstraintCost })`):
 * each monotone feature, then each excluded one, as a constraint; each
 * group as it is; nothing for what is not given.
 *
 * @example
 * ```ts
 * import { constraintsOf } from "./training.ts";
 * const o = constraintsOf({ monotone: { tenure: "decreasing" }, exclude: ["id"], interactions: [["a", "b"]] });
 * if (o.modelConstraints?.map((c) => c.constraint).join() !== "decreasing,excluded") throw new Error();
 * if (o.modelConstraintGroups?.length !== 1 || "measureConstraintCost" in o) throw new Error();
 * if (Object.keys(constraintsOf({})).length !== 0) throw new Error();
 * ```
 */
export function constraintsOf(
  given: OneCallConstraints,
): Pick<
  TrainingJobOptions,
  "modelConstraints" | "modelConstraintGroups" | "measureConstraintCost"
> {
  const issues = constraintIssues(given);
  if (issues.length) throw invalid("training options", issues);
  const constraints: TrainingConstraint[] = [
    ...Object.entries(given.monotone ?? {}).map(([field, constraint]) => ({
      field,
      constraint,
    })),
    ...(given.exclude ?? []).map((field) => ({
      field,
      constraint: "excluded" as const,
    })),
  ];
  return {
    ...(constraints.length ? { modelConstraints: constraints } : {}),
    ...(given.interactions?.length
      ? { modelConstraintGroups: given.interactions }
      : {}),
    ...(given.measureConstraintCost !== undefined
      ? { measureConstraintCost: given.measureConstraintCost }
      : {}),
  };
}

/**
 * Builds `POST /training-jobs`; `create()` returns a `Job` resolving to
 * the model once `COMPLETED`.
 *
 * @example
 * ```ts
 * import { TrainingJobBuilder } from "./training.ts";
 * const body = new TrainingJobBuilder(undefined, {
 *   dataset: "ds_1", configuration: "tc_1", compute: "cc_1", modelName: "churn",
 *   workspace: "ws_1", // sent as the X-Active-Workspace header, not in the body
 * }).body();
 * if (body.managed_spot_training !== false || "workspace" in body) throw new Error(JSON.stringify(body));
 * ```
 */
export class TrainingJobBuilder<C extends ColumnSet = ColumnSet>
  extends ProducingJobBuilder<"trainingJobs", TrainingJobOptions<C>, C> {
  /** Its definition. */
  protected readonly spec = this.define({
    route: "trainingJobs",
    wire: { configuration: "training_configuration_id", workspace: null },
    defaults: nameAfter("train", "modelName"),
  });

  /**
   * The prediction moves only one way as `feature` grows (a numeric
   * feature): its shape function and every pair containing it follow
   * `direction` exactly.
   *
   * @example
   * ```ts
   * import { TrainingJobBuilder } from "./training.ts";
   * const body = new TrainingJobBuilder(undefined, { dataset: "ds_1", configuration: "tc_1", compute: "cc_1", modelName: "m" })
   *   .monotone("tenure", "decreasing").exclude("total_charges").interactions(["a", "b"], ["c", "d"]).body();
   * if (body.model_constraints[0].constraint_type !== "MONOTONE_DECREASING") throw new Error();
   * if (body.model_constraints[1].constraint_type !== "EXCLUDED" || body.model_constraint_groups.length !== 2) throw new Error();
   * ```
   */
  monotone(
    feature: C["features"],
    direction: "increasing" | "decreasing",
  ): this {
    return this.#constrain({ field: feature, constraint: direction });
  }

  /** Keeps features out of the model (no term of them). */
  exclude(...features: C["features"][]): this {
    return this.with({
      modelConstraints: [
        ...(this.options.modelConstraints ?? []),
        ...features.map((field) => ({
          field,
          constraint: "excluded" as const,
        })),
      ],
    } as Partial<TrainingJobOptions<C>>);
  }

  /** Pairs form only inside these groups of features (none outside them). */
  interactions(...groups: (readonly C["features"][])[]): this {
    return this.with({
      modelConstraintGroups: [
        ...(this.options.modelConstraintGroups ?? []),
        ...groups,
      ],
    } as Partial<TrainingJobOptions<C>>);
  }

  #constrain(c: TrainingConstraint<C["features"]>): this {
    return this.with({
      modelConstraints: [...(this.options.modelConstraints ?? []), c],
    } as Partial<TrainingJobOptions<C>>);
  }

  /** The body; constraints and groups in their wire shape. */
  protected override raw(): Record<string, unknown> {
    const body = super.raw();
    const { modelConstraints, modelConstraintGroups } = this.options;
    if (modelConstraints) {
      body.model_constraints = modelConstraints.map((c) => ({
        field: c.field,
        constraint_type: CONSTRAINT_TYPES[c.constraint],
      }));
    }
    if (modelConstraintGroups) {
      body.model_constraint_groups = modelConstraintGroups.map((g) => ({
        fields: [...g],
      }));
    }
    return body;
  }

  /** Sends `workspace` as `X-Active-Workspace`; when not given, the client's applies. */
  protected override requestOptions(
    options?: CreateOptions,
  ): CreateOptions | undefined {
    const workspaceId = idOf(this.options.workspace);
    if (!workspaceId) return options;
    const inWorkspace: TrainingJobCreateOptions = { ...options, workspaceId };
    return inWorkspace;
  }
}
