/**
 * Ingestion's parsing Worker (src/local/jobs/ingest_worker.ts): the bytes
 * moved to it parse to the same datasource as in-thread, with the same
 * errors, and aborting stops it.
 */
import { assert, assertEquals, assertInstanceOf } from "@std/assert";
import { CsvError } from "../src/csv.ts";
import { InflateError } from "../src/gzip.ts";
import type { Datasource } from "../src/local/model/datasource.ts";
import type { SchemaField } from "../src/local/model/encoding.ts";
import { parseBytesInBackground } from "../src/local/jobs/ingest_worker.ts";

const fields: SchemaField[] = [
  {
    name: "x",
    data_type: { data_type: "NUMBER" },
    designation: "FEATURE",
    semantic_type: "CONTINUOUS",
  },
  {
    name: "name",
    data_type: { data_type: "STRING" },
    designation: "TARGET",
    semantic_type: "CATEGORICAL",
  },
];

/** A datasource as plain comparable values. */
function plain(d: Datasource) {
  return Object.fromEntries(
    Object.entries(d.columns).map(([k, c]) => [
      k,
      c.kind === "number"
        ? Array.from(c.values, (v) => (Number.isNaN(v) ? "NaN" : v))
        : [Array.from(c.codes), c.dictionary],
    ]),
  );
}

Deno.test("ingest worker: a BOM, CRLF, quotes and non-ASCII text parse as in-thread", async () => {
  const rows = ["\ufeffx,skip,name\r\n"];
  const names = ["café", '"quoted, ""comma"""', "日本", "🙂 emoji", ""];
  for (let i = 0; i < 2000; i++) {
    rows.push(`${i % 7 === 0 ? "" : i / 4},z,${names[i % names.length]}\r\n`);
  }
  const bytes = new TextEncoder().encode(rows.join(""));
  const there = await parseBytesInBackground(bytes.slice(), fields, {
    useWorker: true,
  });
  const here = await parseBytesInBackground(bytes.slice(), fields, {
    useWorker: false,
  });
  assertEquals(there.nRows, 2000);
  assertEquals(plain(there), plain(here));
  const name = there.columns.name;
  assert(name.kind === "string");
  assertEquals(name.dictionary, [
    "café",
    'quoted, "comma"',
    "日本",
    "🙂 emoji",
  ]);
});

Deno.test("ingest worker: a CSV error keeps its class and line", async () => {
  const bytes = new TextEncoder().encode('x,name\n1,a\n2,"b\n');
  const error = await parseBytesInBackground(bytes, fields, { useWorker: true })
    .catch((e) => e);
  assertInstanceOf(error, CsvError);
  assertEquals(error.line, 3);
});

Deno.test("ingest worker: a gzip file that does not inflate is an InflateError there as in-thread, and several members read as one file", async () => {
  const gzip = async (text: string) =>
    new Uint8Array(
      await new Response(
        new Blob([text]).stream().pipeThrough(new CompressionStream("gzip")),
      ).arrayBuffer(),
    );
  const text = "x,name\n" + "1,a\n2,b\n".repeat(20_000);
  const whole = await gzip(text);
  const cut = whole.slice(0, whole.length - 9);
  for (const useWorker of [true, false]) {
    const error = await parseBytesInBackground(cut.slice(), fields, {
      useWorker,
    }).catch((e) => e);
    assertInstanceOf(error, InflateError);
    assert(error.message.includes("does not inflate"), error.message);
  }
  const half = text.length / 2 + 3;
  const members = new Uint8Array(
    await new Blob([
      await gzip(text.slice(0, half)),
      await gzip(text.slice(half)),
    ])
      .arrayBuffer(),
  );
  const d = await parseBytesInBackground(members, fields, { useWorker: true });
  assertEquals(d.nRows, 40_000);
});

Deno.test("ingest worker: a missing column is named", async () => {
  const bytes = new TextEncoder().encode("x,other\n1,a\n");
  const error = await parseBytesInBackground(bytes, fields, { useWorker: true })
    .catch((e) => e);
  assert(error instanceof Error && error.message.includes("'name'"), error);
});

Deno.test("ingest worker: aborting rejects with the signal's reason", async () => {
  const bytes = new TextEncoder().encode("x,name\n1,a\n".repeat(50_000));
  const controller = new AbortController();
  const parsing = parseBytesInBackground(bytes, fields, {
    useWorker: true,
    signal: controller.signal,
  });
  controller.abort(new Error("stop"));
  const error = await parsing.catch((e) => e);
  assertEquals(error.message, "stop");
});
