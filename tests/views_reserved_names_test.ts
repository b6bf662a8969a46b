/**
 * A column named `__proto__`, `constructor` or `hasOwnProperty` is a name
 * like any other (issue 9 defect 5), on the client and views side: the views
 * schema keeps it, the builders send it, the local platform refuses it with a
 * 400 naming it when the model has no such feature and uses it when it does,
 * and the frame conversions and schema inference key it as an own property.
 */
import { assert, assertEquals, assertThrows } from "@std/assert";
import { ViewsRequestSchema } from "../src/schemas/views.ts";
import { offlinePlatform } from "./_helpers/offline.ts";
import { ValidationError } from "../src/http/errors.ts";
import { Deployment } from "../src/builders/deployment.ts";
import { ViewsResult } from "../src/builders/views_result.ts";
import { scoreInChunks } from "../src/frames/chunked.ts";
import { splitToColumns, splitToRows } from "../src/frames/split.ts";
import { toViewsQuery } from "../src/frames/query.ts";
import { inferSchema } from "../src/infer/infer.ts";
import type { ViewsQuery } from "../src/frames/types.ts";
import {
  deployPenguins,
  raw,
  setup,
  tokenFor,
  until,
  untilRunning,
} from "./_helpers/local_setup.ts";

const RESERVED = ["__proto__", "constructor", "hasOwnProperty"] as const;

/** JSON text (a JS literal would set the prototype instead of a key). */
const parsed = (text: string) => JSON.parse(text);

Deno.test("reserved names: the views request schema keeps __proto__, constructor and hasOwnProperty as query and target keys", () => {
  for (const name of RESERVED) {
    const body = ViewsRequestSchema.parse(
      parsed(
        `{"query": {"${name}": [1, null], "x": ["a", "b"]}, "targets": {"${name}": "c"}}`,
      ),
    );
    assertEquals(Object.keys(body.query), [name, "x"]);
    assert(Object.hasOwn(body.query, name));
    assertEquals(body.query[name], [1, null]);
    assertEquals(Object.keys(body.targets), [name]);
    assertEquals(
      JSON.parse(JSON.stringify(body)).query[name],
      [1, null],
      "it is sent",
    );
  }
  // Bad cells are still named by their column and row.
  const bad = ViewsRequestSchema.safeParse(
    parsed('{"query": {"__proto__": [true]}}'),
  );
  assert(!bad.success);
  assertEquals(bad.error.issues[0].path, ["query", "__proto__", 0]);
  // A name absent from the query reads undefined, not Object's members.
  const plain = ViewsRequestSchema.parse({ query: { x: [1] } });
  assertEquals((plain.query as Record<string, unknown>).constructor, undefined);
  assertEquals(Object.keys(plain.targets), []);
});

const ml = offlinePlatform().ml;
const deployment = (features: string[]) =>
  new Deployment(undefined, {
    id: "dm",
    name: "dm",
    status: "RUNNING",
    model: { id: "m" },
    deployment_configuration: { id: "dc" },
    account: { id: "a" },
    created_at: "",
    created_by: { id: "u" },
    tags: [],
  }, { features, targets: ["y"] });

Deno.test("reserved names: the views builder sends a __proto__ feature, and refuses one the model lacks naming it", () => {
  for (const name of RESERVED) {
    const rows = parsed(`[{"${name}": 1, "x": "a"}, {"${name}": 2, "x": "b"}]`);
    const body = deployment([name, "x"]).query(rows).body();
    // Compared as JSON text: a key named "constructor" confuses deep equality.
    assertEquals(
      JSON.stringify(body.query),
      `{"${name}":[1,2],"x":["a","b"]}`,
    );
    const error = assertThrows(
      () => deployment(["x"]).query(rows).body(),
      ValidationError,
    );
    assertEquals(error.issues.map((i) => i.path), [`query.${name}`]);
  }
  assertEquals(
    JSON.stringify(ml.views(deployment(["x"]), { x: [1] }).body().query),
    '{"x":[1]}',
  );
});

