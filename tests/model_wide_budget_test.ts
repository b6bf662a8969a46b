/**
 * A wide table beyond the search's cells (issue 22, items 5-6): a table the
 * inner-validation search skips only because its rows times features exceed
 * `SELECTION_CELLS` (grants: 5,600 training rows x 1,467 features), with at
 * most `WIDE_CELLS_RATIO` training rows a feature, still
 * compares cyclic and greedy rounds, two fits judged on the bags' held-out
 * rows, and keeps the better: greedy rounds where a few of many sparse 0/1
 * columns carry the signal, cyclic ones where hundreds of weak columns do
 * (a fixed choice of either loses on one of the two; figures in
 * BENCHMARKS.md, "A wide table beyond the search's cells").
 */
import { assert, assertAlmostEquals, assertEquals } from "@std/assert";
import {
  encodeDataset,
  type SchemaField,
} from "../src/local/model/encoding.ts";
import { predict } from "../src/local/model/explain.ts";
import { auc } from "../src/local/model/metrics.ts";
import { resolveParams } from "../src/local/model/params.ts";
import { createRng } from "../src/local/model/rng.ts";
import {
  GREEDY_TERMS,
  SELECTION_CELLS,
  SELECTION_ROWS,
  selectionAxes,
  WIDE_CELLS_RATIO,
} from "../src/local/model/axes.ts";
import { train } from "../src/local/model/train.ts";
import type { EbmModel } from "../src/local/model/types.ts";
import { fieldsOf } from "./_helpers/datasets.ts";

/** 0/1 columns and numeric ones of a generated table. */
const B = 1_000, Z = 3;
/** Rows: 85% train, 2,125 x 1,003 features, beyond SELECTION_CELLS. */
const N = 2_500;

/**
 * `n` rows of `B` sparse 0/1 columns (the first `signal` with densities
 * 0.1-0.5, the others 0.5-30%) and `Z` normal columns, and a binary target:
 * `few`, log-odds from three 0/1 columns, one numeric and a pair of 0/1
 * columns; `dense`, log-odds a small step from each of 300 0/1 columns.
 */
function table(n: number, seed: number, kind: "few" | "dense") {
  const rng = createRng(seed);
  const signal = kind === "few" ? 5 : 300;
  const density = Array.from(
    { length: B },
    (_, j) => j < signal ? 0.1 + 0.4 * rng() : 0.005 * 60 ** rng(),
  );
  const columns: Record<string, (number | string)[]> = {};
  for (let j = 0; j < B; j++) {
    columns[`b${j}`] = Array.from(
      { length: n },
      () => rng() < density[j] ? 1 : 0,
    );
  }
  for (let k = 0; k < Z; k++) {
    columns[`z${k}`] = Array.from({ length: n }, () => rng() * 2 - 1);
  }
  const b = (j: number, i: number) => columns[`b${j}`][i] as number;
  columns.y = Array.from({ length: n }, (_, i) => {
    let logit = (columns.z0[i] as number) - 0.5;
    if (kind === "few") {
      logit += 1.2 * (b(0, i) + b(1, i) - b(2, i)) + 2 * b(3, i) * b(4, i);
    } else {
      for (let j = 0; j < signal; j++) {
        logit += (j % 2 ? -0.22 : 0.22) * b(j, i);
      }
    }
    return rng() < 1 / (1 + Math.exp(-logit)) ? "yes" : "no";
  });
  return columns;
}

const fields: SchemaField[] = fieldsOf(
  [
    ...Array.from({ length: B }, (_, j) => `b${j}`),
    ...Array.from({ length: Z }, (_, k) => `z${k}`),
    "y",
  ],
  { file: "", target: "y", strings: ["y"] },
);

/** Held-out ROC AUC of `model` on `test` ("yes" the positive class). */
function testAuc(model: EbmModel, test: Record<string, (number | string)[]>) {
  const yes = model.classes!.indexOf("yes");
  return auc(
    Float64Array.from(predict(model, test).probabilities, (q) => q[yes]),
    Int32Array.from(test.y, (t) => t === "yes" ? 1 : 0),
    1,
  );
}

Deno.test("wide budget: a table beyond the search's cells, within its rows, compares cyclic and greedy rounds only", () => {
  const p = resolveParams({}).params;
  // grants: 5,569 training rows x 1,467 features.
  const grants = selectionAxes(p, {}, 5_569, 1_467, "binary");
  assert(5_569 * 1_467 > SELECTION_CELLS && 5_569 <= SELECTION_ROWS);
  assert(5_569 <= 1_467 * WIDE_CELLS_RATIO && 12_750 > 205 * WIDE_CELLS_RATIO);
  assertEquals(grants[0], { name: "greedy", values: [0, GREEDY_TERMS] });
  // Every other axis keeps the one value a table beyond the search gets.
  assert(grants.slice(1).every((a) => a.values.length === 1));
  // Beyond the search's rows, without validation rows, or with the search
  // turned off (Infinity rows), one fit as before: no greedy axis.
  for (
    const axes of [
      selectionAxes(p, {}, 30_000, 200, "binary"),
      // Beyond the cells with more than WIDE_CELLS_RATIO rows a feature.
      selectionAxes(p, {}, 12_750, 205, "binary"),
      selectionAxes(
        resolveParams({ validation_size: 0 }).params,
        {},
        5_569,
        1_467,
        "binary",
      ),
      selectionAxes(p, {}, Infinity, 1_467, "binary"),
    ]
  ) {
    assert(!axes.some((a) => a.name === "greedy"), JSON.stringify(axes));
  }
});

const fewTable = table(N, 21, "few");
const fewData = encodeDataset(fewTable, fields);
const fewTest = table(4_000, 22, "few");

Deno.test("wide budget: where a few sparse columns carry the signal, greedy rounds are kept and beat the one cyclic fit on held-out rows", () => {
  assert(Math.round(0.85 * N) * (B + Z) > SELECTION_CELLS);
  const model = train(fewData);
  assertEquals(model.metrics.candidates, 2);
  assertEquals(model.metrics.greedyTerms, GREEDY_TERMS);
  // The one fit a table beyond the search got before: cyclic rounds.
  const cyclic = train(fewData, {}, { search: false });
  assertEquals(cyclic.metrics.greedyTerms, undefined);
  const [g, c] = [testAuc(model, fewTest), testAuc(cyclic, fewTest)];
  assert(g > c, `greedy ${g} vs cyclic ${c}`);
  // What it reports on its validation rows is what it serves there.
  const rows = model.validation!.rows!;
  const query = Object.fromEntries(
    Object.entries(fewTable).map(([k, v]) => [k, rows.map((r) => v[r])]),
  );
  const yes = model.classes!.indexOf("yes");
  const q = predict(model, query).probabilities.map((x) => x[yes]);
  const loss = -rows.reduce(
    (a, r, i) => a + Math.log(fewTable.y[r] === "yes" ? q[i] : 1 - q[i]),
    0,
  ) / rows.length;
  assertAlmostEquals(model.metrics.validationLogLoss!, loss, 1e-9);
});

Deno.test("wide budget: where hundreds of weak columns carry the signal, cyclic rounds are kept", () => {
  const model = train(encodeDataset(table(N, 31, "dense"), fields));
  assertEquals(model.metrics.candidates, 2);
  assertEquals(model.metrics.greedyTerms, undefined);
});
