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
 * The trainer is a {@link Trainer} function, so an HTTP-API-driven variant (the
 * platform's ingest/onboard/train/deploy/views) can be swapped in.
 *
 * Run: `deno run -A bench/model_vs_sklearn.ts` (PYTHON=/usr/bin/python3 by default).
 * Exit code 1 when the quality or speed bar is missed.
 *
 * @module
 */

import { parseCsv } from "../src/csv.ts";
import { columnsFromCsv } from "../src/local/model/datasource.ts";
import { train } from "../src/local/model/ebm.ts";
import {
  encodeDataset,
  type RawColumns,
  type SchemaField,
} from "../src/local/model/encoding.ts";
import { predict } from "../src/local/model/explain.ts";

/** What a trainer returns: its fit time and a way to get class probabilities for new rows. */
export interface Trained {
  fitSeconds: number;
  classes: string[];
  /** Class probabilities per row, in `classes` order. */
  predictProba(features: RawColumns): Promise<number[][]>;
}

/** Trains on the given rows; swap this for an HTTP-API-driven variant. */
export type Trainer = (
  fields: SchemaField[],
  trainColumns: RawColumns,
  target: string,
) => Promise<Trained>;

/** The in-process trainer: encode + train with default parameters, best of `repeats` fit times. */
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

const DATASETS = {
  wa_churn: {
    file: "wa_churn.csv",
    target: "churn",
    numeric: ["tenure", "monthly_charges", "total_charges"],
  },
  penguins: {
    file: "penguins.csv",
    target: "species",
    numeric: [
      "bill_length_mm",
      "bill_depth_mm",
      "flipper_length_mm",
      "body_mass_g",
    ],
  },
} as const;

function schemaOf(
  header: string[],
  target: string,
  numeric: readonly string[],
): SchemaField[] {
  return header.map((name) => {
    const isNum = numeric.includes(name);
    return {
      name,
      data_type: {
        data_type: isNum ? "NUMBER" : "STRING",
        format: isNum ? "INT64" : null,
      },
      designation: name === target ? "TARGET" : "FEATURE",
      semantic_type: isNum ? "CONTINUOUS" : "CATEGORICAL",
    };
  });
}

function take(cols: RawColumns, rows: number[], skip?: string): RawColumns {
  const out: Record<string, RawColumns[string]> = {};
  for (const [k, v] of Object.entries(cols)) {
    if (k !== skip) {
      out[k] = rows.map((r) => v[r]);
    }
  }
  return out;
}

/** ROC AUC of a positive-class score (ties count one half). */
export function rocAuc(score: number[], positive: boolean[]): number {
  const idx = score.map((_, i) => i).sort((a, b) => score[a] - score[b]);
  let rankSum = 0, nPos = 0;
  for (let i = 0; i < idx.length;) {
    let j = i;
    while (j + 1 < idx.length && score[idx[j + 1]] === score[idx[i]]) j++;
    for (let q = i; q <= j; q++) {
      if (positive[idx[q]]) (rankSum += (i + j) / 2 + 1), nPos++;
    }
    i = j + 1;
  }
  const nNeg = idx.length - nPos;
  return (rankSum - (nPos * (nPos + 1)) / 2) / (nPos * nNeg);
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

/** Runs the whole comparison and prints one report; returns whether the bars are met. */
export async function main(
  trainer: Trainer = localTrainer(),
): Promise<boolean> {
  const datasetsDir =
    new URL("../../shared/datasets", import.meta.url).pathname;
  const splitDir = await Deno.makeTempDir({ prefix: "model_bench_" });
  try {
    const ref = await runPython(datasetsDir, splitDir);
    let ok = true;
    for (const [name, d] of Object.entries(DATASETS)) {
      const table = parseCsv(
        await Deno.readTextFile(`${datasetsDir}/${d.file}`),
      );
      const fields = schemaOf(table.header, d.target, d.numeric);
      const cols = columnsFromCsv(table, fields);
      const split = JSON.parse(
        await Deno.readTextFile(`${splitDir}/${name}.split.json`),
      );
      const trained = await trainer(fields, take(cols, split.train), d.target);
      const proba = await trained.predictProba(
        take(cols, split.test, d.target),
      );
      const truth = split.test.map((r: number) => String(cols[d.target][r]));
      const predicted = proba.map((p) =>
        trained.classes[p.indexOf(Math.max(...p))]
      );
      const accuracy = predicted.filter((c, i) => c === truth[i]).length /
        truth.length;
      const aucs = trained.classes.map((c, k) =>
        rocAuc(proba.map((p) => p[k]), truth.map((t: string) => t === c))
      );
      const auc = trained.classes.length === 2
        ? aucs[1]
        : aucs.reduce((a, b) => a + b, 0) / aucs.length;
      const { hgb, logreg } = ref[name];
      const bestRef = Math.max(hgb.auc, logreg.auc);
      console.log(
        `\n${name} (${split.train.length} train / ${split.test.length} test rows, same split as sklearn)`,
      );
      const row = (label: string, a: number, acc: number, fit: number) =>
        console.log(
          `  ${label.padEnd(10)} ROC AUC ${a.toFixed(4)}  accuracy ${
            acc.toFixed(4)
          }  fit ${fit.toFixed(3)} s`,
        );
      row("ours", auc, accuracy, trained.fitSeconds);
      row("sk HGB", hgb.auc, hgb.accuracy, hgb.fit_seconds);
      row("sk logreg", logreg.auc, logreg.accuracy, logreg.fit_seconds);
      const timeRatio = trained.fitSeconds / hgb.fit_seconds;
      console.log(
        `  AUC - best sklearn: ${(auc - bestRef).toFixed(4)}; fit time / HGB: ${
          timeRatio.toFixed(2)
        }x; / logreg: ${
          (trained.fitSeconds / logreg.fit_seconds).toFixed(1)
        }x; accuracy - best sklearn: ${
          (accuracy - Math.max(hgb.accuracy, logreg.accuracy)).toFixed(4)
        }`,
      );
      if (name === "wa_churn") {
        const pass = auc >= bestRef - 0.005 && timeRatio <= 2;
        console.log(
          `  bar (AUC within 0.005 of the best, time <= 2x HGB): ${
            pass ? "MET" : "MISSED"
          }`,
        );
        ok &&= pass;
      }
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
