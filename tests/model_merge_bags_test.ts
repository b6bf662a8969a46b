/**
 * Averaging the bags is averaging their models: without winsorizing, every
 * merged cell is the plain mean of the bags' cells, whatever the cells' row
 * counts and however far a term's mean per class is from 0. Dropping the
 * centres `mergeBags` takes out before averaging (issue 22's first fault:
 * a category that never meets a class puts that class's term mean far from
 * 0) fails it. And the bags' stop reason is the one of the bag whose
 * rounds the model reports (their most).
 */
import { assert, assertEquals } from "@std/assert";
import fc from "fast-check";
import { fitBag, fitStop } from "../src/local/model/booster.ts";
import { encodeDataset } from "../src/local/model/encoding.ts";
import { combineBags, mergeBags } from "../src/local/model/finalize.ts";
import { resolveParams } from "../src/local/model/params.ts";
import { prepare } from "../src/local/model/prepared.ts";
import { field } from "./_helpers/generated.ts";

Deno.test("mergeBags: each merged cell is the mean of the bags' cells (any rows per cell, any class means)", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 2, max: 8 }), // bags
      fc.integer({ min: 1, max: 5 }), // classes
      fc.integer({ min: 1, max: 6 }), // cells
      fc.integer({ min: 0, max: 1_000_000 }),
      (B, K, size, seed) => {
        let x = seed;
        const next =
          () => ((x = (x * 1103515245 + 12345) % 2147483648) / 2147483648);
        // Skewed cell counts; every cell's class scores offset per bag and class.
        const cells: number[] = [];
        for (let q = 0; q < size; q++) {
          for (let r = Math.floor(next() * 6); r >= 0; r--) cells.push(q);
        }
        const tables = Array.from({ length: B }, () => {
          const t = new Float64Array(size * K);
          for (let i = 0; i < t.length; i++) {
            t[i] = (next() - 0.3) * 8 - (i % K);
          }
          return t;
        });
        const { scores } = mergeBags(tables, cells, K, 0);
        for (let i = 0; i < scores.length; i++) {
          const mean = tables.reduce((a, t) => a + t[i], 0) / B;
          assert(
            Math.abs(scores[i] - mean) < 1e-9,
            `cell ${i}: ${scores[i]} vs ${mean}`,
          );
        }
      },
    ),
    { numRuns: 300 },
  );
});

/** Runs a training generator to its end. */
function run<R>(g: Generator<unknown, R, void>): R {
  let r = g.next();
  while (!r.done) r = g.next();
  return r.value;
}

Deno.test("combineBags: the stop reason is that of the bag with the most rounds, which the rounds report", () => {
  const x = Array.from({ length: 300 }, (_, i) => (i * 7919) % 300);
  const data = encodeDataset(
    { x, y: x.map((v, i) => (v + (i % 11) * 13 > 170 ? "hi" : "lo")) },
    [field("x", "number"), field("y", "category", "TARGET")],
  );
  const params = resolveParams({ max_rounds: 40, max_interactions: 0 })
    .params;
  const prep = run(prepare(data, params, false, 0, false));
  const stop = fitStop(() => false);
  const bags = [0, 1].map((b) => run(fitBag(prep, stop, b, null)));
  // Bag 0 stopped early; bag 1 ran to the cap.
  bags[0] = { ...bags[0], mainRounds: 12, mainStop: "early_stopping" };
  bags[1] = { ...bags[1], mainRounds: 40, mainStop: "max_rounds" };
  const { model } = run(combineBags(prep, stop, bags));
  assertEquals(model!.metrics.mainRounds, 40);
  assertEquals(model!.metrics.stopReason, "max_rounds");
  // And the other way round.
  bags[0] = { ...bags[0], mainRounds: 40, mainStop: "max_rounds" };
  bags[1] = { ...bags[1], mainRounds: 12, mainStop: "early_stopping" };
  assertEquals(
    run(combineBags(prep, stop, bags)).model!.metrics.stopReason,
    "max_rounds",
  );
});
