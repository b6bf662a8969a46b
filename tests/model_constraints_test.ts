/**
 * Model constraints in the trainer (docs/contract.md#model-constraints-and-protected-fields):
 * monotone features follow their direction exactly in their shape function
 * and in every pair containing them (checked on the tables and on a dense
 * grid of predictions), excluded and protected features have no term,
 * pairs form only inside the allowed groups, and the per-group metrics are
 * those of a hand computation.
 */
import { assert, assertEquals, assertThrows } from "@std/assert";
import fc from "fast-check";
import {
  constrainDataset,
  isotonic,
  respectsMonotone,
} from "../src/local/model/constraints.ts";
import { encodeDataset } from "../src/local/model/encoding.ts";
import { ModelParamError } from "../src/local/model/errors.ts";
import { explain } from "../src/local/model/explain.ts";
import { groupCuts, groupMetrics } from "../src/local/model/fairness.ts";
import { createRng } from "../src/local/model/rng.ts";
import { train } from "../src/local/model/train.ts";
import type { EbmModel, ModelConstraints } from "../src/local/model/types.ts";

const NUM = (name: string) => ({
  name,
  data_type: { data_type: "NUMBER" as const },
  designation: "FEATURE" as const,
  semantic_type: "CONTINUOUS" as const,
});
const CAT = (name: string) => ({
  name,
  data_type: { data_type: "STRING" as const },
  designation: "FEATURE" as const,
  semantic_type: "CATEGORICAL" as const,
});

/**
 * A table where the truth is not monotone in `x` (a bump) and `x` interacts
 * with `z` and `w`, so that the constraints bite; `g` is a protected-like
 * column that leaks the label.
 */
function table(n: number, kind: "binary" | "regression", seed = 5) {
  const rng = createRng(seed);
  const x: number[] = [], z: number[] = [], w: number[] = [], u: number[] = [];
  const c: string[] = [], g: string[] = [], y: (string | number)[] = [];
  for (let i = 0; i < n; i++) {
    const xi = rng() * 10, zi = rng() * 4, wi = rng() * 6, ui = rng();
    const ci = ["a", "b", "c"][Math.floor(rng() * 3)];
    const f = Math.sin(xi) * 1.5 + (xi - 5) * (zi - 2) * 0.4 +
      (wi - 3) * (zi - 2) * 0.3 + (ci === "b" ? 1 : 0) + (ui - 0.5);
    x.push(xi);
    z.push(zi);
    w.push(wi);
    u.push(ui);
    c.push(ci);
    const noisy = f + (rng() - 0.5) * 1.5;
    g.push(noisy > 0 ? (rng() < 0.8 ? "p" : "q") : (rng() < 0.8 ? "q" : "p"));
    y.push(kind === "regression" ? noisy : noisy > 0 ? "yes" : "no");
  }
  const columns = { x, z, w, u, c, g, y };
  const data = encodeDataset(columns, [
    NUM("x"),
    NUM("z"),
    NUM("w"),
    NUM("u"),
    CAT("c"),
    CAT("g"),
    {
      name: "y",
      data_type: { data_type: kind === "regression" ? "NUMBER" : "STRING" },
      designation: "TARGET",
      semantic_type: kind === "regression" ? "CONTINUOUS" : "CATEGORICAL",
    },
  ], kind === "regression" ? { prediction_type: "REGRESSION" } : {});
  return { columns, data };
}

/** The model's score (logit or value) of each row, through `explain`. */
function scores(model: EbmModel, query: Record<string, unknown[]>): number[] {
  const e = explain(
    model,
    query,
    model.task === "regression" ? undefined : model.classes[1],
  );
  return e.bias.map((b, i) =>
    e.contributions[i].reduce((s, v) => s + v, b as number)
  );
}

/**
 * A dense grid: for several rows of the table, `feature` swept over 400
 * values (beyond its range at both ends); the score must move one way.
 */
