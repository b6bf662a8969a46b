/**
 * `deno task bench`: every benchmark line of BENCHMARKS.md in one run, one
 * table of figures (each a ratio against a floor or peer measured in the
 * same run, with its noise), the raw figures written to
 * `bench/results/<date>-<short sha>.json`, and a comparison with the latest
 * earlier results file: one line per figure that moved by more than the two
 * runs' combined noise.
 *
 * ```sh
 * deno task bench                 # everything (about 7 minutes; the model part is the longest)
 * deno task bench --skip-model    # without the model lines (about 5 minutes)
 * deno task bench --only 1,4      # some lines only (no results file, no BENCHMARKS.md update)
 * deno task bench --model-from latest  # line 7 from the newest kept model run (bench/results/model/)
 * ```
 *
 * A full run (no `--only`) also replaces the table between the markers in
 * BENCHMARKS.md. The job-waiting line (4) mostly sleeps, so it runs in its
 * own process beside the others. Line 8 (batch views of 1M rows against
 * scikit-learn) runs in its own process too, so its server's peak memory
 * is its own.
 *
 * @module
 */
import { parseArgs } from "node:util";
import {
  compare,
  type Figure,
  formatMove,
  type LineResult,
  markdownTable,
  type Results,
} from "../bench/lib/figures.ts";
import { overheadLine } from "../bench/lines/overhead.ts";
import { framesLine } from "../bench/lines/frames.ts";
import { loadLine } from "../bench/lines/load.ts";
import { startupLine } from "../bench/lines/startup.ts";
import { modelLine, modelLineFrom } from "../bench/lines/model.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const RESULTS_DIR = `${ROOT}bench/results`;
const DOC = `${ROOT}BENCHMARKS.md`;
const TABLE_START = "<!-- bench:table:start -->";
const TABLE_END = "<!-- bench:table:end -->";

const USAGE =
  "Usage: deno task bench [--skip-model] [--model-from latest|<file>] [--only 1,2,...] [--no-save]\n(line 8, batch views at 1M rows, needs /usr/bin/python3 with pandas and scikit-learn)";

async function git(...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", { args, cwd: ROOT }).output();
  return new TextDecoder().decode(out.stdout).trim();
}

/**
 * Runs a line file in its own process (it prints its `LineResult` as JSON):
 * line 4, which sleeps most of its minute, beside the others; line 3, whose
 * peak memory must not include what earlier lines left in the heap.
 */
function lineProcess(file: string, line: number): Promise<LineResult> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--v8-flags=--expose-gc", `${ROOT}bench/lines/${file}`],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  return child.then((out) => {
    if (!out.success) throw new Error(`line ${line} (${file}) failed`);
    return JSON.parse(new TextDecoder().decode(out.stdout));
  });
}

async function latestResults(before: string): Promise<
  { name: string; results: Results } | undefined
