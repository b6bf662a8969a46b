/**
 * The regression log link (issue 22, Build item 3): a positive target whose
 * log is additive is fitted on its log when the search's bags say so
 * (by the log of each bag's loss, any margin), also on a table beyond the
 * search's size, and served as `exp` of the score; an additive positive
 * target, or one with a value at or under 0, keeps the identity link.
 * Either way the model reports the metrics of what it serves, and its
 * explanations add up to the score (the prediction's log with the log link).
 */
import { assert, assertAlmostEquals, assertEquals } from "@std/assert";
import { encodeDataset } from "../src/local/model/encoding.ts";
import { explain, predict } from "../src/local/model/explain.ts";
import { train } from "../src/local/model/train.ts";
import { SELECTION_ROWS } from "../src/local/model/axes.ts";
import { createRng } from "../src/local/model/rng.ts";
import type { EbmModel } from "../src/local/model/types.ts";
import { field, normal } from "./_helpers/generated.ts";

/** `n` rows of x, z and a 5-level category; the target made by `y`. */
function table(
  seed: number,
  y: (a: number, b: number, level: number, e: number) => number,
  n = 1200,
) {
  const rng = createRng(seed);
  const cols = {
    x: [] as number[],
    z: [] as number[],
    cat: [] as string[],
    y: [] as number[],
  };
  for (let i = 0; i < n; i++) {
    const a = normal(rng), b = normal(rng);
    const level = Math.floor(rng() * 5);
    cols.x.push(a);
    cols.z.push(b);
    cols.cat.push(`c${level}`);
    cols.y.push(y(a, b, level, normal(rng)));
  }
  const data = encodeDataset(
    cols,
    [
      field("x", "number"),
      field("z", "number"),
      field("cat", "category"),
      field("y", "number", "TARGET"),
    ],
    { targets: ["y"], prediction_type: "REGRESSION" },
  );
  return { cols, data };
}

/** R² of the model's served predictions on its validation rows. */
function servedR2(model: EbmModel, cols: ReturnType<typeof table>["cols"]) {
  const rows = model.validation!.rows!;
  const pick = <T>(c: T[]) => rows.map((r) => c[r]);
  const p = predict(model, {
    x: pick(cols.x),
    z: pick(cols.z),
    cat: pick(cols.cat),
  })
    .values!;
  const y = pick(cols.y);
  const mean = y.reduce((a, b) => a + b, 0) / y.length;
  const sse = y.reduce((a, v, i) => a + (v - p[i]) ** 2, 0);
  const sst = y.reduce((a, v) => a + (v - mean) ** 2, 0);
  return 1 - sse / sst;
}

Deno.test("log link: a log-normal target is fitted on its log and served as exp(score); metrics are the served predictions'; explanations add up to the log", () => {
  const { cols, data } = table(
    6,
    (a, b, level, e) =>
      Math.exp(2 + 0.9 * a + 0.5 * Math.sin(2 * b) + 0.3 * level + 0.4 * e),
  );
  const model = train(data, {});
  assertEquals(model.link, "log");
  assertAlmostEquals(model.metrics.validationR2!, servedR2(model, cols), 1e-9);
  const e = explain(model, { x: [0.3, -1], z: [null, 2], cat: ["c1", "c4"] });
  e.values!.forEach((v, i) => {
    const sum = e.contributions[i].reduce((a, c) => a + c, e.bias[i]);
    assertAlmostEquals(sum, Math.log(v), 1e-9);
    assert(v > 0);
  });
});

Deno.test("log link: a table beyond the search's size still chooses its link, from two fits", () => {
  const { cols, data } = table(
    8,
    (a, b, level, e) =>
      Math.exp(1 + 0.8 * a + Math.sin(b) + 0.3 * level + 0.6 * e),
    SELECTION_ROWS * 1.5,
  );
  const model = train(data, {});
  assertEquals(model.link, "log");
  assertEquals(model.metrics.candidates, 2);
  assertAlmostEquals(model.metrics.validationR2!, servedR2(model, cols), 1e-9);
});

Deno.test("log link: an additive positive target keeps the identity link", () => {
  const { cols, data } = table(
    3,
    (a, b, level, e) => 40 + 5 * a + 4 * Math.sin(2 * b) + 2 * level + 2 * e,
  );
  const model = train(data, {});
  assertEquals(model.link, undefined);
  assertAlmostEquals(model.metrics.validationR2!, servedR2(model, cols), 1e-9);
});

Deno.test("log link: a target with a value at or under 0 is never fitted on its log", () => {
  const { data } = table(6, (a, b, level, e) => {
    const y = Math.exp(
      2 + 0.9 * a + 0.5 * Math.sin(2 * b) + 0.3 * level + 0.4 * e,
    );
    return a > 2.5 ? 0 : y;
  });
  assert(data.values!.some((v) => v === 0));
  assertEquals(train(data, {}).link, undefined);
});
