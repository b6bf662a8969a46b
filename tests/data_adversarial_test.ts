/**
 * An outside tester's hostile suite against the data-input surfaces: CSV
 * cells and headers read by ingestion, schema inference and batch views
 * (docs/contract.md "Buckets (local platform)" and "Batch views"). Bad input
 * must be a clear typed error naming the column, before anything is stored.
 * What tests/local_adversarial_test.ts (the HTTP API) and
 * tests/sdk_adversarial_test.ts (the client) hold is not repeated here.
 */
import { assert, assertEquals, assertMatch, assertThrows } from "@std/assert";
import { CsvError, parseCsv } from "../src/csv.ts";
import { parseCsvColumns } from "../src/csv_columns.ts";
import { datasourceFromCsv } from "../src/local/model/datasource.ts";
import { ModelDataError } from "../src/local/model/errors.ts";
import { inferSchema } from "../src/infer/infer.ts";
import { ValidationError } from "../src/http/errors.ts";
import type { ViewsBatchJob } from "../src/schemas/batch.ts";
import { type BatchFixture, batchFixture } from "./_helpers/batch.ts";
import { startLocalServer } from "../src/local/http/cli_args.ts";
import { toViewsQuery } from "../src/frames/query.ts";
import { FrameError } from "../src/frames/errors.ts";
import { explanationChart, viewsTable } from "../notebook.ts";
import { serveNode } from "../src/local/http/node_serve.ts";

const NUMBER_FIELD = {
  name: "a",
  data_type: { data_type: "NUMBER", format: "INT64" },
  designation: "FEATURE",
  semantic_type: "CONTINUOUS",
} as const;

// Cells JavaScript's Number() reads as numbers but no CSV writer means as
// one: hexadecimal, binary and octal literals. Schema inference already
// calls such a column text (it reads decimal numbers only), so ingestion of a
// column declared NUMBER, and batch views, must refuse them too rather than
// store 16 for "0x10".
const NOT_DECIMAL = ["0x10", "0X1f", "0b11", "0B1", "0o7", "0O17"];

Deno.test("data adversarial: ingestion refuses hex, binary and octal cells in a NUMBER column, naming the column and line", () => {
  for (const cell of NOT_DECIMAL) {
    const e = assertThrows(
      () => datasourceFromCsv(`a\n1\n${cell}\n`, [NUMBER_FIELD as never]),
      ModelDataError,
    );
    assertMatch(e.message, new RegExp(`column 'a' line 3: '${cell}'`));
    const c = assertThrows(
      () => parseCsvColumns(`a\n${cell}\n`, new Map([["a", "number"]])),
      CsvError,
    );
    assertMatch(c.message, /'a'/);
  }
  // Decimal forms still read, as before.
  const ok = parseCsvColumns(
    "a\n1e3\n.5\n-0\n+5\n 12 \n0\n010\n",
    new Map([["a", "number"]]),
  ).columns.get("a");
  assert(ok?.kind === "number");
  assertEquals(Array.from(ok.values), [1000, 0.5, -0, 5, 12, 0, 10]);
});

Deno.test("data adversarial: schema inference calls hex cells text, as ingestion reads them", async () => {
  const csv = "h,y\n" +
    Array.from({ length: 30 }, (_, i) => `0x${i.toString(16)},${i % 2}`)
      .join("\n");
  const schema = await inferSchema({ csv }, { target: "y" });
  const h = schema.fields.find((f) => f.name === "h");
  assertEquals(h?.data_type.data_type, "STRING");
});

