/**
 * Runs the Node tests of the built package: copies the scripts of
 * `tests/node/` (the `*.test.mjs` files and the helpers they import) into
 * `<outDir>/test/` (so they import the package by its name, through package
 * self-reference) and runs the tests with `node --test`.
 *
 * @module
 */

import { runTee } from "../lib/run.ts";

/** File names of the Node tests. */
export const NODE_TEST_FILE = /\.test\.(mjs|js|cjs)$/;
/** Scripts of the Node test folder: the tests and their helpers, all copied. */
const NODE_SCRIPT = /\.(mjs|js|cjs)$/;

/**
 * Copies the Node tests next to the built package and runs them with the
 * `spec` reporter, forwarding the output live.
 *
 * @param testsDir Folder with the Node tests (`<root>/tests/node`).
 * @param outDir The built package (`<root>/npm`).
 * @param options `forward: false` captures the output without printing it.
 * @returns Node's exit code and output.
 * @throws {Error} When there are no Node tests to run.
 *
 * @example
 * ```ts
 * import { runNodeTests } from "./node_tests.ts";
 *
 * // A one-file package "demo" and a Node test that imports it by name.
 * const pkg = await Deno.makeTempDir();
 * const tests = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${pkg}/package.json`, '{"name":"demo","type":"module","exports":"./index.js"}');
 * await Deno.writeTextFile(`${pkg}/index.js`, "export const answer = 42;\n");
 * await Deno.writeTextFile(
 *   `${tests}/demo.test.mjs`,
 *   'import { test } from "node:test";\nimport { answer } from "demo";\n' +
 *     'test("answer", () => { if (answer !== 42) throw new Error("wrong"); });\n',
 * );
 * const { code, output } = await runNodeTests(tests, pkg, { forward: false });
 * if (code !== 0 || !output.includes("pass 1")) throw new Error(output);
 * await Deno.remove(pkg, { recursive: true });
 * await Deno.remove(tests, { recursive: true });
 * ```
 */
export async function runNodeTests(
  testsDir: string,
  outDir: string,
  options: { forward?: boolean } = {},
): Promise<{ code: number; output: string }> {
  const target = `${outDir}/test`;
  await Deno.remove(target, { recursive: true }).catch(() => {});
  await Deno.mkdir(target, { recursive: true });
  const files: string[] = [];
  for await (const entry of Deno.readDir(testsDir)) {
    if (!entry.isFile || !NODE_SCRIPT.test(entry.name)) continue;
    await Deno.copyFile(`${testsDir}/${entry.name}`, `${target}/${entry.name}`);
    if (NODE_TEST_FILE.test(entry.name)) files.push(`test/${entry.name}`);
  }
  if (files.length === 0) {
    throw new Error(
      `No Node tests (*.test.mjs) found in ${testsDir}: add at least one that imports the package by name.`,
    );
  }
  files.sort();
  return await runTee("node", ["--test", "--test-reporter=spec", ...files], {
    cwd: outDir,
    forward: options.forward,
  });
}
