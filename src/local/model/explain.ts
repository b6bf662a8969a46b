/**
 * Predictions and exact explanations of a trained model, the views table of
 * docs/contract.md#views, and the model's global explanation (term
 * importances and shapes).
 *
 * The model is additive, so an explanation is exact: for every row, `bias`
 * plus the sum of the term contributions equals the log-odds of the explained
 * class (binary; for the negative class every sign flips), that class's
 * softmax logit (3+ classes), or the prediction itself (regression).
 *
 * @example
 * ```ts
 * import { encodeDataset } from "./encoding.ts";
 * import { train } from "./train.ts";
 * import { contributionTable } from "./explain.ts";
 *
 * const x = Array.from({ length: 100 }, (_, i) => i);
 * const data = encodeDataset({ x, y: x.map((v) => (v < 50 ? "lo" : "hi")) }, [
 *   { name: "x", data_type: { data_type: "NUMBER" }, designation: "FEATURE", semantic_type: "CONTINUOUS" },
 *   { name: "y", data_type: { data_type: "STRING" }, designation: "TARGET", semantic_type: "CATEGORICAL" },
 * ]);
 * const table = contributionTable(train(data, { max_rounds: 30 }), { x: [10, 90] });
 * if (!(table.columns.join() === "prediction.y,probability.y.hi,probability.y.lo,bias,contribution.x")) throw new Error("example failed");
 * if (!(table.data[0][0] === "lo" && table.data[1][0] === "hi")) throw new Error("example failed");
 * ```
 *
 * @module
 */

import { binColumn } from "./binning.ts";
import {
  cellsOf,
  regressionValues,
  rowProbabilities,
  rowScratch,
  scoreCells,
} from "./predictor.ts";
import { encodeRows } from "./encode_rows.ts";
import { ModelInputError } from "./errors.ts";
import type { EbmModel } from "./types.ts";
import { inputColumns, inputColumnSet, inputOf } from "./encoder.ts";

/** Predictions for a batch of rows. */
export interface Prediction {
  /** Predicted class per row (highest probability; ties go to the first class); empty for regression. */
  predicted: string[];
  /** Class probabilities per row, in `model.classes` order; each row sums to 1; empty for regression. */
  probabilities: number[][];
  /** Regression: the predicted value per row; null for classification. */
  values: number[] | null;
}

/** Whether a model predicts a number (absent `task` = classification). */
function isRegression(model: EbmModel): boolean {
  return model.task === "regression";
}

/** Predictions with one exact additive explanation per row. */
export interface Explanation extends Prediction {
  /** Class explained on each row. */
  explainedClass: string[];
  /** Bias per row (the intercept of the explained class's score). */
  bias: number[];
  /** Term names, aligned with each row of `contributions`. */
  terms: string[];
  /** Per row, one contribution per term. */
  contributions: number[][];
}

/**
 * Why a schema column is not a feature (`: dropped at training, <reason>;
 * leave it out`), or "" for a name the model never had.
 *
 * @example
 * ```ts
 * import { droppedBecause } from "./explain.ts";
 * import type { EbmModel } from "./types.ts";
 *
 * const model = { encoder: { dropped: [{ name: "id", reason: "an identifier" }] } } as unknown as EbmModel;
 * if (!droppedBecause(model, "id").includes("an identifier") || droppedBecause(model, "zz") !== "") throw new Error("example failed");
 * ```
 */
export function droppedBecause(model: EbmModel, name: string): string {
  const d = model.encoder.dropped?.find((f) => f.name === name);
  return d ? ` (dropped at training: ${d.reason}; leave it out)` : "";
}

/**
 * Bins rows given as raw columns and finds their cell in every term, or
 * throws a {@link ModelInputError} naming the column.
 */
