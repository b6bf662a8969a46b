/**
 * A data schema's labels (docs/contract.md#labels-and-anchors): friendly
 * names, category names, units, dimensions and data anchors, stored in the
 * schema's arrays and answered as sub-resources; what views and
 * explanations of a model read from its schema (`field_labels`, the default
 * anchor); and the integrity rule for both sides (a label a deployed model
 * shows cannot be deleted, a schema with labels cannot be deleted before
 * them).
 *
 * @module
 */
import {
  type DataAnchor,
  type DataSchema,
  type Dependant,
  type DependantType,
  type FieldLabels,
  fieldLabelsOf,
  type LabelArray,
  labelIssues,
  type Model,
  type SchemaField,
  withDerivedLabels,
} from "../../schemas/mod.ts";
import type { LABEL_ROUTES } from "../../schemas/label_routes.ts";
import type { Caller } from "../http/auth.ts";
import type { PlatformContext } from "../context.ts";
import { conflict, integrityError, validationError } from "../errors.ts";
import { newId, timestamp } from "../ids.ts";
import { dependantsOf, findOwned, updateRecord } from "../store/records.ts";
import type { StoredRecord } from "../store/store.ts";
import type { Reply, SharedInput } from "./types.ts";
import { subCollection } from "./sub_collection.ts";

/** What is said of each label collection. */
const LABELS = {
  friendlyNames: {
    array: "friendly_names",
    prefix: "fn",
    type: "FRIENDLY_NAME",
    noun: "friendly name",
  },
  categoryFriendlyNames: {
    array: "category_friendly_names",
    prefix: "cfn",
    type: "CATEGORY_FRIENDLY_NAME",
    noun: "category friendly name",
  },
  units: { array: "units", prefix: "unit", type: "UNIT", noun: "unit" },
  dimensions: {
    array: "dimensions",
    prefix: "dim",
    type: "DIMENSION",
    noun: "dimension",
  },
  dataAnchors: {
    array: "data_anchors",
    prefix: "anc",
    type: "DATA_ANCHOR",
    noun: "data anchor",
  },
} as const satisfies Record<
  keyof typeof LABEL_ROUTES,
  { array: LabelArray; prefix: string; type: DependantType; noun: string }
>;
type Group = keyof typeof LABELS;
/** A stored label of any collection. */
type AnyLabel = {
  id: string;
  field?: { id: string; name?: string | null };
  name?: string;
  default?: boolean;
};

/** The labels a schema's array holds. */
function labelsOf(schema: DataSchema, array: LabelArray): AnyLabel[] {
  return ((schema as Record<string, unknown>)[array] ?? []) as AnyLabel[];
}

/**
 * A label made from its create body: an id, the field as a reference (an
 * anchor's terms each get theirs), `created_at` and `created_by`.
 */
function made(
  group: Group,
  body: Record<string, unknown>,
  fields: readonly SchemaField[],
  caller: Caller,
  created_at: string,
): AnyLabel {
  const ref = (name: unknown) => {
    const f = fields.find((x) => x.name === name)!;
    return { id: f.id, name: f.name };
  };
  const by = { ...caller.user };
  if (group === "dataAnchors") {
    const terms = body.terms as { field_name: string; value: unknown }[];
    return {
      id: newId(LABELS[group].prefix),
      name: String(body.name),
      default: Boolean(body.default),
      terms: terms.map((t) => ({
        id: newId("term"),
        field: ref(t.field_name),
        value: t.value,
      })),
      created_at,
      created_by: by,
    } as AnyLabel;
  }
  const { field_name, ...rest } = body;
  return {
    id: newId(LABELS[group].prefix),
    field: ref(field_name),
    ...rest,
    created_at,
    created_by: by,
  } as AnyLabel;
}

/** The fields with their `unit` and `dimension` as the schema's labels say. */
function withUnits(schema: DataSchema): SchemaField[] {
  const of = (array: LabelArray, key: "unit" | "dimension", f: SchemaField) =>
    (labelsOf(schema, array).find((l) => l.field?.id === f.id) as
      | Record<string, string>
      | undefined)?.[key] ?? null;
  return schema.fields.map((f) => ({
    ...f,
    unit: of("units", "unit", f),
    dimension: of("dimensions", "dimension", f),
  }));
}

/**
 * The label arrays of a new schema from its create body, and its fields with
 * their units and dimensions (the body was checked by its schema).
 */
export function initialLabels(
  body: Partial<Record<LabelArray, Record<string, unknown>[]>>,
  fields: SchemaField[],
  caller: Caller,
  created_at: string,
): Pick<DataSchema, LabelArray | "fields"> {
  const out = { fields } as Pick<DataSchema, LabelArray | "fields">;
  for (
    const [group, { array }] of Object.entries(LABELS) as [
      Group,
      typeof LABELS[Group],
    ][]
  ) {
    (out as Record<string, unknown>)[array] = (body[array] ?? []).map((b) =>
      made(group, b, fields, caller, created_at)
    );
  }
  out.fields = withUnits(out as DataSchema);
  return out;
}

