/**
 * Schema inference and quickstart on data an adversarial probe found them
 * wrong on: a file that is no CSV reaches the caller as the SDK's typed
 * error (not the parser's), a number too large to be finite is not a
 * NUMBER (ingestion refuses it), an impossible date, a constant column and
 * a target of a few fractional numbers get the type and the review note
 * that say what the platform will do with them.
 */
import {
  assert,
  assertEquals,
  assertInstanceOf,
  assertMatch,
  assertStringIncludes,
} from "@std/assert";
import { local } from "../local.ts";
import { offlinePlatform } from "./_helpers/offline.ts";
import { MLPlatformError, ValidationError } from "../mod.ts";
import type { ReviewNote } from "../src/builders/schema.ts";
import { CsvError } from "../src/csv.ts";
import { InflateError } from "../src/gzip.ts";
import { inferColumn } from "../src/infer/columns.ts";
import { inferSchema } from "../src/infer/infer.ts";
import {
  categoryUnusable,
  datesOf,
  numericUnusable,
} from "../src/local/model/cells.ts";

/** The error `run` rejects with (it must reject). */
async function refusal(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (e) {
    return e;
  }
  throw new Error("did not reject");
}

async function gzip(text: string): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([text]).stream().pipeThrough(
    new CompressionStream("gzip"),
  );
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

const ROWS = Array.from({ length: 40 }, (_, i) => `${i},${i % 2 ? "a" : "b"}`);
/** Files that are no table: the cause, the line, words of the message. */
// deno-lint-ignore no-explicit-any
type ErrorClass = new (...args: any[]) => Error;
const BAD_FILES: [string, string, ErrorClass, RegExp][] = [
  // Line 5: the fourth data row has a field more than the header.
  [
    "ragged.csv",
    ["x,y", ...ROWS.slice(0, 3), "3,a,extra", ...ROWS.slice(3)].join("\n"),
    CsvError,
    /CSV line 5: expected 2 fields like the header, found 3; check for a missing or extra comma/,
  ],
  [
    "twice.csv",
    ["x,x,y", ...ROWS.map((r) => `1,${r}`)].join("\n"),
    CsvError,
    /CSV line 1: column 'x' appears twice in the header \(fields 1 and 2\); rename one/,
  ],
];

