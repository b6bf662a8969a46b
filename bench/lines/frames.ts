/**
 * Line 2, conversions: a views answer (split table, 40 columns: numbers,
 * integers, strings, a few missing cells) as a JSON body of 10,000 and
 * 100,000 rows, converted to a danfo DataFrame and to row objects.
 *
 * - DataFrame: `JSON.parse` + `toDataFrame` against the floor `JSON.parse`
 *   + column arrays (what any conversion must at least do), and against
 *   danfo's own constructors on the parsed table (row arrays with columns and
 *   index; an object of column arrays).
 * - Rows: `JSON.parse` + `splitToRows` against `JSON.parse` + one plain
 *   object per row built by a bare loop (no checks).
 *
 * Every case runs once per round (rotating order), after a full garbage
 * collection when the process runs with `--v8-flags=--expose-gc` (as
 * `deno task bench` does), so no case pays for another's garbage. A sample
 * is the process's CPU time (user + system, garbage collector threads
 * included) over the case: the machine is shared, and wall time also counts
 * the moments another process held the core (wall times are kept in the
 * results file).
 *
 * @module
 */
import { splitToRows, toDataFrame } from "../../src/frames/mod.ts";
import { loadDanfo } from "../../src/frames/danfo.ts";
import { type Figure, type LineResult, ratioFigure } from "../lib/figures.ts";
import { median } from "../lib/stats.ts";
import process from "node:process";

const COLS = 40;

/**
 * A split table body of `rows` x 40 columns, as the views endpoint answers.
 *
 * @example
 * ```ts
 * import { splitBody } from "./frames.ts";
 * const t = JSON.parse(splitBody(3));
 * if (t.columns.length !== 40 || t.data.length !== 3) throw new Error();
 * ```
 */
export function splitBody(rows: number): string {
  const columns = Array.from(
    { length: COLS },
    (_, j) => (j % 10 === 0 ? `label.${j}` : `contribution.f${j}`),
  );
  const data: unknown[][] = new Array(rows);
  for (let i = 0; i < rows; i++) {
    const row = new Array(COLS);
    for (let j = 0; j < COLS; j++) {
      if (j % 10 === 0) {
        row[j] = i % 97 === 0 ? null : `class_${(i * 7 + j) % 5}`;
      } else if (j % 10 === 1) row[j] = (i + j) % 11; // integer column
      else {
        row[j] = i % 89 === 0 && j === 5 ? null : Math.sin(i * 0.37 + j) * 3;
      }
    }
    data[i] = row;
  }
  return JSON.stringify({
    columns,
    index: Array.from({ length: rows }, (_, i) => i),
    data,
  });
}

interface Table {
  columns: string[];
  index: number[];
  data: unknown[][];
}

const gc = (globalThis as { gc?: () => void }).gc;

/** Options of {@linkcode framesLine}. */
export interface FramesOptions {
  /** Sizes in rows (default 10,000 and 100,000). */
  sizes?: number[];
  /** Rounds for 10,000 rows; fewer for larger tables (default 15). */
  rounds?: number;
}

/**
 * Measures line 2.
 */
