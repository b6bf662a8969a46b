/**
 * Kinds of table the public benchmark lacks, generated and seeded: ours
 * beside scikit-learn's HistGradientBoosting, logistic regression / ridge
 * and XGBoost on the same split (bench/model_reference.py makes it:
 * `train_test_split(test_size=0.2, random_state=0)`, stratified for
 * classification). Metrics: ROC AUC (binary), log loss and accuracy (3+
 * classes), R² (regression), fit seconds. Ours trains through
 * `fitAndScore` (bench/model_bench.ts), as the benchmark does.
 *
 * The kinds (rows in brackets): `classes26` (26 classes, letter-like
 * centroids in 16 numbers; 4,000), `classes20_small` (20 classes, well
 * apart, in 8 numbers; 800), `imbalanced` (1.5% positives; 5,000),
 * `rare_class` (4 classes at 62/28/8/2%; 3,000), `highcard` (a 600-level
 * categorical whose level sets the log-odds; 4,000), `highcard_reg` (the
 * same, 1,500 levels, regression; 4,000), `intcodes` (a 120-level
 * category written as integer codes, regression; 3,000), `catxnum` (a
 * category sets a number's slope, regression; 3,000), `steps` (thresholds,
 * regression; 3,000), `outliers` (monotone trends, a log-normal input and
 * 2% wild targets, regression; 3,000), `lognormal` (a log-normal target;
 * 3,000), `counts` (a 0-5 count target; 3,000), `dupconst` (duplicated and
 * near-constant columns, binary; 3,000), `missing` (60-85% missing values
 * whose missingness carries the signal, binary; 3,000), `date` (an ISO
 * date with a trend and a weekly cycle, regression; peers get the day
 * number; 2,000), `scales` (epoch milliseconds, 1e-9 and 1e9-scale inputs,
 * regression; 3,000), `noise80` (5 signal and 75 noise columns, binary;
 * 2,500), `catmissing` (a 12-level category, 15-60% missing, its missing
 * rows with an effect of their own, binary; 3,000), `small_bin` / `small_reg` (150 / 250 rows, linear truth),
 * `linear_bin` / `linear_reg` (logistic / linear truth; 3,000), `ordinal`
 * (5 ordered grades cut from a latent linear score plus noise, some inputs
 * skewed, wine-quality-like; 3,000), `multicat` (4 classes at 51/31/12/6%,
 * five heavy-tailed numbers, categoricals of 14 and 7 levels some of whose
 * levels never occur with some classes; 4,300), `xor_multi` (3 classes set
 * by the sign of x0 * x1, a band near the axes the third, 10% random
 * labels, 8 noise columns; 3,000), `zipf_classes` (10 classes at
 * frequencies as (k + 1)^-1.8, the rarest about 25 rows, Gaussian
 * centroids in 10 numbers and a 6-level category; 2,500), `houses`
 * (house-price-like regression: 30 numbers and 40 categoricals, two of 180
 * and 400 levels, rare levels and mostly-missing columns, a right-skewed
 * price whose log is about additive; 2,900), `hetero` (regression whose
 * noise scale grows with an input and differs by group; 3,000), `product3`
 * (concrete-like regression: the product of cement, a water term and log
 * age; 1,200), `wide_reg` (200 numbers, 10 with a linear effect; 300),
 * `flags_bin` (binary: yes/no, Yes/No, TRUE/FALSE and Y/N columns, 0/1 and
 * small integer-coded categories read as numbers; 3,000).
 *
 * Run: `deno run -A scripts/with_import_map.ts run -A bench/model_kinds.ts
 * [--seeds=2] [--only=a,b] [--params='{...}'] [--onboarding='{...}']`
 * (`--params`: training parameters over the defaults, `--onboarding`:
 * encoding options over the defaults, both for ours only). `PYTHON` picks the
 * interpreter (default /usr/bin/python3).
 *
 * @module
 */
import { createRng } from "../src/local/model/rng.ts";
import type {
  OnboardingOptions,
  RawColumns,
  RawValue,
  SchemaField,
} from "../src/local/model/encoding.ts";
import type { EbmModel } from "../src/local/model/types.ts";
import { fitAndScore } from "./model_bench.ts";
import { benchArgs, normal, peersOn } from "./model_interactions.ts";