Deno.test("infer review: a ragged row, a column named twice or a truncated .csv.gz is a ValidationError naming the file and the line, the parser's error its cause", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const text = ["x,y", ...ROWS].join("\n") + "\n";
    const gz = await gzip(text.repeat(50));
    const cases: [string, string | Uint8Array, ErrorClass, RegExp][] = [
      ...BAD_FILES,
      [
        "cut.csv.gz",
        gz.slice(0, gz.length - 12),
        InflateError,
        /gzip data that does not inflate .*check that the \.gz file is complete/,
      ],
    ];
    for (const [name, content, Cause, said] of cases) {
      const path = `${dir}/${name}`;
      if (typeof content === "string") await Deno.writeTextFile(path, content);
      else await Deno.writeFile(path, content);
      const sources = [
        [path, JSON.stringify(path)],
        [new File([await Deno.readFile(path)], name), `the file "${name}"`],
      ] as const;
      for (const [source, place] of sources) {
        const e = await refusal(() => inferSchema(source, { target: "y" }));
        // What a caller catching the SDK's errors catches.
        assertInstanceOf(e, ValidationError, `${name}: ${e}`);
        assertInstanceOf(e, MLPlatformError);
        assertInstanceOf(e.cause, Cause);
        assertEquals(e.issues.length, 1);
        assertEquals(e.issues[0].path, "source");
        assertStringIncludes(e.message, `${place} is not readable as CSV: `);
        assertMatch(e.message, said);
      }
    }
    // Text and a stream of bytes are named as what they are.
    const ragged = BAD_FILES[0][1] as string;
    const fromText = await refusal(() =>
      inferSchema({ csv: ragged }, { target: "y" })
    );
    assertInstanceOf(fromText, ValidationError);
    assertStringIncludes(fromText.message, "the text is not readable as CSV");
    const fromStream = await refusal(() =>
      inferSchema(new Blob([ragged]).stream(), { target: "y" })
    );
    assertInstanceOf(fromStream, ValidationError);
    assertStringIncludes(
      fromStream.message,
      "the stream is not readable as CSV",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("infer review: quickstart on a bucket file that is no CSV refuses it naming the file, its bucket and the line, before anything is made", async () => {
  const dir = await Deno.makeTempDir();
  const ml = await local({ buckets: { data: dir }, progress: false });
  try {
    const text = ["x,y", ...ROWS].join("\n") + "\n";
    const gz = await gzip(text.repeat(50));
    await Deno.writeFile(`${dir}/cut.csv.gz`, gz.slice(0, gz.length - 12));
    const cases = [
      ...BAD_FILES,
      ["cut.csv.gz", "", InflateError, /does not inflate/] as [
        string,
        string,
        ErrorClass,
        RegExp,
      ],
    ];
    for (const [name, content, Cause, said] of cases) {
      if (content !== "") await Deno.writeTextFile(`${dir}/${name}`, content);
      const e = await refusal(() =>
        ml.quickstart({ bucket: "data", path: name, target: "y" })
      );
      assertInstanceOf(e, ValidationError, `${name}: ${e}`);
      assertInstanceOf(e.cause, Cause);
      assertEquals(e.issues.map((i) => i.path), ["path"]);
      assertStringIncludes(
        e.message,
        `"${name}" in bucket "data" is not readable as CSV: `,
      );
      assertMatch(e.message, said);
    }
    assertEquals((await ml.storageConnectors.list()).data, []);
    assertEquals((await ml.dataSchemas.list()).data, []);
  } finally {
    await ml.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("infer review: a number too large to be finite (1e309) is not a NUMBER, as ingestion reads it; the note names the column, the cell and its line, and the schema ingests", async () => {
  const lines = ["x,y"];
  for (let i = 0; i < 30; i++) lines.push(`${i * 1.5},${i % 2 ? "a" : "b"}`);
  lines[7] = "1e309,a";
  const csv = lines.join("\n") + "\n";
  const draft = await inferSchema({ csv }, { target: "y", name: "big" });
  const x = draft.fields.find((f) => f.name === "x")!;
  assertEquals(x.data_type.data_type, "STRING");
  const note = draft.review.find((n) => n.field === "x");
  assertMatch(
    note?.reason ?? "",
    /"1e309" \(line 8\) is not a finite number/,
  );
  assertStringIncludes(note!.suggestion, "write a finite number in that cell");
  // From rows too (a value that is Infinity, a text that overflows).
  for (const big of [Infinity, "-1e400", 10n ** 400n]) {
    const rows = Array.from({ length: 5 }, (_, i) => ({ x: i + 0.5 }));
    const report = inferColumn("x", [...rows.map((r) => r.x), big]);
    assertEquals(report.type.data_type.data_type, "STRING", String(big));
    assertMatch(
      report.note?.reason ?? "",
      /\(index 5\) is not a finite number/,
    );
  }
  // The inferred schema ingests the file (a NUMBER "x" failed ingestion).
  const dir = await Deno.makeTempDir();
  const ml = await local({ buckets: { data: dir }, progress: false });
  try {
    await Deno.writeTextFile(`${dir}/big.csv`, csv);
    const schema = await ml.inferSchema(`${dir}/big.csv`, { target: "y" });
    const storage = await ml.storageConnector("data");
    const datasource = await ml.ingest("big.csv", {
      storage,
      schema: await schema.create(),
    });
    assertEquals(datasource.status, "READY");
  } finally {
    await ml.close();
    await Deno.remove(dir, { recursive: true });
  }
});

/** `n` consecutive ISO dates from 2020-01-01. */
const days = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => new Date(Date.UTC(2020, 0, 1 + i)).toISOString().slice(0, 10),
  );

Deno.test("infer review: one impossible date (2020-02-30) among ISO dates is named with its line, and the note says what the model does and that fixing it makes the column dates", async () => {
  const dates = days(100);
  dates.splice(40, 0, "2020-02-30");
  const csv = ["day,y", ...dates.map((d, i) => `${d},${i % 3}`)].join("\n");
  const draft = await inferSchema({ csv }, { target: "y" });
  const day = draft.fields.find((f) => f.name === "day")!;
  // Text, as ingestion stores any cell of a STRING column: the file ingests.
  assertEquals(day.data_type.data_type, "STRING");
  const note = draft.review.find((n) => n.field === "day")!;
  assertEquals(
    note.reason,
    'ISO dates, but "2020-02-30" (line 42) is not a real date',
  );
  assertStringIncludes(note.suggestion, "fix or empty (missing) that cell");
  assertStringIncludes(note.suggestion, "dropped as an identifier");
  // The note says what the model does: with that cell the column is no
  // date column (each value its own category), without it it is dates.
  const uses = new Float64Array(dates.length).fill(1);
  assertEquals(datesOf(dates, uses), null);
  const fixed = dates.filter((d) => d !== "2020-02-30");
  assert(datesOf(fixed, uses.subarray(0, fixed.length)) !== null);
  const blanked = csv.replace("2020-02-30", "");
  assertEquals(
    (await inferSchema({ csv: blanked }, { target: "y" })).review.find((n) =>
      n.field === "day"
    )?.reason,
    "ISO dates",
  );
  // Two: the first named, the others counted.
  const two = csv.replace("2020-01-05", "2020-13-01");
  assertEquals(
    (await inferSchema({ csv: two }, { target: "y" })).review.find((n) =>
      n.field === "day"
    )?.reason,
    'ISO dates, but "2020-13-01" (line 6) and 1 more values are not real dates',
  );
});

Deno.test("infer review: a constant column is said to be constant, with the reason the model records when it drops it; a one-class target that training refuses", async () => {
  const rows = Array.from({ length: 30 }, (_, i) => ({
    one: 1,
    zero: 0,
    plan: "basic",
    day: "2021-03-04",
    x: i,
    y: i % 2 ? "yes" : "no",
  }));
  const draft = await inferSchema(rows, { target: "y" });
  const notes = new Map(draft.review.map((n) => [n.field, n]));
  const dropped = numericUnusable(Float64Array.of(1, 1, 1));
  assertEquals(dropped, categoryUnusable(new Map([["basic", 3]]), 3));
  assert(dropped?.startsWith("constant"));
  const shown: Record<string, string> = {
    one: "1",
    zero: "0",
    plan: '"basic"',
    day: '"2021-03-04"',
  };
  for (const [name, value] of Object.entries(shown)) {
    const note = notes.get(name) as ReviewNote;
    assertEquals(note.reason, `${dropped} (${value})`);
    assertStringIncludes(note.suggestion, "the model will not use it");
    assertStringIncludes(note.suggestion, `.drop("${name}")`);
  }
  assert(!notes.has("x"));
  // One value and missing cells: the model tells them apart, not constant.
  assertEquals(numericUnusable(Float64Array.of(1, NaN, 1)), null);
  assertEquals(
    inferColumn("flag", [1, null, 1, 1]).note?.reason,
    "only the values 0 and 1",
  );
  // A target of one class: training needs two.
  const single = await inferSchema(rows, { target: "plan" });
  assertMatch(
    single.review.find((n) => n.field === "plan")?.reason ?? "",
    /^one class only/,
  );
  assertStringIncludes(
    single.review.find((n) => n.field === "plan")!.suggestion,
    "at least two classes",
  );
});

Deno.test("infer review: a target of a few numbers with fractions is predicted as a number, with a note saying how to predict classes instead", async () => {
  const values = [0.5, 1.5, 2.25, 0.5, 1.5, 3, 2.25, 1];
  const rows = values.map((y, i) => ({ x: i, y }));
  const draft = await inferSchema(rows, { target: "y" });
  assertEquals(draft.predictionType, "REGRESSION");
  const y = draft.fields.find((f) => f.name === "y")!;
  assertEquals([y.data_type.format, y.semantic_type], [
    "FLOAT64",
    "CONTINUOUS",
  ]);
  const note = draft.review.find((n) => n.field === "y")!;
  assertEquals(
    note.reason,
    "5 distinct numbers with fractions (such as 0.5): predicted as a number (REGRESSION)",
  );
  assertStringIncludes(note.suggestion, 'predictionType: "CLASSIFICATION"');
  // The override, and whole numbers, stay classes.
  const classes = await inferSchema(rows, {
    target: "y",
    predictionType: "CLASSIFICATION",
  });
  assertEquals(classes.predictionType, "CLASSIFICATION");
  const ratings = rows.map((r, i) => ({ ...r, y: 1 + (i % 5) }));
  assertEquals(
    (await inferSchema(ratings, { target: "y" })).predictionType,
    "CLASSIFICATION",
  );
  // A CSV says the same.
  const csv = ["x,y", ...rows.map((r) => `${r.x},${r.y}`)].join("\n");
  const fromCsv = await inferSchema({ csv }, { target: "y" });
  assertEquals(fromCsv.review, draft.review);
  assertEquals(fromCsv.predictionType, "REGRESSION");
});

Deno.test("infer review: a cell's line is the line it is first on, past the first 64 KiB and the 4096 distinct cells a column counts", async () => {
  const lines = ["id,amount,day,y"];
  const dates = days(3000);
  for (let i = 0; i < 20_000; i++) {
    lines.push(`${i},${(i * 7) % 10_000},${dates[i % 3000]},${i % 2}`);
  }
  lines[15_001] = "15000,1e999,2020-02-30,0";
  lines[17_001] = "17000,1e999,2020-02-30,1";
  const csv = lines.join("\r\n");
  const draft = await inferSchema({ csv }, { target: "y" });
  const reasons = new Map(draft.review.map((n) => [n.field, n.reason]));
  assertMatch(
    reasons.get("amount") ?? "",
    /"1e999" \(line 15002\) is not a finite number .*\(and 1 more such cells\)/,
  );
  assertEquals(
    reasons.get("day"),
    'ISO dates, but "2020-02-30" (line 15002) is not a real date',
  );
});

Deno.test("infer review: a path that does not exist on this machine is a ValidationError naming it, and quickstart over a client that reads no bucket says to pass sample", async () => {
  // A bare NotFound (Deno) or ENOENT (Node) left the SDK's classes: the
  // npm README's quickstart over connect() met it first.
  const dir = await Deno.makeTempDir();
  try {
    for (const name of ["nope.csv", "nope.csv.gz"]) {
      const path = `${dir}/${name}`;
      let caught: unknown;
      try {
        await inferSchema(path, { target: "y" });
      } catch (error) {
        caught = error;
      }
      assertInstanceOf(caught, ValidationError);
      assertEquals(caught.issues.map((i) => i.path), ["source"]);
      assertStringIncludes(
        caught.issues[0].message,
        `${JSON.stringify(path)} was not found on this machine`,
      );
      assertStringIncludes(caught.message, "pass `sample`");
    }
    const { ml, requests } = offlinePlatform();
    let caught: unknown;
    try {
      await ml.quickstart({
        bucket: "b",
        path: `${dir}/nope.csv`,
        target: "y",
      });
    } catch (error) {
      caught = error;
    }
    assertInstanceOf(caught, ValidationError);
    assertStringIncludes(caught.message, "was not found on this machine");
    assertEquals(requests(), 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
