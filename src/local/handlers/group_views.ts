/**
 * The `GROUP_METRICS` view (docs/contract.md#model-constraints-and-protected-fields):
 * the per-group metrics of the rows sent, by the model's protected fields
 * given in `query`, with the true target values in `targets`. Computed by
 * the function that computed the model record's `group_metrics`, so views
 * on the model's validation rows give the record's figures exactly.
 *
 * @module
 */
import type { RawValue } from "../model/columns.ts";
import {
  groupMetricNames,
  groupMetrics,
  groupMetricsTable,
} from "../model/fairness.ts";
import type { SplitTable } from "../../schemas/views.ts";
import type { EbmModel } from "../model/types.ts";
import { invalidField } from "../errors.ts";
import { decimalNumber } from "../../csv.ts";

/** A views body as far as this view reads it. */
export interface GroupViewBody {
  data?: ReadonlyArray<{ view_type: string }>;
  query: Record<string, unknown[]>;
  targets: Record<string, unknown>;
}

/**
 * Whether a views body asks for `GROUP_METRICS`; it must then ask for
 * nothing else (a 400 naming `data`).
 *
 * @example
 * ```ts
 * import { isGroupMetricsView } from "./group_views.ts";
 * if (!isGroupMetricsView({ data: [{ view_type: "GROUP_METRICS" }], query: {}, targets: {} })) throw new Error("example failed");
 * ```
 */
export function isGroupMetricsView(body: GroupViewBody): boolean {
  const kinds = (body.data ?? []).map((d) => d.view_type);
  if (!kinds.includes("GROUP_METRICS")) return false;
  if (kinds.length > 1) {
    throw invalidField(
      "data",
      "GROUP_METRICS is answered alone: send it in a views call of its own",
    );
  }
  return true;
}

/** The protected fields of `model` (none: an empty list). */
export function protectedFields(model: EbmModel): readonly string[] {
  return model.constraints?.protected ?? [];
}

/**
 * The `GROUP_METRICS` table of the rows of `body`.
 *
 * @throws {HttpError} 400 naming `data.0.view_type` for a model without
 *   protected fields, `query` when no protected field is given, and
 *   `targets.<target>` without one true value per row, and
 *   `targets.<target>.<i>` for a value that is no class of the model (a
 *   regression's: no number).
 */
export function groupMetricsView(
  model: EbmModel,
  body: GroupViewBody,
  rows: number,
): SplitTable {
  const fields = protectedFields(model);
  if (fields.length === 0) {
    throw invalidField(
      "data.0.view_type",
      "this model has no protected fields (its dataset's schema has no data protection)",
    );
  }
  const given = fields.filter((f) => Object.hasOwn(body.query, f));
  if (given.length === 0) {
    throw invalidField(
      "query",
      `GROUP_METRICS needs a protected field's column: ${fields.join(", ")}`,
    );
  }
  const truth = body.targets[model.target];
  if (!Array.isArray(truth) || truth.length !== rows) {
    throw invalidField(
      `targets.${model.target}`,
      `GROUP_METRICS needs the true value of every row (${rows}) in targets.${model.target}`,
    );
  }
  truth.forEach((v, i) => checkTruth(model, v, `targets.${model.target}.${i}`));
  const report = groupMetrics(
    model,
    body.query as Record<string, RawValue[]>,
    truth as RawValue[],
    given,
  );
  return groupMetricsTable(report, groupMetricNames(model));
}

/**
 * Refuses a true value the figures cannot use: a class the model does not
 * have (a typo was counted as the other class), or for a regression a value
 * that is not a decimal number. Missing (null, empty) is left out, as
 * onboarding leaves out a row without a target.
 */
function checkTruth(model: EbmModel, v: unknown, path: string): void {
  if (v === null || v === undefined) return;
  if (model.task === "regression") {
    const x = typeof v === "number"
      ? v
      : typeof v === "string"
      ? decimalNumber(v)
      : NaN;
    if (Number.isFinite(x) || (typeof v === "string" && v.trim() === "")) {
      return;
    }
    throw invalidField(
      path,
      `${
        JSON.stringify(v)
      } is not a number: a true value of '${model.target}' is a finite number or null`,
    );
  }
  const text = typeof v === "string" || typeof v === "number"
    ? (model.encoder.target.strip ? String(v).trim() : String(v))
    : undefined;
  if (text === "" || (text !== undefined && model.classes.includes(text))) {
    return;
  }
  throw invalidField(
    path,
    `${JSON.stringify(v)} is not a class of this model; use one of ${
      JSON.stringify(model.classes)
    } or null`,
  );
}