/** The data schema a model was trained on (model, dataset, datasource, schema), if still there. */
export function schemaOfModel(
  ctx: PlatformContext,
  modelId: string,
): StoredRecord<"dataSchemas"> | undefined {
  // The chain never changes once the model exists: walked once per model.
  let schemaId = SCHEMA_OF.get(modelId);
  if (schemaId === undefined) {
    const model = ctx.store.get("models", modelId);
    const dataset = model?.body.dataset &&
      ctx.store.get("datasets", model.body.dataset.id);
    const source = dataset?.body.datasource &&
      ctx.store.get("datasources", dataset.body.datasource.id);
    schemaId = source?.body.data_schema?.id ?? "";
    if (model) SCHEMA_OF.set(modelId, schemaId);
  }
  return schemaId ? ctx.store.get("dataSchemas", schemaId) : undefined;
}
/** Each model's schema id ("" for none), by model id. */
const SCHEMA_OF = new Map<string, string>();

/** The deployed models serving a model trained on `schemaId`. */
function deployedOn(
  ctx: PlatformContext,
  account: string,
  schemaId: string,
): Dependant[] {
  return ctx.store.list("deployedModels", account)
    .filter((dm) => schemaOfModel(ctx, dm.body.model.id)?.id === schemaId)
    .map((dm) => ({
      id: dm.id,
      name: dm.body.name,
      dependant_type: "DEPLOYED_MODEL",
    }));
}

/**
 * A schema's labels as dependants, an anchor with each of its terms: a
 * schema cannot be deleted before them (docs/contract.md#labels-and-anchors).
 */
export function labelDependants(schema: DataSchema): Dependant[] {
  return Object.values(LABELS).flatMap(({ array, type }) =>
    labelsOf(schema, array).flatMap((l): Dependant[] => [
      { id: l.id, name: l.name ?? (l.field?.name ?? ""), dependant_type: type },
      // An anchor's terms each name a field of the schema.
      ...((l as Partial<DataAnchor>).terms ?? []).map((t) => ({
        id: t.id,
        name: `${l.name}: ${t.field.name}`,
        dependant_type: "DATA_ANCHOR_TERM" as const,
      })),
    ])
  );
}

/** The create, list, get and delete of one label collection. */
function labelOperations<G extends Group>(group: G) {
  const { array, noun } = LABELS[group];
  type In = SharedInput<{ id: string }>;
  const create = ({ ctx, caller, params, body }: In): Reply<never> => {
    const schema = findOwned(
      ctx.store,
      caller.account.id,
      "dataSchemas",
      params.id,
    );
    const existing = labelsOf(schema.body, array);
    const issues = labelIssues(
      array,
      body as never,
      schema.body.fields,
      existing as never,
    );
    const invalid = issues.filter((i) => !i.taken);
    if (invalid.length) {
      throw validationError(
        invalid.map(({ path, message }) => ({ path, message })),
      );
    }
    if (issues.length) {
      throw conflict(`${noun}: ${issues[0].path}: ${issues[0].message}`);
    }
    const label = made(
      group,
      body as Record<string, unknown>,
      schema.body.fields,
      caller,
      timestamp(),
    );
    const next = {
      ...schema.body,
      [array]: [...existing, label],
    } as DataSchema;
    READINGS.delete(schema.id);
    updateRecord(ctx.store, "dataSchemas", schema.id, {
      [array]: next[array],
      fields: withUnits(next),
    });
    return { body: label as never };
  };
  // List, get and delete: the sub-resources' one mechanism.
  const reads = subCollection<AnyLabel, StoredRecord<"dataSchemas">>({
    noun,
    param: "label_id",
    parent: (ctx, caller, params) =>
      findOwned(ctx.store, caller.account.id, "dataSchemas", params.id),
    items: (schema) => labelsOf(schema.body, array),
    // An anchor is used only when it is the default one.
    blockers: (ctx, schema, label) =>
      group !== "dataAnchors" || label.default
        ? deployedOn(ctx, schema.account, schema.id)
        : [],
    remove: (ctx, schema, label) => {
      const rest = labelsOf(schema.body, array).filter((l) =>
        l.id !== label.id
      );
      const next = { ...schema.body, [array]: rest } as DataSchema;
      READINGS.delete(schema.id);
      updateRecord(ctx.store, "dataSchemas", schema.id, {
        [array]: rest,
        fields: withUnits(next),
      });
    },
  });
  return { create, ...reads };
}

