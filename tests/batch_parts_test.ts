/**
 * The parts of batch views on their own: the streaming CSV parser (records
 * split anywhere across pieces come out the same as from the whole text),
 * the wire schemas (defaults, refusals naming the field, the results rows
 * checked cell by cell) and the output layout.
 */
import { assertEquals, assertMatch, assertThrows } from "@std/assert";
import { CsvError, parseCsv } from "../src/csv.ts";
import { CsvRecordParser } from "../src/local/jobs/csv_stream.ts";
import { batchLayout } from "../src/local/jobs/batch.ts";
import {
  ViewsBatchConfigurationCreateSchema,
  ViewsBatchResultsSchema,
} from "../src/schemas/batch.ts";

function records(pieces: string[]): string[][] {
  const out: string[][] = [];
  const parser = new CsvRecordParser();
  for (const piece of pieces) parser.push(piece, (r) => out.push(r));
  parser.end((r) => out.push(r));
  return out;
}

Deno.test("csv stream: any split of the text gives the records parseCsv gives", () => {
  const text =
    '\uFEFFid,note,n\r\n1,"a, ""b""\nc",2\n\n2,,\r3,"x",4\n4,plain,5';
  const whole = parseCsv(text);
  const expected = [whole.header, ...whole.rows];
  assertEquals(records([text]), expected);
  for (let cut = 1; cut < text.length; cut++) {
    assertEquals(
      records([text.slice(0, cut), text.slice(cut)]),
      expected,
      `split at ${cut}`,
    );
  }
  assertEquals(records([...text]), expected, "one character a piece");
});

Deno.test("csv stream: a blank line in a one-column file is a row, and quoted lone CRs count as lines, as parseCsv reads them, at any split", () => {
  // Before, batch views skipped a one-column file's blank lines (ingestion
  // reads them as rows with an empty cell: rows_in differed) and counted
  // only LFs inside quotes (a lone-CR file's later rows were named by the
  // wrong line).
  const lined = (pieces: string[]) => {
    const out: [string[], number][] = [];
    const parser = new CsvRecordParser();
    for (const piece of pieces) parser.push(piece, (r, l) => out.push([r, l]));
    parser.end((r, l) => out.push([r, l]));
    return out;
  };
  const texts = [
    "\n\nx\n1\n\n2\n\n",
    'x\r1\r""\r\r2',
    'a,b\n""\n\n1,2\n',
    'id,note\r1,"one\rtwo\r\nthree\n"\r2,"a""\r"\r3,x\r',
    'id,note\n1,"\r\r"\n2,x\n',
  ];
  for (const text of texts) {
    const whole = parseCsv(text);
    const expected = [
      [whole.header, 1],
      ...whole.rows.map((r, i) => [r, whole.lines[i]]),
    ];
    // The header's line: after the blank lines before it.
    if (text.startsWith("\n\n")) expected[0][1] = 3;
    for (let cut = 0; cut < text.length; cut++) {
      assertEquals(
        lined([text.slice(0, cut), text.slice(cut)]),
        expected,
        `${JSON.stringify(text)} split at ${cut}`,
      );
    }
    assertEquals(lined([...text]), expected, "one character a piece");
  }
});

Deno.test("csv stream: bad quoting is a CsvError naming the line", () => {
  const stray = assertThrows(() => records(['a,b\n1,x"y\n']), CsvError);
  assertMatch(stray.message, /line 2: a quote inside an unquoted field/);
  const after = assertThrows(() => records(['a\n"x"y\n']), CsvError);
  assertMatch(after.message, /line 2: text after a closing quote/);
  const open = assertThrows(() => records(['a\n"never closed\n']), CsvError);
  assertMatch(open.message, /line 2: a quoted field is never closed/);
});

Deno.test("batch schemas: defaults, refusals naming the field, result cells", () => {
  assertEquals(ViewsBatchConfigurationCreateSchema.parse({ name: "n" }), {
    name: "n",
    view_types: ["RESULTS"],
    output_format: "CSV",
    keep_columns: [],
    on_error: "FAIL",
    error_column: "error",
  });
  const twice = ViewsBatchConfigurationCreateSchema.safeParse({
    name: "n",
    keep_columns: ["id", "id"],
  });
  assertEquals(twice.error?.issues[0].path, ["keep_columns", 1]);
  const format = ViewsBatchConfigurationCreateSchema.safeParse({
    name: "n",
    output_format: "PARQUET",
  });
  assertEquals(format.error?.issues[0].path, ["output_format"]);

  const page = (data: unknown) => ({
    columns: ["a", "b"],
    index: [0],
    data,
    pagination: {
      total_items: 1,
      items_per_page: 10,
      current_page: 1,
      total_pages: 1,
    },
  });
  assertEquals(
    ViewsBatchResultsSchema.parse(page([["x", 1.5], [null, 2]])).data,
    [["x", 1.5], [null, 2]],
  );
  const cell = ViewsBatchResultsSchema.safeParse(page([["x", 1], [null, {}]]));
  assertEquals(cell.error?.issues[0].path, ["data", 1, 1]);
  const row = ViewsBatchResultsSchema.safeParse(page(["x"]));
  assertEquals(row.error?.issues[0].path, ["data", 0]);
});

