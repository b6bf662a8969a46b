/**
 * Interaction-heavy synthetic tables, seeded: ours beside scikit-learn's
 * HistGradientBoosting, logistic regression and XGBoost on the same split
 * (bench/model_reference.py makes it: stratified
 * `train_test_split(test_size=0.2, random_state=0)`), test ROC AUC.
 *
 * The hidden table with strong interactions (about 5,000 rows, HGB
 * best by 0.010 AUC) is not ours to see; these stand in for it, several
 * kinds so that a change is judged on interactions in general:
 *
 * - `friedman1`: 10 uniform features, `10 sin(pi x1 x2) + 20 (x3 - .5)^2 +
 *   10 x4 + 5 x5 + N(0, 1)` (x6..x10 noise), above its median.
 * - `friedman2` / `friedman3`: scikit-learn's make_friedman2/3 shapes (a
 *   product inside a norm / an arctangent of a ratio) plus 4 noise features,
 *   the target with noise, above its median.
 * - `xor`: the sign of `x1 x2` (a checkerboard) drives the log-odds, plus a
 *   main effect and 6 noise features, labels drawn from the logistic.
 * - `product`: log-odds `1.5 x1 x2 + x3 + x4 x5` over normals, drawn.
 * - `catslope`: a 6-level category sets the slope of a numeric feature
 *   (like contract x tenure in churn), plus mains and noise, drawn.
 *
 * Run: `deno run -A bench/model_interactions.ts [--seeds=3] [--only=a,b]
 * [--params='{"max_interactions":30}']`; prints one row per table and seed
 * and the mean per table (ours minus the best peer). `PYTHON` picks the
 * interpreter (default /usr/bin/python3).
 *
 * @module
 */
import { createRng } from "../src/local/model/rng.ts";
import type { RawColumns, SchemaField } from "../src/local/model/encoding.ts";
import type { EbmModel } from "../src/local/model/types.ts";
import { fitAndScore, run } from "./model_bench.ts";

/**
 * A generated table: numeric feature columns, categorical ones and the 0/1
 * label, or for a regression table the target's `values` instead, or for a
 * multi-class table its `classes` (bench/lib/model_multiclass.ts).
 */
export interface SyntheticTable {
  numeric: Record<string, number[]>;
  categorical: Record<string, string[]>;
  label: number[];
  values?: number[];
  classes?: string[];
}

/** Standard normal draws from a uniform PRNG (Box-Muller). */
export function normal(rng: () => number): () => number {
  return () => {
    const u = Math.max(rng(), 1e-12), v = rng();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  };
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

function aboveMedian(y: number[]): number[] {
  const sorted = [...y].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  return y.map((v) => (v > median ? 1 : 0));
}

function columns(
  n: number,
  names: string[],
  draw: (name: string) => number,
): Record<string, number[]> {
  return Object.fromEntries(
    names.map((c) => [c, Array.from({ length: n }, () => draw(c))]),
  );
}

const xs = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => `x${from + i}`);

/**
 * make_friedman2/3's inputs (x1..x4 on their ranges) plus 4 uniform noise
 * features, a normal draw, and their shared inner term `x2 x3 - 1 / (x2 x4)`.
 */
function friedmanInputs(n: number, seed: number) {
  const rng = createRng(seed), z = normal(rng);
  const range: Record<string, [number, number]> = {
    x1: [0, 100],
    x2: [40 * Math.PI, 560 * Math.PI],
    x3: [0, 1],
    x4: [1, 11],
  };
  const x = columns(n, xs(1, 8), (c) => {
    const [lo, hi] = range[c] ?? [0, 1];
    return lo + (hi - lo) * rng();
  });
  const inner = (i: number) => x.x2[i] * x.x3[i] - 1 / (x.x2[i] * x.x4[i]);
  return { x, z, inner };
}

/** The generators by name: rows and a seed give a table. */
export const GENERATORS: Record<
  string,
  { rows: number; make: (n: number, seed: number) => SyntheticTable }
