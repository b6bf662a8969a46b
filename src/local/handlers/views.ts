/**
 * Views (docs/api.md#endpoints, endpoint 13) and the global explanation of a model: the
 * deployed model must be `RUNNING` (else 409 saying to wait), requests share
 * the deployment's `maximum_concurrency`, large queries are answered
 * 202 + Location, and a bad query is a 400 naming the column.
 *
 * @module
 */
import type { z } from "zod";
import type {
  AppliedAnchor,
  FieldLabels,
  GlobalExplanation,
  SplitTable as WireSplitTable,
  ViewsRequestSchema,
} from "../../schemas/mod.ts";
import type { Caller } from "../http/auth.ts";
import type { PlatformContext } from "../context.ts";
import { conflict, invalidField } from "../errors.ts";
import { macrotask } from "../jobs/yield.ts";
import { modelBlobs } from "../store/blobs.ts";
import { inputColumnSet } from "../model/encoder.ts";
import { ModelInputError } from "../model/errors.ts";
import {
  type AnchorOffsets,
  anchorOffsets,
  contributionTable,
  droppedBecause,
  type SplitTable,
} from "../model/explain.ts";
import { globalExplanation } from "../model/shapes.ts";
import { anchorColumns, readSchema } from "./labels.ts";
import type { EbmModel } from "../model/types.ts";
import { findOwned } from "../store/records.ts";
import {
  groupMetricsView,
  isGroupMetricsView,
  protectedFields,
} from "./group_views.ts";

/** Rows computed per step; between steps other requests get their turn. */
const CHUNK_ROWS = 2000;

/** A views request after the route schema parsed it (defaults applied). */
export type ParsedViews =
  & Pick<z.output<typeof ViewsRequestSchema>, "query" | "targets">
  & Partial<Pick<z.output<typeof ViewsRequestSchema>, "anchor" | "data">>;

/** What a views answer or an explanation adds from the model's schema. */
export interface SchemaExtras {
  /** The anchor's reference scores, when one applies. */
  offsets?: AnchorOffsets;
  /** The answer's `field_labels` and `anchor`. */
  wire: { field_labels?: FieldLabels; anchor?: AppliedAnchor };
}

/**
 * The labels and the anchor (docs/contract.md#data-anchors) of a model:
 * `anchor` a data anchor id of its schema, rows of reference values, null
 * for none, or absent for the schema's default. A bad anchor is a 400 naming
 * `field` (or its column).
 */
export function schemaExtras(
  ctx: PlatformContext,
  modelId: string,
  model: EbmModel,
  anchor: ParsedViews["anchor"],
  field: string,
): SchemaExtras {
  const inline = anchor !== null && typeof anchor === "object";
  const reading = readSchema(
    ctx,
    modelId,
    inline ? null : anchor as string | null | undefined,
    field,
  );
  const out: SchemaExtras = { wire: {} };
  if (reading.field_labels) out.wire.field_labels = reading.field_labels;
  const columns = inline
    ? anchor.query
    : reading.anchor && usedColumns(model, anchorColumns(reading.anchor));
  if (!columns) return out;
  if (inline) {
    // As a views query's columns: a name the model does not read (the
    // target, a typo, a feature it left out) fixed nothing and was passed
    // over without a word.
    const known = inputColumnSet(model.encoder);
    for (const name of Object.keys(columns)) {
      if (!known.has(name)) throw notAFeature(model, name, `${field}.query`);
    }
  }
  try {
    out.offsets = inline
      ? anchorOffsets(model, columns)
      : storedOffsets(model, reading.anchor!.id, columns);
  } catch (error) {
    if (error instanceof ModelInputError) {
      const col = error.column;
      throw invalidField(
        inline && col ? `${field}.query.${col}` : field,
        error.message,
      );
    }
    throw error;
  }
  out.wire.anchor = {
    id: reading.anchor?.id ?? null,
    name: reading.anchor?.name ?? null,
    rows: out.offsets.rows,
  };
  return out;
}

/**
 * The 400 for a column `name` under `at` (a views query, an anchor's) that
 * the model does not read: the target, a typo, a feature it left out (and
 * why), with the features it does read.
 */
function notAFeature(model: EbmModel, name: string, at: string) {
  return invalidField(
    `${at}.${name}`,
    `"${name}" is not a feature of this model${
      droppedBecause(model, name)
    }; its features are ${[...inputColumnSet(model.encoder)].join(", ")}`,
  );
}

