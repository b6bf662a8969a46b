/**
 * The deno suite of the fast loop (`deno task test:fast`): the same tests and
 * doc examples as `deno test -A --doc --parallel` over the same paths, with
 * the doc examples run a few hundred to an isolate (see doc_examples.ts):
 *
 * 1. `deno test --doc --no-run --no-check` with deno's extraction log on:
 *    the module deno generates for each example;
 * 2. `deno test --doc --no-run`: deno type-checks the tests and every
 *    example exactly as the full command does (cached when nothing changed),
 *    beside step 3 (a type error fails the suite, its errors printed last);
 * 3. `deno test -A --no-check --parallel` over a few harness modules that
 *    import the examples, and the test files (or harnesses of them);
 * 4. an example or a shared test file that failed there is run again alone,
 *    in its own isolate as `deno test` runs it, and that run's verdict is the
 *    one counted (a module may rely on a fresh isolate, e.g. on a registry
 *    nothing filled).
 *
 * @module
 */

import { parseDenoTest } from "./counts.ts";
import {
  type DocExample,
  EXTRACT_LOG_ENV,
  parseExtractLog,
  writeDocHarness,
} from "./doc_examples.ts";
import { junitName, longestFirst, writeTestHarness } from "./harness.ts";
import { runTee } from "./run.ts";
import { parseJunit, type TestTime } from "./timings.ts";
import type { Counts } from "./counts.ts";

/**
 * How many harness modules share the doc examples: enough for both cores
 * to take some near the end of the run, few enough that each loads the
 * source once.
 */
export const DOC_HARNESSES = 4;

/**
 * How many harness modules share the test files when `sharedTests` is on:
 * more than the cores, so that the one left running at the end is short.
 */
export const TEST_HARNESSES = 4;

/**
 * Where the test files' last times are kept, relative to the root (git
 * ignores `.tmp/` and deno.json excludes it): the next run shares the files
 * out between harnesses by them (the fast loop) or starts the longest first
 * (the full command), so both cores stay busy to the end.
 */
export const TEST_TIMES_PATH = ".tmp/test_times.json";

/**
 * Reads the times {@linkcode saveTestTimes} kept (none when there is no
 * file, or it is not ours).
 *
 * @param root The repository root.
 * @returns Seconds by test file (`./tests/a_test.ts`).
 */
export async function readTestTimes(root: URL): Promise<Map<string, number>> {
  try {
    const saved = JSON.parse(
      await Deno.readTextFile(new URL(TEST_TIMES_PATH, root)),
    );
    return new Map(
      Object.entries(saved).filter(([, v]) =>
        typeof v === "number" && Number.isFinite(v) && v >= 0
      ) as [string, number][],
    );
  } catch {
    return new Map();
  }
}

/**
 * Keeps each test file's time of this run (the sum of its tests) beside
 * the earlier ones, for {@linkcode readTestTimes}.
 *
 * @param root The repository root.
 * @param times This run's per-test times.
 * @param files The test files that ran (`./tests/a_test.ts`).
 *
 * @example
 * ```ts
 * import { readTestTimes, saveTestTimes } from "./fast_loop.ts";
 *
 * const root = new URL(`file://${await Deno.makeTempDir()}/`);
 * await saveTestTimes(root, [
 *   { suite: "deno", file: "./tests/a_test.ts", name: "one", seconds: 1 },
 *   { suite: "deno", file: "./tests/a_test.ts", name: "two", seconds: 2 },
 *   { suite: "deno", file: "/tmp/example_1.ts", name: "doc", seconds: 5 },
 * ], ["./tests/a_test.ts"]);
 * const kept = await readTestTimes(root);
 * if (kept.get("./tests/a_test.ts") !== 3 || kept.size !== 1) throw new Error([...kept].join());
 * await Deno.remove(root, { recursive: true });
 * ```
 */
export async function saveTestTimes(
  root: URL,
  times: readonly TestTime[],
  files: readonly string[],
): Promise<void> {
  const ran = new Set(files);
  const kept = await readTestTimes(root);
  const now = new Map<string, number>();
  for (const t of times) {
    if (ran.has(t.file)) now.set(t.file, (now.get(t.file) ?? 0) + t.seconds);
  }
  for (const [file, seconds] of now) kept.set(file, seconds);
  try {
    await Deno.mkdir(new URL(".tmp/", root), { recursive: true });
    await Deno.writeTextFile(
      new URL(TEST_TIMES_PATH, root),
      JSON.stringify(Object.fromEntries(kept), null, 1) + "\n",
    );
  } catch {
    // A read-only checkout only loses the balancing.
  }
}

/** What the fast loop's deno suite is given. */
export interface FastLoopOptions {
  /** The repository root. */
  root: URL;
  /** The offline import map, when JSR is unreachable. */
  importMap?: string;
  /** Files and folders to test (relative to the root), doc examples included. */
  paths: string[];
  /** Left out (`--ignore`). */
  ignore: readonly string[];
  /** Arguments for the run (a `--filter`, `--fail-fast`, ...). */
  passThrough: string[];
  /** Forward the output live. */
  forward: boolean;
  /** One file at a time. */
  serial: boolean;
  /**
   * Run the test files a few dozen to an isolate as well (a file that
   * fails there runs again alone, and that verdict counts).
   */
  sharedTests?: boolean;
  /** How many harnesses share the test files (default {@linkcode TEST_HARNESSES}). */
  testHarnesses?: number;
  /** Where to say what happens beside deno's own output. */
  log?: (line: string) => void;
}

