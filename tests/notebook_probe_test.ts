/**
 * What a data scientist in a Deno notebook hits with awkward tables: a
 * feature literally named `bias` or `prediction`, ten classes whose names
 * look like numbers, labels that collide, very long strings, helpers'
 * results left as a cell's value. Each test failed before its fix.
 */
import {
  assert,
  assertEquals,
  assertStringIncludes,
  assertThrows,
} from "@std/assert";
import {
  errorCard,
  explanationChart,
  importanceChart,
  JUPYTER_DISPLAY,
  resourceCard,
  shapeChart,
  toMimeBundle,
  VEGALITE_MIME,
  viewsTable,
} from "../notebook.ts";
import { formatMetric } from "../src/notebook/mod.ts";
import { pageTable } from "../src/notebook/page.ts";

type Step = { term: string; raw?: string; end: number; value: number };
const steps = (chart: ReturnType<typeof explanationChart>) =>
  (chart[VEGALITE_MIME].data as { values: Step[] }).values;

// A model trained on a file with columns literally named `bias` and
// `prediction` (the local platform takes them: its terms are
// `contribution.bias` and `contribution.prediction`).
const awkward = {
  columns: [
    "prediction.grade",
    "probability.grade.01",
    "probability.grade.1",
    "probability.grade.a,b",
    "bias",
    "contribution.bias",
    "contribution.prediction",
    "contribution.x",
  ],
  index: [0],
  data: [["1", 0.2, 0.7, 0.1, 0.5, -0.25, 1, 0.125]],
};

Deno.test("explanation chart: a feature named `bias` is a step of its own, not the intercept's bar again", () => {
  for (const kind of ["waterfall", "bars"] as const) {
    const chart = explanationChart(awkward, 0, { kind });
    const terms = steps(chart).map((s) => s.term);
    // Vega-Lite draws one band per distinct nominal value: two steps named
    // "bias" were drawn on top of each other.
    assertEquals(new Set(terms).size, terms.length, terms.join(" | "));
    const feature = steps(chart).find((s) => s.raw === "bias");
    assert(feature, "the term `bias` is charted");
    assertEquals(feature.value, -0.25);
    assertStringIncludes(feature.term, "bias");
    if (kind === "waterfall") {
      assertEquals(terms[0], "bias"); // the intercept keeps its name
      assertEquals(steps(chart).at(-1)!.end, 0.5 - 0.25 + 1 + 0.125);
    }
  }
  // A regression model's feature named `prediction`, beside the total
  // step, which is named `prediction` too.
  const regression = {
    columns: ["prediction.price", "bias", "contribution.prediction"],
    index: [0],
    data: [[3, 1, 2]],
  };
  const terms = steps(explanationChart(regression, 0)).map((s) => s.term);
  assertEquals(new Set(terms).size, terms.length, terms.join(" | "));
  assertEquals(terms.at(-1), "prediction");
});

Deno.test("explanation chart: terms whose labels collide stay apart", () => {
  const labels = {
    a: {
      label: "Age",
      friendly_name: "Age",
      unit: null,
      dimension: null,
      categories: {},
    },
    b: {
      label: "Age",
      friendly_name: "Age",
      unit: null,
      dimension: null,
      categories: {},
    },
  };
  const table = {
    columns: ["prediction.y", "bias", "contribution.a", "contribution.b"],
    index: [0],
    data: [["Yes", 0, 1, -2]],
    field_labels: labels,
  };
  for (const kind of ["waterfall", "bars"] as const) {
    const terms = steps(explanationChart(table, 0, { kind })).map((s) =>
      s.term
    );
    assertEquals(new Set(terms).size, terms.length, terms.join(" | "));
  }
  const importance = importanceChart([
    { name: "a", importance: 0.5 },
    { name: "b", importance: 0.25 },
  ], { labels });
  const names =
    (importance[VEGALITE_MIME].data as { values: { name: string }[] })
      .values.map((v) => v.name);
  assertEquals(new Set(names).size, 2, names.join(" | "));
  const shape = shapeChart({ labels: ["m", "M"], scores: [1, 2] }, {
    term: "a",
    labels: {
      a: {
        ...labels.a,
        categories: { m: "Male", M: "Male" },
      },
    },
  });
  const bins = (shape[VEGALITE_MIME].data as { values: { label: string }[] })
    .values.map((v) => v.label);
  assertEquals(new Set(bins).size, 2, bins.join(" | "));
});

