/**
 * The accuracy cost of model constraints on public tables
 * (docs/contract.md#model-constraints-and-protected-fields):
 * `deno run -A scripts/with_import_map.ts run -A bench/model_constraints.ts`.
 *
 * Each table is split by a seeded shuffle, 80% onboarded and trained on,
 * 20% held out; the same training runs without constraints, with
 * monotone features only, and with monotone features plus the excluded
 * features and interaction groups. Reported: the validation figure the
 * model record carries (ROC AUC or R²) and the held-out one.
 *
 * @module
 */
import {
  CHURN,
  CONCRETE,
  type DatasetSpec,
  loadDataset,
} from "../tests/_helpers/datasets.ts";
import { encodeDataset, type RawColumns } from "../src/local/model/encoding.ts";
import { constrainDataset } from "../src/local/model/constraints.ts";
import { predict } from "../src/local/model/explain.ts";
import { createRng } from "../src/local/model/rng.ts";
import { train } from "../src/local/model/train.ts";
import type { ModelConstraints } from "../src/local/model/types.ts";

interface Case {
  spec: DatasetSpec;
  monotone: ModelConstraints["monotone"];
  excluded: string[];
  groups: string[][] | null;
}

const CASES: Case[] = [
  {
    spec: CHURN,
    monotone: { tenure: "decreasing", monthly_charges: "increasing" },
    excluded: ["total_charges"],
    groups: [["tenure", "contract", "monthly_charges", "internet_service"]],
  },
  {
    spec: CONCRETE,
    monotone: { cement: "increasing", age: "increasing", water: "decreasing" },
    excluded: [],
    groups: [["cement", "age", "water", "superplasticizer"]],
  },
];

function auc(score: number[], pos: boolean[]): number {
  const idx = score.map((_, i) => i).sort((a, b) => score[a] - score[b]);
  let rankSum = 0, nPos = 0;
  for (let i = 0; i < idx.length;) {
    let j = i;
    while (j < idx.length && score[idx[j]] === score[idx[i]]) j++;
    for (let t = i; t < j; t++) {
      if (pos[idx[t]]) (rankSum += (i + 1 + j) / 2), nPos++;
    }
    i = j;
  }
  const nNeg = idx.length - nPos;
  return (rankSum - (nPos * (nPos + 1)) / 2) / (nPos * nNeg);
}

async function run(c: Case) {
  const d = await loadDataset(c.spec);
  const n = d.columns[c.spec.target].length;
  const rng = createRng(11);
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  const cut = Math.round(n * 0.8);
  const pick = (rows: number[]): RawColumns =>
    Object.fromEntries(
      Object.entries(d.columns).map(([k, v]) => [k, rows.map((r) => v[r])]),
    );
  const trainCols = pick(order.slice(0, cut)),
    testCols = pick(order.slice(cut));
  const data = encodeDataset(trainCols, d.fields, {
    targets: [c.spec.target],
    prediction_type: c.spec.predictionType,
  });
  const regression = c.spec.predictionType === "REGRESSION";
  const y = testCols[c.spec.target];
  const variants: [string, ModelConstraints | null][] = [
    ["none", null],
    ["monotone", {
      monotone: c.monotone,
      excluded: [],
      protected: [],
      groups: null,
    }],
    ["monotone+excluded+groups", {
      monotone: c.monotone,
      excluded: c.excluded,
      protected: [],
      groups: c.groups,
    }],
  ];
  for (const [name, constraints] of variants) {
    const started = performance.now();
    const model = train(
      constraints ? constrainDataset(data, constraints) : data,
      { seed: 3 },
    );
    const seconds = (performance.now() - started) / 1000;
    const features = Object.fromEntries(
      model.encoder.features.map((f) => [f.name, testCols[f.name]]),
    );
    const p = predict(model, features);
    let test: number;
    if (regression) {
      const v = p.values!, t = y as number[];
      const mean = t.reduce((a, b) => a + b, 0) / t.length;
      const sse = t.reduce((a, x, i) => a + (x - v[i]) ** 2, 0);
      const sst = t.reduce((a, x) => a + (x - mean) ** 2, 0);
      test = 1 - sse / sst;
    } else {
      test = auc(
        p.probabilities.map((q) => q[1]),
        y.map((v) => String(v) === model.classes[1]),
      );
    }
    const validation = regression
      ? model.metrics.validationR2!
      : model.metrics.validationAuc!;
    console.log(
      `${c.spec.file}\t${name}\t${regression ? "R²" : "ROC AUC"}\tvalidation ${
        validation.toFixed(4)
      }\theld-out ${test.toFixed(4)}\tterms ${model.terms.length}\t${
        seconds.toFixed(1)
      } s`,
    );
  }
}

if (import.meta.main) {
  for (const c of CASES) await run(c);
}
