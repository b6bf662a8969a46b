/**
 * One builder, one request (the rule in src/builders/mod.ts): `create()`
 * sends the first time and returns the same outcome after; `await builder`
 * is `await builder.create()`; `with()` makes a new, unsent builder; the
 * schema builder is not awaitable and a forgotten `.create()` is a compile
 * error where a schema is expected.
 */
import { assert, assertEquals, assertRejects, assertThrows } from "@std/assert";
import type { BuilderClient } from "../src/builders/builder_client.ts";
import { integer } from "../src/builders/fields.ts";
import {
  IngestionConfigurationBuilder,
  IngestionJobBuilder,
} from "../src/builders/ingestion.ts";
import { SchemaBuilder } from "../src/builders/schema.ts";
import { TrainingJobBuilder } from "../src/builders/training.ts";
import { WorkspaceBuilder } from "../src/builders/workspace.ts";
import { ValidationError } from "../src/http/errors.ts";

/** A client that records every call and answers with what was sent. */
function recordingClient() {
  const calls: string[] = [];
  const made = (kind: string, body: object) => {
    calls.push(`${kind}.create`);
    return Promise.resolve({ id: `${kind}_${calls.length}`, ...body });
  };
  const job = { id: "ij_1", status: "COMPLETED", datasource: { id: "src_1" } };
  const client = {
    workspaces: { create: (body: object) => made("workspaces", body) },
    dataSchemas: { create: (body: object) => made("dataSchemas", body) },
    ingestionJobs: {
      create: (_body: object, options?: { workspaceId?: string }) => {
        calls.push(`ingestionJobs.create${options?.workspaceId ?? ""}`);
        return Promise.resolve(job);
      },
      get: () => (calls.push("ingestionJobs.get"), Promise.resolve(job)),
    },
    trainingJobs: {
      create: (_body: object, options?: { workspaceId?: string }) => {
        calls.push(`trainingJobs.create ${options?.workspaceId}`);
        return Promise.reject(new Error("stop here"));
      },
    },
    datasources: {
      get: (
        id: string,
      ) => (calls.push(`datasources.get ${id}`), Promise.resolve({ id })),
    },
  } as unknown as BuilderClient;
  return { client, calls };
}

Deno.test("one-step builder: create() twice and await twice send one request", async () => {
  const { client, calls } = recordingClient();
  const lab = new WorkspaceBuilder(client, { name: "lab" });
  const first = lab.create();
  assert(lab.create() === first, "the same promise");
  const created = await first;
  assert((await lab) === created);
  assert((await lab) === created);
  assertEquals(calls, ["workspaces.create"]);
  // A new builder (with() or another call) is a new request.
  const other = await lab.with({ name: "lab-2" });
  assertEquals(other.name, "lab-2");
  assertEquals(calls, ["workspaces.create", "workspaces.create"]);
});

Deno.test("one-step builder: awaiting first, then create(), is still one request", async () => {
  const { client, calls } = recordingClient();
  const lab = new WorkspaceBuilder(client, { name: "lab" });
  const awaited = await lab;
  assert((await lab.create()) === awaited);
  assertEquals(calls.length, 1);
});

Deno.test("an invalid body rejects every time and nothing is sent", async () => {
  const { client, calls } = recordingClient();
  const blank = new WorkspaceBuilder(client, { name: "" });
  await assertRejects(() => blank.create(), ValidationError);
  await assertRejects(async () => await blank, ValidationError);
  const job = new IngestionJobBuilder(client, {
    configuration: "ic",
    storage: "sc",
    compute: "",
    path: "x.csv",
    datasourceName: "x",
  });
  const error = assertThrows(() => job.create(), ValidationError);
  assert(error.message.includes('compute_configuration_id (option "compute")'));
  await assertRejects(async () => await job, ValidationError);
  assertEquals(calls, []);
});

Deno.test("job builder: create() is the same Job every time; await waits for its result", async () => {
  const { client, calls } = recordingClient();
  const ingest = new IngestionJobBuilder(client, {
    configuration: { id: "ic_1" },
    storage: "sc_1",
    compute: "cc_1",
    path: "churn.csv",
    datasourceName: "churn",
    progress: false,
    poll: { initialDelay: 1, maxDelay: 1 },
  });
  const job = ingest.create();
  assert(ingest.create() === job, "the same Job");
  const datasource = await ingest;
  assertEquals(datasource.id, "src_1");
  assertEquals((await job).id, "src_1");
  assertEquals(calls.filter((c) => c.startsWith("ingestionJobs.create")), [
    "ingestionJobs.create",
  ]);
  // progress and poll steer the Job; they are not part of the body.
  assertEquals(Object.keys(ingest.body()).sort(), [
    "compute_configuration_id",
    "data_path",
    "data_processing_configuration_id",
    "datasource_name",
    "job_type",
    "name",
    "storage_connector_id",
  ]);
});

Deno.test("training job builder: the workspace travels as a request option, not in the body", async () => {
  const { client, calls } = recordingClient();
  const train = new TrainingJobBuilder(client, {
    dataset: "ds_1",
    configuration: "tc_1",
    compute: "cc_1",
    modelName: "churn",
    workspace: { id: "ws_7" },
    progress: false,
  });
  assert(!("workspace" in train.body()));
  await assertRejects(async () => await train, Error, "stop here");
  assertEquals(calls, ["trainingJobs.create ws_7"]);
});

Deno.test("schema builder: create() once per builder, and not awaitable", async () => {
  const { client, calls } = recordingClient();
  const draft = new SchemaBuilder(client, "s").feature("a", integer())
    .target("y");
  assert(!("then" in draft), "a draft is not thenable");
  const schema = await draft.create();
  assert((await draft.create()) === schema);
  assertEquals(calls, ["dataSchemas.create"]);
  // Each edit is a new builder, which sends its own request.
  await draft.feature("b", integer()).create();
  assertEquals(calls, ["dataSchemas.create", "dataSchemas.create"]);
  // Awaiting a draft instead of creating it gives the draft back, and the
  // compiler refuses it where a schema is expected: it has no id.
  const forgotten = await draft;
  new IngestionConfigurationBuilder(undefined, {
    name: "in",
    // @ts-expect-error a schema builder is not a schema: end it with .create()
    schema: forgotten,
  });
});
