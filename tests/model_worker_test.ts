import {
  assert,
  assertEquals,
  assertInstanceOf,
  assertRejects,
} from "@std/assert";
import { train } from "../src/local/model/ebm.ts";
import { ModelParamError } from "../src/local/model/errors.ts";
import { trainInBackground } from "../src/local/model/worker.ts";
import { loadEncoded, PENGUINS } from "./_helpers/datasets.ts";

const { data } = await loadEncoded(PENGUINS);
const params = { max_rounds: 60, subsample: 0.8 };

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
      trainInBackground(data, {
        max_rounds: 5000,
        early_stopping_patience: 5000,
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
    await trainInBackground(data, {
      max_rounds: 400,
      early_stopping_patience: 400,
    }, { useWorker: false });
  } finally {
    clearInterval(timer);
  }
  assert(ticks > 0, "the event loop ran during training");
});
