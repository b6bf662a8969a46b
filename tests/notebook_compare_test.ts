/**
 * The model card's metrics and classes, and the compare-models helper:
 * metrics side by side, shape functions of one feature overlaid.
 */
import {
  assert,
  assertEquals,
  assertStringIncludes,
  assertThrows,
} from "@std/assert";
import {
  compareModels,
  resourceCard,
  VEGALITE_MIME,
} from "../src/notebook/mod.ts";
import type { GlobalExplanation } from "../src/schemas/artifacts.ts";

Deno.test("a model card labels its metrics, rounds them to 3 significant digits and lists the classes", () => {
  const card = resourceCard({
    id: "mdl_1",
    name: "churn",
    status: "READY",
    classes: { churn: ["No", "Yes"] },
    metrics: {
      validation_auc: 0.8412345,
      validation_log_loss: 0.41789,
      train_rows: 4507,
      validation_rmse: 12.3456,
      validation_accuracy: null,
    },
  }, { kind: "Model" });
  assertStringIncludes(card.text, "classes: churn: No, Yes");
  assertStringIncludes(card.text, "validation ROC AUC: 0.841");
  assertStringIncludes(card.text, "validation log loss: 0.418");
  assertStringIncludes(card.text, "training rows: 4,507");
  assertStringIncludes(card.text, "validation RMSE: 12.3");
  assertStringIncludes(card.text, "validation accuracy: n/a");
  assert(!card.text.includes("0.8412345"), card.text);
  assertStringIncludes(card.html, "validation ROC AUC</td><td>0.841");
  assertStringIncludes(card.html, "churn: No, Yes");
});

function explanation(
  labels: string[],
  scores: number[],
): GlobalExplanation {
  return {
    target: "churn",
    classes: ["No", "Yes"],
    score_classes: ["Yes"],
    intercept: [0],
    terms: [{
      name: "tenure",
      features: ["tenure"],
      importance: 1,
      labels: [labels],
      scores: [scores],
    }, {
      name: "contract",
      features: ["contract"],
      importance: 1,
      labels: [["missing", "Month-to-month", "One year", "other"]],
      scores: [[0, 0.9, -0.2, 0]],
    }],
  };
}

const small = {
  model: {
    id: "m_1",
    name: "small",
    metrics: {
      validation_auc: 0.81,
      validation_log_loss: 0.45,
      train_rows: 10,
    },
  },
  explanation: explanation(["missing", "[0, 12)", "[12, 72]"], [0, 0.6, -0.4]),
};
const large = {
  model: {
    id: "m_2",
    name: "large",
    metrics: {
      validation_auc: 0.84,
      validation_log_loss: 0.41,
      train_rows: 10,
    },
  },
  explanation: explanation(
    ["missing", "[0, 6)", "[6, 30)", "[30, 72]"],
    [0, 0.8, 0.1, -0.5],
  ),
};

Deno.test("compareModels puts the metrics side by side and marks the best of each", () => {
  const { table } = compareModels([small, large]);
  assertStringIncludes(table["text/plain"], "small");
  assertStringIncludes(table["text/plain"], "large");
  assertStringIncludes(table["text/html"], "<b>0.840</b>"); // higher AUC wins
  assertStringIncludes(table["text/html"], "<b>0.410</b>"); // lower loss wins
  assert(!table["text/html"].includes("<b>10</b>"), "row counts are no score");
});

Deno.test("compareModels overlays a numeric feature's shapes as steps over its values", () => {
  const chart = compareModels([small, large], { feature: "tenure" }).chart!;
  const spec = chart[VEGALITE_MIME];
  const values = (spec.data as {
    values: { model: string; tenure: number; score: number }[];
  }).values;
  // Every non-missing bin is a segment: 2 + 3 bins, two ends each.
  assertEquals(values.length, 10);
  assertEquals(
    values.filter((v) => v.model === "large").map((v) => v.tenure),
    [0, 6, 6, 30, 30, 72],
  );
  assertEquals(
    (spec.encoding as { x: { type: string } }).x.type,
    "quantitative",
  );
});

Deno.test("compareModels draws a categorical feature as grouped bars and names missing terms", () => {
  const spec = compareModels([small, large], { feature: "contract" })
    .chart![VEGALITE_MIME];
  assertEquals(spec.mark, "bar");
  assertEquals((spec.data as { values: unknown[] }).values.length, 8);
  assertThrows(
    () => compareModels([small], { feature: "colour" }),
    RangeError,
    'no term for feature "colour"',
  );
  assertThrows(
    () => compareModels([{ model: small.model }], { feature: "tenure" }),
    TypeError,
    "has no explanation",
  );
});
