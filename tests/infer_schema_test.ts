/** Schema inference from a CSV file, rows and columns. */
import {
  assert,
  assertEquals,
  assertRejects,
  assertStringIncludes,
} from "@std/assert";
import { inferColumn } from "../src/infer/columns.ts";
import { inferSchema } from "../src/infer/infer.ts";
import { flag } from "../src/builders/fields.ts";
import { ValidationError } from "../src/http/errors.ts";

const churn = new URL("../datasets/wa_churn.csv", import.meta.url);

Deno.test("infer: wa_churn.csv types, formats and review notes", async () => {
  const draft = await inferSchema(churn, { target: "churn" });
  assertEquals(draft.name, "wa_churn");
  const field = (n: string) => draft.fields.find((f) => f.name === n)!;
  assertEquals(field("tenure").data_type, {
    data_type: "NUMBER",
    format: "INT64",
  });
  assertEquals(field("monthly_charges").data_type.format, "FLOAT64");
  // total_charges has 11 empty cells: still a FLOAT64 number.
  assertEquals(field("total_charges").data_type.format, "FLOAT64");
  assertEquals(field("contract").data_type, {
    data_type: "STRING",
    format: null,
  });
  assertEquals(field("churn").designation, "TARGET");
  assertEquals(field("churn").semantic_type, "CATEGORICAL");
  const flagged = draft.review.map((n) => n.field);
  for (
    const name of ["female", "senior_citizen", "partner", "paperless_billing"]
  ) {
    assert(flagged.includes(name), `${name} should be flagged as a 0/1 column`);
  }
  assert(!flagged.includes("tenure"));
  // Editable before create(): retype a reviewed flag, drop a column.
  const edited = draft.retype("senior_citizen", flag()).drop("female");
  assertEquals(
    edited.fields.find((f) => f.name === "senior_citizen")!.semantic_type,
    "CATEGORICAL",
  );
  assertEquals(edited.body().fields.length, 19);
});

Deno.test("infer: rows, low-cardinality integers, mixed and empty columns", async () => {
  const draft = await inferSchema([
    { id: 1, level: 1, mixed: "a", empty: null, y: 0 },
    { id: 2, level: 2, mixed: 3, empty: "", y: 1 },
    { id: 3, level: 3, mixed: "b", empty: null, y: 1 },
  ], { target: "y", exclude: ["id"] });
  assertEquals(draft.featureNames, ["level", "mixed", "empty"]);
  const y = draft.fields.find((f) => f.name === "y")!;
  assertEquals([y.data_type.data_type, y.semantic_type], [
    "NUMBER",
    "CATEGORICAL",
  ]);
  const reasons = Object.fromEntries(
    draft.review.map((n) => [n.field, n.reason]),
  );
  assertEquals(reasons.level, "only 3 distinct integers");
  assertEquals(reasons.mixed, "1 numbers and 2 text values");
  assertEquals(reasons.empty, "every value is missing");
});

Deno.test("infer: a target that is not a column is refused", async () => {
  await assertRejects(
    () => inferSchema({ csv: "a,b\n1,2\n" }, { target: "c" }),
    ValidationError,
    '"c" is not a column of the data',
  );
});

Deno.test("infer: a misspelt target is told the column it most likely means", async () => {
  await assertRejects(
    () => inferSchema({ csv: "tenure,churn\n1,yes\n" }, { target: "chrun" }),
    ValidationError,
    'did you mean "churn"?',
  );
});

Deno.test("infer: a file separated by semicolons or tabs is refused saying so, not only that the target is missing", async () => {
  await assertRejects(
    () => inferSchema({ csv: "a;b;y\n1;2;u\n" }, { target: "y" }),
    ValidationError,
    "looks separated by semicolons",
  );
  await assertRejects(
    () => inferSchema({ csv: "a\tb\ty\n1\t2\tu\n" }, { target: "y" }),
    ValidationError,
    "looks separated by tabs",
  );
});

Deno.test("infer: a CSV inferred from its distinct cells and their counts reports what its cells written out do", async () => {
  // Cells that exercise every branch: missing (empty, blank), numbers with
  // spaces and signs, fractions, 0/1 flags, mixed numbers and text, many
  // distinct texts, a regression and a classification target.
  const cells = [
    ["", " ", "1", " 2 ", "+3", "-4", "1e2", "007"],
    ["0", "1", "", "1", "0", "0", "1", "1"],
    ["1.5", "2", "", "x", " x", "x ", "3.25", "4"],
    ["a", "b", "a", " a", "", "c", "b", "a"],
  ];
  const rows = 400;
  const random = (i: number) => ((i * 2654435761) >>> 0) % 1000;
  const columns: Record<string, string[]> = {};
  cells.forEach((choices, j) => {
    columns[`c${j}`] = Array.from(
      { length: rows },
      (_, i) => choices[random(i * 7 + j) % choices.length],
    );
  });
  columns.id = Array.from({ length: rows }, (_, i) => `id-${i}`);
  columns.y = Array.from({ length: rows }, (_, i) => String(random(i) / 8));
  const names = Object.keys(columns);
  const csv = [names.join(",")].concat(
    Array.from(
      { length: rows },
      (_, i) => names.map((n) => columns[n][i]).join(","),
    ),
  ).join("\n");
  for (const target of ["y", "c3"]) {
    const fromCsv = await inferSchema({ csv }, { target });
    const fromCells = await inferSchema(columns, { target });
    assertEquals(fromCsv.fields, fromCells.fields);
    assertEquals(fromCsv.review, fromCells.review);
    assertEquals(fromCsv.predictionType, fromCells.predictionType);
  }
});

Deno.test("infer: numbers written for people (currency, thousands separators, percent) get a note that says so, in any order", () => {
  const spend = ["$1,234", "$12", "-$3.50", "", "999"];
  const report = inferColumn("spend", spend);
  assertEquals(report.type, inferColumn("plain", ["a", "b"]).type);
  assertEquals(
    report.note?.reason,
    'numbers written as text (such as "$1,234")',
  );
  assertStringIncludes(report.note!.suggestion, '.retype("spend", ml.float())');
  assertEquals(
    JSON.stringify(inferColumn("spend", [...spend].reverse())),
    JSON.stringify(report),
  );
  assertEquals(
    inferColumn("pct", ["5%", "12 %", "100%"]).note?.reason,
    'numbers written as text (such as "100%")',
  );
  // Text that is not all numbers, or a target: no such note.
  assert(
    !inferColumn("mixed", ["$12", "abc"]).note?.reason.startsWith("numbers"),
  );
  assertEquals(
    inferColumn("price", ["$12", "$13"], { target: true }).note,
    undefined,
  );
});
