/**
 * HTML and plain-text cards for any resource object (name, id, status badge,
 * key fields, references, timestamps) and for errors (class, status,
 * message, error_code, request id). Secrets are masked, values escaped.
 * A model's `metrics` are shown one per line with readable labels and three
 * significant digits, its `classes` as "target: class, class" (a regression
 * model's as "target: a number (regression)"); metrics of the other task,
 * not measured (`null`), are left out.
 *
 * @module
 */
import { fieldLabel } from "../schemas/label_display.ts";
import type { FieldLabels } from "../schemas/labels.ts";
import { clipText, escapeHtml, maskSecrets } from "./html.ts";
import { badgeStyle, CARD_STYLE, statusColor } from "./style.ts";
import { type MimeBundle, withDisplay } from "./jupyter.ts";
import { fairnessRows } from "./fairness.ts";

/** A rendered card: the same content as HTML and as plain text. */
export interface Card {
  /** The card as escaped HTML. */
  html: string;
  /** The same in plain text, for consoles and `text/plain`. */
  text: string;
}

const TIMESTAMPS = ["created_at", "updated_at"];
const HEADER = new Set([
  "id",
  "name",
  "status",
  "created_at",
  "updated_at",
  "created_by",
]);
const MAX_VALUE = 80;
// A resource's records whose keys are field names.
const FIELD_RECORDS = ["classes", "field_labels"];
// A name longer than this is clipped in a card's title, a message longer
// than MAX_MESSAGE in an error card (the value itself is untouched).
const MAX_TITLE = 120;
const MAX_MESSAGE = 2000;
// Job fields from 0 to 1, read as percentages.
const PERCENT = new Set(["progress", "stage_progress"]);

/**
 * Renders a resource (any object from the service) as a compact card.
 * `{ id, name }` references are shown as "name (id)", arrays by their
 * length or their items' names, timestamps at the bottom.
 *
 * @example
 * ```ts
 * import { resourceCard } from "./card.ts";
 * const card = resourceCard({
 *   id: "dm_1", name: "churn-live", status: "RUNNING",
 *   model: { id: "m_1", name: "churn" }, created_at: "2025-01-01T00:00:00.000000Z",
 * }, { kind: "Deployed model" });
 * if (!card.html.includes("churn (m_1)") || !card.text.includes("RUNNING")) throw new Error("unexpected");
 * ```
 */
export function resourceCard(
  resource: object,
  options: { kind?: string } = {},
): Card {
  const r = maskSecrets(resource) as Record<string, unknown>;
  // Records keyed by field name (a target's classes, the fields' labels)
  // hold data, not credentials: a field named popular_token or
  // n_tokens_title is no secret, so they keep their keys (their strings
  // still masked as any free text is).
  const given = resource as Record<string, unknown>;
  for (const key of FIELD_RECORDS) {
    const value = given[key];
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      const out: Record<string, unknown> = Object.create(null);
      for (const [name, item] of Object.entries(value)) {
        out[name] = maskSecrets(item);
      }
      r[key] = out;
    }
  }
  const title = clipText(
    typeof r.name === "string" ? r.name : options.kind ?? "resource",
    MAX_TITLE,
  );
  const status = typeof r.status === "string" ? r.status : undefined;
  const rows: [string, string][] = [];
  let metrics: [string, string][] = [];
  for (const [key, value] of Object.entries(r)) {
    if (HEADER.has(key) || value === undefined) continue;
    if (key === "metrics" && isNumberRecord(value)) {
      metrics = formatMetrics(value, isRegressionRecord(r, value));
    } else if (key === "field_labels") {
      continue; // shown through the features they name
    } else if (
      key === "features" && Array.isArray(value) && isLabels(r.field_labels)
    ) {
      const labels = r.field_labels;
      rows.push([
        key,
        summarize(value.map((f) => fieldLabel(String(f), labels))),
      ]);
    } else if (key === "group_metrics" || key === "constraint_cost") {
      rows.push(...fairnessRows(key, value));
    } else if (key === "classes" && isClassRecord(value)) {
      rows.push([key, formatClasses(value)]);
    } else if (PERCENT.has(key) && typeof value === "number") {
      rows.push([key, `${Math.round(value * 100)}%`]);
    } else {
      rows.push([key, summarize(value)]);
    }
  }
  const createdBy = isReference(r.created_by)
    ? ` by ${r.created_by.name ?? r.created_by.id}`
    : "";
  const times = TIMESTAMPS.filter((k) => typeof r[k] === "string").map((k) =>
    `${k.replace("_at", "")} ${r[k]}`
  );
  if (times.length > 0) times[0] += createdBy;

  const badge = status
    ? ` <span style="${badgeStyle(statusColor(status))}">${
      escapeHtml(status)
    }</span>`
    : "";
  const kind = options.kind
    ? `<span style="color:#71717a">${escapeHtml(options.kind)}</span> `
    : "";
  const id = r.id !== undefined
    ? ` <code style="color:#71717a">${escapeHtml(r.id)}</code>`
    : "";
  const cell = (k: string, v: string, indent = "") =>
    `<tr><td style="color:#52525b;padding:0 12px 0 ${indent};vertical-align:top">${
      escapeHtml(k)
    }</td><td>${escapeHtml(v)}</td></tr>`;
  const metricRows = metrics.length === 0
    ? ""
    : `<tr><td colspan="2" style="color:#52525b;padding-top:2px">metrics</td></tr>${
      metrics.map(([k, v]) => cell(k, v, "12px")).join("")
    }`;
  const table = rows.length === 0 && metrics.length === 0
    ? ""
    : `<table style="border-collapse:collapse;margin-top:4px">${
      rows.map(([k, v]) => cell(k, v)).join("")
    }${metricRows}</table>`;
  const footer = times.length === 0
    ? ""
    : `<div style="color:#71717a;font-size:11px;margin-top:4px">${
      escapeHtml(times.join(" · "))
    }</div>`;
  const html = `<div style="${CARD_STYLE}">${kind}<b>${
    escapeHtml(title)
  }</b>${id}${badge}${table}${footer}</div>`;

  const text = [
    `${options.kind ? `${options.kind} ` : ""}${title}${
      r.id !== undefined ? ` (${r.id})` : ""
    }${status ? ` [${status}]` : ""}`,
    ...rows.map(([k, v]) => `  ${k}: ${v}`),
    ...(metrics.length
      ? ["  metrics:", ...metrics.map(([k, v]) => `    ${k}: ${v}`)]
      : []),
    ...(times.length ? [`  ${times.join(", ")}`] : []),
  ].join("\n");
  return withDisplay({ html, text }, cardBundle);
}

