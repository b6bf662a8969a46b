/**
 * The model's inner-validation search (ebm.ts `selectionAxes`, `improves`)
 * and its linear start (linear.ts): what is searched when, that the choice is
 * deterministic for a seed, that a linear target gets the linear start, a
 * step target is still learnt, and that explanations stay exact either way.
 */
import { assert, assertAlmostEquals, assertEquals } from "@std/assert";
import {
  FEW_PAIRS,
  FEWEST_PAIRS,
  fitBags,
  improves,
  LINEAR_BINS,
  SELECTION_ROWS,
  selectionAxes,
  train,
} from "../src/local/model/ebm.ts";
import {
  encodeDataset,
  type RawColumns,
  type SchemaField,
} from "../src/local/model/encoding.ts";
import { explain, predict } from "../src/local/model/explain.ts";
import { linearStart, solveSpd } from "../src/local/model/linear.ts";
import { resolveParams } from "../src/local/model/params.ts";
import { createRng } from "../src/local/model/rng.ts";
import {
  trainInBackground,
  workerBagHelper,
} from "../src/local/model/worker.ts";
import type { EbmModel } from "../src/local/model/types.ts";
import { loadEncoded, PENGUINS, withoutColumn } from "./_helpers/datasets.ts";

const num = (name: string): SchemaField => ({
  name,
  data_type: { data_type: "NUMBER", format: null },
  designation: "FEATURE",
  semantic_type: "CONTINUOUS",
});
const cat = (name: string): SchemaField => ({
  name,
  data_type: { data_type: "STRING", format: null },
  designation: "FEATURE",
  semantic_type: "CATEGORICAL",
});

/** `n` rows of two numbers and a 20-level category, seeded. */
function table(n: number, seed: number) {
  const rng = createRng(seed);
  const a = Array.from({ length: n }, () => rng() * 10);
  const b = Array.from({ length: n }, () => rng() * 10);
  const c = Array.from({ length: n }, () => `c${Math.floor(rng() * 20)}`);
  const noise = Array.from({ length: n }, () => rng() - 0.5);
  return { a, b, c, noise };
}

/** The table's features with target `y` (a number for regression), onboarded. */
function onboard(t: ReturnType<typeof table>, y: (number | string)[]) {
  const regression = typeof y[0] === "number";
  const fields: SchemaField[] = [num("a"), num("b"), cat("c"), {
    name: "y",
    data_type: { data_type: regression ? "NUMBER" : "STRING", format: null },
    designation: "TARGET",
    semantic_type: regression ? "CONTINUOUS" : "CATEGORICAL",
  }];
  const columns: RawColumns = { a: t.a, b: t.b, c: t.c, y };
  return {
    columns,
    data: encodeDataset(columns, fields, {
      targets: ["y"],
      prediction_type: regression ? "REGRESSION" : "CLASSIFICATION",
    }),
  };
}

/** A regression target linear in `a` and `b` plus a category effect. */
function linearRegression(n: number, seed = 1) {
  const t = table(n, seed);
  const y = t.a.map((x, i) =>
    3 * x - 2 * t.b[i] + Number(t.c[i].slice(1)) / 4 + 2 * t.noise[i]
  );
  return onboard(t, y);
}

/** A binary target: logistic in `a` (linear) or a step in `a` (steps). */
function binary(n: number, shape: "linear" | "steps", seed = 2) {
  const t = table(n, seed);
  const rng = createRng(seed + 100);
  const y = t.a.map((x, i) => {
    const logit = shape === "linear"
      ? 0.8 * (x - 5) - 0.5 * (t.b[i] - 5)
      : (Math.floor(x) % 2 === 0 ? 3 : -3);
    return rng() < 1 / (1 + Math.exp(-logit)) ? "yes" : "no";
  });
  return onboard(t, y);
}

const features = (c: RawColumns): RawColumns => withoutColumn(c, "y");

/** Bias plus contributions is every row's log-odds of "yes", within 1e-9. */
function assertLogOddsExact(m: EbmModel, q: RawColumns): void {
  const e = explain(m, q, "yes");
  const p = predict(m, q);
  const yes = m.classes.indexOf("yes");
  e.bias.forEach((b, i) => {
    const logit = b + e.contributions[i].reduce((x, y) => x + y, 0);
    const p1 = p.probabilities[i][yes];
    assertAlmostEquals(logit, Math.log(p1 / (1 - p1)), 1e-9);
  });
}

