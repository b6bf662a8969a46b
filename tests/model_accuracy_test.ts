/**
 * The model's accuracy with its defaults on the real tables: the tests whose
 * subject is the size and the spread of a real table, each model trained
 * once. Kept apart from model_ebm_test.ts so the fast loop
 * (`deno task test:fast`) can leave the long trainings out.
 */
import { assert, assertEquals, assertGreater } from "@std/assert";
import { train } from "../src/local/model/ebm.ts";
import { DEFAULT_PARAMS } from "../src/local/model/params.ts";
import { CHURN, loadEncoded, PENGUINS } from "./_helpers/datasets.ts";

const churn = await loadEncoded(CHURN);
const penguins = await loadEncoded(PENGUINS);

Deno.test("ebm: churn with defaults learns a useful binary model; given pairs are named pair terms", () => {
  const m = train(churn.data);
  assertEquals(m.classes, ["No", "Yes"]);
  assertEquals(m.scoreColumns, 1);
  assertGreater(m.metrics.validationAuc!, 0.8);
  // The search keeps pairs only when they win significantly (none here).
  const pairs = m.terms.filter((t) => t.features.length === 2);
  assert(pairs.length <= DEFAULT_PARAMS.max_interactions);
  assertEquals(m.terms.length, 19 + pairs.length);
  // Given pairs: their number and names are the subject here, the
  // defaults' accuracy is the model above's, so one bag (an eighth of the
  // CPU of a second default training) with the same bar.
  const given = train(churn.data, { max_interactions: 4, estimators: 1 });
  const givenPairs = given.terms.filter((t) => t.features.length === 2);
  assertEquals(givenPairs.length, 4);
  assert(givenPairs.every((t) => t.name.includes("*")));
  assertGreater(given.metrics.validationAuc!, 0.8);
});

Deno.test("ebm: penguins gives a 3-class softmax model", () => {
  const m = train(penguins.data);
  assertEquals(m.classes, ["Adelie", "Chinstrap", "Gentoo"]);
  assertEquals(m.scoreColumns, 3);
  assertEquals(m.intercept.length, 3);
  assertGreater(m.metrics.validationAccuracy!, 0.9);
  for (const t of m.terms) assertEquals(t.scores.length, t.counts.length * 3);
});