function assertMonotoneOnGrid(
  model: EbmModel,
  columns: Record<string, (string | number)[]>,
  feature: string,
  dir: 1 | -1,
) {
  const grid = Array.from({ length: 400 }, (_, i) => -1 + (i * 12) / 399);
  for (const r of [0, 7, 19, 42, 77]) {
    const query: Record<string, unknown[]> = {};
    for (const f of model.encoder.features) {
      query[f.name] = f.name === feature
        ? grid
        : grid.map(() => columns[f.name][r]);
    }
    const s = scores(model, query);
    for (let i = 1; i < s.length; i++) {
      assert(
        dir * (s[i] - s[i - 1]) >= 0,
        `${feature} at ${grid[i]} (row ${r}): ${s[i - 1]} then ${s[i]}`,
      );
    }
  }
}

/**
 * Two bags, the fewest that are averaged (an average of monotone shapes must
 * stay monotone): the constraints are the subject, not the accuracy.
 */
const PAIRS = { max_interactions: 6, seed: 3, max_rounds: 400, estimators: 2 };

Deno.test("isotonic: monotone, keeps the weighted mean, and is the least-squares fit", () => {
  fc.assert(
    fc.property(
      fc.array(fc.double({ min: -5, max: 5, noNaN: true }), {
        minLength: 2,
        maxLength: 12,
      }),
      fc.constantFrom(1 as const, -1 as const),
      fc.integer({ min: 1, max: 1000 }),
      (values, dir, seed) => {
        const rng = createRng(seed);
        const w = values.map(() => 0.1 + rng());
        const v = [...values];
        isotonic(v, w, 0, v.length, dir, (i) => i);
        for (let i = 1; i < v.length; i++) {
          assert(dir * (v[i] - v[i - 1]) >= 0);
        }
        const mean = (a: number[]) =>
          a.reduce((s, x, i) => s + w[i] * x, 0) /
          w.reduce((s, x) => s + x, 0);
        assert(Math.abs(mean(v) - mean(values)) < 1e-9);
        // No monotone sequence is closer: compare with nudged candidates.
        const loss = (a: number[]) =>
          a.reduce((s, x, i) => s + w[i] * (x - values[i]) ** 2, 0);
        for (let t = 0; t < 20; t++) {
          const other = v.map((x) => x + (rng() - 0.5) * 0.1);
          let ok = true;
          for (let i = 1; i < other.length; i++) {
            if (dir * (other[i] - other[i - 1]) < 0) ok = false;
          }
          if (ok) assert(loss(other) >= loss(v) - 1e-9);
        }
      },
    ),
  );
});

for (const kind of ["binary", "regression"] as const) {
  Deno.test(`monotone ${kind}: shapes and pairs follow their direction exactly, also on a dense grid`, () => {
    const { columns, data } = table(1500, kind);
    const constraints: ModelConstraints = {
      monotone: { x: "increasing", z: "decreasing", w: "increasing" },
      excluded: [],
      protected: [],
      groups: null,
    };
    const model = train(constrainDataset(data, constraints), PAIRS);
    const pairs = model.terms.filter((t) => t.features.length === 2);
    // The pairs with a monotone feature are there to be checked, one of
    // them with two monotone features (both axes projected).
    assert(pairs.length > 0, "the model has pairs");
    assert(
      pairs.some((t) => t.name.includes("x") || t.name.includes("z")),
      pairs.map((t) => t.name).join(),
    );
    assert(respectsMonotone(model), "the tables follow their directions");
    assertMonotoneOnGrid(model, columns, "x", 1);
    assertMonotoneOnGrid(model, columns, "z", -1);
    assertMonotoneOnGrid(model, columns, "w", 1);
    // Without the constraints the same table is not monotone in x.
    const free = train(data, PAIRS);
    assert(
      !respectsMonotone({ ...free, constraints }),
      "the truth bends against the constraint (the test has teeth)",
    );
  });
}

Deno.test("two monotone features in one pair: both axes exact", () => {
  const { columns, data } = table(1500, "binary", 11);
  const model = train(
    constrainDataset(data, {
      monotone: { x: "decreasing", z: "increasing" },
      excluded: [],
      protected: [],
      groups: [["x", "z"]],
    }),
    { ...PAIRS, max_interactions: 1 },
  );
  assertEquals(
    model.terms.filter((t) => t.features.length === 2).map((t) => t.name),
    ["x*z"],
  );
  assert(respectsMonotone(model));
  assertMonotoneOnGrid(model, columns, "x", -1);
  assertMonotoneOnGrid(model, columns, "z", 1);
});

