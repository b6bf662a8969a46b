/**
 * Ours against ours: the paired A/B a change of the model needs before it is
 * kept (BENCHMARKS.md section 7 asks the same of every candidate: many splits
 * of the public tables and many generated tables, not one split). No peers run,
 * so a side costs only our fits.
 *
 * One side: fits ours (default hyperparameters, `--params` over them) on each
 * public table over `--splits` splits and on each generated kind of
 * bench/model_kinds.ts over `--seeds` seeds, and writes one JSON line per fit
 * (`--out=FILE`, else stdout): what was fitted, its test score and loss, and
 * the fit's seconds. Splits hold out a fifth of the rows, drawn by a seeded
 * shuffle (within each class for classification), the same rows on both
 * sides; they are not the benchmark's scikit-learn splits, which is fine for a
 * paired comparison. To compare two trees (a change of code, not of
 * parameters), run the same command in each (e.g. a `git worktree` of the
 * base) with different `--out` files.
 *
 * The comparison (`--compare=A,B`): for each table or kind, the paired
 * difference of B's score against A's (positive = B better; for log loss A's
 * minus B's), its standard error over the splits or seeds and how many B wins;
 * then, by metric, the mean relative change of the loss (`1 - AUC`, `1 - R²`,
 * log loss) with its standard error and the wins and losses.
 *
 * ```sh
 * deno run -A scripts/with_import_map.ts run -A bench/model_ab.ts --tables=concrete,biomass,cells --splits=10 --kinds=all --seeds=2 --out=a.jsonl
 * deno run -A scripts/with_import_map.ts run -A bench/model_ab.ts --tables=concrete,biomass,cells --splits=10 --kinds=all --seeds=2 --params='{"partition_min_samples":4}' --out=b.jsonl
 * deno run -A bench/model_ab.ts --compare=a.jsonl,b.jsonl
 * ```
 *
 * `--tables=` names public tables of bench/model_bench.ts (default none; the
 * large resampled ones are not run here), `--kinds=` generated kinds (`all`:
 * every kind but `classes26`, whose fit takes a minute).
 *
 * @module
 */
import { fitAndScore, TABLES } from "./model_bench.ts";
import { fitKind, KINDS, kindTable, oursOf } from "./model_kinds.ts";
import { createRng } from "../src/local/model/rng.ts";
import { loadDataset } from "../tests/_helpers/datasets.ts";
import type { RawValue } from "../src/local/model/encoding.ts";
import type { TrainingParams } from "../src/local/model/params.ts";

/** One fit of one side. */
export interface AbFit {
  /** The public table or generated kind. */
  name: string;
  /** The split (public tables, from 0) or seed (kinds, from 1). */
  at: number;
  metric: "auc" | "r2" | "log loss";
  /** Test AUC, R² or log loss. */
  score: number;
  /** What lower is better of: `1 - score`, or the log loss itself. */
  loss: number;
  /** The fit's wall seconds (encoding and training). */
  seconds: number;
}

/**
 * Test rows of a seeded split: a fifth of the rows, drawn by a seeded
 * shuffle, within each class when `classes` are given (every class keeps its
 * share on both sides, as a stratified split does).
 *
 * @example
 * ```ts
 * import { abSplit } from "./model_ab.ts";
 *
 * const y = Array.from({ length: 100 }, (_, i) => (i < 80 ? "a" : "b"));
 * const s = abSplit(100, 3, y);
 * if (s.test.length !== 20 || s.test.filter((i) => y[i] === "b").length !== 4) throw new Error("example failed");
 * if (abSplit(100, 3, y).test.join() !== s.test.join()) throw new Error("example failed");
 * if (s.train.length + s.test.length !== 100) throw new Error("example failed");
 * ```
 */
