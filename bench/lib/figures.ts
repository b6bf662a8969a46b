/**
 * Figures, the results file and the comparison with an earlier run.
 *
 * A figure is one line of the table: a value (mostly a ratio against a floor
 * or a peer measured in the same run), its noise (see `medianNoise`), what it
 * is measured against, and its goal when it has one. A run's figures are
 * written to `bench/results/<date>-<short sha>.json`; the next run compares
 * its figures with the latest earlier file and prints a line for each figure
 * that moved by more than the two runs' combined noise.
 *
 * @module
 */
import { median, medianNoise } from "./stats.ts";

/** A goal: the value must stay at most `max` (or at least `min`). */
export interface Goal {
  /** Largest value that meets the goal. */
  max?: number;
  /** Smallest value that meets the goal. */
  min?: number;
}

/** One measured line of the table. */
export interface Figure {
  /** Stable key, compared across runs, e.g. `overhead.http.get`. */
  id: string;
  /** The line of BENCHMARKS.md (1-8). */
  line: number;
  /** What is measured, for the table. */
  label: string;
  /** The figure (a ratio unless `unit` says otherwise). */
  value: number;
  /** `x` for a ratio, else the unit (`ms`, `polls`, `MB`, ...). */
  unit: string;
  /** Noise of the value (same unit), NaN when it could not be measured. */
  noise: number;
  /** The floor or peer the ratio is taken against ("" for none). */
  against: string;
  /** The goal, when the issue sets one. */
  goal?: Goal;
  /** Absolute figures behind the value, for the table. */
  detail?: string;
  /** Raw measurements (samples, counts), for the results file. */
  raw?: Record<string, unknown>;
}

/** What one bench line measures: its figures and notes for the table. */
export interface LineResult {
  /** Figures of the line. */
  figures: Figure[];
  /** Sentences printed under the table (bounds, bottlenecks, caveats). */
  notes?: string[];
}

/** A results file. */
export interface Results {
  /** When the run started (ISO 8601). */
  time: string;
  /** Commit the run measured (short sha), with `+dirty` when the tree had changes. */
  commit: string;
  /** Machine facts: cores, load average at the start, Deno version. */
  machine: Record<string, unknown>;
  /** Every figure. */
  figures: Figure[];
  /** Notes of the lines. */
  notes: string[];
}

/**
 * A ratio figure from interleaved samples: the median of the per-round
 * ratios, with its noise.
 *
 * @example
 * ```ts
 * import { ratioFigure } from "./figures.ts";
 * const f = ratioFigure({ id: "x", line: 1, label: "x", against: "y" }, [2, 2.2, 1.8], [1, 1, 1]);
 * if (f.value !== 2 || f.unit !== "x") throw new Error();
 * ```
 */
export function ratioFigure(
  base: Omit<Figure, "value" | "unit" | "noise">,
  measured: readonly number[],
  floor: readonly number[],
): Figure {
  const r = measured.map((x, i) => x / floor[i]);
  return {
    ...base,
    value: median(r),
    unit: "x",
    noise: medianNoise(r),
    raw: { ...base.raw, measured, floor },
  };
}

/**
 * Whether a figure meets its goal (undefined when it has none).
 *
 * @example
 * ```ts
 * import { meetsGoal } from "./figures.ts";
 * const f = { id: "x", line: 1, label: "", value: 1.2, unit: "x", noise: 0, against: "", goal: { max: 1.1 } };
 * if (meetsGoal(f) !== false) throw new Error();
 * ```
 */
export function meetsGoal(figure: Figure): boolean | undefined {
  const { goal } = figure;
  if (!goal) return undefined;
  if (goal.max !== undefined && !(figure.value <= goal.max)) return false;
  if (goal.min !== undefined && !(figure.value >= goal.min)) return false;
  return true;
}

/**
 * A figure's value for the table: `1.07x ±0.02`, `312 ms ±4`.
 *
 * @example
 * ```ts
 * import { formatValue } from "./figures.ts";
 * if (formatValue(1.234, "x") !== "1.23x") throw new Error(formatValue(1.234, "x"));
 * ```
 */
export function formatValue(value: number, unit: string): string {
  if (!Number.isFinite(value)) return "n/a";
  if (unit === "x") return `${value.toFixed(2)}x`;
  if (Number.isInteger(value)) return `${value} ${unit}`;
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return `${value.toFixed(digits)} ${unit}`;
}

