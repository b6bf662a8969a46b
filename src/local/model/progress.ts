/**
 * What training reports as it goes: the overall fraction, the stage, and on
 * a logged round its losses (the learning curve's points). Shared by every
 * part of the trainer and by the training job.
 *
 * @module
 */

/**
 * The losses after one logged boosting round (every `log_interval` rounds):
 * the learning curve's points. With bagging, the curve is bag 0's (the
 * dataset's own train/validation split); with the inner-validation search
 * (see {@link selectionAxes}), the first fit's.
 */
export interface LoggedRound {
  /** Boosting round, counted from 1 across main terms then pairs. */
  round: number;
  /** `training` (main terms) or `training_pairs`. */
  stage: string;
  /** Log loss (regression: mean squared error) on the training rows. */
  trainingLoss: number;
  /** The same loss on the validation rows; null without a validation split. */
  validationLoss: number | null;
}

/**
 * A progress report: overall fraction in [0, 1], the current stage name and,
 * on a logged round, its losses.
 */
export interface TrainProgress {
  fraction: number;
  stage: string;
  logged?: LoggedRound;
}
