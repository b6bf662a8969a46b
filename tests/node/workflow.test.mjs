/**
 * The whole workflow in Node, through the built package imported by its
 * name: `local()` with a bucket mapped to the shared datasets, `quickstart()`
 * and the step-by-step builders on penguins.csv, views whose explanations add
 * up to the log-odds (binary) or softmax logit (3 classes) of the explained
 * class, and the typed errors a user meets on the way.
 *
 * The datasets folder is `MLP_DATASETS` when set, else the repository's `datasets/`
 * from the repository root, found by walking up from this file to deno.json
 * (see _datasets.mjs).
 *
 * @module
 */

import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { datasetsDir } from "./_datasets.mjs";
import {
  ConflictError,
  MLPlatformError,
  NotFoundError,
  ValidationError,
} from "@mlplatform/sdk";
import { local } from "@mlplatform/sdk/local";

const DATASETS = datasetsDir();
const PENGUINS = join(DATASETS, "penguins.csv");
assert.ok(
  existsSync(PENGUINS),
  `penguins.csv not found in ${DATASETS}: set MLP_DATASETS`,
);

// penguins.csv: quoted strings, bare numbers, empty cell = missing.
function readPenguins() {
  const [header, ...lines] = readFileSync(PENGUINS, "utf8").trim().split(
    /\r?\n/,
  );
  const names = header.split(",").map((c) => c.replaceAll('"', ""));
  return lines.map((line) =>
    Object.fromEntries(
      line.split(",").map((cell, j) => [
        names[j],
        cell === ""
          ? null
          : cell.startsWith('"')
          ? cell.replaceAll('"', "")
          : Number(cell),
      ]),
    )
  );
}

const POLL = { initialDelay: 5, maxDelay: 50 };
const FEATURES = [
  "island",
  "bill_length_mm",
  "bill_depth_mm",
  "flipper_length_mm",
  "body_mass_g",
  "sex",
];
// One penguin of each species (from the data set), and one with gaps.
const QUERY = {
  island: ["Torgersen", "Dream", "Biscoe", "Biscoe"],
  bill_length_mm: [39.1, 49.7, 45.2, null],
  bill_depth_mm: [18.7, 18.6, 14.8, 15.0],
  flipper_length_mm: [181, 195, 212, null],
  body_mass_g: [3750, 3600, 5200, 5000],
  sex: ["male", "male", "female", null],
};

/** bias + every contribution of each row: the explained class's score. */
function explainedScores(result) {
  const terms = result.columnNames.filter((c) => c.startsWith("contribution."));
  assert.ok(terms.length > 0, "the result has contribution columns");
  return result.rows().map((row) => {
    assert.equal(typeof row.bias, "number");
    return terms.reduce((sum, c) => sum + row[c], row.bias);
  });
}

function logSumExp(values) {
  const m = Math.max(...values);
  return m + Math.log(values.reduce((s, v) => s + Math.exp(v - m), 0));
}

function assertClose(actual, expected, what, tolerance = 1e-9) {
  assert.ok(
    Math.abs(actual - expected) <= tolerance,
    `${what}: ${actual} vs ${expected} (difference ${
      Math.abs(actual - expected)
    } > ${tolerance})`,
  );
}

/** Probabilities of each row sum to 1; the prediction is the likeliest class. */
function assertProbabilities(result, target) {
  const probabilities = result.probabilities(target);
  const classes = Object.keys(probabilities);
  const predictions = result.predictions(target);
  for (let i = 0; i < result.length; i++) {
    const p = classes.map((c) => probabilities[c][i]);
    for (const v of p) assert.ok(v >= 0 && v <= 1, `probability ${v}`);
    assertClose(p.reduce((a, b) => a + b, 0), 1, `row ${i} probabilities sum`);
    const best = classes[p.indexOf(Math.max(...p))];
    assert.equal(predictions[i], best, `row ${i}: prediction is the argmax`);
  }
  return { probabilities, classes, predictions };
}

