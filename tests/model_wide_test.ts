/**
 * Wide tables (issue 22, item 5): pairs are ranked among the features with
 * the largest main terms only (at most PAIR_FEATURES of them), by a scorer
 * that gives exactly fitPair's gain; a table with more columns than rows
 * trains with progress to the end, leaving out the columns it cannot use.
 */
import { assert, assertEquals } from "@std/assert";
import { fitPair } from "../src/local/model/boost.ts";
import { newHistogram } from "../src/local/model/histogram.ts";
import {
  encodeDataset,
  type SchemaField,
} from "../src/local/model/encoding.ts";
import {
  PAIR_FEATURES,
  pairScorer,
  rankPairs,
} from "../src/local/model/interactions.ts";
import { resolveParams } from "../src/local/model/params.ts";
import { prepare } from "../src/local/model/prepared.ts";
import { createRng } from "../src/local/model/rng.ts";
import { train } from "../src/local/model/train.ts";

const number = (name: string): SchemaField => ({
  name,
  data_type: { data_type: "NUMBER" },
  designation: "FEATURE",
  semantic_type: "CONTINUOUS",
});
const category = (name: string, target = false): SchemaField => ({
  name,
  data_type: { data_type: "STRING" },
  designation: target ? "TARGET" : "FEATURE",
  semantic_type: "CATEGORICAL",
});

Deno.test("wide: the pair scorer's gain is fitPair's, to the bit", () => {
  const rng = createRng(7);
  const score = pairScorer(13);
  for (let t = 0; t < 300; t++) {
    const K = t % 3 === 0 ? 3 : 1;
    const P0 = 2 + Math.floor(rng() * 12), P1 = 2 + Math.floor(rng() * 12);
    const hist = newHistogram(P0 * P1, K);
    for (let q = 0; q < P0 * P1; q++) {
      // Some empty cells, as a sparse pair has.
      hist.C[q] = rng() < 0.3 ? 0 : Math.floor(rng() * 30);
      for (let k = 0; k < K; k++) {
        hist.G[q * K + k] = hist.C[q] * (rng() - 0.5);
        hist.H[q * K + k] = hist.C[q] * 0.25;
      }
    }
    const minLeaf = [1, 5, 10][t % 3], lambda = [0, 1, 2][(t >> 1) % 3];
    for (let k = 0; k < K; k++) {
      const want = fitPair(
        hist,
        K,
        k,
        P0,
        P1,
        minLeaf,
        lambda,
        1,
        new Float64Array(P0 * P1),
      );
      const got = score(hist.G, hist.H, hist.C, K, k, P0, P1, minLeaf, lambda);
      assert(Object.is(got, want), `case ${t}, k ${k}: ${got} vs ${want}`);
    }
  }
});

/** `n` rows of `F` numeric columns (seeded), a target of x0, x1 and x0 * x2, plus an id and a constant column. */
function wideTable(n: number, F: number) {
  const rng = createRng(3);
  const columns: Record<string, (number | string)[]> = {};
  const fields: SchemaField[] = [];
  for (let j = 0; j < F; j++) {
    columns[`x${j}`] = Array.from({ length: n }, () => rng() * 2 - 1);
    fields.push(number(`x${j}`));
  }
  columns.id = Array.from({ length: n }, (_, i) => `id-${i}`);
  columns.same = Array.from({ length: n }, () => 1);
  fields.push(category("id"), number("same"), category("y", true));
  const x = (j: number, i: number) => columns[`x${j}`][i] as number;
  columns.y = Array.from({ length: n }, (_, i) => {
    const z = 2 * x(0, i) - 1.5 * x(1, i) + 3 * x(0, i) * x(2, i);
    return z + 0.5 * (rng() - 0.5) > 0 ? "yes" : "no";
  });
  return { columns, fields };
}

Deno.test("wide: pairs are ranked only among the PAIR_FEATURES features with the largest main terms", () => {
  const F = PAIR_FEATURES + 36;
  const { columns, fields } = wideTable(300, F);
  const data = encodeDataset(columns, fields);
  const p = resolveParams({}).params;
  const steps = prepare(data, p, false, 0, false);
  let r = steps.next();
  while (!r.done) r = steps.next();
  const prep = r.value;
  // Main terms: only the last PAIR_FEATURES features carry a score, so
  // the planted x0 * x2 pair is not among the ranked ones.
  const important = (j: number) => j >= F - PAIR_FEATURES;
  const terms = prep.features.map((f, j) => ({
    features: [j],
    scores: Float64Array.from(
      { length: f.nBins },
      (_, b) => important(j) ? 0.01 * ((b * (j + 1)) % 7) + 0.001 : 0,
    ),
  }));
  const ranking = rankPairs(
    prep.features,
    prep.overall,
    terms,
    prep.intercept,
    1,
    p.partition_min_samples,
    1,
    10_000,
    createRng(1),
    0,
    1,
  );
  let s = ranking.next();
  let yields = 0;
  while (!s.done) s = ranking.next(), yields++;
  const pairs = s.value;
  assertEquals(yields, PAIR_FEATURES);
  assert(
    pairs.length > 0 && pairs.length <= PAIR_FEATURES * (PAIR_FEATURES - 1) / 2,
  );
  for (const [a, c] of pairs) assert(important(a) && important(c) && a < c);
});

Deno.test("wide: 200 rows x 600 columns train with progress to the end; the id and the constant are dropped with a reason", () => {
  const { columns, fields } = wideTable(200, 600);
  const data = encodeDataset(columns, fields);
  assertEquals(
    data.encoder.dropped?.map((d) => d.name).sort(),
    ["id", "same"],
  );
  assert(data.encoder.dropped!.every((d) => d.reason.length > 0));
  const fractions: number[] = [];
  const stages = new Set<string>();
  // One bag: the wide table's own work (binning 600 columns, the search,
  // ranking pairs among the PAIR_FEATURES strongest features, boosting)
  // runs once instead of once per bag, a tenth of the CPU; progress across
  // several bags is model_ebm_test.ts's subject.
  const model = train(data, { estimators: 1 }, {
    onProgress: (f, stage) => {
      fractions.push(f);
      stages.add(stage);
    },
  });
  assert(fractions.length > 10);
  for (let i = 1; i < fractions.length; i++) {
    assert(fractions[i] >= fractions[i - 1], `progress went back at ${i}`);
  }
  assertEquals(fractions.at(-1), 1);
  assert(stages.has("training"));
  assertEquals(model.encoder.features.length, 600);
  const pairs = model.terms.filter((t) => t.features.length === 2);
  assert(pairs.length <= resolveParams({}).params.max_interactions);
  assert(
    model.metrics.validationAuc! > 0.6,
    `AUC ${model.metrics.validationAuc}`,
  );
});
