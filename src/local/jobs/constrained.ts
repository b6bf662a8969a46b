/**
 * What a constrained training adds to the model
 * (docs/contract.md#model-constraints-and-protected-fields): the per-group
 * metrics of its protected fields on its validation rows, computed from the
 * datasource's own values with the function the `GROUP_METRICS` view uses,
 * and the validation figure the constraints cost.
 *
 * @module
 */
import type { ConstraintCost } from "../../schemas/constraints.ts";
import type { RawValue } from "../model/columns.ts";
import { asDatasource, isDatasource } from "../model/datasource.ts";
import { type EncodedDataset, inputColumns } from "../model/encoder.ts";
import {
  type FieldGroupMetrics,
  groupCuts,
  groupMetrics,
} from "../model/fairness.ts";
import type { ModelConstraints } from "../model/types.ts";
import {
  resolveParams,
  splitSizes,
  type TrainingParams,
} from "../model/params.ts";
import type { EbmModel } from "../model/types.ts";
import type { Store } from "../store/store.ts";
import { datasourceBlobKey } from "./ingest.ts";
import { datasetBlobs } from "./onboard.ts";

/**
 * The validation rows of a training on `data` (datasource row indices,
 * ascending; docs/contract.md#model-validation-rows), every one of them.
 * Read before training: the training may take the dataset's buffers.
 */
export function validationRowsOf(
  data: EncodedDataset,
  params: Partial<TrainingParams>,
): number[] {
  const p = resolveParams(params).params;
  const { nTrain, nVal } = splitSizes(data.nRows, p);
  const source = data.rows;
  return Array.from(
    data.order.subarray(nTrain, nTrain + nVal),
    (r) => source ? source[r] : r,
  ).sort((a, b) => a - b);
}

/** The values of column `name` at datasource rows `rows` (null: missing). */
function valuesAt(
  source: ReturnType<typeof asDatasource>,
  name: string,
  rows: readonly number[],
): RawValue[] {
  if (!isDatasource(source)) {
    const col = source[name] ?? [];
    return rows.map((r) => col[r] ?? null);
  }
  const col = source.columns[name];
  if (!col) return rows.map(() => null);
  if (col.kind === "number") {
    return rows.map((r) => Number.isNaN(col.values[r]) ? null : col.values[r]);
  }
  return rows.map((r) =>
    col.codes[r] === 0 ? null : col.dictionary[col.codes[r] - 1]
  );
}

/**
 * The per-group metrics of `model`'s protected fields on the validation
 * rows `rows`, from the dataset's datasource values.
 */
export function validationGroupMetrics(
  store: Store,
  datasetId: string,
  model: EbmModel,
  rows: readonly number[],
): FieldGroupMetrics[] | undefined {
  const fields = model.constraints?.protected ?? [];
  const stored = datasetBlobs.read(store, datasetId);
  const blob = stored && store.getBlob(datasourceBlobKey(stored.datasourceId));
  if (fields.length === 0 || blob === undefined || rows.length === 0) {
    return undefined;
  }
  const source = asDatasource(blob);
  const columns: Record<string, RawValue[]> = Object.create(null);
  for (
    const name of [...inputColumns(model.encoder), ...fields]
  ) {
    columns[name] = valuesAt(source, name, rows);
  }
  return groupMetrics(
    model,
    columns,
    valuesAt(source, model.target, rows),
    fields,
  );
}

/**
 * The validation figure that compares a constrained model with the same
 * training without constraints: AUC (binary), accuracy (3+ classes), R²
 * (regression).
 */
export function constraintCost(
  constrained: EbmModel,
  unconstrained: EbmModel,
): ConstraintCost {
  const pick = (m: EbmModel) =>
    m.task === "regression"
      ? m.metrics.validationR2 ?? null
      : m.classes.length === 2
      ? m.metrics.validationAuc
      : m.metrics.validationAccuracy;
  return {
    metric: constrained.task === "regression"
      ? "validation_r2"
      : constrained.classes.length === 2
      ? "validation_auc"
      : "validation_accuracy",
    constrained: pick(constrained),
    unconstrained: pick(unconstrained),
  };
}

/**
 * `constraints` with the group cut points of every numeric protected field
 * of many values (see `groupCuts`), from all of the dataset's rows, so the
 * model record and every `GROUP_METRICS` view group alike.
 */
export function withGroupCuts(
  data: EncodedDataset,
  constraints: ModelConstraints,
): ModelConstraints {
  const cuts: Record<string, number[]> = {};
  for (const name of constraints.protected) {
    const j = data.encoder.features.findIndex((f) => f.name === name);
    if (j < 0 || data.encoder.features[j].kind !== "numeric") continue;
    const c = groupCuts(data.features[j]);
    if (c) cuts[name] = c;
  }
  return Object.keys(cuts).length
    ? { ...constraints, groupCuts: cuts }
    : constraints;
}
