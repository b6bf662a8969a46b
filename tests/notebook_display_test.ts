import {
  assert,
  assertEquals,
  assertMatch,
  assertStringIncludes,
  assertThrows,
} from "@std/assert";
import {
  displayable,
  errorCard,
  escapeHtml,
  explanationChart,
  getJupyter,
  importanceChart,
  isJupyter,
  MASK,
  maskSecrets,
  notebookProgress,
  probabilityHistogram,
  resourceCard,
  shapeChart,
  toMimeBundle,
  VEGALITE_MIME,
  viewsTable,
} from "../src/notebook/mod.ts";

const EVIL = `<img src=x onerror="alert(1)">`;

Deno.test("notebook helpers are silent outside Jupyter", () => {
  assertEquals(isJupyter(), false);
  assertEquals(getJupyter(), undefined);
  assertEquals(notebookProgress("training"), undefined);
});

Deno.test("resource cards escape every value and show references and timestamps", () => {
  const card = resourceCard({
    id: "dm_1",
    name: EVIL,
    status: "RUNNING",
    model: { id: "m_1", name: "churn" },
    tags: [{ name: "prod" }, { name: "eu" }],
    maximum_concurrency: 4,
    created_at: "2025-01-01T00:00:00.000000Z",
    created_by: { id: "u_1", name: "ada" },
  }, { kind: "Deployed model" });
  assert(
    !card.html.includes("<img"),
    "raw markup from a value reached the HTML",
  );
  assertStringIncludes(card.html, escapeHtml(EVIL));
  assertStringIncludes(card.html, "churn (m_1)");
  assertStringIncludes(card.html, "prod, eu");
  assertStringIncludes(card.html, "created 2025-01-01T00:00:00.000000Z by ada");
  assertStringIncludes(card.text, "Deployed model");
  assertStringIncludes(card.text, "[RUNNING]");
  assertStringIncludes(card.text, "maximum_concurrency: 4");
});

Deno.test("secrets are masked at any depth, in keys and in free text", () => {
  const resource = {
    id: "acc_1",
    name: "prod",
    client_secret: "s3cr3t-value",
    nested: {
      access_token: "tok-value",
      Password: "pw-value",
      list: [{ authorization: "Bearer abc" }],
    },
    note:
      "sent Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJl",
  };
  const bundle = toMimeBundle(resource);
  const everything = JSON.stringify(bundle) +
    JSON.stringify(maskSecrets(resource));
  for (
    const secret of [
      "s3cr3t-value",
      "tok-value",
      "pw-value",
      "Bearer abc",
      "eyJhbGciOiJIUzI1NiJ9",
    ]
  ) {
    assert(!everything.includes(secret), `${secret} leaked`);
  }
  assertStringIncludes(String(bundle["text/plain"]), MASK);
  // The input object itself is untouched.
  assertEquals(resource.client_secret, "s3cr3t-value");
});

Deno.test("error cards show class, status, message, code and request id, escaped and masked", () => {
  class ApiError extends Error {
    override name = "NotFoundError";
    status = 404;
    error_code = "NOT_FOUND";
    requestId = "req-42";
    token = "should-not-show";
  }
  const card = errorCard(new ApiError(`model ${EVIL} not found`));
  assertStringIncludes(card.html, "NotFoundError");
  assertStringIncludes(card.html, "404");
  assertStringIncludes(card.html, "NOT_FOUND");
  assertStringIncludes(card.html, "req-42");
  assert(!card.html.includes("<img"));
  assert(
    !card.html.includes("should-not-show") &&
      !card.text.includes("should-not-show"),
  );
  assertStringIncludes(card.text, "NotFoundError: model");
  assertStringIncludes(errorCard("plain failure").text, "plain failure");
});

Deno.test("displayable attaches a non-enumerable Jupyter display method", () => {
  const model = displayable({ id: "m_1", name: "churn", status: "COMPLETED" }, {
    kind: "Model",
  });
  const method =
    (model as unknown as Record<symbol, () => Record<string, string>>)[
      Symbol.for("Jupyter.display")
    ];
  const bundle = method.call(model);
  assertStringIncludes(bundle["text/html"], "churn");
  assertStringIncludes(bundle["text/plain"], "Model churn (m_1) [COMPLETED]");
  assertEquals(Object.keys(model), ["id", "name", "status"]);
  assertEquals(
    JSON.stringify(model),
    '{"id":"m_1","name":"churn","status":"COMPLETED"}',
  );
  // Errors and tables pick their own renderers.
  const failing = displayable(new Error("boom"));
  const errorBundle =
    (failing as unknown as Record<symbol, () => Record<string, string>>)
      [Symbol.for("Jupyter.display")]();
  assertStringIncludes(errorBundle["text/plain"], "Error: boom");
  const frozen = displayable(Object.freeze({ id: "x", name: "frozen" }));
  assertEquals(frozen.name, "frozen");
});

