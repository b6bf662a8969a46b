/**
 * Side-by-side benchmark of the local explainable boosted model against
 * scikit-learn's HistGradientBoostingClassifier and LogisticRegression.
 *
 * Python (bench/model_sklearn_ref.py) makes the stratified 80/20 split with
 * `train_test_split(..., test_size=0.2, stratify=y, random_state=0)`, writes
 * the row indices to a temp folder, fits and scores its models; this script
 * reads the same indices, trains OUR model with its DEFAULT hyperparameters on
 * the 80% (its own validation split for early stopping comes out of that 80%,
 * the test rows are never seen), and scores the same 20%.
 *
 * The trainer is a {@link Trainer} function, so an API-driven variant (the
 * platform's ingest/onboard/train/deploy/views: bench/api_trainer.ts) runs
 * beside the direct one; bench/api_benchmark.ts does both in one table.
 *
 * Run: `deno run -A bench/model_vs_sklearn.ts` (direct model only;
 * PYTHON=/usr/bin/python3 by default).
 * Exit code 1 when the quality or speed bar is missed.
 *
 * @module
 */

import { auc, train } from "../src/local/model/ebm.ts";
import {
  encodeDataset,
  type RawColumns,
  type SchemaField,
} from "../src/local/model/encoding.ts";
import { predict } from "../src/local/model/explain.ts";
import {
  CHURN,
  DATASETS_DIR,
  loadDataset,
  PENGUINS,
} from "../tests/_helpers/datasets.ts";

/** What a trainer returns: its fit time and a way to get class probabilities for new rows. */
export interface Trained {
  fitSeconds: number;
  classes: string[];
  /** Class probabilities per row, in `classes` order. */
  predictProba(features: RawColumns): Promise<number[][]>;
  /** Extra lines for the report (e.g. the API trainer's step timings), read after scoring. */
  notes?(): string[];
  /** Frees what the trainer holds (a platform, a temp folder); called after scoring. */
  close?(): Promise<void>;
}

/** Trains on the given rows; swap this for an HTTP-API-driven variant. */
export type Trainer = (
  fields: SchemaField[],
  trainColumns: RawColumns,
  target: string,
) => Promise<Trained>;

/**
 * The in-process trainer: encode + train with default parameters, best of `repeats` fit times.
 *
 * @example
 * ```ts
 * import { localTrainer } from "./model_vs_sklearn.ts";
 * const fields = [
 *   { name: "y", data_type: { data_type: "STRING", format: null }, designation: "TARGET", semantic_type: "CATEGORICAL" },
 *   { name: "x", data_type: { data_type: "NUMBER", format: "INT64" }, designation: "FEATURE", semantic_type: "CONTINUOUS" },
 * ];
 * const x = Array.from({ length: 60 }, (_, i) => i);
 * const trained = await localTrainer(1)(fields, { y: x.map((v) => (v < 30 ? "a" : "b")), x }, "y");
 * const [low] = await trained.predictProba({ x: [2] });
 * if (!(low[trained.classes.indexOf("a")] > 0.5)) throw new Error();
 * ```
 */
export function localTrainer(repeats = 3): Trainer {
  return (fields, cols, target) => {
    let best = Infinity;
    let model = null;
    for (let r = 0; r < repeats; r++) {
      const t0 = performance.now();
      const data = encodeDataset(cols, fields, { targets: [target] });
      model = train(data);
      best = Math.min(best, (performance.now() - t0) / 1000);
    }
    const m = model!;
    return Promise.resolve({
      fitSeconds: best,
      classes: m.classes,
      predictProba: (features) =>
        Promise.resolve(predict(m, features).probabilities),
    });
  };
}

const DATASETS = { wa_churn: CHURN, penguins: PENGUINS };

function take(cols: RawColumns, rows: number[], skip?: string): RawColumns {
  const out: Record<string, RawColumns[string]> = {};
  for (const [k, v] of Object.entries(cols)) {
    if (k !== skip) {
      out[k] = rows.map((r) => v[r]);
    }
  }
  return out;
}

