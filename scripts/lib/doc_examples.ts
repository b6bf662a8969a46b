/**
 * The JSDoc and Markdown examples of `deno task test` and its fast loop,
 * run a few hundred to an isolate instead of one each.
 *
 * `deno test --doc` turns every example into its own module (the example's
 * imports, an import of the documented file's exports, and the rest wrapped
 * in `Deno.test("<file>#<lines>.ts", ...)`) and runs each module in a fresh
 * isolate: 0.1-0.3 s of CPU per example before it does anything, two
 * minutes for ~550 examples on two cores. The test command asks deno for those
 * very modules (its `deno::util::extract` debug log prints each one), writes
 * them to a temporary folder with their relative imports and `import.meta`
 * pointed back at the documented file, and imports them from a few harness
 * modules, so the examples share the isolates and the modules they load.
 * Type-checking stays deno's own (`deno test --doc --no-run` over the same
 * paths); `deno task test --doc-isolates` still runs each example alone.
 *
 * @module
 */

import { writeHarness } from "./harness.ts";

/** One example as `deno test --doc` builds it. */
export interface DocExample {
  /** Its module URL and test name: `file:///.../x.ts#12-20.ts`. */
  url: string;
  /** The module deno generated for it. */
  source: string;
}

/** The environment that makes `deno test --doc` log every example's module. */
export const EXTRACT_LOG_ENV: Readonly<Record<string, string>> = {
  DENO_LOG: "deno::util::extract=debug",
};

const LOG_LINE = /^(?:TRACE|DEBUG|INFO|WARN|ERROR) RS - /;
const EXTRACT_HEADER = /^DEBUG RS - deno::util::extract(?::\d+)? - (\S+):$/;

/**
 * Reads the modules deno generated for the examples from the output of
 * `deno test --doc --no-run` run with {@linkcode EXTRACT_LOG_ENV}: each one
 * is logged as a header line naming it, then its source up to the next log
 * line.
 *
 * @param log Everything the command printed.
 * @returns The examples in the order deno logged them.
 *
 * @example
 * ```ts
 * import { parseExtractLog } from "./doc_examples.ts";
 *
 * const [example] = parseExtractLog([
 *   "DEBUG RS - deno::util::extract:995 - file:///r/a.ts#3-6.ts:",
 *   'import { f } from "./a.ts";',
 *   'Deno.test("file:///r/a.ts#3-6.ts", async ()=>{',
 *   "    f();",
 *   "});",
 *   "",
 *   "DEBUG RS - deno::cache::cache_db:204 - Opening cache",
 * ].join("\n"));
 * if (example.url !== "file:///r/a.ts#3-6.ts" || !example.source.endsWith("});\n")) {
 *   throw new Error(JSON.stringify(example));
 * }
 * ```
 */
export function parseExtractLog(log: string): DocExample[] {
  const examples: DocExample[] = [];
  let current: { url: string; lines: string[] } | undefined;
  const close = () => {
    if (!current) return;
    const source = current.lines.join("\n").trimEnd();
    examples.push({ url: current.url, source: `${source}\n` });
    current = undefined;
  };
  for (const line of log.split(/\r?\n/)) {
    if (LOG_LINE.test(line)) {
      close();
      const header = line.match(EXTRACT_HEADER);
      if (header) current = { url: header[1], lines: [] };
    } else if (current) {
      current.lines.push(line);
    }
  }
  close();
  return examples;
}

/** The parts of the TypeScript compiler API {@linkcode relocate} uses. */
export type TypeScriptApi = typeof import("typescript");

/** Name of the object that stands for `import.meta` in a relocated example. */
export const META_NAME = "__docExampleMeta";

function isRelative(specifier: string): boolean {
  return specifier.startsWith("./") || specifier.startsWith("../");
}

/**
 * Rewrites an example's module so that it runs the same from another folder:
 * relative specifiers (static and dynamic imports, re-exports, `import()`
 * types) become absolute URLs next to the documented file, and `import.meta`
 * becomes an object with the `url`, `main`, `filename`, `dirname` and
 * `resolve` deno gives the example (`url` is the example's own
 * `file#lines.ts` URL). Strings, comments and everything else are left as
 * they are: the source is parsed, not searched.
 *
 * @param ts The TypeScript compiler API (`npm:typescript`).
 * @param example The example as deno generated it.
 * @returns The module's new source.
 *
 * @example
 * ```ts
 * import ts from "typescript";
 * import { relocate } from "./doc_examples.ts";
 *
 * const out = relocate(ts, {
 *   url: "file:///r/src/a.ts#3-6.ts",
 *   source: [
 *     'import { f } from "./b.ts";',
 *     'Deno.test("x", async () => {',
 *     '  const text = \'from "./c.ts"\';',
 *     '  await import("../d.ts");',
 *     '  new URL("./e.ts", import.meta.url);',
 *     "});",
 *   ].join("\n"),
 * });
 * if (!out.includes('from "file:///r/src/b.ts"')) throw new Error(out);
 * if (!out.includes('import("file:///r/d.ts")')) throw new Error(out);
 * if (!out.includes(`'from "./c.ts"'`)) throw new Error(out); // a string stays
 * if (out.includes("import.meta.url")) throw new Error(out);
 * ```
 */