const views = {
  columns: [
    "prediction.churn",
    "probability.churn.No",
    "probability.churn.Yes",
    "bias",
    "contribution.tenure",
    "contribution.contract",
    "contribution.tenure*contract",
  ],
  index: [0, 1, 2],
  data: [
    ["Yes", 0.3, 0.7, -1, 2, -0.5, 0.3527],
    ["No", 0.8, 0.2, -1, -0.25, -0.1, 0],
    [EVIL, 0.5, null, -1, 1, 0, 0],
  ],
};

Deno.test("views tables colour contributions by sign and magnitude, and escape values", () => {
  const bundle = viewsTable(views);
  const html = bundle["text/html"];
  assertStringIncludes(html, "rgba(220,38,38,1.00)"); // +2, the largest: full red
  assertStringIncludes(html, "rgba(37,99,235,0.25)"); // -0.5: a quarter-strength blue
  assertStringIncludes(html, "rgba(37,99,235,0.13)"); // -0.25
  assert(!html.includes("<img"));
  assertStringIncludes(html, "0.3527");
  assertMatch(bundle["text/plain"].split("\n")[1], /^0\tYes\t0\.3\t0\.7/);
  const short = viewsTable(views, { maxRows: 1 });
  assertStringIncludes(short["text/html"], "2 more rows not shown (3 in all)");
});

function spec(bundle: object) {
  const chart = bundle as Record<string | symbol, unknown>;
  const s = chart[VEGALITE_MIME] as {
    $schema: string;
    data: { values: Record<string, unknown>[] };
    mark: unknown;
  };
  assertEquals(s.$schema, "https://vega.github.io/schema/vega-lite/v5.json");
  assert(
    Array.isArray(s.data.values) && s.data.values.length > 0,
    "chart has no data values",
  );
  assertEquals(typeof chart["text/plain"], "string");
  // The kernel renders it as a cell value too.
  const display =
    (chart as Record<symbol, () => unknown>)[Symbol.for("Jupyter.display")];
  assertEquals(display(), chart);
  assertEquals(Object.keys(chart).sort(), [
    "application/vnd.vegalite.v5+json",
    "text/plain",
  ]);
  return s;
}

Deno.test("waterfall explanation goes from bias through contributions to the log-odds", () => {
  const s = spec(explanationChart(views, 0));
  const steps = s.data.values as { term: string; start: number; end: number }[];
  assertEquals(
    steps[0],
    { term: "bias", start: 0, end: -1, value: -1, direction: "base" } as never,
  );
  assertEquals(steps.map((t) => t.term), [
    "bias",
    "tenure",
    "contract",
    "tenure*contract",
    "log-odds",
  ]);
  for (let i = 1; i < steps.length - 1; i++) {
    assertEquals(steps[i].start, steps[i - 1].end);
  }
  assertEquals(steps.at(-1)!.end, -1 + 2 - 0.5 + 0.3527);
  assertEquals(steps.at(-2)!.end, steps.at(-1)!.end);
});

Deno.test("explanation bars and 'other' grouping", () => {
  const s = spec(explanationChart(views, 0, { kind: "bars", top: 1 }));
  assertEquals(s.data.values.map((v) => v.term), ["tenure", "other (2 terms)"]);
  assertEquals(s.data.values[1].value, -0.5 + 0.3527);
  assertThrows(() => explanationChart(views, 9), RangeError, "row 9");
  assertThrows(
    () => explanationChart({ columns: ["a"], index: [0], data: [[1]] }),
    TypeError,
    "bias",
  );
});

Deno.test("importance, shape and probability charts carry their data", () => {
  const importance = spec(
    importanceChart([{ name: "a", importance: 0.1 }, {
      name: "b",
      importance: 0.9,
    }]),
  );
  assertEquals(importance.data.values.map((v) => v.name), ["b", "a"]);
  const shape = spec(
    shapeChart({ labels: ["x", "y"], scores: [1, -1] }, { term: "tenure" }),
  );
  assertEquals(shape.data.values.map((v) => v.direction), ["raises", "lowers"]);
  assertThrows(
    () => shapeChart({ labels: ["x"], scores: [] }),
    RangeError,
    "1 labels but 0 scores",
  );
  const hist = spec(probabilityHistogram(views));
  assertEquals(hist.data.values, [{ probability: 0.7 }, { probability: 0.2 }]); // the missing cell is left out
  const no = spec(
    probabilityHistogram(views, { column: "probability.churn.No" }),
  );
  assertEquals(no.data.values.length, 3);
  assertThrows(
    () => probabilityHistogram(views, { column: "nope" }),
    TypeError,
    "probability.churn.No",
  );
});
