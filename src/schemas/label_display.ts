/**
 * How labelled fields are shown (docs/contract.md#labels-and-anchors): a
 * schema's labels gathered per field ({@linkcode fieldLabelsOf}), and the
 * display text of a field, a term, a category or a views column. The raw
 * names stay the keys everywhere; these only say what to print. Shared by the
 * local platform (which sends `field_labels`) and the SDK's frames, cards and
 * charts (which print them).
 *
 * @module
 */
import type { FieldLabel, FieldLabels } from "./labels.ts";

/** The labels of a data schema, as its arrays list them. */
export interface LabelledSchema {
  friendly_names?: ReadonlyArray<
    { field: { name?: string | null }; friendly_name: string }
  >;
  category_friendly_names?: ReadonlyArray<
    { field: { name?: string | null }; category: string; friendly_name: string }
  >;
  units?: ReadonlyArray<{ field: { name?: string | null }; unit: string }>;
  dimensions?: ReadonlyArray<
    { field: { name?: string | null }; dimension: string }
  >;
}

/**
 * The display text of a field: its friendly name (or raw name) and its unit
 * in parentheses.
 *
 * @example
 * ```ts
 * import { displayText } from "./label_display.ts";
 * if (displayText("monthly_charges", "Monthly charges", "USD") !== "Monthly charges (USD)") throw new Error();
 * if (displayText("tenure", null, null) !== "tenure") throw new Error();
 * ```
 */
export function displayText(
  raw: string,
  friendly: string | null | undefined,
  unit: string | null | undefined,
): string {
  return `${friendly || raw}${unit ? ` (${unit})` : ""}`;
}

/**
 * Every labelled field of a schema with what it is shown as (fields without
 * a label are left out: they show as their raw name).
 *
 * @example
 * ```ts
 * import { fieldLabelsOf } from "./label_display.ts";
 * const labels = fieldLabelsOf({
 *   friendly_names: [{ field: { name: "mc" }, friendly_name: "Monthly charges" }],
 *   units: [{ field: { name: "mc" }, unit: "USD" }],
 *   category_friendly_names: [{ field: { name: "churn" }, category: "Yes", friendly_name: "Churned" }],
 * });
 * if (labels.mc.label !== "Monthly charges (USD)" || labels.churn.categories.Yes !== "Churned") throw new Error();
 * ```
 */
export function fieldLabelsOf(schema: LabelledSchema): FieldLabels {
  const out: FieldLabels = Object.create(null);
  const entry = (name: string | null | undefined): FieldLabel | undefined => {
    if (!name) return undefined;
    return out[name] ??= {
      label: name,
      friendly_name: null,
      unit: null,
      dimension: null,
      categories: Object.create(null),
    };
  };
  for (const f of schema.friendly_names ?? []) {
    const e = entry(f.field.name);
    if (e) e.friendly_name = f.friendly_name;
  }
  for (const u of schema.units ?? []) {
    const e = entry(u.field.name);
    if (e) e.unit = u.unit;
  }
  for (const d of schema.dimensions ?? []) {
    const e = entry(d.field.name);
    if (e) e.dimension = d.dimension;
  }
  for (const c of schema.category_friendly_names ?? []) {
    const e = entry(c.field.name);
    if (e) e.categories[c.category] = c.friendly_name;
  }
  for (const [name, e] of Object.entries(out)) {
    e.label = displayText(name, e.friendly_name, e.unit);
  }
  return out;
}

/**
 * `labels` with an entry for each feature a model derived from a labelled
 * column (docs/contract.md#model-validation-rows: a date's `weekday`,
 * `month`, `hour`), shown as the column's friendly name (or raw name) with
 * the part in parentheses; `labels` itself when there is none to add.
 *
 * @example
 * ```ts
 * import { withDerivedLabels } from "./label_display.ts";
 * const labels = { day: { label: "Ride date", friendly_name: "Ride date", unit: null, dimension: null, categories: {} } };
 * const out = withDerivedLabels(labels, [{ name: "day:weekday", column: "day", part: "weekday" }]);
 * if (out["day:weekday"].label !== "Ride date (weekday)" || out.day.label !== "Ride date") throw new Error();
 * if (withDerivedLabels(labels, []) !== labels) throw new Error();
 * ```
 */
