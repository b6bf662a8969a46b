import {
  assert,
  assertAlmostEquals,
  assertEquals,
  assertThrows,
} from "@std/assert";
import { train } from "../src/local/model/ebm.ts";
import { encodeDataset, type RawColumns } from "../src/local/model/encoding.ts";
import { ModelDataError, ModelInputError } from "../src/local/model/errors.ts";
import {
  contributionTable,
  explain,
  predict,
} from "../src/local/model/explain.ts";
import {
  CONCRETE,
  everyNth,
  fieldsOf,
  loadDataset,
  SACRAMENTO,
  splitColumns,
  withoutColumn,
} from "./_helpers/datasets.ts";
import { assertRegressionRecord } from "./_helpers/models.ts";

const concrete = await loadDataset(CONCRETE);
const sacramento = await loadDataset(SACRAMENTO);

function fit(columns: RawColumns, spec = CONCRETE, params = {}) {
  const data = encodeDataset(columns, fieldsOf(Object.keys(columns), spec), {
    targets: [spec.target],
    prediction_type: "REGRESSION",
  });
  return { data, model: train(data, params) };
}

Deno.test("regression: onboarding keeps a numeric target as numbers, no classes", () => {
  const data = encodeDataset(concrete.columns, concrete.fields, {
    targets: [CONCRETE.target],
    prediction_type: "REGRESSION",
  });
  assertEquals(data.encoder.target.kind, "numeric");
  assertEquals(data.encoder.target.classes, []);
  assert(data.values instanceof Float64Array);
  assertEquals(data.values.length, data.nRows);
  assertEquals(data.values[0], 79.99);
  // Missing targets are dropped and counted.
  const cols = { x: [1, 2, 3, 4], y: [1.5, null, 2.5, 3] };
  const fields = fieldsOf(["x", "y"], {
    ...CONCRETE,
    target: "y",
    numeric: ["x", "y"],
  });
  const d = encodeDataset(cols, fields, {
    targets: ["y"],
    prediction_type: "REGRESSION",
  });
  assertEquals(d.nRows, 3);
  assertEquals(d.droppedRows, 1);
  assertEquals(Array.from(d.values!), [1.5, 2.5, 3]);
});

Deno.test("regression: a non-numeric target is refused naming the column", () => {
  const e = assertThrows(
    () =>
      encodeDataset(sacramento.columns, sacramento.fields, {
        targets: ["city"],
        prediction_type: "REGRESSION",
      }),
    ModelDataError,
  );
  assertEquals(e.column, "city");
  assert(e.message.includes("NUMBER"));
});

// The same model with the defaults, and its R² on the test rows, is
// model_accuracy_test's (full-table accuracy, left out of the fast loop);
// here the properties that hold for any fit: two bags, bins and three pairs
// given (no inner search), so the explanations cover pair terms too.
Deno.test("regression: concrete model is exact on a seeded 80/20 split", () => {
  const { train: tr, test } = splitColumns(concrete.columns, 0);
  const { model } = fit(tr, CONCRETE, {
    estimators: 2,
    bins: 64,
    max_interactions: 3,
  });
  assertRegressionRecord(model);
  assert(Number.isFinite(model.metrics.validationR2));
  const query = withoutColumn(test, CONCRETE.target);
  const p = predict(model, query);
  assertEquals(p.predicted, []);
  assertEquals(p.values!.length, test[CONCRETE.target].length);
  const e = explain(model, query);
  e.values!.forEach((v, i) => {
    const sum = e.bias[i] + e.contributions[i].reduce((a, b) => a + b, 0);
    assertAlmostEquals(sum, v, 1e-9);
    assertEquals(v, p.values![i]);
  });
});

Deno.test("regression: views table has prediction, bias and contributions adding up", () => {
  // Contributions adding up does not depend on the size or the bag count:
  // half the rows, two bags.
  const half = everyNth(sacramento, 2);
  const { model } = fit(half.columns, SACRAMENTO, { estimators: 2 });
  const query = withoutColumn(half.columns, "price");
  const t = contributionTable(model, query);
  assertEquals(t.columns.slice(0, 2), ["prediction.price", "bias"]);
  assert(t.columns.slice(2).every((c) => c.startsWith("contribution.")));
  for (const row of t.data) {
    const [pred, bias, ...contributions] = row as number[];
    assertAlmostEquals(
      bias + contributions.reduce((a, b) => a + b, 0),
      pred,
      1e-9 * Math.max(1, Math.abs(pred)),
    );
  }
  // The bias is the mean training prediction (terms centred).
  assert(Math.abs(t.data[0][1] as number - 234000) < 60000);
  assertThrows(
    () => contributionTable(model, query, { price: "Yes" }),
    ModelInputError,
    "regression",
  );
});

Deno.test("regression: training is deterministic for a seed and JSON round-trips", () => {
  // Determinism does not depend on the size: every 4th row, two bags (the
  // bags' seeded draws are part of what must repeat).
  const small = everyNth(concrete, 4);
  const p = { subsample: 0.7, estimators: 2 };
  const a = fit(small.columns, CONCRETE, { ...p, seed: 3 }).model;
  const b = fit(small.columns, CONCRETE, { ...p, seed: 3 }).model;
  assertEquals(JSON.stringify(a), JSON.stringify(b));
  const c = fit(small.columns, CONCRETE, { ...p, seed: 4 }).model;
  assert(JSON.stringify(a.terms) !== JSON.stringify(c.terms));
  const back = JSON.parse(JSON.stringify(a));
  const q = { ...small.features };
  assertEquals(predict(back, q).values, predict(a, q).values);
});