Deno.test("excluded and protected features have no term; pairs stay inside their groups", () => {
  const { data } = table(1200, "binary");
  const model = train(
    constrainDataset(data, {
      monotone: {},
      excluded: ["u"],
      protected: ["g"],
      groups: [["x", "z"], ["w", "c"]],
    }),
    { ...PAIRS, max_interactions: 10 },
  );
  const names = model.features.map((f) => f.name);
  assert(!names.includes("u") && !names.includes("g"), names.join());
  for (const t of model.terms) {
    assert(!t.name.split("*").some((f) => f === "u" || f === "g"), t.name);
  }
  const pairs = model.terms.filter((t) => t.features.length === 2);
  assert(pairs.length > 0);
  for (const t of pairs) {
    assert(["x*z", "z*x", "w*c", "c*w"].includes(t.name), t.name);
  }
  assertEquals(
    model.encoder.dropped?.map((d) => d.name).sort(),
    ["g", "u"],
  );
  assertEquals(model.constraints?.protected, ["g"]);
});

Deno.test("a monotone constraint is refused on a categorical, protected or 3-class target", () => {
  const { data } = table(200, "binary");
  const none = { excluded: [], protected: [], groups: null };
  const refuse = (c: ModelConstraints, code: string) => {
    const e = assertThrows(() => constrainDataset(data, c), ModelParamError);
    assertEquals(e.code, code);
  };
  refuse({ ...none, monotone: { c: "increasing" } }, "NOT_NUMERIC");
  refuse({ ...none, monotone: { nope: "increasing" } }, "NOT_NUMERIC");
  refuse(
    { ...none, protected: ["x"], monotone: { x: "increasing" } },
    "PROTECTED",
  );
  const three = encodeDataset({
    x: [1, 2, 3, 4, 5, 6],
    y: ["a", "b", "c", "a", "b", "c"],
  }, [
    NUM("x"),
    {
      name: "y",
      data_type: { data_type: "STRING" },
      designation: "TARGET",
      semantic_type: "CATEGORICAL",
    },
  ]);
  const e = assertThrows(
    () => constrainDataset(three, { ...none, monotone: { x: "increasing" } }),
    ModelParamError,
  );
  assertEquals(e.code, "MULTICLASS");
});

Deno.test("per-group metrics equal a hand computation", () => {
  const { columns, data } = table(600, "binary");
  const model = train(data, { max_rounds: 60, seed: 1, estimators: 2 });
  const rows = Array.from({ length: 300 }, (_, i) => i * 2);
  const query: Record<string, (string | number)[]> = {};
  for (const f of model.encoder.features) {
    query[f.name] = rows.map((r) => columns[f.name as keyof typeof columns][r]);
  }
  const truth = rows.map((r) => columns.y[r] as string);
  const groups = rows.map((r) => columns.c[r]);
  const [report] = groupMetrics(model, { ...query, c: groups }, truth, ["c"]);
  const s = scores(model, query);
  assertEquals(report.groups.map((g) => g.group), ["a", "b", "c"]);
  for (const g of report.groups) {
    const idx = rows.map((_, i) => i).filter((i) => groups[i] === g.group);
    const predYes = idx.map((i) => s[i] > 0); // logit of "yes" (classes sorted: no, yes)
    const isYes = idx.map((i) => truth[i] === "yes");
    const tp = idx.filter((_, j) => predYes[j] && isYes[j]).length;
    const fp = idx.filter((_, j) => predYes[j] && !isYes[j]).length;
    const fn = idx.filter((_, j) => !predYes[j] && isYes[j]).length;
    const tn = idx.length - tp - fp - fn;
    assertEquals(g.count, idx.length);
    const near = (a: number | null, b: number) =>
      assert(a !== null && Math.abs(a - b) < 1e-12, `${g.group}: ${a} vs ${b}`);
    near(g.metrics.positive_rate, (tp + fp) / idx.length);
    near(g.metrics.accuracy, (tp + tn) / idx.length);
    near(g.metrics.fpr, fp / (fp + tn));
    near(g.metrics.fnr, fn / (fn + tp));
    // AUC by counting every (positive, negative) pair, ties one half.
    let wins = 0, total = 0;
    for (let a = 0; a < idx.length; a++) {
      for (let b = 0; b < idx.length; b++) {
        if (!isYes[a] || isYes[b]) continue;
        total++;
        const sa = s[idx[a]], sb = s[idx[b]];
        wins += sa > sb ? 1 : sa === sb ? 0.5 : 0;
      }
    }
    near(g.metrics.auc, wins / total);
  }
  for (const name of ["positive_rate", "auc", "accuracy", "fpr", "fnr"]) {
    const v = report.groups.map((g) => g.metrics[name]!);
    assert(
      Math.abs(report.largest_gap[name]! - (Math.max(...v) - Math.min(...v))) <
        1e-15,
    );
  }
});

