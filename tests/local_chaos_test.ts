/**
 * The chaos run in CI (a few seeds; `deno task chaos` runs 100): the whole
 * workflow over HTTP under 500s, 429s, 202s, lost answers, slow calls,
 * latency and 3 s tokens finishes, answers views byte-identically to a
 * fault-free run, and makes every resource exactly once.
 */
import { assertEquals } from "@std/assert";
import { chaosFigure, figureLine } from "../scripts/chaos.ts";

Deno.test("local chaos: seeded runs under faults finish with identical views and no duplicate resource", async () => {
  // One bag and 20 rounds: what is checked (identical views, every
  // resource once) does not depend on the model's size, only on training
  // being the same in every run. A run still outlasts its 3 s tokens: its
  // length is the faults' latency and slow calls, not training.
  const figure = await chaosFigure([1, 2, 3], {
    concurrency: 3,
    training: { estimators: 1, maxRounds: 20 },
  });
  assertEquals(figure.failures, [], figureLine(figure));
  assertEquals(figure.finished, 3);
  assertEquals(figure.identical, 3);
  assertEquals(figure.countMismatches, 0);
  assertEquals(figure.duplicates, 0);
});
