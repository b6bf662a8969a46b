import {
  assert,
  assertEquals,
  assertNotEquals,
  assertRejects,
  assertThrows,
} from "@std/assert";
import { train, trainAsync } from "../src/local/model/ebm.ts";
import { ModelDataError, ModelParamError } from "../src/local/model/errors.ts";
import { predict } from "../src/local/model/explain.ts";
import {
  DEFAULT_PARAMS,
  resolveParams,
  UNUSED_PARAMS,
  USED_PARAMS,
} from "../src/local/model/params.ts";
import { CHURN, everyNth, loadEncoded, PENGUINS } from "./_helpers/datasets.ts";

const churn = await loadEncoded(CHURN);
const penguins = await loadEncoded(PENGUINS);
/**
 * Every 10th churn row (705 rows, both classes, every column): for the tests
 * whose property does not depend on the table's size (determinism, progress,
 * limits, stopping), so they train in a fraction of a second. The accuracy
 * tests on the full tables are in model_accuracy_test.ts.
 */
const smallChurn = everyNth(churn, 10);

Deno.test("ebm: training is deterministic for a seed, and the seed matters with subsampling", () => {
  // Two bags: bagging's seeded draws are part of what must repeat.
  const p = { subsample: 0.7, max_rounds: 40, estimators: 2 };
  const a = JSON.stringify(train(smallChurn.data, p));
  assertEquals(JSON.stringify(train(smallChurn.data, p)), a);
  assertNotEquals(
    JSON.stringify(train(smallChurn.data, { ...p, seed: 3 })),
    a,
  );
});

Deno.test("ebm: the model survives a JSON round trip unchanged in its predictions", () => {
  // Two bags: a bagged model (with its spread) round-trips, at a quarter
  // of the default eight bags' CPU. Bins and pairs given: no inner search,
  // and pair terms in what must round-trip.
  const m = train(penguins.data, {
    max_rounds: 30,
    estimators: 2,
    bins: 64,
    max_interactions: 3,
  });
  const back = JSON.parse(JSON.stringify(m));
  assertEquals(predict(back, penguins.columns), predict(m, penguins.columns));
});

Deno.test("ebm: max_interaction_degree 1 and max_interactions limit the pair terms", () => {
  const p = { max_rounds: 30, estimators: 2 };
  const none = train(smallChurn.data, { ...p, max_interaction_degree: 1 });
  assertEquals(none.terms.filter((t) => t.features.length > 1).length, 0);
  const three = train(smallChurn.data, { ...p, max_interactions: 3 });
  assertEquals(three.terms.filter((t) => t.features.length > 1).length, 3);
});

Deno.test("ebm: without a validation split it runs max_rounds; with one it can stop early", () => {
  const m = train(penguins.data, {
    validation_size: 0,
    training_size: 1,
    max_rounds: 15,
    max_interactions: 0,
  });
  assertEquals([
    m.metrics.mainRounds,
    m.metrics.stopReason,
    m.metrics.validationAuc,
  ], [15, "max_rounds", null]);
  const e = train(smallChurn.data, {
    learning_rate: 1,
    early_stopping_patience: 2,
    max_interactions: 0,
    estimators: 2,
  });
  assertEquals(e.metrics.stopReason, "early_stopping");
  assert(e.metrics.mainRounds < DEFAULT_PARAMS.max_rounds);
});

Deno.test("ebm: progress goes from 0 to 1 in order with named stages", () => {
  const seen: [number, string][] = [];
  train(smallChurn.data, { max_rounds: 20, estimators: 2 }, {
    onProgress: (f, s) => seen.push([f, s]),
  });
  assertEquals(seen[0], [0, "binning"]);
  assertEquals(seen.at(-1), [1, "finalizing"]);
  for (let i = 1; i < seen.length; i++) {
    assert(seen[i][0] >= seen[i - 1][0], `progress went back at ${i}`);
  }
  const stages = new Set(seen.map((s) => s[1]));
  for (const s of ["training", "interactions", "training_pairs"]) {
    assert(stages.has(s), s);
  }
});

Deno.test("ebm: a reached deadline stops cleanly with the model so far", () => {
  const m = train(churn.data, {}, { maximumRuntimeSeconds: 0 });
  assertEquals(m.metrics.stopReason, "deadline");
  assertEquals(m.metrics.mainRounds, 1);
  assertEquals(m.terms.length, 19);
});

Deno.test("ebm: an abort signal stops training with its reason", async () => {
  const c = new AbortController();
  assertThrows(
    () =>
      train(smallChurn.data, {}, {
        onProgress: (f) => f > 0.1 && c.abort(new Error("stop now")),
        signal: c.signal,
      }),
    Error,
    "stop now",
  );
  const c2 = new AbortController();
  await assertRejects(
    () =>
      trainAsync(smallChurn.data, {}, {
        signal: c2.signal,
        onProgress: (f) => f > 0.1 && c2.abort(),
      }),
    DOMException,
  );
});

