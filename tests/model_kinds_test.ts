/**
 * Kinds of table the public benchmark lacks (bench/model_kinds.ts), where
 * the model lost by a lot: each test fits a small generated table and
 * compares the model with a reference computed in the test.
 */
import { assert } from "@std/assert";
import {
  encodeDataset,
  type RawColumns,
  type SchemaField,
} from "../src/local/model/encoding.ts";
import { auc, rSquared, train } from "../src/local/model/ebm.ts";
import { predict } from "../src/local/model/explain.ts";
import { createRng } from "../src/local/model/rng.ts";
import { field, normal } from "./_helpers/generated.ts";

/**
 * Test R² (regression) or ROC AUC (binary) of a model trained on the first
 * `nTrain` rows of a table whose target is `y`.
 */
function testScore(
  columns: RawColumns,
  fields: SchemaField[],
  nTrain: number,
): number {
  const part = (from: number, to?: number) =>
    Object.fromEntries(
      Object.entries(columns).map(([k, v]) => [k, v.slice(from, to)]),
    );
  const regression = typeof columns.y[0] === "number";
  const model = train(
    encodeDataset(part(0, nTrain), fields, {
      prediction_type: regression ? "REGRESSION" : "CLASSIFICATION",
    }),
    {},
  );
  const test = part(nTrain);
  const truth = test.y;
  delete test.y;
  const p = predict(model, test);
  return regression
    ? rSquared(
      Float64Array.from(p.values!),
      Float64Array.from(truth as number[]),
    )
    : auc(
      Float64Array.from(p.probabilities, (q) => q[1]),
      Int32Array.from(truth, (t) => model.classes.indexOf(String(t))),
      1,
    );
}

/**
 * A table of `n` rows: a code of `levels` values whose effects (normal,
 * times `scale`) are unrelated to their order, one numeric feature and the
 * target `y` (`draw` maps the linear score to the target), with the code
 * column as numbers and as category names.
 */
function codeTable(
  seed: number,
  n: number,
  levels: number,
  scale: number,
  draw: (score: number, rng: () => number) => number | string,
) {
  const rng = createRng(seed);
  const effect = Array.from({ length: levels }, () => scale * normal(rng));
  const code: number[] = [], x: number[] = [], y: (number | string)[] = [];
  for (let i = 0; i < n; i++) {
    code.push(Math.floor(rng() * levels));
    x.push(normal(rng));
    y.push(draw(effect[code[i]] + x[i], rng));
  }
  const target = field(
    "y",
    typeof y[0] === "number" ? "number" : "category",
    "TARGET",
  );
  return {
    asNumber: testScore(
      { code, x, y },
      [field("code", "number"), field("x", "number"), target],
      Math.floor(n * 0.8),
    ),
    asCategory: testScore(
      { code: code.map((c) => `c${c}`), x, y },
      [field("code", "category"), field("x", "number"), target],
      Math.floor(n * 0.8),
    ),
    without: testScore(
      { x, y },
      [field("x", "number"), target],
      Math.floor(n * 0.8),
    ),
  };
}

Deno.test("kinds: an integer code read as a number (as schema inference types it) fits as well as the same column read as a category", () => {
  // 100 codes and a regression target: quantile bins (64) merged
  // neighbouring codes, test R² about 0.56 where the categorical reading
  // gets about 0.80.
  const { asNumber, asCategory } = codeTable(
    11,
    2_500,
    100,
    2,
    (s, rng) => s + normal(rng),
  );
  assert(
    asNumber >= asCategory - 0.02,
    `regression, code as a number: test R² ${asNumber}; as a category: ${asCategory}`,
  );
});

Deno.test("kinds: an integer code with a binary target, read as a number, adds most of what it adds read as a category", () => {
  // 150 codes and a binary target, through the classification path (the
  // refined linear start among the candidates): the code read as a number
  // gets at least three quarters of what reading it as a category adds to
  // a model without it (a third with 64 quantile bins, 84% with a bin a code;
  // a numeric reading splits the codes in contiguous runs, so less than all).
  const { asNumber, asCategory, without } = codeTable(
    12,
    4_000,
    150,
    1.5,
    (s, rng) => (rng() < 1 / (1 + Math.exp(-s)) ? "yes" : "no"),
  );
  assert(
    asNumber - without >= 0.75 * (asCategory - without),
    `binary, code as a number: test AUC ${asNumber}; as a category: ${asCategory}; without the code: ${without}`,
  );
});