/** Every label collection's operations, as the handlers table groups them. */
export const labelHandlers = {
  friendlyNames: labelOperations("friendlyNames"),
  categoryFriendlyNames: labelOperations("categoryFriendlyNames"),
  units: labelOperations("units"),
  dimensions: labelOperations("dimensions"),
  dataAnchors: labelOperations("dataAnchors"),
};

/** What a model's views and explanation read from its schema. */
export interface SchemaReading {
  /** Labels of the labelled fields (absent: none). */
  field_labels?: FieldLabels;
  /** The anchor to apply: a stored one, or none. */
  anchor?: DataAnchor;
}

/**
 * The labels and the anchor of a model's schema: `anchorId` names one of its
 * anchors (400 naming `field` otherwise), `null` asks for none, and absent
 * takes the schema's default anchor.
 */
export function readSchema(
  ctx: PlatformContext,
  modelId: string,
  anchorId: string | null | undefined,
  field: string,
): SchemaReading {
  const { labels, anchors } = modelReading(ctx, modelId);
  const out: SchemaReading = {};
  if (labels) out.field_labels = labels;
  if (anchorId === null) return out;
  if (anchorId === undefined) {
    const chosen = anchors.find((a) => a.default);
    if (chosen) out.anchor = chosen;
    return out;
  }
  const chosen = anchors.find((a) => a.id === anchorId);
  if (!chosen) {
    throw validationError([{
      path: field,
      message:
        `no data anchor "${anchorId}" in the schema this model was trained on (its anchors: ${
          anchors.map((a) => `${a.id} "${a.name}"`).join(", ") || "none"
        })`,
    }]);
  }
  out.anchor = chosen;
  return out;
}

/**
 * A schema's labels and anchors as views read them, by schema id: views are
 * the hot path, and labels change only through this module's creates and
 * deletes, which drop the entry.
 */
const READINGS = new Map<string, Reading>();

/** What views read of a schema: its labels (absent: none) and its anchors. */
interface Reading {
  labels?: FieldLabels;
  anchors: DataAnchor[];
}

/**
 * A model's reading: its schema's, with labels for the features the model
 * derived from a labelled column (a date's weekday: `withDerivedLabels`),
 * kept per model while its schema's reading stands.
 */
function modelReading(ctx: PlatformContext, modelId: string): Reading {
  const reading = cachedReading(ctx, modelId);
  if (!reading.labels) return reading;
  const kept = MODEL_READINGS.get(modelId);
  if (kept?.from === reading) return kept.reading;
  const derived = ctx.store.get("models", modelId)?.body.derived_features;
  const labels = withDerivedLabels(reading.labels, derived);
  const own = labels === reading.labels ? reading : { ...reading, labels };
  MODEL_READINGS.set(modelId, { from: reading, reading: own });
  return own;
}

/** Each model's reading, and the schema reading it was made from. */
const MODEL_READINGS = new Map<string, { from: Reading; reading: Reading }>();

function cachedReading(ctx: PlatformContext, modelId: string): Reading {
  const known = SCHEMA_OF.get(modelId);
  const cached = known !== undefined ? READINGS.get(known) : undefined;
  if (cached) return cached;
  const schema = schemaOfModel(ctx, modelId);
  const labels = schema && fieldLabelsOf(schema.body);
  const reading = {
    labels: labels && Object.keys(labels).length ? labels : undefined,
    anchors: (schema?.body.data_anchors ?? []) as DataAnchor[],
  };
  if (schema) READINGS.set(schema.id, reading);
  return reading;
}

/** A stored anchor's terms as columns of one reference row. */
export function anchorColumns(anchor: DataAnchor): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = Object.create(null);
  for (const t of anchor.terms) out[String(t.field.name)] = [t.value];
  return out;
}

/**
 * The data schema delete's first step: a schema with labels or data
 * protections (`others`) answers 409 listing them with its other
 * dependants (delete them first).
 */
export function refuseLabelled(
  ctx: PlatformContext,
  record: StoredRecord,
  others: Dependant[] = [],
): void {
  if (record.kind !== "dataSchemas") return;
  const labels = [...labelDependants(record.body as DataSchema), ...others];
  if (!labels.length) return;
  throw integrityError("data schema", record.id, [
    ...dependantsOf(ctx.store, record),
    ...labels,
  ]);
}

/**
 * `GET /models/{id}` with its schema's `field_labels` (read at each get: a
 * label added later shows), so a model card names the features by them.
 */
export function labelledModel(
  get: (input: SharedInput<{ id: string }>) => Reply<Model>,
): (input: SharedInput<{ id: string }>) => Reply<Model> {
  return (input) => {
    const { body } = get(input);
    const schema = schemaOfModel(input.ctx, body.id)?.body;
    const labels = schema &&
      withDerivedLabels(fieldLabelsOf(schema), body.derived_features);
    return {
      body: labels && Object.keys(labels).length
        ? { ...body, field_labels: labels }
        : body,
    };
  };
}