function binRows(model: EbmModel, columns: Record<string, unknown>) {
  if (
    columns === null || typeof columns !== "object" || Array.isArray(columns)
  ) {
    throw new ModelInputError(
      null,
      "BAD_QUERY",
      "query must be an object mapping each feature name to an array of values.",
    );
  }
  const known = inputColumnSet(model.encoder);
  for (const name of Object.keys(columns)) {
    if (!known.has(name) && name !== model.target) {
      throw new ModelInputError(
        name,
        "UNKNOWN_FEATURE",
        `'${name}' is not a feature of this model${
          droppedBecause(model, name)
        }; the features are ${[...known].join(", ")}.`,
      );
    }
  }
  const first = columns[inputOf(model.encoder.features[0] ?? { name: "" })];
  const scratch = rowScratch(model, Array.isArray(first) ? first.length : 0);
  const rows = encodeRows(model.encoder, columns, scratch?.encoded);
  // Every feature's bins in one buffer (an allocation each cost more than
  // binning a row), or the scratch's.
  const n = rows.nRows;
  const all = scratch
    ? undefined
    : new ArrayBuffer(2 * n * model.features.length);
  const bins = model.features.map((b, j) =>
    binColumn(
      b,
      rows.features[j],
      scratch?.bins[j] ?? new Uint16Array(all!, 2 * n * j, n),
    )
  );
  return { n, cells: cellsOf(model.features, model.terms, bins), scratch };
}

/**
 * Predicts the class and class probabilities of each row.
 *
 * @param columns One array per feature (one value per row; null = missing).
 * @throws {ModelInputError} Naming the column on an unknown or missing feature,
 *   arrays of different lengths, a wrong type or a disallowed unseen category.
 *
 * @example
 * ```ts
 * import { encodeDataset } from "./encoding.ts";
 * import { train } from "./train.ts";
 * import { predict } from "./explain.ts";
 *
 * const c = Array.from({ length: 90 }, (_, i) => ["r", "g", "b"][i % 3]);
 * const data = encodeDataset({ c, y: c.map((v) => v.toUpperCase()) }, [
 *   { name: "c", data_type: { data_type: "STRING" }, designation: "FEATURE", semantic_type: "CATEGORICAL" },
 *   { name: "y", data_type: { data_type: "STRING" }, designation: "TARGET", semantic_type: "CATEGORICAL" },
 * ]);
 * const p = predict(train(data, { max_rounds: 40 }), { c: ["g"] });
 * if (!(p.predicted[0] === "G" && Math.abs(p.probabilities[0].reduce((a, b) => a + b) - 1) < 1e-12)) throw new Error("example failed");
 * ```
 */
export function predict(
  model: EbmModel,
  columns: Record<string, unknown>,
): Prediction {
  const { n, cells, scratch } = binRows(model, columns);
  const scores = scoreCells(model, cells, n, scratch?.scores);
  const predicted: string[] = [];
  const probabilities: number[][] = [];
  if (isRegression(model)) {
    return {
      predicted,
      probabilities,
      values: Array.from(regressionValues(model, scores)),
    };
  }
  for (let i = 0; i < n; i++) {
    const { p, best } = rowProbabilities(scores, i, model.scoreColumns);
    predicted.push(model.classes[best]);
    probabilities.push(p);
  }
  return { predicted, probabilities, values: null };
}

/**
 * Predicts and explains each row: `bias` plus the sum of `contributions`
 * equals the explained class's log-odds (binary), its softmax logit (3+
 * classes) or, for regression, the predicted value (`values`), or its
 * natural log for a log-link model (`model.link`); no class is explained
 * for regression and `explainClass` must be omitted.
 *
 * @param explainClass The class to explain: one for all rows, one per row, or
 *   omitted for the predicted class of each row.
 * @param offsets An anchor's reference scores ({@link anchorOffsets}):
 *   each contribution is then measured from the anchor's.
 * @throws {ModelInputError} As {@link predict}, and naming the target column
 *   for a class the model does not know or a per-row list of the wrong length.
 *
 * @example
 * ```ts
 * import { encodeDataset } from "./encoding.ts";
 * import { train } from "./train.ts";
 * import { explain } from "./explain.ts";
 *
 * const x = Array.from({ length: 100 }, (_, i) => i);
 * const data = encodeDataset({ x, y: x.map((v) => (v < 50 ? "lo" : "hi")) }, [
 *   { name: "x", data_type: { data_type: "NUMBER" }, designation: "FEATURE", semantic_type: "CONTINUOUS" },
 *   { name: "y", data_type: { data_type: "STRING" }, designation: "TARGET", semantic_type: "CATEGORICAL" },
 * ]);
 * const model = train(data, { max_rounds: 30 });
 * const hi = explain(model, { x: [70] }, "hi"), lo = explain(model, { x: [70] }, "lo");
 * if (!(hi.bias[0] === -lo.bias[0] && hi.contributions[0][0] === -lo.contributions[0][0])) throw new Error("example failed");
 * const p = hi.probabilities[0][0]; // classes are sorted: ["hi", "lo"]
 * if (!(Math.abs(hi.bias[0] + hi.contributions[0][0] - Math.log(p / (1 - p))) < 1e-9)) throw new Error("example failed");
 * ```
 */
