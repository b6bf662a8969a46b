/**
 * Labels and anchors through the SDK (docs/contract.md#labels-and-anchors):
 * the schema builder's `.feature(name, type, { friendlyName, unit })`,
 * category names and `.anchor()`, then views and the global explanation
 * shown under the labels (frames, charts, tables), the raw names kept.
 */
import { assert, assertAlmostEquals, assertEquals } from "@std/assert";
import { createLocalPlatform } from "../src/local/local_platform.ts";
import { MLPlatform } from "../src/platform.ts";
import { importanceChart, shapeChart } from "../src/notebook/charts.ts";
import { viewsTable } from "../src/notebook/views_table.ts";
import { resourceCard } from "../src/notebook/card.ts";
import { compareModels } from "../src/notebook/compare.ts";

const datasets = new URL("../datasets/", import.meta.url);

Deno.test("labels sdk: a labelled, anchored schema; views and explanations show the labels, add up, keep the raw names", async () => {
  const local = await createLocalPlatform({
    buckets: { shared: datasets.pathname },
  });
  const ml = new MLPlatform({
    baseUrl: local.baseUrl,
    ...local.credentials,
    fetch: local.fetch as typeof fetch,
    progress: false,
  });
  try {
    const storage = await ml.storageConnector("shared");
    const schema = await ml.schema("penguins")
      .feature("island", ml.category(), {
        friendlyName: "Island",
        categories: { Biscoe: "Biscoe Island" },
      })
      .feature("bill_length_mm", ml.float(), {
        friendlyName: "Bill length",
        unit: "mm",
        dimension: "length",
      })
      .feature("bill_depth_mm", ml.float())
      .feature("flipper_length_mm", ml.integer())
      .feature("body_mass_g", {
        type: ml.integer(),
        friendlyName: "Body mass",
        unit: "g",
      })
      .feature("sex", ml.category())
      .target("species", undefined, {
        categories: { Gentoo: "Gentoo penguin" },
      })
      .anchor("typical", { body_mass_g: 4200, island: "Dream" })
      .create();
    assertEquals(schema.friendly_names.length, 3);
    assertEquals(
      schema.fields.find((f) => f.name === "bill_length_mm")?.unit,
      "mm",
    );
    assertEquals(schema.data_anchors[0].terms.length, 2);

    const poll = { initialDelay: 5, maxDelay: 50 };
    const source = await ml.ingest("penguins.csv", { storage, schema, poll });
    const dataset = await ml.onboard(source, { targets: ["species"], poll });
    const model = await ml.train(dataset, {
      maxRounds: 30,
      estimators: 1, // labels are the subject, not the model
      poll,
    });
    const live = await ml.deploy(model, { poll });
    const query = {
      island: ["Biscoe", "Dream", "Torgersen"],
      bill_length_mm: [48.0, 50.0, 39.0],
      bill_depth_mm: [15.0, 19.0, 18.5],
      flipper_length_mm: [220, 195, 185],
      body_mass_g: [5200, 3800, 3600],
      sex: ["male", null, "female"],
    };
    const plain = await live.views(query);
    assertEquals(plain.labels?.body_mass_g.label, "Body mass (g)");
    // Raw names in the table, labels in the labelled view.
    assert(plain.columnNames.includes("contribution.body_mass_g"));
    const labelled = plain.labelledRows()[0];
    assert("Body mass (g)" in labelled && "Bill length (mm)" in labelled);
    const predicted = plain.predictions()[0];
    if (predicted === "Gentoo") {
      assertEquals(labelled["species"], "Gentoo penguin");
    }
    assertEquals(
      plain.contributions(0).find((c) => c.term === "body_mass_g")?.label,
      "Body mass (g)",
    );
    const html = viewsTable(plain.table)["text/html"];
    assert(
      html.includes("Body mass (g)") &&
        html.includes("contribution.body_mass_g"),
    );
    const waterfall = JSON.stringify(plain.explanationChart(0));
    assert(waterfall.includes("Body mass (g)"));

    // Against the schema's anchor (by id) and against reference rows.
    const anchorId = schema.data_anchors[0].id;
    for (const anchor of [anchorId, { query: { body_mass_g: [4000, 4400] } }]) {
      const anchored = await live.views(query, { anchor });
      assert(anchored.anchor);
      for (let i = 0; i < 3; i++) {
        const total = (r: typeof plain) => {
          const row = r.rows()[i] as Record<string, unknown>;
          return (row.bias as number) +
            r.contributions(i).reduce((a, c) => a + c.value, 0);
        };
        assertAlmostEquals(total(anchored), total(plain), 1e-9);
      }
    }
    // The explanation, labelled in the importance chart and shape chart.
    const g = await ml.models.explanation(model.id);
    assertEquals(g.field_labels?.island.categories.Biscoe, "Biscoe Island");
    const bars = JSON.stringify(
      importanceChart(g.terms, { labels: g.field_labels }),
    );
    assert(bars.includes("Body mass (g)") && bars.includes("body_mass_g"));
    const island = g.terms.find((t) => t.name === "island")!;
    const shape = JSON.stringify(shapeChart(
      { labels: island.labels[0], scores: island.scores[0] },
      { term: "island", labels: g.field_labels },
    ));
    assert(
      shape.includes("Biscoe Island") && shape.includes("Shape of Island"),
    );
    // The model card names the features by their labels; so does a comparison.
    const record = await ml.models.get(model.id);
    assertEquals(record.field_labels?.body_mass_g.label, "Body mass (g)");
    const card = resourceCard(record, { kind: "Model" });
    assert(card.text.includes("Body mass (g)"), card.text);
    const compared = compareModels([{ model: record, explanation: g }], {
      feature: "island",
    });
    const overlay = JSON.stringify(compared.chart);
    assert(
      overlay.includes("Biscoe Island") && overlay.includes("Shape of Island"),
    );
  } finally {
    await local.close();
  }
});
