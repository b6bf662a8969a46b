/**
 * Data anchors on the model (docs/contract.md#data-anchors): contributions
 * measured against an anchor still add up, with the bias, to exactly the
 * score served; a full anchor row subtracts its own contributions; a
 * population anchor subtracts their mean; a feature the anchor leaves out is
 * measured against the training population.
 */
import { assert, assertAlmostEquals, assertThrows } from "@std/assert";
import { train } from "../src/local/model/ebm.ts";
import type { RawColumns } from "../src/local/model/encoding.ts";
import { ModelInputError } from "../src/local/model/errors.ts";
import { anchorOffsets, explain } from "../src/local/model/explain.ts";
import { globalExplanation } from "../src/local/model/shapes.ts";
import type { EbmModel } from "../src/local/model/types.ts";
import {
  CHURN,
  CONCRETE,
  type DatasetSpec,
  loadEncoded,
  PENGUINS,
} from "./_helpers/datasets.ts";

// Bins and pairs given, so no inner search compares them (anchors do not
// depend on it); given pairs make the pair check below run on every table.
async function load(spec: DatasetSpec) {
  const { features, data } = await loadEncoded(spec);
  return {
    features,
    model: train(data, {
      estimators: 2,
      max_rounds: 150,
      bins: 64,
      max_interactions: 3,
    }),
  };
}

/** Rows `from` to `to` of every column. */
function rows(features: RawColumns, from: number, to: number): RawColumns {
  const out: RawColumns = {};
  for (const [k, v] of Object.entries(features)) out[k] = v.slice(from, to);
  return out;
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** Every class's (or the value's) explanation adds up to the same score with and without the anchor. */
function checkAddsUp(model: EbmModel, query: RawColumns, anchor: RawColumns) {
  const offsets = anchorOffsets(model, anchor);
  const classes = model.task === "regression" ? [undefined] : model.classes;
  for (const cls of classes) {
    const plain = explain(model, query, cls);
    const anchored = explain(model, query, cls, offsets);
    plain.bias.forEach((b, i) => {
      const served = b + sum(plain.contributions[i]);
      const a = anchored.bias[i] + sum(anchored.contributions[i]);
      assertAlmostEquals(a, served, 1e-9);
      if (plain.values) assertAlmostEquals(a, plain.values[i], 1e-9);
    });
  }
  return offsets;
}

/** Each table's model, trained once for the file. */
const trained = new Map<DatasetSpec, Awaited<ReturnType<typeof load>>>();

for (const spec of [CHURN, PENGUINS, CONCRETE]) {
  const loaded = await load(spec);
  trained.set(spec, loaded);
  const { model, features } = loaded;
  const query = rows(features, 0, 60);

  Deno.test(`anchor (${spec.file}): a full anchor row subtracts its own contributions, exactly adding up`, () => {
    const anchorRow = rows(features, 7, 8);
    checkAddsUp(model, query, anchorRow);
    const classes = model.task === "regression" ? [undefined] : model.classes;
    for (const cls of classes) {
      const plain = explain(model, query, cls);
      const self = explain(model, anchorRow, cls);
      const anchored = explain(
        model,
        query,
        cls,
        anchorOffsets(model, anchorRow),
      );
      anchored.contributions.forEach((c, i) =>
        c.forEach((v, j) =>
          assertAlmostEquals(
            v,
            plain.contributions[i][j] - self.contributions[0][j],
            1e-9,
          )
        )
      );
      // The anchor row measured against itself: nothing is different.
      const own = explain(
        model,
        anchorRow,
        cls,
        anchorOffsets(model, anchorRow),
      );
      own.contributions[0].forEach((v) => assertAlmostEquals(v, 0, 1e-12));
    }
  });

  Deno.test(`anchor (${spec.file}): a population anchor subtracts the mean of its rows' contributions`, () => {
    const population = rows(features, 100, 140);
    checkAddsUp(model, query, population);
    const cls = model.task === "regression" ? undefined : model.classes[0];
    const plain = explain(model, query, cls);
    const pop = explain(model, population, cls);
    const anchored = explain(
      model,
      query,
      cls,
      anchorOffsets(model, population),
    );
    for (let j = 0; j < plain.terms.length; j++) {
      const mean = sum(pop.contributions.map((c) => c[j])) / 40;
      assertAlmostEquals(
        anchored.contributions[3][j],
        plain.contributions[3][j] - mean,
        1e-9,
      );
    }
  });

  Deno.test(`anchor (${spec.file}): a partial anchor adds up; left-out main terms are measured against the training mean`, () => {
    const first = Object.keys(features).find((f) =>
      model.encoder.features.some((e) => e.name === f)
    )!;
    const partial = { [first]: [features[first][5]] };
    const offsets = checkAddsUp(model, query, partial);
    const g = globalExplanation(model);
    model.terms.forEach((t, j) => {
      const names = t.features.map((f) => model.features[f].name);
      if (names.includes(first)) return;
      // Left out: the count-weighted mean of its shape over the training rows.
      const shape = g.terms.find((x) => x.name === t.name)!;
      let total = 0, acc = 0;
      t.counts.forEach((n, q) => {
        total += n;
        acc += n * shape.scores[q][0];
      });
      assertAlmostEquals(offsets.terms[j][0], acc / total, 1e-9);
    });
    // A pair with the anchored feature: its reference lies within the range
    // of the term's scores along that feature's bin.
    const pair = model.terms.findIndex((t) =>
      t.features.length === 2 &&
      t.features.some((f) => model.features[f].name === first)
    );
    if (pair >= 0) {
      const scores = Array.from(model.terms[pair].scores);
      const v = offsets.terms[pair][0];
      assert(
        v >= Math.min(...scores) - 1e-12 && v <= Math.max(...scores) + 1e-12,
      );
    }
  });

  Deno.test(`anchor (${spec.file}): a thinned query adds up too`, () => {
    const thinned: RawColumns = {};
    for (const [k, v] of Object.entries(features)) {
      thinned[k] = v.filter((_, i) => i % 17 === 0);
    }
    checkAddsUp(model, thinned, rows(features, 3, 5));
  });
}

Deno.test("anchor: an unknown feature or uneven columns is a ModelInputError naming the column", () => {
  const { model, features } = trained.get(PENGUINS)!;
  const e = assertThrows(
    () => anchorOffsets(model, { nope: [1] }),
    ModelInputError,
  );
  assert(e.column === "nope");
  const name = model.encoder.features[0].name;
  const other = model.encoder.features[1].name;
  const e2 = assertThrows(
    () => anchorOffsets(model, { [name]: [features[name][0]], [other]: [] }),
    ModelInputError,
  );
  assert(e2.column === other);
});
