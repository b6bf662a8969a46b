/**
 * The slow path stays tested (issue 25, item 4): training on two cores has a
 * helper thread, and when that thread fails — its work throws, or its Worker
 * dies holding a chunk of rows — training ends with an error
 * that says what happened and what to do, instead of a wrong model or a
 * training that never ends. (A training job turns the error into FAILED with
 * this message: local_runner_test.ts covers that step.)
 */
import { assert, assertRejects, assertStringIncludes } from "@std/assert";
import { trainAsync } from "../src/local/model/ebm.ts";
import { encodeDataset } from "../src/local/model/encoding.ts";
import { newHistogram } from "../src/local/model/histogram.ts";
import {
  ROW_CHUNKS,
  ROW_CONTROL,
  rowSetup,
  RowSplit,
} from "../src/local/model/rows.ts";
import { Worker as Thread } from "node:worker_threads";
import {
  HELPER_CRASHED,
  runOnThreads,
  workerBagHelper,
} from "../src/local/model/worker.ts";
import { field } from "./_helpers/generated.ts";

/** 400 seeded rows: one numeric feature, a binary target. */
function smallTable() {
  let seed = 7;
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return seed / 2 ** 32;
  };
  const x = Array.from({ length: 400 }, () => rnd() * 10);
  const y = x.map((v) => (rnd() < 1 / (1 + Math.exp(5 - v)) ? "yes" : "no"));
  return encodeDataset({ x, y }, [
    field("x", "number"),
    field("y", "category", "TARGET"),
  ]);
}

const PARAMS = { max_rounds: 20, estimators: 4, max_interactions: 0 };

Deno.test("helper failure: the helper Worker's error comes back said as the helper's, with what to do", async () => {
  const data = smallTable();
  const helper = workerBagHelper(data, null, 2);
  assert(helper, "two cores and Worker: a helper");
  try {
    // The real helper Worker, given a task it cannot run (no parameters):
    // fitting throws there, and the error crosses back.
    const claims = new Int32Array(new SharedArrayBuffer(8));
    claims[0] = 1;
    const error = await assertRejects(() =>
      helper.run({
        params: undefined as never,
        linear: false,
        linearBins: 0,
        sharedPairs: true,
        judged: false,
        bags: 2,
        claims,
      })
    );
    assertStringIncludes(
      (error as Error).message,
      "the helper thread of a two-thread fit failed",
    );
    assertStringIncludes((error as Error).message, "train with one core");
  } finally {
    helper.close();
  }
});

Deno.test("helper failure: a helper that took its bags and then fails ends training with its error", async () => {
  const data = smallTable();
  // The helper's side of the protocol as the real one plays it: it takes
  // the task (claims[1] = 1, so training must wait for its bags), then its
  // answer is the failure above.
  const failure = new Error(
    "the helper thread of a two-thread fit failed: out of memory; retry the training, or train with one core",
  );
  const error = await assertRejects(() =>
    trainAsync(data, PARAMS, {
      helper: (task) => {
        assert(Atomics.compareExchange(task.claims, 1, 0, 1) === 0);
        return Promise.reject(failure);
      },
    })
  );
  assert(error === failure, "training ends with the helper's error");
});