export function withDerivedLabels(
  labels: FieldLabels,
  derived:
    | ReadonlyArray<{ name: string; column: string; part: string }>
    | undefined,
): FieldLabels {
  const parts = (derived ?? []).filter((d) =>
    Object.hasOwn(labels, d.column) && !Object.hasOwn(labels, d.name)
  );
  if (!parts.length) return labels;
  const out: FieldLabels = Object.assign(Object.create(null), labels);
  for (const d of parts) {
    const friendly = `${
      labels[d.column].friendly_name || d.column
    } (${d.part})`;
    out[d.name] = {
      label: friendly,
      friendly_name: friendly,
      unit: null,
      dimension: null,
      categories: Object.create(null),
    };
  }
  return out;
}

/**
 * A field's display text, or its raw name when it has no label.
 *
 * @example
 * ```ts
 * import { fieldLabel } from "./label_display.ts";
 * const labels = { mc: { label: "Monthly charges (USD)", friendly_name: "Monthly charges", unit: "USD", dimension: null, categories: {} } };
 * if (fieldLabel("mc", labels) !== "Monthly charges (USD)" || fieldLabel("x", labels) !== "x") throw new Error();
 * ```
 */
export function fieldLabel(name: string, labels?: FieldLabels | null): string {
  return (labels && Object.hasOwn(labels, name)) ? labels[name].label : name;
}

/**
 * A category's display text (its friendly name, or the raw value).
 *
 * @example
 * ```ts
 * import { categoryLabel } from "./label_display.ts";
 * const labels = { churn: { label: "churn", friendly_name: null, unit: null, dimension: null, categories: { Yes: "Churned" } } };
 * if (categoryLabel("churn", "Yes", labels) !== "Churned" || categoryLabel("churn", "No", labels) !== "No") throw new Error();
 * ```
 */
export function categoryLabel(
  field: string,
  category: string,
  labels?: FieldLabels | null,
): string {
  const cats = labels && Object.hasOwn(labels, field)
    ? labels[field].categories
    : undefined;
  return cats && Object.hasOwn(cats, category) ? cats[category] : category;
}

/** How a pair term's name joins its features (`a*b`), and how it is shown. */
const PAIR = "*", SHOWN_PAIR = " × ";

/**
 * A term's display text: each of its features by its label (`Tenure
 * (months) × Contract`). Term names are the feature names (pairs joined by
 * `*`, shown joined by ` × `); a name that is a field is taken whole.
 *
 * @example
 * ```ts
 * import { termLabel } from "./label_display.ts";
 * const l = { label: "Tenure (months)", friendly_name: "Tenure", unit: "months", dimension: null, categories: {} };
 * if (termLabel("tenure*contract", { tenure: l }) !== "Tenure (months) × contract") throw new Error();
 * ```
 */
export function termLabel(
  term: string,
  labels?: FieldLabels | null,
  features?: readonly string[],
): string {
  if (!labels) return term;
  if (Object.hasOwn(labels, term)) return labels[term].label;
  const parts = features?.length ? features : term.split(PAIR);
  return parts.map((p) => fieldLabel(p, labels)).join(SHOWN_PAIR);
}

/**
 * A views column's display text: `contribution.<term>` as the term's label,
 * `prediction.<target>` as the target's, `probability.<target>.<class>` as
 * `P(<target> = <class>)` with the class's friendly name; `bias` and other
 * columns as they are.
 *
 * @example
 * ```ts
 * import { columnLabel } from "./label_display.ts";
 * const labels = {
 *   mc: { label: "Monthly charges (USD)", friendly_name: "Monthly charges", unit: "USD", dimension: null, categories: {} },
 *   churn: { label: "Churn", friendly_name: "Churn", unit: null, dimension: null, categories: { Yes: "Churned" } },
 * };
 * if (columnLabel("contribution.mc", labels) !== "Monthly charges (USD)") throw new Error();
 * if (columnLabel("probability.churn.Yes", labels, "churn") !== "P(Churn = Churned)") throw new Error();
 * if (columnLabel("prediction.churn", labels) !== "Churn") throw new Error();
 * ```
 */
export function columnLabel(
  column: string,
  labels?: FieldLabels | null,
  target?: string,
): string {
  if (!labels) return column;
  if (column.startsWith("contribution.")) {
    return termLabel(column.slice("contribution.".length), labels);
  }
  if (column.startsWith("prediction.")) {
    return fieldLabel(column.slice("prediction.".length), labels);
  }
  if (column.startsWith("probability.")) {
    const rest = column.slice("probability.".length);
    const t = target && rest.startsWith(`${target}.`)
      ? target
      : Object.keys(labels).find((f) => rest.startsWith(`${f}.`));
    if (!t) return column;
    const cls = rest.slice(t.length + 1);
    return `P(${fieldLabel(t, labels)} = ${categoryLabel(t, cls, labels)})`;
  }
  return column;
}
