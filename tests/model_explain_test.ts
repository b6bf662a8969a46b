import {
  assert,
  assertAlmostEquals,
  assertEquals,
  assertThrows,
} from "@std/assert";
import { train } from "../src/local/model/ebm.ts";
import type { RawColumns } from "../src/local/model/encoding.ts";
import { ModelInputError } from "../src/local/model/errors.ts";
import {
  contributionTable,
  explain,
  predict,
} from "../src/local/model/explain.ts";
import { globalExplanation } from "../src/local/model/shapes.ts";
import type { EbmModel } from "../src/local/model/types.ts";
import {
  CHURN,
  type DatasetSpec,
  loadEncoded,
  PENGUINS,
} from "./_helpers/datasets.ts";

// Two bags, 64 bins and three pairs given: explanations adding up and the
// known drivers do not depend on the bag count or on the inner search that
// would otherwise compare bins and pair counts (model_selection_test's
// subject; the accuracy of the defaults is model_accuracy_test's). Given
// pairs also put pair terms in the explanations that must add up.
async function load(spec: DatasetSpec) {
  const { features, data } = await loadEncoded(spec);
  return {
    features,
    model: train(data, { estimators: 2, bins: 64, max_interactions: 3 }),
  };
}

const churn = await load(CHURN);
const penguins = await load(PENGUINS);

/** Logit of each class per row, from explanations: bias + sum of contributions. */
function logits(model: EbmModel, features: RawColumns, cls: string): number[] {
  const e = explain(model, features, cls);
  assert(e.explainedClass.every((c) => c === cls));
  return e.bias.map((b, i) =>
    b + e.contributions[i].reduce((a, x) => a + x, 0)
  );
}

Deno.test("explain: churn (binary) explanations add up to each class's log-odds", () => {
  const { model, features } = churn;
  const p = predict(model, features);
  const yes = logits(model, features, "Yes"),
    no = logits(model, features, "No");
  for (let i = 0; i < p.probabilities.length; i++) {
    const [p0, p1] = p.probabilities[i];
    assertAlmostEquals(p0 + p1, 1, 1e-12);
    assertAlmostEquals(yes[i], -no[i], 1e-9);
    assertAlmostEquals(yes[i], Math.log(p1 / p0), 1e-9);
    assertAlmostEquals(1 / (1 + Math.exp(-yes[i])), p1, 1e-12);
  }
  // Default explained class = predicted class, with its log-odds.
  const d = explain(model, features);
  assertEquals(d.explainedClass, p.predicted);
  d.bias.forEach((b, i) => {
    const sum = b + d.contributions[i].reduce((a, x) => a + x, 0);
    assertAlmostEquals(
      sum,
      d.explainedClass[i] === "Yes" ? yes[i] : no[i],
      1e-9,
    );
  });
});

Deno.test("explain: penguins (3 classes) explanations add up to the softmax logits", () => {
  const { model, features } = penguins;
  const p = predict(model, features);
  const byClass = model.classes.map((c) => logits(model, features, c));
  for (let i = 0; i < p.probabilities.length; i++) {
    const z = byClass.map((l) => Math.exp(l[i]));
    const total = z.reduce((a, b) => a + b, 0);
    assertAlmostEquals(p.probabilities[i].reduce((a, b) => a + b, 0), 1, 1e-12);
    model.classes.forEach((_, k) =>
      assertAlmostEquals(z[k] / total, p.probabilities[i][k], 1e-12)
    );
  }
});

Deno.test("contributionTable: columns in order, rows aligned, per-row explained classes", () => {
  const { model, features } = penguins;
  const query = Object.fromEntries(
    Object.entries(features).map(([k, v]) => [k, v.slice(0, 3)]),
  );
  const t = contributionTable(model, query, {
    species: ["Adelie", "Gentoo", "Chinstrap"],
  });
  const terms = model.terms.map((x) => `contribution.${x.name}`);
  assertEquals(t.columns, [
    "prediction.species",
    "probability.species.Adelie",
    "probability.species.Chinstrap",
    "probability.species.Gentoo",
    "bias",
    ...terms,
  ]);
  assertEquals(t.index, [0, 1, 2]);
  const expected = [
    logits(model, query, "Adelie")[0],
    logits(model, query, "Gentoo")[1],
    logits(model, query, "Chinstrap")[2],
  ];
  t.data.forEach((row, i) => {
    assertEquals(row.length, t.columns.length);
    const sum = (row.slice(4) as number[]).reduce((a, b) => a + b, 0);
    assertAlmostEquals(sum, expected[i], 1e-9);
  });
  // One value for all rows; and no targets = the predicted class.
  const one = contributionTable(model, query, { species: "Gentoo" });
  assertAlmostEquals(
    one.data[0][4] as number,
    explain(model, query, "Gentoo").bias[0],
    0,
  );
  assertEquals(
    contributionTable(model, query).data.map((r) => r[0]),
    predict(model, query).predicted,
  );
});

