/**
 * Regression as users see it: a numeric target with many values is picked
 * as REGRESSION by inference, builders and `quickstart()` (and can be
 * overridden), the whole workflow runs through `local()` on concrete.csv,
 * the views answer `prediction.<target>`, `bias` and contributions that add
 * up exactly, the global explanation works, and the model card and charts
 * speak of numbers, not classes.
 */
import {
  assert,
  assertAlmostEquals,
  assertEquals,
  assertStringIncludes,
  assertThrows,
} from "@std/assert";
import { local } from "../local.ts";
import { parseCsv } from "../src/csv.ts";
import { offlinePlatform } from "./_helpers/offline.ts";
import { ValidationError } from "../src/http/errors.ts";
import { inferSchema } from "../src/infer/infer.ts";
import { predictionTypeOf } from "../src/builders/schema.ts";
import {
  explanationChart,
  isRegressionTable,
  predictedVsActualChart,
  regressionFit,
  residualChart,
  resourceCard,
  VEGALITE_MIME,
} from "../src/notebook/mod.ts";

const DATASETS = new URL("../datasets/", import.meta.url).pathname;
const TARGET = "compressive_strength";

/** concrete.csv as columns of numbers. */
async function concrete() {
  const { header, rows } = parseCsv(
    await Deno.readTextFile(`${DATASETS}concrete.csv`),
  );
  const columns: Record<string, number[]> = {};
  header.forEach((name, j) => (columns[name] = rows.map((r) => Number(r[j]))));
  return columns;
}

Deno.test("regression: inference picks REGRESSION for a numeric target with many values, CLASSIFICATION otherwise, and can be told", async () => {
  const rows = Array.from({ length: 60 }, (_, i) => ({
    x: i,
    price: 1000 + i * 37.5,
    rating: i % 5,
    flag: i % 2,
  }));
  const price = await inferSchema(rows, { target: "price" });
  assertEquals(price.predictionType, "REGRESSION");
  const field = price.fields.find((f) => f.name === "price")!;
  assertEquals([field.data_type.data_type, field.semantic_type], [
    "NUMBER",
    "CONTINUOUS",
  ]);
  assert(price.review.some((n) => n.field === "price"), "the pick is noted");
  // Few distinct integers, or 0/1: classes.
  assertEquals(
    (await inferSchema(rows, { target: "rating" })).predictionType,
    "CLASSIFICATION",
  );
  assertEquals(
    (await inferSchema(rows, { target: "flag" })).predictionType,
    "CLASSIFICATION",
  );
  // Overrides both ways.
  assertEquals(
    (await inferSchema(rows, {
      target: "price",
      predictionType: "CLASSIFICATION",
    }))
      .predictionType,
    "CLASSIFICATION",
  );
  assertEquals(
    (await inferSchema(rows, {
      target: "rating",
      predictionType: "REGRESSION",
    }))
      .predictionType,
    "REGRESSION",
  );
  // A text target cannot be regressed: refused naming the target.
  const error = await inferSchema([{ x: 1, y: "a" }, { x: 2, y: "b" }], {
    target: "y",
    predictionType: "REGRESSION",
  }).then(() => undefined, (e) => e);
  assert(error instanceof ValidationError);
  assertStringIncludes(error.message, '"y" holds text');
});

Deno.test("regression: the builders send prediction_type REGRESSION and a hand-built float target calls for it", () => {
  const ml = offlinePlatform().ml;
  const body = ml.onboardingConfiguration("o", {
    targets: ["price"],
    predictionType: "REGRESSION",
  }).body();
  assertEquals(body.prediction_type, "REGRESSION");
  assertThrows(
    () =>
      ml.onboardingConfiguration("o", {
        targets: ["price"],
        predictionType: "ORDINAL" as never,
      }).body(),
    ValidationError,
    "prediction_type",
  );
  const schema = ml.schema("houses").feature("beds", ml.integer()).target(
    "price",
    ml.float(),
  );
  assertEquals(schema.predictionType, "REGRESSION");
  assertEquals(
    ml.schema("h").feature("beds", ml.integer()).target("kind").predictionType,
    "CLASSIFICATION",
  );
  assertEquals(predictionTypeOf([]), "CLASSIFICATION");
});

