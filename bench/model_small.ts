/**
 * Small tables where a linear model is best or near-best, seeded: ours
 * beside scikit-learn's HistGradientBoosting, logistic regression / ridge
 * and XGBoost on the same split (bench/model_reference.py makes it:
 * stratified `train_test_split(test_size=0.2, random_state=0)`, plain for
 * regression), test ROC AUC or R².
 *
 * The hidden small table (about 1,500 rows, 30 columns, logistic
 * regression best by 0.010 AUC) is not ours to see; these stand in for it,
 * several kinds so that a change is judged on small data in general:
 *
 * - `linear`: 1,500 x 30 standard normals, log-odds linear in 10 of them
 *   (coefficients of either sign, 0.2..0.8), 20 noise columns, labels drawn.
 * - `correlated`: 1,500 x 30 columns that load on 5 shared factors
 *   (pairwise correlations up to ~0.8), log-odds linear in 8 of them, drawn.
 * - `mixed`: 1,500 rows, 24 numeric columns (8 of them log-normal, skewed)
 *   and 6 categories of 3-5 levels; log-odds linear in 8 numbers (raw values)
 *   plus a level effect of 3 categories, drawn.
 * - `make_classification`: scikit-learn's (1,500 x 30, 8 informative, 4
 *   redundant, flip_y 0.1, class_sep 0.6): clusters on hypercube vertices,
 *   HGB-best rather than LR-best, a small table all the same.
 * - `breast_cancer` (569 x 30), `diabetes` (442 x 10, R²), `digits`
 *   (1,797 x 64 pixel counts, binarised: digit >= 5): scikit-learn's
 *   bundled tables (bench/model_small_data.py writes them); one seed each.
 *
 * Run: `deno run -A bench/model_small.ts [--seeds=3] [--only=a,b]
 * [--params='{"alpha":4}']`; prints one row per table and seed, the mean
 * per table and over all rows (ours minus the best peer). `PYTHON` picks
 * the interpreter (default /usr/bin/python3).
 *
 * @module
 */
import { createRng } from "../src/local/model/rng.ts";
import { run } from "./model_bench.ts";
import {
  benchArgs,
  type InteractionResult,
  normal,
  scoreTable,
  summarise,
  type SyntheticTable,
} from "./model_interactions.ts";

const drawLabel = (rng: () => number, logit: number) =>
  rng() < 1 / (1 + Math.exp(-logit)) ? 1 : 0;

/** `count` coefficients of random sign with magnitudes uniform in [lo, hi]. */
function coefficients(
  rng: () => number,
  count: number,
  lo: number,
  hi: number,
): number[] {
  return Array.from(
    { length: count },
    () => (rng() < 0.5 ? -1 : 1) * (lo + (hi - lo) * rng()),
  );
}

/** Rows of `width` columns from `cell(i, j)`, as named columns x1..x{width}. */
function named(
  n: number,
  width: number,
  cell: (i: number, j: number) => number,
): Record<string, number[]> {
  const rows = Array.from(
    { length: n },
    (_, i) => Array.from({ length: width }, (_, j) => cell(i, j)),
  );
  return Object.fromEntries(
    Array.from(
      { length: width },
      (_, j) => [`x${j + 1}`, rows.map((r) => r[j])],
    ),
  );
}

/** The linear log-odds of the first `beta.length` columns. */
function linearLogit(x: Record<string, number[]>, beta: number[], i: number) {
  return beta.reduce((s, b, j) => s + b * x[`x${j + 1}`][i], 0);
}

/** The generated kinds by name: a seed gives a table. */
export const SMALL_GENERATORS: Record<
  string,
  (seed: number) => SyntheticTable