// A card as the kernel shows it when it is a cell's value.
const cardBundle = (card: Card): MimeBundle => ({
  "text/html": card.html,
  "text/plain": card.text,
});

// Words of metric keys written the way people read them.
const METRIC_WORDS: Record<string, string> = {
  auc: "ROC AUC",
  rmse: "RMSE",
  mae: "MAE",
  mse: "MSE",
  mape: "MAPE",
  r2: "R²",
  log: "log",
  loss: "loss",
};

/**
 * A metric key as a label: `validation_auc` -> "validation ROC AUC",
 * `train_log_loss` -> "training log loss", `validation_r2` -> "validation R²".
 *
 * @example
 * ```ts
 * import { metricLabel } from "./card.ts";
 * if (metricLabel("validation_auc") !== "validation ROC AUC") throw new Error("unexpected");
 * if (metricLabel("train_rows") !== "training rows") throw new Error("unexpected");
 * ```
 */
export function metricLabel(key: string): string {
  return key.split("_").filter((w) => w !== "").map((w) =>
    w === "train" ? "training" : METRIC_WORDS[w.toLowerCase()] ?? w
  ).join(" ");
}

const SIGNIFICANT = new Intl.NumberFormat("en-US", {
  minimumSignificantDigits: 3,
  maximumSignificantDigits: 3,
});
const WHOLE = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/**
 * A metric value for reading: counts in full ("5,634"), everything else to
 * three significant digits ("0.912", "0.830", "12.3"); `null` (not measured) as "n/a".
 *
 * @example
 * ```ts
 * import { formatMetric } from "./card.ts";
 * if (formatMetric("validation_auc", 0.912345) !== "0.912") throw new Error("unexpected");
 * if (formatMetric("train_rows", 5634) !== "5,634") throw new Error("unexpected");
 * if (formatMetric("validation_auc", null) !== "n/a") throw new Error("unexpected");
 * ```
 */
export function formatMetric(key: string, value: number | null): string {
  if (value === null || !Number.isFinite(value)) return "n/a";
  if (value === 0) value = 0; // -0 reads as 0, not "-0.00"
  return /(^|_)(rows|count|rounds|iterations)$/.test(key) &&
      Number.isInteger(value)
    ? WHOLE.format(value)
    : SIGNIFICANT.format(value);
}

const REGRESSION_METRIC = /(^|_)(rmse|mae|mse|mape|r2)$/;
const CLASSIFICATION_METRIC = /(^|_)(auc|accuracy|log_loss)$/;

function formatMetrics(
  metrics: Record<string, number | null>,
  regression: boolean,
): [string, string][] {
  // The other task's metrics are null by construction: leave them out.
  const other = regression ? CLASSIFICATION_METRIC : REGRESSION_METRIC;
  return Object.entries(metrics).filter(([k, v]) =>
    !(v === null && other.test(k))
  ).map(([k, v]) => [metricLabel(k), formatMetric(k, v)]);
}

