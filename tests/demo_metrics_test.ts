/** The demo's honest hold-out split and its ROC AUC. */
import { assert, assertAlmostEquals, assertEquals } from "@std/assert";
import { rocAuc, stratifiedSplit } from "../scripts/demo.ts";

Deno.test("demo: the split is stratified, seeded and disjoint", () => {
  const rows = Array.from(
    { length: 1000 },
    (_, i) => [`id${i}`, i % 4 === 0 ? "Yes" : "No"],
  );
  const a = stratifiedSplit(rows, 1);
  const b = stratifiedSplit(rows, 1);
  assertEquals(a, b);
  assertEquals(a.test.length, 200);
  assertEquals(a.test.filter((r) => r[1] === "Yes").length, 50);
  const trainIds = new Set(a.train.map((r) => r[0]));
  assert(
    a.test.every((r) => !trainIds.has(r[0])),
    "held-out rows must not be in training",
  );
  assertEquals(trainIds.size + a.test.length, 1000);
});

Deno.test("demo: ROC AUC matches hand-computed values", () => {
  assertEquals(rocAuc([0.9, 0.8, 0.2, 0.1], [1, 1, 0, 0]), 1);
  assertEquals(rocAuc([0.1, 0.2, 0.8, 0.9], [1, 1, 0, 0]), 0);
  assertAlmostEquals(rocAuc([0.5, 0.5, 0.5, 0.5], [1, 0, 1, 0]), 0.5);
});
