import {
  assert,
  assertEquals,
  assertInstanceOf,
  assertStringIncludes,
  assertThrows,
} from "@std/assert";
import {
  FrameError,
  isMissing,
  type SplitTable,
  splitToColumns,
  splitToRows,
  toDataFrame,
  toViewsQuery,
} from "../src/frames/mod.ts";

// A views-shaped answer: prediction, probabilities, bias, contributions; odd index labels and missing cells.
const views: SplitTable = {
  columns: [
    "prediction.churn",
    "probability.churn.No",
    "probability.churn.Yes",
    "bias",
    "contribution.tenure",
  ],
  index: [42, 7, "x"],
  data: [
    ["Yes", 0.25, 0.75, -1.5, 2.598],
    ["No", 0.9, 0.1, -1.5, null],
    ["", NaN, 0.5, -1.5, 1],
  ],
};

Deno.test("splitToColumns keeps column order and turns every missing form into null", () => {
  const columns = splitToColumns(views);
  assertEquals(Object.keys(columns), views.columns);
  assertEquals(columns["prediction.churn"], ["Yes", "No", null]);
  assertEquals(columns["probability.churn.No"], [0.25, 0.9, null]);
  assertEquals(columns["contribution.tenure"], [2.598, null, 1]);
  assertEquals(typeof columns.bias[0], "number");
});

Deno.test("splitToRows keeps row order, index labels and numbers", () => {
  const rows = splitToRows(views, { indexKey: "row" });
  assertEquals(rows.map((r) => r.row), [42, 7, "x"]);
  assertEquals(rows[0], {
    row: 42,
    "prediction.churn": "Yes",
    "probability.churn.No": 0.25,
    "probability.churn.Yes": 0.75,
    bias: -1.5,
    "contribution.tenure": 2.598,
  });
  assertEquals(rows[2]["prediction.churn"], null);
  assertThrows(
    () => splitToRows(views, { indexKey: "bias" }),
    FrameError,
    "also a column name",
  );
});

Deno.test("a column named __proto__ stays data, not a prototype", () => {
  const table = {
    columns: ["__proto__"],
    index: [0],
    data: [[{ polluted: true } as unknown]],
  };
  const rows = splitToRows(table);
  assertEquals(Object.keys(rows[0]), ["__proto__"]);
  assertEquals(Object.getPrototypeOf(rows[0]), Object.prototype);
});

Deno.test("split tables with a wrong shape fail with a message naming the fault", () => {
  const ragged = { columns: ["a", "b"], index: [0, 1], data: [[1, 2], [3]] };
  const error = assertThrows(() => splitToColumns(ragged), FrameError);
  assertStringIncludes(error.message, "row 1");
  assertStringIncludes(error.message, "1 cells but the table has 2 columns");
  assertThrows(
    () => splitToColumns({ columns: ["a", "a"], index: [0], data: [[1, 2]] }),
    FrameError,
    "twice",
  );
  assertThrows(
    () => splitToColumns({ columns: ["a"], index: [0, 1], data: [[1]] }),
    FrameError,
    "1 rows",
  );
  assertThrows(
    () => splitToColumns({ columns: ["a"] } as unknown as SplitTable),
    FrameError,
    "no `data`",
  );
  // A missing index is tolerated and numbered.
  assertEquals(
    splitToRows({ columns: ["a"], data: [[1], [2]] } as unknown as SplitTable, {
      indexKey: "i",
    }),
    [
      { i: 0, a: 1 },
      { i: 1, a: 2 },
    ],
  );
});

Deno.test("isMissing follows the documented rule", () => {
  assertEquals(
    [null, undefined, NaN, "", 0, " ", false, "NaN"].map(isMissing),
    [
      true,
      true,
      true,
      true,
      false,
      false,
      false,
      false,
    ],
  );
});