> = {
  linear(seed) {
    const rng = createRng(seed), z = normal(rng);
    const n = 1_500, beta = coefficients(rng, 10, 0.2, 0.8);
    const x = named(n, 30, () => z());
    const label = x.x1.map((_, i) => drawLabel(rng, linearLogit(x, beta, i)));
    return { numeric: x, categorical: {}, label };
  },
  correlated(seed) {
    const rng = createRng(seed), z = normal(rng);
    const n = 1_500, F = 5;
    // Each column loads on one factor (0.5..0.9) plus its own noise.
    const factorOf = Array.from({ length: 30 }, (_, j) => j % F);
    const loading = Array.from({ length: 30 }, () => 0.5 + 0.4 * rng());
    const factors = Array.from(
      { length: n },
      () => Array.from({ length: F }, () => z()),
    );
    const x = named(n, 30, (i, j) =>
      loading[j] * factors[i][factorOf[j]] +
      Math.sqrt(1 - loading[j] ** 2) * z());
    const beta = coefficients(rng, 8, 0.2, 0.7);
    const label = x.x1.map((_, i) => drawLabel(rng, linearLogit(x, beta, i)));
    return { numeric: x, categorical: {}, label };
  },
  mixed(seed) {
    const rng = createRng(seed), z = normal(rng);
    const n = 1_500;
    // x1..x8 carry the signal; every third column is log-normal.
    const x = named(n, 24, (_, j) => (j % 3 === 0 ? Math.exp(0.8 * z()) : z()));
    const beta = coefficients(rng, 8, 0.2, 0.6);
    const categorical: Record<string, string[]> = {};
    const effects: number[][] = [];
    for (let c = 0; c < 6; c++) {
      const levels = 3 + (c % 3);
      effects.push(
        c < 3 ? coefficients(rng, levels, 0.2, 0.7) : new Array(levels).fill(0),
      );
      categorical[`c${c + 1}`] = Array.from(
        { length: n },
        () => `l${Math.floor(rng() * levels)}`,
      );
    }
    const label = x.x1.map((_, i) => {
      let logit = linearLogit(x, beta, i) - 0.3;
      effects.forEach((e, c) => {
        logit += e[Number(categorical[`c${c + 1}`][i].slice(1))];
      });
      return drawLabel(rng, logit);
    });
    return { numeric: x, categorical, label };
  },
};

/** scikit-learn's tables (bench/model_small_data.py): whether regression, and whether the seed varies them. */
export const SKLEARN_TABLES: Record<
  string,
  { regression: boolean; seeded: boolean }
> = {
  make_classification: { regression: false, seeded: true },
  breast_cancer: { regression: false, seeded: false },
  diabetes: { regression: true, seeded: false },
  digits: { regression: false, seeded: false },
};

/** Reads a CSV of numbers whose last column is `y` into a {@link SyntheticTable}. */
function tableOfCsv(text: string, regression: boolean): SyntheticTable {
  const [head, ...lines] = text.trim().split("\n");
  const names = head.split(",");
  const rows = lines.map((l) => l.split(",").map(Number));
  const numeric = Object.fromEntries(
    names.slice(0, -1).map((c, j) => [c, rows.map((r) => r[j])]),
  );
  const y = rows.map((r) => r[names.length - 1]);
  return regression
    ? { numeric, categorical: {}, label: [], values: y }
    : { numeric, categorical: {}, label: y };
}

/** Makes (or loads), splits and scores every table and seed; the results print as they come. */
export async function runSmall(
  names: readonly string[],
  seeds: number,
  params: Record<string, unknown> = {},
): Promise<InteractionResult[]> {
  const python = Deno.env.get("PYTHON") ?? "/usr/bin/python3";
  const dir = await Deno.makeTempDir({ prefix: "model_small_" });
  const out: InteractionResult[] = [];
  try {
    for (const name of names) {
      const sk = SKLEARN_TABLES[name];
      const runs = sk && !sk.seeded ? 1 : seeds;
      for (let seed = 1; seed <= runs; seed++) {
        const file = `${dir}/${name}_${seed}.csv`;
        let t: SyntheticTable;
        if (sk) {
          await run(python, [
            new URL("./model_small_data.py", import.meta.url).pathname,
            name,
            String(seed - 1),
            file,
          ]);
          t = tableOfCsv(await Deno.readTextFile(file), sk.regression);
        } else t = SMALL_GENERATORS[name](seed * 7919 + name.length);
        const { result: r, model } = await scoreTable(
          t,
          file,
          { table: name, seed },
          params,
        );
        out.push(r);
        console.log(
          `${name.padEnd(19)} seed ${seed} ${
            String(r.rows).padStart(5)
          } | ours ${r.ours.toFixed(4)} (${r.pairs} pairs, linear start ${
            model.metrics.linearStart ? "yes" : "no"
          }, ${r.oursSeconds.toFixed(1)} s) HGB ${r.hgb.toFixed(4)} LR ${
            r.linear.toFixed(4)
          } XGB ${r.xgboost?.toFixed(4) ?? "-"} | vs best ${
            signed(r.ours - Math.max(r.hgb, r.linear, r.xgboost ?? -Infinity))
          }`,
        );
      }
    }
    return out;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const signed = (v: number) => (v >= 0 ? "+" : "") + v.toFixed(4);

if (import.meta.main) {
  const { names, seeds, params } = benchArgs(Deno.args, [
    ...Object.keys(SMALL_GENERATORS),
    ...Object.keys(SKLEARN_TABLES),
  ]);
  const results = await runSmall(names, seeds, params);
  console.log("");
  for (const line of summarise(results)) console.log(line);
}