/**
 * A schema anchor's columns without those the model left out at training
 * (excluded, protected, constant, ...): it has no term of them, so they
 * fix nothing. They made every views call of the model a 400, the default
 * anchor's included.
 */
function usedColumns(
  model: EbmModel,
  columns: Record<string, unknown[]>,
): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = Object.create(null);
  for (const [name, values] of Object.entries(columns)) {
    if (!model.encoder.dropped?.some((d) => d.name === name)) {
      out[name] = values;
    }
  }
  return out;
}

/** A stored anchor's offsets per loaded model: an anchor never changes. */
const OFFSETS = new WeakMap<EbmModel, Map<string, AnchorOffsets>>();

function storedOffsets(
  model: EbmModel,
  anchorId: string,
  columns: Record<string, unknown>,
): AnchorOffsets {
  let byAnchor = OFFSETS.get(model);
  if (!byAnchor) OFFSETS.set(model, byAnchor = new Map());
  let offsets = byAnchor.get(anchorId);
  if (!offsets) byAnchor.set(anchorId, offsets = anchorOffsets(model, columns));
  return offsets;
}

/**
 * Checks the deployed model can answer and returns what it needs.
 *
 * @returns The loaded model, the row count and the concurrency limit.
 */
export function prepareViews(
  ctx: PlatformContext,
  caller: Caller,
  id: string,
  body: ParsedViews,
): {
  model: EbmModel;
  rows: number;
  concurrency: number;
  extras: SchemaExtras;
} {
  const dm = findOwned(ctx.store, caller.account.id, "deployedModels", id);
  const model = ctx.serving.model(id);
  if (dm.body.status !== "RUNNING" || !model) {
    throw conflict(
      dm.body.status === "FAILED"
        ? `The deployed model ${id} FAILED (${
          dm.body.message ?? "see its record"
        }); deploy the model again.`
        : `The deployed model ${id} is ${dm.body.status}, not RUNNING: poll GET /deployed-models/${id} until its status is RUNNING, then retry.`,
    );
  }
  const known = inputColumnSet(model.encoder);
  // GROUP_METRICS also reads the protected fields (group_views.ts).
  const extra = isGroupMetricsView(body) ? protectedFields(model) : [];
  // The row count is the first column's length (0 without one).
  let rows = -1;
  for (const name of Object.keys(body.query)) {
    if (rows < 0) rows = body.query[name]?.length ?? 0;
    if (!known.has(name) && !extra.includes(name)) {
      throw notAFeature(model, name, "query");
    }
  }
  const dc = ctx.store.get(
    "deploymentConfigurations",
    dm.body.deployment_configuration.id,
  );
  return {
    model,
    rows: Math.max(rows, 0),
    concurrency: Number(dc?.body.maximum_concurrency ?? 1),
    extras: schemaExtras(ctx, dm.body.model.id, model, body.anchor, "anchor"),
  };
}

/**
 * Computes the RESULTS table in chunks (yielding between them), turning
 * model input errors into 400s naming `query.<column>` or `targets.<target>`.
 *
 * @example
 * ```ts
 * import { computeViews } from "./views.ts";
 * const model = { target: "y", features: [], terms: [] } as never;
 * const status = await computeViews(model, { query: {}, targets: { z: "a" } }, 0).catch((e) => e.status);
 * if (status !== 400) throw new Error(String(status));
 * ```
 */
export async function computeViews(
  model: EbmModel,
  body: ParsedViews,
  rows: number,
  offsets?: AnchorOffsets,
): Promise<SplitTable | WireSplitTable> {
  const slice = (from: number, to: number) => {
    // Null prototypes: a column named `__proto__` stays an ordinary key.
    const query: Record<string, unknown[]> = Object.create(null);
    for (const [k, v] of Object.entries(body.query)) {
      query[k] = v.slice(from, to);
    }
    const targets: Record<string, unknown> = Object.create(null);
    for (const [k, v] of Object.entries(body.targets)) {
      targets[k] = Array.isArray(v) && v.length === rows && rows > 1
        ? v.slice(from, to)
        : v;
    }
    return { query, targets };
  };
  try {
    if (isGroupMetricsView(body)) return groupMetricsView(model, body, rows);
    if (rows <= CHUNK_ROWS) {
      return contributionTable(model, body.query, body.targets, offsets);
    }
    const out: SplitTable = { columns: [], index: [], data: [] };
    for (let from = 0; from < rows; from += CHUNK_ROWS) {
      const part = slice(from, Math.min(rows, from + CHUNK_ROWS));
      const t = contributionTable(
        model,
        part.query,
        part.targets,
        offsets,
      );
      out.columns = t.columns;
      for (let i = 0; i < t.data.length; i++) {
        out.index.push(from + i);
        out.data.push(t.data[i]);
      }
      await macrotask();
    }
    return out;
  } catch (error) {
    throw asFieldError(model, body, error);
  }
}

