/**
 * Line 6, start-up: each step timed inside a fresh `deno run` process
 * (`bench/lib/startup_probe.ts`), the processes interleaved round by round,
 * medians; Deno's module cache is warm (as on any second run), so these are
 * the costs of loading and evaluating code, not of downloading it.
 *
 * - importing the client entry (`mod.ts`) against importing `zod` alone;
 * - `local()` to a platform that answered its first call, against a Hono
 *   hello world imported, built and answering its first request;
 * - the first DataFrame conversion, danfo's load included, against
 *   importing danfo alone.
 *
 * @module
 */
import type { Figure, LineResult } from "../lib/figures.ts";
import { ratioFigure } from "../lib/figures.ts";
import { median } from "../lib/stats.ts";

const PROBE = new URL("../lib/startup_probe.ts", import.meta.url).pathname;

async function probe(step: string): Promise<number> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", PROBE, step],
    cwd: new URL("../..", import.meta.url).pathname,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  const line = text.trim().split("\n").findLast((l) => l.startsWith("{"));
  if (!out.success || !line) {
    throw new Error(
      `start-up probe ${step} failed: ${new TextDecoder().decode(out.stderr)}`,
    );
  }
  return JSON.parse(line).ms;
}

/** Options of {@linkcode startupLine}. */
export interface StartupOptions {
  /** Fresh processes per step (default 7). */
  rounds?: number;
}

/**
 * Measures line 6.
 */
export async function startupLine(
  options: StartupOptions = {},
): Promise<LineResult> {
  const steps = ["mod", "zod", "local", "hono", "dataframe", "danfo"];
  const samples: Record<string, number[]> = Object.fromEntries(
    steps.map((s) => [s, []]),
  );
  for (const step of steps) await probe(step); // fill the caches
  for (let r = 0; r < (options.rounds ?? 7); r++) {
    for (let k = 0; k < steps.length; k++) {
      const step = steps[(k + r) % steps.length];
      samples[step].push(await probe(step));
    }
  }
  const ms = (s: string) => `${median(samples[s]).toFixed(0)} ms`;
  const figures: Figure[] = [
    ratioFigure(
      {
        id: "startup.import",
        line: 6,
        label: "start-up: import the client entry (mod.ts)",
        against: "import zod alone",
        detail: `${ms("mod")} vs ${ms("zod")}`,
        raw: { samples },
      },
      samples.mod,
      samples.zod,
    ),
    ratioFigure(
      {
        id: "startup.local",
        line: 6,
        label: "start-up: local() to a platform that answered a first call",
        against: "Hono hello world: import, build, first request",
        detail: `${ms("local")} vs ${ms("hono")}`,
      },
      samples.local,
      samples.hono,
    ),
    ratioFigure(
      {
        id: "startup.dataframe",
        line: 6,
        label: "start-up: first toDataFrame(), danfo's load included",
        against: "import danfojs-node alone",
        detail: `${ms("dataframe")} vs ${ms("danfo")}`,
      },
      samples.dataframe,
      samples.danfo,
    ),
  ];
  return { figures };
}