// docs/contract.md "Buckets (local platform)": a CSV file has a header row
// naming its columns. A name twice leaves it unsaid which column is meant:
// ingestion took the first, the columnar reader the last, inference made two
// fields of one name. It is a CsvError naming the column (from inference,
// the SDK's ValidationError, the CsvError its cause).
Deno.test("data adversarial: a column named twice in a CSV header is a CsvError naming it, in every reader", async () => {
  const text = "a,b,a\n1,x,2\n";
  for (
    const read of [
      () => parseCsv(text),
      () => parseCsvColumns(text, new Map([["a", "number"]])),
      () => datasourceFromCsv(text, [NUMBER_FIELD as never]),
    ]
  ) {
    const e = assertThrows(read, CsvError);
    assertMatch(e.message, /column 'a' appears twice in the header/);
    assertEquals(e.line, 1);
  }
  let thrown: unknown;
  try {
    await inferSchema({ csv: text }, { target: "b" });
  } catch (e) {
    thrown = e;
  }
  assert(thrown instanceof ValidationError, String(thrown));
  assert(thrown.cause instanceof CsvError);
  assertMatch(thrown.message, /column 'a' appears twice/);
});

Deno.test("data adversarial: schema inference on odd but valid CSVs (BOM, CRLF, quoted newlines) reads the right columns", async () => {
  const rows = Array.from(
    { length: 30 },
    (_, i) => `${i},"x\r\n${i % 3}",${i % 2}`,
  );
  const csv = '\uFEFFn,"no\r\nte",y\r\n' + rows.join("\r\n") + "\r\n";
  const fields = (await inferSchema({ csv }, { target: "y" })).fields;
  assertEquals(fields.map((f) => f.name), ["n", "no\r\nte", "y"]);
  assertEquals(fields[0].data_type.data_type, "NUMBER");
  // A lone quote is a ValidationError naming the line (the CsvError its
  // cause), not a hang or a crash.
  for (const bad of ['"', 'a,b\n"\n', 'a,b\n1,x"y\n']) {
    let thrown: unknown;
    try {
      await inferSchema({ csv: bad }, { target: "b" });
    } catch (e) {
      thrown = e;
    }
    assert(
      thrown instanceof ValidationError && thrown.cause instanceof CsvError,
      `${JSON.stringify(bad)}: ${thrown}`,
    );
    assertMatch(thrown.message, /CSV line \d/);
  }
});

let fixture: BatchFixture | undefined;
let refs: { storage: string; cpu: string } | undefined;
let n = 0;
async function runBatch(input: string, text: string): Promise<ViewsBatchJob> {
  fixture ??= await batchFixture();
  const { ml, deployment, dir } = fixture;
  refs ??= {
    storage: (await ml.storageConnectors.create({
      name: "data-b",
      bucket_name: "b",
    })).id,
    cpu: (await ml.computeConfigurations.create({
      name: "data-cpu",
      machine_type: "m5",
      compute_type: "PROCESSING",
    })).id,
  };
  await Deno.writeTextFile(`${dir}/${input}`, text);
  const k = ++n;
  const c = await ml.viewsBatchConfigurations.create({ name: `data-${k}` });
  let job = await ml.viewsBatchJobs.create({
    name: `data-batch-${k}`,
    deployed_model_id: deployment.id,
    views_batch_configuration_id: c.id,
    storage_connector_id: refs.storage,
    compute_configuration_id: refs.cpu,
    data_path: input,
    output_path: `out-${k}.csv`,
    views_batch_name: `data-scored-${k}`,
  });
  while (["STARTING", "RUNNING"].includes(job.status)) {
    await new Promise((r) => setTimeout(r, 10));
    job = await ml.viewsBatchJobs.get(job.id);
  }
  return job;
}