Deno.test("selection: what is searched, by rows, given parameters and target", () => {
  const p = resolveParams({}).params;
  const values = (axes: ReturnType<typeof selectionAxes>) =>
    axes.map((a) => a.values.join("|")).join(",");
  assertEquals(
    values(selectionAxes(p, {}, 1_000, 8, "binary")),
    "false|true,false|true,16|64,10|3|28|0",
  );
  // Regression: the linear start, never refined (see LINEAR_BINS).
  assertEquals(
    values(selectionAxes(p, {}, 1_000, 8, "regression")),
    "false|true,false,16|64,10|3|28|0",
  );
  // Multi-class: the softmax linear start, refined or not (as binary);
  // three features: at most three pairs, or none.
  assertEquals(
    values(selectionAxes(p, {}, 1_000, 3, "multiclass")),
    "false|true,false|true,16|64,3|0",
  );
  // Four features, six pairs: all six, the fewest three or none.
  assertEquals(
    values(selectionAxes(p, {}, 1_000, 4, "multiclass")),
    `false|true,false|true,16|64,6|${FEWEST_PAIRS}|0`,
  );
  // Given parameters are not varied; given bins are the linear start's too.
  const given = { bins: 32, max_interactions: 5 };
  assertEquals(
    values(
      selectionAxes(resolveParams(given).params, given, 1_000, 8, "binary"),
    ),
    "false|true,false,32,5",
  );
  // Large data, or no validation rows: one candidate.
  assertEquals(
    values(selectionAxes(p, {}, SELECTION_ROWS + 1, 8, "binary")),
    `false,false,64,${FEW_PAIRS}`,
  );
  const noValidation = resolveParams({ validation_size: 0 }).params;
  assertEquals(
    values(selectionAxes(noValidation, {}, 1_000, 8, "binary")),
    `false,false,64,${FEW_PAIRS}`,
  );
});

Deno.test("selection: a more complex candidate must win significantly (paired t-test over the bags)", () => {
  // Clearly better on every bag.
  assert(improves([1, 1, 1, 1], [0.9, 0.91, 0.89, 0.9], true));
  // Better on average but within the noise of the bags: only a neutral change is taken.
  assert(!improves([1, 1, 1, 1], [0.6, 1.3, 0.9, 1.1], true));
  assert(improves([1, 1, 1, 1], [0.6, 1.3, 0.9, 1.1], false));
  // Worse, or unknown (no validation rows), never wins.
  assert(!improves([1, 1], [1.1, 1.2], false));
  assert(!improves([1, 1], [Infinity, 0], false));
});

Deno.test("selection: deterministic for a seed, and the search is recorded", () => {
  const { data } = linearRegression(600);
  const a = train(data, { estimators: 3, max_rounds: 200 });
  const b = train(data, { estimators: 3, max_rounds: 200 });
  assertEquals(JSON.stringify(a), JSON.stringify(b));
  // The linear start, the bins, no pairs (three features: every pair either
  // way) and, the linear start kept, the linear fit alone on the
  // candidate's bins and on LINEAR_BINS.
  assertEquals(a.metrics.candidates, 6);
  // The kept configuration is in the model's parameters.
  assert([16, 64].includes(a.params.bins));
  const one = train(data, { estimators: 3, max_rounds: 200 }, {
    search: false,
  });
  assertEquals(one.metrics.candidates, 1);
  assertEquals([one.params.bins, one.params.max_interactions], [64, 3]);
  assertEquals(one.metrics.linearStart, false);
});

Deno.test("selection: a linear regression target gets the linear start, explanations exact", () => {
  const { data, columns } = linearRegression(800);
  const m = train(data);
  assert(m.metrics.linearStart, "linear start kept");
  const q = features(columns);
  const e = explain(m, q);
  const p = predict(m, q);
  e.values!.forEach((v, i) => {
    const sum = e.bias[i] + e.contributions[i].reduce((x, y) => x + y, 0);
    assertAlmostEquals(sum, v, 1e-9);
    assertEquals(v, p.values![i]);
  });
  // The fit is good: the noise is uniform on [-1, 1] (variance 1/3).
  const y = columns.y as number[];
  const mse = p.values!.reduce((s, v, i) => s + (v - y[i]) ** 2, 0) / y.length;
  assert(mse < 1, `training MSE ${mse}`);
});

