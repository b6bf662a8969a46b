/**
 * Node tests of the built npm package (`deno task build:npm` copies this
 * folder to npm/test/ and runs `node --test` there). They import the package
 * by its name, as a user would, through package self-reference.
 *
 * Placeholder scope: the package loads in Node and its public surface exists.
 * Extend with the workflow on the local platform once mod.ts exports it.
 *
 * @module
 */

import { test } from "node:test";
import assert from "node:assert/strict";
import { readdir, readFile, stat } from "node:fs/promises";
import { createRequire } from "node:module";

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

test("every dependency is installed and resolvable", () => {
  const require = createRequire(pkgUrl);
  for (const name of Object.keys(pkg.dependencies ?? {})) {
    // Resolving package.json works for ESM-only packages too.
    assert.ok(
      require.resolve(`${name}/package.json`),
      `${name} should resolve`,
    );
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

test("the built code has no jsr:, npm: or .ts specifiers left", async () => {
  const entry = await readFile(
    new URL("../esm/mod.js", import.meta.url),
    "utf8",
  );
  assert.doesNotMatch(entry, /from\s+["'](?:jsr:|npm:)/);
  assert.doesNotMatch(entry, /from\s+["']\.{1,2}\/[^"']+\.ts["']/);
});
