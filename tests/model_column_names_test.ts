/**
 * Column names that are also Object.prototype's (`__proto__`, `constructor`,
 * `hasOwnProperty`) are ordinary names all the way: CSV ingestion into typed
 * columns (and its JSON form), onboarding, training and scoring.
 */
import { assert, assertAlmostEquals, assertEquals } from "@std/assert";
import {
  asDatasource,
  datasourceFromCsv,
} from "../src/local/model/datasource.ts";
import { train } from "../src/local/model/ebm.ts";
import {
  encodeDataset,
  type SchemaField,
} from "../src/local/model/encoding.ts";
import { contributionTable, explain } from "../src/local/model/explain.ts";

const NAMES = ["__proto__", "constructor", "hasOwnProperty"];

const fields: SchemaField[] = [
  {
    name: "__proto__",
    data_type: { data_type: "NUMBER" },
    designation: "FEATURE",
    semantic_type: "CONTINUOUS",
  },
  {
    name: "constructor",
    data_type: { data_type: "STRING" },
    designation: "FEATURE",
    semantic_type: "CATEGORICAL",
  },
  {
    name: "hasOwnProperty",
    data_type: { data_type: "NUMBER" },
    designation: "TARGET",
    semantic_type: "CONTINUOUS",
  },
];

function csv(): string {
  const lines = [NAMES.join(",")];
  for (let i = 0; i < 300; i++) {
    const x = i % 30, c = ["a", "b", "c"][i % 3];
    lines.push(`${x},${c},${2 * x + (c === "b" ? 10 : 0)}`);
  }
  return lines.join("\n") + "\n";
}

Deno.test("column names: __proto__, constructor and hasOwnProperty ingest, train and score like any other", () => {
  const ds = datasourceFromCsv(csv(), fields);
  assertEquals(Object.keys(ds.columns).sort(), [...NAMES].sort());
  assert(Object.hasOwn(ds.columns, "__proto__"));
  // The stored JSON form reads back the same.
  const back = asDatasource(JSON.parse(JSON.stringify(ds)));
  assertEquals(
    Object.keys((back as typeof ds).columns).sort(),
    [...NAMES].sort(),
  );
  for (const source of [ds, back]) {
    const data = encodeDataset(source, fields, {
      targets: ["hasOwnProperty"],
      prediction_type: "REGRESSION",
    });
    assertEquals(
      data.encoder.features.map((f) => f.name),
      ["__proto__", "constructor"],
    );
    // Two bags: the names are the subject, not the bagging.
    const model = train(data, { max_interactions: 1, estimators: 2 });
    assert(model.metrics.validationR2! > 0.9, `${model.metrics.validationR2}`);
    // A views query as JSON gives: "__proto__" an own key.
    const query = JSON.parse(
      '{"__proto__": [3, 20], "constructor": ["b", "a"]}',
    );
    const e = explain(model, query);
    assertEquals(e.terms.slice(0, 2), ["__proto__", "constructor"]);
    e.values!.forEach((v, i) => {
      const sum = e.bias[i] + e.contributions[i].reduce((a, b) => a + b, 0);
      assertAlmostEquals(sum, v, 1e-9);
    });
    assert(e.values![0] > 10 && e.values![1] > 35, JSON.stringify(e.values));
    const table = contributionTable(model, query);
    assertEquals(table.columns.slice(0, 4), [
      "prediction.hasOwnProperty",
      "bias",
      "contribution.__proto__",
      "contribution.constructor",
    ]);
  }
});

Deno.test("column names: raw columns with those names encode too (classification)", () => {
  const raw = JSON.parse(
    JSON.stringify({
      constructor: Array.from({ length: 120 }, (_, i) => ["x", "y"][i % 2]),
      hasOwnProperty: Array.from({ length: 120 }, (_, i) => i % 2 ? "p" : "q"),
    }).replace('"constructor"', '"__proto__"'),
  );
  const f: SchemaField[] = [
    { ...fields[1], name: "__proto__" },
    {
      name: "hasOwnProperty",
      data_type: { data_type: "STRING" },
      designation: "TARGET",
      semantic_type: "CATEGORICAL",
    },
  ];
  const data = encodeDataset(raw, f, { targets: ["hasOwnProperty"] });
  const model = train(data, { max_rounds: 30, estimators: 2 });
  const p = explain(model, JSON.parse('{"__proto__": ["y", "x"]}'));
  assertEquals(p.predicted, ["p", "q"]);
});