> {
  let best: { name: string; results: Results } | undefined;
  try {
    for await (const entry of Deno.readDir(RESULTS_DIR)) {
      if (!entry.isFile || !entry.name.endsWith(".json")) continue;
      const results = JSON.parse(
        await Deno.readTextFile(`${RESULTS_DIR}/${entry.name}`),
      ) as Results;
      if (results.time >= before) continue;
      if (!best || results.time > best.results.time) {
        best = { name: entry.name, results };
      }
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return best;
}

async function freeName(date: string, sha: string): Promise<string> {
  for (let k = 1;; k++) {
    const name = `${date}-${sha}${k === 1 ? "" : `-${k}`}.json`;
    try {
      await Deno.stat(`${RESULTS_DIR}/${name}`);
    } catch {
      return name;
    }
  }
}

async function updateDoc(table: string, notes: string[], header: string) {
  let doc: string;
  try {
    doc = await Deno.readTextFile(DOC);
  } catch {
    return false;
  }
  const a = doc.indexOf(TABLE_START), b = doc.indexOf(TABLE_END);
  if (a < 0 || b < a) return false;
  const body = [
    header,
    "",
    table,
    "",
    ...notes.map((n) => `- ${n}`),
  ].join("\n");
  await Deno.writeTextFile(
    DOC,
    `${doc.slice(0, a + TABLE_START.length)}\n${body}\n${doc.slice(b)}`,
  );
  // The table is written unpadded; `deno fmt --check` (CI) wants it aligned.
  await new Deno.Command(Deno.execPath(), {
    args: ["fmt", "--quiet", DOC],
    stdout: "null",
    stderr: "inherit",
  }).output();
  return true;
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      "skip-model": { type: "boolean" },
      "model-from": { type: "string" },
      only: { type: "string" },
      "no-save": { type: "boolean" },
      help: { type: "boolean" },
    },
  });
  if (values.help) {
    console.log(USAGE);
    Deno.exit(0);
  }
  const only = values.only?.split(",").map(Number);
  if (only?.some((n) => !(n >= 1 && n <= 8))) {
    console.error(`--only takes line numbers 1 to 8.\n${USAGE}`);
    Deno.exit(2);
  }
  const wanted = (line: number) =>
    (!only || only.includes(line)) && !(line === 7 && values["skip-model"]);
  const started = new Date();
  const [load1, load5, load15] = Deno.loadavg();
  const sha = await git("rev-parse", "--short", "HEAD");
  const dirty = (await git(
    "status",
    "--porcelain",
    "--",
    ".",
    ":!bench/results",
    ":!BENCHMARKS.md",
  )) !== "";
  const machine = {
    cores: navigator.hardwareConcurrency,
    loadAverage: [load1, load5, load15],
    deno: Deno.version.deno,
    v8: Deno.version.v8,
    gcExposed: typeof (globalThis as { gc?: unknown }).gc === "function",
  };
  console.log(
    `bench at ${sha}${
      dirty ? " (uncommitted changes)" : ""
    }, ${machine.cores} cores, load average ${
      machine.loadAverage.map((x) => x.toFixed(2)).join(" ")
    } (the machine is shared: figures are medians of interleaved samples)`,
  );

  const jobWait = wanted(4) ? lineProcess("job_wait.ts", 4) : undefined;
  const lines: [number, string, () => Promise<LineResult>][] = [
    [1, "client overhead", () => overheadLine()],
    [2, "conversions", () => framesLine()],
    [3, "batch scoring (own process)", () => lineProcess("batch.ts", 3)],
    [5, "local platform under load", () => loadLine()],
    [6, "start-up", () => startupLine()],
    [
      7,
      "model (deno task bench:model)",
      () =>
        values["model-from"]
          ? modelLineFrom(values["model-from"])
          : modelLine({ commit: `${sha}${dirty ? "+dirty" : ""}` }),
    ],
    [
      8,
      "batch views at scale (own process)",
      () => lineProcess("batch_scale.ts", 8),
    ],
  ];
  const results: LineResult[] = [];
  for (const [n, name, run] of lines) {
    if (!wanted(n)) continue;
    const t0 = performance.now();
    console.error(`line ${n}: ${name}...`);
    results.push(await run());
    console.error(
      `line ${n}: done in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
    );
  }
  if (jobWait) {
    console.error("line 4: job waiting (running since the start)...");
    results.push(await jobWait);
  }
  const figures: Figure[] = results.flatMap((r) => r.figures)
    .sort((a, b) => a.line - b.line);
  const notes = results.flatMap((r) => r.notes ?? []);
  const table = markdownTable(figures);
  console.log(`\n${table}\n`);
  for (const note of notes) console.log(`- ${note}`);

  const record: Results = {
    time: started.toISOString(),
    commit: `${sha}${dirty ? "+dirty" : ""}`,
    machine,
    figures,
    notes,
  };
  const earlier = await latestResults(record.time);
  if (earlier) {
    const moves = compare(earlier.results.figures, figures);
    console.log(
      `\nCompared with ${earlier.name} (${earlier.results.commit}): ${
        moves.length
          ? `${moves.length} figure(s) moved by more than their noise:`
          : "no figure moved by more than its noise."
      }`,
    );
    for (const move of moves) console.log(`  ${formatMove(move)}`);
  } else console.log("\nNo earlier results file to compare with.");

  if (!only && !values["no-save"]) {
    await Deno.mkdir(RESULTS_DIR, { recursive: true });
    const name = await freeName(record.time.slice(0, 10), sha);
    await Deno.writeTextFile(
      `${RESULTS_DIR}/${name}`,
      JSON.stringify(record, null, 1) + "\n",
    );
    console.log(`\nRaw figures: bench/results/${name}`);
    const header = `Run ${
      record.time.slice(0, 16).replace("T", " ")
    } UTC at ${record.commit} (\`bench/results/${name}\`), load average ${
      machine.loadAverage.map((x) => x.toFixed(2)).join(" ")
    } on ${machine.cores} shared cores${
      values["skip-model"]
        ? ", model lines skipped"
        : values["model-from"]
        ? ", model lines from a kept model run (see the notes)"
        : ""
    }:`;
    if (await updateDoc(table, notes, header)) {
      console.log("BENCHMARKS.md: table updated");
    }
  }
}