describe("local() in Node: quickstart, views and explanations", () => {
  let ml;
  let quick;

  before(async () => {
    ml = await local({ buckets: { data: DATASETS }, progress: false });
    quick = await ml.quickstart({
      bucket: "data",
      path: "penguins.csv",
      target: "species",
      training: { maxRounds: 60 },
    });
  });
  after(() => ml?.close());

  test("quickstart infers the schema and deploys a RUNNING model", () => {
    const { schema, deployment, model } = quick;
    const target = schema.fields.find((f) => f.designation === "TARGET");
    assert.equal(target?.name, "species");
    assert.deepEqual(
      schema.fields.filter((f) => f.designation === "FEATURE").map((f) =>
        f.name
      ).sort(),
      [...FEATURES].sort(),
    );
    assert.equal(deployment.status, "RUNNING");
    assert.equal(deployment.resource.model.id, model.id);
    assert.deepEqual(deployment.targets, ["species"]);
  });

  test("views columns come in order: prediction, probabilities, bias, contributions", async () => {
    const result = await quick.deployment.views(QUERY);
    assert.equal(result.length, 4);
    const columns = result.columnNames;
    assert.equal(columns[0], "prediction.species");
    assert.deepEqual(columns.slice(1, 4).sort(), [
      "probability.species.Adelie",
      "probability.species.Chinstrap",
      "probability.species.Gentoo",
    ]);
    assert.equal(columns[4], "bias");
    assert.ok(columns.slice(5).every((c) => c.startsWith("contribution.")));
    for (const f of FEATURES) assert.ok(columns.includes(`contribution.${f}`));
    assert.deepEqual(result.predictions("species").slice(0, 3), [
      "Adelie",
      "Chinstrap",
      "Gentoo",
    ]);
    // JSON round trip: the split table of docs/api.md#resources.
    const table = JSON.parse(JSON.stringify(result));
    assert.deepEqual(table.columns, columns);
    assert.deepEqual(table.index, [0, 1, 2, 3]);
    assert.equal(table.data[2][0], "Gentoo");
  });

  test("explanations add up to each class's softmax logit (3 classes, 1e-9)", async () => {
    const deployment = quick.deployment;
    const base = await deployment.views(QUERY);
    const { probabilities, classes, predictions } = assertProbabilities(
      base,
      "species",
    );
    assert.equal(classes.length, 3);
    // Explain each class in turn: the scores are the model's logits.
    const logits = {};
    for (const c of classes) {
      const explained = await deployment.query(QUERY).explain("species", c);
      assert.deepEqual(
        explained.predictions("species"),
        predictions,
        "explaining another class leaves predictions unchanged",
      );
      logits[c] = explainedScores(explained);
    }
    const defaults = explainedScores(base);
    for (let i = 0; i < base.length; i++) {
      const row = classes.map((c) => logits[c][i]);
      const lse = logSumExp(row);
      for (const c of classes) {
        assertClose(
          logits[c][i] - lse,
          Math.log(probabilities[c][i]),
          `row ${i}, class ${c}: log-softmax of the explanation vs log p`,
        );
      }
      // Without targets, the predicted class is explained.
      assertClose(
        defaults[i],
        logits[predictions[i]][i],
        `row ${i}: default explanation is the predicted class's`,
      );
    }
    // One class per row.
    const perRow = ["Gentoo", "Adelie", "Chinstrap", "Adelie"];
    const mixed = await deployment.views(QUERY, {
      targets: { species: perRow },
    });
    explainedScores(mixed).forEach((s, i) =>
      assertClose(s, logits[perRow[i]][i], `row ${i}: per-row class`)
    );
    // The sorted contributions are the same numbers.
    const top = base.contributions(0);
    assert.equal(top.length, base.columnNames.length - 5);
    assertClose(
      top.reduce((s, t) => s + t.value, base.rows()[0].bias),
      defaults[0],
      "contributions(0) sum",
    );
  });

  test("a binary model's explanation adds up to the log-odds (1e-9)", async () => {
    const binary = await ml.quickstart({
      bucket: "data",
      path: "penguins.csv",
      target: "sex",
      name: "penguins-sex",
      training: { maxRounds: 40, maxInteractions: 0 },
    });
    const { sex: _sex, ...features } = QUERY;
    const query = {
      ...features,
      species: ["Adelie", "Chinstrap", "Gentoo", "Gentoo"],
    };
    const result = await binary.deployment.views(query);
    const { probabilities, classes, predictions } = assertProbabilities(
      result,
      "sex",
    );
    assert.deepEqual([...classes].sort(), ["female", "male"]);
    const scores = explainedScores(result);
    for (let i = 0; i < result.length; i++) {
      const [other] = classes.filter((c) => c !== predictions[i]);
      assertClose(
        scores[i],
        Math.log(probabilities[predictions[i]][i] / probabilities[other][i]),
        `row ${i}: log-odds of ${predictions[i]}`,
      );
    }
    const flipped = explainedScores(
      await binary.deployment.views(query, {
        targets: { sex: classes[0] },
      }),
    );
    flipped.forEach((s, i) =>
      assertClose(
        s,
        Math.log(probabilities[classes[0]][i] / probabilities[classes[1]][i]),
        `row ${i}: log-odds of ${classes[0]}`,
      )
    );
  });

  test("the model is real: it classifies the whole file it learned from", async () => {
    const rows = readPenguins();
    assert.equal(rows.length, 344);
    const result = await quick.deployment.views(rows, {
      drop: ["species"],
      chunkSize: 100,
    });
    assert.equal(result.length, 344);
    const predicted = result.predictions("species");
    const right = predicted.filter((p, i) => p === rows[i].species).length;
    assert.ok(right / rows.length > 0.9, `accuracy ${right}/${rows.length}`);
    assertProbabilities(result, "species");
  });

  test("a get of an unknown id is a NotFoundError with status and code", async () => {
    const error = await ml.models.get("m_does_not_exist").then(
      () => assert.fail("expected a NotFoundError"),
      (e) => e,
    );
    assert.ok(error instanceof NotFoundError, String(error));
    assert.ok(error instanceof MLPlatformError);
    assert.equal(error.name, "NotFoundError");
    assert.equal(error.status, 404);
    assert.equal(typeof error.errorCode, "string");
    assert.match(error.message, /m_does_not_exist/);
    await assert.rejects(
      ml.deployedModels.get("dm_nope"),
      NotFoundError,
    );
  });

  test("builders refuse invalid bodies with a ValidationError naming the field", async () => {
    assert.throws(
      () => ml.schema("s").feature("a", ml.integer()).feature("a", ml.float()),
      (e) =>
        e instanceof ValidationError &&
        e.issues.some((i) => i.path === "fields.1.name") &&
        /duplicate field name "a"/.test(e.message),
    );
    assert.throws(
      () => ml.storageConnector("").body(),
      (e) =>
        e instanceof ValidationError &&
        e.issues.some((i) => i.path.startsWith("bucket_name")) &&
        /bucket/.test(e.message),
    );
    await assert.rejects(
      ml.schema("s").feature("a", ml.integer()).create(),
      (e) => e instanceof ValidationError && /no TARGET/.test(e.message),
    );
    // The service's 400 is typed the same way, with the column's path.
    const error = await quick.deployment.views({
      ...QUERY,
      wingspan: [1, 2, 3, 4],
    }, { drop: [] }).then(() => assert.fail("expected a rejection"), (e) => e);
    assert.ok(error instanceof ValidationError, String(error));
    assert.ok(
      error.issues.some((i) => i.path.includes("wingspan")),
      error.message,
    );
  });

  test("a duplicate name is a ConflictError", async () => {
    const name = `node-dup-${Date.now()}`;
    await ml.workspace(name);
    await assert.rejects(
      Promise.resolve(ml.workspace(name)),
      (e) => e instanceof ConflictError && e.status === 409,
    );
  });
});

