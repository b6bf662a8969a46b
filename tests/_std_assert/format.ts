/**
 * Rendering of values and line diffs for assertion messages.
 *
 * @module
 */

import { inspect } from "node:util";

/**
 * Renders a value for a failure message: deep, sorted keys, no colours, so
 * that two renderings can be diffed line by line.
 *
 * @param value Any value.
 * @returns A multi-line, stable text form.
 *
 * @example
 * ```ts
 * import { format } from "./format.ts";
 *
 * if (format({ b: 1, a: "x" }) !== "{ a: 'x', b: 1 }") {
 *   throw new Error("keys must be sorted and strings quoted");
 * }
 * ```
 */
export function format(value: unknown): string {
  return inspect(value, {
    depth: Infinity,
    sorted: true,
    colors: false,
    compact: 3,
    breakLength: 80,
    getters: false,
    maxArrayLength: 200,
    maxStringLength: 10_000,
  });
}

/**
 * Builds a line diff of two renderings (longest common subsequence), marking
 * lines only in `actual` with `-` and lines only in `expected` with `+`.
 *
 * @param actual Rendering of the actual value.
 * @param expected Rendering of the expected value.
 * @returns The diff text, one line per rendered line.
 *
 * @example
 * ```ts
 * import { diffLines } from "./format.ts";
 *
 * const text = diffLines("a\nb", "a\nc");
 * if (text !== "    a\n-   b\n+   c") throw new Error(text);
 * ```
 */
export function diffLines(actual: string, expected: string): string {
  const a = actual.split("\n");
  const b = expected.split("\n");
  // Renderings of huge values would make the quadratic table too big; fall
  // back to showing both sides whole.
  if (a.length * b.length > 4_000_000) {
    return [...a.map((l) => `-   ${l}`), ...b.map((l) => `+   ${l}`)].join(
      "\n",
    );
  }
  const lcs: number[][] = Array.from(
    { length: a.length + 1 },
    () => new Array<number>(b.length + 1).fill(0),
  );
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i][j] = a[i] === b[j]
        ? lcs[i + 1][j + 1] + 1
        : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push(`    ${a[i++]}`);
      j++;
    } else if (
      j < b.length && (i >= a.length || lcs[i][j + 1] > lcs[i + 1][j])
    ) {
      out.push(`+   ${b[j++]}`);
    } else {
      out.push(`-   ${a[i++]}`);
    }
  }
  return out.join("\n");
}

/**
 * Formats the standard "values are not equal" body: a legend and a diff.
 *
 * @param actual The actual value.
 * @param expected The expected value.
 * @returns The message body, starting with a newline.
 *
 * @example
 * ```ts
 * import { diffMessage } from "./format.ts";
 *
 * if (!diffMessage(1, 2).includes("+   2")) throw new Error("missing diff");
 * ```
 */
export function diffMessage(actual: unknown, expected: unknown): string {
  const a = format(actual);
  const b = format(expected);
  if (a === b) {
    // Same rendering yet unequal (e.g. different classes with equal fields):
    // say so rather than showing an empty diff.
    return `\n\n    ${a}\n\nThe values render the same but differ in type, prototype or a non-rendered property.`;
  }
  return `\n\n    [Diff] Actual / Expected\n\n${diffLines(a, b)}\n`;
}