// docs/contract.md "Batch views": a row the model cannot score (a number
// column holding text ...) fails the job naming the column; a batch row's
// views equal views() on the same values.
Deno.test("data adversarial: batch views refuse a hex number cell and a header naming a column twice, and write no output", async () => {
  try {
    const hex = await runBatch(
      "hex.csv",
      "id,tenure,charges,contract\na,0x10,50,month\n",
    );
    assertEquals(hex.status, "FAILED");
    assertMatch(String(hex.message), /column 'tenure'.*"0x10" is not a number/);
    const dup = await runBatch(
      "dup.csv",
      "id,tenure,charges,contract,tenure\na,1,50,month,70\n",
    );
    assertEquals(dup.status, "FAILED");
    assertMatch(String(dup.message), /column 'tenure' appears twice/);
    // docs/contract.md "Buckets (local platform)": a BOM, CRLF or lone CR
    // line ends and a quoted line break in a kept cell are still CSV.
    for (
      const [name, text] of [
        ["bom.csv", "\uFEFFid,tenure,charges,contract\r\na,1,50,month\r\n"],
        ["cr.csv", "id,tenure,charges,contract\ra,1,50,month\rb,2,60,year\r"],
        ["nl.csv", 'id,tenure,charges,contract\n"x\ny",1,50,month\n'],
      ]
    ) {
      const ok = await runBatch(name, text);
      assertEquals(ok.status, "COMPLETED", `${name}: ${ok.message}`);
      assertEquals(
        (await fixture!.ml.viewsBatches.get(ok.views_batch.id)).rows_in,
        text.startsWith("id,tenure,charges,contract\r") ? 2 : 1,
        name,
      );
      await Deno.remove(`${fixture!.dir}/out-${n}.csv`);
    }
    // Ingestion through the platform: the job fails naming the column and
    // the line, and no datasource is made.
    const { ml } = fixture!;
    const schema = await ml.dataSchemas.create({
      name: "data-hex",
      fields: [
        { ...NUMBER_FIELD, name: "tenure" },
        { ...NUMBER_FIELD, name: "charges", designation: "TARGET" },
      ],
    } as never);
    const ic = await ml.ingestionConfigurations.create({
      name: "data-hex-ic",
      data_schema_id: schema.id,
    });
    for (const file of ["hex.csv", "dup.csv"]) {
      let job = await ml.ingestionJobs.create({
        name: `data-ingest-${file}`,
        compute_configuration_id: refs!.cpu,
        data_processing_configuration_id: ic.id,
        storage_connector_id: refs!.storage,
        data_path: file,
        datasource_name: `data-source-${file}`,
      } as never);
      while (["STARTING", "RUNNING"].includes(job.status)) {
        await new Promise((r) => setTimeout(r, 10));
        job = await ml.ingestionJobs.get(job.id);
      }
      assertEquals(job.status, "FAILED", file);
      assertMatch(
        String(job.message),
        file === "hex.csv"
          ? /column 'tenure' line 2: '0x10' is not a number/
          : /column 'tenure' appears twice/,
      );
    }
    // The job's datasource (made with the job) says FAILED and holds no rows.
    const sources = (await ml.datasources.list()).data.filter((d) =>
      d.name.startsWith("data-source-")
    );
    assertEquals(sources.length, 2);
    for (const d of sources) {
      assertEquals([d.status, d.row_count], ["FAILED", null], d.name);
    }
    const left = [...Deno.readDirSync(fixture!.dir)].map((e) => e.name);
    assert(!left.some((f) => f.startsWith("out-")), left.join());
    // The views API reads a string cell of a number feature the same way.
    const views = fixture!.deployment;
    let thrown: unknown;
    try {
      await views.views(
        { tenure: ["0x10"], charges: [50], contract: ["month"] } as never,
      );
    } catch (e) {
      thrown = e;
    }
    assert(thrown instanceof Error, String(thrown));
    assertMatch(thrown.message, /tenure/);
  } finally {
    await fixture?.close();
  }
});

/** The message `startLocalServer(args)` rejects with, or fails. */
async function cliRefusal(args: string[]): Promise<string> {
  const log: string[] = [];
  try {
    const server = await startLocalServer(
      args,
      {
        MLP_CLIENT_ID: "me",
        MLP_CLIENT_SECRET: "s3cret",
      },
      serveNode,
      { log: (l) => log.push(l) },
    );
    await server.stop();
  } catch (e) {
    assert(e instanceof Error);
    assertEquals(log, [], "nothing is announced for a refused start");
    return e.message;
  }
  throw new Error(`started with ${args.join(" ")}`);
}

