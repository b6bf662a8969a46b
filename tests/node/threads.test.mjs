/**
 * Training in the npm build under Node runs on `node:worker_threads`
 * threads, as in Deno (src/local/model/threads.ts): the trainer and, on two
 * cores, its bag helper, kept warm for the next training and unref'd, so a
 * script that trains and closes nothing still exits. The model is the one
 * in-thread training gives, bit for bit.
 *
 * The package exports none of these internals: they are imported from the
 * build in npm/esm/, which the node suite has just made.
 *
 * @module
 */

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { repositoryDir } from "./_datasets.mjs";

const built = (file) =>
  pathToFileURL(
    join(repositoryDir(), "npm", "esm", "src", "local", "model", file),
  ).href;

const { encodeDataset } = await import(built("encoding.js"));
const { availableCores, trainInBackground } = await import(built("worker.js"));
const { closeTrainingThreads, keptTrainingThreads } = await import(
  built("threads.js")
);
const { train } = await import(built("ebm.js"));

/** 1,500 seeded rows: a product of two columns decides the class. */
function table() {
  let s = 7;
  const rng = () => (s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const a = Array.from({ length: 1500 }, () => rng() * 4);
  const b = a.map(() => rng() * 4);
  const y = a.map((
    x,
    i,
  ) => ((x - 2) * (b[i] - 2) + rng() - 0.5 > 0 ? "hi" : "lo"));
  const field = (name, type, designation = "FEATURE") => ({
    name,
    data_type: { data_type: type },
    designation,
    semantic_type: type === "NUMBER" ? "CONTINUOUS" : "CATEGORICAL",
  });
  return encodeDataset({ a, b, y }, [
    field("a", "NUMBER"),
    field("b", "NUMBER"),
    field("y", "STRING", "TARGET"),
  ], { targets: ["y"] });
}

const PARAMS = { max_rounds: 60, estimators: 4 };

test("Node counts its cores without navigator (os.availableParallelism)", () => {
  assert.equal(availableCores(), availableParallelism());
});

test("Node trains on threads, keeps them warm, and they give in-thread training's model", async () => {
  await closeTrainingThreads();
  const fresh = await trainInBackground(table(), PARAMS);
  assert.equal(keptTrainingThreads(), availableCores() >= 2 ? 2 : 1);
  const warm = await trainInBackground(table(), PARAMS);
  const inThread = await trainInBackground(table(), PARAMS, {
    useWorker: false,
  });
  assert.equal(JSON.stringify(warm), JSON.stringify(fresh));
  assert.equal(JSON.stringify(inThread), JSON.stringify(fresh));
  assert.equal(JSON.stringify(train(table(), PARAMS)), JSON.stringify(fresh));
  await closeTrainingThreads();
  assert.equal(keptTrainingThreads(), 0);
});

test("a Node script that trains and closes nothing exits", () => {
  const script = [
    `import { encodeDataset } from ${JSON.stringify(built("encoding.js"))};`,
    `import { trainInBackground } from ${JSON.stringify(built("worker.js"))};`,
    "const x = Array.from({ length: 300 }, (_, i) => i);",
    "const data = encodeDataset({ x, y: x.map((v) => (v < 100 ? 'a' : 'b')) }, [",
    '  { name: "x", data_type: { data_type: "NUMBER" }, designation: "FEATURE", semantic_type: "CONTINUOUS" },',
    '  { name: "y", data_type: { data_type: "STRING" }, designation: "TARGET", semantic_type: "CATEGORICAL" },',
    "]);",
    "const model = await trainInBackground(data, { max_rounds: 20 });",
    "console.log('trained', model.classes.join());",
  ].join("\n");
  // A process held open by a kept thread would be killed at the timeout.
  const out = spawnSync(
    process.execPath,
    ["--input-type=module", "-e", script],
    {
      encoding: "utf8",
      timeout: 60_000,
    },
  );
  assert.equal(out.signal, null, `killed: ${out.stderr}`);
  assert.equal(out.status, 0, out.stderr);
  assert.match(out.stdout, /trained a,b/);
});
