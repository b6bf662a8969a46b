/**
 * The test command (`deno task test`): picks the import map (deno.json when
 * JSR answers, else an offline map with `@std/assert` -> tests/_std_assert),
 * runs every named suite in {@linkcode SUITES} with its output forwarded live,
 * and ends with one line `N passed, N failed[, N skipped]` over all suites,
 * followed by `(suites not run: ...)` when `--skip` or `TEST_SKIP` left some out.
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
 * deno task test --list               # list the suites
 * ```
 *
 * @module
 */

import { type Counts, summaryLine } from "./lib/counts.ts";
import { prepareImportMap } from "./with_import_map.ts";
import { type Suite, type SuiteContext, SUITES } from "./suites.ts";

/** Runner options parsed from the command line and the environment. */
export interface RunnerOptions {
  /** Suites not to run. */
  skip: Set<string>;
  /** When set, only these suites run. */
  only?: Set<string>;
  /** Print the suites and exit. */
  list: boolean;
  /** Everything else, passed to the deno suite. */
  passThrough: string[];
}

function names(value: string): string[] {
  return value.split(",").map((s) => s.trim()).filter(Boolean);
}

/**
 * Splits the runner's own flags (`--skip=`, `--only=`, `--list`) from the
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
 * ```
 */
export function parseArgs(args: string[], envSkip?: string): RunnerOptions {
  const options: RunnerOptions = {
    skip: new Set(names(envSkip ?? "")),
    list: false,
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
    } else if (arg === "--list") {
      options.list = true;
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
  const context: SuiteContext = {
    root,
    importMap,
    passThrough: options.passThrough,
  };
  const total: Counts = { passed: 0, failed: 0, skipped: 0 };
  const report: string[] = [];
  const notRun: string[] = [];
  let exit = 0;
  try {
    for (const suite of SUITES) {
      if (!selected(suite, options)) {
        report.push(`suite ${suite.name}: skipped by --skip/--only/TEST_SKIP`);
        // --only is a focused run; a skipped suite is one a full run left out.
        if (options.skip.has(suite.name)) notRun.push(suite.name);
        continue;
      }
      console.log(`\n=== suite ${suite.name}: ${suite.description}`);
      const started = performance.now();
      const { code, counts } = await suite.run(context);
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const c = counts ?? { passed: 0, failed: 0, skipped: 0 };
      // A suite that failed without reporting a failing test (type error,
      // build error, crash) or reported nothing still counts as one failure.
      const crashed = (code !== 0 && c.failed === 0) || counts === undefined;
      if (crashed) c.failed += 1;
      if (code !== 0 || c.failed > 0) exit = 1;
      total.passed += c.passed;
      total.failed += c.failed;
      total.skipped += c.skipped;
      report.push(
        `suite ${suite.name}: ${summaryLine(c)} (exit ${code}, ${seconds}s)${
          crashed
            ? counts === undefined
              ? " - no test counts found in its output: see the errors above"
              : " - exited non-zero without a failing test: see the errors above"
            : ""
        }`,
      );
    }
  } finally {
    if (importMap) await Deno.remove(importMap).catch(() => {});
  }
  console.log("");
  for (const line of report) console.log(line);
  // CI reads this exact form from the last line.
  console.log(summaryLine(total, notRun));
  return exit;
}

if (import.meta.main) {
  Deno.exit(await main());
}
