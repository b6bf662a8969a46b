/**
 * A date column gives the model its periodic parts (issue 22, item 3: an
 * additive model cannot get a weekly cycle out of a day number): besides
 * the day number, `<column>:weekday`, `:month` and `:hour`, each a term
 * of its own, derived when the dates span their cycle (src/local/model/
 * dates.ts). Views take the date column only; explanations still add up
 * exactly; the metrics the model reports are those of its views on its
 * validation rows; in-process and over HTTP the same.
 */
import {
  assert,
  assertAlmostEquals,
  assertEquals,
  assertRejects,
  assertThrows,
} from "@std/assert";
import { local, type LocalMLPlatform } from "../local.ts";
import { datasourceBlobKey } from "../src/local/jobs/ingest.ts";
import { datasetBlobs, loadEncoded } from "../src/local/jobs/onboard.ts";
import { MemoryStore } from "../src/local/store/store.ts";
import type { MLPlatform } from "../src/platform.ts";
import { overHttp } from "./_helpers/local_setup.ts";
import { constrainDataset } from "../src/local/model/constraints.ts";
import { PART_LEVELS } from "../src/local/model/dates.ts";
import {
  encodeDataset,
  type EncodedDataset,
  type RawValue,
  type SchemaField,
} from "../src/local/model/encoding.ts";
import { ModelInputError } from "../src/local/model/errors.ts";
import { anchorOffsets, explain, predict } from "../src/local/model/explain.ts";
import { globalExplanation } from "../src/local/model/shapes.ts";
import { createRng } from "../src/local/model/rng.ts";
import { train } from "../src/local/model/train.ts";
import type { EbmModel } from "../src/local/model/types.ts";
import { normal } from "./_helpers/generated.ts";

const DAY = 86_400_000;
/** A Monday. */
const DAY0 = Date.UTC(2019, 0, 7);

interface DateTable {
  columns: Record<string, RawValue[]>;
  fields: SchemaField[];
}

/**
 * `n` rows of random days over `spanDays` from a Monday (a time of day too
 * when `withTime`), a numeric `x`, and a target: regression, a trend, a
 * weekend two-thirds lower, `x`, an hour effect with times, and noise;
 * binary, whether that is above its median.
 */
function dateTable(
  n: number,
  seed: number,
  spanDays: number,
  options: { withTime?: boolean; binary?: boolean } = {},
): DateTable {
  const rng = createRng(seed);
  const date: RawValue[] = [], x: RawValue[] = [], y: number[] = [];
  for (let i = 0; i < n; i++) {
    const d = Math.floor(rng() * spanDays);
    const hour = options.withTime ? Math.floor(rng() * 24) : 0;
    const t = new Date(DAY0 + d * DAY + hour * 3_600_000).toISOString();
    const weekend = d % 7 >= 5;
    const v = normal(rng);
    date.push(
      i % 97 === 13
        ? null
        : options.withTime
        ? t.slice(0, 19) + "Z"
        : t.slice(0, 10),
    );
    x.push(Math.round(v * 1000) / 1000);
    y.push(
      10 + d / 365 + (weekend ? -6 : 0) + v +
        (options.withTime && hour >= 18 ? 3 : 0) + 0.7 * normal(rng),
    );
  }
  const median = [...y].sort((a, b) => a - b)[n >> 1];
  const field = (
    name: string,
    type: "NUMBER" | "STRING",
    designation = "FEATURE",
  ): SchemaField => ({
    name,
    data_type: { data_type: type },
    designation: designation as SchemaField["designation"],
    semantic_type: type === "NUMBER" ? "CONTINUOUS" : "CATEGORICAL",
  });
  return {
    columns: {
      date,
      x,
      y: options.binary ? y.map((v) => (v > median ? "high" : "low")) : y,
    },
    fields: [
      field("date", "STRING"),
      field("x", "NUMBER"),
      field("y", options.binary ? "STRING" : "NUMBER", "TARGET"),
    ],
  };
}

const regression = { prediction_type: "REGRESSION", targets: ["y"] };

