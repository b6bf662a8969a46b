/**
 * The fast loop's deno suite (scripts/lib/fast_loop.ts) on a throw-away
 * project: the doc examples run a few to an isolate from their relocated
 * modules (relative imports and `import.meta.url` still point next to the
 * documented file), the test files run, an example that only passes in a
 * fresh isolate is run again alone and counted passed, a broken example
 * stays failed, and a type error in an example fails the suite.
 */
import { assert, assertEquals } from "@std/assert";
import { runFastLoop } from "../scripts/lib/fast_loop.ts";

async function project(files: Record<string, string>): Promise<URL> {
  const dir = await Deno.makeTempDir({ prefix: "fast_loop_" });
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(`${dir}/${path}`.replace(/\/[^/]*$/, ""), {
      recursive: true,
    });
    await Deno.writeTextFile(`${dir}/${path}`, text);
  }
  return new URL(`file://${dir}/`);
}

const doc = (code: string) =>
  [
    "/**",
    " * ```ts",
    ...code.split("\n").map((l) => ` * ${l}`),
    " * ```",
    " */",
  ]
    .join("\n");

const FILES: Record<string, string> = {
  "deno.json": "{}\n",
  "src/b.ts": "export const two = 2;\n",
  "src/a.ts": [
    doc([
      'import { two } from "./b.ts";',
      'import { one } from "./a.ts";',
      "if (one + two !== 3) throw new Error();",
      'const here = new URL("./b.ts", import.meta.url).pathname;',
      'if (!here.endsWith("/src/b.ts")) throw new Error(here);',
      'if (!import.meta.url.includes("/src/a.ts#")) throw new Error(import.meta.url);',
    ].join("\n")),
    "export const one = 1;",
    doc("if (1 + 1 !== 2) throw new Error();"),
    "export const plain = 0;",
    doc("(globalThis as Record<string, unknown>).filled = true;"),
    "export const fill = 0;",
    doc(
      'if ((globalThis as Record<string, unknown>).filled) throw new Error("not fresh");',
    ),
    "export const fresh = 0;",
    // Eight examples, two to each of the four harnesses: the two above
    // share one.
    ...[3, 4, 5, 6].flatMap((i) => [
      doc(`if (${i} !== ${i}) throw new Error();`),
      `export const n${i} = ${i};`,
    ]),
    "",
  ].join("\n"),
  "tests/a_test.ts": 'Deno.test("a test", () => {});\n',
};

Deno.test("fast loop: doc examples share isolates, relocated; a fresh-isolate example is re-run alone; failures and type errors count", async () => {
  const root = await project(FILES);
  const lines: string[] = [];
  const run = (passThrough: string[] = []) =>
    runFastLoop({
      root,
      paths: ["tests/", "src/"],
      ignore: [],
      passThrough,
      forward: false,
      serial: false,
      log: (line) => lines.push(line),
    });
  try {
    const ok = await run();
    assert(ok, "deno's extraction log named the examples");
    assertEquals(ok.counts, { passed: 9, failed: 0, skipped: 0 }, ok.output);
    assertEquals(ok.code, 0, ok.output);
    assert(
      lines.some((l) => l.includes("passes alone") && l.includes("a.ts#")),
      lines.join("\n"),
    );
    assert(ok.times.some((t) => t.name === "a test"));

    // A broken example stays failed after its run alone.
    await Deno.writeTextFile(
      new URL("src/c.ts", root),
      doc("throw new Error('broken example');") + "\nexport const c = 0;\n",
    );
    const broken = await run();
    assertEquals(broken?.counts?.failed, 1, broken?.output);
    assert(broken!.code !== 0);

    // A type error in an example fails the suite, with deno's message.
    await Deno.writeTextFile(
      new URL("src/c.ts", root),
      doc('const n: number = "text";') + "\nexport const c = 0;\n",
    );
    const typed = await run();
    assert(typed!.code !== 0);
    assert(typed!.output.includes("TS2322"), typed!.output);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("fast loop: test files share isolates too; a file that needs a fresh one is re-run alone and passes, a broken one stays failed, files that did not load are named", async () => {
  const root = await project({
    "deno.json": "{}\n",
    "src/a.ts": doc("if (1 + 1 !== 2) throw new Error();") +
      "\nexport const a = 0;\n",
    // Fills a global when it loads: beside it, the next file is not fresh.
    "tests/fill_test.ts": [
      "(globalThis as Record<string, unknown>).filledByTest = true;",
      'Deno.test("fills a global", () => {});',
      "",
    ].join("\n"),
    "tests/fresh_test.ts": [
      'Deno.test("needs a fresh isolate", () => {',
      "  if ((globalThis as Record<string, unknown>).filledByTest) {",
      '    throw new Error("not fresh");',
      "  }",
      "});",
      'Deno.test("does not care", () => {});',
      "",
    ].join("\n"),
  });
  const lines: string[] = [];
  const run = () =>
    runFastLoop({
      root,
      paths: ["tests/", "src/"],
      ignore: [],
      passThrough: ["--no-check"],
      forward: false,
      serial: false,
      sharedTests: true,
      testHarnesses: 1,
      log: (line) => lines.push(line),
    });
  try {
    const ok = await run();
    assertEquals(ok?.counts, { passed: 4, failed: 0, skipped: 0 }, ok?.output);
    assertEquals(ok!.code, 0, ok!.output);
    assert(
      lines.some((l) =>
        l.includes("passes alone") && l.includes("needs a fresh isolate")
      ),
      lines.join("\n"),
    );
    // The report names each test's own file, not the harness.
    assert(
      ok!.times.some((t) =>
        t.name === "does not care" && t.file === "./tests/fresh_test.ts"
      ),
      JSON.stringify(ok!.times),
    );
    // The shared files' times are kept for the next run's balance.
    const kept = JSON.parse(
      await Deno.readTextFile(new URL(".tmp/test_times.json", root)),
    );
    assertEquals(Object.keys(kept).sort(), [
      "./tests/fill_test.ts",
      "./tests/fresh_test.ts",
    ]);

    // A test that fails alone too stays failed; a file that does not load
    // is a failure under its name.
    await Deno.writeTextFile(
      new URL("tests/broken_test.ts", root),
      'Deno.test("always fails", () => {\n  throw new Error("broken");\n});\n',
    );
    await Deno.writeTextFile(
      new URL("tests/unloadable_test.ts", root),
      'throw new Error("cannot load");\n',
    );
    const broken = await run();
    assertEquals(broken?.counts?.failed, 2, broken?.output);
    assert(broken!.code !== 0);
    assert(
      broken!.times.some((t) =>
        t.failed && t.name === "./tests/unloadable_test.ts (failed to load)"
      ),
      JSON.stringify(broken!.times),
    );
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
