/**
 * The answer of a views request, typed by the model's target names: the
 * split table as sent, plus rows, columns, a danfo DataFrame (loaded
 * lazily), predictions, probabilities and each row's top contributions.
 *
 * @module
 */
import { splitToColumns, splitToRows } from "../frames/split.ts";
import { labelledTable } from "../frames/labels.ts";
import { termLabel } from "../schemas/label_display.ts";
import type { AppliedAnchor, FieldLabels } from "../schemas/labels.ts";
import type { SplitTable } from "../frames/types.ts";
import type { ViewColumn } from "./types.ts";
import {
  type Chart,
  chartsOrThrow,
  type ExplanationChartOptions,
  JUPYTER_DISPLAY,
  type MimeBundle,
  renderAs,
} from "../display.ts";
import { type RegressionFit, regressionFit } from "../regression_fit.ts";

/** A cell of a views result. */
export type ResultCell = string | number | boolean | null;

/** One term's share of a row's score. */
export interface Contribution {
  /** The term: a feature, or `a*b` for a pair. */
  term: string;
  /** The term as shown: its features' labels (the term itself without labels). */
  label: string;
  /** Its contribution to the log-odds of the explained class (regression: to the prediction). */
  value: number;
}

/**
 * A views result. `T` are the target names, so `result.rows()[0]["prediction.churn"]`
 * type-checks and `"prediction.churm"` does not.
 *
 * @example
 * ```ts
 * import { ViewsResult } from "./views_result.ts";
 * const result = new ViewsResult<"churn">({
 *   columns: ["prediction.churn", "probability.churn.No", "probability.churn.Yes", "bias", "contribution.tenure", "contribution.contract"],
 *   index: [0],
 *   data: [["Yes", 0.3, 0.7, -1, 1.5, 0.35]],
 * });
 * result.predictions(); // ["Yes"]
 * result.probabilities().Yes; // [0.7]
 * result.contributions(0, { top: 1 }); // [{ term: "tenure", label: "tenure", value: 1.5 }]
 * result.rows()[0]["prediction.churn"]; // "Yes"
 * ```
 */
export class ViewsResult<T extends string = string> {
  /** The split-orientation table the service answered. */
  readonly table: SplitTable;

  /** What the request asked each target's explanation of (its `targets`), one class or one per row. */
  readonly #explained: Readonly<Record<string, ResultCell | ResultCell[]>>;

  /**
   * Wraps a split table; `explained` is the request's `targets` (the class
   * each row was explained for, when it asked for one), which
   * {@link explanationChart} names.
   */
  constructor(
    table: SplitTable,
    explained: Readonly<Record<string, ResultCell | ResultCell[]>> = {},
  ) {
    this.table = table;
    this.#explained = explained;
  }

  /** Number of rows. */
  get length(): number {
    return this.table.data.length;
  }

  /** The table's column names. */
  get columnNames(): ViewColumn<T>[] {
    return this.table.columns as ViewColumn<T>[];
  }

  /** One object per row, keyed by column name (missing cells are `null`). */
  rows(): Array<Record<ViewColumn<T>, ResultCell>> {
    return splitToRows(this.table) as Array<Record<ViewColumn<T>, ResultCell>>;
  }

  /**
   * What the model's schema shows each field as (docs/contract.md#labels-and-anchors),
   * keyed by raw field name; undefined when it labels none.
   */
  get labels(): FieldLabels | undefined {
    return this.table.field_labels;
  }

  /** The anchor the contributions were measured against, if any. */
  get anchor(): AppliedAnchor | undefined {
    return this.table.anchor;
  }

  /**
   * The same rows under their labels: columns named `Monthly charges (USD)`
   * rather than `contribution.monthly_charges`, predicted classes by their
   * friendly names. For reading and display; the raw names stay in
   * {@linkcode ViewsResult.table}.
   *
   * @example
   * ```ts
   * import { ViewsResult } from "./views_result.ts";
   * const result = new ViewsResult({
   *   columns: ["prediction.churn", "bias", "contribution.mc"], index: [0], data: [["Yes", -1, 0.5]],
   *   field_labels: { mc: { label: "Monthly charges (USD)", friendly_name: "Monthly charges", unit: "USD", dimension: null, categories: {} } },
   * });
   * if (result.labelledRows()[0]["Monthly charges (USD)"] !== 0.5) throw new Error();
   * ```
   */
  labelledRows(): Record<string, ResultCell>[] {
    return splitToRows(labelledTable(this.table));
  }

  /** One array per column. */
  columns(): Record<ViewColumn<T>, ResultCell[]> {
    return splitToColumns(this.table) as Record<ViewColumn<T>, ResultCell[]>;
  }