Deno.test("regression: concrete.csv through local() with builders, exact explanations, metrics, explanation, card and charts", async () => {
  const data = await concrete();
  const ml = await local({ buckets: { data: DATASETS }, progress: false });
  try {
    const draft = await ml.inferSchema(`${DATASETS}concrete.csv`, {
      target: TARGET,
    });
    assertEquals(draft.predictionType, "REGRESSION");
    const schema = await draft.create();
    const storage = await ml.storageConnector("data", {
      name: "concrete-data",
    });
    const source = await ml.ingest("concrete.csv", { storage, schema });
    const dataset = await ml.onboard(source); // REGRESSION from the schema
    assertEquals(dataset.classes?.[TARGET], []);
    // Three bags: the subject is the workflow (concrete's accuracy with the
    // defaults is model_regression_test.ts's), the same bars met with room.
    const model = await ml.train(dataset, { randomSeed: 1, estimators: 3 });
    const metrics = model.metrics!;
    assert(metrics.validation_r2! > 0.85, `R² ${metrics.validation_r2}`);
    assert(metrics.validation_rmse! > 0 && metrics.validation_mae! > 0);
    assertEquals(metrics.validation_auc, null);

    const live = await ml.deploy(model);
    const features = Object.keys(data).filter((k) => k !== TARGET);
    const query = Object.fromEntries(features.map((f) => [f, data[f]]));
    const result = await live.views(query);
    const { columns } = result.table;
    assertEquals(columns[0], `prediction.${TARGET}`);
    assertEquals(columns[1], "bias");
    assert(!columns.some((c) => c.startsWith("probability.")));
    assert(columns.slice(2).every((c) => c.startsWith("contribution.")));
    assertEquals(result.length, data[TARGET].length);
    // bias + contributions = prediction, exactly (1e-9), on every row.
    for (const row of result.table.data) {
      const sum = (row.slice(1) as number[]).reduce((s, v) => s + v, 0);
      assertAlmostEquals(sum, row[0] as number, 1e-9);
    }
    const predictions = result.predictions();
    assert(predictions.every((p) => typeof p === "number"));
    const fit = result.fit(data[TARGET]);
    assertEquals(fit.rows, 1030);
    assert(fit.r2! > 0.9, `R² on all rows ${fit.r2}`);
    assertAlmostEquals(
      fit.rmse,
      regressionFit(data[TARGET], predictions).rmse,
      1e-12,
    );
    // rows() and the danfo conversion carry numbers.
    const first = result.rows()[0];
    assertEquals(typeof first[`prediction.${TARGET}`], "number");
    const frame = await result.toDataFrame();
    assertEquals(frame.shape, [1030, columns.length]);
    assertEquals(frame.columns[0], `prediction.${TARGET}`);

    // The global explanation speaks in the target's units.
    const explanation = await ml.models.explanation(model.id);
    assertEquals(explanation.classes, []);
    assertEquals(explanation.score_classes, [TARGET]);
    assertEquals(explanation.intercept.length, 1);
    assert(explanation.terms.every((t) => t.scores.length === 1));

    // The card shows R², RMSE, MAE and no classification metric.
    const card = resourceCard(model, { kind: "Model" });
    assertStringIncludes(card.text, "validation R²: 0.");
    assertStringIncludes(card.text, "validation RMSE: ");
    assertStringIncludes(card.text, "validation MAE: ");
    assertStringIncludes(card.text, `${TARGET}: a number (regression)`);
    assert(!card.text.includes("ROC AUC"), card.text);
    assert(!card.text.includes("log loss"), card.text);

    // Charts that fit: the waterfall ends at the prediction.
    assert(isRegressionTable(result.table));
    const chart = explanationChart(result.table, 0);
    assertStringIncludes(
      chart["text/plain"],
      `Row 0 - ${TARGET} = ${
        Number((predictions[0] as number).toPrecision(4))
      }: prediction `,
    );
    const waterfall = chart[VEGALITE_MIME];
    const steps =
      (waterfall.data as { values: { term: string; end: number }[] })
        .values;
    assertEquals(steps.at(-1)!.term, "prediction");
    assertAlmostEquals(steps.at(-1)!.end, predictions[0] as number, 1e-9);
    const scatter = result.predictedVsActualChart(data[TARGET]);
    assertStringIncludes(scatter["text/plain"], `actual ${TARGET}: 1030 rows`);
    const residuals = result.residualChart(data[TARGET]);
    assertStringIncludes(residuals["text/plain"], `Residuals of ${TARGET}`);
  } finally {
    await ml.close();
  }
});

Deno.test("regression: quickstart picks REGRESSION for concrete's strength", async () => {
  const ml = await local({ buckets: { data: DATASETS }, progress: false });
  try {
    const { schema, model, review } = await ml.quickstart({
      bucket: "data",
      path: "concrete.csv",
      target: TARGET,
      training: { maxRounds: 200, estimators: 2 },
    });
    const target = schema.fields.find((f) => f.name === TARGET)!;
    assertEquals(target.semantic_type, "CONTINUOUS");
    assert(
      review.some((n) => n.field === TARGET && /REGRESSION/.test(n.reason)),
    );
    assert(model.metrics!.validation_r2! > 0.8);
  } finally {
    await ml.close();
  }
});

Deno.test("regression charts: predicted vs actual and residuals skip missing values and refuse misaligned input", () => {
  const actual = [10, null, 30, 40];
  const predicted = [11, 20, 29, 42];
  const fit = regressionFit(actual, predicted);
  assertEquals(fit.rows, 3);
  assertAlmostEquals(fit.meanResidual, (-1 + 1 - 2) / 3, 1e-12);
  const points = (predictedVsActualChart(actual, predicted)[VEGALITE_MIME]
    .layer as { data: { values: { row: number }[] } }[])[0].data.values;
  assertEquals(points.map((p) => p.row), [0, 2, 3]);
  assertThrows(
    () => residualChart([1, 2], [1]),
    RangeError,
    "2 actual values but 1 predictions",
  );
  assertThrows(() => regressionFit([null], [1]), RangeError, "no row");
});