/** A model input error as a 400 naming `query.<column>` or `targets.<target>`. */
function asFieldError(model: EbmModel, body: ParsedViews, error: unknown) {
  if (!(error instanceof ModelInputError)) return error;
  const col = error.column ?? "";
  const path = col === model.target || Object.hasOwn(body.targets, col)
    ? `targets.${col}`
    : col
    ? `query.${col}`
    : "query";
  return invalidField(path, error.message);
}

/**
 * The RESULTS table of a call {@linkcode computeViews} answers in one step,
 * computed at once (no promise: a one-row call's awaits cost more than its
 * model) when a serving slot of the deployment is free; undefined for a
 * call that needs more (several chunks, GROUP_METRICS, a queue), which
 * `computeViews` under `Serving.run` answers.
 *
 * @example
 * ```ts
 * import { viewsNow } from "./views.ts";
 * import type { PlatformContext } from "../context.ts";
 * const ctx = { serving: { runNow: () => undefined } } as unknown as PlatformContext;
 * const model = { target: "y", features: [], terms: [] } as never;
 * if (viewsNow(ctx, "dm", 1, model, { query: {}, targets: {} }, 1) !== undefined) throw new Error();
 * ```
 */
export function viewsNow(
  ctx: PlatformContext,
  id: string,
  concurrency: number,
  model: EbmModel,
  body: ParsedViews,
  rows: number,
  offsets?: AnchorOffsets,
): SplitTable | undefined {
  if (rows > CHUNK_ROWS || isGroupMetricsView(body)) return undefined;
  return ctx.serving.runNow(id, concurrency, () => {
    try {
      return contributionTable(model, body.query, body.targets, offsets);
    } catch (error) {
      throw asFieldError(model, body, error);
    }
  });
}

/**
 * The global explanation of a READY model in the shape of the shared
 * `GlobalExplanationSchema` (scores listed per score column; for regression
 * one column named after the target, in the target's units).
 */
export function explanationOf(
  ctx: PlatformContext,
  caller: Caller,
  id: string,
  anchorId?: string,
): GlobalExplanation {
  const record = findOwned(ctx.store, caller.account.id, "models", id);
  const model = modelBlobs.read(ctx.store, id);
  if (record.body.status !== "READY" || !model) {
    throw conflict(
      `The model ${id} is ${record.body.status}, not READY: wait until its training job is COMPLETED.`,
    );
  }
  const g = globalExplanation(model);
  const K = model.scoreColumns;
  const extras = schemaExtras(
    ctx,
    id,
    model,
    anchorId === "none" ? null : anchorId,
    "anchor_id",
  );
  // Anchored: each shape is measured from the anchor's score, the
  // intercept takes the sum (importances stay the model's own).
  const offset = new Map(
    model.terms.map((t, j) => [t.name, extras.offsets?.terms[j]]),
  );
  const intercept = g.intercept.map((b, k) =>
    extras.offsets ? extras.offsets.terms.reduce((a, o) => a + o[k], b) : b
  );
  return {
    target: model.target,
    classes: g.classes,
    // Regression: one list of scores, in the target's units (log link: in
    // their log).
    score_classes: model.task === "regression"
      ? [model.target]
      : K === 1
      ? [model.classes[1]]
      : [...model.classes],
    ...(model.task === "regression" ? { link: model.link ?? "identity" } : {}),
    intercept,
    terms: g.terms.map((t) => ({
      name: t.name,
      features: t.features,
      importance: t.importance,
      labels: t.labels,
      // The model lists scores per cell; the wire shape lists them per class.
      scores: Array.from(
        { length: K },
        (_, k) =>
          t.scores.map((cell) => cell[k] - (offset.get(t.name)?.[k] ?? 0)),
      ),
    })),
    ...extras.wire,
  };
}
