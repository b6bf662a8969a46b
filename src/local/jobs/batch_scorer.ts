/**
 * Scoring one chunk of a views batch: the rows' views from the model,
 * formatted as output lines (CSV or JSON Lines), a row the model cannot
 * score made an error row or the job's failure. Plain data in and out, so
 * the same scorer runs on the server's thread and in the batch's second
 * thread (./batch_worker.ts).
 *
 * @example
 * ```ts
 * import { encodeDataset } from "../model/encoding.ts";
 * import { train } from "../model/ebm.ts";
 * import { ChunkScorer } from "./batch_scorer.ts";
 * const x = Array.from({ length: 60 }, (_, i) => i);
 * const model = train(encodeDataset({ x, y: x.map((v) => (v < 30 ? "lo" : "hi")) }, [
 *   { name: "x", data_type: { data_type: "NUMBER" }, designation: "FEATURE", semantic_type: "CONTINUOUS" },
 *   { name: "y", data_type: { data_type: "STRING" }, designation: "TARGET", semantic_type: "CATEGORICAL" },
 * ]), { max_rounds: 5 });
 * const layout = { columns: ["id", "prediction.y"], kinds: ["string", "string"] as const, viewIndex: [0] };
 * const scorer = new ChunkScorer(model, ["id", "x"], {
 *   shape: { viewType: "PREDICTIONS", keep: ["id"], onError: "FAIL", errorColumn: "error" },
 *   format: "JSON_LINES",
 *   display: "in.csv",
 * }, { ...layout, kinds: [...layout.kinds] });
 * const text = scorer.score([{ fields: ["a", "3"], line: 2 }], 0);
 * if (text !== '{"id":"a","prediction.y":"lo"}\n') throw new Error(text);
 * ```
 *
 * @module
 */
import { inputColumns } from "../model/encoder.ts";
import type { EbmModel } from "../model/types.ts";
import { contributionTable } from "../model/explain.ts";
import { ModelInputError } from "../model/errors.ts";
import { csvField } from "./csv_stream.ts";
import { separatorHint } from "../../csv_hint.ts";

/** How a cell of an output column reads back: as text or as a number. */
export type ColumnKind = "string" | "number";

/** The output's columns, what each holds, and where the views come from. */
export interface BatchLayout {
  /** Output column names: kept columns, views, then the error column (if any). */
  columns: string[];
  /** What each output column holds. */
  kinds: ColumnKind[];
  /** For each view column written, its index in the model's views table. */
  viewIndex: number[];
}

/** What the output of a batch is made of (its configuration, resolved). */
export interface BatchShape {
  /** `RESULTS` (every views column) or `PREDICTIONS` (prediction and probabilities). */
  viewType: string;
  /** Input columns carried through, in order. */
  keep: readonly string[];
  /** `FAIL` or `NULL_PREDICTION`. */
  onError: string;
  /** Name of the error column (written with `NULL_PREDICTION`). */
  errorColumn: string;
}

/** What a {@linkcode ChunkScorer} needs of its batch: plain data, so a Worker can have it. */
export interface ScorerInput {
  /** How the output is laid out and what a bad row does. */
  shape: BatchShape;
  /** `CSV` or `JSON_LINES`. */
  format: string;
  /** How the input is named to the user (`"x.csv" in bucket "b"`). */
  display: string;
}

/** One input record and the line it starts on. */
export interface Row {
  fields: string[];
  line: number;
}

/** Scores chunks of rows and formats them as output lines. */
export class ChunkScorer {
  /** Rows of the last chunk written with an error. */
  errors = 0;
  readonly #model: EbmModel;
  readonly #input: ScorerInput;
  readonly #layout: BatchLayout;
  readonly #width: number;
  readonly #features: { name: string; at: number }[];
  readonly #keepAt: number[];
  readonly #nViews: number;
  /** The text of each view column's cells. */
  readonly #texts: CellText[];
  /** JSON Lines: each output column's key, as JSON. */
  readonly #keys: string[];

  constructor(
    model: EbmModel,
    header: string[],
    input: ScorerInput,
    layout: BatchLayout,
  ) {
    this.#model = model;
    this.#input = input;
    this.#layout = layout;
    this.#width = header.length;
    const where = new Map<string, number>();
    header.forEach((name, i) => {
      if (!where.has(name)) where.set(name, i);
    });
    // The input columns (a date column once, whatever parts it gives).
    const inputs = inputColumns(model.encoder);
    const missing = inputs.filter((n) => !where.has(n));
    const keepMissing = input.shape.keep.filter((n) => !where.has(n));
    if (missing.length || keepMissing.length) {
      const parts = [
        missing.length
          ? `the model's feature${missing.length > 1 ? "s" : ""} ${
            missing.map((n) => `"${n}"`).join(", ")
          }`
          : "",
        keepMissing.length
          ? `the kept column${keepMissing.length > 1 ? "s" : ""} ${
            keepMissing.map((n) => `"${n}"`).join(", ")
          }`
          : "",
      ].filter(Boolean);
      throw new Error(
        `${input.display} has no column for ${
          parts.join(" and ")
        }; its header has ${header.map((n) => `"${n}"`).join(", ")}${
          separatorHint(header)
        }. Add the column${
          missing.length + keepMissing.length > 1 ? "s" : ""
        } (empty cells are missing values) or fix the configuration.`,
      );
    }
    this.#features = inputs.map((name) => ({ name, at: where.get(name)! }));
    this.#keepAt = input.shape.keep.map((n) => where.get(n)!);
    this.#nViews = layout.viewIndex.length;
    const jsonLines = input.format === "JSON_LINES";
    this.#texts = layout.viewIndex.map(() => new CellText(jsonLines));
    this.#keys = layout.columns.map((name) => JSON.stringify(name));
  }