export function explain(
  model: EbmModel,
  columns: Record<string, unknown>,
  explainClass?: string | number | ReadonlyArray<string | number>,
  offsets?: AnchorOffsets,
): Explanation {
  const { n, cells, scratch } = binRows(model, columns);
  const K = model.scoreColumns;
  const regression = isRegression(model);
  if (regression && explainClass !== undefined && explainClass !== null) {
    throw new ModelInputError(
      model.target,
      "NOT_A_CLASSIFIER",
      `target '${model.target}' is a regression target: there is no class to explain; leave targets out of the request.`,
    );
  }
  const classIndex = resolveClasses(model, explainClass, n);
  const scores = scoreCells(model, cells, n, scratch?.scores);
  const out: Explanation = {
    predicted: [],
    probabilities: [],
    values: regression ? Array.from(regressionValues(model, scores)) : null,
    explainedClass: [],
    bias: [],
    terms: model.terms.map((t) => t.name),
    contributions: [],
  };
  // An anchor moves each term's reference to it; the bias takes the sum of
  // the moves, so bias + contributions is the same score.
  const off = offsets?.terms;
  const shift = model.intercept.map((b, k) =>
    off ? off.reduce((a, o) => a + o[k], b) : b
  );
  if (regression) {
    for (let i = 0; i < n; i++) {
      out.bias.push(shift[0]);
      out.contributions.push(
        model.terms.map((t, j) =>
          off ? t.scores[cells[j][i]] - off[j][0] : t.scores[cells[j][i]]
        ),
      );
    }
    return out;
  }
  for (let i = 0; i < n; i++) {
    const { p, best } = rowProbabilities(scores, i, K);
    const c = classIndex ? classIndex[i] : best;
    // Binary models hold the logit of classes[1]; explaining classes[0] flips every sign.
    const col = K === 1 ? 0 : c;
    const sign = K === 1 && c === 0 ? -1 : 1;
    out.predicted.push(model.classes[best]);
    out.probabilities.push(p);
    out.explainedClass.push(model.classes[c]);
    out.bias.push(sign * shift[col]);
    out.contributions.push(
      model.terms.map((t, j) =>
        sign *
        (off
          ? t.scores[cells[j][i] * K + col] - off[j][col]
          : t.scores[cells[j][i] * K + col])
      ),
    );
  }
  return out;
}

function resolveClasses(
  model: EbmModel,
  explainClass: string | number | ReadonlyArray<string | number> | undefined,
  n: number,
): number[] | null {
  if (explainClass === undefined || explainClass === null) return null;
  const index = (v: unknown): number => {
    const k = typeof v === "string" || typeof v === "number"
      ? model.classes.indexOf(String(v))
      : -1;
    if (k < 0) {
      throw new ModelInputError(
        model.target,
        "UNKNOWN_CLASS",
        `target '${model.target}': ${
          JSON.stringify(v)
        } is not a class of this model; use one of ${
          JSON.stringify(model.classes)
        }.`,
      );
    }
    return k;
  };
  if (!Array.isArray(explainClass)) {
    return new Array(n).fill(index(explainClass));
  }
  if (explainClass.length === 1) {
    return new Array(n).fill(index(explainClass[0]));
  }
  if (explainClass.length !== n) {
    throw new ModelInputError(
      model.target,
      "LENGTH_MISMATCH",
      `target '${model.target}' has ${explainClass.length} values but the query has ${n} rows; give one class, or one per row.`,
    );
  }
  return explainClass.map(index);
}