describe("local() in Node: the step-by-step builders", () => {
  let ml;
  before(async () => {
    ml = await local({ buckets: { data: DATASETS }, progress: false });
  });
  after(() => ml?.close());

  test("storage, compute, schema, ingest, onboard, train, deploy, views", async () => {
    const suffix = Date.now().toString(36);
    const storage = await ml.storageConnector("data", {
      name: `node-storage-${suffix}`,
    });
    assert.equal(storage.bucket_name, "data");
    const cpu = await ml.compute(`node-cpu-${suffix}`);
    assert.equal(cpu.compute_type, "PROCESSING");
    const trainer = await ml.compute(`node-train-${suffix}`, {
      computeType: "TRAINING",
    });
    assert.equal(trainer.compute_type, "TRAINING");
    const schema = await ml.schema(`node-penguins-${suffix}`)
      .feature("island", ml.category())
      .feature("bill_length_mm", ml.float())
      .feature("bill_depth_mm", ml.float())
      .feature("flipper_length_mm", ml.integer())
      .feature("body_mass_g", ml.integer())
      .feature("sex", ml.category())
      .target("species")
      .create();
    assert.equal(schema.fields.length, 7);

    const ingestion = await ml.ingestionConfiguration(
      `node-ingestion-${suffix}`,
      schema,
    );
    const ingestJob = ml.ingestionJob({
      configuration: ingestion,
      storage,
      compute: cpu,
      path: "penguins.csv",
      datasourceName: `node-source-${suffix}`,
      poll: POLL,
    }).create();
    const source = await ingestJob;
    assert.equal(
      (await ml.ingestionJobs.get(ingestJob.id)).status,
      "COMPLETED",
    );
    assert.equal((await ml.datasources.get(source.id)).id, source.id);

    const onboarding = await ml.onboardingConfiguration(
      `node-onboarding-${suffix}`,
      { targets: ["species"] },
    );
    const dataset = await ml.onboardingJob({
      datasource: source,
      configuration: onboarding,
      compute: cpu,
      datasetName: `node-dataset-${suffix}`,
      poll: POLL,
    });
    const workspace = await ml.workspace(`node-ws-${suffix}`);
    const training = await ml.trainingConfiguration(`node-training-${suffix}`, {
      maxRounds: 40,
      maxInteractions: 0,
    });
    assert.equal(training.max_rounds, 40);
    const model = await ml.trainingJob({
      dataset,
      configuration: training,
      compute: trainer,
      workspace,
      modelName: `node-model-${suffix}`,
      poll: POLL,
    });
    assert.equal((await ml.models.get(model.id)).id, model.id);
    const deploymentConfig = await ml.deploymentConfiguration(
      `node-deploy-${suffix}`,
      { maximumConcurrency: 2 },
    );
    assert.equal(deploymentConfig.maximum_concurrency, 2);
    const deployment = await ml.deployedModel({
      model,
      configuration: deploymentConfig,
      poll: POLL,
    });
    assert.equal(deployment.status, "RUNNING");

    const result = await deployment.views(QUERY);
    assert.deepEqual(result.predictions().slice(0, 3), [
      "Adelie",
      "Chinstrap",
      "Gentoo",
    ]);
    assertProbabilities(result, "species");
    // Without interactions, one contribution per feature.
    assert.deepEqual(
      result.columnNames.filter((c) => c.startsWith("contribution.")).sort(),
      FEATURES.map((f) => `contribution.${f}`).sort(),
    );
  });
});

test("local({ dataDir }) on Node < 22.5 says node:sqlite is needed", async () => {
  const dir = await mkdtemp(join(tmpdir(), "mlp-node-data-"));
  try {
    const [major, minor] = process.versions.node.split(".").map(Number);
    const hasSqlite = major > 22 || (major === 22 && minor >= 5);
    if (hasSqlite) {
      const ml = await local({ dataDir: dir, progress: false });
      await ml.close();
      return;
    }
    await assert.rejects(
      local({ dataDir: dir, progress: false }),
      /node:sqlite.*Node 22\.5|without a data directory/s,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
