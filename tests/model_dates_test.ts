/**
 * A STRING column of ISO dates (issue 22, item 5: chicago's `date`) is a
 * usable feature, not an identifier to drop: each date is read as its day
 * number (days since 1970-01-01 UTC) at training and again at views, so a
 * trend over time is learnt and served the same way. A text that is not a
 * date makes the column categorical as before; at views, a value that is
 * not a date is refused naming the column.
 */
import { assert, assertEquals, assertThrows } from "@std/assert";
import { dayNumber } from "../src/local/model/cells.ts";
import {
  encodeDataset,
  encodeRows,
  type SchemaField,
} from "../src/local/model/encoding.ts";
import { ModelInputError } from "../src/local/model/errors.ts";
import { predict } from "../src/local/model/explain.ts";
import { train } from "../src/local/model/train.ts";

const text = (name: string, target = false): SchemaField => ({
  name,
  data_type: { data_type: "STRING" },
  designation: target ? "TARGET" : "FEATURE",
  semantic_type: "CATEGORICAL",
});

const n = 400;
const day0 = Date.UTC(2001, 0, 1);
const date = Array.from(
  { length: n },
  (_, i) =>
    i === 7 ? null : new Date(day0 + i * 86_400_000).toISOString().slice(0, 10),
);
// After day 200 the class flips: only the date tells.
const y = date.map((_, i) => (i > 200) !== (i % 9 === 0) ? "late" : "early");

Deno.test("dates: an ISO date column is a numeric feature of day numbers, at training and at views", () => {
  const data = encodeDataset({ date, y }, [text("date"), text("y", true)]);
  assertEquals(data.encoder.dropped, undefined);
  const [f] = data.encoder.features;
  assert(f.kind === "numeric" && f.date === true);
  const rows = encodeRows(data.encoder, { date: ["2001-01-01", null, ""] });
  assertEquals(rows.features[0][0], dayNumber("2001-01-01"));
  assert(
    Number.isNaN(rows.features[0][1]) && Number.isNaN(rows.features[0][2]),
  );
  const model = train(data, { max_rounds: 100 });
  const p = predict(model, { date: ["2001-02-01", "2001-12-01"] });
  assertEquals(p.predicted, ["early", "late"]);
  const err = assertThrows(
    () => predict(model, { date: ["next week"] }),
    ModelInputError,
  );
  assertEquals(err.column, "date");
});

Deno.test("dates: one text that is not a date keeps the column categorical", () => {
  const mixed = date.map((d, i) => (i === 3 ? "unknown" : d));
  const x = date.map((_, i) => i % 17);
  const data = encodeDataset({ date: mixed, x, y }, [
    text("date"),
    {
      name: "x",
      data_type: { data_type: "NUMBER" },
      designation: "FEATURE",
      semantic_type: "CONTINUOUS",
    },
    text("y", true),
  ]);
  assertEquals(data.encoder.features.map((f) => [f.name, f.kind]), [
    ["date", "categorical"],
    ["x", "numeric"],
  ]);
});
