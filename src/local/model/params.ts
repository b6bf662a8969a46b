/**
 * Training hyperparameters: every field of the training configuration
 * (docs/api.md#resources), its documented default, and
 * {@link resolveParams}, which validates an input and reports the names the
 * local model does not use (so the platform can say so instead of silently
 * dropping them).
 *
 * @example
 * ```ts
 * import { resolveParams } from "./params.ts";
 *
 * const { params, unused } = resolveParams({ learning_rate: 0.05, max_iterations: 5 });
 * if (!(params.learning_rate === 0.05 && unused.includes("max_iterations"))) throw new Error("example failed");
 * ```
 *
 * @module
 */

import type { z } from "zod";
import {
  BINNING_STRATEGIES,
  BOOSTING_STRATEGIES,
  HYPERPARAMETER_BOUNDS,
  type HyperparameterName,
  type hyperparameterShape,
} from "../../schemas/training.ts";
import { ModelParamError } from "./errors.ts";

/** The model's name of a wire hyperparameter: only `random_seed` differs (`seed`). */
type ParamName<K extends HyperparameterName> = K extends "random_seed" ? "seed"
  : K;

/**
 * All training-configuration hyperparameters: the names and value types of
 * the wire schema's `hyperparameterShape` (so the two sets cannot drift),
 * with `random_seed` called `seed`. {@link DEFAULT_PARAMS} documents each one;
 * the fields marked "used" there drive the local explainable boosted model,
 * the others are accepted, kept and echoed, and reported by
 * {@link resolveParams} as unused.
 */
export type TrainingParams = {
  -readonly [K in HyperparameterName as ParamName<K>]: z.output<
    typeof hyperparameterShape[K]
  >;
};

/**
 * Documented defaults of every {@link TrainingParams} field (`satisfies`: a
 * name missing here, or one the schema does not have, is a compile error).
 */
