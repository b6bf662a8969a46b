/**
 * The test command's own honesty (issue 9, item 7): under `CI=true` a
 * notebook suite that cannot find Jupyter or the Deno kernel fails instead
 * of skipping, and suites left out are named in the final line.
 */
import { assert, assertEquals, assertMatch } from "@std/assert";
import { summaryLine } from "../scripts/lib/counts.ts";

const ROOT = new URL("../", import.meta.url).pathname;

async function run(args: string[], env: Record<string, string>) {
  const out = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: ROOT,
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  return { code: out.code, lines: text.trim().split("\n") };
}

Deno.test("honesty: the summary line names the suites that did not run", () => {
  assertEquals(
    summaryLine({ passed: 3, failed: 0, skipped: 0 }, ["node"]),
    "3 passed, 0 failed (suites not run: node)",
  );
  assertEquals(
    summaryLine({ passed: 3, failed: 0, skipped: 0 }, []),
    "3 passed, 0 failed",
  );
});

Deno.test("honesty: deno task test --skip / TEST_SKIP name the left-out suites in the final line", async () => {
  const { code, lines } = await run([
    "run",
    "-A",
    "scripts/test.ts",
    "--skip=node",
    "--filter",
    "summaryLine has the exact CI form",
    "tests/toolchain_counts_test.ts",
  ], { TEST_SKIP: "notebooks", TEST_OFFLINE: "1" });
  assertEquals(code, 0, lines.join("\n"));
  assertEquals(
    lines.at(-1),
    "1 passed, 0 failed (suites not run: node, notebooks)",
  );
});

Deno.test("honesty: under CI=true the notebook suite fails without Jupyter; elsewhere it skips", async () => {
  const ci = await run(["run", "-A", "scripts/notebooks.ts"], {
    CI: "true",
    NOTEBOOK_PYTHON: "/nonexistent/python3",
  });
  assertEquals(ci.code, 1);
  assertMatch(ci.lines.at(-1)!, /^0 passed, [1-9]\d* failed$/);
  assert(ci.lines.some((l) => l.startsWith("FAIL") && l.includes("CI=true")));
  const local = await run(["run", "-A", "scripts/notebooks.ts"], {
    CI: "false",
    NOTEBOOK_PYTHON: "/nonexistent/python3",
  });
  assertEquals(local.code, 0);
  assertMatch(local.lines.at(-1)!, /^0 passed, 0 failed, [1-9]\d* skipped$/);
});
