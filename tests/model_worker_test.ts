import {
  assert,
  assertEquals,
  assertInstanceOf,
  assertRejects,
} from "@std/assert";
import { fitBags, train } from "../src/local/model/ebm.ts";
import { ModelParamError } from "../src/local/model/errors.ts";
import { resolveParams } from "../src/local/model/params.ts";
import {
  trainInBackground,
  workerBagHelper,
} from "../src/local/model/worker.ts";
import { loadEncoded, PENGUINS } from "./_helpers/datasets.ts";

const { data } = await loadEncoded(PENGUINS);
// Four bags: the helper thread still fits some of them (the same model).
// Bins and pairs given: no inner search (model_identity_test trains the
// defaults, search included, in one thread and with the helper).
const params = {
  max_rounds: 60,
  subsample: 0.8,
  estimators: 4,
  bins: 64,
  max_interactions: 3,
};

Deno.test("worker: the worker, the in-thread fallback and sync training give the same model", async () => {
  assert(
    typeof Worker !== "undefined",
    "Deno has Worker, so the worker path is tested here",
  );
  const progress: number[] = [];
  const viaWorker = await trainInBackground(data, params, {
    onProgress: (f) => progress.push(f),
  });
  const fallback = await trainInBackground(data, params, { useWorker: false });
  const expected = JSON.stringify(train(data, params));
  assertEquals(JSON.stringify(viaWorker), expected);
  assertEquals(JSON.stringify(fallback), expected);
  assertEquals(progress.at(-1), 1);
});

Deno.test("worker: typed errors cross the worker boundary", async () => {
  for (const useWorker of [true, false]) {
    const e = await assertRejects(() =>
      trainInBackground(data, { learning_rate: -1 }, { useWorker })
    );
    assertInstanceOf(e, ModelParamError);
    assertEquals(e.column, "learning_rate");
  }
});

Deno.test("worker: aborting rejects with the signal's reason in both modes", async () => {
  for (const useWorker of [true, false]) {
    const c = new AbortController();
    const reason = new Error(`cancelled (${useWorker})`);
    const e = await assertRejects(() =>
      // Rounds enough that it is still training when progress passes 5 %
      // (the patience keeps it from stopping early), and no more: rounds
      // boosted before the abort scale with max_rounds.
      trainInBackground(data, {
        max_rounds: 1000,
        early_stopping_patience: 1000,
        estimators: 1,
      }, {
        useWorker,
        signal: c.signal,
        onProgress: (f) => f > 0.05 && c.abort(reason),
      })
    );
    assertEquals(e, reason);
  }
});

Deno.test("worker: the fallback lets timers run while it trains", async () => {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  try {
    // A training that ran without yielding would leave no tick however
    // long it ran: three hundred rounds (a few hundred milliseconds, many
    // times the ~10 ms between yields) suffice. Bins and pairs given: the
    // boosting alone, without an inner search.
    await trainInBackground(data, {
      max_rounds: 300,
      early_stopping_patience: 300,
      estimators: 1,
      bins: 64,
      max_interactions: 0,
    }, { useWorker: false });
  } finally {
    clearInterval(timer);
  }
  assert(ticks > 0, "the event loop ran during training");
});

Deno.test("worker: a bag helper fits the bags it claims like one thread, and closing it settles a pending task with no bags", async () => {
  const p = resolveParams({ max_rounds: 20 }).params;
  const task = (next: number, judged = false) => {
    const claims = new Int32Array(new SharedArrayBuffer(8));
    claims[0] = next;
    return {
      params: p,
      linear: false,
      linearBins: 0,
      sharedPairs: true,
      judged,
      bags: 4,
      claims,
    };
  };
  const helper = workerBagHelper(data, null, 2);
  assert(helper, "two cores and Worker: a helper");
  assertEquals(workerBagHelper(data, null, 1), null);
  const there = await helper.run(task(1));
  assertEquals(there.map((r) => r.bag), [1, 2, 3]);
  assertEquals(
    JSON.stringify(there),
    JSON.stringify(fitBags(data, task(1), () => false)),
  );
  // A judged task (the search's no-pairs comparison: half of each bag's
  // validation rows stop it, the other half judge it) too.
  const judged = await helper.run(task(2, true));
  assertEquals(
    JSON.stringify(judged),
    JSON.stringify(fitBags(data, task(2, true), () => false)),
  );
  assert(judged[0].heldOut !== there[1].heldOut);
  // A task the training gave up (it fitted every bag) can still be pending
  // when training ends: closing must not reject it (an unhandled rejection
  // in the worker), it answers no bags.
  const pending = helper.run(task(4));
  helper.close();
  assertEquals(await pending, []);
});
