/**
 * Greedy rounds on wide tables (issue 22, items 4-5): where features are
 * many for the rows, a boosting round steps the main term whose step
 * promises the largest loss decrease instead of every feature; the search
 * tries it as a candidate on wide tables only, the same model for a seed,
 * in one thread and with the worker's helper.
 */
import { assert, assertAlmostEquals, assertEquals } from "@std/assert";
import { fitOnce } from "../src/local/model/bagging.ts";
import {
  encodeDataset,
  type SchemaField,
} from "../src/local/model/encoding.ts";
import { predict } from "../src/local/model/explain.ts";
import { resolveParams } from "../src/local/model/params.ts";
import { createRng } from "../src/local/model/rng.ts";
import { GREEDY_TERMS, selectionAxes } from "../src/local/model/axes.ts";
import { train } from "../src/local/model/train.ts";
import { trainInBackground } from "../src/local/model/worker.ts";
import type { EbmModel } from "../src/local/model/types.ts";
import { fieldsOf } from "./_helpers/datasets.ts";

const F = 200;

/**
 * `n` rows of `F` uniform numeric columns (seeded) and a binary target
 * whose log-odds are a sum over the first 5 columns (a line, a
 * step, a bump); the other columns are noise.
 */
function wideBinary(n: number, seed: number) {
  const rng = createRng(seed);
  const columns: Record<string, (number | string)[]> = {};
  for (let j = 0; j < F; j++) {
    columns[`x${j}`] = Array.from({ length: n }, () => rng() * 2 - 1);
  }
  const x = (j: number, i: number) => columns[`x${j}`][i] as number;
  columns.y = Array.from({ length: n }, (_, i) => {
    const logit = 1.5 * x(0, i) - 1.5 * x(1, i) + (x(2, i) > 0 ? 1.2 : -1.2) +
      2 * (x(3, i) ** 2 - 0.33) + x(4, i);
    return rng() < 1 / (1 + Math.exp(-logit)) ? "yes" : "no";
  });
  return columns;
}

// F numeric features and the categorical target `y`.
const fields: SchemaField[] = fieldsOf(
  [...Array.from({ length: F }, (_, j) => `x${j}`), "y"],
  { file: "", target: "y", strings: ["y"] },
);

const table = wideBinary(300, 11);
const data = encodeDataset(table, fields);
const test = wideBinary(3_000, 12);
const yTest = test.y.map((v) => v === "yes");
/** The test rows' ROC AUC: the share of (yes, no) pairs ranked right, ties half. */
const testAuc = (model: EbmModel) => {
  const yes = model.classes!.indexOf("yes");
  const p = predict(model, test).probabilities.map((q) => q[yes]);
  let right = 0, pairs = 0;
  for (let i = 0; i < p.length; i++) {
    if (!yTest[i]) continue;
    for (let j = 0; j < p.length; j++) {
      if (yTest[j]) continue;
      pairs++;
      right += p[i] > p[j] ? 1 : p[i] === p[j] ? 0.5 : 0;
    }
  }
  return right / pairs;
};

/** One configuration's fit (the search's default candidate), cyclic or greedy. */
function fitWith(greedy: number): EbmModel {
  const p = resolveParams({}).params;
  const steps = fitOnce(
    data,
    p,
    false,
    0,
    true,
    false,
    () => false,
    null,
    null,
    greedy,
  );
  let r = steps.next();
  while (!r.done) r = steps.next();
  return r.value.model!;
}

/** The cyclic fit's test AUC, fitted once for the tests that compare with it. */
let cyclicAuc: number | null = null;
const cyclicScore = () => cyclicAuc ??= testAuc(fitWith(0));

Deno.test("greedy: on 300 rows x 200 columns with signal in 5, greedy rounds beat cyclic ones on held-out rows", () => {
  const cyclic = cyclicScore();
  const greedy = testAuc(fitWith(GREEDY_TERMS));
  assert(greedy > cyclic, `greedy ${greedy} vs cyclic ${cyclic}`);
});

Deno.test("greedy: the search tries it on a wide table only", () => {
  const p = resolveParams({}).params;
  const nTrain = Math.round(p.training_size * data.nRows);
  const axes = selectionAxes(p, {}, nTrain, F, "binary");
  assertEquals(axes[0], { name: "greedy", values: [0, GREEDY_TERMS] });
  // 20 features on the same rows: not wide, the axes as before.
  const narrow = selectionAxes(p, {}, nTrain, 20, "binary");
  assert(!narrow.some((a) => a.name === "greedy"));
});

let searched: EbmModel | null = null;
const trained = () => searched ??= train(data);

Deno.test("greedy: the searched model on the wide table is better on held-out rows than the cyclic fit", () => {
  const model = trained();
  // One more candidate than the narrow search's.
  assert(model.metrics.candidates! >= 2, `${model.metrics.candidates}`);
  // The record says the search chose greedy rounds.
  assertEquals(model.metrics.greedyTerms, GREEDY_TERMS);
  const cyclic = cyclicScore();
  assert(testAuc(model) > cyclic, `${testAuc(model)} vs cyclic ${cyclic}`);
});

Deno.test("greedy: the searched model reports the log loss its predictions give on its validation rows", () => {
  // What it reports is what it serves, with greedy rounds too.
  const model = trained();
  const rows = model.validation!.rows!;
  assert(rows.length > 0);
  const query = Object.fromEntries(
    Object.entries(table).map(([c, v]) => [c, rows.map((r) => v[r])]),
  );
  const yes = model.classes!.indexOf("yes");
  const p = predict(model, query).probabilities.map((q) => q[yes]);
  const loss = -rows.reduce(
    (a, r, i) => a + Math.log(table.y[r] === "yes" ? p[i] : 1 - p[i]),
    0,
  ) / rows.length;
  assertAlmostEquals(model.metrics.validationLogLoss!, loss, 1e-9);
});

// Two trainings of the same data, one in this thread and one in the worker
// with its helper thread: equal models show the search with greedy rounds is
// deterministic too.
Deno.test("greedy: the model worker with its helper thread trains the same model as one thread", async () => {
  const background = await trainInBackground(data);
  assertEquals(JSON.stringify(background), JSON.stringify(trained()));
});
