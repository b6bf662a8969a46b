/**
 * Parsers that read pass/fail/skip counts from test runners' output, so the
 * test command can end with one summary line for all suites.
 *
 * @module
 */

/** How many tests of a suite passed, failed and were skipped. */
export interface Counts {
  /** Tests (and doc examples) that passed. */
  passed: number;
  /** Tests that failed. */
  failed: number;
  /** Tests skipped, ignored or marked todo. */
  skipped: number;
}

// deno-lint-ignore no-control-regex
const ANSI = /\u001B\[[0-9;]*[A-Za-z]/g;

/**
 * Removes terminal colour codes, so parsing does not depend on whether the
 * runner thought it was writing to a terminal.
 *
 * @param text Output of a command.
 * @returns The text without ANSI escape sequences.
 *
 * @example
 * ```ts
 * import { stripAnsi } from "./counts.ts";
 *
 * if (stripAnsi("\u001B[32mok\u001B[0m") !== "ok") throw new Error("not stripped");
 * ```
 */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, "");
}

/**
 * Reads the final summary of `deno test`
 * (`ok | 3 passed (2 steps) | 1 failed | 2 ignored (1s)`). When a run has
 * several summaries (it should not), the last one wins.
 *
 * @param output Everything `deno test` printed.
 * @returns The counts, or `undefined` when no summary was printed (the run
 * crashed or failed to type-check before testing).
 *
 * @example
 * ```ts
 * import { parseDenoTest } from "./counts.ts";
 *
 * const counts = parseDenoTest("FAILED | 4 passed (1 step) | 1 failed | 2 ignored (3s)");
 * if (counts?.passed !== 4 || counts.failed !== 1 || counts.skipped !== 2) {
 *   throw new Error(JSON.stringify(counts));
 * }
 * ```
 */
export function parseDenoTest(output: string): Counts | undefined {
  const lines = stripAnsi(output).split("\n").filter((line) =>
    /^(ok|FAILED) \| \d+ passed/.test(line.trim())
  );
  const last = lines.at(-1);
  if (!last) return undefined;
  const count = (word: string) =>
    Number(last.match(new RegExp(`(\\d+) ${word}`))?.[1] ?? 0);
  return {
    passed: count("passed"),
    failed: count("failed"),
    skipped: count("ignored"),
  };
}

/**
 * Reads the totals of `node --test` with the `spec` reporter (`ℹ pass 3`) or
 * the `tap` reporter (`# pass 3`).
 *
 * @param output Everything `node --test` printed.
 * @returns The counts (todo and cancelled tests count as skipped and failed
 * respectively), or `undefined` when no totals were printed.
 *
 * @example
 * ```ts
 * import { parseNodeTest } from "./counts.ts";
 *
 * const counts = parseNodeTest("ℹ tests 3\nℹ pass 2\nℹ fail 1\nℹ skipped 0\nℹ todo 0");
 * if (counts?.passed !== 2 || counts.failed !== 1) throw new Error("bad parse");
 * ```
 */
export function parseNodeTest(output: string): Counts | undefined {
  const totals = new Map<string, number>();
  for (const line of stripAnsi(output).split("\n")) {
    const match = line.match(
      /^\s*(?:ℹ|#)\s+(tests|pass|fail|skipped|todo|cancelled)\s+(\d+)\s*$/,
    );
    if (match) totals.set(match[1], Number(match[2]));
  }
  if (!totals.has("pass") && !totals.has("fail")) return undefined;
  const n = (key: string) => totals.get(key) ?? 0;
  return {
    passed: n("pass"),
    failed: n("fail") + n("cancelled"),
    skipped: n("skipped") + n("todo"),
  };
}

/**
 * Formats the final summary line that CI looks for:
 * `N passed, N failed` followed by `, N skipped` when any were skipped, and
 * by `(suites not run: a, b)` when whole suites were left out (`--skip`,
 * `TEST_SKIP`), so a green line never hides a suite that did not run.
 *
 * @param counts The totals over all suites.
 * @param suitesNotRun Names of the suites left out.
 * @returns The line, without a newline.
 *
 * @example
 * ```ts
 * import { summaryLine } from "./counts.ts";
 *
 * if (summaryLine({ passed: 5, failed: 0, skipped: 1 }) !== "5 passed, 0 failed, 1 skipped") {
 *   throw new Error("wrong summary");
 * }
 * const line = summaryLine({ passed: 5, failed: 0, skipped: 0 }, ["node", "notebooks"]);
 * if (line !== "5 passed, 0 failed (suites not run: node, notebooks)") throw new Error(line);
 * ```
 */
export function summaryLine(
  counts: Counts,
  suitesNotRun: string[] = [],
): string {
  const base = `${counts.passed} passed, ${counts.failed} failed`;
  const line = counts.skipped > 0 ? `${base}, ${counts.skipped} skipped` : base;
  return suitesNotRun.length
    ? `${line} (suites not run: ${suitesNotRun.join(", ")})`
    : line;
}