  /** Output text of `rows` (the first is data row `first`, 0-based). */
  score(rows: Row[], first: number): string {
    this.errors = 0;
    const errors: (string | null)[] = rows.map((r) =>
      r.fields.length === this.#width
        ? null
        : `the row has ${r.fields.length} field${
          r.fields.length === 1 ? "" : "s"
        } but the header has ${this.#width}`
    );
    const good = rows.filter((_, i) => errors[i] === null);
    let table: (string | number)[][] | undefined;
    try {
      table = this.#table(good);
    } catch (error) {
      if (!(error instanceof ModelInputError)) throw error;
    }
    const views: ((string | number)[] | null)[] = new Array(rows.length);
    if (table) {
      let k = 0;
      for (let i = 0; i < rows.length; i++) {
        views[i] = errors[i] === null ? table[k++] : null;
      }
    } else {
      // Some row is bad: score one at a time to name it and keep the rest.
      for (let i = 0; i < rows.length; i++) {
        if (errors[i] !== null) {
          views[i] = null;
          continue;
        }
        try {
          views[i] = this.#table([rows[i]])[0];
        } catch (error) {
          if (!(error instanceof ModelInputError)) throw error;
          views[i] = null;
          errors[i] = reasonOf(error);
        }
      }
    }
    let text = "";
    for (let i = 0; i < rows.length; i++) {
      const error = errors[i];
      if (error !== null) {
        if (this.#input.shape.onError !== "NULL_PREDICTION") {
          throw new Error(
            `Row ${first + i + 1} (line ${
              rows[i].line
            }) of ${this.#input.display} cannot be scored: ${
              // The model's reasons end with a full stop: not a second one.
              error.replace(
                /\.$/,
                "",
              )}. Fix the row, or score with on_error NULL_PREDICTION to write it with an error instead.`,
          );
        }
        this.errors++;
      }
      text += this.#line(rows[i].fields, views[i], error);
    }
    return text;
  }

  /** The views rows of `rows` (throws ModelInputError on a bad row). */
  #table(rows: Row[]): (string | number)[][] {
    const query: Record<string, unknown[]> = Object.create(null);
    for (const { name, at } of this.#features) {
      const column = new Array(rows.length);
      for (let i = 0; i < rows.length; i++) column[i] = rows[i].fields[at];
      query[name] = column;
    }
    return contributionTable(this.#model, query).data;
  }

  #line(
    fields: string[],
    view: (string | number)[] | null,
    error: string | null,
  ): string {
    const { viewIndex } = this.#layout;
    const texts = this.#texts;
    const jsonLines = this.#input.format === "JSON_LINES";
    let line = jsonLines ? "{" : "";
    let c = 0;
    const add = (text: string) => {
      line += jsonLines
        ? (c ? "," : "") + this.#keys[c] + ":" + text
        : (c ? "," : "") + text;
      c++;
    };
    for (const at of this.#keepAt) {
      const v = fields[at] ?? "";
      add(jsonLines ? (v === "" ? "null" : JSON.stringify(v)) : csvField(v));
    }
    for (let j = 0; j < this.#nViews; j++) {
      add(view ? texts[j].of(view[viewIndex[j]]) : jsonLines ? "null" : "");
    }
    if (this.#input.shape.onError === "NULL_PREDICTION") {
      add(
        error === null
          ? (jsonLines ? "null" : "")
          : jsonLines
          ? JSON.stringify(error)
          : csvField(error),
      );
    }
    return line + (jsonLines ? "}\n" : "\n");
  }
}

/**
 * The text of a view column's cells in the output format, remembered per
 * value while that pays: a contribution takes one value per bin of its
 * term, so most cells repeat (turning a number into its shortest exact
 * text was the batch's largest cost); a column of distinct values
 * (probabilities) stops remembering once it holds {@linkcode MAX_REMEMBERED}.
 */
class CellText {
  #seen: Map<string | number, string> | undefined = new Map();
  readonly #encode: (v: string | number) => string;

  constructor(jsonLines: boolean) {
    this.#encode = jsonLines
      ? (v) =>
        typeof v === "number"
          ? (Number.isFinite(v) ? String(v) : "null")
          : JSON.stringify(v)
      : (v) => typeof v === "number" ? String(v) : csvField(v);
  }

  /** The cell's text. */
  of(v: string | number): string {
    const seen = this.#seen;
    if (seen === undefined) return this.#encode(v);
    let text = seen.get(v);
    if (text === undefined) {
      text = this.#encode(v);
      if (seen.size < MAX_REMEMBERED) seen.set(v, text);
      else this.#seen = undefined;
    }
    return text;
  }
}

/** Values a {@linkcode CellText} remembers before it stops (a column of distinct values). */
const MAX_REMEMBERED = 4096;

/** The error column's text for a model input error: the column and the reason. */
function reasonOf(error: ModelInputError): string {
  // The model numbers rows within the one-row query it was given: drop that.
  const reason = error.message.replace(/^column '[^']*' row \d+: /, "");
  return error.column ? `column '${error.column}': ${reason}` : reason;
}
