/**
 * The package as a Node user gets it: `npm pack` of the build, installed
 * with npm into fresh projects outside the repository (so nothing resolves
 * through the repository's own node_modules), then scripts that import it by
 * name and run the workflow there.
 *
 * - With the optional peer danfojs-node installed, `toDataFrame()` gives a
 *   danfo DataFrame equal to the split table.
 * - Without it, `toDataFrame()` fails with a FrameError that says to install
 *   danfojs-node, and everything else still works.
 *
 * npm runs with `--ignore-scripts`: the native TensorFlow backend that
 * danfojs-node's dependency tfjs-node would download is not reachable here,
 * and danfo computes with TensorFlow.js's JavaScript backend without it.
 * The npm cache makes the installs fast after the first run.
 *
 * @module
 */

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { datasetsDir } from "./_datasets.mjs";

const pkgDir = fileURLToPath(new URL("../", import.meta.url));
const pkg = JSON.parse(await readFile(join(pkgDir, "package.json"), "utf8"));

function run(command, args, options) {
  return new Promise((resolvePromise) => {
    execFile(
      command,
      args,
      { maxBuffer: 64 * 1024 * 1024, ...options },
      (error, stdout, stderr) =>
        resolvePromise({ code: error ? (error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function npm(args, cwd) {
  const result = await run("npm", args, { cwd });
  assert.equal(
    result.code,
    0,
    `npm ${args.join(" ")} failed in ${cwd}:\n${result.stderr}${result.stdout}`,
  );
  return result.stdout;
}

const NPM_FLAGS = [
  "--no-audit",
  "--no-fund",
  "--ignore-scripts",
  "--prefer-offline",
  "--loglevel=error",
];

/** A fresh project depending on the packed SDK (and `extra` packages). */
async function consumer(root, name, tarball, extra = {}) {
  const dir = join(root, name);
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, "package.json"),
    JSON.stringify({
      name,
      private: true,
      type: "module",
      dependencies: { [pkg.name]: `file:${tarball}`, ...extra },
    }),
  );
  await npm(["install", ...NPM_FLAGS], dir);
  return dir;
}

// Runs in the consumer project: imports the SDK by name, as a user would.
const WORKFLOW = `
import assert from "node:assert/strict";
import { toDataFrame, FrameError } from "@mlplatform/sdk";
import { local } from "@mlplatform/sdk/local";

const here = new URL("./", import.meta.url).href;
const resolved = import.meta.resolve("@mlplatform/sdk");
assert.ok(resolved.startsWith(here + "node_modules/@mlplatform/sdk/esm/"), resolved);

const ml = await local({ buckets: { data: process.env.MLP_DATASETS }, progress: false });
try {
  const { deployment } = await ml.quickstart({
    bucket: "data", path: "penguins.csv", target: "species",
    training: { maxRounds: 30, maxInteractions: 0 },
  });
  const result = await deployment.views({
    island: ["Torgersen", "Biscoe"], bill_length_mm: [39.1, 45.2],
    bill_depth_mm: [18.7, 14.8], flipper_length_mm: [181, 212],
    body_mass_g: [3750, 5200], sex: ["male", "female"],
  });
  assert.deepEqual(result.predictions(), ["Adelie", "Gentoo"]);
  const summary = { rows: result.length, columns: result.columnNames };
  if (process.argv[2] === "with-danfo") {
    const danfoUrl = import.meta.resolve("danfojs-node");
    assert.ok(danfoUrl.startsWith(here + "node_modules/danfojs-node/"), danfoUrl);
    const df = await result.toDataFrame();
    assert.deepEqual(df.shape, [result.length, result.columnNames.length]);
    assert.deepEqual(df.columns, result.columnNames);
    assert.deepEqual(df.values, result.table.data);
    assert.deepEqual(df.column("prediction.species").values, ["Adelie", "Gentoo"]);
    const same = await toDataFrame(result.table);
    assert.deepEqual(same.values, df.values);
    summary.dataFrame = { shape: df.shape, bias: df.column("bias").values };
  } else {
    await assert.rejects(() => import("danfojs-node"), "danfojs-node is absent here");
    const error = await result.toDataFrame().then(
      () => assert.fail("toDataFrame() should fail without danfojs-node"),
      (e) => e,
    );
    assert.ok(error instanceof FrameError, String(error));
    assert.match(error.message, /npm install danfojs-node/);
    assert.match(error.message, /splitToRows/);
    summary.error = error.message;
  }
  console.log(JSON.stringify(summary));
} finally {
  await ml.close();
}
`;

describe("the packed package, installed with npm outside the repository", () => {
  let root;
  let tarball;
  let withDanfo;
  let withoutDanfo;

  before(async () => {
    root = await mkdtemp(join(tmpdir(), "mlp-node-consumer-"));
    const packed = JSON.parse(
      await npm(
        ["pack", "--json", "--ignore-scripts", "--pack-destination", root],
        pkgDir,
      ),
    );
    tarball = join(root, packed[0].filename);
    const danfoRange = pkg.peerDependencies?.["danfojs-node"];
    assert.ok(danfoRange, "danfojs-node is declared as a peer");
    [withDanfo, withoutDanfo] = await Promise.all([
      consumer(root, "with-danfo", tarball, { "danfojs-node": danfoRange }),
      consumer(root, "without-danfo", tarball),
    ]);
  });

  after(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });

  test("the tarball holds the ESM build, its types and no sources or tests", async () => {
    const listing = await run("tar", ["-tzf", tarball]);
    assert.equal(listing.code, 0, listing.stderr);
    const files = listing.stdout.trim().split("\n");
    assert.ok(files.includes("package/package.json"));
    assert.ok(files.includes("package/esm/mod.js"));
    assert.ok(files.includes("package/esm/mod.d.ts"));
    assert.deepEqual(
      files.filter((f) =>
        /\.ts$/.test(f) && !/\.d\.ts$/.test(f) || f.includes("/test/") ||
        f.includes("node_modules")
      ),
      [],
    );
  });

  test("npm installs the dependencies but not the optional peer", () => {
    const installed = (name) =>
      existsSync(join(withoutDanfo, "node_modules", name, "package.json"));
    for (const name of Object.keys(pkg.dependencies ?? {})) {
      assert.ok(installed(name), `${name} should be installed`);
    }
    assert.equal(installed("danfojs-node"), false);
  });

  test("a Node user imports it by name and runs the workflow; toDataFrame() works with danfojs-node", async () => {
    const script = join(withDanfo, "workflow.mjs");
    await writeFile(script, WORKFLOW);
    const { code, stdout, stderr } = await run("node", [script, "with-danfo"], {
      cwd: withDanfo,
      env: { ...process.env, MLP_DATASETS: datasetsDir() },
    });
    assert.equal(code, 0, `${stderr}${stdout}`);
    const summary = JSON.parse(stdout.trim().split("\n").pop());
    assert.equal(summary.rows, 2);
    assert.deepEqual(summary.dataFrame.shape, [2, summary.columns.length]);
    assert.ok(summary.dataFrame.bias.every((b) => Number.isFinite(b)));
  });

  test("without danfojs-node, toDataFrame() says to install it", async () => {
    const script = join(withoutDanfo, "workflow.mjs");
    await writeFile(script, WORKFLOW);
    const { code, stdout, stderr } = await run(
      "node",
      [script, "without-danfo"],
      {
        cwd: withoutDanfo,
        env: { ...process.env, MLP_DATASETS: datasetsDir() },
      },
    );
    assert.equal(code, 0, `${stderr}${stdout}`);
    const summary = JSON.parse(stdout.trim().split("\n").pop());
    assert.match(summary.error, /danfojs-node/);
  });
});