/** What the fast loop's deno suite reports. */
export interface FastLoopResult {
  /** Exit code: non-zero when anything failed or did not type-check. */
  code: number;
  /** The counts, or `undefined` when the tests did not run. */
  counts?: Counts;
  /** Everything printed. */
  output: string;
  /** Per-test durations. */
  times: TestTime[];
}

function hasFlag(args: readonly string[], flag: string): boolean {
  return args.some((arg) => arg === flag || arg.startsWith(`${flag}=`));
}

/** The names `deno test` takes for test files in a folder it is given. */
export const TEST_FILE = /^(?:.*[_.])?test\.(?:ts|tsx|mts|js|mjs|jsx)$/;

/**
 * The test files `deno test` finds in `paths` (files given by name count
 * when they match too), less `ignore` (files, or folders ending in `/`) and
 * deno.json's `exclude` and `test.exclude`, sorted.
 *
 * @param root The repository root.
 * @param paths Files and folders, relative to the root.
 * @param ignore Files and folders (ending in `/`) to leave out.
 * @returns Paths relative to the root.
 *
 * @example
 * ```ts
 * import { findTestFiles } from "./fast_loop.ts";
 *
 * const root = new URL("../../", import.meta.url);
 * const files = await findTestFiles(root, ["tests/", "scripts/"], ["tests/node/"]);
 * if (!files.includes("tests/file_size_test.ts")) throw new Error(files.join());
 * if (files.some((f) => f.startsWith("tests/node/"))) throw new Error(files.join());
 * ```
 */