export function abSplit(
  n: number,
  seed: number,
  classes?: readonly RawValue[],
): { train: number[]; test: number[] } {
  const rng = createRng(7_919 * (seed + 1));
  const groups = new Map<string, number[]>();
  for (let i = 0; i < n; i++) {
    const key = classes ? String(classes[i]) : "";
    const g = groups.get(key);
    if (g) g.push(i);
    else groups.set(key, [i]);
  }
  const test: number[] = [];
  for (const g of groups.values()) {
    for (let i = g.length - 1; i > 0; i--) {
      const j = Math.floor(rng() * (i + 1));
      [g[i], g[j]] = [g[j], g[i]];
    }
    test.push(...g.slice(0, Math.round(g.length / 5)));
  }
  const held = new Set(test);
  return {
    train: Array.from({ length: n }, (_, i) => i).filter((i) => !held.has(i)),
    test: test.sort((a, b) => a - b),
  };
}

function fitOf(
  name: string,
  at: number,
  r: Awaited<ReturnType<typeof fitAndScore>>,
  regression: boolean,
): AbFit {
  const metric = r.multiclass ? "log loss" : regression ? "r2" : "auc";
  const score = r.multiclass ? r.multiclass.logLoss : r.score;
  return {
    name,
    at,
    metric,
    score,
    loss: metric === "log loss" ? score : 1 - score,
    seconds: r.fitSeconds,
  };
}

/** Ours on public table `name` over splits 0..splits-1. */
export async function* tableFits(
  name: string,
  splits: number,
  params: Partial<TrainingParams> = {},
): AsyncGenerator<AbFit> {
  const table = TABLES.find((t) => t.name === name && !t.rows);
  if (!table) {
    throw new Error(
      `--tables: no public table ${name} (tables: ${
        TABLES.filter((t) => !t.rows).map((t) => t.name).join(", ")
      })`,
    );
  }
  const { spec } = table;
  const d = await loadDataset(spec);
  const regression = spec.predictionType === "REGRESSION";
  const y = d.columns[spec.target];
  for (let s = 0; s < splits; s++) {
    const split = abSplit(y.length, s, regression ? undefined : y);
    const r = await fitAndScore(
      d.columns,
      d.fields,
      spec.target,
      spec.predictionType,
      split,
      1,
      params,
    );
    yield fitOf(name, s, r, regression);
  }
}

/** Ours on generated kind `kind` (bench/model_kinds.ts) over seeds 1..seeds. */
export async function* kindFits(
  kind: string,
  seeds: number,
  params: Partial<TrainingParams> = {},
): AsyncGenerator<AbFit> {
  if (!Object.hasOwn(KINDS, kind)) {
    throw new Error(
      `--kinds: no kind ${kind} (kinds: ${Object.keys(KINDS).join(", ")})`,
    );
  }
  for (let seed = 1; seed <= seeds; seed++) {
    const t = kindTable(kind, seed);
    const regression = t.task === "regression";
    const y = oursOf(t).columns.y;
    const split = abSplit(y.length, seed, regression ? undefined : y);
    const r = await fitKind(t, split, params);
    yield fitOf(kind, seed, r, regression);
  }
}

const mean = (a: readonly number[]) =>
  a.reduce((x, y) => x + y, 0) / Math.max(1, a.length);
const standardError = (a: readonly number[]) => {
  if (a.length < 2) return NaN;
  const m = mean(a);
  return Math.sqrt(
    a.reduce((x, y) => x + (y - m) ** 2, 0) / (a.length - 1) / a.length,
  );
};

/**
 * The comparison of two sides' fits (see the module doc): lines to print,
 * one per table or kind, then one per metric. Fits are paired by name and
 * split or seed; a fit on one side only is left out.
 *
 * @example
 * ```ts
 * import { compareFits } from "./model_ab.ts";
 *
 * const f = (at: number, score: number) => ({ name: "t", at, metric: "auc" as const, score, loss: 1 - score, seconds: 1 });
 * const lines = compareFits([f(0, 0.8), f(1, 0.9)], [f(0, 0.82), f(1, 0.9)]);
 * if (!lines[0].includes("+0.0100") || !lines[0].includes("1 better, 0 worse")) throw new Error(lines.join("\n"));
 * if (!lines.some((l) => l.startsWith("auc") && l.includes("-5.00%"))) throw new Error(lines.join("\n"));
 * ```
 */