/** A split-orientation table (`columns`, `index`, `data`). */
export interface SplitTable {
  columns: string[];
  index: number[];
  data: (string | number)[][];
}

/**
 * Builds the views `RESULTS` table: columns `prediction.<target>`, then
 * `probability.<target>.<class>` per class (classification only), `bias`,
 * and `contribution.<term>` per term; one row per query row. For regression
 * `prediction.<target>` is the predicted number and equals `bias` plus the
 * contributions.
 *
 * @param query The views request's `query` (feature name -> values).
 * @param targets The views request's `targets` (target name -> one class or one per row).
 * @param offsets An anchor's reference scores ({@link anchorOffsets}).
 * @throws {ModelInputError} Naming the column (the platform answers 400).
 *
 * @example
 * ```ts
 * import { encodeDataset } from "./encoding.ts";
 * import { train } from "./train.ts";
 * import { contributionTable } from "./explain.ts";
 * import { ModelInputError } from "./errors.ts";
 *
 * const x = Array.from({ length: 60 }, (_, i) => i);
 * const data = encodeDataset({ x, y: x.map((v) => (v % 3 === 0 ? "a" : "b")) }, [
 *   { name: "x", data_type: { data_type: "NUMBER" }, designation: "FEATURE", semantic_type: "CONTINUOUS" },
 *   { name: "y", data_type: { data_type: "STRING" }, designation: "TARGET", semantic_type: "CATEGORICAL" },
 * ]);
 * const model = train(data, { max_rounds: 5 });
 * try {
 *   contributionTable(model, { x: [1] }, { y: ["c"] });
 * } catch (e) {
 *   if (!(e instanceof ModelInputError && e.column === "y")) throw new Error("example failed");
 * }
 * ```
 */
export function contributionTable(
  model: EbmModel,
  query: Record<string, unknown>,
  targets?: Record<string, unknown>,
  offsets?: AnchorOffsets,
): SplitTable {
  let explainClass: string | number | (string | number)[] | undefined;
  for (const [name, value] of Object.entries(targets ?? {})) {
    if (name !== model.target) {
      throw new ModelInputError(
        name,
        "UNKNOWN_TARGET",
        `'${name}' is not a target of this model; its target is '${model.target}'.`,
      );
    }
    if (value === undefined || value === null) continue;
    if (
      Array.isArray(value) || typeof value === "string" ||
      typeof value === "number"
    ) {
      explainClass = value;
    } else {
      throw new ModelInputError(
        name,
        "BAD_TYPE",
        `target '${name}' must be a class name or an array of class names, one per row.`,
      );
    }
  }
  const e = explain(model, query, explainClass, offsets);
  const data: (string | number)[][] = [];
  const index: number[] = [];
  for (let i = 0; i < (e.values ?? e.predicted).length; i++) {
    // Regression: the value; else the class and its probabilities.
    const row: (string | number)[] = [e.values ? e.values[i] : e.predicted[i]];
    if (!e.values) { for (const p of e.probabilities[i]) row.push(p); }
    row.push(e.bias[i]);
    for (const c of e.contributions[i]) row.push(c);
    data.push(row);
    index.push(i);
  }
  return { columns: tableColumns(model), index, data };
}

/** The RESULTS table's column names per model, built once (a copy each call). */
const TABLE_COLUMNS = new WeakMap<EbmModel, readonly string[]>();

function tableColumns(model: EbmModel): string[] {
  let columns = TABLE_COLUMNS.get(model);
  if (!columns) {
    const t = model.target;
    const terms = model.terms.map((term) => `contribution.${term.name}`);
    columns = isRegression(model) ? [`prediction.${t}`, "bias", ...terms] : [
      `prediction.${t}`,
      ...model.classes.map((c) => `probability.${t}.${c}`),
      "bias",
      ...terms,
    ];
    TABLE_COLUMNS.set(model, columns);
  }
  return columns.slice();
}

/**
 * An anchor's reference score of every term (docs/contract.md#data-anchors):
 * `terms[j][k]` is, for term `j` and score column `k`, the mean over the
 * anchor rows of the term's expected score given the features the anchor
 * gives (a feature it leaves out is averaged over the training rows, weighted
 * by their counts in the term's cells). Subtracting it from a contribution
 * measures the row against the anchor; the bias gains the sum.
 */