Deno.test("selection: a logistic target gets the linear start, log-odds exact; steps are still learnt", () => {
  const lin = binary(600, "linear");
  const m = train(lin.data);
  assert(m.metrics.linearStart, "linear start kept for a linear logit");
  assertLogOddsExact(m, features(lin.columns));
  // Steps no line can follow are still learnt (with or without the start,
  // whichever the held-out rows preferred): the Bayes AUC is about 0.95.
  const steps = train(binary(600, "steps").data);
  assert(steps.metrics.validationAuc! > 0.85, `${steps.metrics.validationAuc}`);
});

Deno.test("selection: multi-class (penguins) searches the softmax linear start, shapes and pairs; softmax logits exact", async () => {
  const { data, features: q } = await loadEncoded(PENGUINS);
  const m = train(data, { max_rounds: 100, estimators: 2 });
  // Penguins' species are nearly linear in the measurements.
  assertEquals(m.metrics.linearStart, true);
  // The linear start, the bins, then 3, 21 and no pairs against 10, and the
  // linear fit alone (judged with no pairs).
  assert(m.metrics.candidates! >= 6, `${m.metrics.candidates}`);
  const p = predict(m, q);
  const logit = m.classes.map((c) => {
    const e = explain(m, q, c);
    return e.bias.map((b, i) => b + e.contributions[i].reduce((x, y) => x + y));
  });
  p.probabilities.forEach((probs, i) => {
    const total = logit.reduce((s, l) => s + Math.exp(l[i]), 0);
    probs.forEach((v, k) =>
      assertAlmostEquals(Math.exp(logit[k][i]) / total, v, 1e-9)
    );
  });
});

Deno.test("selection: a multi-class search screens the axes before the pairs' without pairs; a binary one fits them with pairs", async () => {
  // Fits started (each bins first) before the first pair ranking.
  const fitsBeforePairs = (data: Parameters<typeof train>[0]) => {
    let fits = 0, ranked = false, last = "";
    train(data, { max_rounds: 60, estimators: 2 }, {
      onProgress: (_f, stage) => {
        if (stage === last) return;
        last = stage;
        if (stage === "interactions") ranked = true;
        if (stage === "binning" && !ranked) fits++;
      },
    });
    return fits;
  };
  const { data } = await loadEncoded(PENGUINS);
  // Penguins: no linear start, the linear start, refined, finer bins; then
  // the winner with its pairs.
  assertEquals(fitsBeforePairs(data), 5);
  // Binary: the first candidate ranks pairs in its first fit.
  assertEquals(fitsBeforePairs(binary(600, "steps").data), 1);
});

Deno.test("linear start: a softmax fit recovers known class slopes, in the model's table layout", () => {
  const n = 6_000;
  const rng = createRng(9);
  // Five numeric bins with mean values -2..2; class logits 0, 1.2 x, -1.2 x.
  const bins = Uint8Array.from({ length: n }, () => 1 + Math.floor(rng() * 5));
  const means = Float64Array.of(0, -2, -1, 0, 1, 2);
  const slopes = [0, 1.2, -1.2];
  const labels = Int32Array.from(bins, (b) => {
    const z = slopes.map((s) => Math.exp(s * means[b]));
    let u = rng() * z.reduce((x, y) => x + y);
    for (let k = 0; k < 3; k++) if ((u -= z[k]) <= 0) return k;
    return 2;
  });
  const start = linearStart({
    kinds: ["numeric"],
    nBins: [6],
    binMeans: [means],
    bins: [bins],
    target: {
      kind: "softmax",
      values: new Float64Array(0),
      labels,
      K: 3,
    },
    base: [0, 0, 0],
  })!;
  const t = start.tables[0];
  assertEquals(t.length, 6 * 3);
  // Differences between classes are what a softmax identifies.
  const slope = (k: number) =>
    ((t[5 * 3 + k] - t[5 * 3]) - (t[1 * 3 + k] - t[1 * 3])) / 4;
  assert(Math.abs(slope(1) - 1.2) < 0.15, `class 1 slope ${slope(1)}`);
  assert(Math.abs(slope(2) + 1.2) < 0.15, `class 2 slope ${slope(2)}`);
});

