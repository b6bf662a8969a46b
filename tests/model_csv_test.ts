import { assertEquals, assertThrows } from "@std/assert";
import { CsvError, parseCsv } from "../src/csv.ts";
import {
  columnsFromCsv,
  datasourceFromCsv,
} from "../src/local/model/datasource.ts";
import type { SchemaField } from "../src/local/model/encoding.ts";
import { ModelDataError } from "../src/local/model/errors.ts";

Deno.test("csv: quoted fields, escaped quotes and embedded commas", () => {
  const t = parseCsv('a,b,c\n"x, y","say ""hi""",3\n');
  assertEquals(t.header, ["a", "b", "c"]);
  assertEquals(t.rows, [["x, y", 'say "hi"', "3"]]);
});

Deno.test("csv: CRLF, LF and lone CR line ends, with and without a final newline", () => {
  assertEquals(parseCsv("a,b\r\n1,2\r\n3,4").rows, [["1", "2"], ["3", "4"]]);
  assertEquals(parseCsv("a,b\n1,2\n3,4\n").rows, [["1", "2"], ["3", "4"]]);
  assertEquals(parseCsv("a,b\r1,2\r3,4\r").rows, [["1", "2"], ["3", "4"]]);
});

Deno.test("csv: newlines inside quotes are kept and line numbers follow them", () => {
  const t = parseCsv('a,b\n"one\ntwo",1\r\n"x\r\ny",2\nlast,3\n');
  assertEquals(t.rows[0][0], "one\ntwo");
  assertEquals(t.rows[1][0], "x\r\ny");
  assertEquals(t.lines, [2, 4, 6]);
});

Deno.test("csv: BOM is dropped, empty cells are empty strings, blank lines skipped", () => {
  const t = parseCsv('\uFEFF"id",v\n1,\n\n2,""\n');
  assertEquals(t.header, ["id", "v"]);
  assertEquals(t.rows, [["1", ""], ["2", ""]]);
});

Deno.test("csv: malformed input names the line", () => {
  const e1 = assertThrows(() => parseCsv('a,b\n1,2\n3,"open\n4,5\n'), CsvError);
  assertEquals(e1.line, 3);
  const e2 = assertThrows(() => parseCsv("a,b\n1,2\n3\n"), CsvError, "line 3");
  assertEquals(e2.line, 3);
  assertThrows(() => parseCsv('a,b\n1,"x"y\n'), CsvError, "line 2");
  assertThrows(() => parseCsv('a,b\n1,x"y\n'), CsvError, "line 2");
  assertThrows(() => parseCsv(""), CsvError, "empty");
});

Deno.test("csv: the churn file parses to 7043 rows of 20 fields", async () => {
  const text = await Deno.readTextFile(
    new URL("../datasets/wa_churn.csv", import.meta.url),
  );
  const t = parseCsv(text);
  assertEquals(t.header.length, 20);
  assertEquals(t.rows.length, 7043);
  assertEquals(t.rows.filter((r) => r[19] === "").length, 11); // total_charges is empty in 11 rows
});

const fields: SchemaField[] = [
  {
    name: "n",
    data_type: { data_type: "NUMBER", format: "INT64" },
    designation: "FEATURE",
    semantic_type: "CONTINUOUS",
  },
  {
    name: "s",
    data_type: { data_type: "STRING", format: null },
    designation: "TARGET",
    semantic_type: "CATEGORICAL",
  },
];

Deno.test("datasource: cells typed by the schema, empty = null, unknown columns dropped", () => {
  const cols = columnsFromCsv(parseCsv("n,s,extra\n1.5,a,z\n,b,z\n"), fields);
  assertEquals(cols, { n: [1.5, null], s: ["a", "b"] });
});

Deno.test("datasource: a bad number or a missing column names the column", () => {
  const e = assertThrows(
    () => columnsFromCsv(parseCsv('n,s\n1,a\n"x\ny",b\n'), fields),
    ModelDataError,
    "line 3",
  );
  assertEquals(e.column, "n");
  const m = assertThrows(
    () => columnsFromCsv(parseCsv("s\na\n"), fields),
    ModelDataError,
  );
  assertEquals(m.column, "n");
});

Deno.test("csv: a schema column missing from a header separated by semicolons says the file looks separated by semicolons", () => {
  const fields: SchemaField[] = [
    {
      name: "a",
      data_type: { data_type: "NUMBER" },
      designation: "FEATURE",
      semantic_type: "CONTINUOUS",
    },
  ];
  for (
    const read of [
      () => columnsFromCsv(parseCsv("a;b\n1;2\n"), fields),
      () => datasourceFromCsv("a;b\n1;2\n", fields),
    ]
  ) {
    const e = assertThrows(read, ModelDataError);
    assertEquals(e.code, "COLUMN_MISSING");
    assertEquals(
      e.message.includes("looks separated by semicolons") &&
        e.message.includes("fix the schema or the file"),
      true,
      e.message,
    );
  }
});
