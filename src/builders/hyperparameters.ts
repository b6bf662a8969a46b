/**
 * Every hyperparameter of SPEC.md's training configuration, typed and
 * documented, in camelCase. Each is optional: the service applies its
 * default (the values below are the local platform's) and echoes the
 * resolved value. "Unused" ones are kept and echoed but do not change the
 * local platform's `INDUCTION` model; the hosted service may use them.
 *
 * @module
 */
import type { z } from "zod";
import type {
  HyperparameterName,
  hyperparameterShape,
} from "../schemas/training.ts";
import { wireFields } from "./base.ts";

/** Hyperparameters of a training configuration. */
export interface Hyperparameters {
  /** Numeric binning: `QUANTILE` (equal-count bins, local default) or `UNIFORM` (equal width). */
  binningStrategy?: "UNIFORM" | "QUANTILE";
  /** `NO_GROUPING` (default): cyclic boosting over single features. */
  boostingStrategy?: "NO_GROUPING";
  /** L2 regularisation added to every leaf's hessian sum, >= 0 (default 1). */
  alpha?: number;
  /** Growth factor of `alpha`, > 0 (default 1; unused locally). */
  alphaFactor?: number;
  /** Minimum distance between bin edges, >= 0 (default 0; unused locally). */
  binMinDistance?: number;
  /** Winsorizing level of estimator outputs, 0..1 (default 0; unused locally). */
  estimatorsWinsorizeLevel?: number;
  /** Elastic-net mix of L1 in the regularisation, 0..1 (default 0; unused locally). */
  l1Ratio?: number;
  /** Step of `l1Ratio` in a search, >= 0 (default 0; unused locally). */
  l1RatioDelta?: number;
  /** Shrinkage of every boosting step, in (0, 1] (default 0.1). */
  learningRate?: number;
  /** Multiplier of the learning rate on a plateau, in (0, 1] (default 1; unused locally). */
  learningRateDecay?: number;
  /** Rows drawn per estimator, > 0 (fraction or count; default 1; unused locally). */
  maxSamples?: number;
  /** Minimum gain of a partition, >= 0 (default 0; unused locally). */
  partitionMinDelta?: number;
  /** Factor of `partitionMinDelta`, >= 0 (default 1; unused locally). */
  partitionMinDeltaFactor?: number;
  /** `partitionMinDelta` as a fraction, 0..1 (default 0; unused locally). */
  partitionMinDeltaFraction?: number;
  /** Terms weaker than this are pruned, >= 0 (default 0; unused locally). */
  pruneThreshold?: number;
  /** Fraction of training rows drawn for each boosting round, in (0, 1] (default 1). */
  subsample?: number;
  /** Fraction of the dataset used to fit, in (0, 1] (local default 0.85). */
  trainingSize?: number;
  /** Fraction used for early stopping, 0..1; `trainingSize + validationSize <= 1` (local default 0.15). */
  validationSize?: number;
  /** Maximum bins per numeric feature, 2..1024 (local limit 254; default 64). */
  bins?: number;
  /** Rounds without validation improvement before stopping, >= 0 (default 20). */
  earlyStoppingPatience?: number;
  /** Alias of `maxRounds`, used when `maxRounds` is not given (>= 1). */
  estimators?: number;
  /** Initial tree depth, >= 0 (default 1; unused locally). */
  initDepth?: number;
  /** Rounds before `learningRateDecay` applies, >= 0 (default 0; unused locally). */
  learningRatePatience?: number;
  /** Progress is reported every this many rounds, >= 1 (default 5). */
  logInterval?: number;
  /** Depth of the tree fitted in each boosting step, >= 1 (local 1..8; default 2). */
  maxDepth?: number;
  /** Depth growth per round, >= 0 (default 0; unused locally). */
  maxDepthMomentum?: number;
  /** 1 = single-feature terms only, 2 = also pairwise terms (default 2). */
  maxInteractionDegree?: number;
  /** Maximum number of pairwise terms, >= 0 (default 10). */
  maxInteractions?: number;
  /** Iterations of an inner solver, >= 1 (default 100; unused locally). */
  maxIterations?: number;
  /** Degree of polynomial terms, >= 1 (default 1; unused locally). */
  maxPolynomialDegree?: number;
  /** Maximum boosting rounds, >= 1 (default 1000). */
  maxRounds?: number;
  /** Iterations of the complexity search, >= 0 (default 0; unused locally). */
  modelComplexityMaxIterations?: number;
  /** Patience of the complexity search, >= 0 (default 0; unused locally). */
  modelComplexityPatience?: number;
  /** Minimum training rows in every leaf, >= 1 (default 10). */
  partitionMinSamples?: number;
  /** Rounds before pruning, >= 0 (default 0; unused locally). */
  prunePatience?: number;
  /** Leave implicit terms out (default false; unused locally). */
  excludeImplicit?: boolean;
  /** Prefer a sparse model (default false; unused locally). */
  sparseModel?: boolean;
  /** Seed of every random choice in training, >= 0 (default 0). */
  randomSeed?: number;
}

// Compile-time check: the camelCase names and their value types are exactly
// those of the schema's `hyperparameterShape` (SPEC.md's names), so the two
// cannot drift; the interface above stays hand-written for its docs.
type Camel<S extends string> = S extends `${infer H}_${infer R}`
  ? `${H}${Capitalize<Camel<R>>}`
  : S;
type FromSchema = {
  [K in HyperparameterName as Camel<K>]?: z.input<
    typeof hyperparameterShape[K]
  >;
};
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _names: Same<keyof Hyperparameters, keyof FromSchema> = true;
const _types: Same<Hyperparameters, FromSchema> = true;
void _names, _types;

/**
 * The snake_case wire fields of `hyperparameters` (undefined ones left out).
 *
 * @example
 * ```ts
 * import { hyperparameterFields } from "./hyperparameters.ts";
 * hyperparameterFields({ learningRate: 0.05, maxInteractions: 0 });
 * // { learning_rate: 0.05, max_interactions: 0 }
 * ```
 */
export function hyperparameterFields(
  hyperparameters: Hyperparameters,
): Record<string, unknown> {
  return wireFields(hyperparameters).body;
}
