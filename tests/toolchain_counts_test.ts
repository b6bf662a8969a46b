import { assertEquals } from "@std/assert";
import {
  parseDenoTest,
  parseNodeTest,
  stripAnsi,
  summaryLine,
} from "../scripts/lib/counts.ts";

Deno.test("parseDenoTest reads the final summary, colours or not", () => {
  const output = [
    "running 2 tests from ./a_test.ts",
    "x ... ok (1ms)",
    "\u001b[0m\u001b[32mok\u001b[0m | 12 passed (3 steps) | 0 failed | 2 ignored (1s)",
  ].join("\n");
  assertEquals(parseDenoTest(output), { passed: 12, failed: 0, skipped: 2 });
  assertEquals(
    parseDenoTest("FAILED | 4 passed | 3 failed | 1 filtered out (2s)"),
    { passed: 4, failed: 3, skipped: 0 },
  );
});

Deno.test("parseDenoTest returns undefined when no summary was printed", () => {
  assertEquals(parseDenoTest("error: Type checking failed."), undefined);
  assertEquals(parseDenoTest("test ok | but not a summary"), undefined);
});

Deno.test("parseNodeTest reads spec and tap totals", () => {
  const spec = "ℹ tests 5\nℹ suites 0\nℹ pass 3\nℹ fail 1\nℹ cancelled 1\n" +
    "ℹ skipped 2\nℹ todo 1\nℹ duration_ms 40";
  assertEquals(parseNodeTest(spec), { passed: 3, failed: 2, skipped: 3 });
  const tap = "# tests 2\n# pass 2\n# fail 0\n# skipped 0\n# todo 0";
  assertEquals(parseNodeTest(tap), { passed: 2, failed: 0, skipped: 0 });
  assertEquals(parseNodeTest("no totals here"), undefined);
});

Deno.test("summaryLine has the exact CI form", () => {
  assertEquals(
    summaryLine({ passed: 7, failed: 1, skipped: 0 }),
    "7 passed, 1 failed",
  );
  assertEquals(
    summaryLine({ passed: 0, failed: 0, skipped: 3 }),
    "0 passed, 0 failed, 3 skipped",
  );
});

Deno.test("stripAnsi removes colour codes only", () => {
  assertEquals(stripAnsi("\u001b[1m\u001b[31mred\u001b[0m | ok"), "red | ok");
});