  // deno-doc-ignore private-type-ref -- danfo's own DataFrame class (an optional peer dependency)
  /**
   * A danfo DataFrame of the table (danfo is loaded on first use); with
   * `{ labelled: true }`, of {@linkcode ViewsResult.labelledRows}' table.
   */
  async toDataFrame(
    options: { labelled?: boolean } = {},
  ): Promise<import("danfojs-node").DataFrame> {
    const { toDataFrame } = await import("../frames/danfo.ts");
    return toDataFrame(
      options.labelled ? labelledTable(this.table) : this.table,
    );
  }

  /**
   * A Vega-Lite chart of one row's explanation: from `bias` through each
   * term's contribution to the explained class's log-odds (a waterfall by
   * default). Shown as a chart when it is a notebook cell's value. The
   * class the request asked to explain (`.explain(target, class)`) is named
   * in the title unless `options.explained` says otherwise.
   *
   * @example
   * ```ts
   * import "../../mod.ts"; // any package entry loads the layer that draws charts
   * import { ViewsResult } from "./views_result.ts";
   * const table = {
   *   columns: ["prediction.k", "probability.k.a", "probability.k.b", "probability.k.c", "bias", "contribution.x"],
   *   index: [0, 1],
   *   data: [["a", 0.5, 0.3, 0.2, 0.1, 0.4], ["c", 0.2, 0.2, 0.6, 0.1, -0.3]],
   * };
   * // The request explained row 0 for class b and row 1 for class c.
   * const result = new ViewsResult<"k">(table, { k: ["b", "c"] });
   * const text = result.explanationChart(0)["text/plain"];
   * if (!text.includes("softmax logit of b")) throw new Error(text);
   * // Without the request's classes, a 3-class chart cannot name one.
   * if (new ViewsResult<"k">(table).explanationChart(0)["text/plain"].includes(" of ")) throw new Error("named");
   * ```
   */
  explanationChart(row = 0, options: ExplanationChartOptions = {}): Chart {
    const explained = options.explained ?? this.#explainedOf(row);
    return chartsOrThrow().explanationChart(
      this.table,
      row,
      explained === undefined ? options : { ...options, explained },
    );
  }

  // The class the request asked row `row` of the first target explained
  // for, when it is one of the answer's classes (a class given as a number,
  // `1` for "1", reads as its text; anything else is left to the chart).
  #explainedOf(row: number): string | undefined {
    const target = this.table.columns.find((c) => c.startsWith("prediction."))
      ?.slice(11);
    if (target === undefined || !Object.hasOwn(this.#explained, target)) {
      return undefined;
    }
    const asked = this.#explained[target];
    const cell = Array.isArray(asked) ? asked[row] : asked;
    if (cell === null || cell === undefined) return undefined;
    const name = String(cell);
    return this.classes(target as T).includes(name) ? name : undefined;
  }

  /** A Vega-Lite histogram of the predicted probabilities (last class by default). */
  probabilityHistogram(
    options: { column?: string; bins?: number } = {},
  ): Chart {
    return chartsOrThrow().probabilityHistogram(this.table, options);
  }

  /** Renders as an HTML table in Jupyter, contributions coloured by sign and size. */
  [JUPYTER_DISPLAY](): MimeBundle {
    return renderAs("table", this.table);
  }

  /**
   * The prediction of each row, for `target` (default: the first): a class,
   * or for a regression model a number.
   */
  predictions(target?: T): ResultCell[] {
    const name = target ?? this.#targets()[0];
    return this.#column(`prediction.${name}`);
  }

  /**
   * The classes of `target` (default: the first) in the answer's order,
   * which is the model's: its `probability.<target>.<class>` columns.
   * Iterate these rather than `Object.keys(probabilities())`: JavaScript
   * lists an object's integer-like keys first, in numeric order, so classes
   * named `"01"`, `"1"`, `"1.0"` and `"6"` come back from `Object.keys` as
   * `"1"`, `"6"`, `"01"`, `"1.0"`.
   *
   * @example
   * ```ts
   * import { ViewsResult } from "./views_result.ts";
   * const result = new ViewsResult<"grade">({
   *   columns: ["prediction.grade", "probability.grade.01", "probability.grade.1", "probability.grade.6"],
   *   index: [0],
   *   data: [["6", 0.2, 0.3, 0.5]],
   * });
   * if (result.classes().join() !== "01,1,6") throw new Error(result.classes().join());
   * if (Object.keys(result.probabilities()).join() !== "1,6,01") throw new Error("JavaScript's key order");
   * const p = result.probabilities();
   * if (result.classes().map((c) => p[c][0]).join() !== "0.2,0.3,0.5") throw new Error("example failed");
   * ```
   */
  classes(target?: T): string[] {
    const name = target ?? this.#targets()[0];
    const prefix = `probability.${name}.`;
    return this.table.columns.filter((c) => c.startsWith(prefix)).map((c) =>
      c.slice(prefix.length)
    );
  }