async function runPython(datasetsDir: string, splitDir: string) {
  const python = Deno.env.get("PYTHON") ?? "/usr/bin/python3";
  const script = new URL("./model_sklearn_ref.py", import.meta.url).pathname;
  const out = await new Deno.Command(python, {
    args: [script, datasetsDir, splitDir],
  }).output();
  if (!out.success) {
    throw new Error(
      `${python} ${script} failed (install python3-sklearn and python3-pandas, or set PYTHON):\n${
        new TextDecoder().decode(out.stderr)
      }`,
    );
  }
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

/** One row of the report: a model's held-out scores and fit time. */
interface ReportRow {
  label: string;
  auc: number;
  accuracy: number;
  fitSeconds: number;
  /** Only our models are held to the bar. */
  ours: boolean;
}

function printTable(rows: ReportRow[], hgbFit: number, bar?: number): void {
  console.log(
    `  ${"model".padEnd(30)} ${"ROC AUC".padStart(7)} ${
      "accuracy".padStart(8)
    } ${"fit s".padStart(7)} ${"fit/HGB".padStart(7)}${
      bar === undefined ? "" : "  bar"
    }`,
  );
  for (const r of rows) {
    const ratio = r.fitSeconds / hgbFit;
    const met = bar !== undefined && r.ours
      ? `  ${r.auc >= bar && ratio <= 2 ? "MET" : "MISSED"}`
      : "";
    console.log(
      `  ${r.label.padEnd(30)} ${r.auc.toFixed(4).padStart(7)} ${
        r.accuracy.toFixed(4).padStart(8)
      } ${r.fitSeconds.toFixed(3).padStart(7)} ${
        (ratio.toFixed(2) + "x").padStart(7)
      }${met}`,
    );
  }
}

/**
 * Runs the whole comparison and prints one table per dataset: every trainer
 * given (keyed by its label) beside scikit-learn's two models. Returns
 * whether every trainer meets the wa_churn bar (ROC AUC within 0.005 of the
 * better scikit-learn model, fit time at most 2x HistGradientBoosting).
 */
export async function main(
  trainers: Record<string, Trainer> = { "ours, direct": localTrainer() },
): Promise<boolean> {
  const splitDir = await Deno.makeTempDir({ prefix: "model_bench_" });
  try {
    const ref = await runPython(DATASETS_DIR, splitDir);
    let ok = true;
    for (const [name, d] of Object.entries(DATASETS)) {
      const { fields, columns: cols } = await loadDataset(d);
      const split = JSON.parse(
        await Deno.readTextFile(`${splitDir}/${name}.split.json`),
      );
      const truth = split.test.map((r: number) => String(cols[d.target][r]));
      const rows: ReportRow[] = [];
      const notes: string[] = [];
      for (const [label, trainer] of Object.entries(trainers)) {
        const trained = await trainer(
          fields,
          take(cols, split.train),
          d.target,
        );
        try {
          const proba = await trained.predictProba(
            take(cols, split.test, d.target),
          );
          const predicted = proba.map((p) =>
            trained.classes[p.indexOf(Math.max(...p))]
          );
          // Binary: the AUC of the second (positive) class; multiclass:
          // one-vs-rest macro average, as sklearn's multi_class="ovr".
          const K = trained.classes.length === 2 ? 1 : trained.classes.length;
          rows.push({
            label,
            auc: auc(
              Float64Array.from(
                K === 1 ? proba.map((p) => p[1]) : proba.flat(),
              ),
              Int32Array.from(truth, (t: string) => trained.classes.indexOf(t)),
              K,
            ),
            accuracy: predicted.filter((c, i) => c === truth[i]).length /
              truth.length,
            fitSeconds: trained.fitSeconds,
            ours: true,
          });
          notes.push(...(trained.notes?.() ?? []).map((n) => `${label}: ${n}`));
        } finally {
          await trained.close?.();
        }
      }
      const { hgb, logreg } = ref[name];
      for (
        const [label, m] of [
          ["sklearn HistGradientBoosting", hgb],
          ["sklearn LogisticRegression", logreg],
        ] as const
      ) {
        rows.push({
          label,
          auc: m.auc,
          accuracy: m.accuracy,
          fitSeconds: m.fit_seconds,
          ours: false,
        });
      }
      const bestRef = Math.max(hgb.auc, logreg.auc);
      const bar = name === "wa_churn" ? bestRef - 0.005 : undefined;
      console.log(
        `\n${name} (${split.train.length} train / ${split.test.length} test rows, same stratified split as sklearn, seed 0; fit = best of 3)`,
      );
      printTable(rows, hgb.fit_seconds, bar);
      if (bar !== undefined) {
        const pass = rows.filter((r) => r.ours).every((r) =>
          r.auc >= bar && r.fitSeconds / hgb.fit_seconds <= 2
        );
        console.log(
          `  bar: ROC AUC >= ${bar.toFixed(4)} (best sklearn ${
            bestRef.toFixed(4)
          } - 0.005) and fit <= 2x HGB (${
            (2 * hgb.fit_seconds).toFixed(3)
          } s): ${pass ? "MET" : "MISSED"}`,
        );
        ok &&= pass;
      }
      for (const n of notes) console.log(`  ${n}`);
    }
    return ok;
  } finally {
    await Deno.remove(splitDir, { recursive: true });
  }
}

if (import.meta.main) {
  const ok = await main();
  if (!ok) Deno.exit(1);
}