export async function framesLine(
  options: FramesOptions = {},
): Promise<LineResult> {
  const { DataFrame } = await loadDanfo(); // loaded outside the timings
  const figures: Figure[] = [];
  for (const rows of options.sizes ?? [10_000, 100_000]) {
    const body = splitBody(rows);
    const cases: Record<string, () => unknown> = {
      parse: () => JSON.parse(body),
      columnsFloor: () => {
        const table = JSON.parse(body) as Table;
        const n = table.data.length, m = table.columns.length;
        const columns: unknown[][] = new Array(m);
        for (let j = 0; j < m; j++) columns[j] = new Array(n);
        for (let i = 0; i < n; i++) {
          const row = table.data[i];
          for (let j = 0; j < m; j++) columns[j][i] = row[j];
        }
        return columns;
      },
      rowsFloor: () => {
        const table = JSON.parse(body) as Table;
        const names = table.columns;
        return table.data.map((row) => {
          const o: Record<string, unknown> = {};
          for (let j = 0; j < names.length; j++) o[names[j]] = row[j];
          return o;
        });
      },
      dataFrame: () => toDataFrame(JSON.parse(body)),
      rows: () => splitToRows(JSON.parse(body)),
      layoutFloor: () => {
        // What danfo's layout needs at least: the columns and a copy of
        // every row (danfo keeps both; copies, since missing cells become
        // NaN and the caller's table must not change).
        const table = JSON.parse(body) as Table;
        const n = table.data.length, m = table.columns.length;
        const columns: unknown[][] = new Array(m);
        for (let j = 0; j < m; j++) columns[j] = new Array(n);
        const rows: unknown[][] = new Array(n);
        for (let i = 0; i < n; i++) {
          const row = table.data[i];
          for (let j = 0; j < m; j++) columns[j][i] = row[j];
          rows[i] = row.slice();
        }
        return [columns, rows];
      },
      danfoRowArrays: () => {
        const table = JSON.parse(body) as Table;
        return new DataFrame(table.data, {
          columns: table.columns,
          index: table.index,
        });
      },
      danfoColumns: () => {
        const table = JSON.parse(body) as Table;
        const dict: Record<string, unknown[]> = {};
        table.columns.forEach((c, j) => dict[c] = table.data.map((r) => r[j]));
        return new DataFrame(dict, { index: table.index });
      },
    };
    const names = Object.keys(cases);
    const samples: Record<string, number[]> = Object.fromEntries(
      names.map((n) => [n, []]),
    );
    const wall: Record<string, number[]> = Object.fromEntries(
      names.map((n) => [n, []]),
    );
    const rounds = Math.max(
      7,
      Math.round((options.rounds ?? 15) * Math.min(1, 10_000 / rows)),
    );
    for (let r = -1; r < rounds; r++) {
      for (let k = 0; k < names.length; k++) {
        const name = names[(k + Math.max(r, 0)) % names.length];
        gc?.();
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        await cases[name]();
        const ms = performance.now() - t0;
        const cpu = process.cpuUsage(c0);
        if (r >= 0) {
          samples[name].push((cpu.user + cpu.system) / 1000);
          wall[name].push(ms);
        }
      }
    }
    const size = rows.toLocaleString("en-US");
    const ms = (name: string) => `${median(samples[name]).toFixed(0)} ms`;
    // The same ratio in wall time, for the detail column.
    const wallRatio = (a: string, b: string) =>
      `wall ${median(wall[a].map((x, i) => x / wall[b][i])).toFixed(2)}x`;
    const raw = {
      rows,
      columns: COLS,
      bodyBytes: body.length,
      cpuMs: samples,
      wallMs: wall,
    };
    figures.push(
      ratioFigure(
        {
          id: `frames.${rows}.dataframe`,
          line: 2,
          label: `split table -> DataFrame, ${size} x 40`,
          against: "JSON.parse + column arrays",
          goal: { max: 1.10 },
          detail: `${ms("dataFrame")} vs ${
            ms("columnsFloor")
          } CPU (parse alone ${ms("parse")}; ${
            wallRatio("dataFrame", "columnsFloor")
          })`,
          raw,
        },
        samples.dataFrame,
        samples.columnsFloor,
      ),
      ratioFigure(
        {
          id: `frames.${rows}.dataframe_layout`,
          line: 2,
          label: `split table -> DataFrame vs danfo's layout, ${size} x 40`,
          against: "JSON.parse + column arrays + row copies",
          detail: `${ms("dataFrame")} vs ${ms("layoutFloor")} CPU`,
        },
        samples.dataFrame,
        samples.layoutFloor,
      ),
      ratioFigure(
        {
          id: `frames.${rows}.rows`,
          line: 2,
          label: `split table -> row objects, ${size} x 40`,
          against: "JSON.parse + plain row objects",
          goal: { max: 1.10 },
          detail: `${ms("rows")} vs ${ms("rowsFloor")} CPU (${
            wallRatio("rows", "rowsFloor")
          })`,
        },
        samples.rows,
        samples.rowsFloor,
      ),
      ratioFigure(
        {
          id: `frames.${rows}.danfo_rows`,
          line: 2,
          label:
            `toDataFrame vs danfo's constructor (row arrays), ${size} x 40`,
          against: "JSON.parse + new DataFrame(data, {columns, index})",
          detail: `${ms("dataFrame")} vs ${ms("danfoRowArrays")}`,
        },
        samples.dataFrame,
        samples.danfoRowArrays,
      ),
      ratioFigure(
        {
          id: `frames.${rows}.danfo_columns`,
          line: 2,
          label:
            `toDataFrame vs danfo's constructor (column object), ${size} x 40`,
          against: "JSON.parse + new DataFrame({name: column})",
          detail: `${ms("dataFrame")} vs ${ms("danfoColumns")}`,
        },
        samples.dataFrame,
        samples.danfoColumns,
      ),
    );
  }
  const notes = gc ? [] : [
    "Line 2 ran without --v8-flags=--expose-gc: cases may pay for each other's garbage.",
  ];
  return { figures, notes };
}