Deno.test("params: defaults, unused names and the documented unused list", () => {
  const { params, unused } = resolveParams({});
  assertEquals(params, { ...DEFAULT_PARAMS });
  assertEquals(unused, []);
  // estimators is the number of bags now, not an alias of max_rounds.
  const e = resolveParams({ estimators: 7 }).params;
  assertEquals([e.estimators, e.max_rounds], [7, DEFAULT_PARAMS.max_rounds]);
  const r = resolveParams({
    learning_rate: 0.2,
    l1_ratio: 0.3,
    sparse_model: true,
    max_polynomial_degree: 2,
    model_capabilities: {},
    foo: 1,
  });
  assertEquals(r.params.learning_rate, 0.2);
  assertEquals(r.unused.sort(), [
    "foo",
    "max_polynomial_degree",
    "model_capabilities",
  ]);
  // Every parameter is either used or listed unused with a reason.
  for (const name of Object.keys(DEFAULT_PARAMS)) {
    assert(
      USED_PARAMS.has(name as keyof typeof DEFAULT_PARAMS) !==
        Object.hasOwn(UNUSED_PARAMS, name),
      name,
    );
  }
  assertEquals(Object.keys(UNUSED_PARAMS).sort(), [
    "alpha_factor",
    "exclude_implicit",
    "l1_ratio_delta",
    "max_iterations",
    "max_polynomial_degree",
    "model_complexity_max_iterations",
    "model_complexity_patience",
  ]);
});

Deno.test("params: bad values are typed errors naming the parameter", () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ learning_rate: 0 }, "learning_rate"],
    [{ learning_rate: "fast" }, "learning_rate"],
    [{ bins: 1000 }, "bins"],
    [{ max_interaction_degree: 3 }, "max_interaction_degree"],
    [{ training_size: 0.9, validation_size: 0.2 }, "validation_size"],
    [{ binning_strategy: "KMEANS" }, "binning_strategy"],
    [{ max_depth: 1.5 }, "max_depth"],
    [{ l1_ratio: 1.5 }, "l1_ratio"],
    [{ learning_rate_decay: 0 }, "learning_rate_decay"],
    [{ estimators_winsorize_level: 0.6 }, "estimators_winsorize_level"],
    [{ bin_min_distance: -0.1 }, "bin_min_distance"],
    [{ estimators: 0 }, "estimators"],
    [{ max_samples: 0 }, "max_samples"],
    [{ prune_patience: -1 }, "prune_patience"],
    [{ partition_min_delta_fraction: 2 }, "partition_min_delta_fraction"],
  ];
  for (const [input, name] of cases) {
    const e = assertThrows(() => resolveParams(input), ModelParamError);
    assertEquals(e.column, name);
    assert(e.message.includes(name));
  }
});

Deno.test("ebm: UNIFORM binning and a tiny training split behave", () => {
  const u = train(penguins.data, {
    binning_strategy: "UNIFORM",
    bins: 8,
    max_rounds: 20,
    estimators: 2,
  });
  assert(
    u.features.filter((f) => f.kind === "numeric").every((f) => f.nBins <= 10),
  );
  assertThrows(
    () => train(penguins.data, { training_size: 0.001, validation_size: 0 }),
    ModelDataError,
    "training rows",
  );
});

Deno.test("ebm: pairs are purified, their row and column means moved into the main terms", () => {
  // Pairs asked for, so there are some to check whatever the search keeps.
  const m = train(smallChurn.data, { max_interactions: 4, estimators: 2 });
  const pairs = m.terms.filter((t) => t.features.length === 2);
  assert(pairs.length > 0);
  for (const t of pairs) {
    const P1 = m.features[t.features[1]].pairBins;
    const P0 = t.counts.length / P1;
    // Weighted mean of every row (first feature's coarse bin) and column.
    for (const axis of [0, 1]) {
      const n0 = axis === 0 ? P0 : P1, n1 = axis === 0 ? P1 : P0;
      for (let i = 0; i < n0; i++) {
        let w = 0, sum = 0;
        for (let j = 0; j < n1; j++) {
          const q = axis === 0 ? i * P1 + j : j * P1 + i;
          w += t.counts[q];
          sum += t.counts[q] * t.scores[q];
        }
        if (w > 0) {
          assert(Math.abs(sum / w) < 1e-3, `${t.name} ${axis}:${i} ${sum / w}`);
        }
      }
    }
  }
});