Deno.test("linear start: logistic fit recovers a known slope; the solver solves", () => {
  const n = 4_000;
  const rng = createRng(5);
  // Five numeric bins with mean values -2..2; logit = 1.5 * x.
  const bins = Uint8Array.from({ length: n }, () => 1 + Math.floor(rng() * 5));
  const means = Float64Array.of(0, -2, -1, 0, 1, 2);
  const labels = Int32Array.from(
    bins,
    (b) => rng() < 1 / (1 + Math.exp(-1.5 * means[b])) ? 1 : 0,
  );
  const start = linearStart({
    kinds: ["numeric"],
    nBins: [6],
    binMeans: [means],
    bins: [bins],
    target: { kind: "logistic", values: new Float64Array(0), labels },
    base: 0,
  })!;
  const t = start.tables[0];
  const slope = (t[5] - t[1]) / 4;
  assert(Math.abs(slope - 1.5) < 0.15, `slope ${slope}`);
  const x = solveSpd(Float64Array.of(2, 1, 1, 3), Float64Array.of(3, 5), 2)!;
  assertAlmostEquals(2 * x[0] + x[1], 3, 1e-12);
  assertAlmostEquals(x[0] + 3 * x[1], 5, 1e-12);
  assertEquals(
    solveSpd(Float64Array.of(1, 2, 2, 1), Float64Array.of(1, 1), 2),
    null,
  );
});

Deno.test("selection through the API: a training configuration that leaves bins and pairs unset gets the search, one that sets them does not", async () => {
  // The configuration used to store every default as if given, so training
  // through the platform never searched (and always boosted 30 pairs).
  const { local } = await import("../local.ts");
  const datasets = new URL("../datasets/", import.meta.url).pathname;
  const ml = await local({ buckets: { data: datasets }, progress: false });
  try {
    const searched = await ml.quickstart({
      bucket: "data",
      path: "concrete.csv",
      target: "compressive_strength",
      training: { maxRounds: 60, estimators: 2 },
    });
    assert(
      (searched.model.metrics?.candidates ?? 0) > 1,
      `candidates ${searched.model.metrics?.candidates}`,
    );
    const fixed = await ml.quickstart({
      bucket: "data",
      path: "concrete.csv",
      target: "compressive_strength",
      name: "concrete-fixed",
      training: { maxRounds: 60, estimators: 2, bins: 32, maxInteractions: 5 },
    });
    // Only the linear start is left to compare once bins and pairs are set.
    assert(
      (fixed.model.metrics?.candidates ?? 0) <
        (searched.model.metrics?.candidates ?? 0),
      `fixed ${fixed.model.metrics?.candidates}, searched ${searched.model.metrics?.candidates}`,
    );
  } finally {
    await ml.close();
  }
});

/**
 * Eight features x1..x8 of `n` rows from `draw` and labels drawn from the
 * logistic of `logit` (of a row's values), seeded, onboarded.
 */
function drawnTable(
  n: number,
  seed: number,
  draw: (rng: () => number) => number,
  logit: (x: (c: string) => number) => number,
) {
  const rng = createRng(seed);
  const names = Array.from({ length: 8 }, (_, j) => `x${j + 1}`);
  const columns: RawColumns = Object.fromEntries(
    names.map((c) => [c, Array.from({ length: n }, () => draw(rng))]),
  );
  columns.y = Array.from({ length: n }, (_, i) => {
    const z = logit((c) => columns[c][i] as number);
    return rng() < 1 / (1 + Math.exp(-z)) ? "yes" : "no";
  });
  const fields: SchemaField[] = [...names.map(num), cat("y")].map((f) =>
    f.name === "y" ? { ...f, designation: "TARGET" } : f
  );
  return { columns, data: encodeDataset(columns, fields, { targets: ["y"] }) };
}

/** Uniform features on [-1, 1]; the log-odds are a checkerboard of x1 and x2 plus a slope in x3. */
const checkerboard = (n: number, seed: number) =>
  drawnTable(
    n,
    seed,
    (rng) => 2 * rng() - 1,
    (x) => 3 * Math.sign(x("x1") * x("x2")) + 1.5 * x("x3"),
  );

