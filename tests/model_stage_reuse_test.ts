/**
 * The search's fits share their bags' main stages and pair rankings
 * (`StageReuse`, booster.ts): a fit that starts from what an earlier fit of
 * the same key kept gives exactly the fit from scratch (bit for bit: the
 * models and every bag's held-out loss), with the linear start or without,
 * judged or not, shared pairs or each bag its own, and with rounds on
 * sampled rows (so the random draws a reused main stage took count); the
 * fits with the same bins share one binning, and the fits of one bag on
 * them its linear start (judged or not, and the linear fit alone).
 */
import { assertEquals } from "@std/assert";
import {
  type BagResult,
  fitOnce,
  newStageReuse,
} from "../src/local/model/bagging.ts";
import type { Step } from "../src/local/model/bagging.ts";
import type { EncodedDataset } from "../src/local/model/encoding.ts";
import { threeClassTable } from "./_helpers/generated.ts";
import type { Fitted } from "../src/local/model/finalize.ts";
import { resolveParams } from "../src/local/model/params.ts";

/** One fit of a candidate, with the given reuse (null: from scratch). */
function fit(
  data: EncodedDataset,
  pairs: number,
  linear: boolean,
  sharedPairs: boolean,
  judged: boolean,
  reuse: ReturnType<typeof newStageReuse> | null,
  rounds = 80,
): Fitted {
  const p = {
    ...resolveParams({ max_rounds: 80, subsample: 0.7, estimators: 3 })
      .params,
    // 0: the linear fit alone (the search sets it so, past the parameters' check).
    max_rounds: rounds,
    max_interactions: pairs,
  };
  const steps = fitOnce(
    data,
    p,
    linear,
    0,
    sharedPairs,
    judged,
    () => false,
    null,
    null,
    0,
    reuse,
  );
  let r: IteratorResult<Step, Fitted> = steps.next();
  while (!r.done) r = steps.next(undefined as BagResult[] | undefined);
  return r.value;
}

Deno.test("stage reuse: every fit after the first of a key is the fit from scratch, bit for bit", () => {
  const data = threeClassTable(500, 3);
  for (const linear of [false, true]) {
    const reuse = newStageReuse();
    // The search's order: many pairs, then fewer, more, none (judged), the
    // linear fit alone (no rounds, judged), and the chosen one again with
    // shared pairs.
    const sequence: [number, boolean, boolean, number][] = [
      [4, false, false, 80],
      [2, false, false, 80],
      [6, false, false, 80],
      [4, false, true, 80],
      [0, false, true, 80],
      [0, false, true, 0],
      [2, true, false, 80],
      [0, true, false, 80],
    ];
    for (const [pairs, shared, judged, rounds] of sequence) {
      const reused = fit(data, pairs, linear, shared, judged, reuse, rounds);
      const fresh = fit(data, pairs, linear, shared, judged, null, rounds);
      assertEquals(
        JSON.stringify(reused),
        JSON.stringify(fresh),
        `linear ${linear}, ${pairs} pairs, shared ${shared}, judged ${judged}, ${rounds} rounds`,
      );
    }
    // One key judged and one not, every bag kept, with its ranking (and
    // the fit without rounds its own key, without pairs to rank); one
    // binning for every fit.
    assertEquals(reuse.stages.size, 3);
    assertEquals(reuse.bins.size, 1);
    for (const [key, byBag] of reuse.stages) {
      assertEquals(byBag.size, 3);
      const rounds = JSON.parse(key)[0].max_rounds;
      for (const stage of byBag.values()) {
        assertEquals(stage.ranked !== null, rounds > 0);
      }
    }
  }
});