Deno.test("contributionTable: churn query with a missing value and an unseen category", () => {
  const { model, features } = churn;
  const query = Object.fromEntries(
    Object.entries(features).map(([k, v]) => [k, [v[0]]]),
  );
  query.total_charges = [null];
  query.payment_method = ["Bitcoin"];
  const t = contributionTable(model, query, { churn: "Yes" });
  const row = t.data[0];
  const p1 = row[2] as number;
  const sum = (row.slice(3) as number[]).reduce((a, b) => a + b, 0);
  assertAlmostEquals(sum, Math.log(p1 / (1 - p1)), 1e-9);
});

Deno.test("explain: bad inputs give typed errors naming the column", () => {
  const { model, features } = churn;
  const one = Object.fromEntries(
    Object.entries(features).map(([k, v]) => [k, v.slice(0, 2)]),
  );
  const cases: [() => unknown, string | null, string][] = [
    [
      () => contributionTable(model, { ...one, colour: ["red", "blue"] }),
      "colour",
      "UNKNOWN_FEATURE",
    ],
    [
      () => contributionTable(model, { ...one, tenure: [1] }),
      "tenure",
      "LENGTH_MISMATCH",
    ],
    [
      () => contributionTable(model, { ...one, tenure: ["one", "two"] }),
      "tenure",
      "BAD_NUMBER",
    ],
    [
      () => contributionTable(model, { ...one, contract: [true, false] }),
      "contract",
      "BAD_TYPE",
    ],
    [
      () => contributionTable(model, one, { churn: "Maybe" }),
      "churn",
      "UNKNOWN_CLASS",
    ],
    [
      () => contributionTable(model, one, { churn: ["Yes", "No", "Yes"] }),
      "churn",
      "LENGTH_MISMATCH",
    ],
    [
      () => contributionTable(model, one, { species: "Adelie" }),
      "species",
      "UNKNOWN_TARGET",
    ],
    [
      () => contributionTable(model, one, { churn: { a: 1 } }),
      "churn",
      "BAD_TYPE",
    ],
    [
      () =>
        contributionTable(
          model,
          Object.fromEntries(Object.entries(one).slice(1)),
        ),
      "female",
      "FEATURE_MISSING",
    ],
    [
      () => contributionTable(model, [] as unknown as Record<string, unknown>),
      null,
      "BAD_QUERY",
    ],
  ];
  for (const [fn, column, code] of cases) {
    const e = assertThrows(fn, ModelInputError);
    assertEquals([e.column, e.code], [column, code], e.message);
    if (column) assert(e.message.includes(column), e.message);
  }
});

Deno.test("globalExplanation: importances sorted, shapes labelled, churn's known drivers on top", () => {
  const g = globalExplanation(churn.model);
  assertEquals(g.terms.length, churn.model.terms.length);
  for (let i = 1; i < g.terms.length; i++) {
    assert(g.terms[i - 1].importance >= g.terms[i].importance);
  }
  const top = g.terms.slice(0, 5).map((t) => t.name);
  assert(top.includes("contract") || top.includes("tenure"), top.join());
  for (const t of g.terms) {
    const cells = t.labels.reduce((a, l) => a * l.length, 1);
    assertEquals(t.scores.length, cells, t.name);
    assert(t.scores.every((s) => s.length === 1));
  }
  const contract = g.terms.find((t) => t.name === "contract")!;
  assertEquals(contract.labels[0], [
    "missing",
    "Month-to-month",
    "Two year",
    "One year",
    "other",
  ]);
  const tenure = g.terms.find((t) => t.name === "tenure")!;
  assert(
    tenure.labels[0][1].startsWith("[0,") ||
      tenure.labels[0][1].startsWith("[1,"),
    tenure.labels[0][1],
  );
  const pg = globalExplanation(penguins.model);
  assert(pg.terms.every((t) => t.scores.every((s) => s.length === 3)));
});