Deno.test("selection: one real interaction among 28 possible pairs keeps the fewest pairs, the pair found and log-odds exact", () => {
  const { data, columns } = checkerboard(3_000, 11);
  const m = train(data);
  assertEquals(m.params.max_interactions, FEWEST_PAIRS);
  const pairs = m.terms.filter((t) => t.features.length === 2);
  assertEquals(pairs.length, FEWEST_PAIRS);
  const importance = (t: (typeof pairs)[number]) =>
    t.scores.reduce((s, v, q) => s + t.counts[q] * Math.abs(v), 0);
  const top = pairs.reduce((a, b) => importance(a) >= importance(b) ? a : b);
  assertEquals(top.name, "x1*x2");
  assertLogOddsExact(m, features(columns));
});

/** Standard normal features, log-odds linear in four of them (no interaction). */
const linearLogistic = (n: number, seed: number) =>
  drawnTable(
    n,
    seed,
    (rng) =>
      Math.sqrt(-2 * Math.log(Math.max(rng(), 1e-12))) *
      Math.cos(2 * Math.PI * rng()),
    (x) => 0.8 * x("x1") - 0.6 * x("x2") + 0.5 * x("x3") - 0.4 * x("x4"),
  );

Deno.test("selection: a target without interactions can keep no pairs (judged on rows that did not stop the fits), a given max_interactions wins, log-odds exact", () => {
  // Rows that stop a fit early favour its extra stages, so without the
  // judged comparison no pairs could never win (bench/model_small.ts).
  // Since pairs that do not win significantly are mixed in (mix.ts), no
  // pairs serve when every bag's judged rows prefer none (seed 3); on seed
  // 2 the bags disagree, and the pairs serve at a weight under 1.
  const { data, columns } = linearLogistic(1_500, 3);
  const m = train(data);
  assertEquals(m.params.max_interactions, 0);
  assertEquals(m.terms.filter((t) => t.features.length === 2).length, 0);
  assertEquals(m.metrics.pairsWeight, 0);
  assert(m.metrics.linearStart);
  assertLogOddsExact(m, features(columns));
  const disagree = linearLogistic(1_500, 2);
  const mixed = train(disagree.data);
  assert(mixed.metrics.pairsWeight! > 0 && mixed.metrics.pairsWeight! < 1);
  assertLogOddsExact(mixed, features(disagree.columns));
  // Two bags: were the given value searched, no pairs would win here as
  // above (with two bags pairs must win by t(0.95, 1) = 6.3 standard errors).
  const given = train(data, { max_interactions: 3, estimators: 2 });
  assertEquals(given.terms.filter((t) => t.features.length === 2).length, 3);
});

/** Log-normal (skewed) features, log-odds linear in the values of four of them (at most about 8, where a probability still carries them to 1e-9). */
const skewedLogistic = (n: number, seed: number) =>
  drawnTable(
    n,
    seed,
    (rng) =>
      Math.exp(
        0.75 * Math.sqrt(-2 * Math.log(Math.max(rng(), 1e-12))) *
          Math.cos(2 * Math.PI * rng()),
      ),
    (x) => 0.6 * x("x1") - 0.5 * x("x2") + 0.4 * x("x3") - 0.3 * x("x4"),
  );

/**
 * The two tables the worker test trains again, each trained once with the
 * defaults here and shared by the tests that read the model.
 */
const skewed = skewedLogistic(1_500, 3);
const linear5 = linearLogistic(1_500, 5);
let skewedModel: EbmModel | undefined, linear5Model: EbmModel | undefined;
const trainedSkewed = () => skewedModel ??= train(skewed.data);
const trainedLinear5 = () => linear5Model ??= train(linear5.data);