/** The dataset without its date parts: the day number alone, as before. */
function withoutParts(data: EncodedDataset): EncodedDataset {
  const keep = data.encoder.features.map((f) =>
    !(f.kind === "categorical" && f.derived)
  );
  return {
    ...data,
    encoder: {
      ...data.encoder,
      features: data.encoder.features.filter((_, j) => keep[j]),
    },
    features: data.features.filter((_, j) => keep[j]),
  };
}

/** The table's columns at `rows`, the target left out. */
function queryAt(table: DateTable, rows: readonly number[]) {
  return {
    date: rows.map((r) => table.columns.date[r]),
    x: rows.map((r) => table.columns.x[r]),
  };
}

Deno.test("date parts: two years of dates give weekday and month terms; the weekday is learnt and beats the day number alone", () => {
  const table = dateTable(800, 1, 760);
  const data = encodeDataset(table.columns, table.fields, regression);
  assertEquals(data.encoder.features.map((f) => f.name), [
    "date",
    "date:weekday",
    "date:month",
    "x",
  ]);
  const params = { max_rounds: 400 };
  const model = train(data, params);
  const plain = train(withoutParts(data), params);
  assert(model.terms.some((t) => t.name === "date:weekday"));
  const r2 = model.metrics.validationR2!, r2Plain = plain.metrics.validationR2!;
  assert(r2 > r2Plain + 0.1, `with parts ${r2}, day number alone ${r2Plain}`);
  // The shape: Saturday and Sunday below every weekday.
  const shape = globalExplanation(model).terms.find((t) =>
    t.name === "date:weekday"
  )!;
  assertEquals(shape.features, ["date:weekday"]);
  assertEquals(shape.labels[0], [
    "missing",
    ...PART_LEVELS.weekday,
    "other",
  ]);
  const score = (day: string) => shape.scores[shape.labels[0].indexOf(day)][0];
  for (const weekday of ["Mon", "Tue", "Wed", "Thu", "Fri"]) {
    for (const weekend of ["Sat", "Sun"]) {
      assert(score(weekend) < score(weekday), `${weekend} < ${weekday}`);
    }
  }
});

/** Reported validation figures against the model's views on its validation rows. */
function checkValidationRows(model: EbmModel, table: DateTable) {
  const rows = model.validation!.rows!;
  assertEquals(rows.length, model.metrics.validationRows);
  const p = predict(model, queryAt(table, rows));
  if (model.task === "regression") {
    const y = rows.map((r) => table.columns.y[r] as number);
    const mean = y.reduce((a, b) => a + b, 0) / y.length;
    const sse = y.reduce((a, v, i) => a + (v - p.values![i]) ** 2, 0);
    const sst = y.reduce((a, v) => a + (v - mean) ** 2, 0);
    assertAlmostEquals(model.metrics.validationR2!, 1 - sse / sst, 1e-9);
    return;
  }
  const k = rows.map((r) =>
    model.classes.indexOf(table.columns.y[r] as string)
  );
  const logLoss =
    -k.reduce((a, c, i) => a + Math.log(p.probabilities[i][c]), 0) /
    k.length;
  assertAlmostEquals(model.metrics.validationLogLoss!, logLoss, 1e-9);
}

Deno.test("date parts: explanations add up exactly and views on the validation rows give the reported metrics", () => {
  for (const binary of [false, true]) {
    const table = dateTable(600, 2, 500, { withTime: true, binary });
    const data = encodeDataset(
      table.columns,
      table.fields,
      binary ? { targets: ["y"] } : regression,
    );
    const model = train(data, { max_rounds: 150 });
    const names = model.terms.map((t) => t.name);
    assert(names.includes("date:weekday") && names.includes("date:hour"));
    checkValidationRows(model, table);
    const rows = Array.from({ length: 600 }, (_, i) => i);
    const query = queryAt(table, rows);
    const e = explain(model, query);
    assertEquals(e.terms, names);
    for (let i = 0; i < rows.length; i++) {
      const sum = e.contributions[i].reduce((a, b) => a + b, e.bias[i]);
      if (!binary) assertAlmostEquals(sum, e.values![i], 1e-9);
      else {
        const q =
          e.probabilities[i][model.classes.indexOf(e.explainedClass[i])];
        assertAlmostEquals(sum, Math.log(q / (1 - q)), 1e-9);
      }
    }
  }
});

