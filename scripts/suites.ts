/**
 * The named test suites run by `deno task test`. To add a suite (e.g. the
 * notebooks), append an entry to {@linkcode SUITES}, usually made with
 * {@linkcode commandSuite}: a name, a description, a command and a parser of
 * its counts (see lib/counts.ts; write one if the command prints its own
 * format). The runner forwards the output live, counts a suite that exits
 * non-zero without a failing test as one failure, and sums all suites.
 *
 * @module
 */

import { type Counts, parseDenoTest, parseNodeTest } from "./lib/counts.ts";
import { runFastLoop } from "./lib/fast_loop.ts";
import { runTee } from "./lib/run.ts";
import { parseJunit, parseNodeSpec, type TestTime } from "./lib/timings.ts";
import { parseNotebookTimes, parseSummary } from "./notebooks.ts";

/** What every suite is given. */
export interface SuiteContext {
  /** The repository root (where deno.json is), as a file URL ending in `/`. */
  root: URL;
  /** Path of the generated offline import map, when JSR is unreachable. */
  importMap?: string;
  /** Arguments not consumed by the runner (a filter, paths, `--parallel`). */
  passThrough: string[];
  /** When false, suites capture their output without printing it. */
  forward?: boolean;
  /**
   * The fast loop (`deno task test:fast`): the deno suite leaves out the
   * files in {@linkcode FAST_IGNORE}.
   */
  fast?: boolean;
  /** When true, the deno suite runs its files one at a time (no `--parallel`). */
  serial?: boolean;
  /**
   * When true, every doc example runs in its own isolate, as `deno test
   * --doc` runs it, instead of a few hundred to an isolate.
   */
  docIsolates?: boolean;
}

/** What a finished suite reports. */
export interface SuiteResult {
  /** The suite's exit code. */
  code: number;
  /** Its counts, or `undefined` when it printed none (a crash or build error). */
  counts?: Counts;
  /** Everything it printed (forwarded or not). */
  output?: string;
  /** Per-test durations, when the suite reports them. */
  times?: TestTime[];
}

/** A named group of tests, skippable with `--skip=<name>` or `TEST_SKIP`. */
export interface Suite {
  /** Short name used by `--skip`, `--only` and `TEST_SKIP`. */
  name: string;
  /** One line for `--list`. */
  description: string;
  /** Runs the suite, forwarding its output live. */
  run(context: SuiteContext): Promise<SuiteResult>;
}

async function exists(url: URL): Promise<boolean> {
  try {
    await Deno.stat(url);
    return true;
  } catch {
    return false;
  }
}

/**
 * Where the Deno suite looks for tests and doc examples, relative to the
 * root. Missing entries are left out (mod.ts may not exist yet).
 */
export const DENO_TEST_PATHS = [
  "tests/",
  "mod.ts",
  "local.ts",
  "notebook.ts",
  "src/",
  "scripts/",
];

/**
 * What the full command leaves out: Node's tests of the built package (the
 * node suite runs them). deno.json's test.exclude names them too, but an
 * `--ignore` on the command line replaces that list instead of adding to it.
 */
export const FULL_IGNORE: readonly string[] = ["tests/node/"];

/**
 * Test files the fast loop (`deno task test:fast`) leaves out, relative to
 * the root: the ones that serve over the network (a real HTTP server or
 * `deno task local`), spawn `deno`/`node` processes, or train on a full
 * public table to check accuracy. The full command runs them all. Both run
 * the doc examples a few hundred to an isolate (scripts/lib/fast_loop.ts).
 */
