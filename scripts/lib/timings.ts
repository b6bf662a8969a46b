/**
 * Per-test durations for the end-of-run report of `deno task test`: read from
 * the deno suite's JUnit file (`deno test --junit-path`) and from the node
 * suite's spec reporter lines, then the slowest listed, so a test that grows
 * slow is seen in every run (CI prints the same report).
 *
 * @module
 */

import { stripAnsi } from "./counts.ts";

/** How long one test took. */
export interface TestTime {
  /** The suite it ran in (`deno`, `node`, ...). */
  suite: string;
  /** The file or group it belongs to, when known. */
  file: string;
  /** The test's name. */
  name: string;
  /** Seconds it took. */
  seconds: number;
  /** True when the report marks it failed (JUnit `<failure>`). */
  failed?: boolean;
}

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
};

function unescapeXml(text: string): string {
  return text.replace(
    /&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi,
    (whole, entity: string) => {
      if (entity[0] !== "#") return ENTITIES[entity.toLowerCase()] ?? whole;
      const code = entity[1].toLowerCase() === "x"
        ? parseInt(entity.slice(2), 16)
        : parseInt(entity.slice(1), 10);
      return String.fromCodePoint(code);
    },
  );
}

function attribute(tag: string, name: string): string | undefined {
  const match = tag.match(new RegExp(`\\s${name}="([^"]*)"`));
  return match ? unescapeXml(match[1]) : undefined;
}

/**
 * Reads every `<testcase>` of a JUnit report (as `deno test --junit-path`
 * writes it) with its `time`, and whether it failed.
 *
 * @param xml The report's text.
 * @param suite The suite name to give each test.
 * @returns One entry per test case, in file order.
 *
 * @example
 * ```ts
 * import { parseJunit } from "./timings.ts";
 *
 * const xml = `<testsuites><testsuite name="./a_test.ts">
 *   <testcase name="adds &amp; rounds" classname="./a_test.ts" time="1.5" line="3" col="6"></testcase>
 *   <testcase name="breaks" classname="./a_test.ts" time="0.1"><failure message="x">x</failure></testcase>
 * </testsuite></testsuites>`;
 * const [t, broken] = parseJunit(xml, "deno");
 * if (t.name !== "adds & rounds" || t.seconds !== 1.5 || t.file !== "./a_test.ts" || t.failed) {
 *   throw new Error(JSON.stringify(t));
 * }
 * if (broken.name !== "breaks" || !broken.failed) throw new Error(JSON.stringify(broken));
 * ```
 */
export function parseJunit(xml: string, suite: string): TestTime[] {
  const times: TestTime[] = [];
  const cases = /<testcase\b[^>]*?(?:\/>|>([\s\S]*?)<\/testcase>)/g;
  for (const match of xml.matchAll(cases)) {
    const tag = match[0].slice(0, match[0].indexOf(">") + 1);
    const seconds = Number(attribute(tag, "time"));
    if (!Number.isFinite(seconds)) continue;
    times.push({
      suite,
      file: attribute(tag, "classname") ?? "",
      name: attribute(tag, "name") ?? "",
      seconds,
      failed: /<failure\b/.test(match[1] ?? ""),
    });
  }
  return times;
}

/**
 * Reads the durations `node --test --test-reporter=spec` prints after each
 * test (`✔ name (12.3ms)`; a failed test is `✖`).
 *
 * @param output The reporter's output.
 * @param suite The suite name to give each test.
 * @returns One entry per reported test.
 *
 * @example
 * ```ts
 * import { parseNodeSpec } from "./timings.ts";
 *
 * const times = parseNodeSpec("✔ builds (1200.5ms)\n  ✖ fails (3ms)\nℹ pass 1", "node");
 * if (times.length !== 2 || times[0].seconds !== 1.2005) throw new Error(JSON.stringify(times));
 * ```
 */
export function parseNodeSpec(output: string, suite: string): TestTime[] {
  const times: TestTime[] = [];
  for (const line of stripAnsi(output).split("\n")) {
    const match = line.match(/^\s*[✔✖]\s+(.*)\s+\(([\d.]+)ms\)\s*$/);
    if (!match) continue;
    times.push({
      suite,
      file: "",
      name: match[1],
      seconds: Number(match[2]) / 1000,
    });
  }
  return times;
}

/**
 * The `n` slowest tests, slowest first, one line each:
 * `  12.3s  deno  ./tests/a_test.ts  name`.
 *
 * @param times Every test's duration.
 * @param n How many to list.
 * @returns The lines (none when no time was collected).
 *
 * @example
 * ```ts
 * import { slowestLines } from "./timings.ts";
 *
 * const lines = slowestLines([
 *   { suite: "deno", file: "a.ts", name: "fast", seconds: 0.1 },
 *   { suite: "deno", file: "a.ts", name: "slow", seconds: 9 },
 * ], 1);
 * if (lines.length !== 1 || !lines[0].endsWith("slow")) throw new Error(lines.join("\n"));
 * ```
 */
export function slowestLines(times: readonly TestTime[], n: number): string[] {
  return [...times]
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, n)
    .map((t) => {
      // A doc example's name is its URL (file#lines.ts): say what it is.
      const name = t.name.startsWith("file://") ? "(doc example)" : t.name;
      const file = t.name.startsWith("file://")
        ? t.name.replace(/^.*?\/(?=[^/]+#)/, "").replace(/\.ts$/, "")
        : t.file;
      return `${t.seconds.toFixed(1).padStart(7)}s  ${t.suite.padEnd(9)} ${
        file ? `${file}  ` : ""
      }${name}`;
    });
}