function formatGoal(figure: Figure): string {
  const { goal, unit } = figure;
  if (!goal) return "";
  const parts = [];
  if (goal.max !== undefined) parts.push(`<= ${formatValue(goal.max, unit)}`);
  if (goal.min !== undefined) parts.push(`>= ${formatValue(goal.min, unit)}`);
  return parts.join(", ");
}

function formatNoise(figure: Figure): string {
  if (!Number.isFinite(figure.noise)) return "";
  const digits = figure.unit === "x" ? 2 : figure.noise >= 10 ? 0 : 2;
  return `±${figure.noise.toFixed(digits)}`;
}

/**
 * The table as Markdown (the same text is printed and pasted in BENCHMARKS.md).
 *
 * @example
 * ```ts
 * import { markdownTable } from "./figures.ts";
 * const t = markdownTable([{ id: "a", line: 1, label: "GET", value: 1.05, unit: "x", noise: 0.01, against: "raw fetch", goal: { max: 1.1 } }]);
 * if (!t.includes("| 1.05x | ±0.01 |")) throw new Error(t);
 * ```
 */
export function markdownTable(figures: readonly Figure[]): string {
  const rows = [
    "| # | figure | value | noise | against | goal | met | detail |",
    "|---|---|---|---|---|---|---|---|",
  ];
  for (const f of figures) {
    const met = meetsGoal(f);
    rows.push(
      `| ${f.line} | ${f.label} | ${formatValue(f.value, f.unit)} | ${
        formatNoise(f)
      } | ${f.against} | ${formatGoal(f)} | ${
        met === undefined ? "" : met ? "yes" : "**no**"
      } | ${f.detail ?? ""} |`,
    );
  }
  return rows.join("\n");
}

/** One figure that moved between two runs by more than its noise. */
export interface Move {
  /** The figure's id. */
  id: string;
  /** The figure's label. */
  label: string;
  /** Its value in the earlier run. */
  before: number;
  /** Its value now. */
  after: number;
  /** The combined noise the move exceeded. */
  noise: number;
  /** Its unit. */
  unit: string;
}

/**
 * The figures that moved by more than the combined noise of both runs
 * (sqrt of the sum of squares; a figure without noise never counts as moved).
 *
 * @example
 * ```ts
 * import { compare } from "./figures.ts";
 * const f = (value: number) => ({ id: "a", line: 1, label: "a", value, unit: "x", noise: 0.01, against: "" });
 * if (compare([f(1.0)], [f(1.2)]).length !== 1) throw new Error("moved");
 * if (compare([f(1.0)], [f(1.01)]).length !== 0) throw new Error("noise");
 * ```
 */
export function compare(
  before: readonly Figure[],
  after: readonly Figure[],
): Move[] {
  const earlier = new Map(before.map((f) => [f.id, f]));
  const moves: Move[] = [];
  for (const f of after) {
    const old = earlier.get(f.id);
    if (!old || old.unit !== f.unit) continue;
    const noise = Math.hypot(old.noise, f.noise);
    if (!Number.isFinite(noise)) continue;
    if (Math.abs(f.value - old.value) > noise) {
      moves.push({
        id: f.id,
        label: f.label,
        before: old.value,
        after: f.value,
        noise,
        unit: f.unit,
      });
    }
  }
  return moves;
}

/**
 * One line per move: `overhead.http.get (GET, over HTTP): 1.35x -> 1.08x (-20%, noise ±0.03)`.
 *
 * @example
 * ```ts
 * import { formatMove } from "./figures.ts";
 * const line = formatMove({ id: "a", label: "A", before: 2, after: 1, noise: 0.1, unit: "x" });
 * if (!line.includes("2.00x -> 1.00x (-50%")) throw new Error(line);
 * ```
 */
export function formatMove(move: Move): string {
  const change = ((move.after - move.before) / Math.abs(move.before)) * 100;
  const sign = change >= 0 ? "+" : "";
  return `${move.id} (${move.label}): ${
    formatValue(move.before, move.unit)
  } -> ${formatValue(move.after, move.unit)} (${sign}${
    change.toFixed(0)
  }%, noise ±${move.noise.toPrecision(2)} ${move.unit})`;
}