Deno.test("date parts: a date-time column gets the hour, a date column does not; a short span gets no weekday; the month needs two years", () => {
  const parts = (table: DateTable) =>
    encodeDataset(table.columns, table.fields, regression).encoder.features
      .flatMap((f) =>
        f.kind === "categorical" && f.derived ? [f.derived.part] : []
      );
  assertEquals(parts(dateTable(300, 3, 400, { withTime: true })), [
    "weekday",
    "hour",
  ]);
  assertEquals(parts(dateTable(300, 3, 400)), ["weekday"]);
  assertEquals(parts(dateTable(300, 3, 14)), []);
  assertEquals(parts(dateTable(300, 3, 14, { withTime: true })), ["hour"]);
  assertEquals(parts(dateTable(300, 3, 1200)), ["weekday", "month"]);
  // A part whose name is a column of the schema already is not derived.
  const taken = dateTable(300, 3, 400);
  taken.columns["date:weekday"] = taken.columns.x;
  taken.fields.push({ ...taken.fields[1], name: "date:weekday" });
  const data = encodeDataset(taken.columns, taken.fields, regression);
  assertEquals(data.encoder.features.map((f) => f.kind), [
    "numeric",
    "numeric",
    "numeric",
  ]);
});

Deno.test("date parts: views take the date column, refuse a derived name and a bad date naming the column; excluding the date drops its parts", () => {
  const table = dateTable(400, 4, 200);
  const data = encodeDataset(table.columns, table.fields, regression);
  const model = train(data, { max_rounds: 60 });
  const bad = assertThrows(
    () => predict(model, { date: ["2020-02-30"], x: [0] }),
    ModelInputError,
  );
  assertEquals(bad.column, "date");
  const derived = assertThrows(
    () =>
      predict(model, { date: ["2020-02-03"], x: [0], "date:weekday": ["Mon"] }),
    ModelInputError,
  );
  assertEquals(derived.column, "date:weekday");
  assert(derived.message.includes("the features are date, x"), derived.message);
  // A row as its own anchor: the date fixes its parts too, nothing differs.
  const row = { date: ["2019-03-09"], x: [0.5] };
  const anchored = explain(model, row, undefined, anchorOffsets(model, row));
  for (const c of anchored.contributions[0]) assertAlmostEquals(c, 0, 1e-12);
  // A missing date is the missing level of every part.
  const e = explain(model, { date: [null], x: [0] });
  assertEquals(e.terms.length, e.contributions[0].length);
  // Excluding the column excludes what is derived from it, listed once.
  const out = constrainDataset(data, {
    monotone: {},
    excluded: ["date"],
    protected: [],
    groups: null,
  });
  assertEquals(out.encoder.features.map((f) => f.name), ["x"]);
  assertEquals(out.encoder.dropped?.map((d) => d.name), ["date"]);
});