export interface AnchorOffsets {
  /** Per term (in `model.terms` order), one reference per score column. */
  terms: number[][];
  /** Anchor rows averaged over. */
  rows: number;
}

/**
 * The reference scores of an anchor given as columns (some or all features,
 * one value per anchor row; null is the missing value; none: the training rows).
 *
 * @throws {ModelInputError} Naming the column on an unknown feature, a wrong
 *   type or columns of different lengths.
 *
 * @example
 * ```ts
 * import { encodeDataset } from "./encoding.ts";
 * import { train } from "./train.ts";
 * import { anchorOffsets, explain } from "./explain.ts";
 *
 * const x = Array.from({ length: 100 }, (_, i) => i);
 * const data = encodeDataset({ x, y: x.map((v) => (v < 50 ? "lo" : "hi")) }, [
 *   { name: "x", data_type: { data_type: "NUMBER" }, designation: "FEATURE", semantic_type: "CONTINUOUS" },
 *   { name: "y", data_type: { data_type: "STRING" }, designation: "TARGET", semantic_type: "CATEGORICAL" },
 * ]);
 * const model = train(data, { max_rounds: 30 });
 * const plain = explain(model, { x: [70] }, "hi");
 * const anchored = explain(model, { x: [70] }, "hi", anchorOffsets(model, { x: [70] }));
 * // The row is its own anchor: nothing is different, the bias is the whole score.
 * if (!(Math.abs(anchored.contributions[0][0]) < 1e-12)) throw new Error("example failed");
 * if (!(Math.abs(anchored.bias[0] - (plain.bias[0] + plain.contributions[0][0])) < 1e-12)) throw new Error("example failed");
 * ```
 */
export function anchorOffsets(
  model: EbmModel,
  anchor: Record<string, unknown>,
): AnchorOffsets {
  const given = new Set(Object.keys(anchor));
  const lengths = Object.values(anchor).map((c) =>
    Array.isArray(c) ? c.length : -1
  );
  const rows = lengths[0] ?? 1; // no column: one row leaving every feature out
  for (const [name, column] of Object.entries(anchor)) {
    if (!Array.isArray(column) || column.length !== rows || rows === 0) {
      throw new ModelInputError(
        name,
        "LENGTH_MISMATCH",
        `anchor column '${name}' must hold one value per anchor row (${rows}), at least one.`,
      );
    }
  }
  // Features the anchor leaves out are binned as missing, then averaged out.
  const full: Record<string, unknown> = Object.create(null);
  for (const f of inputColumns(model.encoder)) {
    full[f] = given.has(f) ? anchor[f] : new Array(rows).fill(null);
  }
  for (const name of given) if (!(name in full)) full[name] = anchor[name];
  const { cells } = binRows(model, full);
  const K = model.scoreColumns;
  const terms = model.terms.map((t, j) => {
    const known = t.features.map((f) =>
      given.has(inputOf(model.encoder.features[f]))
    );
    const width = t.features.length === 2
      ? model.features[t.features[1]].pairBins
      : 1;
    const out = new Array(K).fill(0);
    for (let i = 0; i < rows; i++) {
      const q = cells[j][i];
      // The cells consistent with what the anchor fixes in this term.
      const keep = (c: number) =>
        t.features.length === 1
          ? !known[0] || c === q
          : (!known[0] || Math.floor(c / width) === Math.floor(q / width)) &&
            (!known[1] || c % width === q % width);
      let total = 0;
      const sum = new Array(K).fill(0);
      for (let c = 0; c < t.counts.length; c++) {
        if (!keep(c)) continue;
        const w = known.every(Boolean) ? 1 : t.counts[c];
        total += w;
        for (let k = 0; k < K; k++) sum[k] += w * t.scores[c * K + k];
      }
      // No training row in those cells: the term's score at the anchor's cell.
      for (let k = 0; k < K; k++) {
        out[k] += total > 0 ? sum[k] / total : t.scores[q * K + k];
      }
    }
    return out.map((v) => v / rows);
  });
  return { terms, rows };
}