Deno.test("reserved names: chunked scoring, split tables and results keep __proto__ as a column", async () => {
  const query = toViewsQuery(
    parsed('{"__proto__": [1, 2, 3], "constructor": ["a", "b", "c"]}'),
  );
  const seen: ViewsQuery[] = [];
  const table = await scoreInChunks(query, {
    chunkSize: 2,
    score: (chunk) => {
      seen.push(chunk);
      const n = chunk["__proto__"].length;
      return Promise.resolve({
        columns: ["__proto__"],
        index: Array.from({ length: n }, (_, i) => i),
        data: chunk["__proto__"].map((v) => [v]),
      });
    },
  });
  assertEquals(seen.map((c) => Object.keys(c)), [
    ["__proto__", "constructor"],
    ["__proto__", "constructor"],
  ]);
  assertEquals(table.data, [[1], [2], [3]]);
  const split = {
    columns: ["__proto__", "constructor"],
    index: [0],
    data: [[1, "a"]],
  };
  assertEquals(Object.keys(splitToRows(split)[0]), [
    "__proto__",
    "constructor",
  ]);
  assertEquals(Object.keys(splitToColumns(split)), [
    "__proto__",
    "constructor",
  ]);
  const result = new ViewsResult({
    columns: ["prediction.y", "probability.y.__proto__", "probability.y.b"],
    index: [0],
    data: [["b", 0.25, 0.75]],
  });
  const p = result.probabilities("y");
  assertEquals(Object.keys(p), ["__proto__", "b"]);
  assertEquals(p["__proto__"], [0.25]);
});

Deno.test("reserved names: schema inference reads a constructor or __proto__ column only where rows have it", async () => {
  const rows = parsed(
    '[{"x": "a", "y": 1}, {"x": "b", "y": 0, "constructor": 3.5, "__proto__": "u"}, {"x": "a", "y": 1}]',
  );
  const builder = await inferSchema(rows, { target: "y" });
  const fields = builder.fields;
  const byName = new Map(fields.map((f) => [f.name, f]));
  assertEquals(byName.get("constructor")?.data_type.data_type, "NUMBER");
  assertEquals(byName.get("__proto__")?.data_type.data_type, "STRING");
});

Deno.test("reserved names: the local platform answers 400 naming query.__proto__ (or constructor) when the model has no such feature", async () => {
  const { platform, client } = await setup();
  try {
    const { dm } = await deployPenguins(client);
    await untilRunning(client, dm.id);
    const token = await tokenFor(platform);
    for (const name of RESERVED) {
      const answer = await raw(
        platform,
        "POST",
        `/deployed-models/${dm.id}/views`,
        {
          token,
          headers: { "Content-Type": "application/json" },
          text:
            `{"query": {"island": ["Dream"], "bill_length_mm": [50], "bill_depth_mm": [19], "flipper_length_mm": [195], "body_mass_g": [3800], "sex": ["male"], "${name}": [1]}}`,
        },
      );
      assertEquals(
        answer.status,
        400,
        `${name}: ${JSON.stringify(answer.body)}`,
      );
      assertEquals(answer.body.errors?.map((e) => e.path), [`query.${name}`]);
    }
  } finally {
    await platform.close();
  }
});

