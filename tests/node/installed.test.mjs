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
 * - Each entry (`.`, `./local`, `./notebook`) imports by name with its type
 *   declarations, and the root entry loads neither Hono, jose nor the model
 *   (recorded by a resolve hook while Node imports it).
 * - The `mlp-local` bin serves the local platform over HTTP: a token by a
 *   plain form POST (as curl sends it), then `connect()` to it runs the
 *   workflow and reads the views as rows.
 *
 * npm runs with `--ignore-scripts`: the native TensorFlow backend that
 * danfojs-node's dependency tfjs-node would download is not reachable here,
 * and danfo computes with TensorFlow.js's JavaScript backend without it.
 * The npm cache makes the installs fast after the first run. The tarball is
 * packed once and each project installed once for the whole file: one with
 * danfojs-node, one with the SDK alone (the bin's tests use that one too).
 * danfojs-node's own tree (TensorFlow.js, about 380 MB) is installed by npm
 * once a day per danfojs-node, Node and npm version into the temporary folder and
 * hard-linked into the project before `npm install` there, which then adds
 * the SDK and its dependencies as it would for a user who already has danfo.
 *
 * @module
 */

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import {
  copyFile,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rename,
  rm,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawn } from "node:child_process";
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

/** `npm pack` of the build into `root`; returns the tarball's path. */
async function packInto(root) {
  const packed = JSON.parse(
    await npm(
      ["pack", "--json", "--ignore-scripts", "--pack-destination", root],
      pkgDir,
    ),
  );
  return join(root, packed[0].filename);
}

/**
 * A fresh project depending on the packed SDK (and `extra` packages). With
 * `modules` (a node_modules folder installed by npm for the same `extra`),
 * its files are hard-linked in first, so npm only adds the SDK and its
 * dependencies to a tree it already finds complete.
 */
async function consumer(root, name, tarball, extra = {}, modules) {
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
  if (modules && !await linkTree(modules, join(dir, "node_modules"))) {
    await rm(join(dir, "node_modules"), { recursive: true, force: true });
  }
  await npm(["install", ...NPM_FLAGS], dir);
  return dir;
}

/**
 * Hard-links the files of `from` into `to` (`cp -al`: no data copied); npm
 * never rewrites a package's files in place, but it does rewrite its hidden
 * lockfile (node_modules/.package-lock.json), so that one is a real copy.
 * Returns false where `cp -al` is not available or fails.
 */
async function linkTree(from, to) {
  const linked = await run("cp", ["-al", from, to]);
  if (linked.code !== 0) return false;
  const lock = join(to, ".package-lock.json");
  await rm(lock, { force: true });
  await copyFile(join(from, ".package-lock.json"), lock);
  return true;
}

/**
 * node_modules of a project that depends on danfojs-node `range` alone,
 * installed by npm once a day per danfojs-node range, Node and npm version
 * (so danfo's own dependencies are as fresh as a user's install of the day)
 * and kept in the temporary folder: danfojs-node brings TensorFlow.js (about
 * 380 MB, 20,000 files), whose extraction was most of this file's time.
 * Built in a staging folder and renamed into place only once complete, so a
 * concurrent or interrupted run never sees half a tree; older days' trees
 * are removed when a new one is made.
 */
async function danfoModules(range) {
  const npmVersion = (await run("npm", ["--version"])).stdout.trim();
  const prefix = "danfojs-node@";
  const key =
    `${prefix}${range}-node${process.versions.node}-npm${npmVersion}-${
      new Date().toISOString().slice(0, 10)
    }`.replace(/[^\w.@-]/g, "_");
  const cache = join(tmpdir(), "mlp-node-consumer-cache");
  const dir = join(cache, key);
  const ready = (modules) =>
    existsSync(join(dir, "complete")) &&
    existsSync(join(modules, "danfojs-node", "package.json")) &&
    existsSync(join(modules, "@tensorflow", "tfjs-node", "package.json")) &&
    existsSync(join(modules, ".package-lock.json"));
  if (ready(join(dir, "node_modules"))) return join(dir, "node_modules");
  await mkdir(cache, { recursive: true });
  for (const old of await readdir(cache)) {
    if (old.startsWith(prefix) && old !== key) {
      await rm(join(cache, old), { recursive: true, force: true });
    }
  }
  const staging = await mkdtemp(join(cache, "staging-"));
  await writeFile(
    join(staging, "package.json"),
    JSON.stringify({
      name: "danfo-modules",
      private: true,
      dependencies: { "danfojs-node": range },
    }),
  );
  await npm(["install", ...NPM_FLAGS], staging);
  await writeFile(join(staging, "complete"), "");
  // A broken tree of an earlier run goes; another run's complete one stays.
  if (existsSync(dir) && !ready(join(dir, "node_modules"))) {
    await rm(dir, { recursive: true, force: true });
  }
  await rename(staging, dir).catch(() =>
    rm(staging, { recursive: true, force: true })
  );
  return join(dir, "node_modules");
}

/**
 * The packed SDK and the projects that install it, made once for the whole
 * file: `withDanfo` also depends on danfojs-node; `plain` depends on the SDK
 * alone (the describes below only add their own scripts to it).
 */
let shared;
before(async () => {
  const root = await mkdtemp(join(tmpdir(), "mlp-node-consumer-"));
  shared = { root };
  shared.tarball = await packInto(root);
  const danfoRange = pkg.peerDependencies?.["danfojs-node"];
  assert.ok(danfoRange, "danfojs-node is declared as a peer");
  [shared.withDanfo, shared.plain] = await Promise.all([
    danfoModules(danfoRange).then((modules) =>
      consumer(
        root,
        "with-danfo",
        shared.tarball,
        { "danfojs-node": danfoRange },
        modules,
      )
    ),
    consumer(root, "without-danfo", shared.tarball),
  ]);
});

after(async () => {
  if (shared?.root) await rm(shared.root, { recursive: true, force: true });
});

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
  let tarball;
  let withDanfo;
  let withoutDanfo;

  before(() => ({ tarball, withDanfo, plain: withoutDanfo } = shared));

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

// A resolve hook that appends every module URL Node loads to a file: what an
// import really evaluates, not what the files mention.
const LOAD_HOOKS = `
import { appendFileSync } from "node:fs";
let log;
export function initialize(data) { log = data.log; }
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(log, resolved.url + "\\n");
  return resolved;
}
`;
const LOAD_REGISTER = `
import { register } from "node:module";
register("./load-hooks.mjs", import.meta.url, { data: { log: process.env.MLP_LOAD_LOG } });
`;

/** Where each module the SDK loads lives: the package names, and the SDK's own files. */
function loadedBy(urls) {
  const packages = new Set();
  const own = [];
  for (const url of urls) {
    const at = url.lastIndexOf("/node_modules/");
    if (at < 0) continue;
    const rest = url.slice(at + "/node_modules/".length).split("/");
    const name = rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
    packages.add(name);
    if (name === "@mlplatform/sdk") own.push(url);
  }
  return { packages, own };
}

/** Starts the installed `mlp-local` and resolves once its banner is out. */
function startBin(cwd, args, env) {
  const bin = join(cwd, "node_modules", ".bin", "mlp-local");
  const child = spawn(bin, args, { cwd, env: { ...process.env, ...env } });
  let out = "";
  let err = "";
  child.stderr.on("data", (d) => err += d);
  const ready = new Promise((resolvePromise, reject) => {
    child.stdout.on("data", (d) => {
      out += d;
      if (out.includes("buckets:")) resolvePromise(out);
    });
    child.once(
      "exit",
      (code) =>
        reject(
          new Error(
            `mlp-local ended (exit ${code}) before serving:\n${out}${err}`,
          ),
        ),
    );
  });
  return { child, ready, output: () => out + err };
}

// Runs in the consumer project against the served platform, as a Node user
// of the hosted service would: connect() from the environment.
const OVER_HTTP = `
import assert from "node:assert/strict";
import { connect } from "@mlplatform/sdk";

const ml = connect({ progress: false });
const { deployment } = await ml.quickstart({
  bucket: "data", path: "penguins.csv", target: "species",
  sample: process.env.MLP_SAMPLE,
  training: { maxRounds: 30, maxInteractions: 0 },
});
const result = await deployment.views({
  island: ["Torgersen", "Biscoe"], bill_length_mm: [39.1, 45.2],
  bill_depth_mm: [18.7, 14.8], flipper_length_mm: [181, 212],
  body_mass_g: [3750, 5200], sex: ["male", "female"],
});
const rows = result.rows();
console.log(JSON.stringify({ baseUrl: ml.baseUrl, rows }));
`;

describe("the packed package's entries and its mlp-local bin", () => {
  let project;

  before(async () => {
    project = shared.plain;
    await writeFile(join(project, "load-hooks.mjs"), LOAD_HOOKS);
    await writeFile(join(project, "load-register.mjs"), LOAD_REGISTER);
  });

  /**
   * The module URLs Node resolves while a fresh process imports `entry`:
   * one process per entry, its answer shared by the tests that ask.
   */
  const loaded = new Map();
  function modulesLoadedBy(entry) {
    if (!loaded.has(entry)) loaded.set(entry, importInFreshNode(entry));
    return loaded.get(entry);
  }

  async function importInFreshNode(entry) {
    const log = join(project, `loaded-${entry.replaceAll("/", "_")}.txt`);
    await writeFile(log, "");
    const { code, stdout, stderr } = await run("node", [
      "--import",
      "./load-register.mjs",
      "--input-type=module",
      "-e",
      `const m = await import(${
        JSON.stringify(entry)
      }); console.log(JSON.stringify(Object.keys(m)));`,
    ], { cwd: project, env: { ...process.env, MLP_LOAD_LOG: log } });
    assert.equal(code, 0, `${stderr}${stdout}`);
    const urls = (await readFile(log, "utf8")).trim().split("\n");
    return { exports: JSON.parse(stdout.trim()), ...loadedBy(urls) };
  }

  test("each entry imports by name and has its type declarations", async () => {
    const installed = join(project, "node_modules", "@mlplatform", "sdk");
    const manifest = JSON.parse(
      await readFile(join(installed, "package.json"), "utf8"),
    );
    assert.deepEqual(Object.keys(manifest.exports).sort(), [
      ".",
      "./local",
      "./notebook",
    ]);
    const expected = {
      "@mlplatform/sdk": ["connect", "MLPlatform", "NotFoundError"],
      "@mlplatform/sdk/local": ["local", "createLocalPlatform"],
      "@mlplatform/sdk/notebook": ["viewsTable", "isJupyter"],
    };
    for (const [subpath, target] of Object.entries(manifest.exports)) {
      assert.ok(existsSync(join(installed, target.types)), target.types);
      assert.ok(existsSync(join(installed, target.import)), target.import);
      const entry = `@mlplatform/sdk${subpath.slice(1)}`;
      const { exports } = await modulesLoadedBy(entry);
      for (const name of expected[entry]) {
        assert.ok(exports.includes(name), `${entry} exports ${name}`);
      }
    }
    assert.ok(existsSync(join(installed, "LICENSE")), "LICENSE ships");
    assert.match(
      await readFile(join(installed, "README.md"), "utf8"),
      /npm install @mlplatform\/sdk/,
      "the README is the npm users' one",
    );
  });

  test("the root entry loads neither Hono, jose nor the model; ./local does", async () => {
    const client = await modulesLoadedBy("@mlplatform/sdk");
    assert.ok(client.packages.has("zod"), "the hook records what loads");
    for (const heavy of ["hono", "@hono/zod-openapi", "jose", "danfojs-node"]) {
      assert.ok(!client.packages.has(heavy), `the root entry loads ${heavy}`);
    }
    assert.deepEqual(
      client.own.filter((u) => u.includes("/esm/src/local/")),
      [],
    );
    const platform = await modulesLoadedBy("@mlplatform/sdk/local");
    for (const heavy of ["hono", "jose"]) {
      assert.ok(platform.packages.has(heavy), `./local loads ${heavy}`);
    }
    assert.ok(
      platform.own.some((u) => u.includes("/esm/src/local/model/")),
      "./local loads the model",
    );
  });

  test("mlp-local --help names its flags; a wrong flag is refused with the usage", async () => {
    const bin = join(project, "node_modules", ".bin", "mlp-local");
    const wrong = await run(bin, ["--port", "nope"], { cwd: project });
    assert.notEqual(wrong.code, 0);
    assert.match(wrong.stderr, /--port must be an integer/);
    assert.match(wrong.stderr, /Usage: mlp-local/);
    for (
      const flag of [
        "--port",
        "--bucket",
        "--data-dir",
        "--faults",
        "--config",
        "--token-ttl",
      ]
    ) {
      assert.ok(wrong.stderr.includes(flag), `usage names ${flag}`);
    }
    // --help is the help on stdout, exit code 0 (it was an error, exit 1).
    const help = await run(bin, ["--help"], { cwd: project });
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /^Usage: mlp-local/);
    assert.match(help.stdout, /--data-dir dir .*\n[^]*MLP_CLIENT_SECRET/);
  });

  test("mlp-local serves over HTTP: a token for a form POST, then connect() runs the workflow", async () => {
    const credentials = {
      MLP_CLIENT_ID: "node-bin-user",
      MLP_CLIENT_SECRET: "node-bin-secret-5d1e",
    };
    const server = startBin(project, [
      "--port",
      "0",
      "--bucket",
      `data=${datasetsDir()}`,
      "--token-ttl",
      "600",
    ], credentials);
    try {
      const banner = await server.ready;
      assert.ok(!banner.includes(credentials.MLP_CLIENT_SECRET));
      const baseUrl = banner.match(/listening on (http:\/\/\S+)/)?.[1];
      assert.ok(baseUrl, banner);

      // What curl -d grant_type=... -d client_id=... -d client_secret=... sends.
      const tokenResponse = await fetch(`${baseUrl}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body:
          `grant_type=client_credentials&client_id=${credentials.MLP_CLIENT_ID}&client_secret=${credentials.MLP_CLIENT_SECRET}`,
      });
      assert.equal(tokenResponse.status, 200);
      const token = await tokenResponse.json();
      assert.equal(token.token_type, "Bearer");
      assert.equal(token.expires_in, 600, "--token-ttl reaches the platform");
      const refused = await fetch(`${baseUrl}/accounts`);
      assert.equal(refused.status, 401);

      const script = join(project, "over-http.mjs");
      await writeFile(script, OVER_HTTP);
      const { code, stdout, stderr } = await run("node", [script], {
        cwd: project,
        env: {
          ...process.env,
          MLP_BASE_URL: baseUrl,
          ...credentials,
          MLP_SAMPLE: join(datasetsDir(), "penguins.csv"),
        },
      });
      assert.equal(code, 0, `${stderr}${stdout}\n${server.output()}`);
      const { rows } = JSON.parse(stdout.trim().split("\n").pop());
      assert.equal(rows.length, 2);
      assert.deepEqual(rows.map((r) => r["prediction.species"]), [
        "Adelie",
        "Gentoo",
      ]);
      for (const row of rows) {
        assert.ok(Number.isFinite(row.bias));
        const terms = Object.keys(row).filter((c) =>
          c.startsWith("contribution.")
        );
        assert.ok(terms.length > 0, "rows carry the contributions");
      }
    } finally {
      server.child.kill("SIGTERM");
    }
    const exit = await new Promise((r) =>
      server.child.exitCode !== null
        ? r(server.child.exitCode)
        : server.child.once("exit", r)
    );
    assert.equal(exit, 0, `SIGTERM stops it cleanly:\n${server.output()}`);
  });
});

// A TypeScript user of each entry: the README's example and the DataFrame
// methods, compiled with `strict` and no `skipLibCheck`, so the package's
// own .d.ts files are checked too.
const TYPED_USE = `
import { connect, NotFoundError, toDataFrame, type ViewsResult } from "@mlplatform/sdk";
import { local } from "@mlplatform/sdk/local";
import { isJupyter, viewsTable } from "@mlplatform/sdk/notebook";

export async function run(): Promise<void> {
  const ml = await local({ buckets: { data: "./datasets" } });
  const { deployment } = await ml.quickstart({
    bucket: "data",
    path: "penguins.csv",
    target: "species",
    training: { estimators: 1, maxRounds: 100 },
  });
  const result = await deployment.views({
    island: ["Biscoe"],
    bill_length_mm: [45.2],
    bill_depth_mm: [14.8],
    flipper_length_mm: [212],
    body_mass_g: [5200],
    sex: ["female"],
  });
  console.log(result.rows()[0]);
  const df = await result.toDataFrame();
  const same = await toDataFrame(result.table);
  const batch = await deployment.batch({ bucket: "data", path: "penguins.csv", output: "out.csv" });
  for await (const frame of batch.frames()) console.log(frame);
  console.log(df, same, await batch.frame(), viewsTable(result.table), isJupyter());
  await ml.close();
  const remote = connect({ baseUrl: "http://127.0.0.1:8787", clientId: "demo", clientSecret: process.env.MLP_CLIENT_SECRET });
  try {
    await remote.accounts.list();
  } catch (error) {
    if (error instanceof NotFoundError) console.log(error.status);
  }
}
export type Result = ViewsResult;
`;

// With danfojs-node installed, its DataFrame is the type toDataFrame()
// gives, not any: its `shape` is a number[], which no string takes.
const TYPED_DANFO = `
import type { ViewsResult } from "@mlplatform/sdk";
export async function shape(result: ViewsResult): Promise<number[]> {
  const df = await result.toDataFrame();
  // @ts-expect-error danfo's shape is number[], not a string
  const wrong: string = df.shape;
  void wrong;
  return df.shape;
}
`;

/** tsc of the build's devDependency, on `file` in `cwd` with `options`. */
async function typeCheck(cwd, file, options) {
  const tsc = join(pkgDir, "node_modules", "typescript", "bin", "tsc");
  assert.ok(existsSync(tsc), `${tsc}: typescript is a devDependency`);
  const config = join(cwd, `tsconfig.${options.moduleResolution}.json`);
  await writeFile(
    config,
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: "ES2022",
        lib: ["ES2022"],
        types: ["node"],
        typeRoots: [join(pkgDir, "node_modules", "@types")],
        ...options,
      },
      files: [file],
    }),
  );
  return await run("node", [tsc, "-p", config], { cwd });
}

describe(
  "the packed package's type declarations, as a TypeScript user compiles them",
  { concurrency: true },
  () => {
    // nodenext only (Node's own ESM and CommonJS rules, node16's today,
    // and the strictest on exports and extensions): the missing peer's
    // types failed the same way under node16, nodenext and bundler, and
    // each compile costs 20-35 s of CPU beside the test command's other
    // suites, which must end within 5 minutes.
    for (const [module, moduleResolution] of [["NodeNext", "nodenext"]]) {
      test(`without danfojs-node, the README's example compiles (strict, moduleResolution ${moduleResolution}, no skipLibCheck)`, async () => {
        const project = shared.plain;
        await writeFile(join(project, "typed-use.ts"), TYPED_USE);
        const { code, stdout, stderr } = await typeCheck(
          project,
          "typed-use.ts",
          { module, moduleResolution },
        );
        assert.equal(code, 0, `${stdout}${stderr}`);
      });
    }

    test("with danfojs-node, toDataFrame() is typed as danfo's DataFrame", async () => {
      const project = shared.withDanfo;
      await writeFile(join(project, "typed-danfo.ts"), TYPED_DANFO);
      // danfo's own declarations name packages it does not install (request,
      // plotly.js-dist-min): a danfo user skips checking libraries.
      const { code, stdout, stderr } = await typeCheck(
        project,
        "typed-danfo.ts",
        {
          module: "NodeNext",
          moduleResolution: "nodenext",
          skipLibCheck: true,
        },
      );
      assert.equal(code, 0, `${stdout}${stderr}`);
    });
  },
);
