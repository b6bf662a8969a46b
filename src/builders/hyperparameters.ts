/**
 * Every hyperparameter of the published (docs/api.md#resources) training configuration, typed and
 * documented, in camelCase. Each is optional: the service applies its
 * default (the values below are the local platform's) and echoes the
 * resolved value. Ones the local platform's `INDUCTION` model does not use
 * are kept, echoed and listed in `unused_parameters`; the hosted service may
 * use them.
 *
 * @module
 */
import type { z } from "zod";
import type {
  HyperparameterName,
  hyperparameterShape,
} from "../schemas/training.ts";

/**
 * Hyperparameters of a training configuration. The ranges below are those of
 * `HYPERPARAMETER_BOUNDS` (src/schemas/training.ts): a value outside them is
 * refused by the builder before anything is sent, and by the local platform
 * with a 400 naming the field. Defaults are the local platform's
 * (`DEFAULT_PARAMS`); it lists the ones its model does not use in the
 * configuration's `unused_parameters`.
 */
export interface Hyperparameters {
  /** Numeric binning: `QUANTILE` (equal-count bins, local default) or `UNIFORM` (equal width). */
  binningStrategy?: "UNIFORM" | "QUANTILE";
  /** `NO_GROUPING` (default): cyclic boosting over single features. */
  boostingStrategy?: "NO_GROUPING";
  /** Regularisation strength of the term scores (L2, or elastic net with `l1Ratio`), 0..1e6 (default 1). */
  alpha?: number;
  /** Growth factor of `alpha` between searches, in (0, 1000] (default 1). */
  alphaFactor?: number;
  /** Minimum distance between adjacent bin edges as a fraction of the feature's range, 0..1 (default 0). */
  binMinDistance?: number;
  /** Fraction of the estimators' outputs clipped at each end before averaging, 0..0.5 (default 0). */
  estimatorsWinsorizeLevel?: number;
  /** Elastic-net mix: 0 = L2 only, 1 = L1 only, 0..1 (default 0). */
  l1Ratio?: number;
  /** Step of `l1Ratio` in a search, 0..1 (default 0). */
  l1RatioDelta?: number;
  /** Shrinkage of every boosting step, in (0, 1] (default 0.1). */
  learningRate?: number;
  /** Multiplier of the learning rate on a plateau, in (0, 1] (default 1 = no decay). */
  learningRateDecay?: number;
  /** Rows drawn per estimator: a fraction in (0, 1] or a whole count above 1, at most 1e9 (default 1). */
  maxSamples?: number;
  /** Minimum loss reduction of a partition, 0..1e6 (default 0). */
  partitionMinDelta?: number;
  /** Factor applied to `partitionMinDelta`, 0..1000 (default 1). */
  partitionMinDeltaFactor?: number;
  /** `partitionMinDelta` as a fraction of the loss, 0..1 (default 0). */
  partitionMinDeltaFraction?: number;
  /** Terms whose importance is below this are pruned, 0..1e6 (default 0). */
  pruneThreshold?: number;
  /** Fraction of training rows drawn for each boosting round, in (0, 1] (default 1). */
  subsample?: number;
  /** Fraction of the dataset used to fit, in (0, 1] (local default 0.85). */
  trainingSize?: number;
  /** Fraction used for early stopping, 0..1; `trainingSize + validationSize <= 1` (local default 0.15). */
  validationSize?: number;
  /** Maximum bins per numeric feature, integer 2..1024 (the local model takes at most 254; default 64). */
  bins?: number;
  /** Rounds without validation improvement before stopping, integer 0..1000000 (local: at least 1; default 20). */
  earlyStoppingPatience?: number;
  /** Number of estimators, integer 1..1000000. */
  estimators?: number;
  /** Initial tree depth, integer 0..32 (default 1). */
  initDepth?: number;
  /** Rounds without improvement before `learningRateDecay` applies, integer 0..1000000 (default 0). */
  learningRatePatience?: number;
  /** Progress is reported every this many rounds, integer 1..1000000 (default 5). */
  logInterval?: number;
  /** Depth of the tree fitted in each boosting step, integer 1..32 (the local model takes 1..8; default 2). */
  maxDepth?: number;
  /** Depth growth per round, integer 0..32 (default 0). */
  maxDepthMomentum?: number;
  /** 1 = single-feature terms only, 2 = also pairwise terms (default 2). */
  maxInteractionDegree?: number;
  /** Maximum number of pairwise terms, integer 0..100000 (default 10). */
  maxInteractions?: number;
  /** Iterations of an inner solver, integer 1..1000000 (default 100). */
  maxIterations?: number;
  /** Degree of polynomial terms, integer 1..10 (default 1). */
  maxPolynomialDegree?: number;
  /** Maximum boosting rounds, integer 1..1000000 (default 1000). */
  maxRounds?: number;
  /** Iterations of the model-complexity search, integer 0..1000 (default 0). */
  modelComplexityMaxIterations?: number;
  /** Patience of the model-complexity search, integer 0..1000 (default 0). */
  modelComplexityPatience?: number;
  /** Minimum training rows in every leaf, integer 1..1e9 (default 10). */
  partitionMinSamples?: number;
  /** Rounds a term stays below `pruneThreshold` before it is pruned, integer 0..1000000 (default 0). */
  prunePatience?: number;
  /** Leave implicit terms out (default false). */
  excludeImplicit?: boolean;
  /** Prefer a sparse model (default false). */
  sparseModel?: boolean;
  /** Seed of every random choice in training, integer 0..2^32-1 (default 0). */
  randomSeed?: number;
}

// Compile-time check: the camelCase names and their value types are exactly
// those of the schema's `hyperparameterShape` (the published names, docs/api.md#resources), so the two
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
