/**
 * Node tests of the built npm package (`deno task build:npm` copies this
 * folder to npm/test/ and runs `node --test` there). They import the package
 * by its name, as a user would, through package self-reference.
 *
 * Here: the package's shape (ESM only, typed `exports`, declared and
 * installed dependencies, danfojs-node an optional peer), its public
 * surface, and that importing it loads no heavy module until asked (the
 * local platform's Hono and jose, danfo, node:sqlite, which Node 20 lacks).
 * The workflow itself is in workflow.test.mjs, connect() and secrets in
 * connect.test.mjs, the installed tarball in installed.test.mjs.
 *
 * @module
 */

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import { builtinModules, createRequire, isBuiltin } from "node:module";

const pkgUrl = new URL("../package.json", import.meta.url);
const pkg = JSON.parse(await readFile(pkgUrl, "utf8"));

test("package.json is an ESM package for Node >= 20 with typed exports", () => {
  assert.equal(pkg.name, "@mlplatform/sdk");
  assert.equal(pkg.type, "module");
  assert.equal(pkg.engines?.node, ">=20");
  assert.equal(pkg.exports?.["."]?.import, "./esm/mod.js");
  assert.equal(pkg.exports?.["."]?.types, "./esm/mod.d.ts");
});

test("danfojs-node is an optional peer, never a dependency", () => {
  assert.equal(pkg.dependencies?.["danfojs-node"], undefined);
  const peer = pkg.peerDependencies?.["danfojs-node"];
  if (peer !== undefined) {
    assert.equal(pkg.peerDependenciesMeta?.["danfojs-node"]?.optional, true);
  }
});

test("every built .js module has its .d.ts beside it", async () => {
  const esm = new URL("../esm/", import.meta.url);
  const missing = [];
  async function walk(dir) {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const url = new URL(entry.name + (entry.isDirectory() ? "/" : ""), dir);
      if (entry.isDirectory()) await walk(url);
      else if (entry.name.endsWith(".js")) {
        const dts = new URL(entry.name.replace(/\.js$/, ".d.ts"), dir);
        await stat(dts).catch(() => missing.push(dts.pathname));
      }
    }
  }
  await walk(esm);
  assert.deepEqual(missing, []);
});

test("the package imports by name and exposes defined exports", async () => {
  const mod = await import("@mlplatform/sdk");
  const names = Object.keys(mod);
  assert.ok(names.length > 0, "the package should export something");
  for (const name of names) {
    assert.notEqual(mod[name], undefined, `export ${name} is undefined`);
  }
});

// The emitted JavaScript, file by file, with its module specifiers.
const esmDir = new URL("../esm/", import.meta.url);
const STATIC_IMPORT =
  /^\s*(?:import|export)\s+(?:type\s+)?(?:[\w$*{}\s,]+?\s+from\s*)?["']([^"']+)["']/gm;
const DYNAMIC_IMPORT = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

async function builtModules() {
  const modules = new Map();
  async function walk(dir) {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const url = new URL(entry.name + (entry.isDirectory() ? "/" : ""), dir);
      if (entry.isDirectory()) await walk(url);
      else if (entry.name.endsWith(".js")) {
        const text = await readFile(url, "utf8");
        modules.set(url.href, {
          text,
          static: [...text.matchAll(STATIC_IMPORT)].map((m) => m[1]),
          dynamic: [...text.matchAll(DYNAMIC_IMPORT)].map((m) => m[1]),
        });
      }
    }
  }
  await walk(esmDir);
  return modules;
}
const modules = await builtModules();
const bare = (s) => !s.startsWith(".") && !s.startsWith("node:");
const packageOf = (s) =>
  s.split("/").slice(0, s.startsWith("@") ? 2 : 1).join("/");

test("the built code has no jsr:, npm:, http: or .ts specifiers left", () => {
  assert.ok(modules.size > 10, `only ${modules.size} modules found`);
  for (const [url, m] of modules) {
    for (const s of [...m.static, ...m.dynamic]) {
      assert.doesNotMatch(s, /^(?:jsr:|npm:|https?:)/, `${url}: ${s}`);
      assert.doesNotMatch(s, /^\.{1,2}\/.*\.ts$/, `${url}: ${s}`);
    }
  }
});