export async function findTestFiles(
  root: URL,
  paths: readonly string[],
  ignore: readonly string[],
): Promise<string[]> {
  const config = JSON.parse(
    await Deno.readTextFile(new URL("deno.json", root)).catch(() => "{}"),
  );
  const left = [
    ...ignore,
    ...(config.exclude ?? []),
    ...(config.test?.exclude ?? []),
  ].map((path: string) => path.replace(/^\.\//, ""));
  const ignored = (path: string) =>
    left.some((entry) =>
      entry.endsWith("/") ? `${path}/`.startsWith(entry) : path === entry
    );
  const found: string[] = [];
  const walk = async (path: string): Promise<void> => {
    if (ignored(path)) return;
    const stat = await Deno.stat(new URL(path, root)).catch(() => undefined);
    if (!stat) return;
    if (stat.isFile) {
      if (TEST_FILE.test(path.split("/").at(-1)!)) found.push(path);
      return;
    }
    for await (const entry of Deno.readDir(new URL(`${path}/`, root))) {
      if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
      await walk(`${path}/${entry.name}`);
    }
  };
  for (const path of paths) await walk(path.replace(/\/$/, ""));
  return [...new Set(found)].sort();
}

/**
 * Asks deno for the module it builds for each doc example of `paths`.
 *
 * @param options Where, with which import map and ignore list.
 * @returns The examples, or the failed command's output.
 */
export async function extractDocExamples(
  options: Pick<FastLoopOptions, "root" | "importMap" | "paths" | "ignore">,
): Promise<{ examples: DocExample[]; code: number; output: string }> {
  const { code, output } = await runTee(Deno.execPath(), [
    "test",
    "--doc",
    "--no-run",
    "--no-check",
    ...(options.importMap ? [`--import-map=${options.importMap}`] : []),
    ...(options.ignore.length ? [`--ignore=${options.ignore.join(",")}`] : []),
    ...options.paths,
  ], {
    cwd: options.root.pathname,
    env: { ...EXTRACT_LOG_ENV },
    forward: false,
  });
  return { examples: parseExtractLog(output), code, output };
}

/**
 * Runs the fast loop's deno suite (steps in the module doc).
 *
 * @param options What to run and how.
 * @returns The result, or `undefined` when deno's log named no doc example
 * (its format changed): the caller then runs `deno test --doc` as is.
 */
export async function runFastLoop(
  options: FastLoopOptions,
): Promise<FastLoopResult | undefined> {
  const log = options.log ?? console.log;
  const cwd = options.root.pathname;
  const deno = Deno.execPath();
  const mapArgs = options.importMap
    ? [`--import-map=${options.importMap}`]
    : [];
  const ignoreArgs = options.ignore.length
    ? [`--ignore=${options.ignore.join(",")}`]
    : [];
  const outputs: string[] = [];

  const extracted = await extractDocExamples(options);
  if (extracted.code !== 0) {
    if (options.forward) await write(extracted.output);
    return { code: extracted.code, output: extracted.output, times: [] };
  }
  if (!extracted.examples.length) return undefined;

  // The type-check runs beside the tests (tsc takes one core for several
  // seconds when a file changed); its output follows the tests' when it
  // fails, and the suite fails with it.
  const checking = hasFlag(options.passThrough, "--no-check")
    ? undefined
    : runTee(deno, [
      "test",
      "--doc",
      "--no-run",
      ...mapArgs,
      ...ignoreArgs,
      ...options.paths,
    ], { cwd, forward: false });
  const withCheck = async (
    result: FastLoopResult,
  ): Promise<FastLoopResult> => {
    const checked = await checking;
    if (!checked || checked.code === 0) return result;
    const header = "\ntype-check (deno test --doc --no-run) failed:\n";
    if (options.forward) await write(header + checked.output);
    return {
      ...result,
      code: result.code || checked.code,
      output: result.output + header + checked.output,
    };
  };

  const dir = await Deno.makeTempDir({ prefix: "mlplatform_doc_examples_" });
  const junit = `${dir}/junit.xml`;
  const alone = `${dir}/junit_alone.xml`;
  try {
    const ts = (await import("typescript")).default;
    const { harnesses, modules } = await writeDocHarness(
      ts,
      extracted.examples,
      dir,
      DOC_HARNESSES,
    );
    // The test files by name, not the folders with --ignore: deno applies
    // --ignore wrongly when a path outside the root (the harnesses) is given.
    const testPaths = await findTestFiles(
      options.root,
      options.paths,
      options.ignore,
    );
    const seconds = await readTestTimes(options.root);
    const shared = options.sharedTests
      ? await writeTestHarness(
        options.root,
        testPaths,
        dir,
        options.testHarnesses ?? TEST_HARNESSES,
        seconds,
      )
      : undefined;
    const ownJunit = !hasFlag(options.passThrough, "--junit-path");
    const run = await runTee(deno, [
      "test",
      "-A",
      "--no-check",
      ...(options.serial || hasFlag(options.passThrough, "--parallel")
        ? []
        : ["--parallel"]),
      ...mapArgs,
      ...(ownJunit ? [`--junit-path=${junit}`] : []),
      ...options.passThrough.filter((arg) => arg !== "--no-check"),
      // deno starts the modules in this order, two at a time: the longest
      // first, the doc examples' harnesses (a few seconds each) last, so the
      // run ends on short modules with both cores busy.
      ...(shared
        ? shared.harnesses
        : await longestFirst(options.root, testPaths, seconds)),
      ...harnesses,
    ], { cwd, forward: options.forward });
    outputs.push(run.output);
    const times = ownJunit
      ? parseJunit(await Deno.readTextFile(junit).catch(() => ""), "deno")
      : [];
    let counts = parseDenoTest(run.output);
    let code = run.code;
    // A filtered run's sums are not the files' times.
    if (times.length && !hasFlag(options.passThrough, "--filter")) {
      await saveTestTimes(options.root, times, testPaths.map(junitName));
    }

    // What failed beside the others, and the module that runs it alone: an
    // example's own module, or a shared test's file.
    const aloneModule = (t: TestTime): string | undefined => {
      if (modules.has(t.name)) return modules.get(t.name);
      if (!shared) return undefined;
      return shared.unloaded.get(t.name) ?? t.file;
    };
    const failed = times.filter((t) => t.failed && aloneModule(t));
    if (
      counts && failed.length && !hasFlag(options.passThrough, "--fail-fast")
    ) {
      log(
        `\n${failed.length} doc example(s) or shared test(s) failed beside ` +
          "the others; each module runs again alone, as `deno test` runs it:",
      );
      const again = await runTee(deno, [
        "test",
        "-A",
        "--no-check",
        ...mapArgs,
        `--junit-path=${alone}`,
        ...new Set(failed.map((t) => aloneModule(t)!)),
      ], { cwd, forward: options.forward });
      outputs.push(again.output);
      const aloneTimes = parseJunit(
        await Deno.readTextFile(alone).catch(() => ""),
        "deno",
      );
      const passedAlone = new Set(
        aloneTimes.filter((t) => !t.failed).map((t) => t.name),
      );
      // A test file passes alone when it ran tests there and none failed.
      const ranAlone = new Set(aloneTimes.map((t) => t.file));
      const filesFailedAlone = new Set(
        aloneTimes.filter((t) => t.failed).map((t) => t.file),
      );
      const recovered = failed.filter((t) => {
        if (modules.has(t.name)) return passedAlone.has(t.name);
        const file = aloneModule(t)!;
        return again.code === 0 ||
          (ranAlone.has(file) && !filesFailedAlone.has(file));
      });
      for (const t of recovered) {
        t.failed = false;
        log(`  passes alone (it relies on a fresh isolate): ${t.name}`);
      }
      counts = {
        ...counts,
        passed: counts.passed + recovered.length,
        failed: counts.failed - recovered.length,
      };
      if (counts.failed === 0 && recovered.length === failed.length) {
        code = 0;
      }
    }
    return await withCheck({ code, counts, output: outputs.join(""), times });
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

async function write(text: string): Promise<void> {
  const bytes = new TextEncoder().encode(text);
  let written = 0;
  while (written < bytes.length) {
    written += await Deno.stderr.write(bytes.subarray(written));
  }
}