Deno.test("explanation chart: three or more classes add up to a softmax logit, not log-odds, of the class explained", () => {
  const chart = explanationChart(awkward, 0);
  assert(!chart["text/plain"].includes("log-odds"), chart["text/plain"]);
  assertStringIncludes(chart["text/plain"], "softmax logit");
  assertEquals(steps(chart).at(-1)!.term, "softmax logit");
  // A row explained for another class than the predicted one says which.
  const chosen = explanationChart(awkward, 0, { explained: "a,b" });
  assertStringIncludes(chosen["text/plain"], "softmax logit of a,b");
  assertThrows(
    () => explanationChart(awkward, 0, { explained: "nope" }),
    RangeError,
    `"nope" is not a class of grade`,
  );
  // Two classes: the log-odds say which class they are of.
  const logit = Math.log(0.8 / 0.2);
  const binary = {
    columns: [
      "prediction.churn",
      "probability.churn.No",
      "probability.churn.Yes",
      "bias",
      "contribution.tenure",
    ],
    index: [0, 1],
    // Row 0 explains the predicted class; row 1 was asked for "No".
    data: [["Yes", 0.2, 0.8, 1, logit - 1], ["Yes", 0.2, 0.8, 1, -logit - 1]],
  };
  assertStringIncludes(
    explanationChart(binary, 0)["text/plain"],
    "log-odds of Yes 1.386",
  );
  assertStringIncludes(
    explanationChart(binary, 1)["text/plain"],
    "log-odds of No -1.386",
  );
});

Deno.test("views table: a very long cell is clipped, the plain text keeps one line per row", () => {
  const long = "x".repeat(100_000);
  const bundle = viewsTable({
    columns: ["prediction.y", `probability.y.${long}`, "note"],
    index: [0, 1],
    data: [[long, 0.5, "a\tb\nc"], ["No", 0.5, null]],
  });
  assert(
    bundle["text/html"].length < 10_000,
    `${bundle["text/html"].length} characters of HTML for two rows`,
  );
  assert(bundle["text/plain"].length < 2_000, "plain text clipped too");
  assertStringIncludes(bundle["text/html"], "…");
  const lines = bundle["text/plain"].split("\n");
  assertEquals(lines.length, 3, bundle["text/plain"]);
  assertEquals(lines[1].split("\t").length, 4);
});

Deno.test("cards: a very long name or message is clipped, -0 reads as 0", () => {
  const long = "n".repeat(100_000);
  const card = resourceCard({ id: "m_1", name: long }, { kind: "Model" });
  assert(card.html.length < 5_000, `${card.html.length} characters`);
  assert(card.text.length < 1_000, `${card.text.length} characters`);
  const error = errorCard(new Error(long));
  assert(error.html.length < 10_000, `${error.html.length} characters`);
  const page = pageTable({
    data: [{ id: "m_1", name: long }],
    pagination: {
      total_items: 1,
      items_per_page: 10,
      current_page: 1,
      total_pages: 1,
    },
  }, "Model");
  assert(String(page["text/html"]).length < 5_000);
  assertEquals(formatMetric("pairs_weight", -0), "0.00");
});

Deno.test("helpers' results render as a cell's value, as charts do", () => {
  const table = {
    columns: ["prediction.y", "bias"],
    index: [0],
    data: [["<b>Yes</b>", 1]],
  };
  const results: [string, unknown][] = [
    ["viewsTable", viewsTable(table)],
    ["toMimeBundle", toMimeBundle({ id: "m_1", name: "<i>m</i>" })],
    ["resourceCard", resourceCard({ id: "m_1", name: "<i>m</i>" })],
    ["errorCard", errorCard(new Error("<i>boom</i>"))],
  ];
  for (const [name, value] of results) {
    const display = (value as Record<symbol, unknown>)[JUPYTER_DISPLAY];
    assert(typeof display === "function", `${name}() has no display method`);
    const bundle = (display as () => Record<string, string>).call(value);
    assertStringIncludes(bundle["text/html"], "&lt;", name);
    assert(!/<i>|<b>Yes/.test(bundle["text/html"]), name);
    assertEquals(typeof bundle["text/plain"], "string", name);
    // Still a plain bundle (or card) for display(..., { raw: true }).
    assert(!JSON.stringify(value).includes("Jupyter"), name);
  }
});

Deno.test("views table: a feature named like a secret (n_tokens_content) shows its numbers; a credential is still masked", () => {
  // The UCI "Online News Popularity" table's features are n_tokens_title,
  // n_tokens_content...: their contributions were shown as ••••••.
  const bundle = viewsTable({
    columns: [
      "prediction.shares",
      "bias",
      "contribution.n_tokens_title",
      "n_tokens_content",
      "api_token",
    ],
    index: [0],
    data: [[1400, 7, 0.25, 219, "abc123"]],
  });
  for (const part of ["text/html", "text/plain"] as const) {
    assertStringIncludes(bundle[part], "0.25", part);
    assertStringIncludes(bundle[part], "219", part);
    assert(!bundle[part].includes("abc123"), `${part} leaked the token`);
  }
});

Deno.test("model card: a target or feature named like a secret keeps its classes and labels", () => {
  const card = resourceCard({
    id: "m_1",
    name: "news",
    classes: { popular_token: ["no", "yes"] },
    features: ["n_tokens_title"],
    field_labels: {
      n_tokens_title: {
        label: "Words in title",
        friendly_name: "Words in title",
        unit: null,
        dimension: null,
        categories: {},
      },
    },
    client_secret: "s3cr3t",
  }, { kind: "Model" });
  assertStringIncludes(card.text, "classes: popular_token: no, yes");
  assertStringIncludes(card.text, "features: Words in title");
  assert(!card.text.includes("s3cr3t") && !card.html.includes("s3cr3t"));
});