test("ESM only: no CommonJS in the build, no require condition, one module instance", async () => {
  assert.equal(pkg.exports["."].require, undefined);
  for (const [url, m] of modules) {
    assert.doesNotMatch(m.text, /\bmodule\.exports\b|\brequire\(/, url);
  }
  const esm = await import("@mlplatform/sdk");
  const require = createRequire(import.meta.url);
  if (process.features.require_module) {
    // Node >= 20.19 can require() ESM: it must be the very same module, so
    // classes (instanceof on errors) are never duplicated.
    const cjs = require("@mlplatform/sdk");
    assert.equal(cjs.local, esm.local);
    assert.equal(cjs.NotFoundError, esm.NotFoundError);
  } else {
    assert.throws(() => require("@mlplatform/sdk"), {
      code: "ERR_REQUIRE_ESM",
    });
  }
});

test("every dependency is installed in the package's own node_modules", () => {
  // The repository's node_modules (Deno's) sits above npm/, so a plain
  // import could succeed through it; each resolution must stay in npm/.
  const own = new URL("../node_modules/", import.meta.url).href;
  const peers = new Set(Object.keys(pkg.peerDependencies ?? {}));
  const used = new Set();
  for (const m of modules.values()) {
    for (const s of [...m.static, ...m.dynamic]) {
      if (bare(s) && !peers.has(packageOf(s))) used.add(s);
    }
  }
  assert.ok(used.size > 0);
  for (const s of used) {
    const url = import.meta.resolve(s);
    assert.ok(url.startsWith(own), `${s} resolves to ${url}, outside ${own}`);
  }
  for (const name of Object.keys(pkg.dependencies ?? {})) {
    const url = new URL(`${name}/package.json`, own);
    assert.ok(existsSync(url), `${name} is not installed in ${own}`);
  }
});

test("every package the build imports is declared, and Node built-ins exist", () => {
  const declared = new Set([
    ...Object.keys(pkg.dependencies ?? {}),
    ...Object.keys(pkg.peerDependencies ?? {}),
  ]);
  for (const [url, m] of modules) {
    for (const s of m.static) {
      if (bare(s)) assert.ok(declared.has(packageOf(s)), `${url}: ${s}`);
      // A static import of a missing built-in would break the whole import.
      if (s.startsWith("node:")) assert.ok(isBuiltin(s), `${url}: ${s}`);
    }
    for (const s of m.dynamic) {
      if (bare(s)) assert.ok(declared.has(packageOf(s)), `${url}: ${s}`);
      if (s.startsWith("node:") && !isBuiltin(s)) {
        // Only node:sqlite may be missing (Node < 22.5), and only lazily.
        assert.equal(s, "node:sqlite", `${url}: ${s}`);
        assert.ok(!builtinModules.includes("sqlite"));
      }
    }
  }
});

test("importing the package loads no local platform, danfo or node:sqlite", () => {
  // Follow static imports from the entry point: what `import` evaluates.
  const seen = new Set();
  const reached = new Set();
  const visit = (href) => {
    if (seen.has(href)) return;
    seen.add(href);
    const m = modules.get(href);
    assert.ok(m, `built module ${href} is missing`);
    for (const s of m.static) {
      if (s.startsWith(".")) visit(new URL(s, href).href);
      else reached.add(s.startsWith("node:") ? s : packageOf(s));
    }
  };
  visit(new URL("mod.js", esmDir).href);
  assert.ok(reached.has("zod"), "the walk follows the static graph");
  for (
    const heavy of [
      "hono",
      "@hono/zod-openapi",
      "jose",
      "danfojs-node",
      "node:sqlite",
    ]
  ) {
    assert.ok(!reached.has(heavy), `${heavy} is imported eagerly`);
  }
  assert.ok(
    ![...seen].some((href) => href.includes("/esm/src/local/")),
    "the local platform is imported eagerly",
  );
});

test("the documented public API is exported", async () => {
  const mod = {
    ...await import("@mlplatform/sdk"),
    ...await import("@mlplatform/sdk/local"),
  };
  for (
    const fn of [
      "connect",
      "local",
      "toDataFrame",
      "splitToRows",
      "inferSchema",
    ]
  ) {
    assert.equal(typeof mod[fn], "function", fn);
  }
  const errors = [
    "ValidationError",
    "NotFoundError",
    "ConflictError",
    "AuthenticationError",
    "PermissionDeniedError",
    "RateLimitError",
    "ServerError",
    "ConnectionError",
    "TimeoutError",
    "ConfigurationError",
    "JobFailedError",
    "JobTimeoutError",
  ];
  for (const name of errors) {
    assert.ok(
      mod[name].prototype instanceof mod.MLPlatformError,
      `${name} extends MLPlatformError`,
    );
  }
  assert.ok(mod.MLPlatform.prototype instanceof mod.Client);
  const ml = mod.connect({
    baseUrl: "https://mlp.invalid",
    clientId: "id",
    clientSecret: "secret",
  });
  assert.ok(ml instanceof mod.MLPlatform);
  assert.equal(typeof ml.schema("s").feature, "function");
});
