import {
  assert,
  assertEquals,
  assertMatch,
  assertNotEquals,
  assertThrows,
} from "@std/assert";
import {
  encodeDataset,
  encodeRows,
  type RawColumns,
  type SchemaField,
} from "../src/local/model/encoding.ts";
import { ModelDataError, ModelInputError } from "../src/local/model/errors.ts";
import { datasourceFromCsv } from "../src/local/model/datasource.ts";

const num = (name: string): SchemaField => ({
  name,
  data_type: { data_type: "NUMBER", format: "INT64" },
  designation: "FEATURE",
  semantic_type: "CONTINUOUS",
});
const cat = (name: string, designation = "FEATURE"): SchemaField => ({
  name,
  data_type: { data_type: "STRING", format: null },
  designation,
  semantic_type: "CATEGORICAL",
});
const fields = [num("x"), cat("c"), cat("y", "TARGET")];

/** 100 rows: c is "a" x50, "b" x30, " b " x5 (padded), "rare" x1, null x4, "z" x10. */
function data(): RawColumns {
  const c: (string | null)[] = [];
  for (let i = 0; i < 50; i++) c.push("a");
  for (let i = 0; i < 30; i++) c.push("b");
  for (let i = 0; i < 5; i++) c.push(" b ");
  c.push("rare");
  for (let i = 0; i < 4; i++) c.push(null);
  for (let i = 0; i < 10; i++) c.push("z");
  const x = c.map((_, i) => (i % 7 === 0 ? null : i));
  const y = c.map((_, i) => (i % 3 === 0 ? "yes" : "no"));
  return { x, c, y };
}

Deno.test("encoding: classes sorted, labels, vocabulary by frequency", () => {
  const d = encodeDataset(data(), fields, { targets: ["y"] });
  assertEquals(d.encoder.target.classes, ["no", "yes"]);
  assertEquals(d.nRows, 100);
  assertEquals([d.labels[0], d.labels[1]], [1, 0]);
  const c = d.encoder.features[1];
  assert(c.kind === "categorical");
  assertEquals(c.categories, ["a", "b", "z", "rare"]);
  const codes = d.features[1];
  assertEquals([codes[0], codes[50], codes[85], codes[86], codes[90]], [
    1,
    2,
    4,
    0,
    3,
  ]);
});

Deno.test("encoding: strip_categories merges padded values, and off keeps them apart", () => {
  const on =
    encodeDataset(data(), fields, { targets: ["y"] }).encoder.features[1];
  const off =
    encodeDataset(data(), fields, { targets: ["y"], strip_categories: false })
      .encoder.features[1];
  assert(on.kind === "categorical" && off.kind === "categorical");
  assert(!on.categories.includes(" b "));
  assert(off.categories.includes(" b "));
});

Deno.test("encoding: infrequency_threshold sends rare categories to the other bin", () => {
  const d = encodeDataset(data(), fields, {
    targets: ["y"],
    infrequency_threshold: 0.02,
  });
  const c = d.encoder.features[1];
  assert(c.kind === "categorical");
  assertEquals(c.categories, ["a", "b", "z"]);
  assertEquals(c.rare, ["rare"]);
  assertEquals(d.features[1][85], 4); // other = categories.length + 1
  // A rare category seen in training maps to "other" even when unseen ones are errors.
  const strict = encodeDataset(data(), fields, {
    targets: ["y"],
    infrequency_threshold: 0.02,
    handle_unseen_categories: false,
  });
  assertEquals(
    encodeRows(strict.encoder, { x: [1], c: ["rare"] }).features[1][0],
    4,
  );
});

Deno.test("encoding: one_hot_encoding_max_categories caps the vocabulary", () => {
  const d = encodeDataset(data(), fields, {
    targets: ["y"],
    one_hot_encoding_max_categories: 2,
  });
  const c = d.encoder.features[1];
  assert(c.kind === "categorical");
  assertEquals(c.categories, ["a", "b"]);
  assertEquals(c.rare, ["z", "rare"]);
  assertEquals(d.features[1][90], 3);
});

Deno.test("encoding: impute fills medians and modes; without it missing has its own code", () => {
  const plain = encodeDataset(data(), fields, { targets: ["y"] });
  assert(Number.isNaN(plain.features[0][0]));
  assertEquals(plain.features[1][86], 0);
  const imp = encodeDataset(data(), fields, { targets: ["y"], impute: true });
  const x = imp.encoder.features[0];
  assert(x.kind === "numeric" && x.fill !== null);
  assertEquals(imp.features[0][0], x.fill);
  assertEquals(imp.features[1][86], 1); // mode "a"
  const rows = encodeRows(imp.encoder, { x: [null], c: [null] });
  assertEquals([rows.features[0][0], rows.features[1][0]], [x.fill, 1]);
});

