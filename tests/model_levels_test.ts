/**
 * Categories with many rare levels (src/local/model/levels.ts and the
 * onboarding defaults): every level keeps a bin of its own, and boosting
 * shrinks each level's value toward the levels' mean by how much its rows
 * say, so the rare levels' noise is not learned (BENCHMARKS.md, "Table
 * kinds the benchmark lacks", `highcard`).
 */
import { assert } from "@std/assert";
import {
  encodeDataset,
  type OnboardingOptions,
} from "../src/local/model/encoding.ts";
import { rSquared, train } from "../src/local/model/ebm.ts";
import { predict } from "../src/local/model/explain.ts";
import { createRng } from "../src/local/model/rng.ts";
import { field, normal } from "./_helpers/generated.ts";

/**
 * A regression table of `n` rows: a category of `levels` levels with
 * Zipf-like frequencies (most levels a handful of rows) whose levels shift
 * the target by `effect` standard normals (0: the category is noise), and
 * two numbers with a linear and a sine effect, noise 1.
 */
function levelsTable(n: number, levels: number, effect: number, seed: number) {
  const rng = createRng(seed);
  const shift = Array.from({ length: levels }, () => effect * normal(rng));
  const weight = Array.from({ length: levels }, (_, l) => 1 / (l + 5));
  const total = weight.reduce((a, b) => a + b, 0);
  const cat: string[] = [],
    x: number[] = [],
    z: number[] = [],
    y: number[] = [];
  for (let i = 0; i < n; i++) {
    let u = rng() * total, l = 0;
    while (u > weight[l] && l < levels - 1) u -= weight[l++];
    const a = normal(rng), b = normal(rng);
    cat.push(`L${l}`);
    x.push(a);
    z.push(b);
    y.push(shift[l] + a + Math.sin(2 * b) + normal(rng));
  }
  return { cat, x, z, y };
}

/**
 * Test R² of a model trained on the first 80% of the rows (the columns but
 * `drop`), with the onboarding options given.
 */
function testR2(
  columns: Record<string, number[] | string[]>,
  onboarding: OnboardingOptions,
  drop: string[] = [],
): number {
  const names = Object.keys(columns).filter((c) => !drop.includes(c));
  const n = columns.y.length, nTrain = Math.floor(0.8 * n);
  const part = (from: number, to: number, without: string[] = []) =>
    Object.fromEntries(
      names.filter((c) => !without.includes(c)).map((c) => [
        c,
        columns[c].slice(from, to),
      ]),
    );
  const fields = names.map((c) =>
    c === "y"
      ? field(c, "number", "TARGET")
      : field(c, c === "cat" ? "category" : "number")
  );
  const model = train(
    encodeDataset(part(0, nTrain), fields, {
      ...onboarding,
      prediction_type: "REGRESSION",
    }),
    {},
  );
  const p = predict(model, part(nTrain, n, ["y"]));
  return rSquared(
    Float64Array.from(p.values!),
    Float64Array.from(columns.y.slice(nTrain) as number[]),
  );
}

Deno.test("levels: a category of 800 noise levels, each its own bin, costs the model little", () => {
  // Every level its own bin (threshold 0): without shrinkage the levels of
  // a few rows learned their noise, and the category cost 0.028 and 0.056
  // of the test R² the model had without it (with it: 0.001, 0.011).
  for (const seed of [1, 2]) {
    const t = levelsTable(2500, 800, 0, seed);
    const without = testR2(t, {}, ["cat"]);
    const withCat = testR2(t, { infrequency_threshold: 0 });
    assert(
      without - withCat < 0.025,
      `seed ${seed}: R² ${withCat} with the noise category, ${without} without`,
    );
  }
});

Deno.test("levels: the default onboarding keeps a many-level category's rare levels, whose effects the model then learns", () => {
  // The old defaults (a level under 0.5% of the rows, or beyond the 254
  // most frequent, went to "other") kept 30-odd of its levels.
  const t = levelsTable(3000, 1000, 1.5, 3);
  const old = testR2(t, {
    infrequency_threshold: 0.005,
    one_hot_encoding_max_categories: 254,
  });
  const now = testR2(t, {});
  const without = testR2(t, {}, ["cat"]);
  // The category's lift over the model without it grows by half at least
  // (here 0.20 -> 0.37).
  assert(
    now - without > 1.5 * (old - without),
    `R² ${now} with the defaults, ${old} with the old ones, ${without} without the category`,
  );
});