// A regression model: its targets have no classes (or, when it lists no
// classes, a regression metric was measured).
function isRegressionRecord(
  resource: Record<string, unknown>,
  metrics: Record<string, number | null>,
): boolean {
  const classes = resource.classes;
  if (isClassRecord(classes) && Object.keys(classes).length > 0) {
    return Object.values(classes).every((names) => names.length === 0);
  }
  return Object.entries(metrics).some(([k, v]) =>
    v !== null && REGRESSION_METRIC.test(k)
  );
}

function formatClasses(classes: Record<string, string[]>): string {
  return Object.entries(classes).map(([target, names]) =>
    names.length === 0
      ? `${target}: a number (regression)`
      : `${target}: ${names.join(", ")}`
  ).join("; ");
}

function isNumberRecord(
  value: unknown,
): value is Record<string, number | null> {
  return value !== null && typeof value === "object" &&
    !Array.isArray(value) &&
    Object.values(value).every((v) => v === null || typeof v === "number");
}

function isClassRecord(value: unknown): value is Record<string, string[]> {
  return value !== null && typeof value === "object" &&
    !Array.isArray(value) &&
    Object.values(value).every((v) =>
      Array.isArray(v) && v.every((c) => typeof c === "string")
    );
}

/**
 * Renders an error as a red card: class, HTTP status, message, `error_code`,
 * request id, `error_reference` and integrity `dependants` when present.
 * Field names are read in both the service's snake_case and camelCase.
 *
 * @example
 * ```ts
 * import { errorCard } from "./card.ts";
 * const error = Object.assign(new Error("model not found"), { status: 404, errorCode: "NOT_FOUND", requestId: "req-1" });
 * const card = errorCard(error);
 * if (!card.html.includes("NOT_FOUND") || !card.text.includes("req-1")) throw new Error("unexpected");
 * ```
 */
export function errorCard(error: unknown): Card {
  const e = maskSecrets(
    error instanceof Error
      ? { ...error, name: error.name, message: error.message }
      : { message: String(error) },
  ) as Record<string, unknown>;
  const name = clipText(
    typeof e.name === "string" ? e.name : "Error",
    MAX_TITLE,
  );
  const full = String(e.message ?? "");
  const message = full.length > MAX_MESSAGE
    ? `${clipText(full, MAX_MESSAGE)} (${
      full.length - MAX_MESSAGE + 1
    } more characters in the error's message)`
    : full;
  const fields: [string, unknown][] = [
    ["status", e.status],
    ["error_code", e.error_code ?? e.errorCode],
    ["request id", e.request_id ?? e.requestId],
    ["error_reference", e.error_reference ?? e.errorReference],
    [
      "dependants",
      Array.isArray(e.dependants) ? summarize(e.dependants) : undefined,
    ],
  ];
  const shown = fields.filter(([, v]) =>
    v !== undefined && v !== null && v !== ""
  );
  const color = statusColor("FAILED");
  const html =
    `<div style="${CARD_STYLE};border-color:${color}"><b style="color:${color}">${
      escapeHtml(name)
    }</b> ${escapeHtml(message)}${
      shown.length
        ? `<div style="color:#52525b;font-size:12px;margin-top:4px">${
          shown.map(([k, v]) =>
            `${escapeHtml(k)}: <code>${escapeHtml(v)}</code>`
          ).join(" · ")
        }</div>`
        : ""
    }</div>`;
  const text = [
    `${name}: ${message}`,
    ...shown.map(([k, v]) => `  ${k}: ${v}`),
  ].join("\n");
  return withDisplay({ html, text }, cardBundle);
}

function isReference(value: unknown): value is { id: string; name?: string } {
  return value !== null && typeof value === "object" && !Array.isArray(value) &&
    typeof (value as { id?: unknown }).id === "string" &&
    Object.keys(value).every((k) => k === "id" || k === "name");
}

function summarize(value: unknown): string {
  if (value === null) return "null";
  if (isReference(value)) {
    return value.name !== undefined ? `${value.name} (${value.id})` : value.id;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const names = value.map((v) =>
      v && typeof v === "object" &&
        typeof (v as { name?: unknown }).name === "string"
        ? (v as { name: string }).name
        : undefined
    );
    if (names.every((n) => n !== undefined)) return clip(names.join(", "));
    if (value.every((v) => typeof v !== "object")) {
      return clip(value.join(", "));
    }
    return `${value.length} items`;
  }
  if (typeof value === "object") {
    return clip(
      Object.entries(value).map(([k, v]) =>
        `${k}: ${typeof v === "object" && v !== null ? "…" : v}`
      ).join(", "),
    );
  }
  return clip(String(value));
}

function clip(text: string): string {
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}

/** Whether a value looks like `field_labels` (labels by field name). */
function isLabels(value: unknown): value is FieldLabels {
  return typeof value === "object" && value !== null &&
    Object.values(value).every((l) =>
      typeof l === "object" && l !== null && typeof l.label === "string"
    );
}