> = {
  friedman1: {
    rows: 5_000,
    make(n, seed) {
      const rng = createRng(seed), z = normal(rng);
      const x = columns(n, xs(1, 10), () => rng());
      const y = x.x1.map((_, i) =>
        10 * Math.sin(Math.PI * x.x1[i] * x.x2[i]) +
        20 * (x.x3[i] - 0.5) ** 2 + 10 * x.x4[i] + 5 * x.x5[i] + z()
      );
      return { numeric: x, categorical: {}, label: aboveMedian(y) };
    },
  },
  friedman2: {
    rows: 3_000,
    make(n, seed) {
      const { x, z, inner } = friedmanInputs(n, seed);
      const y = x.x1.map((_, i) =>
        Math.sqrt(x.x1[i] ** 2 + inner(i) ** 2) + 100 * z()
      );
      return { numeric: x, categorical: {}, label: aboveMedian(y) };
    },
  },
  friedman3: {
    rows: 3_000,
    make(n, seed) {
      const { x, z, inner } = friedmanInputs(n, seed);
      const y = x.x1.map((_, i) => Math.atan(inner(i) / x.x1[i]) + 0.2 * z());
      return { numeric: x, categorical: {}, label: aboveMedian(y) };
    },
  },
  xor: {
    rows: 4_000,
    make(n, seed) {
      const rng = createRng(seed);
      const x = columns(n, xs(1, 9), () => 2 * rng() - 1);
      const label = x.x1.map((_, i) =>
        rng() <
            sigmoid(3 * Math.sign(x.x1[i] * x.x2[i]) + 1.5 * x.x3[i])
          ? 1
          : 0
      );
      return { numeric: x, categorical: {}, label };
    },
  },
  product: {
    rows: 6_000,
    make(n, seed) {
      const rng = createRng(seed), z = normal(rng);
      const x = columns(n, xs(1, 8), () => z());
      const label = x.x1.map((_, i) =>
        rng() <
            sigmoid(
              1.5 * x.x1[i] * x.x2[i] + x.x3[i] + x.x4[i] * x.x5[i],
            )
          ? 1
          : 0
      );
      return { numeric: x, categorical: {}, label };
    },
  },
  catslope: {
    rows: 5_000,
    make(n, seed) {
      const rng = createRng(seed), z = normal(rng);
      const x = columns(n, xs(1, 6), () => z());
      const levels = ["a", "b", "c", "d", "e", "f"];
      const slope = [-2, -1, 0, 0.5, 1.5, 2.5];
      const lift = [0.5, 0, -0.5, 0.3, -0.2, 0];
      const cat = Array.from(
        { length: n },
        () => Math.floor(rng() * levels.length),
      );
      const label = x.x1.map((_, i) =>
        rng() <
            sigmoid(
              slope[cat[i]] * x.x1[i] + lift[cat[i]] + 0.8 * x.x2[i] +
                x.x3[i] * (x.x4[i] > 0 ? 1 : -1),
            )
          ? 1
          : 0
      );
      return {
        numeric: x,
        categorical: { cat: cat.map((c) => levels[c]) },
        label,
      };
    },
  },
};

/**
 * The table as CSV text (numbers with 6 significant digits, the label as
 * "yes"/"no" in column `y`, or a regression table's values, or the
 * classes), with its
 * schema fields and raw columns as ingestion would give them.
 *
 * @example
 * ```ts
 * import { GENERATORS, tableFiles } from "./model_interactions.ts";
 * const t = tableFiles(GENERATORS.catslope.make(50, 1));
 * if (!(t.csv.split("\n")[0] === "x1,x2,x3,x4,x5,x6,cat,y" && t.fields.length === 8 && t.columns.y.length === 50)) throw new Error("example failed");
 * ```
 */