/** A generated table: its columns (null = missing), which are numeric, the target's kind. */
export interface KindTable {
  columns: Record<string, RawValue[]>;
  numeric: string[];
  task: "binary" | "multiclass" | "regression";
  /** Columns the peers do not see (they get a numeric stand-in instead). */
  peersDrop?: string[];
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

function draw(r: () => number, logits: number[]): number {
  const m = Math.max(...logits);
  const e = logits.map((l) => Math.exp(l - m));
  let u = r() * e.reduce((a, b) => a + b);
  for (let k = 0; k < e.length; k++) if ((u -= e[k]) <= 0) return k;
  return e.length - 1;
}

function mat(n: number, p: number, f: () => number): number[][] {
  return Array.from({ length: p }, () => Array.from({ length: n }, f));
}

function named(X: number[][], prefix = "x"): Record<string, number[]> {
  return Object.fromEntries(X.map((x, j) => [`${prefix}${j}`, x]));
}

function table(
  num: Record<string, RawValue[]>,
  cat: Record<string, RawValue[]>,
  y: RawValue[],
  task: KindTable["task"],
  peersDrop?: string[],
): KindTable {
  return {
    columns: { ...num, ...cat, y },
    numeric: Object.keys(num),
    task,
    peersDrop,
  };
}

const bin = (p: number, r: () => number) => (r() < p ? "yes" : "no");

/** The kinds by name: rows and a seed give a table. */
export const KINDS: Record<
  string,
  { rows: number; make: (n: number, seed: number) => KindTable }
> = {
  classes26: {
    rows: 4_000,
    make(n, seed) {
      const r = createRng(seed), g = normal(r);
      const K = 26, P = 16;
      const centre = mat(K, P, () => 1.2 * g());
      const k = Array.from({ length: n }, () => Math.floor(r() * K));
      const X = Array.from(
        { length: P },
        (_, j) => k.map((c) => centre[j][c] + g() + 0.3 * g() ** 2),
      );
      return table(named(X), {}, k.map((c) => `c${c}`), "multiclass");
    },
  },
  classes20_small: {
    rows: 800,
    make(n, seed) {
      const r = createRng(seed), g = normal(r);
      const K = 20, P = 8;
      const centre = mat(K, P, () => 2 * g());
      const k = Array.from({ length: n }, () => Math.floor(r() * K));
      const X = Array.from(
        { length: P },
        (_, j) => k.map((c) => centre[j][c] + g()),
      );
      return table(named(X), {}, k.map((c) => `c${c}`), "multiclass");
    },
  },
  imbalanced: {
    rows: 5_000,
    make(n, seed) {
      const r = createRng(seed), g = normal(r);
      const X = mat(n, 8, g);
      const y = X[0].map((_, i) =>
        bin(
          sigmoid(
            -5.2 + 1.2 * X[0][i] + 0.8 * X[1][i] + (X[2][i] > 1 ? 1.5 : 0) +
              0.6 * X[3][i] ** 2 - 0.5 * X[4][i],
          ),
          r,
        )
      );
      return table(named(X), {}, y, "binary");
    },
  },
  rare_class: {
    rows: 3_000,
    make(n, seed) {
      const r = createRng(seed), g = normal(r);
      const X = mat(n, 6, g);
      const y = X[0].map((_, i) =>
        "c" + draw(r, [
          1.5,
          0.7 + X[0][i] - 0.5 * X[1][i],
          -0.6 + X[1][i] + Math.sin(2 * X[2][i]),
          -3.2 + 1.5 * X[3][i] + (X[4][i] > 0.5 ? 1.5 : 0),
        ])
      );
      return table(named(X), {}, y, "multiclass");
    },
  },
  highcard: {
    rows: 4_000,
    make(n, seed) {
      const r = createRng(seed), g = normal(r);
      const L = 600;
      const effect = Array.from({ length: L }, () => 1.3 * g());
      // Zipf-like level frequencies.
      const w = Array.from({ length: L }, (_, l) => 1 / (l + 5));
      const level = Array.from({ length: n }, () => draw(r, w.map(Math.log)));
      const X = mat(n, 3, g);
      const y = level.map((l, i) =>
        bin(sigmoid(effect[l] + 0.7 * X[0][i] - 0.5 * X[1][i]), r)
      );
      return table(
        named(X),
        { cat: level.map((l) => `L${l}`) },
        y,
        "binary",
      );
    },
  },
  highcard_reg: {
    rows: 4_000,
    make(n, seed) {
      const r = createRng(seed), g = normal(r);
      const L = 1_500;
      const effect = Array.from({ length: L }, () => 2 * g());
      const w = Array.from({ length: L }, (_, l) => 1 / (l + 20));
      const level = Array.from({ length: n }, () => draw(r, w.map(Math.log)));
      const X = mat(n, 3, g);
      const y = level.map((l, i) =>
        effect[l] + X[0][i] + 0.5 * X[1][i] ** 2 + g()
      );
      return table(
        named(X),
        { cat: level.map((l) => `L${l}`) },
        y,
        "regression",
      );
    },
  },
  intcodes: {
    rows: 3_000,
    make(n, seed) {
      const r = createRng(seed), g = normal(r);
      const L = 120;
      const effect = Array.from({ length: L }, () => 2 * g());
      const code = Array.from({ length: n }, () => Math.floor(r() * L));
      const X = mat(n, 3, g);
      const y = code.map((c, i) => effect[c] + X[0][i] - X[1][i] + g());
      return table({ ...named(X), code }, {}, y, "regression");
    },
  },
  catxnum: {
    rows: 3_000,
    make(n, seed) {
      const r = createRng(seed), g = normal(r);
      const slope = [-3, -1, 0, 1, 2, 4];
      const lift = [1, 0, -1, 0.5, -0.5, 0];
      const c = Array.from({ length: n }, () => Math.floor(r() * 6));
      const X = mat(n, 4, g);
      const y = c.map((k, i) =>
        slope[k] * X[0][i] + lift[k] + X[1][i] + 0.5 * g()
      );
      return table(
        named(X),
        { grp: c.map((k) => "abcdef"[k]) },
        y,
        "regression",
      );
    },
  },
  steps: {
    rows: 3_000,
    make(n, seed) {
      const r = createRng(seed), g = normal(r);
      const X = mat(n, 6, () => r() * 10);
      const y = X[0].map((_, i) =>
        (X[0][i] > 3 ? 4 : 0) + (X[0][i] > 7 ? 3 : 0) +
        (X[1][i] > 5 ? -5 : 0) + Math.floor(X[2][i] / 2.5) * 1.5 +
        (X[3][i] > 9.5 ? 6 : 0) + 0.7 * g()
      );
      return table(named(X), {}, y, "regression");
    },
  },
  outliers: {
    rows: 3_000,
    make(n, seed) {
      const r = createRng(seed), g = normal(r);
      const X = mat(n, 4, g);
      const ln = X[0].map(() => Math.exp(1.5 * g()));
      const y = X[0].map((_, i) =>
        2 * Math.log1p(ln[i]) + 1.5 * X[1][i] + X[2][i] ** 3 / 3 + 0.5 * g() +
        (r() < 0.02 ? 25 * g() : 0)
      );
      return table({ ...named(X), ln }, {}, y, "regression");
    },
  },
  lognormal: {
    rows: 3_000,
    make(n, seed) {
      const r = createRng(seed), g = normal(r);
      const X = mat(n, 5, g);
      const y = X[0].map((_, i) =>
        Math.exp(
          1 + 0.8 * X[0][i] + 0.5 * X[1][i] - 0.4 * X[2][i] +
            0.3 * Math.sin(2 * X[3][i]) + 0.5 * g(),
        )
      );
      return table(named(X), {}, y, "regression");
    },
  },
  counts: {
    rows: 3_000,
    make(n, seed) {
      const r = createRng(seed), g = normal(r);
      const X = mat(n, 5, g);
      const y = X[0].map((_, i) => {
        const mu = Math.exp(-0.3 + 0.6 * X[0][i] + 0.4 * X[1][i]);
        let k = 0, p = Math.exp(-mu), s = p;
        const u = r();
        while (u > s && k < 5) p *= mu / ++k, s += p;
        return k;
      });
      return table(named(X), {}, y, "regression");
    },
  },
  dupconst: {
    rows: 3_000,
    make(n, seed) {
      const r = createRng(seed), g = normal(r);
      const X = mat(n, 5, g);
      const cols: Record<string, number[]> = named(X);
      cols.dup0 = [...X[0]];
      cols.dup0b = [...X[0]];
      cols.dup1 = X[1].map((v) => 2 * v + 1);
      cols.near0 = X[0].map(() => (r() < 0.995 ? 0 : 1));
      cols.const1 = X[0].map(() => 7);
      const y = X[0].map((_, i) =>
        bin(
          sigmoid(1.2 * X[0][i] - X[1][i] + (X[2][i] > 0 ? 0.8 : -0.8)),
          r,
        )
      );
      return table(cols, {}, y, "binary");
    },
  },
  missing: {
    rows: 3_000,
    make(n, seed) {
      const r = createRng(seed), g = normal(r);
      const X = mat(n, 5, g);
      const m1 = X[0].map(() => r() < 0.7);
      const m2 = X[0].map(() => r() < 0.85);
      const y = X[0].map((_, i) =>
        bin(
          sigmoid(
            (m1[i] ? -1.5 : 1 + X[0][i]) + (m2[i] ? 0 : 1.5 - X[1][i]) +
              0.8 * X[2][i] + 0.3,
          ),
          r,
        )
      );
      const cols: Record<string, RawValue[]> = named(X);
      cols.x0 = X[0].map((v, i) => (m1[i] ? null : v));
      cols.x1 = X[1].map((v, i) => (m2[i] ? null : v));
      // Missing at random, no signal in it.
      cols.x3 = X[3].map((v) => (r() < 0.6 ? null : v));
      return table(cols, {}, y, "binary");
    },
  },
  date: {
    rows: 2_000,
    make(n, seed) {
      const r = createRng(seed), g = normal(r);
      const start = Date.UTC(2021, 0, 4) / 86_400_000; // a Monday
      const day = Array.from(
        { length: n },
        () => start + Math.floor(r() * 1_100),
      );
      const X = mat(n, 2, g);
      const week = [0, 0.5, 0.8, 0.6, 1.5, 3, 2.5];
      const y = day.map((d, i) =>
        0.004 * (d - start) + week[(d - start) % 7] +
        Math.sin((2 * Math.PI * (d - start)) / 365.25) + X[0][i] + 0.5 * g()
      );
      const iso = day.map((d) =>
        new Date(d * 86_400_000).toISOString().slice(0, 10)
      );
      return table(
        { ...named(X), daynum: day },
        { date: iso },
        y,
        "regression",
        ["date"],
      );
    },
  },
  scales: {
    rows: 3_000,
    make(n, seed) {
      const r = createRng(seed), g = normal(r);
      const X = mat(n, 4, g);
      // Epoch milliseconds, a nanometre-scale reading, a 1e9-scale amount.
      const ms = X[0].map((v) => 1.6e12 + 3e10 * v);
      const nano = X[1].map((v) => 1e-9 * v);
      const big = X[2].map((v) => Math.exp(20 + v));
      const y = X[0].map((_, i) =>
        2 * X[0][i] - X[1][i] + Math.log(big[i]) - 20 + Math.sin(2 * X[3][i]) +
        0.5 * g()
      );
      return table({ ms, nano, big, x3: X[3] }, {}, y, "regression");
    },
  },
  noise80: {
    rows: 2_500,
    make(n, seed) {
      const r = createRng(seed), g = normal(r);
      const X = mat(n, 80, g);
      const y = X[0].map((_, i) =>
        bin(
          sigmoid(
            X[0][i] - 0.8 * X[1][i] + (X[2][i] > 0.5 ? 1 : 0) +
              0.5 * X[3][i] ** 2 - 0.5 + 0.6 * X[4][i],
          ),
          r,
        )
      );
      return table(named(X), {}, y, "binary");
    },
  },
  catmissing: {
    rows: 3_000,
    make(n, seed) {
      const r = createRng(seed), g = normal(r);
      const X = mat(n, 3, g);
      const levels = 12;
      const effect = Array.from({ length: levels }, () => g());
      const lvl = X[0].map(() => Math.floor(r() * levels));
      const miss = X[0].map((_, i) => r() < (X[1][i] > 0 ? 0.6 : 0.15));
      const y = X[0].map((_, i) =>
        bin(
          sigmoid(
            (miss[i] ? 1.2 : effect[lvl[i]]) + 0.8 * X[0][i] - 0.3,
          ),
          r,
        )
      );
      return table(
        { x0: X[0], x2: X[2] },
        { cat: lvl.map((l, i) => (miss[i] ? null : `L${l}`)) },
        y,
        "binary",
      );
    },
  },
  small_bin: {
    rows: 150,
    make(n, seed) {
      const r = createRng(seed), g = normal(r);
      const X = mat(n, 5, g);
      const y = X[0].map((_, i) =>
        bin(sigmoid(1.5 * X[0][i] - X[1][i] + 0.5 * X[2][i]), r)
      );
      return table(named(X), {}, y, "binary");
    },
  },
  small_reg: {
    rows: 250,
    make(n, seed) {
      const r = createRng(seed), g = normal(r);
      const X = mat(n, 6, g);
      const y = X[0].map((_, i) =>
        2 * X[0][i] - X[1][i] + 0.5 * X[2][i] + 0.3 * X[3][i] + g()
      );
      return table(named(X), {}, y, "regression");
    },
  },
  linear_bin: {
    rows: 3_000,
    make(n, seed) {
      const r = createRng(seed), g = normal(r);
      const X = mat(n, 10, g);
      const w = Array.from({ length: 10 }, () => 1.2 * g());
      const y = X[0].map((_, i) =>
        bin(sigmoid(w.reduce((a, b, j) => a + b * X[j][i], 0)), r)
      );
      return table(named(X), {}, y, "binary");
    },
  },
  linear_reg: {
    rows: 3_000,
    make(n, seed) {
      const r = createRng(seed), g = normal(r);
      const X = mat(n, 10, g);
      const w = Array.from({ length: 10 }, () => g());
      const y = X[0].map((_, i) =>
        w.reduce((a, b, j) => a + b * X[j][i], 0) + 1.5 * g()
      );
      return table(named(X), {}, y, "regression");
    },
  },
  ordinal: {
    rows: 3_000,
    make(n, seed) {
      const r = createRng(seed), g = normal(r);
      // Wine-quality-like: grades 3-7 cut from a latent linear score plus
      // noise (about 3/30/42/20/5%), some inputs skewed.
      const X = mat(n, 11, g);
      const w = [0.9, -0.7, 0.5, 0.4, -0.3, 0.25, 0.2, 0, 0, 0, 0];
      const cuts = [-3, -0.7, 1.07, 2.62];
      const y = X[0].map((_, i) => {
        const s = w.reduce((a, b, j) => a + b * X[j][i], 0) + 0.8 * g();
        return String(3 + cuts.filter((c) => s > c).length);
      });
      const cols: Record<string, number[]> = named(X);
      cols.x2 = X[2].map((v) => Math.exp(0.6 * v));
      cols.x5 = X[5].map((v) => Math.exp(v) + 2);
      cols.x8 = X[8].map((v) => Math.exp(0.8 * v));
      return table(cols, {}, y, "multiclass");
    },
  },
  multicat: {
    rows: 4_300,
    make(n, seed) {
      const r = createRng(seed), g = normal(r);
      // 4 classes at about 51/31/12/6%; five heavy-tailed numbers and two
      // categoricals (14 and 7 levels) whose levels are drawn by class,
      // some levels never with some classes.
      const prior = [0.51, 0.31, 0.12, 0.06];
      const k = Array.from({ length: n }, () => draw(r, prior.map(Math.log)));
      const never14 = [[0, 1], [], [9, 10, 11, 12, 13], [5, 9, 10, 11, 12, 13]];
      const never7 = [[6], [], [0, 6], [0, 1]];
      const weights = (L: number, never: number[][]) =>
        never.map((nv) =>
          Array.from(
            { length: L },
            (_, l) => (nv.includes(l) ? -Infinity : 1.2 * g()),
          )
        );
      const w14 = weights(14, never14), w7 = weights(7, never7);
      const t3 = () => g() / Math.sqrt((g() ** 2 + g() ** 2 + g() ** 2) / 3);
      const x0 = k.map((c) => Math.exp(1 + 0.35 * c + 1.1 * g()));
      const x1 = k.map((c) => 0.5 * c + t3());
      const x2 = k.map((c) => (1 + 0.4 * c) / Math.max(r(), 1e-9) ** 0.4);
      const x3 = k.map((c) =>
        -Math.log(1 - r()) * (1 + 0.5 * (c === 3 ? 1 : 0))
      );
      const x4 = k.map((c) => (c === 1 ? 0.5 : 0) + 0.3 * t3() ** 3);
      return table(
        { x0, x1, x2, x3, x4 },
        {
          cat14: k.map((c) => `L${draw(r, w14[c])}`),
          cat7: k.map((c) => `M${draw(r, w7[c])}`),
        },
        k.map((c) => `c${c}`),
        "multiclass",
      );
    },
  },
  xor_multi: {
    rows: 3_000,
    make(n, seed) {
      const r = createRng(seed), g = normal(r);
      // 3 classes set by the sign of x0 * x1 (and a band near the axes),
      // 10% of labels drawn at random, 8 noise columns.
      const X = mat(n, 10, g);
      const y = X[0].map((_, i) => {
        const p = X[0][i] * X[1][i];
        const c = r() < 0.1
          ? Math.floor(r() * 3)
          : p > 0.25
          ? 0
          : p < -0.25
          ? 1
          : 2;
        return `k${c}`;
      });
      return table(named(X), {}, y, "multiclass");
    },
  },
  zipf_classes: {
    rows: 2_500,
    make(n, seed) {
      const r = createRng(seed), g = normal(r);
      // 10 classes at frequencies proportional to (k + 1)^-1.8 (the rarest
      // about 23 rows), centroids in 10 numbers, a 6-level category.
      const K = 10, P = 10;
      const prior = Array.from({ length: K }, (_, c) => -1.8 * Math.log(c + 1));
      const centre = mat(K, P, () => 0.9 * g());
      const catW = mat(K, 6, g);
      const k = Array.from({ length: n }, () => draw(r, prior));
      const X = Array.from(
        { length: P },
        (_, j) => k.map((c) => centre[j][c] + g()),
      );
      return table(
        named(X),
        { grp: k.map((c) => `g${draw(r, catW.map((w) => w[c]))}`) },
        k.map((c) => `class_${c}`),
        "multiclass",
      );
    },
  },
  houses: {
    rows: 2_900,
    make(n, seed) {
      const r = createRng(seed), g = normal(r);
      // House-price-like: 30 numbers and 40 categoricals (two of many
      // levels, rare levels, mostly-missing ones), a right-skewed price
      // whose log is about additive.
      const int = (v: number) => Math.round(v);
      const clamp = (v: number, lo: number, hi: number) =>
        Math.min(hi, Math.max(lo, v));
      const zero = (p: number, v: number) => (r() < p ? 0 : v);
      const size = Array.from({ length: n }, g);
      const qual = size.map((s) => clamp(int(6 + 0.6 * s + 1.2 * g()), 1, 10));
      const area = size.map((s) => int(Math.exp(7.25 + 0.3 * s + 0.12 * g())));
      const year = qual.map((q) =>
        clamp(int(1972 + 8 * (q - 6) + 22 * g()), 1872, 2010)
      );
      const lot = size.map((s) => int(Math.exp(9.1 + 0.2 * s + 0.45 * g())));
      const cars = qual.map((q) =>
        clamp(int(1.8 + 0.35 * (q - 6) + 0.7 * g()), 0, 4)
      );
      const bsmt = area.map((a) => zero(0.03, int(a * (0.7 + 0.25 * r()))));
      const second = area.map((a) => zero(0.57, int(a * (0.3 + 0.3 * r()))));
      const fire = qual.map((q) =>
        clamp(int(0.5 + 0.25 * (q - 6) + 0.6 * g()), 0, 3)
      );
      const bath = area.map((a) => clamp(int(a / 900 + 0.5 * g()), 0, 3));
      const num: Record<string, RawValue[]> = {
        area,
        lot_area: lot,
        lot_frontage: lot.map((
          l,
        ) => (r() < 0.17 ? null : int(Math.sqrt(l) * (0.5 + 0.3 * r())))),
        quality: qual,
        condition: qual.map(() => clamp(int(5.5 + 1.1 * g()), 1, 9)),
        year_built: year,
        year_remod: year.map((y) =>
          Math.max(y, clamp(int(1990 + 15 * g()), 1950, 2010))
        ),
        bsmt_sf: bsmt,
        garage_cars: cars,
        garage_area: cars.map((c) => (c === 0 ? 0 : int(c * 250 + 60 * g()))),
        garage_year: year.map((
          y,
          i,
        ) => (cars[i] === 0 ? null : y + (r() < 0.2 ? int(10 * r()) : 0))),
        full_bath: bath,
        half_bath: area.map(() => clamp(int(0.4 + 0.5 * g()), 0, 2)),
        bedrooms: area.map((a) => clamp(int(a / 500 + 0.7 * g()), 0, 6)),
        kitchens: area.map(() => (r() < 0.95 ? 1 : r() < 0.9 ? 2 : 3)),
        rooms: area.map((a) => clamp(int(a / 230 + g()), 2, 14)),
        fireplaces: fire,
        wood_deck: area.map(() => zero(0.5, int(Math.exp(5 + 0.6 * g())))),
        open_porch: area.map(() => zero(0.45, int(Math.exp(3.8 + 0.7 * g())))),
        enclosed_porch: area.map(() =>
          zero(0.85, int(Math.exp(4.8 + 0.5 * g())))
        ),
        screen_porch: area.map(() => zero(0.92, int(Math.exp(5 + 0.4 * g())))),
        pool_area: area.map(() => zero(0.995, int(450 + 150 * r()))),
        misc_val: area.map(() => zero(0.96, int(Math.exp(6.5 + g())))),
        mas_vnr_area: area.map(
          () => (r() < 0.005 ? null : zero(0.6, int(Math.exp(5 + 0.7 * g())))),
        ),
        second_floor: second,
        low_qual_sf: area.map(() => zero(0.98, int(Math.exp(5 + 0.5 * g())))),
        bsmt_fin2: bsmt.map((
          b,
        ) => (b === 0 ? 0 : zero(0.88, int(b * 0.3 * r())))),
        bsmt_unf: bsmt.map((b) => int(b * r())),
        mo_sold: area.map(() => clamp(int(6.3 + 2.7 * g()), 1, 12)),
        yr_sold: area.map(() => 2006 + Math.floor(r() * 5)),
      };
      // name, levels, missing share, effect sd (log price), Zipf exponent.
      const specs: [string, number, number, number, number][] = [
        ["neighborhood", 25, 0, 0.15, 0.7],
        ["subdivision", 180, 0, 0.06, 1],
        ["builder", 400, 0.1, 0, 0.8],
        ["ms_zoning", 5, 0, 0.06, 2.5],
        ["street", 2, 0, 0, 6],
        ["alley", 2, 0.93, 0.03, 1],
        ["lot_shape", 4, 0, 0.02, 2],
        ["land_contour", 4, 0, 0.02, 3],
        ["utilities", 2, 0, 0, 9],
        ["lot_config", 5, 0, 0.02, 2],
        ["land_slope", 3, 0, 0.01, 3],
        ["condition1", 9, 0, 0.03, 2.5],
        ["condition2", 8, 0, 0, 5],
        ["bldg_type", 5, 0, 0.05, 2],
        ["house_style", 8, 0, 0.03, 1.5],
        ["roof_style", 6, 0, 0.01, 2.5],
        ["roof_matl", 8, 0, 0.05, 5],
        ["exterior1", 15, 0, 0.04, 1.3],
        ["exterior2", 16, 0, 0.01, 1.3],
        ["mas_vnr_type", 4, 0.01, 0.02, 1.5],
        ["exter_cond", 5, 0, 0.02, 3],
        ["foundation", 6, 0, 0.03, 1.5],
        ["bsmt_cond", 5, 0.03, 0.02, 3],
        ["bsmt_exposure", 4, 0.03, 0.03, 1.5],
        ["bsmt_fin_type1", 6, 0.03, 0.02, 0.8],
        ["bsmt_fin_type2", 6, 0.03, 0, 3],
        ["heating", 6, 0, 0.03, 5],
        ["heating_qc", 5, 0, 0.03, 1.5],
        ["central_air", 2, 0, 0.08, 3],
        ["electrical", 5, 0.0005, 0.02, 3],
        ["functional", 7, 0, 0.05, 4],
        ["fireplace_qu", 5, 0.48, 0.02, 1.2],
        ["garage_type", 6, 0.05, 0.03, 1.5],
        ["garage_finish", 3, 0.05, 0.03, 0.5],
        ["garage_qual", 5, 0.05, 0.02, 4],
        ["paved_drive", 3, 0, 0.03, 3],
        ["pool_qc", 3, 0.995, 0, 1],
        ["fence", 4, 0.8, 0.01, 1],
        ["misc_feature", 4, 0.96, 0, 2],
        ["sale_condition", 6, 0, 0.06, 2.5],
      ];
      const cat: Record<string, RawValue[]> = {};
      const logp = area.map((a, i) =>
        11.95 + 0.55 * (Math.log(a) - 7.25) + 0.07 * (qual[i] - 6) +
        0.003 * (year[i] - 1972) + 0.07 * Math.log(lot[i] / 9000) +
        0.04 * cars[i] + 0.03 * fire[i] + 0.04 * bath[i] +
        0.00012 * bsmt[i] + 0.1 * g()
      );
      for (const [name, L, miss, sd, s] of specs) {
        const effect = Array.from({ length: L }, () => sd * g());
        const w = Array.from({ length: L }, (_, l) => -s * Math.log(l + 1));
        cat[name] = logp.map((_, i) => {
          if (r() < miss) return null;
          const l = draw(r, w);
          logp[i] += effect[l];
          return `${name.slice(0, 3)}_${l}`;
        });
      }
      // Ordered grades tied to the overall quality.
      for (const name of ["exter_qual", "kitchen_qual"]) {
        cat[name] = qual.map((q, i) => {
          const l = clamp(int((q - 2) / 2 + 0.6 * g()), 0, 3);
          logp[i] += 0.04 * l;
          return ["Fa", "TA", "Gd", "Ex"][l];
        });
      }
      const y = logp.map((v) => int(Math.exp(v)));
      return table(num, cat, y, "regression");
    },
  },
  hetero: {
    rows: 3_000,
    make(n, seed) {
      const r = createRng(seed), g = normal(r);
      // Noise whose scale grows with x0 and differs by group.
      const X = mat(n, 5, g);
      const scale = [0.3, 1, 2.5];
      const grp = X[0].map(() => Math.floor(r() * 3));
      const y = X[0].map((_, i) =>
        2 * X[0][i] + Math.sin(2 * X[1][i]) + 0.5 * X[2][i] ** 2 +
        [0, 1, -1][grp[i]] +
        scale[grp[i]] * Math.exp(0.6 * X[0][i]) * g()
      );
      return table(
        named(X),
        { grp: grp.map((k) => "abc"[k]) },
        y,
        "regression",
      );
    },
  },
  product3: {
    rows: 1_200,
    make(n, seed) {
      const r = createRng(seed), g = normal(r);
      // Concrete-like: strength the product of cement, a water term and
      // log age, plus small additive parts.
      const ages = [1, 3, 7, 14, 28, 28, 28, 56, 90, 180, 365];
      const cement = Array.from({ length: n }, () => 100 + 440 * r());
      const water = cement.map(() => 120 + 130 * r());
      const age = cement.map(() => ages[Math.floor(r() * ages.length)]);
      const slag = cement.map(() => (r() < 0.45 ? 0 : 300 * r()));
      const ash = cement.map(() => (r() < 0.55 ? 0 : 200 * r()));
      const plast = cement.map(() => (r() < 0.4 ? 0 : 30 * r()));
      const coarse = cement.map(() => 800 + 350 * r());
      const fine = cement.map(() => 600 + 390 * r());
      const y = cement.map((c, i) =>
        0.0035 * c * (260 - water[i]) * Math.log1p(age[i]) / 5 +
        0.02 * slag[i] + 0.2 * plast[i] + 3 * g()
      );
      return table(
        { cement, slag, ash, water, plast, coarse, fine, age },
        {},
        y,
        "regression",
      );
    },
  },
  wide_reg: {
    rows: 300,
    make(n, seed) {
      const r = createRng(seed), g = normal(r);
      // 200 columns, 10 with a linear effect.
      const X = mat(n, 200, g);
      const w = Array.from(
        { length: 10 },
        () => (r() < 0.5 ? -1 : 1) * (0.5 + r()),
      );
      const y = X[0].map((_, i) =>
        w.reduce((a, b, j) => a + b * X[j * 20][i], 0) + 1.5 * g()
      );
      return table(named(X), {}, y, "regression");
    },
  },
  flags_bin: {
    rows: 3_000,
    make(n, seed) {
      const r = createRng(seed);
      // Churn-like: yes/no, Yes/No, TRUE/FALSE and Y/N strings, 0/1 and
      // small integer-coded categories (contract 0-2, region 1-9, payment
      // 1-4) read as numbers, a tenure and a charge.
      const yn = (p: number, a: string, b: string) =>
        Array.from({ length: n }, () => (r() < p ? a : b));
      const partner = yn(0.48, "yes", "no");
      const dependents = yn(0.3, "Yes", "No");
      const paperless = yn(0.59, "TRUE", "FALSE");
      const autopay = yn(0.45, "TRUE", "FALSE");
      const phone = yn(0.9, "Y", "N");
      const senior = partner.map(() => (r() < 0.16 ? 1 : 0));
      const contract = partner.map(() => draw(r, [0, -0.6, -0.8]));
      const region = partner.map(() => 1 + Math.floor(r() * 9));
      const payment = partner.map(() => 1 + draw(r, [0.3, 0, 0, -0.1]));
      const tenure = contract.map((c) =>
        Math.min(72, Math.floor(-Math.log(1 - r()) * (8 + 18 * c)))
      );
      const charges = partner.map(() => 20 + 100 * r());
      const calls = partner.map(() =>
        Math.min(8, Math.floor(-Math.log(1 - r()) * 1.3))
      );
      const regionEffect = [0, 0.6, -0.4, 0.1, 0.8, -0.7, 0.2, -0.2, 0.5, -0.5];
      const y = partner.map((_, i) =>
        bin(
          sigmoid(
            -0.6 + [0.9, -0.6, -1.8][contract[i]] + regionEffect[region[i]] -
              0.035 * tenure[i] + 0.015 * (charges[i] - 70) +
              (partner[i] === "yes" ? -0.3 : 0) +
              (dependents[i] === "Yes" ? -0.25 : 0) +
              (paperless[i] === "TRUE" ? 0.4 : 0) +
              (autopay[i] === "TRUE" ? -0.3 : 0) + 0.4 * senior[i] +
              [0.5, -0.2, -0.3, -0.1][payment[i] - 1] + 0.25 * calls[i],
          ),
          r,
        )
      );
      return table(
        { tenure, charges, senior, contract, region, payment, calls },
        { partner, dependents, paperless, autopay, phone },
        y,
        "binary",
      );
    },
  },
};

const cell = (v: RawValue) =>
  v === null
    ? ""
    : typeof v === "number"
    ? String(Number(v.toPrecision(7)))
    : v;

/**
 * The table as CSV text (empty cells for nulls), its schema fields and raw
 * columns as ingestion would give them (numbers rounded as in the CSV).
 *
 * @example
 * ```ts
 * import { KINDS, kindFiles } from "./model_kinds.ts";
 * const t = kindFiles(KINDS.missing.make(40, 1));
 * if (!(t.csv.split("\n")[0].endsWith(",y") && t.fields.length === 6 && t.columns.y.length === 40)) throw new Error("example failed");
 * ```
 */
export function kindFiles(
  t: KindTable,
): { csv: string; fields: SchemaField[]; columns: RawColumns } {
  const names = Object.keys(t.columns);
  const columns: Record<string, RawValue[]> = {};
  for (const c of names) {
    columns[c] = t.columns[c].map((v) =>
      typeof v === "number" ? Number(v.toPrecision(7)) : v
    );
  }
  const lines = [names.join(",")];
  for (let i = 0; i < columns.y.length; i++) {
    lines.push(names.map((c) => cell(columns[c][i])).join(","));
  }
  const fields: SchemaField[] = names.map((name) => {
    const isNumber = t.numeric.includes(name) ||
      (name === "y" && t.task === "regression");
    return {
      name,
      data_type: { data_type: isNumber ? "NUMBER" : "STRING" },
      designation: name === "y" ? "TARGET" : "FEATURE",
      semantic_type: isNumber ? "CONTINUOUS" : "CATEGORICAL",
    };
  });
  return { csv: lines.join("\n") + "\n", fields, columns };
}

/** One table and seed: the headline metric (and accuracy for 3+ classes) of ours and of each peer, and fit seconds. */
export interface KindResult {
  kind: string;
  seed: number;
  metric: "AUC" | "log loss" | "R²";
  scores: Record<"ours" | "hgb" | "linear" | "xgboost", number>;
  accuracy?: Record<"ours" | "hgb" | "linear" | "xgboost", number>;
  seconds: Record<"ours" | "hgb" | "linear" | "xgboost", number>;
  /** Our model's chosen configuration: bins, pairs, linear start, rounds, link, pairs weight, greedy terms. */
  notes: string;
}

/** Kind `kind`'s table of seed `seed` (each kind's seeds draw tables of its own). */
export function kindTable(kind: string, seed: number): KindTable {
  const { rows, make } = KINDS[kind];
  return make(rows, seed * 1_009 + kind.length);
}

/** Ours on table `t` (`oursOf`'s columns), fitted once on `split`. */
export function fitKind(
  t: KindTable,
  split: { train: number[]; test: number[] },
  params: Record<string, unknown> = {},
  onboarding: OnboardingOptions = {},
  files: ReturnType<typeof kindFiles> = kindFiles(t),
): ReturnType<typeof fitAndScore> {
  const { columns, fields } = oursOf(t, files);
  return fitAndScore(
    columns,
    fields,
    "y",
    t.task === "regression" ? "REGRESSION" : "CLASSIFICATION",
    split,
    1,
    params,
    onboarding,
  );
}

/**
 * The columns and fields ours trains on: the table's, without the numeric
 * stand-in (`daynum`) the peers get for a column they do not see.
 */
export function oursOf(
  t: KindTable,
  files: ReturnType<typeof kindFiles> = kindFiles(t),
): { columns: RawColumns; fields: SchemaField[] } {
  const columns = { ...files.columns };
  let fields = files.fields;
  if (t.peersDrop) {
    delete columns.daynum;
    fields = fields.filter((f) => f.name !== "daynum");
  }
  return { columns, fields };
}

/** Writes the table, scores the peers in Python and ours in process on the same split. */
export async function scoreKind(
  t: KindTable,
  file: string,
  at: { kind: string; seed: number },
  params: Record<string, unknown> = {},
  onboarding: OnboardingOptions = {},
): Promise<KindResult> {
  const files = kindFiles(t);
  const regression = t.task === "regression";
  const { ref, split } = await peersOn(
    { csv: files.csv, numeric: t.numeric },
    file,
    regression,
    t.peersDrop,
  );
  const ours = await fitKind(t, split, params, onboarding, files);
  const multi = t.task === "multiclass";
  const peers = ["hgb", "linear", "xgboost"] as const;
  const pick = (f: (p: Record<string, number>) => number) =>
    Object.fromEntries(peers.map((p) => [p, ref[p] ? f(ref[p]) : NaN]));
  return {
    ...at,
    metric: multi ? "log loss" : regression ? "R²" : "AUC",
    scores: {
      ours: multi ? ours.multiclass!.logLoss : ours.score,
      ...pick((p) => (multi ? p.log_loss : p.score)),
    } as KindResult["scores"],
    accuracy: multi
      ? {
        ours: ours.multiclass!.accuracy,
        ...pick((p) => p.accuracy),
      } as KindResult["scores"]
      : undefined,
    notes: notesOf(ours.model),
    seconds: {
      ours: ours.fitSeconds,
      ...pick((p) => p.fit_seconds),
    } as KindResult["seconds"],
  };
}

function notesOf(m: EbmModel): string {
  const x = m.metrics;
  return `bins ${m.params.bins}, ${
    m.terms.filter((t) => t.features.length === 2).length
  } pairs, linear ${
    x.linearStart ? "yes" : "no"
  }, rounds ${x.mainRounds}/${x.pairRounds}, link ${
    m.link ?? "identity"
  }, pairs weight ${x.pairsWeight ?? "-"}, greedy ${x.greedyTerms ?? "-"}`;
}

/** Ours minus the best peer, signed so that positive is ours ahead. */
export function lead(r: KindResult): number {
  const { ours, hgb, linear, xgboost } = r.scores;
  const peers = [hgb, linear, xgboost].filter((v) => !Number.isNaN(v));
  return r.metric === "log loss"
    ? Math.min(...peers) - ours
    : ours - Math.max(...peers);
}

function row(r: KindResult): string {
  const f = (v: number) => v.toFixed(4);
  const s = r.scores, sec = r.seconds, a = r.accuracy;
  const acc = a
    ? ` | acc ours ${f(a.ours)} HGB ${f(a.hgb)} LR ${f(a.linear)} XGB ${
      f(a.xgboost)
    }`
    : "";
  return `${r.kind.padEnd(12)} s${r.seed} ${r.metric.padEnd(8)} ours ${
    f(s.ours)
  } HGB ${f(s.hgb)} LR ${f(s.linear)} XGB ${f(s.xgboost)} | lead ${
    (lead(r) >= 0 ? "+" : "") + f(lead(r))
  }${acc} | fit s ours ${sec.ours.toFixed(1)} HGB ${sec.hgb.toFixed(1)} LR ${
    sec.linear.toFixed(1)
  } XGB ${sec.xgboost.toFixed(1)} | ${r.notes}`;
}

if (import.meta.main) {
  const { names, seeds, params } = benchArgs(
    Deno.args.filter((a) => !a.startsWith("--onboarding=")),
    Object.keys(KINDS),
  );
  const flag = Deno.args.find((a) => a.startsWith("--onboarding="));
  const onboarding = flag ? JSON.parse(flag.slice(13)) : {};
  const dir = await Deno.makeTempDir({ prefix: "model_kinds_" });
  try {
    for (const kind of names) {
      for (let seed = 1; seed <= seeds; seed++) {
        const r = await scoreKind(
          kindTable(kind, seed),
          `${dir}/${kind}_${seed}.csv`,
          { kind, seed },
          params,
          onboarding,
        );
        console.log(row(r) + ` | load ${Deno.loadavg()[0].toFixed(1)}`);
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