Deno.test("reserved names: a model with features __proto__ and constructor is queried by those names", async () => {
  const dir = await Deno.makeTempDir();
  const lines = ["__proto__,constructor,y"];
  for (let i = 0; i < 200; i++) {
    const a = i % 10;
    const b = ["p", "q", "r"][i % 3];
    lines.push(`${a},${b},${a > 4 ? "yes" : "no"}`);
  }
  await Deno.writeTextFile(`${dir}/reserved.csv`, lines.join("\n") + "\n");
  const { platform, client } = await setup({ buckets: { demo: dir } });
  try {
    const storage = await client.storageConnectors.create({
      name: "s",
      bucket_name: "demo",
    });
    const cpu = await client.computeConfigurations.create({
      name: "cpu",
      machine_type: "m",
      compute_type: "PROCESSING",
    });
    const schema = await client.dataSchemas.create({
      name: "reserved",
      fields: parsed(`[
        {"name": "__proto__", "data_type": {"data_type": "NUMBER", "format": "INT64"}, "designation": "FEATURE", "semantic_type": "CONTINUOUS"},
        {"name": "constructor", "data_type": {"data_type": "STRING", "format": null}, "designation": "FEATURE", "semantic_type": "CATEGORICAL"},
        {"name": "y", "data_type": {"data_type": "STRING", "format": null}, "designation": "TARGET", "semantic_type": "CATEGORICAL"}
      ]`),
    });
    const ic = await client.ingestionConfigurations.create({
      name: "i",
      data_schema_id: schema.id,
    });
    const ij = await client.ingestionJobs.create({
      name: "ij",
      compute_configuration_id: cpu.id,
      data_processing_configuration_id: ic.id,
      storage_connector_id: storage.id,
      data_path: "reserved.csv",
      datasource_name: "src",
    });
    const ingested = await until(
      () => client.ingestionJobs.get(ij.id),
      (j) => j.status !== "STARTING" && j.status !== "RUNNING",
    );
    assertEquals(ingested.status, "COMPLETED", ingested.message ?? "");
    const oc = await client.onboardingConfigurations.create({
      name: "o",
      targets: ["y"],
    });
    const oj = await client.onboardingJobs.create({
      name: "oj",
      compute_configuration_id: cpu.id,
      data_processing_configuration_id: oc.id,
      datasource_id: ingested.datasource.id,
      dataset_name: "d",
    });
    const onboarded = await until(
      () => client.onboardingJobs.get(oj.id),
      (j) => j.status !== "STARTING" && j.status !== "RUNNING",
    );
    assertEquals(onboarded.status, "COMPLETED", onboarded.message ?? "");
    const ws = await client.workspaces.create({ name: "w" });
    const gpu = await client.computeConfigurations.create({
      name: "gpu",
      machine_type: "g",
      compute_type: "TRAINING",
    });
    // One bag: the names are the subject, and y follows __proto__ exactly.
    const tc = await client.trainingConfigurations.create({
      name: "t",
      max_rounds: 30,
      estimators: 1,
    });
    const tj = await client.trainingJobs.create({
      name: "tj",
      dataset_id: onboarded.dataset.id,
      training_configuration_id: tc.id,
      compute_configuration_id: gpu.id,
      model_name: "m",
    }, { workspaceId: ws.id });
    const trained = await until(
      () => client.trainingJobs.get(tj.id),
      (j) => j.status !== "STARTING" && j.status !== "RUNNING",
    );
    assertEquals(trained.status, "COMPLETED", trained.message ?? "");
    const dc = await client.deploymentConfigurations.create({ name: "dc" });
    const dm = await client.deployedModels.create({
      name: "live",
      model_id: trained.model.id,
      deployment_configuration_id: dc.id,
    });
    await untilRunning(client, dm.id);
    const table = await client.deployedModels.views(dm.id, {
      query: parsed('{"__proto__": [1, 8], "constructor": ["p", "q"]}'),
      targets: { y: "yes" },
    });
    const col = (name: string) => table.columns.indexOf(name);
    assert(col("contribution.__proto__") >= 0, table.columns.join(", "));
    assert(col("contribution.constructor") >= 0, table.columns.join(", "));
    assertEquals(table.data.map((r) => r[col("prediction.y")]), ["no", "yes"]);
    // The __proto__ feature is used: toward "yes", 1 counts against, 8 for.
    const c = table.data.map((r) => r[col("contribution.__proto__")] as number);
    assert(c[0] < 0 && c[1] > 0, String(c));
  } finally {
    await platform.close();
    await Deno.remove(dir, { recursive: true });
  }
});