Deno.test("encoding: handle_unseen_categories maps to other, or errors naming column and value", () => {
  const lax = encodeDataset(data(), fields, { targets: ["y"] });
  assertEquals(
    encodeRows(lax.encoder, { x: [1], c: ["new"] }).features[1][0],
    5,
  );
  const strict = encodeDataset(data(), fields, {
    targets: ["y"],
    handle_unseen_categories: false,
  });
  const e = assertThrows(
    () => encodeRows(strict.encoder, { x: [1], c: ["new"] }),
    ModelInputError,
    "'new'",
  );
  assertEquals(e.column, "c");
  assertEquals(e.code, "UNSEEN_CATEGORY");
});

Deno.test("encoding: rows with an empty target are dropped and counted", () => {
  const d = data();
  const y = [...d.y];
  y[3] = null;
  y[4] = "  ";
  const enc = encodeDataset({ ...d, y }, fields, { targets: ["y"] });
  assertEquals(enc.nRows, 98);
  assertEquals(enc.droppedRows, 2);
});

Deno.test("encoding: stratified seeded order keeps class proportions in every prefix", () => {
  const n = 1000;
  const y = Array.from({ length: n }, (_, i) => (i % 10 < 2 ? "pos" : "neg"));
  const x = y.map((_, i) => i);
  const a = encodeDataset({ x, c: y.map(() => "k"), y }, fields, {
    targets: ["y"],
  });
  const b = encodeDataset({ x, c: y.map(() => "k"), y }, fields, {
    targets: ["y"],
  });
  const other = encodeDataset({ x, c: y.map(() => "k"), y }, fields, {
    targets: ["y"],
    seed: 1,
  });
  assertEquals(a.order, b.order);
  assertNotEquals(a.order, other.order);
  assertEquals(new Set(a.order).size, n);
  for (const prefix of [100, 250, 800]) {
    let pos = 0;
    for (let i = 0; i < prefix; i++) pos += a.labels[a.order[i]] === 1 ? 1 : 0;
    assert(
      Math.abs(pos - prefix * 0.2) <= 1,
      `prefix ${prefix}: ${pos} positives`,
    );
  }
});

Deno.test("encoding: data errors are typed and name the column", () => {
  const d = data();
  const cases: [RawColumns, SchemaField[], object, string, string][] = [
    [
      { ...d, y: d.y.map(() => null) },
      fields,
      { targets: ["y"] },
      "y",
      "TARGET_EMPTY",
    ],
    [
      { ...d, y: d.y.map(() => "yes") },
      fields,
      { targets: ["y"] },
      "y",
      "TARGET_SINGLE_CLASS",
    ],
    [{ x: d.x, y: d.y }, fields, { targets: ["y"] }, "c", "COLUMN_MISSING"],
    [
      { ...d, x: d.x.map((v, i) => (i === 5 ? "five" : v)) },
      fields,
      { targets: ["y"] },
      "x",
      "BAD_NUMBER",
    ],
    [
      d,
      [
        { ...cat("x"), semantic_type: "CONTINUOUS" },
        cat("c"),
        cat("y", "TARGET"),
      ],
      { targets: ["y"] },
      "x",
      "STRING_CONTINUOUS",
    ],
    [d, fields, { targets: ["nope"] }, "nope", "TARGET_NOT_IN_SCHEMA"],
    [d, fields, { targets: ["y", "c"] }, "c", "TARGET_COUNT"],
  ];
  for (const [cols, f, options, column, code] of cases) {
    const e = assertThrows(
      () => encodeDataset(cols, f, options),
      ModelDataError,
    );
    assertEquals([e.column, e.code], [column, code], e.message);
    assert(e.message.includes(column), e.message);
  }
  const p = assertThrows(
    () =>
      encodeDataset(d, fields, {
        targets: ["y"],
        prediction_type: "FORECASTING",
      }),
    ModelDataError,
  );
  assertEquals(p.code, "UNSUPPORTED_PREDICTION_TYPE");
  // REGRESSION needs a NUMBER target: a STRING one is refused naming it.
  const r = assertThrows(
    () =>
      encodeDataset(d, fields, {
        targets: ["y"],
        prediction_type: "REGRESSION",
      }),
    ModelDataError,
  );
  assertEquals([r.column, r.code], ["y", "TARGET_NOT_NUMERIC"]);
});