export function tableFiles(t: SyntheticTable): {
  csv: string;
  fields: SchemaField[];
  columns: RawColumns;
  numeric: string[];
} {
  const numeric = Object.keys(t.numeric);
  const names = [...numeric, ...Object.keys(t.categorical), "y"];
  const columns: RawColumns = {};
  for (const c of numeric) {
    columns[c] = t.numeric[c].map((v) => Number(v.toPrecision(6)));
  }
  for (const [c, v] of Object.entries(t.categorical)) columns[c] = v;
  const regression = t.values !== undefined;
  columns.y = regression
    ? t.values!.map((v) => Number(v.toPrecision(6)))
    : t.classes ?? t.label.map((v) => (v ? "yes" : "no"));
  const lines = [names.join(",")];
  for (let i = 0; i < columns.y.length; i++) {
    lines.push(names.map((c) => String(columns[c][i])).join(","));
  }
  const fields: SchemaField[] = names.map((name) => {
    const isNumber = numeric.includes(name) || (name === "y" && regression);
    return {
      name,
      data_type: { data_type: isNumber ? "NUMBER" : "STRING", format: null },
      designation: name === "y" ? "TARGET" : "FEATURE",
      semantic_type: isNumber ? "CONTINUOUS" : "CATEGORICAL",
    };
  });
  return { csv: lines.join("\n") + "\n", fields, columns, numeric };
}

/** One table and seed: ours and the peers' test ROC AUC. */
export interface InteractionResult {
  table: string;
  seed: number;
  rows: number;
  ours: number;
  oursSeconds: number;
  pairs: number;
  hgb: number;
  linear: number;
  xgboost: number | null;
}

/**
 * Writes a generated table's CSV (target `y`) to `file`;
 * bench/model_reference.py writes the split beside it and scores the peers
 * on it, leaving out the `drop` columns: the peers' scores (`ref`, its
 * JSON) and the split, for ours to train on the same rows.
 */
export async function peersOn(
  files: { csv: string; numeric: readonly string[] },
  file: string,
  regression: boolean,
  drop: readonly string[] = [],
) {
  const python = Deno.env.get("PYTHON") ?? "/usr/bin/python3";
  const splitFile = `${file}.split.json`;
  await Deno.writeTextFile(file, files.csv);
  const ref = JSON.parse(
    await run(python, [
      new URL("./model_reference.py", import.meta.url).pathname,
      file,
      "y",
      files.numeric.join(","),
      regression ? "regression" : "classification",
      splitFile,
      "1",
      ...(drop.length ? [`--drop=${drop.join(",")}`] : []),
    ]),
  );
  const split = JSON.parse(await Deno.readTextFile(splitFile));
  return { ref, split };
}

/**
 * The peers on a generated table ({@link peersOn}), then ours trained on
 * the same train rows (`params` over the defaults) and scored on the test
 * rows.
 */
export async function peersAndOurs(
  files: ReturnType<typeof tableFiles>,
  file: string,
  regression: boolean,
  params: Record<string, unknown>,
) {
  const { ref, split } = await peersOn(files, file, regression);
  const ours = await fitAndScore(
    files.columns,
    files.fields,
    "y",
    regression ? "REGRESSION" : "CLASSIFICATION",
    split,
    1,
    params,
  );
  return { ref, ours };
}

/** Splits and scores one table ({@link peersAndOurs}) as an interaction result. */
export async function scoreTable(
  t: SyntheticTable,
  file: string,
  at: { table: string; seed: number },
  params: Record<string, unknown>,
): Promise<{ result: InteractionResult; model: EbmModel }> {
  const files = tableFiles(t);
  const { ref, ours } = await peersAndOurs(
    files,
    file,
    t.values !== undefined,
    params,
  );
  const result: InteractionResult = {
    ...at,
    rows: files.columns.y.length,
    ours: ours.score,
    oursSeconds: ours.fitSeconds,
    pairs: ours.model.terms.filter((x) => x.features.length === 2).length,
    hgb: ref.hgb.score,
    linear: ref.linear.score,
    xgboost: ref.xgboost?.score ?? null,
  };
  return { result, model: ours.model };
}

