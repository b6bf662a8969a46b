/**
 * Columns the model cannot use (issue 22, item 5) are left out with a
 * reason, not silently: an empty column, a constant one, an identifier (a
 * categorical column with a different value on every row). A column with
 * one value and some missing cells, or a small table's distinct categories,
 * are kept. The model record lists what was dropped; views refuse a
 * dropped column naming why; no usable feature at all fails onboarding.
 */
import {
  assert,
  assertEquals,
  assertStringIncludes,
  assertThrows,
} from "@std/assert";
import { local } from "../local.ts";
import { encodeDataset, ID_ROWS } from "../src/local/model/encoding.ts";
import { ModelDataError, ModelInputError } from "../src/local/model/errors.ts";
import { predict } from "../src/local/model/explain.ts";
import { train } from "../src/local/model/train.ts";
import { field } from "./_helpers/generated.ts";

const n = 120;
const x = Array.from({ length: n }, (_, i) => (i * 7) % 23);
const columns = {
  x,
  id: x.map((_, i) => `row-${i}`),
  same: x.map(() => 3),
  nothing: x.map(() => null),
  flag: x.map((_, i) => (i % 3 === 0 ? "yes" : null)),
  y: x.map((v) => (v > 11 ? "hi" : "lo")),
};
const fields = [
  field("x", "number"),
  field("id", "category"),
  field("same", "number"),
  field("nothing", "number"),
  field("flag", "category"),
  field("y", "category", "TARGET"),
];

Deno.test("dropped: empty, constant and identifier columns are left out with a reason; one value with missing cells is kept", () => {
  const data = encodeDataset(columns, fields);
  assertEquals(data.encoder.features.map((f) => f.name), ["x", "flag"]);
  assertEquals(
    data.encoder.dropped?.map((d) => [d.name, d.reason.split(":")[0]]),
    [["id", "an identifier"], ["same", "constant"], ["nothing", "empty"]],
  );
  // A small table's distinct categories may be real: kept.
  assert(4 < ID_ROWS);
  const small = encodeDataset({
    c: ["a", "b", "c", "d"],
    y: ["p", "q", "p", "q"],
  }, [field("c", "category"), field("y", "category", "TARGET")]);
  assertEquals(small.encoder.features.map((f) => f.name), ["c"]);
  assertEquals(small.encoder.dropped, undefined);
  // Nothing usable: a data error naming every column and why.
  const err = assertThrows(
    () =>
      encodeDataset({ same: columns.same, y: columns.y }, [
        field("same", "number"),
        field("y", "category", "TARGET"),
      ]),
    ModelDataError,
  );
  assertStringIncludes(err.message, "'same' (constant");
});

Deno.test("dropped: views refuse a dropped column naming why, and answer without it", () => {
  const model = train(encodeDataset(columns, fields), { max_rounds: 20 });
  const err = assertThrows(
    () => predict(model, { x: [1], flag: ["yes"], id: ["row-9"] }),
    ModelInputError,
  );
  assertStringIncludes(err.message, "dropped at training: an identifier");
  assertEquals(predict(model, { x: [1], flag: ["yes"] }).predicted.length, 1);
});

Deno.test("dropped: the model record lists the dropped features with their reasons", async () => {
  const dir = await Deno.makeTempDir({ prefix: "model_dropped_" });
  const names = Object.keys(columns) as (keyof typeof columns)[];
  const lines = [names.join(",")];
  for (let i = 0; i < n; i++) {
    lines.push(names.map((c) => columns[c][i] ?? "").join(","));
  }
  await Deno.writeTextFile(`${dir}/t.csv`, lines.join("\n") + "\n");
  const ml = await local({ buckets: { data: dir }, progress: false });
  try {
    const schema = await ml.schema("t")
      .feature("x", ml.float()).feature("id", ml.category())
      .feature("same", ml.float()).feature("nothing", ml.float())
      .feature("flag", ml.category()).target("y", ml.category()).create();
    const storage = await ml.storageConnector("data");
    const source = await ml.ingest("t.csv", { storage, schema });
    const model = await ml.train(await ml.onboard(source), { maxRounds: 20 });
    assertEquals(model.dropped_features?.map((d) => d.name), [
      "id",
      "same",
      "nothing",
    ]);
    assert(model.dropped_features!.every((d) => d.reason.length > 0));
    assertEquals(model.features, ["x", "flag"]);
  } finally {
    await ml.close();
    await Deno.remove(dir, { recursive: true });
  }
});