// The command line (src/local/cli.ts prints the message and exits 1): a
// bucket folder that is not there was accepted and served, each later call
// on it a 400 far from the typo; a port in use said only "Address already in
// use" without the port.
Deno.test("data adversarial: the local CLI refuses a bucket folder that is missing or a file, and a port in use, naming the flag", async () => {
  const dir = await Deno.makeTempDir({ prefix: "data_cli_" });
  try {
    await Deno.writeTextFile(`${dir}/file.csv`, "a\n1\n");
    assertMatch(
      await cliRefusal(["--port", "0", "--bucket", `d=${dir}/nope`]),
      /--bucket d=.*nope.*no such folder/,
    );
    assertMatch(
      await cliRefusal(["--port", "0", "--bucket", `d=${dir}/file.csv`]),
      /--bucket d=.*file\.csv.*not a folder/,
    );
    using held = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (held.addr as Deno.NetAddr).port;
    assertMatch(
      await cliRefusal(["--port", String(port), "--bucket", `d=${dir}`]),
      new RegExp(
        `cannot listen on 127.0.0.1:${port} \\(--host, --port\\): .*in use`,
        "i",
      ),
    );
    // A --data-dir that cannot be made (under a file) names the flag.
    assertMatch(
      await cliRefusal(["--port", "0", "--data-dir", `${dir}/file.csv/state`]),
      /^--data-dir .*file\.csv\/state: /,
    );
    // A --config file's bucket folder is checked too.
    await Deno.writeTextFile(
      `${dir}/config.json`,
      JSON.stringify({ buckets: { c: `${dir}/gone` } }),
    );
    assertMatch(
      await cliRefusal(["--port", "0", "--config", `${dir}/config.json`]),
      /bucket "c" of --config .*config\.json \(.*gone\): no such folder/,
    );
    // One bucket name given twice: the second folder silently won.
    assertMatch(
      await cliRefusal([
        "--port",
        "0",
        "--bucket",
        `d=${dir}`,
        "--bucket",
        `d=${dir}/x`,
      ]),
      /--bucket d= is given twice/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** What `inferSchema` rejects with. */
async function inferRefusal(
  source: Parameters<typeof inferSchema>[0],
  target: string,
  exclude?: string[],
): Promise<Error> {
  try {
    await inferSchema(source, { target, exclude });
  } catch (e) {
    assert(e instanceof Error);
    return e;
  }
  throw new Error("inferred");
}

// A header cell left empty (a spreadsheet's unnamed column, pandas' index)
// became a schema field named "" (two of them for `a,,`), which the platform
// then refuses far from the file. Inference names the column's position; it
// can be left out with exclude: [""].
Deno.test("data adversarial: schema inference refuses a column with an empty name, naming its position, unless excluded", async () => {
  const rows = Array.from({ length: 30 }, (_, i) => `${i},${i * 2},${i % 2}`);
  const csv = "a,,y\n" + rows.join("\n");
  const e = await inferRefusal({ csv }, "y");
  assert(e instanceof ValidationError, String(e));
  assertMatch(e.message, /column 2 .*no name/);
  const fields = (await inferSchema({ csv }, { target: "y", exclude: [""] }))
    .fields;
  assertEquals(fields.map((f) => f.name), ["a", "y"]);
});

// Columns of different lengths are no table: inference read each one on its
// own and made a schema of them without a word.
Deno.test("data adversarial: schema inference refuses columns of different lengths, naming them", async () => {
  const e = await inferRefusal({ a: [1, 2, 3], y: [0, 1] }, "y");
  assert(e instanceof ValidationError, String(e));
  assertMatch(e.message, /"y" has 2 values.*"a" has 3/);
});

// A split table naming a column twice: toDataFrame() and splitToColumns()
// refuse it (FrameError), but toViewsQuery() kept the last column's values
// and sent them as the first one's, without a word.
Deno.test("data adversarial: toViewsQuery refuses a split table naming a column twice, as toDataFrame does", () => {
  const e = assertThrows(
    () =>
      toViewsQuery({
        columns: ["tenure", "charges", "tenure"],
        index: [0],
        data: [[1, 50, 70]],
      }),
    FrameError,
  );
  assertMatch(e.message, /column "tenure" appears twice/);
});

// docs/contract.md "Buckets (local platform)": a gzipped CSV, recognised by
// its magic bytes, reads as the CSV it holds for schema inference too. A
// gzipped Blob (a File picked in a browser, a fetched .csv.gz) was read as
// text: a CsvError about a quote on "line 2" of the compressed bytes.
Deno.test("data adversarial: schema inference reads a gzipped Blob as its CSV; a truncated one is an error saying so", async () => {
  const text = "a,y\n" +
    Array.from({ length: 30 }, (_, i) => `${i},${i % 2}`).join("\n") + "\n";
  const gz = new Uint8Array(
    await new Response(
      new Blob([text]).stream().pipeThrough(new CompressionStream("gzip")),
    ).arrayBuffer(),
  );
  const fields = (await inferSchema(new Blob([gz]), { target: "y" })).fields;
  assertEquals(fields.map((f) => [f.name, f.data_type.data_type]), [
    ["a", "NUMBER"],
    ["y", "NUMBER"],
  ]);
  const e = await inferRefusal(new Blob([gz.slice(0, gz.length - 12)]), "y");
  assertMatch(e.message, /gzip data that does not inflate/);
});

// Notebook displays of a hostile split table: viewsTable() crashed on a
// table without `data` (TypeError reading length) and showed a column named
// twice, or a row shorter than the columns, without a word;
// explanationChart() charted a doubled contribution twice. Each is the
// FrameError toDataFrame() gives for the same table.
Deno.test("data adversarial: viewsTable and explanationChart refuse a split table toDataFrame refuses, naming the problem", () => {
  const cases: [unknown, RegExp][] = [
    [null, /expected a split table/],
    [{ columns: ["bias"] }, /no `data` array/],
    [{
      columns: ["prediction.y", "bias", "contribution.a", "contribution.a"],
      index: [0],
      data: [["Yes", -1, 0.5, 0.5]],
    }, /column "contribution.a" appears twice/],
    [{
      columns: ["prediction.y", "bias", "contribution.a"],
      index: [0],
      data: [["Yes", -1]],
    }, /row 0 of the split table has 2 cells but the table has 3 columns/],
  ];
  for (const [table, message] of cases) {
    for (const show of [viewsTable, explanationChart]) {
      const e = assertThrows(() => show(table as never), FrameError);
      assertMatch(e.message, message, `${show.name}`);
    }
  }
});

// From JavaScript: a source that is no table, a row that is no object and a
// column that is no array were TypeErrors ("Cannot use 'in' operator") or,
// worse, read as a row of missing values (a number row) or as columns named
// "0", "1" (rows that are arrays). Each is a ValidationError naming where.
Deno.test("data adversarial: schema inference refuses sources, rows and columns that are not a table, naming them", async () => {
  const cases: [unknown, RegExp][] = [
    [null, /source: .*null/],
    [5, /source: .*number/],
    [[{ a: 1, y: 0 }, null], /rows\.1: .*null/],
    [[{ a: 1, y: 0 }, 5], /rows\.1: .*number/],
    [[[1, 0], [2, 1]], /rows\.0: .*array/],
    [{ a: 5, y: [1] }, /a: .*not an array/],
  ];
  for (const [source, message] of cases) {
    const e = await inferRefusal(source as never, "y");
    assert(e instanceof ValidationError, `${JSON.stringify(source)}: ${e}`);
    assertMatch(e.message, message);
  }
});
