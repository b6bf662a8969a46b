/**
 * Each training hyperparameter the local model uses has an effect that can
 * be seen on the model; these tests show each one (against the defaults) on
 * the churn and concrete tables.
 */
import {
  assert,
  assertAlmostEquals,
  assertEquals,
  assertGreater,
  assertLess,
  assertNotEquals,
} from "@std/assert";
import { train } from "../src/local/model/ebm.ts";
import { explain } from "../src/local/model/explain.ts";
import { globalExplanation } from "../src/local/model/shapes.ts";
import type { TrainingParams } from "../src/local/model/params.ts";
import type { EbmModel } from "../src/local/model/types.ts";
import { CHURN, CONCRETE, everyNth, loadEncoded } from "./_helpers/datasets.ts";

const churn = await loadEncoded(CHURN);
const concrete = await loadEncoded(CONCRETE);
const quick: Partial<TrainingParams> = {
  max_rounds: 60,
  max_interactions: 2,
  estimators: 1,
};
// One configuration (no inner-validation search), so two fits differ only
// by the hyperparameter under test.
const fit = (p: Partial<TrainingParams>, d = churn.data) =>
  train(d, { ...quick, ...p }, { search: false });
const base = fit({});
const mains = (m: EbmModel) => m.terms.filter((t) => t.features.length === 1);
const zeroCells = (m: EbmModel) =>
  mains(m).reduce((a, t) => a + t.scores.filter((x) => x === 0).length, 0);
const distinctSteps = (m: EbmModel) =>
  mains(m).reduce((a, t) => a + new Set(t.scores).size, 0);

// Bagging's effects do not depend on the row count: every 4th churn row
// (1,761) for the tests that fit four or five bags.
const small = everyNth(churn, 4);

Deno.test("hyperparameters: estimators bag the model, max_samples draws rows, spread is reported", () => {
  const one = fit({}, small.data);
  const bagged = fit({ estimators: 4 }, small.data);
  assertEquals(bagged.metrics.estimators, 4);
  assert(bagged.terms.every((t) => t.spread?.length === t.scores.length));
  assert(bagged.terms.some((t) => t.spread!.some((s) => s > 0)));
  assertEquals(one.metrics.estimators, 1);
  assert(one.terms.every((t) => t.spread === undefined));
  const g = globalExplanation(bagged);
  assert(g.terms.every((t) => t.spread?.length === t.scores.length));
  const drawn = fit({ max_samples: 0.5 }, small.data);
  assertNotEquals(JSON.stringify(drawn.terms), JSON.stringify(one.terms));
  // A count above 1 is a number of rows.
  const counted = fit({ max_samples: 1000 }, small.data);
  assertNotEquals(JSON.stringify(counted.terms), JSON.stringify(drawn.terms));
  // Explanations stay exact with bagging.
  const e = explain(bagged, small.features, "Yes");
  const p = explain(bagged, small.features).probabilities;
  e.bias.forEach((b, i) => {
    const sum = b + e.contributions[i].reduce((a, x) => a + x, 0);
    assertAlmostEquals(sum, Math.log(p[i][1] / p[i][0]), 1e-9);
  });
});

Deno.test("hyperparameters: estimators_winsorize_level clips the bags before averaging", () => {
  const mean = fit({ estimators: 5 }, small.data);
  const clipped = fit(
    { estimators: 5, estimators_winsorize_level: 0.2 },
    small.data,
  );
  assertNotEquals(JSON.stringify(clipped.terms), JSON.stringify(mean.terms));
  // Same bags, same spread: only the average differs.
  assertEquals(clipped.terms[0].spread, mean.terms[0].spread);
});

Deno.test("hyperparameters: l1_ratio turns alpha into an elastic net that zeroes weak cells", () => {
  const l2 = fit({ alpha: 20 });
  const l1 = fit({ alpha: 20, l1_ratio: 1 });
  assertGreater(zeroCells(l1), zeroCells(l2));
});

