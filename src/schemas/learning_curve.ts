// deno-doc-ignore-file private-type-ref missing-explicit-type -- wire types are inferred from these zod schemas (one source of truth), so they name zod's own types
/**
 * The learning curve of a training (our extension of the published API, docs/contract.md#jobs-and-deployments): the loss on
 * the training rows and on the validation rows after each logged boosting
 * round (`log_interval` rounds apart). A training job carries it while it
 * runs and after; the model it made keeps it. Optional everywhere: clients
 * tolerate its absence (docs/api.md#conventions), and unknown fields in a point
 * are kept.
 *
 * @module
 */
import { z } from "zod";

/** One logged round of a training. */
export const LearningCurvePointSchema = z.looseObject({
  /** Boosting round, counted from 1 across the whole training (main terms, then pairs). */
  round: z.number().int().min(0),
  /** What was being boosted: `training` (main terms) or `training_pairs`. */
  stage: z.string().nullish(),
  /** Loss on the training rows after this round (log loss; squared error for regression). */
  training_loss: z.number(),
  /** Loss on the validation rows; `null` without a validation split. */
  validation_loss: z.number().nullish(),
}).meta({ id: "LearningCurvePoint" });
/** One logged round of a training. */
export type LearningCurvePoint = z.infer<typeof LearningCurvePointSchema>;

/** The `learning_curve` field, shared by training jobs and models. */
export const LearningCurveSchema = z.array(LearningCurvePointSchema).meta({
  id: "LearningCurve",
  description:
    "Training and validation loss per logged round (extension of the published API, docs/contract.md#jobs-and-deployments); at most 1000 points: a longer training keeps every other point, so the curve spans all of it",
});
