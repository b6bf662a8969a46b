// End-to-end tests of `scripts/test.ts`: run it on throw-away test files and
// check its final line and exit code.
import { assert, assertEquals, assertStringIncludes } from "@std/assert";

const root = new URL("../", import.meta.url);

async function runRunner(
  files: Record<string, string>,
): Promise<{ code: number; lines: string[]; output: string }> {
  const dir = await Deno.makeTempDir({ prefix: "runner_test_" });
  try {
    for (const [name, text] of Object.entries(files)) {
      await Deno.writeTextFile(`${dir}/${name}`, text);
    }
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "scripts/test.ts", "--only=deno", `${dir}/`],
      cwd: root.pathname,
      // Skip the network probe: the offline map is what these machines use.
      env: { TEST_OFFLINE: "1", NO_COLOR: "1" },
      stdin: "null",
    }).output();
    const output = new TextDecoder().decode(stdout) +
      new TextDecoder().decode(stderr);
    const lines = new TextDecoder().decode(stdout).trimEnd().split("\n");
    return { code, lines, output };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

// Three independent runs of the runner, side by side (each is mostly a
// `deno test` type-checking its file); each step checks one.
Deno.test("the runner, run on throw-away test files", async (t) => {
  const [failing, passing, crashing] = await Promise.all([
    runRunner({
      "a_test.ts": [
        'import { assertEquals } from "@std/assert";',
        'Deno.test("passes", () => assertEquals(1, 1));',
        'Deno.test("fails", () => assertEquals<unknown>(1, "1"));',
        'Deno.test({ name: "ignored", ignore: true, fn() {} });',
      ].join("\n"),
    }),
    runRunner({
      "b_test.ts": [
        'import { assert } from "@std/assert";',
        'Deno.test("one", () => assert(true));',
        'Deno.test("two", () => assert(1));',
      ].join("\n"),
    }),
    runRunner({
      "c_test.ts":
        'const n: number = "not a number";\nDeno.test("x", () => {});',
    }),
  ]);

  await t.step(
    "runner sums counts, ends with the CI line and fails on a failure",
    () => {
      const { code, lines, output } = failing;
      assertEquals(lines.at(-1), "1 passed, 1 failed, 1 skipped");
      assertEquals(code, 1);
      assertStringIncludes(output, "import map: offline fallback");
      assertStringIncludes(output, "suite node: skipped");
    },
  );

  await t.step("runner exits 0 when everything passes", () => {
    const { code, lines } = passing;
    assertEquals(lines.at(-1), "2 passed, 0 failed");
    assertEquals(code, 0);
  });

  await t.step(
    "a suite that crashes before testing counts as a failure",
    () => {
      const { code, lines, output } = crashing;
      assertEquals(lines.at(-1), "0 passed, 1 failed");
      assertEquals(code, 1);
      assert(output.includes("no test counts found"), output);
    },
  );
});