Deno.test("toDataFrame keeps index, column order, numbers and marks missing as NaN", async () => {
  const df = await toDataFrame(views);
  assertEquals(df.columns, views.columns);
  assertEquals(df.index, [42, 7, "x"]);
  assertEquals(df.dtypes, [
    "string",
    "float32",
    "float32",
    "float32",
    "float32",
  ]);
  assertEquals(df.shape, [3, 5]);
  const probs = df["probability.churn.No"].values as number[];
  assertEquals(probs[0], 0.25);
  assert(Number.isNaN(probs[2]));
  assertEquals(df.isNa().values, [
    [false, false, false, false, false],
    [false, false, false, false, true],
    [true, true, false, false, false],
  ]);
  // Column data and row data agree, and danfo computes on them.
  assertEquals(df["bias"].values, [-1.5, -1.5, -1.5]);
  assertEquals(df["contribution.tenure"].sum(), 3.598);
  assertEquals((df.loc({ rows: [7] }).values as unknown[][])[0][0], "No");
  // The input table is not modified.
  assertEquals(views.data[2][0], "");
});

Deno.test("toDataFrame matches danfo's own constructor cell for cell", async () => {
  const { DataFrame } = await import("danfojs-node");
  const table = {
    columns: ["i", "f", "s", "b"],
    index: [3, 1, 2],
    data: [[1, 1.5, "a", true], [2, 2, "b", false], [3, -0.5, "c", true]],
  };
  const ours = await toDataFrame(table);
  const theirs = new DataFrame(table.data, {
    columns: table.columns,
    index: table.index,
  });
  assertEquals(ours.values, theirs.values);
  assertEquals(ours.getColumnData, theirs.getColumnData);
  assertEquals(ours.dtypes, theirs.dtypes);
  assertEquals(ours.config.isLowMemoryMode, false);
  // Writing a column updates both of danfo's copies, as with a normal frame.
  ours.addColumn("i", [9, 9, 9], { inplace: true });
  assertEquals((ours.values as unknown[][]).map((r) => r[0]), [9, 9, 9]);
});

Deno.test("toDataFrame refuses duplicate index labels unless asked to reset", async () => {
  const table = { columns: ["a"], index: [0, 1, 0], data: [[1], [2], [3]] };
  const error = await toDataFrame(table).then(() => undefined, (e) => e);
  assertInstanceOf(error, FrameError);
  assertStringIncludes(error.message, 'index: "reset"');
  const df = await toDataFrame(table, { index: "reset" });
  assertEquals(df.index, [0, 1, 2]);
});

Deno.test("toDataFrame of an empty table keeps its columns", async () => {
  const df = await toDataFrame({ columns: ["a", "b"], index: [], data: [] });
  assertEquals(df.columns, ["a", "b"]);
  assertEquals(df.shape[0], 0);
});

Deno.test("round trip: split table -> DataFrame -> query -> same columns", async () => {
  const df = await toDataFrame(views);
  const query = toViewsQuery(df);
  assertEquals(query, splitToColumns(views));
  assertEquals(toViewsQuery(splitToRows(views)), splitToColumns(views));
  assertEquals(toViewsQuery(views), splitToColumns(views));
  assertEquals(toViewsQuery(splitToColumns(views)), splitToColumns(views));
});

Deno.test("toViewsQuery from rows: order of keys, missing values, dates, drop", () => {
  const query = toViewsQuery([
    {
      tenure: 1,
      contract: "One year",
      start: new Date(Date.UTC(2020, 0, 2)),
      churn: "No",
    },
    { tenure: undefined, contract: "", start: null, churn: "Yes" },
  ], { drop: ["churn"] });
  assertEquals(Object.keys(query), ["tenure", "contract", "start"]);
  assertEquals(query, {
    tenure: [1, null],
    contract: ["One year", null],
    start: ["2020-01-02T00:00:00.000Z", null],
  });
  assertThrows(
    () => toViewsQuery([{ a: 1 }], { drop: ["b"] }),
    FrameError,
    'cannot drop column "b"',
  );
  assertThrows(
    () => toViewsQuery([{ a: 1 }], { drop: ["a"] }),
    FrameError,
    "no columns left",
  );
});