Deno.test("hyperparameters: partition_min_delta, _fraction and _factor demand gains of splits", () => {
  assertLess(
    distinctSteps(fit({ partition_min_delta: 5 })),
    distinctSteps(base),
  );
  assertLess(
    distinctSteps(fit({ partition_min_delta_fraction: 0.5 })),
    distinctSteps(base),
  );
  // The factor only applies to pairs: a huge one leaves them all zero.
  const noPairs = fit({
    partition_min_delta: 1,
    partition_min_delta_factor: 1e3,
  });
  const pairs = noPairs.terms.filter((t) => t.features.length === 2);
  assert(
    pairs.length > 0 && pairs.every((t) => t.scores.every((x) => x === 0)),
  );
});

Deno.test("hyperparameters: bin_min_distance merges narrow bins", () => {
  const wide = fit({ bin_min_distance: 0.1 });
  const tenure = (m: EbmModel) => m.features.find((f) => f.name === "tenure")!;
  assertLess(tenure(wide).nBins, tenure(base).nBins);
  // No remaining cut is closer than a tenth of the range to the previous one.
  const cuts = tenure(wide).cuts;
  for (let i = 1; i < cuts.length; i++) assert(cuts[i] - cuts[i - 1] >= 7.2);
});

Deno.test("hyperparameters: learning_rate_decay with learning_rate_patience shrinks steps on plateaus", () => {
  // A large rate overshoots soon: the plateaus come early.
  const p = {
    max_interactions: 0,
    early_stopping_patience: 30,
    learning_rate: 0.8,
  };
  const flat = fit(p);
  const decayed = fit({
    ...p,
    learning_rate_decay: 0.5,
    learning_rate_patience: 2,
  });
  assertNotEquals(JSON.stringify(decayed.terms), JSON.stringify(flat.terms));
  // Without patience the decay does nothing.
  const idle = fit({ ...p, learning_rate_decay: 0.5 });
  assertEquals(JSON.stringify(idle.terms), JSON.stringify(flat.terms));
});

Deno.test("hyperparameters: init_depth and max_depth_momentum grow the step tree over the rounds", () => {
  const p = { max_depth: 4, max_interactions: 0 };
  const deep = fit(p);
  const grown = fit({ ...p, init_depth: 1, max_depth_momentum: 10 });
  assertNotEquals(JSON.stringify(grown.terms), JSON.stringify(deep.terms));
  // momentum 0: init_depth has no effect.
  assertEquals(
    JSON.stringify(fit({ ...p, init_depth: 3 }).terms),
    JSON.stringify(deep.terms),
  );
});

Deno.test("hyperparameters: prune_threshold zeroes weak terms, sparse_model drops them, prune_patience stops boosting them", () => {
  const importance = new Map(
    globalExplanation(base).terms.map((t) => [t.name, t.importance]),
  );
  const threshold = [...importance.values()].sort((a, b) => a - b)[5];
  const pruned = fit({ prune_threshold: threshold });
  const weak = pruned.terms.filter((t) => importance.get(t.name)! < threshold);
  assert(weak.length >= 5);
  assert(weak.every((t) => t.scores.every((x) => x === 0)));
  assertEquals(pruned.terms.length, base.terms.length);
  const sparse = fit({ prune_threshold: threshold, sparse_model: true });
  assertEquals(sparse.terms.length, base.terms.length - weak.length);
  // Explanations of the sparse model stay exact: fewer contribution columns.
  const e = explain(sparse, churn.features, "Yes");
  assertEquals(e.terms.length, sparse.terms.length);
  const during = fit({ prune_threshold: threshold, prune_patience: 5 });
  assertNotEquals(JSON.stringify(during.terms), JSON.stringify(pruned.terms));
});

Deno.test("hyperparameters: regression bags and elastic net too", () => {
  // One configuration, like `fit`: the bags and the elastic net are the
  // subject, not the search.
  const m = train(concrete.data, { estimators: 3, l1_ratio: 0.5, alpha: 5 }, {
    search: false,
  });
  assertEquals(m.task, "regression");
  assertEquals(m.metrics.estimators, 3);
  assertGreater(m.metrics.validationR2!, 0.8);
});
