import { assert, assertAlmostEquals, assertEquals } from "@std/assert";
import { train, trainAsync } from "../src/local/model/ebm.ts";
import { encodeDataset } from "../src/local/model/encoding.ts";
import { explain, predict } from "../src/local/model/explain.ts";
import { ROW_SPLIT_ROWS, type RowSetup } from "../src/local/model/rows.ts";
import { workerBagHelper } from "../src/local/model/worker.ts";

/** A seeded binary table of `n` rows: two numeric features, a category, and an interaction. */
function table(n: number) {
  let seed = 12345;
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return seed / 2 ** 32;
  };
  const a: (number | null)[] = [],
    b: number[] = [],
    c: string[] = [],
    y: string[] = [];
  for (let i = 0; i < n; i++) {
    const x0 = rnd() * 4 - 2, x1 = rnd() * 4 - 2;
    const cat = ["u", "v", "w"][Math.floor(rnd() * 3)];
    const z = x0 - 0.5 * x1 * x1 + (cat === "u" ? 0.7 : 0) + x0 * x1 * 0.5;
    a.push(rnd() < 0.02 ? null : x0);
    b.push(x1);
    c.push(cat);
    y.push(rnd() < 1 / (1 + Math.exp(-z)) ? "yes" : "no");
  }
  const data = encodeDataset({ a, b, c, y }, [
    {
      name: "a",
      data_type: { data_type: "NUMBER" },
      designation: "FEATURE",
      semantic_type: "CONTINUOUS",
    },
    {
      name: "b",
      data_type: { data_type: "NUMBER" },
      designation: "FEATURE",
      semantic_type: "CONTINUOUS",
    },
    {
      name: "c",
      data_type: { data_type: "STRING" },
      designation: "FEATURE",
      semantic_type: "CATEGORICAL",
    },
    {
      name: "y",
      data_type: { data_type: "STRING" },
      designation: "TARGET",
      semantic_type: "CATEGORICAL",
    },
  ]);
  return {
    data,
    features: { a: a.slice(0, 500), b: b.slice(0, 500), c: c.slice(0, 500) },
  };
}

// 30,000 rows: 24,000 training rows, one bag (estimators 1), so every
// histogram is split; subsample 0.9 keeps each round's rows over the
// threshold and exercises the sampled path, 1 the every-row path.
const big = table(30_000);
const base = { estimators: 1, max_rounds: 40, max_interactions: 2 };

/** Trains with a row helper that counts its stages; `serve` false: the training thread builds every chunk. */
async function split(
  params: Record<string, number>,
  serve: boolean,
  data = big.data,
) {
  const helper = workerBagHelper(data, null, 2)!;
  let stages = 0;
  try {
    const model = await trainAsync(data, params, {
      search: false,
      helper: helper.run,
      rows: (setup: RowSetup) => {
        stages++;
        if (serve) helper.rows(setup);
      },
    });
    return { model, stages };
  } finally {
    helper.close();
  }
}

/** The split fit of subsample 0.9, kept for the explanations test (trained once). */
let sampledSplit: Awaited<ReturnType<typeof split>>["model"] | undefined;

for (const subsample of [1, 0.9]) {
  Deno.test(`rows: a split fit (subsample ${subsample}) is the same on every run, whichever thread builds which chunk`, async () => {
    assert(
      24_000 * subsample >= ROW_SPLIT_ROWS,
      "the table is large enough to split",
    );
    const params = { ...base, subsample };
    const a = await split(params, true);
    const b = await split(params, true);
    const alone = await split(params, false);
    if (subsample === 0.9) sampledSplit = a.model;
    assert(a.stages >= 2, `the main and pair stages were split (${a.stages})`);
    const json = JSON.stringify(a.model);
    assertEquals(JSON.stringify(b.model), json);
    assertEquals(JSON.stringify(alone.model), json);
    // Against one thread: the same terms, scores equal but for the order
    // the rows' sums were added in.
    const one = train(big.data, params, { search: false });
    assertEquals(
      a.model.terms.map((t) => t.features),
      one.terms.map((t) => t.features),
    );
    a.model.terms.forEach((t, j) =>
      t.scores.forEach((v, q) =>
        assertAlmostEquals(v, one.terms[j].scores[q], 1e-9)
      )
    );
  });
}

Deno.test("rows: a split model's explanations add up to its log-odds exactly", async () => {
  const model = sampledSplit ??
    (await split({ ...base, subsample: 0.9 }, true)).model;
  const p = predict(model, big.features);
  const e = explain(model, big.features, "yes");
  e.bias.forEach((bias, i) => {
    const logit = bias + e.contributions[i].reduce((s, x) => s + x, 0);
    const [p0, p1] = p.probabilities[i];
    assertAlmostEquals(logit, Math.log(p1 / p0), 1e-9);
  });
});

Deno.test("rows: a small table or several bags are not split", async () => {
  const small = table(2_000);
  assertEquals((await split({ max_rounds: 10 }, true, small.data)).stages, 0);
  // 24,000 training rows give several bags by default: the bag helper's work.
  assertEquals((await split({ max_rounds: 10 }, true)).stages, 0);
});
