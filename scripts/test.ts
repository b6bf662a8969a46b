/**
 * The test command (`deno task test`): picks the import map (deno.json when
 * JSR answers, else an offline map with `@std/assert` -> tests/_std_assert),
 * runs the named suites in {@linkcode SUITES} side by side (they share
 * nothing; the deno suite also runs its files in parallel), the first one's
 * output forwarded live and the others' printed whole when it is done, then
 * prints each suite's time and the {@linkcode SLOWEST_PRINTED} slowest tests
 * (`--slowest=N` for another number), and ends with one line
 * `N passed, N failed[, N skipped]` over all suites, followed by
 * `(suites not run: ...)` when `--skip` or `TEST_SKIP` left some out.
 * Exits non-zero when anything failed.
 *
 * Usage:
 *
 * ```sh
 * deno task test                      # all suites
 * deno task test --skip=node          # skip suites (comma-separated)
 * deno task test --only=deno --filter "token"   # other args go to deno test
 * TEST_SKIP=node,notebooks deno task test
 * TEST_OFFLINE=1 deno task test       # use the fallback even if JSR is up
 * TEST_REPORT=times.txt deno task test # also write the suite times and the
 *                                     # 10 slowest tests there (CI does)
 * deno task test --slowest=40         # list the 40 slowest at the end
 * deno task test --list               # list the suites
 * deno task test --serial             # one suite, one file at a time
 * deno task test --doc-isolates       # each doc example in its own isolate,
 *                                     # as deno test --doc runs it (slower)
 * deno task test:fast                 # --fast: the deno suite without servers,
 *                                     # child processes and long runs
 * ```
 *
 * @module
 */

import { type Counts, summaryLine } from "./lib/counts.ts";
import { prepareImportMap } from "./with_import_map.ts";
import { slowestLines, type TestTime } from "./lib/timings.ts";
import { type Suite, SUITES } from "./suites.ts";

/** How many of the slowest tests the end-of-run report lists (issue 25). */
export const SLOWEST_PRINTED = 20;
/** How many of them the `TEST_REPORT` file lists (CI prints it at the end). */
export const SLOWEST_REPORTED = 10;

/** Runner options parsed from the command line and the environment. */
export interface RunnerOptions {
  /** Suites not to run. */
  skip: Set<string>;
  /** When set, only these suites run. */
  only?: Set<string>;
  /** Print the suites and exit. */
  list: boolean;
  /** Run the suites one after another, and the deno suite's files too. */
  serial: boolean;
  /** Each doc example in its own isolate, as `deno test --doc` runs it. */
  docIsolates: boolean;
  /** The fast loop: the deno suite only, without FAST_IGNORE. */
  fast: boolean;
  /** How many of the slowest tests to list at the end. */
  slowest: number;
  /** Everything else, passed to the deno suite. */
  passThrough: string[];
}

function names(value: string): string[] {
  return value.split(",").map((s) => s.trim()).filter(Boolean);
}

/**
 * Splits the runner's own flags (`--skip=`, `--only=`, `--list`, `--serial`,
 * `--doc-isolates`, `--fast`, `--slowest=N`) from the
 * arguments passed through to `deno test`; `TEST_SKIP` adds to `--skip`.
 *
 * @param args Command-line arguments.
 * @param envSkip The value of `TEST_SKIP`, if any.
 * @returns The parsed options.
 *
 * @example
 * ```ts
 * import { parseArgs } from "./test.ts";
 *
 * const options = parseArgs(["--skip=node", "--filter", "token"], "notebooks");
 * if (!options.skip.has("node") || !options.skip.has("notebooks")) throw new Error();
 * if (options.passThrough.join(" ") !== "--filter token") throw new Error();
 * if (options.slowest !== 20 || parseArgs(["--slowest=5"]).slowest !== 5) throw new Error();
 * ```
 */
export function parseArgs(args: string[], envSkip?: string): RunnerOptions {
  const options: RunnerOptions = {
    skip: new Set(names(envSkip ?? "")),
    list: false,
    serial: false,
    docIsolates: false,
    fast: false,
    slowest: SLOWEST_PRINTED,
    passThrough: [],
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const [flag, inline] = arg.split(/=(.*)/s, 2);
    if (flag === "--skip" || flag === "--only") {
      const value = inline ?? args[++i];
      if (value === undefined) {
        throw new Error(`${flag} needs suite names, e.g. ${flag}=node`);
      }
      if (flag === "--skip") names(value).forEach((n) => options.skip.add(n));
      else options.only = new Set(names(value));
    } else if (flag === "--slowest") {
      const value = Number(inline ?? args[++i]);
      if (!Number.isInteger(value) || value < 0) {
        throw new Error(`--slowest needs a count, e.g. --slowest=20`);
      }
      options.slowest = value;
    } else if (arg === "--list") {
      options.list = true;
    } else if (arg === "--serial") {
      options.serial = true;
    } else if (arg === "--doc-isolates") {
      options.docIsolates = true;
    } else if (arg === "--fast") {
      options.fast = true;
      options.only = new Set(["deno"]);
    } else {
      options.passThrough.push(arg);
    }
  }
  return options;
}

function env(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined; // no --allow-env: behave as if unset
  }
}

function selected(suite: Suite, options: RunnerOptions): boolean {
  if (options.only && !options.only.has(suite.name)) return false;
  return !options.skip.has(suite.name);
}

