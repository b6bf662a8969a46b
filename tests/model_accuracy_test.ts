/**
 * The model's accuracy with its defaults on the real tables: the tests whose
 * subject is the size and the spread of a real table, each model trained
 * once. Kept apart from model_ebm_test.ts so the fast loop
 * (`deno task test:fast`) can leave the long trainings out.
 */
import {
  assert,
  assertAlmostEquals,
  assertEquals,
  assertGreater,
} from "@std/assert";
import { rSquared, train } from "../src/local/model/ebm.ts";
import { encodeDataset } from "../src/local/model/encoding.ts";
import { explain, predict } from "../src/local/model/explain.ts";
import { DEFAULT_PARAMS } from "../src/local/model/params.ts";
import {
  CHURN,
  CONCRETE,
  fieldsOf,
  loadDataset,
  loadEncoded,
  PENGUINS,
  splitColumns,
  withoutColumn,
} from "./_helpers/datasets.ts";
import { assertRegressionRecord } from "./_helpers/models.ts";

const churn = await loadEncoded(CHURN);
const penguins = await loadEncoded(PENGUINS);
const concrete = await loadDataset(CONCRETE);

Deno.test("ebm: churn with defaults learns a useful binary model; given pairs are named pair terms", () => {
  const m = train(churn.data);
  assertEquals(m.classes, ["No", "Yes"]);
  assertEquals(m.scoreColumns, 1);
  assertGreater(m.metrics.validationAuc!, 0.8);
  // The search keeps pairs only when they win significantly (none here).
  const pairs = m.terms.filter((t) => t.features.length === 2);
  assert(pairs.length <= DEFAULT_PARAMS.max_interactions);
  assertEquals(m.terms.length, 19 + pairs.length);
  // Given pairs: their number and names are the subject here, the
  // defaults' accuracy is the model above's, so one bag (an eighth of the
  // CPU of a second default training) with the same bar.
  const given = train(churn.data, { max_interactions: 4, estimators: 1 });
  const givenPairs = given.terms.filter((t) => t.features.length === 2);
  assertEquals(givenPairs.length, 4);
  assert(givenPairs.every((t) => t.name.includes("*")));
  assertGreater(given.metrics.validationAuc!, 0.8);
});

Deno.test("ebm: penguins gives a 3-class softmax model", () => {
  const m = train(penguins.data);
  assertEquals(m.classes, ["Adelie", "Chinstrap", "Gentoo"]);
  assertEquals(m.scoreColumns, 3);
  assertEquals(m.intercept.length, 3);
  assertGreater(m.metrics.validationAccuracy!, 0.9);
  for (const t of m.terms) assertEquals(t.scores.length, t.counts.length * 3);
});

Deno.test("regression: concrete with defaults is exact, R² sound on a seeded 80/20 split", () => {
  const { train: tr, test } = splitColumns(concrete.columns, 0);
  const data = encodeDataset(tr, fieldsOf(Object.keys(tr), CONCRETE), {
    targets: [CONCRETE.target],
    prediction_type: "REGRESSION",
  });
  const model = train(data);
  assertRegressionRecord(model);
  assert(model.metrics.validationR2! > 0.8, `${model.metrics.validationR2}`);
  const query = withoutColumn(test, CONCRETE.target);
  const p = predict(model, query);
  assertEquals(p.predicted, []);
  const y = Float64Array.from(test[CONCRETE.target] as number[]);
  const r2 = rSquared(Float64Array.from(p.values!), y);
  // A sanity bound far below the HGB/XGBoost anchors (0.94), not a benchmark.
  assert(r2 > 0.85, `test R² ${r2}`);
  const e = explain(model, query);
  e.values!.forEach((v, i) => {
    const sum = e.bias[i] + e.contributions[i].reduce((a, b) => a + b, 0);
    assertAlmostEquals(sum, v, 1e-9);
    assertEquals(v, p.values![i]);
  });
});
