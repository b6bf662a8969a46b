/**
 * A race's spare bags (see `fitOnce`'s `spares`): while the helper fits its
 * last bags of a race, the training thread fits the raced-for fit's later
 * bags, and once the helper is done gives up the one in hand (unless it is
 * past half its last seconds), and the race's continuation takes those it
 * finished as `done`. The continued fit must
 * be the fit from scratch, bit for bit, whichever bags were spared, and a
 * bag given up must leave nothing of itself behind.
 */
import { assert, assertEquals } from "@std/assert";
import {
  type BagHelper,
  type BagResult,
  fitOnce,
  newStageReuse,
  type Step,
} from "../src/local/model/bagging.ts";
import type { EncodedDataset } from "../src/local/model/encoding.ts";
import { threeClassTable } from "./_helpers/generated.ts";
import type { Fitted } from "../src/local/model/finalize.ts";
import { resolveParams } from "../src/local/model/params.ts";
import { shareEstimators, type StageReuse } from "../src/local/model/reuse.ts";
import { RACE_BAGS } from "../src/local/model/search.ts";

const BAGS = 2 * RACE_BAGS;

/**
 * One fit of `estimators` bags (3 pairs, each bag its own, as a race's),
 * driven as `trainAsync` drives it, the helper's answers taken as given.
 */
function fit(
  data: EncodedDataset,
  linear: boolean,
  estimators: number,
  reuse: StageReuse,
  helper: BagHelper | null,
  answer: () => BagResult[],
  shouldStop: () => boolean,
  done: BagResult[] = [],
): Fitted {
  const p = {
    ...resolveParams({ max_rounds: 60, subsample: 0.7, estimators: BAGS })
      .params,
    estimators,
    max_interactions: 3,
  };
  const race = estimators < BAGS;
  const steps = fitOnce(
    data,
    p,
    linear,
    0,
    false,
    false,
    shouldStop,
    helper,
    null,
    0,
    reuse,
    "identity",
    done,
    true,
    race ? BAGS : 0,
  );
  let r: IteratorResult<Step, Fitted> = steps.next();
  while (!r.done) {
    r = steps.next("wait" in r.value ? answer() : undefined);
  }
  return r.value;
}

/**
 * A helper that takes its task and fits no bag until the training thread
 * waits for it (so every race bag is the training thread's): it is done
 * when `isDone` says so.
 */
function idleHelper(isDone: () => boolean) {
  let claims: Int32Array | null = null;
  const helper: BagHelper = (task) => {
    assert(Atomics.compareExchange(task.claims, 1, 0, 1) === 0);
    claims = task.claims;
    return new Promise(() => {});
  };
  return {
    helper,
    /** Polled by the fit: the helper is done when `isDone` says so. */
    poll: () => {
      if (claims && isDone()) Atomics.store(claims, 2, 1);
      return false;
    },
    /** Its answer: no bag (it is done by then). */
    answer: () => {
      if (claims) Atomics.store(claims, 2, 1);
      return [];
    },
  };
}

const same = (a: Fitted, b: Fitted, what: string) => {
  assertEquals(JSON.stringify(a.model), JSON.stringify(b.model), what);
  assertEquals(a.heldOut, b.heldOut, what);
  assertEquals(a.heldOutRaw, b.heldOutRaw, what);
  assertEquals(JSON.stringify(a.bags), JSON.stringify(b.bags), what);
};

Deno.test("spare bags: a race's continuation from the bags it spared is the fit from scratch, bit for bit", () => {
  const data = threeClassTable(600, 5);
  for (const linear of [false, true]) {
    const scratch = fit(
      data,
      linear,
      BAGS,
      newStageReuse(),
      null,
      () => [],
      () => false,
    );
    assertEquals(scratch.bags!.map((r) => r.bag), [0, 1, 2, 3, 4, 5, 6, 7]);
    // The helper never done before it is waited for: every spare bag is
    // fitted. Then done after a number of polls: the spare bag in progress
    // is given up, and the ones before it kept; or, past half the seconds
    // its fit last took (here every bag took next to none), fitted to its
    // end.
    let polls = 0;
    const total = (() => {
      const idle = idleHelper(() => false);
      fit(
        data,
        linear,
        RACE_BAGS,
        newStageReuse(),
        idle.helper,
        idle.answer,
        () => {
          polls++;
          return idle.poll();
        },
      );
      return polls;
    })();
    const spared: number[] = [];
    const cases: [number, boolean][] = [
      [Infinity, false],
      [Math.floor(total * 0.8), false],
      [Math.floor(total * 0.8), true],
      [0, false],
    ];
    for (const [at, timed] of cases) {
      let n = 0;
      const idle = idleHelper(() => ++n >= at);
      const reuse = newStageReuse();
      if (timed) reuse.seconds.set("", Array(BAGS).fill(1e-9));
      // As the search runs a race (search.ts): the race's keys serve its
      // continuation.
      shareEstimators(reuse, BAGS, RACE_BAGS);
      const race = fit(
        data,
        linear,
        RACE_BAGS,
        reuse,
        idle.helper,
        idle.answer,
        idle.poll,
      );
      shareEstimators(reuse, RACE_BAGS, BAGS);
      const bags = race.bags!.map((r) => r.bag);
      assertEquals(bags.slice(0, RACE_BAGS), [0, 1, 2, 3]);
      spared.push(bags.length - RACE_BAGS);
      // The race's own bags are the fit from scratch's first ones.
      assertEquals(race.heldOut, scratch.heldOut.slice(0, RACE_BAGS));
      const going = fit(
        data,
        linear,
        BAGS,
        reuse,
        null,
        () => [],
        () => false,
        race.bags!,
      );
      const what =
        `linear ${linear}, helper done at poll ${at}, timed ${timed}`;
      same(going, scratch, what);
      // Nothing of a bag given up was kept: a fit from what this training
      // kept is the fit from scratch too.
      same(
        fit(data, linear, BAGS, reuse, null, () => [], () => false),
        scratch,
        `${what}, fitted again`,
      );
    }
    // Every spare bag, some (one more when the one in hand is finished),
    // none.
    assertEquals(spared[0], BAGS - RACE_BAGS);
    assert(
      spared[1] > 0 && spared[1] < BAGS - RACE_BAGS - 1,
      `${spared[1]} spared`,
    );
    assertEquals(spared[2], spared[1] + 1);
    assertEquals(spared[3], 0);
  }
});