export function relocate(ts: TypeScriptApi, example: DocExample): string {
  const extension = example.url.match(/\.(tsx?|jsx?|mts|cts|mjs|cjs)$/)?.[1] ??
    "ts";
  const kind = extension === "tsx"
    ? ts.ScriptKind.TSX
    : extension === "jsx"
    ? ts.ScriptKind.JSX
    : /^[mc]?js$/.test(extension)
    ? ts.ScriptKind.JS
    : ts.ScriptKind.TS;
  const file = ts.createSourceFile(
    `example.${extension}`,
    example.source,
    ts.ScriptTarget.Latest,
    true,
    kind,
  );
  const edits: { start: number; end: number; text: string }[] = [];
  let usesMeta = false;
  const absolutize = (literal: import("typescript").Node | undefined) => {
    if (!literal || !ts.isStringLiteralLike(literal)) return;
    if (!isRelative(literal.text)) return;
    edits.push({
      start: literal.getStart(file),
      end: literal.getEnd(),
      text: JSON.stringify(new URL(literal.text, example.url).href),
    });
  };
  const visit = (node: import("typescript").Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) {
      absolutize(node.moduleSpecifier);
    } else if (ts.isExternalModuleReference(node)) {
      absolutize(node.expression);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword
    ) {
      absolutize(node.arguments[0]);
    } else if (
      ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)
    ) {
      absolutize(node.argument.literal);
    } else if (
      ts.isMetaProperty(node) &&
      node.keywordToken === ts.SyntaxKind.ImportKeyword
    ) {
      usesMeta = true;
      edits.push({
        start: node.getStart(file),
        end: node.getEnd(),
        text: META_NAME,
      });
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  let text = example.source;
  for (const edit of edits.sort((a, b) => b.start - a.start)) {
    text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
  }
  if (!usesMeta) return text;
  // What deno gives the example: its own URL; the documented file's path.
  const url = example.url;
  const documented = new URL(url);
  documented.hash = "";
  const filename = decodeURIComponent(documented.pathname);
  const dirname = filename.replace(/\/[^/]*$/, "") || "/";
  const meta = `const ${META_NAME} = { url: ${JSON.stringify(url)}, ` +
    `main: false, filename: ${JSON.stringify(filename)}, ` +
    `dirname: ${JSON.stringify(dirname)}, ` +
    `resolve: (s) => s.startsWith("./") || s.startsWith("../") ` +
    `? new URL(s, ${JSON.stringify(url)}).href : import.meta.resolve(s) };\n`;
  return meta + text;
}

/** What {@linkcode writeDocHarness} wrote. */
export interface DocHarness {
  /** The harness modules to give `deno test`, in order. */
  harnesses: string[];
  /** Each example's relocated module, by the example's URL. */
  modules: Map<string, string>;
}

/**
 * Writes every example's relocated module into `dir` and `parts` harness
 * modules that import them in order (consecutive examples together, so an
 * example's neighbours mostly load the same modules). A harness imports
 * each example on its own: one that fails to load becomes a failing test
 * under the example's name instead of stopping the others.
 *
 * @param ts The TypeScript compiler API.
 * @param examples The examples, as {@linkcode parseExtractLog} read them.
 * @param dir An empty folder to write to.
 * @param parts How many harness modules (at most one per example).
 * @returns The harness paths and the relocated module of each example.
 *
 * @example
 * ```ts
 * import ts from "typescript";
 * import { writeDocHarness } from "./doc_examples.ts";
 *
 * const dir = await Deno.makeTempDir();
 * const { harnesses, modules } = await writeDocHarness(ts, [
 *   { url: "file:///r/a.ts#1-3.ts", source: 'Deno.test("file:///r/a.ts#1-3.ts", () => {});\n' },
 *   { url: "file:///r/a.ts#5-7.ts", source: 'Deno.test("file:///r/a.ts#5-7.ts", () => {});\n' },
 * ], dir, 4);
 * if (harnesses.length !== 2 || modules.size !== 2) throw new Error(harnesses.join());
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function writeDocHarness(
  ts: TypeScriptApi,
  examples: readonly DocExample[],
  dir: string,
  parts: number,
): Promise<DocHarness> {
  const modules = new Map<string, string>();
  const count = Math.max(1, Math.min(parts, examples.length));
  const groups: string[][] = Array.from({ length: count }, () => []);
  for (const [i, example] of examples.entries()) {
    const extension = example.url.match(/\.[a-z]+$/)?.[0] ?? ".ts";
    const path = `${dir}/example_${i}${extension}`;
    await Deno.writeTextFile(path, relocate(ts, example));
    modules.set(example.url, path);
    groups[Math.floor(i * count / examples.length)].push(example.url);
  }
  const harnesses: string[] = [];
  for (const [i, urls] of groups.entries()) {
    if (!urls.length) continue;
    const path = `${dir}/doc_examples_${i + 1}_of_${count}.js`;
    await writeHarness(
      path,
      "the doc examples sharing an isolate",
      urls.map((url) => ({ name: url, path: modules.get(url)! })),
    );
    harnesses.push(path);
  }
  return { harnesses, modules };
}