  /**
   * Each class's probability per row, for `target` (default: the first). A
   * row without one (a batch row the model could not score, whose views
   * are null) has `NaN`, as `toDataFrame()` has, never 0: `Number(null)`
   * made such a row read as certain that it was no class at all. Look a
   * class up by name; for the model's order of classes, {@link classes}.
   *
   * @example
   * ```ts
   * import { ViewsResult } from "./views_result.ts";
   * const result = new ViewsResult<"churn">({
   *   columns: ["prediction.churn", "probability.churn.No", "probability.churn.Yes"],
   *   index: [0, 1],
   *   data: [["Yes", 0.3, 0.7], [null, null, null]],
   * });
   * const { Yes } = result.probabilities();
   * if (Yes[0] !== 0.7 || !Number.isNaN(Yes[1])) throw new Error(String(Yes));
   * ```
   */
  probabilities(target?: T): Record<string, number[]> {
    const name = target ?? this.#targets()[0];
    const prefix = `probability.${name}.`;
    // Null prototype: a class named `__proto__` stays an ordinary key.
    const out: Record<string, number[]> = Object.create(null);
    this.table.columns.forEach((column, j) => {
      if (column.startsWith(prefix)) {
        out[column.slice(prefix.length)] = this.table.data.map((row) => {
          const cell = row[j];
          return cell === null || cell === undefined || cell === ""
            ? NaN
            : Number(cell);
        });
      }
    });
    return out;
  }

  /**
   * How well a regression model's predictions fit the `actual` values (one
   * per row, in order): R², RMSE, MAE, mean residual.
   *
   * @example
   * ```ts
   * import "../../mod.ts"; // any package entry loads the layer that draws charts
   * import { ViewsResult } from "./views_result.ts";
   * const result = new ViewsResult<"strength">({
   *   columns: ["prediction.strength", "bias", "contribution.cement"],
   *   index: [0, 1, 2],
   *   data: [[12, 20, -8], [19, 20, -1], [29, 20, 9]],
   * });
   * if (result.fit([10, 20, 30]).rmse.toFixed(3) !== "1.414") throw new Error("unexpected");
   * result.predictedVsActualChart([10, 20, 30])["text/plain"]; // "Predicted vs actual strength: 3 rows, R² 0.970, RMSE 1.41"
   * ```
   */
  fit(actual: ArrayLike<unknown>, target?: T): RegressionFit {
    return regressionFit(actual, this.predictions(target));
  }

  /**
   * A Vega-Lite scatter of predicted against `actual` values (one per row,
   * in order) with the diagonal, for a regression model.
   */
  predictedVsActualChart(actual: ArrayLike<unknown>, target?: T): Chart {
    const name = target ?? this.#targets()[0];
    return chartsOrThrow().predictedVsActualChart(
      actual,
      this.predictions(target),
      {
        target: name,
      },
    );
  }

  /**
   * A Vega-Lite scatter of residuals (actual - predicted) against the
   * prediction, for a regression model.
   */
  residualChart(actual: ArrayLike<unknown>, target?: T): Chart {
    const name = target ?? this.#targets()[0];
    return chartsOrThrow().residualChart(actual, this.predictions(target), {
      target: name,
    });
  }

  /** The row's term contributions, largest magnitude first (`top` of them). */
  contributions(row: number, options: { top?: number } = {}): Contribution[] {
    const values = this.table.data[row];
    if (!values) {
      throw new RangeError(
        `row ${row} does not exist: the result has ${this.length} rows (0..${
          this.length - 1
        })`,
      );
    }
    // A row the model could not score (a batch's NULL_PREDICTION) has
    // null views: no contribution of it is 0.
    if (values[this.table.columns.indexOf("bias")] === null) {
      throw new RangeError(
        `row ${row} has no explanation: its views are null (a row the model could not score)`,
      );
    }
    const top = options.top;
    if (top !== undefined && !(Number.isInteger(top) && top >= 0)) {
      throw new RangeError(
        `top must be a whole number of terms, 0 or more (got ${top})`,
      );
    }
    const out: Contribution[] = [];
    this.table.columns.forEach((column, j) => {
      if (column.startsWith("contribution.")) {
        const term = column.slice(13);
        out.push({
          term,
          label: termLabel(term, this.table.field_labels),
          value: Number(values[j]),
        });
      }
    });
    out.sort((a, b) => Math.abs(b.value) - Math.abs(a.value));
    return top === undefined ? out : out.slice(0, top);
  }

  /** The table itself, for `JSON.stringify`. */
  toJSON(): SplitTable {
    return this.table;
  }

  #targets(): string[] {
    const names = this.table.columns.filter((c) => c.startsWith("prediction."))
      .map((c) => c.slice(11));
    if (!names.length) {
      throw new RangeError(
        `the result has no prediction column (columns: ${
          this.table.columns.join(", ")
        })`,
      );
    }
    return names;
  }

  #column(name: string): ResultCell[] {
    const j = this.table.columns.indexOf(name);
    if (j < 0) {
      throw new RangeError(
        `no column "${name}" in the result (columns: ${
          this.table.columns.join(", ")
        })`,
      );
    }
    return this.table.data.map((row) => (row[j] ?? null) as ResultCell);
  }
}
