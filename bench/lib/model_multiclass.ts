/**
 * Generated multi-class tables, seeded, to check a change of the model on
 * more than the public multi-class tables: ours beside scikit-learn's
 * HistGradientBoosting, logistic regression and XGBoost on the same split
 * (bench/model_reference.py makes it: stratified
 * `train_test_split(test_size=0.2, random_state=0)`), test log loss.
 *
 * - `linear3`: 600 rows, 3 classes whose logits are linear in 6 standard
 *   normals (logistic regression's home ground), classes drawn.
 * - `skew4`: 800 rows, 4 classes, logits linear in 5 log-normal columns.
 * - `nonlin5`: 1,000 rows, 5 classes, logits from sine and threshold shapes
 *   of 6 normals (boosted shapes' ground).
 * - `mixed3`: 500 rows, 3 classes, logits linear in 4 normals plus the
 *   effect of a 6-level category.
 *
 * Run: `deno run -A bench/lib/model_multiclass.ts [--seeds=3]
 * [--params='{"bins":32}']`; prints one row per table and seed and the mean
 * of (best peer's log loss - ours). `PYTHON` picks the interpreter (default
 * /usr/bin/python3).
 *
 * @module
 */
import { createRng } from "../../src/local/model/rng.ts";
import type {
  RawColumns,
  SchemaField,
} from "../../src/local/model/encoding.ts";
import { normal, peersAndOurs, tableFiles } from "../model_interactions.ts";

/** A generated multi-class table: numeric columns, categorical ones and the class of every row. */
export interface MulticlassTable {
  numeric: Record<string, number[]>;
  categorical: Record<string, string[]>;
  y: string[];
}

/** A class drawn from the softmax of `logits`. */
function draw(rng: () => number, logits: number[]): number {
  const m = Math.max(...logits);
  const e = logits.map((l) => Math.exp(l - m));
  let u = rng() * e.reduce((a, b) => a + b);
  for (let k = 0; k < e.length; k++) {
    u -= e[k];
    if (u <= 0) return k;
  }
  return e.length - 1;
}

/** `K` rows of `F` weights uniform in [-scale/2, scale/2]. */
function weights(rng: () => number, K: number, F: number, scale: number) {
  return Array.from(
    { length: K },
    () => Array.from({ length: F }, () => (rng() - 0.5) * scale),
  );
}

const named = (X: number[][]) =>
  Object.fromEntries(X.map((x, j) => [`x${j}`, x]));

/** Each row's class drawn from the softmax of linear scores `W` of `X`. */
function linearClasses(
  r: () => number,
  W: number[][],
  X: number[][],
  n: number,
): string[] {
  return Array.from(
    { length: n },
    (_, i) =>
      "c" + draw(r, W.map((w) => w.reduce((a, b, j) => a + b * X[j][i], 0))),
  );
}

/** The kinds of table and their row counts (see the module's notes). */
export const KINDS: Record<
  string,
  { rows: number; make: (n: number, seed: number) => MulticlassTable }
> = {
  linear3: {
    rows: 600,
    make: (n, seed) => {
      const r = createRng(seed), g = normal(r);
      const W = weights(r, 3, 6, 3);
      const X = Array.from({ length: 6 }, () => Array.from({ length: n }, g));
      const y = linearClasses(r, W, X, n);
      return { numeric: named(X), categorical: {}, y };
    },
  },
  skew4: {
    rows: 800,
    make: (n, seed) => {
      const r = createRng(seed), g = normal(r);
      const W = weights(r, 4, 5, 1.2);
      const X = Array.from(
        { length: 5 },
        () => Array.from({ length: n }, () => Math.exp(g())),
      );
      const y = linearClasses(r, W, X, n);
      return { numeric: named(X), categorical: {}, y };
    },
  },
  nonlin5: {
    rows: 1_000,
    make: (n, seed) => {
      const r = createRng(seed), g = normal(r);
      const X = Array.from({ length: 6 }, () => Array.from({ length: n }, g));
      const y = Array.from({ length: n }, (_, i) =>
        "c" + draw(
          r,
          Array.from({ length: 5 }, (_, k) =>
            2 * Math.sin(X[k % 6][i] + k) +
            (X[(k + 1) % 6][i] > 0.3 * k ? 1.5 : -0.5)),
        ));
      return { numeric: named(X), categorical: {}, y };
    },
  },
  mixed3: {
    rows: 500,
    make: (n, seed) => {
      const r = createRng(seed), g = normal(r);
      const W = weights(r, 3, 4, 2);
      const X = Array.from({ length: 4 }, () => Array.from({ length: n }, g));
      const level = Array.from({ length: n }, () => Math.floor(r() * 6));
      const effect = weights(r, 3, 6, 2);
      const y = Array.from({ length: n }, (_, i) =>
        "c" + draw(
          r,
          W.map((w, k) =>
            w.reduce((a, b, j) => a + b * X[j][i], 0) + effect[k][level[i]]
          ),
        ));
      return {
        numeric: named(X),
        categorical: { g: level.map((v) => `L${v}`) },
        y,
      };
    },
  },
};

/**
 * The table as CSV text (numbers with 6 significant digits), with its
 * schema fields and raw columns as ingestion would give them.
 *
 * @example
 * ```ts
 * import { KINDS, multiclassFiles } from "./model_multiclass.ts";
 * const t = multiclassFiles(KINDS.mixed3.make(40, 1));
 * if (!(t.csv.split("\n")[0] === "x0,x1,x2,x3,g,y" && t.fields.length === 6 && t.columns.y.length === 40)) throw new Error("example failed");
 * ```
 */
export function multiclassFiles(t: MulticlassTable): {
  csv: string;
  fields: SchemaField[];
  columns: RawColumns;
  numeric: string[];
} {
  return tableFiles({ ...t, label: [], classes: t.y });
}

if (import.meta.main) {
  const seeds = Number(
    Deno.args.find((a) => a.startsWith("--seeds="))?.slice(8) ?? 3,
  );
  const flag = Deno.args.find((a) => a.startsWith("--params="));
  const params = flag ? JSON.parse(flag.slice(9)) : {};
  const dir = await Deno.makeTempDir({ prefix: "model_multiclass_" });
  const gains: number[] = [];
  try {
    for (const [kind, { rows, make }] of Object.entries(KINDS)) {
      for (let seed = 1; seed <= seeds; seed++) {
        const files = multiclassFiles(make(rows, seed * 101 + kind.length));
        const { ref, ours } = await peersAndOurs(
          files,
          `${dir}/${kind}_${seed}.csv`,
          false,
          params,
        );
        const best = Math.min(
          ref.hgb.log_loss,
          ref.linear.log_loss,
          ref.xgboost?.log_loss ?? Infinity,
        );
        const logLoss = ours.multiclass!.logLoss;
        gains.push(best - logLoss);
        console.log(
          `${kind} seed ${seed}: ours ${logLoss.toFixed(4)} | HGB ${
            ref.hgb.log_loss.toFixed(4)
          } LR ${ref.linear.log_loss.toFixed(4)} XGB ${
            ref.xgboost?.log_loss.toFixed(4) ?? "-"
          } | best - ours ${(best - logLoss).toFixed(4)} | linear bins ${
            ours.model.metrics.linearBins ?? "-"
          }, fit ${ours.fitSeconds.toFixed(1)} s`,
        );
      }
    }
    console.log(
      `mean (best peer - ours) over ${gains.length} tables: ${
        (gains.reduce((a, b) => a + b, 0) / gains.length).toFixed(4)
      }`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