Deno.test("toViewsQuery rejects ragged rows, uneven columns and unsendable values", () => {
  assertThrows(
    () => toViewsQuery([{ a: 1, b: 2 }, { a: 1 }]),
    FrameError,
    'row 1 has no "b"',
  );
  assertThrows(
    () => toViewsQuery([{ a: 1 }, { a: 1, c: 3 }]),
    FrameError,
    'row 1 has key "c"',
  );
  assertThrows(
    () => toViewsQuery([{ a: 1 }, [1]] as never),
    FrameError,
    "row 1 is an array",
  );
  assertThrows(() => toViewsQuery([]), FrameError, "0 rows");
  assertThrows(
    () => toViewsQuery({ a: [1, 2], b: [1] }),
    FrameError,
    'column "b" has 1 values',
  );
  assertThrows(() => toViewsQuery({}), FrameError, "empty");
  assertThrows(
    () => toViewsQuery({ a: 5 } as never),
    FrameError,
    "not an array",
  );
  const inf = assertThrows(
    () => toViewsQuery({ a: [1, Infinity] }),
    FrameError,
  );
  assertStringIncludes(inf.message, 'column "a", row 1');
  assertThrows(
    () => toViewsQuery({ a: [-Infinity] }),
    FrameError,
    "JSON has no infinities",
  );
  assertThrows(
    () => toViewsQuery({ a: [{ nested: 1 }] } as never),
    FrameError,
    "an Object is not a query value",
  );
  assertThrows(
    () => toViewsQuery({ a: [[1]] } as never),
    FrameError,
    'column "a", row 0: an array is not a query value',
  );
  assertThrows(
    () => toViewsQuery({ a: [new Map()] } as never),
    FrameError,
    "a Map is not a query value",
  );
  // The views endpoint refuses booleans: say so here, naming the cell.
  assertThrows(
    () => toViewsQuery([{ a: 1 }, { a: true }]),
    FrameError,
    'column "a", row 1: the views endpoint takes no booleans',
  );
  assertThrows(
    () => toViewsQuery({ a: [new Date(NaN)] } as never),
    FrameError,
    "invalid Date",
  );
  assertThrows(
    () => toViewsQuery(null as never),
    FrameError,
    "cannot build a views query from null",
  );
  assertEquals(toViewsQuery({ a: [10n] } as never), { a: [10] });
});

Deno.test("toViewsQuery reads a DataFrame built by danfo itself", async () => {
  const { DataFrame } = await import("danfojs-node");
  const df = new DataFrame({
    tenure: [1, 34, NaN],
    contract: ["Month-to-month", "One year", "Two year"],
  });
  assertEquals(toViewsQuery(df), {
    tenure: [1, 34, null],
    contract: ["Month-to-month", "One year", "Two year"],
  });
});

Deno.test("row objects: index key first, columns in order, missing cells null, each row its own object", () => {
  const rows = splitToRows({
    columns: ["a", "__proto__", "b"],
    index: [5, 6],
    data: [[1, { x: 1 } as unknown, ""], [NaN, null, "z"]],
  }, { indexKey: "id" });
  assertEquals(rows.map((r) => Object.keys(r)), [
    ["id", "a", "__proto__", "b"],
    ["id", "a", "__proto__", "b"],
  ]);
  assertEquals(rows.map((r) => [r.id, r.a, r["__proto__"] as unknown, r.b]), [
    [5, 1, { x: 1 }, null],
    [6, null, null, "z"],
  ]);
  assertEquals(Object.getPrototypeOf(rows[1]), Object.prototype);
  rows[0].a = 2;
  assertEquals(rows[1].a, null);
});
