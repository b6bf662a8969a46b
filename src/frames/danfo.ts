/**
 * Split table -> danfo DataFrame. danfo (`danfojs-node`) takes about a second
 * to load, so it is imported lazily, the first time a DataFrame is asked for,
 * and never by code that only needs rows or columns.
 *
 * @module
 */
import type { DataFrame } from "danfojs-node";
import { JUPYTER_DISPLAY, renderAs } from "../display.ts";
import { FrameError } from "./errors.ts";
import { scanSplitTable } from "./scan.ts";
import type { SplitTable } from "./types.ts";

/** The danfo module, as `import("danfojs-node")` returns it. */
export type Danfo = typeof import("danfojs-node");

let loading: Promise<Danfo> | undefined;

/**
 * Loads danfo once and returns the module; later calls share the same load.
 * Throws a {@linkcode FrameError} that says how to install it when it is missing.
 *
 * @example
 * ```ts
 * import { loadDanfo } from "./danfo.ts";
 * const danfo = await loadDanfo();
 * if (typeof danfo.DataFrame !== "function") throw new Error("unexpected");
 * ```
 */
export function loadDanfo(): Promise<Danfo> {
  loading ??= import("danfojs-node").then(
    (
      module,
    ) => ((module as { default?: Danfo }).default?.DataFrame
      ? (module as { default: Danfo }).default
      : module),
    (cause) => {
      loading = undefined; // let a later call retry after the user installs it
      throw new FrameError(
        "could not load danfo (npm package danfojs-node@1.1.2), which DataFrames need; " +
          "add it to your imports (Deno) or install it (`npm install danfojs-node@1.1.2`), " +
          "or use splitToRows()/splitToColumns(), which need no extra package",
        { cause },
      );
    },
  );
  return loading;
}

/** Options of {@linkcode toDataFrame}. */
export interface ToDataFrameOptions {
  /**
   * `"keep"` (default) uses the table's index labels, which must be unique
   * (danfo requires it); `"reset"` numbers rows 0..n-1 instead.
   */
  index?: "keep" | "reset";
}

// deno-doc-ignore private-type-ref -- danfo's own DataFrame class (an optional peer dependency)
/**
 * Converts a split table to a danfo DataFrame with the same column order and
 * index. Numbers stay numbers (dtype `int32` or `float32`), booleans stay
 * booleans, anything else is a `string` column. Missing cells (`null`,
 * `undefined`, `NaN`, `""`) become `NaN`, danfo's missing marker, so
 * `df.isNa()`, `df.fillNa()` and `df.dropNa()` see them.
 *
 * @example
 * ```ts
 * import { toDataFrame } from "./danfo.ts";
 * const df = await toDataFrame({
 *   columns: ["prediction.churn", "probability.churn.Yes"],
 *   index: [10, 11],
 *   data: [["Yes", 0.8], ["No", null]],
 * });
 * if (df.shape.join() !== "2,2" || df.index.join() !== "10,11") throw new Error("shape");
 * if (df.dtypes.join() !== "string,float32") throw new Error("dtypes");
 * ```
 */
export async function toDataFrame(
  table: SplitTable,
  options: ToDataFrameOptions = {},
): Promise<DataFrame> {
  // Check and convert before loading danfo, so a bad table fails fast.
  const scanned = scanSplitTable(table, { missing: NaN, rows: true });
  const { names, columns, dtypes } = scanned;
  const rows = scanned.rows!;
  const index = options.index === "reset"
    ? Array.from(scanned.index, (_, i) => i)
    : scanned.index;
  if (options.index !== "reset") assertUniqueIndex(index);
  const { DataFrame } = await loadDanfo();
  if (rows.length === 0) {
    return displayFrame(new DataFrame([], { columns: names, dtypes }));
  }
  // danfo keeps rows and a transposed column copy. Built from row arrays with
  // explicit dtypes it skips inference, but it still transposes with
  // Array.push; we already hold the columns, so we build in low-memory mode
  // (no transpose) and then hand danfo our columns, which leaves the frame
  // exactly as the ordinary constructor would. Checked, with a fallback, in
  // case a danfo version lays out its internals differently.
  const df = new DataFrame(rows, {
    index,
    columns: names,
    dtypes,
    config: { lowMemoryMode: true },
  });
  const internals = df as unknown as {
    $dataIncolumnFormat?: unknown;
    $config?: {
      setIsLowMemoryMode?: (on: boolean) => void;
      isLowMemoryMode?: boolean;
    };
  };
  if (
    Array.isArray(internals.$dataIncolumnFormat) &&
    typeof internals.$config?.setIsLowMemoryMode === "function"
  ) {
    internals.$dataIncolumnFormat = columns;
    internals.$config.setIsLowMemoryMode(false);
    if (internals.$config.isLowMemoryMode === false) return displayFrame(df);
  }
  return displayFrame(new DataFrame(rows, { index, columns: names, dtypes }));
}

// danfo frames print as plain text in Deno's kernel; give the ones we make
// the SDK's HTML table (built only when Jupyter asks for it).
function displayFrame(df: DataFrame): DataFrame {
  Object.defineProperty(df, JUPYTER_DISPLAY, {
    value: () =>
      renderAs("table", {
        columns: df.columns,
        index: df.index as (number | string)[],
        data: df.values as unknown[][],
      }),
    enumerable: false,
    configurable: true,
  });
  return df;
}

function assertUniqueIndex(index: (number | string)[]): void {
  // The views endpoint numbers its rows 0..n-1: unique without a set of
  // n labels (a tenth of a 100,000-row conversion's own work).
  let i = 0;
  while (i < index.length && index[i] === i) i++;
  if (i === index.length) return;
  const seen = new Set<number | string>();
  for (let i = 0; i < index.length; i++) {
    const label = index[i];
    if (seen.has(label)) {
      throw new FrameError(
        `index label ${
          JSON.stringify(label)
        } appears more than once (row ${i}); danfo needs unique labels: ` +
          `pass { index: "reset" } to number the rows 0..n-1`,
      );
    }
    seen.add(label);
  }
}