export const FAST_IGNORE: readonly string[] = [
  ...FULL_IGNORE,
  // Network servers (Deno.serve, node:http, the CLI over HTTP).
  "tests/http_transport_test.ts",
  "tests/http_errors_test.ts",
  "tests/http_retry_test.ts",
  "tests/local_cli_test.ts",
  "tests/local_faults_test.ts",
  "tests/local_headers_test.ts",
  "tests/jobs_attach_cancel_test.ts",
  "tests/model_consistency_test.ts",
  // The adversarial sweeps' files that serve over Deno.serve and node:http
  // (and make a pipe with mkfifo); the SDK's sweep serves nothing and stays.
  "tests/local_adversarial_test.ts",
  "tests/data_adversarial_test.ts",
  // Child processes (the runner, the notebooks script, dnt builds, fmt).
  "tests/toolchain_runner_test.ts",
  "tests/toolchain_honesty_test.ts",
  "tests/toolchain_npm_test.ts",
  "tests/toolchain_fast_loop_test.ts",
  "tests/notebooks_checks_test.ts",
  "tests/http_fast_paths_test.ts",
  "tests/client_options_test.ts",
  "tests/batch_cancel_test.ts",
  "tests/model_threads_test.ts",
  // Long generated or real-table runs (accuracy with the defaults, the
  // model search, the whole workflow on real tables).
  "tests/local_fuzz_test.ts",
  "tests/local_chaos_test.ts",
  // Streamed inference against the whole-text reading on hundreds of random
  // texts at every piece size (tests/infer_schema_test.ts stays in the loop).
  "tests/infer_stream_test.ts",
  "tests/model_accuracy_test.ts",
  "tests/model_selection_test.ts",
  // The greedy rounds' search on wide tables (searched, and beyond the
  // search's cells), and the table kinds' accuracy against a category
  // reading (each trains searched models on generated tables, the fast
  // loop's slowest files after the identity fixtures).
  "tests/model_greedy_test.ts",
  "tests/model_wide_budget_test.ts",
  "tests/model_kinds_test.ts",
  "tests/regression_workflow_test.ts",
  // Two threads against one: the helper's bags and a race's spare bags
  // against one thread's fit, bit for bit (the fixtures' identity in one
  // thread and with the helper stays in the loop).
  "tests/model_worker_test.ts",
  "tests/model_spare_bags_test.ts",
];

function hasFlag(args: readonly string[], flag: string): boolean {
  return args.some((arg) => arg === flag || arg.startsWith(`${flag}=`));
}

/**
 * The tests, the source's and the scripts' doc examples: what `deno test -A
 * --doc --parallel` runs, with a JUnit report read for the per-test
 * durations. The doc examples run a few hundred to an isolate
 * (scripts/lib/fast_loop.ts): a fresh isolate costs about 0.3 s of CPU on
 * our 2-core machines, and one each made up 40% of the suite's time. An
 * example that fails beside the others runs again alone, and that verdict
 * counts. `docIsolates` (`--doc-isolates`), paths on the command line or an
 * `--ignore` run `deno test --doc` as is.
 */