Deno.test("per-group metrics of a regression: mean prediction, R² and MAE by hand", () => {
  const { columns, data } = table(500, "regression");
  const model = train(data, { max_rounds: 60, seed: 1, estimators: 2 });
  const rows = Array.from({ length: 250 }, (_, i) => i * 2);
  const query: Record<string, (string | number)[]> = {};
  for (const f of model.encoder.features) {
    query[f.name] = rows.map((r) => columns[f.name as keyof typeof columns][r]);
  }
  const truth = rows.map((r) => columns.y[r] as number);
  const [report] = groupMetrics(
    model,
    { ...query, g: rows.map((r) => columns.g[r]) },
    truth,
    ["g"],
  );
  const s = scores(model, query);
  for (const g of report.groups) {
    const idx = rows.map((_, i) => i).filter((i) =>
      columns.g[rows[i]] === g.group
    );
    const mean = (a: number[]) => a.reduce((x, y) => x + y, 0) / a.length;
    const y = idx.map((i) => truth[i]), p = idx.map((i) => s[i]);
    const ym = mean(y);
    const r2 = 1 -
      y.reduce((a, v, j) => a + (v - p[j]) ** 2, 0) /
        y.reduce((a, v) => a + (v - ym) ** 2, 0);
    assert(Math.abs(g.metrics.mean_prediction! - mean(p)) < 1e-9);
    assert(Math.abs(g.metrics.r2! - r2) < 1e-9);
    assert(
      Math.abs(g.metrics.mae! - mean(y.map((v, j) => Math.abs(v - p[j])))) <
        1e-9,
    );
  }
});

Deno.test("a numeric protected field of many values is grouped by its quartiles, in order", () => {
  const { columns, data } = table(400, "binary");
  const model = train(data, { max_rounds: 30, seed: 1, estimators: 2 });
  const cuts = groupCuts(Float64Array.from(columns.w))!;
  assertEquals(cuts.length, 3);
  model.constraints = {
    monotone: {},
    excluded: [],
    protected: ["w"],
    groups: null,
    groupCuts: { w: cuts },
  };
  const query: Record<string, (string | number)[]> = {};
  for (const f of model.encoder.features) {
    query[f.name] = columns[f.name as keyof typeof columns];
  }
  // Views send numbers as numbers or as text: the same groups.
  const asText = { ...query, w: columns.w.map(String) };
  const [a] = groupMetrics(model, query, columns.y, ["w"]);
  const [b] = groupMetrics(model, asText, columns.y, ["w"]);
  assertEquals(a, b);
  assertEquals(a.groups.map((g) => g.group), [
    `< ${cuts[0]}`,
    `[${cuts[0]}, ${cuts[1]})`,
    `[${cuts[1]}, ${cuts[2]})`,
    `>= ${cuts[2]}`,
  ]);
  assertEquals(a.groups.reduce((s, g) => s + g.count, 0), 400);
  for (const g of a.groups) assert(Math.abs(g.count - 100) <= 2, g.group);
});
