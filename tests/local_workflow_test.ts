/**
 * Every endpoint of the route table through the SDK client against the
 * local platform, on real data (penguins): ingest, onboard, train, deploy,
 * views with explanations that add up, global explanation, lists, iterate,
 * and deletes in dependency order.
 */
import { LABEL_ROUTES } from "../src/schemas/label_routes.ts";
import { CONSTRAINT_ROUTES } from "../src/schemas/constraint_routes.ts";
import {
  assert,
  assertAlmostEquals,
  assertEquals,
  assertMatch,
  assertRejects,
} from "@std/assert";
import { ConflictError } from "../src/http/errors.ts";
import { routes } from "../src/schemas/mod.ts";
import { ended, ingestPenguins, setup, until } from "./_helpers/local_setup.ts";

const STAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

Deno.test("local platform: the whole workflow through the client, every endpoint", async () => {
  const { platform, client } = await setup();
  try {
    const called = new Set<string>();
    const mark = (group: string, op: string) => called.add(`${group}.${op}`);

    // Accounts (endpoints 2, 3) after the token call (endpoint 1, made by the client).
    const accounts = await client.accounts.list();
    mark("auth", "token");
    mark("accounts", "list");
    assertEquals(accounts.data.length, 1);
    assertEquals(accounts.data[0].status, "ACTIVE");
    assertMatch(accounts.data[0].created_at, STAMP);
    assertEquals(
      (await client.accounts.get(accounts.data[0].id)).id,
      accounts.data[0].id,
    );
    mark("accounts", "get");
    const iterated = [];
    for await (const a of client.accounts.iterate()) iterated.push(a);
    assertEquals(iterated.length, 1);

    // Ingestion (endpoints 4, 5, 6).
    const { storage, cpu, schema, config, job, done } = await ingestPenguins(
      client,
    );
    for (
      const g of [
        "storageConnectors",
        "computeConfigurations",
        "dataSchemas",
        "ingestionConfigurations",
        "ingestionJobs",
      ]
    ) mark(g, "create");
    mark("ingestionJobs", "get");
    assertEquals(job.status, "STARTING");
    assertEquals(job.progress, 0);
    assertEquals(job.stage, "initializing");
    assertEquals(job.maximum_runtime_seconds, 3600);
    assertEquals(done.status, "COMPLETED", String(done.message));
    assertEquals(done.progress, 1);
    assertEquals(schema.fields.length, 7);
    assertMatch(schema.fields[0].id, /^fld_/);
    assertEquals(schema.account.id, accounts.data[0].id);
    assertMatch(storage.created_at, STAMP);
    assertEquals(storage.created_by.name, "API user");
    const source = await client.datasources.get(done.datasource.id);
    mark("datasources", "get");
    assertEquals(source.status, "READY");
    assertEquals(source.row_count, 344);

    // Onboarding (endpoints 7, 8).
    const onboarding = await client.onboardingConfigurations.create({
      name: "onboard",
      targets: ["species"],
    });
    mark("onboardingConfigurations", "create");
    assertEquals(onboarding.encoding_strategy, "STREAM");
    assertEquals(onboarding.sharding_strategy, "PROPORTIONATE");
    const oj = await client.onboardingJobs.create({
      name: "onboard-job",
      compute_configuration_id: cpu.id,
      data_processing_configuration_id: onboarding.id,
      datasource_id: source.id,
      dataset_name: "penguins-dataset",
    });
    mark("onboardingJobs", "create");
    assertEquals(oj.status, "STARTING");
    const oDone = await until(() => client.onboardingJobs.get(oj.id), ended);
    mark("onboardingJobs", "get");
    assertEquals(oDone.status, "COMPLETED", String(oDone.message));
    const dataset = await client.datasets.get(oDone.dataset.id);
    mark("datasets", "get");
    assertEquals(dataset.classes?.species, ["Adelie", "Chinstrap", "Gentoo"]);

    // Training (endpoint 10).
    const workspace = await client.workspaces.create({ name: "lab" });
    mark("workspaces", "create");
    const gpu = await client.computeConfigurations.create({
      name: "gpu",
      machine_type: "ml.g5.xlarge",
      compute_type: "TRAINING",
    });
    const tc = await client.trainingConfigurations.create({
      name: "ebm",
      max_rounds: 60,
      // One bag: the workflow is the subject, not the model's accuracy.
      estimators: 1,
      max_polynomial_degree: 2,
    });
    mark("trainingConfigurations", "create");
    assertEquals(tc.max_rounds, 60);
    assert(
      tc.unused_parameters?.includes("max_polynomial_degree"),
      JSON.stringify(tc.unused_parameters),
    );
    const tj = await client.trainingJobs.create({
      name: "train",
      dataset_id: dataset.id,
      training_configuration_id: tc.id,
      compute_configuration_id: gpu.id,
      model_name: "penguin-model",
    }, { workspaceId: workspace.id });
    mark("trainingJobs", "create");
    assertEquals(tj.status, "STARTING");
    assertEquals(tj.workspace.id, workspace.id);
    const seen = new Set<string>();
    const tDone = await until(() => client.trainingJobs.get(tj.id), (j) => {
      seen.add(j.status);
      return ended(j);
    });
    mark("trainingJobs", "get");
    assertEquals(tDone.status, "COMPLETED", String(tDone.message));
    assert(seen.has("COMPLETED"));
    const model = await client.models.get(tDone.model.id);
    mark("models", "get");
    assertEquals(model.status, "READY");
    assert(
      (model.metrics?.validation_accuracy ?? 0) > 0.9,
      JSON.stringify(model.metrics),
    );

    const explanation = await client.models.explanation(model.id);
    mark("models", "explanation");
    assertEquals(explanation.target, "species");
    assertEquals(explanation.score_classes.length, 3);
    assert(explanation.terms.length >= 6);
    assertEquals(explanation.terms[0].scores.length, 3);

    // Deployment (endpoints 11, 12) and views (13).
    const dc = await client.deploymentConfigurations.create({
      name: "serverless",
      maximum_concurrency: 2,
      memory_size: 1024,
    });
    mark("deploymentConfigurations", "create");
    const dm = await client.deployedModels.create({
      name: "live",
      model_id: model.id,
      deployment_configuration_id: dc.id,
    });
    mark("deployedModels", "create");
    assertEquals(dm.status, "STARTING");
    const running = await until(
      () => client.deployedModels.get(dm.id),
      (d) => d.status !== "STARTING",
    );
    mark("deployedModels", "get");
    assertEquals(running.status, "RUNNING");
    const query = {
      island: ["Biscoe", "Dream", "Torgersen"],
      bill_length_mm: [48.0, 50.0, 39.0],
      bill_depth_mm: [15.0, 19.0, 18.5],
      flipper_length_mm: [220, 195, 185],
      body_mass_g: [5200, 3800, 3600],
      sex: ["male", null, "female"],
    };
    const table = await client.deployedModels.views(dm.id, {
      data: [{ view_type: "RESULTS" }],
      query,
      targets: { species: "Gentoo" },
    });
    mark("deployedModels", "views");
    assertEquals(table.columns.slice(0, 5), [
      "prediction.species",
      "probability.species.Adelie",
      "probability.species.Chinstrap",
      "probability.species.Gentoo",
      "bias",
    ]);
    assertEquals(table.index, [0, 1, 2]);
    assertEquals(table.data.map((r) => r[0]), [
      "Gentoo",
      "Chinstrap",
      "Adelie",
    ]);
    // Explanations add up: bias + contributions is each class's softmax logit,
    // so the softmax of the three explained logits gives back the probabilities.
    const logits: number[][] = [[], [], []];
    for (const [k, cls] of ["Adelie", "Chinstrap", "Gentoo"].entries()) {
      const t = await client.deployedModels.views(dm.id, {
        query,
        targets: { species: cls },
      });
      t.data.forEach((row, i) =>
        logits[i][k] = (row.slice(5) as number[]).reduce(
          (a, b) => a + b,
          row[4] as number,
        )
      );
    }
    table.data.forEach((row, i) => {
      const e = logits[i].map(Math.exp);
      const z = e.reduce((a, b) => a + b);
      e.forEach((v, k) =>
        assertAlmostEquals(v / z, row[1 + k] as number, 1e-9)
      );
    });

    // Lists with paging, and iterate.
    const page = await client.computeConfigurations.list({
      page: 1,
      items_per_page: 1,
    });
    mark("computeConfigurations", "list");
    assertEquals(page.pagination, {
      total_items: 2,
      items_per_page: 1,
      current_page: 1,
      total_pages: 2,
    });
    const all = [];
    for await (
      const c of client.computeConfigurations.iterate({ items_per_page: 1 })
    ) all.push(c.name);
    assertEquals(all, ["cpu", "gpu"]);
    const groups = [
      ["computeConfigurations", client.computeConfigurations],
      ["storageConnectors", client.storageConnectors],
      ["dataSchemas", client.dataSchemas],
      ["ingestionConfigurations", client.ingestionConfigurations],
      ["ingestionJobs", client.ingestionJobs],
      ["onboardingConfigurations", client.onboardingConfigurations],
      ["onboardingJobs", client.onboardingJobs],
      ["workspaces", client.workspaces],
      ["trainingConfigurations", client.trainingConfigurations],
      ["trainingJobs", client.trainingJobs],
      ["deploymentConfigurations", client.deploymentConfigurations],
      ["deployedModels", client.deployedModels],
      ["datasources", client.datasources],
      ["datasets", client.datasets],
      ["models", client.models],
    ] as const;
    for (const [name, collection] of groups.slice(1)) {
      const p = await collection.list();
      assertEquals(p.pagination.total_items, p.data.length, name);
      assert(p.data.length >= 1, name);
      mark(name, "list");
    }
    for (
      const [name, id] of [
        ["computeConfigurations", cpu.id],
        ["storageConnectors", storage.id],
        ["dataSchemas", schema.id],
        ["ingestionConfigurations", config.id],
        ["onboardingConfigurations", onboarding.id],
        ["workspaces", workspace.id],
        ["trainingConfigurations", tc.id],
        ["deploymentConfigurations", dc.id],
      ] as const
    ) {
      const collection = groups.find(([g]) => g === name)![1];
      assertEquals((await collection.get(id)).id, id);
      mark(name, "get");
    }

    // Cancelling a job that has ended is a 409 (our extension of the published API, docs/contract.md#jobs-and-deployments).
    for (
      const [name, id] of [
        ["ingestionJobs", job.id],
        ["onboardingJobs", oj.id],
        ["trainingJobs", tj.id],
      ] as const
    ) {
      await assertRejects(
        () => client[name].cancel(id),
        ConflictError,
        "already ended (COMPLETED)",
      );
      mark(name, "cancel");
    }

    // Deletes in dependency order, each 204 (the client resolves undefined).
    const del = async (name: string, id: string) => {
      const collection = groups.find(([g]) => g === name)![1];
      await collection.delete(id);
      mark(name, "delete");
    };
    await del("deployedModels", dm.id);
    await del("deploymentConfigurations", dc.id);
    await del("trainingJobs", tj.id);
    await del("models", model.id);
    await del("trainingConfigurations", tc.id);
    await del("workspaces", workspace.id);
    await del("onboardingJobs", oj.id);
    await del("datasets", dataset.id);
    await del("onboardingConfigurations", onboarding.id);
    await del("ingestionJobs", job.id);
    await del("datasources", source.id);
    await del("ingestionConfigurations", config.id);
    await del("dataSchemas", schema.id);
    await del("storageConnectors", storage.id);
    await del("computeConfigurations", cpu.id);
    await del("computeConfigurations", gpu.id);
    assertEquals((await client.models.list()).pagination.total_items, 0);

    // Batch views (an extension) run their own workflow: tests/batch_*_test.ts;
    // a schema's labels (an extension) theirs: tests/local_labels_test.ts;
    // protections and constraints as sub-resources theirs:
    // tests/local_constraint_resources_test.ts.
    const labels = new Set([
      ...Object.keys(LABEL_ROUTES),
      ...Object.keys(CONSTRAINT_ROUTES),
    ]);
    const expected = Object.entries(routes).filter(([g]) =>
      !g.startsWith("viewsBatch") && !labels.has(g)
    ).flatMap(([g, ops]) => Object.keys(ops).map((op) => `${g}.${op}`));
    assertEquals(
      expected.filter((k) => !called.has(k)),
      [],
      "every route of the table was exercised",
    );
  } finally {
    await platform.close();
  }
});
