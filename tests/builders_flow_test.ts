/**
 * The whole workflow through the builders on the local platform (penguins,
 * 3 classes), and the types that follow the data: the `@ts-expect-error`
 * lines below fail `deno check` if a misspelt column ever type-checks.
 */
import { assert, assertEquals, assertRejects } from "@std/assert";
import { createLocalPlatform } from "../src/local/local_platform.ts";
import { MLPlatform } from "../src/platform.ts";
import { ValidationError } from "../src/http/errors.ts";

const datasets = new URL("../datasets/", import.meta.url);

async function platform() {
  const local = await createLocalPlatform({
    buckets: { shared: datasets.pathname },
  });
  const ml = new MLPlatform({
    baseUrl: local.baseUrl,
    ...local.credentials,
    fetch: local.fetch as typeof fetch,
    progress: false,
  });
  return { ml, local };
}

Deno.test("flow: schema -> ingest -> onboard -> train -> deploy -> views, typed end to end", async () => {
  const { ml, local } = await platform();
  try {
    const storage = await ml.storageConnector("shared");
    const schema = await ml.schema("penguins")
      .feature("island", ml.category())
      .feature("bill_length_mm", ml.float())
      .feature("bill_depth_mm", ml.float())
      .feature("flipper_length_mm", ml.integer())
      .feature("body_mass_g", ml.integer())
      .feature("sex", ml.category())
      .target("species")
      .create();
    assertEquals(schema.fields.length, 7);

    const poll = { initialDelay: 5, maxDelay: 50 };
    const source = await ml.ingest("penguins.csv", { storage, schema, poll });
    // @ts-expect-error "specie" is not a target of the schema
    ml.onboard(source, { targets: ["specie"] }).catch(() => {});
    const dataset = await ml.onboard(source, { targets: ["species"], poll });
    const model = await ml.train(dataset, {
      maxRounds: 30,
      maxInteractions: 0,
      // One bag: the typed flow is the subject, not the model's accuracy.
      estimators: 1,
      poll,
    });
    const live = await ml.deploy(model, { maximumConcurrency: 2, poll });
    assertEquals(live.status, "RUNNING");

    const result = await live.views({
      island: ["Biscoe", "Dream"],
      bill_length_mm: [45.1, 39.5],
      bill_depth_mm: [14.5, 18.7],
      flipper_length_mm: [215, 190],
      body_mass_g: [5000, 3700],
      sex: ["female", null],
      // @ts-expect-error "bill_lenght_mm" is not a feature
      bill_lenght_mm: [1, 2],
    }, { drop: ["bill_lenght_mm"] });
    assertEquals(result.length, 2);
    const row = result.rows()[0];
    const predicted = row["prediction.species"];
    // @ts-expect-error "prediction.specie" is not a result column
    void row["prediction.specie"];
    assert(typeof predicted === "string" && predicted.length > 0);
    const probabilities = result.probabilities("species");
    assertEquals(Object.keys(probabilities).length, 3);
    const top = result.contributions(0, { top: 3 });
    assertEquals(top.length, 3);
    assert(Math.abs(top[0].value) >= Math.abs(top[2].value));
    // @ts-expect-error views query columns follow the schema
    live.query({ flipper: [1] });

    // Onboarding targets are checked against the schema before sending.
    await assertRejects(
      () => ml.onboard(source.id, { targets: ["island"] }),
      ValidationError,
      "not a target of the data schema",
    );
  } finally {
    await local.close();
  }
});

Deno.test("flow: quickstart from a CSV and a target to a deployed model", async () => {
  const { ml, local } = await platform();
  try {
    const result = await ml.quickstart({
      bucket: "shared",
      path: "penguins.csv",
      sample: new URL("penguins.csv", datasets),
      target: "species",
      training: { maxRounds: 20, maxInteractions: 0, estimators: 1 },
    });
    assertEquals(result.deployment.status, "RUNNING");
    assertEquals(result.model.id, result.deployment.resource.model.id);
    assert(
      result.schema.fields.some((f) =>
        f.name === "species" && f.designation === "TARGET"
      ),
    );
    const view = await result.deployment.views([
      {
        island: "Torgersen",
        bill_length_mm: 39.1,
        bill_depth_mm: 18.7,
        flipper_length_mm: 181,
        body_mass_g: 3750,
        sex: "male",
      },
    ]);
    assertEquals(view.predictions("species"), ["Adelie"]);
  } finally {
    await local.close();
  }
});