Deno.test("helper failure: a helper that dies holding a chunk of rows stops the split with a clear error, not a hang", async () => {
  const rows = 200_000;
  const setup = rowSetup("squared", 1, rows, 4, [
    { cells: 4, wide: false },
  ], true);
  for (let i = 0; i < rows; i++) {
    setup.cells[0][i] = i % 4;
    setup.v[i] = i % 7;
  }
  // A helper that claims the first chunk it can and then dies (its Worker
  // closes itself mid-chunk): no event reaches the blocked training thread.
  const script = `
    self.onmessage = (e) => {
      const { ctrl, SEQ, NEXT, CHUNKS } = e.data;
      let seen = 0;
      for (;;) {
        Atomics.wait(ctrl, SEQ, seen);
        seen = Atomics.load(ctrl, SEQ);
        if (Atomics.add(ctrl, NEXT, 1) < CHUNKS) { self.close(); return; }
      }
    };`;
  const url = URL.createObjectURL(
    new Blob([script], { type: "application/javascript" }),
  );
  const worker = new Worker(url, { type: "module" });
  try {
    const split = new RowSplit(setup, (s) =>
      worker.postMessage({
        ctrl: s.ctrl,
        SEQ: ROW_CONTROL.SEQ,
        NEXT: ROW_CONTROL.NEXT,
        CHUNKS: ROW_CHUNKS,
      }), 500);
    const hist = newHistogram(4, 1);
    // The helper may lose the race for every chunk of a build; it takes
    // one of some build soon (each build has eight chunks to claim).
    let error: Error | null = null;
    for (let build = 0; build < 200 && !error; build++) {
      try {
        split.build(0, -1, null, rows, false, hist);
      } catch (e) {
        error = e as Error;
      }
      // Let the helper's message arrive before the first build.
      if (build === 0) await new Promise((r) => setTimeout(r, 50));
    }
    assert(error, "the split noticed that the helper died");
    assertStringIncludes(error.message, "stopped answering");
    assertStringIncludes(error.message, "train with one core");
    split.close();
  } finally {
    worker.terminate();
    URL.revokeObjectURL(url);
  }
});

/** Writes each script to a temporary module; returns their URLs and a cleanup. */
async function scripts(texts: Record<string, string>) {
  const dir = await Deno.makeTempDir({ prefix: "helper_failure_" });
  const urls: Record<string, URL> = {};
  for (const [name, text] of Object.entries(texts)) {
    await Deno.writeTextFile(`${dir}/${name}.js`, text);
    urls[name] = new URL(`file://${dir}/${name}.js`);
  }
  return { urls, remove: () => Deno.remove(dir, { recursive: true }) };
}

Deno.test("helper failure: a training's helper thread, started beside it, that dies ends the training with the helper's message, and neither thread is kept", async () => {
  // runOnThreads as trainInBackground runs it: the trainer (here one that
  // waits forever for its helper) and the helper, which dies as it starts.
  const { urls, remove } = await scripts({
    waits:
      'import { parentPort } from "node:worker_threads";\nparentPort.on("message", () => {});\n',
    dies: 'throw new Error("out of memory");\n',
  });
  const trainer = new Thread(urls.waits);
  const exited = new Promise((resolve) => trainer.once("exit", resolve));
  try {
    const error = await assertRejects(() =>
      runOnThreads({
        threads: { trainer, helper: new Thread(urls.dies) },
        request: { value: null },
        transfer: [],
        stop: new Int32Array(new SharedArrayBuffer(4)),
        onMessage: () => {},
        failure: (message) => `model worker failed: ${message}`,
      })
    );
    assertStringIncludes((error as Error).message, "out of memory");
    assertStringIncludes(
      (error as Error).message,
      HELPER_CRASHED("").split(":")[0],
    );
    assertStringIncludes((error as Error).message, "train with one core");
    // Ended, not kept for the next training.
    await exited;
  } finally {
    await remove();
  }
});

Deno.test("helper failure: a training aborted before it starts ends the helper thread started for it", async () => {
  const { urls, remove } = await scripts({
    beats:
      'import { parentPort } from "node:worker_threads";\nsetInterval(() => parentPort.postMessage("alive"), 5);\n',
  });
  const helper = new Thread(urls.beats);
  let heard = 0;
  helper.on("message", () => heard++);
  try {
    // Let the helper start beating, so silence afterwards means it ended.
    while (heard === 0) await new Promise((r) => setTimeout(r, 5));
    const controller = new AbortController();
    controller.abort(new Error("cancelled before the start"));
    await assertRejects(
      () =>
        runOnThreads({
          threads: { trainer: new Thread(urls.beats), helper },
          request: { value: null },
          transfer: [],
          stop: new Int32Array(new SharedArrayBuffer(4)),
          signal: controller.signal,
          onMessage: () => {},
          failure: (message) => `model worker failed: ${message}`,
        }),
      Error,
      "cancelled before the start",
    );
    await new Promise((r) => setTimeout(r, 30));
    heard = 0;
    await new Promise((r) => setTimeout(r, 100));
    assert(heard === 0, `the helper still ran: ${heard} messages`);
  } finally {
    await helper.terminate();
    await remove();
  }
});