Deno.test("selection: a line in skewed values keeps the linear start refined, finer than the boosted bins, log-odds exact; a helper thread fits it the same", async () => {
  const { data, columns } = skewed;
  const m = trainedSkewed();
  assert(m.metrics.linearStart);
  assertEquals(m.metrics.linearBins, LINEAR_BINS);
  // Every numeric feature's bins are its boosted bins cut finer.
  const x1 = m.features[0];
  assert(
    x1.nBins > m.params.bins + 2,
    `${x1.nBins} bins for ${m.params.bins}`,
  );
  assertLogOddsExact(m, features(columns));
  // The refined line follows the values: x1's shape rises over its top
  // decile of bins (the tail a coarse bin would flatten).
  const top = m.terms[0].scores.slice(-Math.ceil(x1.nBins / 10));
  assert(top[top.length - 1] > top[0], `${top[0]} -> ${top.at(-1)}`);
  // Given bins are the linear start's too.
  const given = train(data, { bins: 16 });
  assertEquals(given.metrics.linearBins, undefined);
  assert(given.features.every((f) => f.nBins <= 18));
  // The same bags on a helper thread.
  const p = resolveParams({ max_rounds: 30 }).params;
  const task = () => {
    const claims = new Int32Array(new SharedArrayBuffer(8));
    claims[0] = 1;
    return {
      params: p,
      linear: true,
      linearBins: LINEAR_BINS,
      sharedPairs: true,
      judged: false,
      bags: 3,
      claims,
    };
  };
  const helper = workerBagHelper(data, null, 2);
  if (!helper) return;
  try {
    const there = await helper.run(task());
    assertEquals(there.map((r) => r.bag), [1, 2]);
    assertEquals(
      JSON.stringify(there),
      JSON.stringify(fitBags(data, task(), () => false)),
    );
    assert(there[0].terms[0].scores.length > (p.bins + 2));
  } finally {
    helper.close();
  }
});

Deno.test("selection: on a linear logit the linear fit alone can win the judged comparison: no rounds, no pairs, log-odds exact, max_rounds kept", () => {
  const { columns } = linear5;
  const m = trainedLinear5();
  assert(m.metrics.linearStart);
  assertEquals([m.metrics.mainRounds, m.metrics.pairRounds], [0, 0]);
  assertEquals(m.terms.filter((t) => t.features.length === 2).length, 0);
  assertEquals(m.params.max_rounds, 1000);
  assertEquals(m.metrics.stopReason, "early_stopping");
  assertLogOddsExact(m, features(columns));
  // A numeric shape of the linear fit alone is a line in its bins' mean
  // values: x1's scores rise with its bins (the logit's slope is +0.8).
  const x1 = m.terms[0].scores.slice(1);
  assert(x1.every((v, q) => q === 0 || v >= x1[q - 1]), "x1 rises");
  // Steps a line cannot follow still get their rounds.
  const steps = train(binary(1_500, "steps").data);
  assert(steps.metrics.mainRounds > 0);
});

Deno.test("selection: a regression target linear in its values is served as the linear fit alone drawn on LINEAR_BINS bins, predictions exact, closer to the line than the steps of its boosted bins", () => {
  const { data, columns } = linearRegression(1_500, 7);
  const m = train(data);
  assertEquals([m.metrics.mainRounds, m.metrics.pairRounds], [0, 0]);
  assertEquals(m.metrics.linearBins, LINEAR_BINS);
  assert(m.features[0].nBins > m.params.bins + 2, `${m.features[0].nBins}`);
  const q = features(columns);
  const e = explain(m, q), p = predict(m, q);
  e.values!.forEach((v, i) => {
    const sum = e.bias[i] + e.contributions[i].reduce((x, y) => x + y, 0);
    assertAlmostEquals(sum, v, 1e-9);
    assertEquals(v, p.values![i]);
  });
  // The same training with its bins given keeps the coarse steps (the line
  // alone is not drawn finer than given bins); the fine line fits the rows
  // better: the truth is a line plus noise of variance 1/3.
  const coarse = train(data, { bins: m.params.bins });
  assertEquals(coarse.metrics.linearBins, undefined);
  const y = columns.y as number[];
  const mse = (values: number[]) =>
    values.reduce((s, v, i) => s + (v - y[i]) ** 2, 0) / y.length;
  const fine = mse(p.values!), steps = mse(predict(coarse, q).values!);
  assert(fine < steps, `fine ${fine} against steps ${steps}`);
  assert(fine < 0.4, `fine ${fine}`);
});

Deno.test("selection: the model worker with its helper thread trains the same model as one thread, refined start and linear fit alone included", async () => {
  for (
    const [{ data }, trained] of [
      [skewed, trainedSkewed],
      [linear5, trainedLinear5],
    ] as const
  ) {
    // The one-thread model the tests above read (trained once for the file).
    const one = trained();
    const background = await trainInBackground(data);
    assertEquals(JSON.stringify(background), JSON.stringify(one));
  }
});
