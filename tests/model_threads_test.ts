/**
 * Warm training threads (src/local/model/threads.ts): a training that ends
 * well keeps its trainer and helper for the next one, which trains the same
 * model on them; an aborted or failed training keeps none; kept threads do
 * not hold a script's process open.
 */
import { assert, assertEquals, assertRejects } from "@std/assert";
import { train } from "../src/local/model/ebm.ts";
import {
  closeTrainingThreads,
  keptTrainingThreads,
  takeThreads,
} from "../src/local/model/threads.ts";
import {
  availableCores,
  runOnThreads,
  trainInBackground,
} from "../src/local/model/worker.ts";
import { threeClassTable } from "./_helpers/generated.ts";

/** 600 seeded rows of a 3-class table with a pair and a category. */
const table = () => threeClassTable(600, 11);

const PARAMS = { max_rounds: 40, estimators: 4 };
const pair = availableCores() >= 2 ? 2 : 1;

Deno.test("warm threads: a training that ends well keeps its threads, and the next trains the same model on them", async () => {
  await closeTrainingThreads();
  const fresh = await trainInBackground(table(), PARAMS);
  assertEquals(keptTrainingThreads(), pair);
  const warm = await trainInBackground(table(), PARAMS);
  assertEquals(keptTrainingThreads(), pair);
  const again = await trainInBackground(table(), PARAMS);
  assertEquals(JSON.stringify(warm), JSON.stringify(fresh));
  assertEquals(JSON.stringify(again), JSON.stringify(fresh));
  // And the model one thread trains.
  assertEquals(JSON.stringify(fresh), JSON.stringify(train(table(), PARAMS)));
  await closeTrainingThreads();
  assertEquals(keptTrainingThreads(), 0);
});

Deno.test("warm threads: two trainings at once each get their own threads and channel, and one pair is kept after", async () => {
  await closeTrainingThreads();
  const alone = await trainInBackground(table(), PARAMS);
  const other = threeClassTable(400, 5);
  const otherAlone = JSON.stringify(train(threeClassTable(400, 5), PARAMS));
  // The first takes the kept pair, the second starts fresh threads.
  const [a, b] = await Promise.all([
    trainInBackground(table(), PARAMS),
    trainInBackground(other, PARAMS),
  ]);
  assertEquals(JSON.stringify(a), JSON.stringify(alone));
  assertEquals(JSON.stringify(b), otherAlone);
  assertEquals(keptTrainingThreads(), pair);
  await closeTrainingThreads();
});

Deno.test("warm threads: an aborted training and a failed one keep no thread", async () => {
  await trainInBackground(table(), PARAMS);
  assertEquals(keptTrainingThreads(), pair);
  const controller = new AbortController();
  const run = trainInBackground(table(), { max_rounds: 100_000 }, {
    signal: controller.signal,
    onProgress: () => controller.abort(new Error("stopped by the test")),
  });
  await assertRejects(() => run, Error, "stopped by the test");
  assertEquals(keptTrainingThreads(), 0);
  await assertRejects(() => trainInBackground(table(), { learning_rate: -1 }));
  assertEquals(keptTrainingThreads(), 0);
  // The next training starts fresh threads, and keeps them.
  await trainInBackground(table(), PARAMS);
  assertEquals(keptTrainingThreads(), pair);
  await closeTrainingThreads();
});

Deno.test("warm threads: a run that ends well keeps its threads unless told not to (a large table's)", async () => {
  await closeTrainingThreads();
  const dir = await Deno.makeTempDir({ prefix: "threads_" });
  const answers = new URL(`file://${dir}/answers.js`);
  await Deno.writeTextFile(
    answers,
    'import { parentPort } from "node:worker_threads";\n' +
      // A run talks to its trainer over a channel of its own ("line").
      'parentPort.on("message", ({ port }) => {\n' +
      '  port.onmessage = () => port.postMessage({ type: "done", model: 1 });\n' +
      "});\n",
  );
  const run = (keep?: boolean) =>
    runOnThreads<{ type: string; model?: number }, number>({
      threads: takeThreads(answers, false),
      keep,
      request: { value: null },
      transfer: [],
      stop: new Int32Array(new SharedArrayBuffer(4)),
      onMessage: (m, resolve) => resolve(m.model!),
      failure: (message) => `failed: ${message}`,
    });
  try {
    assertEquals(await run(), 1);
    assertEquals(keptTrainingThreads(), 1);
    assertEquals(await run(false), 1);
    assertEquals(keptTrainingThreads(), 0);
  } finally {
    await closeTrainingThreads();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("warm threads: a script that trains and closes nothing exits at once", async () => {
  const root = new URL("../", import.meta.url);
  await Deno.mkdir(new URL(".tmp/", root), { recursive: true });
  const script = await Deno.makeTempFile({
    dir: new URL(".tmp/", root).pathname,
    prefix: "threads_exit_",
    suffix: ".ts",
  });
  await Deno.writeTextFile(
    script,
    [
      `import { encodeDataset } from "${
        new URL("src/local/model/encoding.ts", root).href
      }";`,
      `import { trainInBackground } from "${
        new URL("src/local/model/worker.ts", root).href
      }";`,
      "const x = Array.from({ length: 300 }, (_, i) => i);",
      "const data = encodeDataset({ x, y: x.map((v) => (v < 100 ? 'a' : 'b')) }, [",
      '  { name: "x", data_type: { data_type: "NUMBER" }, designation: "FEATURE", semantic_type: "CONTINUOUS" },',
      '  { name: "y", data_type: { data_type: "STRING" }, designation: "TARGET", semantic_type: "CATEGORICAL" },',
      "] as never);",
      "const model = await trainInBackground(data, { max_rounds: 20 });",
      "console.log('trained', model.classes.join());",
      "",
    ].join("\n"),
  );
  try {
    const started = performance.now();
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", script],
      cwd: root.pathname,
      stdout: "piped",
      stderr: "piped",
      // A process held open by a kept thread would wait here forever.
      signal: AbortSignal.timeout(60_000),
    }).output();
    const text = new TextDecoder().decode(out.stdout) +
      new TextDecoder().decode(out.stderr);
    assertEquals(out.code, 0, text);
    assert(text.includes("trained a,b"), text);
    const seconds = (performance.now() - started) / 1000;
    assert(seconds < 60, `the script took ${seconds} s`);
  } finally {
    await Deno.remove(script);
  }
});