export const DEFAULT_PARAMS: Readonly<TrainingParams> = Object.freeze(
  {
    /** Used. `QUANTILE` (equal-count bins, default) or `UNIFORM` (equal-width bins) for numeric features. */
    binning_strategy: "QUANTILE",
    /** Used. Cyclic boosting over single features; only `NO_GROUPING` (default) is supported. */
    boosting_strategy: "NO_GROUPING",
    /**
     * Used. Elastic-net regularisation of every boosting step's leaf values
     * (default 1): the L2 part `alpha * (1 - l1_ratio)` is added to the
     * leaf's hessian sum, the L1 part `alpha * l1_ratio` soft-thresholds its
     * gradient sum (weak cells get exactly 0).
     */
    alpha: 1,
    /** Unused (default 1): the growth of alpha between searches; the local model's inner search is over bins, pairs and a linear start, not alpha. */
    alpha_factor: 1,
    /**
     * Used. Minimum width of a numeric bin as a fraction of the feature's
     * range (default 0): narrower bins are merged with their neighbour.
     */
    bin_min_distance: 0,
    /**
     * Used. With several bags (`estimators`), the fraction of the bags'
     * values clipped at each end of every cell before averaging them (a
     * winsorized mean; default 0 = plain mean).
     */
    estimators_winsorize_level: 0,
    /** Used. L1 share of `alpha`'s elastic net, 0..1 (default 0 = L2 only). */
    l1_ratio: 0,
    /** Unused (default 0): the step of l1_ratio in a search; the local model's inner search does not vary l1_ratio. */
    l1_ratio_delta: 0,
    /** Used. Shrinkage of every boosting step (default 0.1). */
    learning_rate: 0.1,
    /**
     * Used. The learning rate is multiplied by this after every
     * `learning_rate_patience` rounds without a new best validation loss
     * (default 1 = constant).
     */
    learning_rate_decay: 1,
    /**
     * Used. Training rows each bag draws (without replacement): a fraction
     * up to 1, or a row count above 1 (default 1 = all of the bag's rows).
     */
    max_samples: 1,
    /** Used. Minimum gain (loss reduction score) of a split in a boosting step (default 0). */
    partition_min_delta: 0,
    /** Used. Pair terms need `partition_min_delta * partition_min_delta_factor` (default 1). */
    partition_min_delta_factor: 1,
    /** Used. Minimum gain of a split as a fraction of its node's score (default 0). */
    partition_min_delta_fraction: 0,
    /**
     * Used. Terms whose importance (mean |score| over the training rows)
     * is below this are pruned: their scores become 0 (default 0 = none).
     */
    prune_threshold: 0,
    /** Used. Fraction of training rows drawn (seeded) for each boosting round (default 1 = all). */
    subsample: 1,
    /** Used. Fraction of the dataset's stratified order used to fit (default 0.85). */
    training_size: 0.85,
    /** Used. Fraction after the training part used for early stopping (default 0.15; 0 = no early stopping). */
    validation_size: 0.15,
    /**
     * Used. Maximum bins per numeric feature, 2..254 (default 64); the
     * missing bin comes on top. When not given, training with up to 20,000
     * training rows also tries smoother shapes of 16 bins and keeps what
     * inner validation prefers (see `selectionAxes` in ebm.ts). At 64 and
     * above, a feature of whole numbers that looks like an integer code
     * gets a bin per value, up to 254 (see `codeBins` in prepared.ts).
     */
    bins: 64,
    /** Used. Rounds without validation loss improvement (or with less than a relative 1e-4 over them) before stopping (default 20). */
    early_stopping_patience: 20,
    /**
     * Used. Bags (outer estimators, as EBM's outer bags): each trains on its
     * own seeded train/validation split of the same rows, and the model is
     * their average, with each cell's spread over the bags reported as the
     * shape functions' uncertainty (`Term.spread`). Default 8; a training
     * runs at most `floor(100,000 / training rows)` bags (at least 1), so
     * small tables get the variance reduction and large ones the speed.
     */
    estimators: 8,
    /** Used. First depth of the step tree when `max_depth_momentum` > 0 (default 1). */
    init_depth: 1,
    /** Used. Rounds without a new best validation loss between learning-rate decays (default 0 = none). */
    learning_rate_patience: 0,
    /** Used. Progress is reported every `log_interval` boosting rounds (default 5). */
    log_interval: 5,
    /**
     * Used. Depth of the tree fitted on a term's bins in each boosting step,
     * 1..8 (default 2); on large data each doubling of the training rows
     * beyond 5,000 adds a level (at most 8).
     */
    max_depth: 2,
    /**
     * Used. When > 0, the step tree's depth grows from `init_depth` by one
     * level every `max_depth_momentum` rounds up to `max_depth` (coarse
     * shapes first); default 0 = `max_depth` from the start.
     */
    max_depth_momentum: 0,
    /** Used. 1 = single-feature terms only, 2 = also pairwise terms (default 2); more is an error. */
    max_interaction_degree: 2,
    /**
     * Used. Maximum number of pairwise terms, chosen by a FAST interaction
     * score (default 30). When not given, training with up to 20,000
     * training rows compares 10, 3, 30 and no pairs by inner validation
     * (held-out rows of its bags, see `selectionAxes` in ebm.ts); beyond
     * that, 10. A given value is used as is.
     */
    max_interactions: 30,
    /** Unused (default 100): no inner iterative solver, every step is closed-form. */
    max_iterations: 100,
    /** Unused (default 1): an additive model of binned shape functions has no polynomial terms. */
    max_polynomial_degree: 1,
    /** Used. Maximum cyclic boosting rounds, for the main terms and again for the pairs (default 1000). */
    max_rounds: 1000,
    /** Unused (default 0): no model-complexity search. */
    model_complexity_max_iterations: 0,
    /** Unused (default 0): no model-complexity search. */
    model_complexity_patience: 0,
    /** Used. Minimum training rows in every leaf of a boosting step (default 10). */
    partition_min_samples: 10,
    /**
     * Used. With `prune_threshold`: a term under the threshold this many
     * rounds in a row stops being boosted (and is pruned); default 0 = prune
     * only after training.
     */
    prune_patience: 0,
    /** Unused (default false): every feature is explicit in a binned additive model. */
    exclude_implicit: false,
    /** Used. Drop the terms that contribute nothing (pruned or never split) from the model (default false). */
    sparse_model: false,
    /** Used (the wire's `random_seed`). Seed of the subsampling and bagging PRNGs (default 0). */
    seed: 0,
  } satisfies TrainingParams,
);

