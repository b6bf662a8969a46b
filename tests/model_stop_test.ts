/**
 * Stopping a training stops every thread it runs on. A training Worker
 * starts a helper Worker of its own (another core), which terminating the
 * training Worker does not end: before the stop flag, a cancelled training's
 * helper went on fitting its bags (two cores busy for as long as the fit
 * would have lasted, after the job was CANCELLED and the platform closed).
 * The flag (`stopFlag`, set by the main thread) is seen by the training's
 * own loop and by its helper at their next round.
 */
import { assert, assertEquals, assertRejects } from "@std/assert";
import { encodeDataset } from "../src/local/model/encoding.ts";
import { fieldsOf } from "./_helpers/datasets.ts";
import { resolveParams } from "../src/local/model/params.ts";
import { stopFlag, trainAsync } from "../src/local/model/train.ts";
import {
  liveTrainingWorkers,
  trainInBackground,
  workerBagHelper,
} from "../src/local/model/worker.ts";

const x = Array.from({ length: 400 }, (_, i) => (i * 7919) % 400);
const data = encodeDataset(
  {
    x,
    z: x.map((v) => (v * 31) % 17),
    y: x.map((v, i) => (v + (i % 13) * 9 > 230 ? "hi" : "lo")),
  },
  fieldsOf(["x", "z", "y"], { file: "", target: "y", numeric: ["x", "z"] }),
);
// No validation rows, so no early stop: these fits would run for minutes.
const endless = { max_rounds: 1_000_000, validation_size: 0 };

/** Rejects when `promise` has not settled in `ms`: a bound on a broken stop, not a timing. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} did not stop`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

Deno.test("stop: a bag helper on another thread stops fitting when the flag is set", async () => {
  const stop = stopFlag();
  const helper = workerBagHelper(data, null, 2, stop)!;
  try {
    const params = resolveParams(endless).params;
    const fit = helper.run({
      params,
      linear: false,
      linearBins: 0,
      sharedPairs: true,
      judged: false,
      bags: 2,
      claims: new Int32Array(new SharedArrayBuffer(8)),
    });
    setTimeout(() => Atomics.store(stop, 0, 1), 200);
    const results = await within(fit, 60_000, "the helper");
    // It fitted (a bag or more, cut short), not merely returned.
    assert(results.length > 0 && results[0].mainRounds > 0);
  } finally {
    helper.close();
  }
});

Deno.test("stop: training in this thread rejects with an AbortError when the flag is set", async () => {
  const stop = stopFlag();
  setTimeout(() => Atomics.store(stop, 0, 1), 200);
  await assertRejects(
    () => within(trainAsync(data, endless, { stop }), 60_000, "the training"),
    DOMException,
    "stopped",
  );
});

Deno.test("stop: aborting a training Worker (its flag set, then its answer awaited) rejects with the signal's reason and leaves no Worker", async () => {
  const controller = new AbortController();
  const run = trainInBackground(data, endless, { signal: controller.signal });
  setTimeout(() => controller.abort(new Error("cancelled here")), 300);
  await assertRejects(
    () => within(run, 60_000, "the training Worker"),
    Error,
    "cancelled here",
  );
  assertEquals(liveTrainingWorkers(), 0);
});