/** Generates, splits and scores every table and seed. */
export async function runInteractions(
  names: readonly string[],
  seeds: number,
  params: Record<string, unknown> = {},
): Promise<InteractionResult[]> {
  const dir = await Deno.makeTempDir({ prefix: "model_interactions_" });
  const out: InteractionResult[] = [];
  try {
    for (const name of names) {
      const g = GENERATORS[name];
      for (let seed = 1; seed <= seeds; seed++) {
        const { result } = await scoreTable(
          g.make(g.rows, seed * 7919 + name.length),
          `${dir}/${name}_${seed}.csv`,
          { table: name, seed },
          params,
        );
        out.push(result);
        printRow(result);
      }
    }
    return out;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const best = (r: InteractionResult) =>
  Math.max(r.hgb, r.linear, r.xgboost ?? -Infinity);
const signed = (v: number) => (v >= 0 ? "+" : "") + v.toFixed(4);

function printRow(r: InteractionResult): void {
  console.log(
    `${r.table.padEnd(10)} seed ${r.seed} ${
      String(r.rows).padStart(5)
    } | ours ${r.ours.toFixed(4)} (${r.pairs} pairs, ${
      r.oursSeconds.toFixed(1)
    } s) HGB ${r.hgb.toFixed(4)} LR ${r.linear.toFixed(4)} XGB ${
      r.xgboost?.toFixed(4) ?? "-"
    } | vs best ${signed(r.ours - best(r))}`,
  );
}

/** The mean per table: ours, each peer, ours minus the best peer. */
export function summarise(results: readonly InteractionResult[]): string[] {
  const tables = [...new Set(results.map((r) => r.table))];
  const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
  const lines = tables.map((t) => {
    const rs = results.filter((r) => r.table === t);
    const m = (f: (r: InteractionResult) => number) => mean(rs.map(f));
    return `${t.padEnd(10)} mean of ${rs.length} | ours ${
      m((r) => r.ours).toFixed(4)
    } HGB ${m((r) => r.hgb).toFixed(4)} LR ${
      m((r) => r.linear).toFixed(4)
    } XGB ${m((r) => r.xgboost ?? NaN).toFixed(4)} | vs best ${
      signed(m((r) => r.ours - best(r)))
    } | ours ${m((r) => r.oursSeconds).toFixed(1)} s`;
  });
  lines.push(
    `all        mean of ${results.length} | vs best ${
      signed(mean(results.map((r) => r.ours - best(r))))
    }, vs HGB ${signed(mean(results.map((r) => r.ours - r.hgb)))}`,
  );
  return lines;
}

/**
 * A table bench's command line: `--only=a,b` (checked against `known`,
 * default all), `--seeds=N` (default 3) and `--params='{...}'`.
 *
 * @example
 * ```ts
 * import { benchArgs } from "./model_interactions.ts";
 * const a = benchArgs(["--only=xor", "--seeds=2"], ["xor", "product"]);
 * if (!(a.names.join() === "xor" && a.seeds === 2 && Object.keys(a.params).length === 0)) throw new Error("example failed");
 * ```
 */
export function benchArgs(
  argv: readonly string[],
  known: readonly string[],
): { names: string[]; seeds: number; params: Record<string, unknown> } {
  const args = Object.fromEntries(
    argv.map((a) => a.replace(/^--/, "").split(/=(.*)/s)).map((
      [k, v],
    ) => [k, v ?? "true"]),
  );
  const names: string[] = args.only ? args.only.split(",") : [...known];
  const unknown = names.filter((n) => !known.includes(n));
  if (unknown.length) {
    throw new Error(
      `unknown table(s) ${unknown.join(", ")}; known: ${known.join(", ")}`,
    );
  }
  return {
    names,
    seeds: Number(args.seeds ?? 3),
    params: args.params ? JSON.parse(args.params) : {},
  };
}

if (import.meta.main) {
  const { names, seeds, params } = benchArgs(
    Deno.args,
    Object.keys(GENERATORS),
  );
  const results = await runInteractions(names, seeds, params);
  console.log("");
  for (const line of summarise(results)) console.log(line);
}