/**
 * Names of the parameters the local model does not use, each with why (a
 * binned additive model has no such thing). Every other parameter is used.
 */
export const UNUSED_PARAMS: Readonly<Record<string, string>> = Object.freeze({
  alpha_factor:
    "the inner search tries bins, pairs and a linear start, not alpha (alpha is used as given)",
  l1_ratio_delta:
    "the inner search tries bins, pairs and a linear start, not l1_ratio (l1_ratio is used as given)",
  max_iterations: "every boosting step is closed-form (no inner solver)",
  max_polynomial_degree: "shape functions are binned, not polynomial",
  model_complexity_max_iterations: "no model-complexity search",
  model_complexity_patience: "no model-complexity search",
  exclude_implicit: "every feature of a binned additive model is explicit",
});

/** Names of the parameters the local model actually uses. */
export const USED_PARAMS: ReadonlySet<keyof TrainingParams> = new Set(
  Object.keys(DEFAULT_PARAMS).filter(isParamName).filter((k) =>
    !Object.hasOwn(UNUSED_PARAMS, k)
  ),
);

/** Result of {@link resolveParams}. */
export interface ResolvedParams {
  /** Every parameter, input values over defaults. */
  params: TrainingParams;
  /** Names given in the input that the local model ignores (training configuration fields of docs/api.md#resources it does not use, or unknown names). */
  unused: string[];
}

type Range = {
  min?: number;
  max?: number;
  minExclusive?: boolean;
  int?: boolean;
};
/** The strategies the local model implements: the wire schema's lists. */
const STRATEGIES = {
  binning_strategy: BINNING_STRATEGIES,
  boosting_strategy: BOOSTING_STRATEGIES,
} as const;

/** Most bins of a numeric feature: with the missing bin, a bin index fits a byte. */
export const MAX_BINS = 254;

/**
 * The model's bounds: the wire schema's (`HYPERPARAMETER_BOUNDS`, one source
 * of truth), with a few tighter ones the model needs (`bins` up to 254 so
 * bins fit a byte, `max_depth` up to 8, at least one round of patience).
 */
const RANGES: Partial<Record<keyof TrainingParams, Range>> = {
  ...Object.fromEntries(
    Object.entries(HYPERPARAMETER_BOUNDS).map(([name, b]) => [
      name === "random_seed" ? "seed" : name,
      {
        min: b.min,
        max: b.max,
        minExclusive: "minExclusive" in b ? b.minExclusive : false,
        int: "int" in b ? b.int : false,
      },
    ]),
  ),
  bins: { min: 2, max: MAX_BINS, int: true },
  max_depth: { min: 1, max: 8, int: true },
  early_stopping_patience: { min: 1, max: 1_000_000, int: true },
};

