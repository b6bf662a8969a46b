/**
 * Pairs that do not win the search's judged comparison significantly are
 * mixed in, not thrown away (mix.ts, search.ts `searchSteps`): the served
 * model is `w * pairs + (1 - w) * no pairs` in the link space, one additive
 * model whose explanations add up and whose metrics are its own.
 *
 * Our own models only: the searched model against the no-pairs model of the
 * same search (`max_interactions: 0`) on fresh rows of the same generator.
 */
import { assert, assertAlmostEquals, assertEquals } from "@std/assert";
import { train } from "../src/local/model/ebm.ts";
import {
  encodeDataset,
  type RawColumns,
  type SchemaField,
} from "../src/local/model/encoding.ts";
import { explain, predict } from "../src/local/model/explain.ts";
import { createRng } from "../src/local/model/rng.ts";
import type { EbmModel } from "../src/local/model/types.ts";

const FEATURES = ["x1", "x2", "x3", "x4", "x5", "x6"];

/**
 * `n` rows of six standard normals and a regression target: a sine in x1,
 * a slope in x2, and (with `pairs`) two weak products, 0.3 x3 x4 and
 * 0.25 x2 x5;
 * unit noise. Seeded.
 */
function generated(n: number, seed: number, pairs: boolean): RawColumns {
  const rng = createRng(seed);
  const z = () =>
    Math.sqrt(-2 * Math.log(Math.max(rng(), 1e-12))) *
    Math.cos(2 * Math.PI * rng());
  const x = Object.fromEntries(
    FEATURES.map((f) => [f, Array.from({ length: n }, z)]),
  );
  const y = x.x1.map((v, i) =>
    2 * Math.sin(v) + x.x2[i] +
    (pairs ? 0.3 * x.x3[i] * x.x4[i] + 0.25 * x.x2[i] * x.x5[i] : 0) + z()
  );
  return { ...x, y };
}

const fields: SchemaField[] = [
  ...FEATURES.map((name): SchemaField => ({
    name,
    data_type: { data_type: "NUMBER", format: null },
    designation: "FEATURE",
    semantic_type: "CONTINUOUS",
  })),
  {
    name: "y",
    data_type: { data_type: "NUMBER", format: null },
    designation: "TARGET",
    semantic_type: "CONTINUOUS",
  },
];

const encode = (c: RawColumns) =>
  encodeDataset(c, fields, { targets: ["y"], prediction_type: "REGRESSION" });

const query = (c: RawColumns): RawColumns =>
  Object.fromEntries(FEATURES.map((f) => [f, c[f]]));

/** Mean squared error of the model on `test`. */
function testError(m: EbmModel, test: RawColumns): number {
  const p = predict(m, query(test)).values!;
  const y = test.y as number[];
  return p.reduce((s, v, i) => s + (v - y[i]) ** 2, 0) / y.length;
}

/** The searched model and the no-pairs one on `train` rows, and their test errors. */
function compare(seed: number, pairs: boolean) {
  const rows = generated(600, seed, pairs);
  const test = generated(4_000, seed + 1_000, pairs);
  const data = encode(rows);
  const searched = train(data);
  const none = train(data, { max_interactions: 0 });
  return {
    searched,
    test,
    error: testError(searched, test),
    noneError: testError(none, test),
  };
}

/** Bias plus contributions is every row's prediction, within 1e-9. */
function assertExact(m: EbmModel, q: RawColumns): void {
  const e = explain(m, q);
  const p = predict(m, q).values!;
  e.bias.forEach((b, i) =>
    assertAlmostEquals(
      b + e.contributions[i].reduce((x, y) => x + y, 0),
      p[i],
      1e-9,
    )
  );
}

Deno.test("pairs mix: weak real pairs that do not win significantly are mixed in, and the test rows say they help", () => {
  // A seed where the paired test over the bags does not call the pairs
  // significant (the rule before mixing served the no-pairs model here; on
  // seeds 1-4 and 8 of this generator the pairs win significantly and serve
  // alone).
  const r = compare(7, true);
  const w = r.searched.metrics.pairsWeight!;
  assert(w > 0 && w < 1, `pairs weight ${w}`);
  const pairs = r.searched.terms.filter((t) => t.features.length === 2);
  assert(pairs.length > 0);
  assert(
    r.error < 0.95 * r.noneError,
    `mixed ${r.error} against no pairs ${r.noneError}`,
  );
  assertExact(r.searched, query(r.test));
});

Deno.test("pairs mix: on an additive table the mixture costs next to nothing against no pairs", () => {
  for (const seed of [3, 4]) {
    const r = compare(seed, false);
    const w = r.searched.metrics.pairsWeight!;
    assert(w >= 0 && w < 1, `pairs weight ${w}`);
    assert(
      r.error < 1.02 * r.noneError,
      `seed ${seed}: mixed ${r.error} against no pairs ${r.noneError}`,
    );
    assertExact(r.searched, query(r.test));
  }
});

Deno.test("pairs mix: the mixed model reports its own metrics: its predictions on the validation rows it names (one truth)", () => {
  const rows = generated(600, 7, true);
  const m = train(encode(rows));
  assert(m.metrics.pairsWeight! > 0 && m.metrics.pairsWeight! < 1);
  const va = m.validation!.rows!;
  assertEquals(va.length, m.metrics.validationRows);
  const pick = (c: RawColumns) =>
    Object.fromEntries(
      Object.entries(c).map(([k, v]) => [k, va.map((r) => v[r])]),
    );
  const p = predict(m, query(pick(rows))).values!;
  const y = va.map((r) => rows.y[r] as number);
  const mse = p.reduce((s, v, i) => s + (v - y[i]) ** 2, 0) / y.length;
  assertAlmostEquals(m.metrics.validationRmse!, Math.sqrt(mse), 1e-9);
});