export const denoSuite: Suite = {
  name: "deno",
  description:
    "deno test -A --doc --parallel over tests/, mod.ts, src/ and scripts/ (JSDoc examples included)",
  async run(
    { root, importMap, passThrough, forward, fast, serial, docIsolates },
  ) {
    const paths: string[] = [];
    for (const path of DENO_TEST_PATHS) {
      if (await exists(new URL(path, root))) paths.push(path);
    }
    // Paths given on the command line replace the default set.
    const givenPaths = passThrough.some((arg) =>
      !arg.startsWith("-") && /\.(ts|tsx|js|mjs|md)$|\/$/.test(arg)
    );
    // The doc examples a few hundred to an isolate (lib/fast_loop.ts); with
    // paths given, deno test --doc runs them as is.
    if (!docIsolates && !givenPaths && !hasFlag(passThrough, "--ignore")) {
      const result = await runFastLoop({
        root,
        importMap,
        paths,
        ignore: fast ? FAST_IGNORE : FULL_IGNORE,
        // The edit loop shares isolates between test files too (a file that
        // fails there runs again alone); the full command runs each alone.
        sharedTests: fast,
        passThrough,
        forward: forward ?? true,
        serial: serial ?? false,
      });
      if (result) return result;
      console.log(
        "deno's extraction log named no doc example; running deno test --doc as is",
      );
    }
    // The runner's own JUnit file, unless the caller asked for one.
    const junit = hasFlag(passThrough, "--junit-path")
      ? undefined
      : await Deno.makeTempFile({
        prefix: "mlplatform_junit_",
        suffix: ".xml",
      });
    const args = [
      "test",
      "-A",
      "--doc",
      // Files run side by side (DENO_JOBS of them, default: the cores).
      ...(serial || hasFlag(passThrough, "--parallel") ? [] : ["--parallel"]),
      ...(importMap ? [`--import-map=${importMap}`] : []),
      ...(junit ? [`--junit-path=${junit}`] : []),
      ...(fast && !hasFlag(passThrough, "--ignore")
        ? [`--ignore=${FAST_IGNORE.join(",")}`]
        : []),
      ...passThrough,
      ...(givenPaths ? [] : paths),
    ];
    try {
      const { code, output } = await runTee(Deno.execPath(), args, {
        cwd: root.pathname,
        forward,
      });
      const xml = junit ? await Deno.readTextFile(junit).catch(() => "") : "";
      return {
        code,
        counts: parseDenoTest(output),
        output,
        times: parseJunit(xml, "deno"),
      };
    } finally {
      if (junit) await Deno.remove(junit).catch(() => {});
    }
  },
};

/**
 * Makes a suite that runs one command from the repository root and parses
 * its output: the easy way to add a suite (e.g. the notebooks).
 *
 * @param name Short name for `--skip`/`--only`/`TEST_SKIP`.
 * @param description One line for `--list`.
 * @param command The executable and its arguments (`Deno.execPath()` for deno).
 * @param parse Reads the counts from the command's output.
 * @param times Reads per-test durations from the output (default: none).
 * @returns The suite.
 *
 * @example
 * ```ts
 * import { commandSuite } from "./suites.ts";
 * import { parseNodeTest } from "./lib/counts.ts";
 *
 * const suite = commandSuite(
 *   "echo",
 *   "prints node-style totals",
 *   [Deno.execPath(), "eval", "console.log('# pass 2\\n# fail 0')"],
 *   parseNodeTest,
 * );
 * // Quiet here; suites normally forward their output.
 * const result = await suite.run({ root: new URL("../", import.meta.url), passThrough: [], forward: false });
 * if (result.code !== 0 || result.counts?.passed !== 2) throw new Error(JSON.stringify(result));
 * ```
 */
export function commandSuite(
  name: string,
  description: string,
  command: [string, ...string[]],
  parse: (output: string) => Counts | undefined,
  times: (output: string) => TestTime[] = () => [],
): Suite {
  return {
    name,
    description,
    async run({ root, forward }) {
      const [cmd, ...args] = command;
      const { code, output } = await runTee(cmd, args, {
        cwd: root.pathname,
        forward,
      });
      return { code, counts: parse(output), output, times: times(output) };
    },
  };
}

/** Builds the npm package and runs tests/node/ against it with Node. */
export const nodeSuite: Suite = commandSuite(
  "node",
  "scripts/build_npm.ts: build npm/ and run node --test tests/node/ against it",
  [Deno.execPath(), "run", "-A", "scripts/build_npm.ts"],
  parseNodeTest,
  (output) => parseNodeSpec(output, "node"),
);

/** Runs every notebook in Jupyter's Deno kernel and checks the executed copies. */
export const notebooksSuite: Suite = commandSuite(
  "notebooks",
  "scripts/notebooks.ts: run notebooks/*.ipynb in the Deno kernel and check their outputs",
  [Deno.execPath(), "run", "-A", "scripts/notebooks.ts"],
  parseSummary,
  parseNotebookTimes,
);

/** Every suite, in the order they run. */
export const SUITES: Suite[] = [denoSuite, nodeSuite, notebooksSuite];