Deno.test("encoding: a REGRESSION target that cannot be learned is refused naming it: beyond ±1e100, one value on every row, or a spread under 1e-100", () => {
  const d = data();
  const regression = [num("x"), cat("c"), {
    ...num("y"),
    designation: "TARGET",
  }];
  const x = Array.from({ length: 100 }, (_, i) => i);
  const cases: [(v: number, i: number) => number | null, string, RegExp][] = [
    [(v) => v * 1e99 + 1e101, "TARGET_OUT_OF_RANGE", /within ±1e\+100/],
    [() => 5, "TARGET_CONSTANT", /is 5 on every one of its 100 rows/],
    // Missing values aside, one value: still nothing to predict.
    [(_, i) => i % 2 ? null : -2.5, "TARGET_CONSTANT", /is -2.5 on every/],
    // Squared, 1e-200 is 0: no split would gain anything (it read RMSE 0).
    [(v) => v * 1e-200, "TARGET_OUT_OF_RANGE", /differ by at least 1e-100/],
  ];
  for (const [y, code, said] of cases) {
    const e = assertThrows(
      () =>
        encodeDataset({ ...d, y: x.map(y) }, regression, {
          targets: ["y"],
          prediction_type: "REGRESSION",
        }),
      ModelDataError,
    );
    assertEquals([e.column, e.code], ["y", code], e.message);
    assertMatch(e.message, said);
  }
  // Small values that vary enough are learned as any others.
  const ok = encodeDataset({ ...d, y: x.map((v) => v * 1e-90) }, regression, {
    targets: ["y"],
    prediction_type: "REGRESSION",
  });
  assertEquals(ok.nRows, 100);
});

Deno.test("encoding: encodeRows rejects missing features, ragged arrays and wrong types", () => {
  const { encoder } = encodeDataset(data(), fields, { targets: ["y"] });
  const cases: [Record<string, unknown>, string, string][] = [
    [{ c: ["a"] }, "x", "FEATURE_MISSING"],
    [{ x: [1, 2], c: ["a"] }, "c", "LENGTH_MISMATCH"],
    [{ x: [true], c: ["a"] }, "x", "BAD_NUMBER"],
    [{ x: ["12abc"], c: ["a"] }, "x", "BAD_NUMBER"],
    [{ x: [1], c: [{}] }, "c", "BAD_TYPE"],
    [{ x: 1, c: ["a"] }, "x", "BAD_TYPE"],
  ];
  for (const [cols, column, code] of cases) {
    const e = assertThrows(() => encodeRows(encoder, cols), ModelInputError);
    assertEquals([e.column, e.code], [column, code], e.message);
  }
  // Numeric strings and numbers for categories are accepted (CSV-ish input).
  const ok = encodeRows(encoder, { x: ["7"], c: ["a"] });
  assertEquals(ok.features[0][0], 7);
});

Deno.test("encoding: a NUMBER column read as categories (a code) reads a string as the number it holds, as ingestion read the file's cells", () => {
  // Before, views (and so batch views, which pass the file's cells as
  // text) took "1.0" as the category "1.0", which training never saw
  // (ingestion stored the number 1, the category "1"): a batch over the
  // very file the model trained on scored most rows differently.
  const code: SchemaField = {
    name: "code",
    data_type: { data_type: "NUMBER", format: "INT64" },
    designation: "FEATURE",
    semantic_type: "CATEGORICAL",
  };
  const lines = ["code,y"];
  for (let i = 0; i < 60; i++) {
    lines.push(`${i % 5 === 4 ? "" : (i % 4).toFixed(1)},${i % 2 ? "a" : "b"}`);
  }
  const file = datasourceFromCsv(lines.join("\n"), [code, cat("y", "TARGET")]);
  // Typed from the file, and from raw values of either kind: one encoding.
  const raw = (cell: (k: number) => string | number) =>
    encodeDataset(
      {
        code: lines.slice(1).map((l) => {
          const c = l.split(",")[0];
          return c === "" ? null : cell(Number(c));
        }),
        y: lines.slice(1).map((l) => l.split(",")[1]),
      },
      [code, cat("y", "TARGET")],
      { targets: ["y"] },
    );
  const { encoder } = encodeDataset(file, [code, cat("y", "TARGET")], {
    targets: ["y"],
  });
  assertEquals(raw((k) => k.toFixed(1)).encoder, encoder);
  assertEquals(raw((k) => k).encoder, encoder);
  const codes = (cells: unknown[]) =>
    Array.from(encodeRows(encoder, { code: cells }).features[0]);
  assertEquals(
    codes(["1.0", " 01 ", "1e0", "2", 3, -0, "-0", "", null]),
    codes([1, 1, 1, 2, 3, 0, 0, null, null]),
  );
  // A text that is no number is refused, as ingestion refuses the cell.
  const e = assertThrows(() => codes(["one"]), ModelInputError);
  assertEquals([e.column, e.code], ["code", "BAD_NUMBER"]);
});