async function main(): Promise<number> {
  const options = parseArgs(Deno.args, env("TEST_SKIP"));
  const known = new Set(SUITES.map((s) => s.name));
  for (const name of [...options.skip, ...(options.only ?? [])]) {
    if (!known.has(name)) {
      console.error(
        `Unknown suite "${name}". Known suites: ${[...known].join(", ")}.`,
      );
      return 2;
    }
  }
  if (options.list) {
    for (const s of SUITES) console.log(`${s.name}\t${s.description}`);
    return 0;
  }
  const root = new URL("../", import.meta.url);
  const importMap = await prepareImportMap(root, console.log);
  const total: Counts = { passed: 0, failed: 0, skipped: 0 };
  const report: string[] = [];
  const notRun: string[] = [];
  const times: TestTime[] = [];
  let exit = 0;
  const chosen = SUITES.filter((suite) => selected(suite, options));
  for (const suite of SUITES) {
    if (chosen.includes(suite)) continue;
    // --only is a focused run; a skipped suite is one a full run left out.
    if (options.skip.has(suite.name)) notRun.push(suite.name);
  }
  const runOne = async (suite: Suite, forward: boolean) => {
    const started = performance.now();
    const result = await suite.run({
      root,
      importMap,
      passThrough: options.passThrough,
      forward,
      fast: options.fast,
      serial: options.serial,
      docIsolates: options.docIsolates,
    });
    return { suite, result, seconds: (performance.now() - started) / 1000 };
  };
  const started = performance.now();
  let finished: Awaited<ReturnType<typeof runOne>>[] = [];
  try {
    if (options.serial) {
      for (const suite of chosen) {
        console.log(`\n=== suite ${suite.name}: ${suite.description}`);
        finished.push(await runOne(suite, true));
      }
    } else {
      // The first suite forwards live; the others run beside it, captured,
      // and are printed whole once it is done (no interleaved lines).
      const running = chosen.map((suite, i) => {
        if (i === 0) {
          console.log(`\n=== suite ${suite.name}: ${suite.description}`);
        }
        return runOne(suite, i === 0);
      });
      if (chosen.length > 1) {
        console.log(
          `(running beside it: ${
            chosen.slice(1).map((s) => s.name).join(", ")
          }; their output follows when it is done)`,
        );
      }
      finished = await Promise.all(running.map(async (p, i) => {
        const done = await p;
        if (i === 0) return done;
        // Wait for the live suite before printing a captured one.
        await running[0];
        console.log(
          `\n=== suite ${done.suite.name}: ${done.suite.description} (captured, ${
            done.seconds.toFixed(1)
          }s)`,
        );
        await writeAll(done.result.output ?? "");
        return done;
      }));
    }
  } finally {
    if (importMap) await Deno.remove(importMap).catch(() => {});
  }
  for (const { suite, result, seconds } of finished) {
    const { code, counts } = result;
    const c = counts ?? { passed: 0, failed: 0, skipped: 0 };
    // A suite that failed without reporting a failing test (type error,
    // build error, crash) or reported nothing still counts as one failure.
    const crashed = (code !== 0 && c.failed === 0) || counts === undefined;
    if (crashed) c.failed += 1;
    if (code !== 0 || c.failed > 0) exit = 1;
    total.passed += c.passed;
    total.failed += c.failed;
    total.skipped += c.skipped;
    times.push(...(result.times ?? []));
    report.push(
      `suite ${suite.name}: ${summaryLine(c)} (exit ${code}, ${
        seconds.toFixed(1)
      }s)${
        crashed
          ? counts === undefined
            ? " - no test counts found in its output: see the errors above"
            : " - exited non-zero without a failing test: see the errors above"
          : ""
      }`,
    );
  }
  for (const suite of SUITES) {
    if (!chosen.includes(suite)) {
      report.push(
        `suite ${suite.name}: skipped by --skip/--only/TEST_SKIP/--fast`,
      );
    }
  }
  const wall = ((performance.now() - started) / 1000).toFixed(1);
  console.log("");
  const slowest = slowestLines(times, options.slowest);
  if (slowest.length) {
    console.log(`${slowest.length} slowest tests:`);
    for (const line of slowest) console.log(line);
    console.log("");
  }
  for (const line of report) console.log(line);
  const wallLine = `all suites: ${wall}s wall clock${
    options.serial ? " (serial)" : ""
  }`;
  console.log(wallLine);
  // CI prints the same report again at the very end of its log.
  const reportFile = env("TEST_REPORT");
  if (reportFile) {
    await Deno.writeTextFile(
      reportFile,
      [
        ...report,
        wallLine,
        "",
        `${SLOWEST_REPORTED} slowest tests:`,
        ...(times.length
          ? slowestLines(times, SLOWEST_REPORTED)
          : ["(no per-test times collected)"]),
        "",
      ].join("\n"),
    );
  }
  // CI reads this exact form from the last line.
  console.log(summaryLine(total, notRun));
  return exit;
}

async function writeAll(text: string): Promise<void> {
  const bytes = new TextEncoder().encode(text);
  let written = 0;
  while (written < bytes.length) {
    written += await Deno.stdout.write(bytes.subarray(written));
  }
}

if (import.meta.main) {
  Deno.exit(await main());
}