/**
 * Validates hyperparameters and fills in the defaults.
 *
 * `null`/`undefined` values count as not given. Parameters of
 * {@link UNUSED_PARAMS}, `model_capabilities` and other non-hyperparameter
 * keys are reported in `unused`.
 *
 * @throws {ModelParamError} Naming the parameter when a value has the wrong
 *   type or is out of range (e.g. `max_interaction_degree` 3, `training_size`
 *   plus `validation_size` above 1), with the accepted range.
 *
 * @example
 * ```ts
 * import { resolveParams } from "./params.ts";
 * import { ModelParamError } from "./errors.ts";
 *
 * if (!(resolveParams({ estimators: 8 }).params.estimators === 8)) throw new Error("example failed");
 * try {
 *   resolveParams({ max_interaction_degree: 3 });
 * } catch (e) {
 *   if (!(e instanceof ModelParamError && e.column === "max_interaction_degree")) throw new Error("example failed");
 * }
 * ```
 */
export function resolveParams(
  input: Record<string, unknown> = {},
): ResolvedParams {
  const params: TrainingParams = { ...DEFAULT_PARAMS };
  const unused: string[] = [];
  for (const [name, value] of Object.entries(input)) {
    if (value === undefined || value === null) continue;
    if (!isParamName(name)) {
      unused.push(name);
      continue;
    }
    const expected = typeof DEFAULT_PARAMS[name];
    if (
      typeof value !== expected ||
      (expected === "number" && !Number.isFinite(value))
    ) {
      throw new ModelParamError(
        name,
        "BAD_TYPE",
        `${name} must be a ${expected}, got ${JSON.stringify(value)}.`,
      );
    }
    const r = RANGES[name];
    if (r && typeof value === "number") checkRange(name, value, r);
    // Its type was checked against the default's just above.
    Object.assign(params, { [name]: value });
    if (!USED_PARAMS.has(name)) unused.push(name);
  }
  for (const name of ["binning_strategy", "boosting_strategy"] as const) {
    const allowed: readonly string[] = STRATEGIES[name];
    const value = params[name];
    if (!allowed.includes(value)) {
      throw new ModelParamError(
        name,
        "UNSUPPORTED",
        `${name} '${value}' is not supported by the local model; use ${
          allowed.join(" or ")
        }.`,
      );
    }
  }
  if (params.training_size + params.validation_size > 1 + 1e-9) {
    throw new ModelParamError(
      "validation_size",
      "OUT_OF_RANGE",
      `training_size (${params.training_size}) + validation_size (${params.validation_size}) must be at most 1.`,
    );
  }
  return { params, unused };
}

/**
 * How many of a dataset's `n` onboarded rows train and how many validate
 * (the first `nTrain` of its stratified order, then the next `nVal`): the
 * one rule of the split, which training, its search, the model record's
 * validation rows and a constrained training all read.
 *
 * @example
 * ```ts
 * import { splitSizes } from "./params.ts";
 *
 * const s = splitSizes(10, { training_size: 0.85, validation_size: 0.15 });
 * if (!(s.nTrain === 9 && s.nVal === 1)) throw new Error("example failed");
 * ```
 */
export function splitSizes(
  n: number,
  p: Pick<TrainingParams, "training_size" | "validation_size">,
): { nTrain: number; nVal: number } {
  const nTrain = Math.min(n, Math.round(p.training_size * n));
  const nVal = Math.min(n - nTrain, Math.round(p.validation_size * n));
  return { nTrain, nVal };
}

function isParamName(name: string): name is keyof TrainingParams {
  return Object.hasOwn(DEFAULT_PARAMS, name);
}

function checkRange(name: string, v: number, r: Range): void {
  const low = r.min === undefined || (r.minExclusive ? v > r.min : v >= r.min);
  const high = r.max === undefined || v <= r.max;
  if (low && high && (!r.int || Number.isInteger(v))) return;
  const range = `${
    r.min === undefined ? "" : `${r.minExclusive ? ">" : ">="} ${r.min}`
  }${r.min !== undefined && r.max !== undefined ? " and " : ""}${
    r.max === undefined ? "" : `<= ${r.max}`
  }`;
  throw new ModelParamError(
    name,
    "OUT_OF_RANGE",
    `${name} must be ${r.int ? "an integer " : ""}${range}, got ${v}.`,
  );
}
