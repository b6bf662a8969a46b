/**
 * Benchmark of split table -> danfo DataFrame on a views-sized answer:
 * 100,000 rows x 40 columns (numbers, some strings, a few missing cells) as
 * a JSON body. Prints the median of several runs of:
 *
 * - (a) floor: `JSON.parse` of the body plus building the column arrays;
 * - (b) ours: `JSON.parse` plus {@linkcode toDataFrame};
 * - (c) naive: `JSON.parse`, rows as objects, `new DataFrame(rows)`;
 * - for reference, danfo's own constructor on the parsed row arrays.
 *
 * Run: `deno run -A --v8-flags=--expose-gc bench/frames_bench.ts [runs]`, or
 * `deno bench -A bench/frames_bench.ts` for Deno's own statistics of (a)-(c).
 * (the flag lets each timing start after a full garbage collection, so one
 * case does not pay for the garbage of the previous one; the cases also run
 * round-robin so that machine noise spreads evenly).
 *
 * @module
 */
import { splitToColumns, toDataFrame } from "../src/frames/mod.ts";

const ROWS = 100_000;
const COLS = 40;

function makeBody(): string {
  const columns = Array.from(
    { length: COLS },
    (_, j) => (j % 10 === 0 ? `label.${j}` : `contribution.f${j}`),
  );
  const data: unknown[][] = new Array(ROWS);
  for (let i = 0; i < ROWS; i++) {
    const row = new Array(COLS);
    for (let j = 0; j < COLS; j++) {
      if (j % 10 === 0) {
        row[j] = i % 97 === 0 ? null : `class_${(i * 7 + j) % 5}`;
      } else if (j % 10 === 1) row[j] = (i + j) % 11; // integer column
      else {row[j] = (i % 89 === 0 && j === 5)
          ? null
          : Math.sin(i * 0.37 + j) * 3;}
    }
    data[i] = row;
  }
  return JSON.stringify({
    columns,
    index: Array.from({ length: ROWS }, (_, i) => i),
    data,
  });
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

const gc = (globalThis as { gc?: () => void }).gc;

/** Runs every case once per round, round-robin, and returns each case's median. */
async function timeAll(
  runs: number,
  cases: Record<string, () => unknown>,
): Promise<Record<string, number>> {
  const times: Record<string, number[]> = {};
  for (const name in cases) times[name] = [];
  for (let r = 0; r < runs; r++) {
    for (const [name, fn] of Object.entries(cases)) {
      gc?.();
      const t0 = performance.now();
      await fn();
      times[name].push(performance.now() - t0);
    }
  }
  return Object.fromEntries(
    Object.entries(times).map(([name, xs]) => [name, median(xs)]),
  );
}

const runs = Number(Deno.args[0] ?? 5);
const body = makeBody();
const { DataFrame } = await import("danfojs-node"); // loaded once, outside the timings

const cases = {
  parse: () => JSON.parse(body),
  floor: () => {
    const table = JSON.parse(body) as { columns: string[]; data: unknown[][] };
    const n = table.data.length, m = table.columns.length;
    const columns: unknown[][] = new Array(m);
    for (let j = 0; j < m; j++) columns[j] = new Array(n);
    for (let i = 0; i < n; i++) {
      const row = table.data[i];
      for (let j = 0; j < m; j++) columns[j][i] = row[j];
    }
    return columns;
  },
  columns: () => splitToColumns(JSON.parse(body)),
  ours: () => toDataFrame(JSON.parse(body)),
  danfoRows: () => {
    const table = JSON.parse(body);
    return new DataFrame(table.data, {
      columns: table.columns,
      index: table.index,
    });
  },
  naive: () => {
    const table = JSON.parse(body) as { columns: string[]; data: unknown[][] };
    const rows = table.data.map((row) =>
      Object.fromEntries(table.columns.map((c, j) => [c, row[j]]))
    );
    return new DataFrame(rows);
  },
};

// Under `deno bench` (these calls do nothing under `deno run`).
const group = "split table 100k x 40 -> DataFrame";
Deno.bench("(a) floor: parse + column arrays", {
  group,
  baseline: true,
  n: 5,
  warmup: 1,
}, () => void cases.floor());
Deno.bench(
  "(b) ours: parse + toDataFrame",
  { group, n: 5, warmup: 1 },
  async () => void await cases.ours(),
);
Deno.bench("(c) naive: parse + new DataFrame(row objects)", {
  group,
  n: 3,
  warmup: 1,
}, () => void cases.naive());

if (import.meta.main) {
  console.log(
    `body: ${
      (body.length / 1e6).toFixed(1)
    } MB, ${ROWS} rows x ${COLS} columns, median of ${runs} runs`,
  );
  if (!gc) {
    console.log("(run with --v8-flags=--expose-gc for steadier figures)");
  }
  const t = await timeAll(runs, cases);
  const floor = t.floor;
  const line = (name: string, ms: number) =>
    console.log(
      `${name.padEnd(46)} ${ms.toFixed(0).padStart(6)} ms  ${
        (ms / floor).toFixed(2).padStart(6)
      }x floor`,
    );
  line("JSON.parse only", t.parse);
  line("(a) floor: parse + column arrays", floor);
  line("splitToColumns (parse + checked columns)", t.columns);
  line("(b) ours: parse + toDataFrame", t.ours);
  line("danfo new DataFrame(row arrays) (reference)", t.danfoRows);
  line("(c) naive: parse + new DataFrame(row objects)", t.naive);
}