export function compareFits(
  a: readonly AbFit[],
  b: readonly AbFit[],
): string[] {
  const key = (f: AbFit) => `${f.name}\u0000${f.at}`;
  const other = new Map(b.map((f) => [key(f), f]));
  const byName = new Map<string, [AbFit, AbFit][]>();
  for (const x of a) {
    const y = other.get(key(x));
    if (!y) continue;
    const pairs = byName.get(x.name) ?? [];
    pairs.push([x, y]);
    byName.set(x.name, pairs);
  }
  const lines: string[] = [];
  const relative = new Map<string, number[]>();
  const sign = (v: number) => (v >= 0 ? "+" : "") + v.toFixed(4);
  for (const [name, pairs] of byName) {
    // Positive = B better: a higher score, or a lower log loss.
    const d = pairs.map(([x, y]) => x.loss - y.loss);
    const rel = pairs.map(([x, y]) =>
      (y.loss - x.loss) / Math.max(x.loss, 1e-12)
    );
    const metric = pairs[0][0].metric;
    relative.set(metric, [...(relative.get(metric) ?? []), ...rel]);
    const wins = d.filter((v) => v > 1e-12).length;
    const losses = d.filter((v) => v < -1e-12).length;
    const secs = pairs.reduce(
      (s, [x, y]) => [s[0] + x.seconds, s[1] + y.seconds],
      [0, 0],
    );
    lines.push(
      `${name.padEnd(16)} ${metric.padEnd(8)} A ${
        mean(pairs.map(([x]) => x.score)).toFixed(4)
      } B ${mean(pairs.map(([, y]) => y.score)).toFixed(4)} B-A ${
        sign(mean(d))
      } ± ${
        standardError(d).toFixed(4)
      } (${wins} better, ${losses} worse of ${pairs.length}) fit ${
        secs[0].toFixed(1)
      } -> ${secs[1].toFixed(1)} s`,
    );
  }
  for (const [metric, rel] of relative) {
    const wins = rel.filter((v) => v < -1e-12).length;
    const losses = rel.filter((v) => v > 1e-12).length;
    lines.push(
      `${metric}: loss ${
        (100 * mean(rel) >= 0 ? "+" : "") + (100 * mean(rel)).toFixed(2)
      }% ± ${
        (100 * standardError(rel)).toFixed(2)
      } over ${rel.length} fits (${wins} better, ${losses} worse)`,
    );
  }
  return lines;
}

function readFits(file: string): AbFit[] {
  return Deno.readTextFileSync(file).split("\n").filter((l) => l.trim())
    .map((l) => JSON.parse(l) as AbFit);
}

if (import.meta.main) {
  const arg = (name: string) =>
    Deno.args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const compare = arg("compare");
  if (compare) {
    const [a, b] = compare.split(",");
    if (!a || !b) throw new Error("--compare=A,B: two files of fits");
    console.log(compareFits(readFits(a), readFits(b)).join("\n"));
  } else {
    const params = JSON.parse(arg("params") ?? "{}");
    const tables = (arg("tables") ?? "").split(",").filter(Boolean);
    const kindsArg = arg("kinds") ?? "";
    const kinds = kindsArg === "all"
      ? Object.keys(KINDS).filter((k) => k !== "classes26")
      : kindsArg.split(",").filter(Boolean);
    if (tables.length + kinds.length === 0) {
      throw new Error(
        "nothing to fit: give --tables=a,b and/or --kinds=a,b|all",
      );
    }
    const out = arg("out");
    const file = out
      ? await Deno.open(out, { write: true, create: true, truncate: true })
      : null;
    const write = async (f: AbFit) => {
      const line = JSON.stringify(f) + "\n";
      if (file) await file.write(new TextEncoder().encode(line));
      else await Deno.stdout.write(new TextEncoder().encode(line));
    };
    try {
      const splits = Number(arg("splits") ?? 5),
        seeds = Number(arg("seeds") ?? 2);
      for (const t of tables) {
        for await (const f of tableFits(t, splits, params)) {
          await write(f);
        }
      }
      for (const k of kinds) {
        for await (const f of kindFits(k, seeds, params)) await write(f);
      }
    } finally {
      file?.close();
    }
  }
}