Deno.test("batch layout: kept columns first, the error column last, clashes named", () => {
  const views = [
    "prediction.y",
    "probability.y.a",
    "probability.y.b",
    "bias",
    "contribution.x",
  ];
  const shape = {
    viewType: "RESULTS",
    keep: ["id", "region"],
    onError: "NULL_PREDICTION",
    errorColumn: "why",
  };
  const layout = batchLayout({ task: "classification" }, views, shape);
  if (typeof layout === "string") throw new Error(layout);
  assertEquals(layout.columns, ["id", "region", ...views, "why"]);
  assertEquals(layout.kinds, [
    "string",
    "string",
    "string",
    "number",
    "number",
    "number",
    "number",
    "string",
  ]);
  const predictions = batchLayout({ task: "regression" }, views, {
    ...shape,
    viewType: "PREDICTIONS",
    onError: "FAIL",
  });
  if (typeof predictions === "string") throw new Error(predictions);
  assertEquals(predictions.columns, [
    "id",
    "region",
    "prediction.y",
    "probability.y.a",
    "probability.y.b",
  ]);
  assertEquals(
    predictions.kinds[2],
    "number",
    "a regression predicts a number",
  );
  assertMatch(
    String(batchLayout({}, views, { ...shape, errorColumn: "id" })),
    /two columns named "id"/,
  );
});

Deno.test("batch work: two threads write exactly what one thread writes, and name the first bad row", async () => {
  const { encodeDataset } = await import("../src/local/model/encoding.ts");
  const { train } = await import("../src/local/model/ebm.ts");
  const { tempName } = await import("../src/local/jobs/batch.ts");
  const { runBatchWork } = await import("./_helpers/batch.ts");
  const { ScoringWorker } = await import("../src/local/jobs/batch_worker.ts");
  // Counts the second threads started (the parallel runs must start one).
  const start = ScoringWorker.start;
  let started = 0;
  ScoringWorker.start = (init) => (started++, start.call(ScoringWorker, init));
  const x = Array.from({ length: 200 }, (_, i) => i % 100);
  const c = x.map((v) => ["a", "b", "c"][v % 3]);
  const model = train(
    encodeDataset({ x, c, y: x.map((v) => (v < 50 ? "lo" : "hi")) }, [
      {
        name: "x",
        data_type: { data_type: "NUMBER" },
        designation: "FEATURE",
        semantic_type: "CONTINUOUS",
      },
      {
        name: "c",
        data_type: { data_type: "STRING" },
        designation: "FEATURE",
        semantic_type: "CATEGORICAL",
      },
      {
        name: "y",
        data_type: { data_type: "STRING" },
        designation: "TARGET",
        semantic_type: "CATEGORICAL",
      },
    ]),
    { max_rounds: 10 },
  );
  const dir = await Deno.makeTempDir();
  const lines = Array.from(
    { length: 5500 },
    (_, i) => `r${i},${(i * 7) % 100},${["a", "b", "c"][i % 3]}`,
  );
  const bad = [...lines];
  bad[500] = "r500,oops,a"; // chunk 0: the Worker's
  bad[1500] = "r1500,nope,b"; // chunk 1: this thread's
  await Deno.writeTextFile(`${dir}/in.csv`, ["id,x,c", ...bad].join("\n"));
  const run = async (
    parallel: boolean,
    onError: string,
    format: string,
    name: string,
  ) => {
    const { job, outcome } = await runBatchWork(`${dir}/in.csv`, {
      model: () => model,
      shape: { viewType: "RESULTS", keep: ["id"], onError, errorColumn: "e" },
      format,
      outputFile: `${dir}/${name}`,
      tempFile: tempName(`${dir}/${name}`, "vb"),
      parallel,
    });
    const rows = outcome?.rowsOut ?? -1;
    const errors = outcome?.rowsWithErrors ?? -1;
    const text = await Deno.readTextFile(`${dir}/${name}`).catch(() => null);
    return { job, text, rows, errors };
  };
  for (const format of ["CSV", "JSON_LINES"]) {
    const one = await run(false, "NULL_PREDICTION", format, "one.out");
    const two = await run(true, "NULL_PREDICTION", format, "two.out");
    assertEquals(two.job.status, "COMPLETED", String(two.job.message));
    assertEquals([two.rows, two.errors], [5500, 2]);
    assertEquals([one.rows, one.errors], [5500, 2]);
    assertEquals(two.text, one.text, `${format}: the same bytes`);
  }
  assertEquals(started, 2, "one second thread per parallel run");
  ScoringWorker.start = start;
  const failed = await run(true, "FAIL", "CSV", "failed.out");
  assertEquals(failed.job.status, "FAILED");
  assertMatch(String(failed.job.message), /^Row 501 \(line 502\) of in.csv/);
  assertEquals(failed.text, null);
  const left = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
  assertEquals(left, ["in.csv", "one.out", "two.out"]);
  await Deno.remove(dir, { recursive: true });
});