Deno.test("date parts: over HTTP as in-process, the model record names the derived features with their column and views answer their contributions", async () => {
  const dir = await Deno.makeTempDir({ prefix: "model_date_parts_" });
  const ml: LocalMLPlatform = await local({
    buckets: { data: dir },
    progress: false,
  });
  const served = overHttp(ml);
  try {
    const http: MLPlatform = served.http;
    const table = dateTable(500, 5, 800, { withTime: true });
    const lines = ["date,x,y"];
    for (let i = 0; i < 500; i++) {
      lines.push(
        ["date", "x", "y"].map((c) => table.columns[c][i] ?? "").join(","),
      );
    }
    await Deno.writeTextFile(`${dir}/dates.csv`, lines.join("\n") + "\n");
    const storage = await ml.storageConnector("data");
    const schema = await ml.schema("dates").feature("date", ml.category())
      .feature("x", ml.float()).target("y", ml.float()).create();
    const source = await ml.ingest("dates.csv", { storage, schema });
    const dataset = await ml.onboard(source, { predictionType: "REGRESSION" });
    const model = await ml.train(dataset, { randomSeed: 3, maxRounds: 80 });
    assertEquals(model.features, ["date", "x"]);
    assertEquals(model.derived_features, [
      { name: "date:weekday", column: "date", part: "weekday" },
      { name: "date:month", column: "date", part: "month" },
      { name: "date:hour", column: "date", part: "hour" },
    ]);
    assert(model.terms!.includes("date:weekday"));
    // Its shape over HTTP as in-process: the levels by name.
    const shapes = [
      await ml.models.explanation(model.id),
      await http.models.explanation(model.id),
    ].map((g) => g.terms.find((t) => t.name === "date:hour")!);
    assertEquals(shapes[1], shapes[0]);
    assertEquals(shapes[0].features, ["date:hour"]);
    assertEquals(shapes[0].labels, [["missing", ...PART_LEVELS.hour, "other"]]);
    const live = await ml.deploy(model);
    const rows = model.validation!.row_indices!;
    const query = queryAt(table, rows);
    const local_ = await live.views(query);
    const deployment = await http.deployment(live.id);
    const remote = await deployment.views(query);
    assertEquals(remote.table, local_.table);
    // A derived name is no view input, over HTTP either.
    const refused = await assertRejects(() =>
      deployment.views({ ...query, "date:weekday": query.x.map(() => "Mon") })
    );
    assert(String(refused).includes("date:weekday"), String(refused));
    const { columns, data } = local_.table;
    assert(columns.includes("contribution.date:weekday"), columns.join());
    const at = (c: string) => columns.indexOf(c);
    const y = rows.map((r) => table.columns.y[r] as number);
    const pred = data.map((row) => row[at("prediction.y")] as number);
    const mean = y.reduce((a, b) => a + b, 0) / y.length;
    const sse = y.reduce((a, v, i) => a + (v - pred[i]) ** 2, 0);
    const sst = y.reduce((a, v) => a + (v - mean) ** 2, 0);
    assertAlmostEquals(model.metrics!.validation_r2!, 1 - sse / sst, 1e-9);
    // Batch scoring reads the same file's date column alike; a bad date is
    // refused naming the column.
    const file = lines.slice(0, 1).concat(rows.map((r) => lines[r + 1]));
    file[3] = `next week,0,1`;
    await Deno.writeTextFile(`${dir}/score.csv`, file.join("\n") + "\n");
    const batch = await live.batch({
      bucket: "data",
      path: "score.csv",
      output: "scored.csv",
      onError: "NULL_PREDICTION",
      progress: false,
    });
    const scored = await batch.rows({ itemsPerPage: 1000 });
    assertEquals(batch.rowsWithErrors, 1);
    assert(String(scored[2].error).includes("'date'"), String(scored[2].error));
    for (const [i, row] of scored.entries()) {
      if (i === 2) continue;
      assertEquals(
        row["contribution.date:weekday"],
        data[i][at("contribution.date:weekday")],
      );
      assertEquals(row["prediction.y"], data[i][at("prediction.y")]);
    }
    for (const row of data) {
      const sum = columns.reduce(
        (a, c, j) => c.startsWith("contribution.") ? a + (row[j] as number) : a,
        row[at("bias")] as number,
      );
      assertAlmostEquals(sum, row[at("prediction.y")] as number, 1e-9);
    }
  } finally {
    await served.close();
    await ml.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("date parts: a dataset stored before dates had parts trains with them; a changed date column is still refused", () => {
  const table = dateTable(300, 6, 400);
  const options = { ...regression, seed: 0 };
  const now = encodeDataset(table.columns, table.fields, options);
  assertEquals(now.encoder.features.map((f) => f.name), [
    "date",
    "date:weekday",
    "x",
  ]);
  const store = new MemoryStore();
  store.putBlob(datasourceBlobKey("ds"), table.columns);
  datasetBlobs.write(store, "before", {
    datasourceId: "ds",
    fields: table.fields,
    options,
    encoder: withoutParts(now).encoder,
  });
  assertEquals(
    loadEncoded(store, "before").encoder.features.map((f) => f.name),
    ["date", "date:weekday", "x"],
  );
  // The date column itself changed (here: no longer a date): refused.
  const changed = { ...table.columns, date: table.columns.date.map(() => "?") };
  store.putBlob(datasourceBlobKey("ds"), changed);
  assertThrows(() => loadEncoded(store, "before"), Error, "onboard it again");
});
