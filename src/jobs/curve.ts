/**
 * The learning curve a training job's snapshots (and its model) carry:
 * training and validation loss per logged boosting round, read from a
 * snapshot, and its latest figures as a short line for a terminal bar. The
 * notebook draws it as a chart (`learningCurveChart`).
 *
 * @module
 */
import type { LearningCurvePoint } from "../schemas/learning_curve.ts";

/** One logged round of a training (the wire shape of `learning_curve` items). */
export type CurvePoint = LearningCurvePoint;

/**
 * The `learning_curve` of a job snapshot or model, when it carries a
 * well-formed one (the field is optional: services without it give `[]`).
 *
 * @example
 * ```ts
 * import { curveOf } from "./curve.ts";
 * curveOf({ id: "tj_1", status: "RUNNING" }).length; // 0
 * curveOf({ learning_curve: [{ round: 1, training_loss: 0.6, validation_loss: 0.61 }] })[0].round; // 1
 * ```
 */
export function curveOf(value: unknown): CurvePoint[] {
  const curve = (value as { learning_curve?: unknown } | null)
    ?.learning_curve;
  if (!Array.isArray(curve)) return [];
  return curve.filter((p): p is CurvePoint =>
    p !== null && typeof p === "object" &&
    typeof (p as CurvePoint).round === "number" &&
    typeof (p as CurvePoint).training_loss === "number"
  );
}

/**
 * The latest figures of a curve for a terminal line, e.g.
 * `round 40 loss 0.412 val 0.436`; `""` for no points.
 *
 * @example
 * ```ts
 * import { curveFigures } from "./curve.ts";
 * curveFigures([{ round: 40, training_loss: 0.41234, validation_loss: 0.4361 }]); // "round 40 loss 0.412 val 0.436"
 * ```
 */
export function curveFigures(points: CurvePoint[]): string {
  const last = points.at(-1);
  if (last === undefined) return "";
  const val = typeof last.validation_loss === "number"
    ? ` val ${last.validation_loss.toFixed(3)}`
    : "";
  return `round ${last.round} loss ${last.training_loss.toFixed(3)}${val}`;
}
