/**
 * A hint for errors about a CSV header: a file separated by semicolons, tabs
 * or pipes parses as one column whose name holds them all ("a;b;y"), and the
 * error that follows (a column not found) would not say why.
 *
 * @example
 * ```ts
 * import { separatorHint } from "./csv_hint.ts";
 *
 * const hint = separatorHint(["a;b;y"]);
 * if (!hint.includes("separated by semicolons")) throw new Error(hint);
 * if (separatorHint(["a", "b;c"]) !== "") throw new Error("two columns: no hint");
 * ```
 *
 * @module
 */

const SEPARATORS: readonly (readonly [string, string])[] = [
  [";", "semicolons"],
  ["\t", "tabs"],
  ["|", "pipes"],
];

/**
 * What to add to an error about `header` when it is one column holding
 * another separator; empty otherwise.
 *
 * @param header The header's column names, as the CSV parser read them.
 * @returns A sentence starting with "; ", or "".
 *
 * @example
 * ```ts
 * import { separatorHint } from "./csv_hint.ts";
 *
 * if (!separatorHint(["id\tage\tchurn"]).includes("tabs")) throw new Error();
 * if (separatorHint(["id,age"]) !== "") throw new Error("a comma is no hint");
 * ```
 */
export function separatorHint(header: readonly string[]): string {
  if (header.length !== 1) return "";
  const found = SEPARATORS.find(([s]) => header[0].includes(s));
  return found
    ? `; the header is one column: the file looks separated by ${
      found[1]
    }, and CSV here is comma-separated (save it with commas)`
    : "";
}
