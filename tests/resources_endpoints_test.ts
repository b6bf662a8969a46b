/**
 * Every endpoint of docs/api.md#endpoints (1 to 13) and every create, get, list
 * and delete docs/contract.md#paths adds: the method, path, headers and body each
 * resource method sends, and the typed value it returns. Answered in-process
 * by a fetch function that records each request.
 */
import { assert, assertEquals } from "@std/assert";
import { Client } from "../src/client.ts";
import { routes } from "../src/schemas/routes.ts";

const T = "2024-05-01T12:00:00.123456Z";
const ref = (id: string) => ({ id, name: id });
const owned = (id: string) => ({
  id,
  account: ref("acc_1"),
  created_at: T,
  created_by: ref("u_1"),
});
const job = (id: string) => ({
  ...owned(id),
  name: id,
  status: "STARTING",
  progress: 0,
  stage: "initializing",
  stage_progress: 0,
  maximum_runtime_seconds: 3600,
  job_type: "INITIAL",
  compute_configuration: ref("cc_1"),
  data_processing_configuration: ref("cfg_1"),
});

/** A valid answer item for each route group. */
const items: Record<string, Record<string, unknown>> = {
  storageConnectors: { ...owned("sc_1"), name: "s", bucket_name: "demo" },
  computeConfigurations: {
    ...owned("cc_1"),
    name: "cpu",
    machine_type: "ml.m5.large",
    compute_type: "PROCESSING",
  },
  dataSchemas: {
    ...owned("ds_1"),
    name: "churn",
    fields: [{
      id: "f_1",
      name: "tenure",
      data_type: { data_type: "NUMBER", format: "INT64" },
      designation: "FEATURE",
      semantic_type: "CONTINUOUS",
    }],
  },
  ingestionConfigurations: {
    ...owned("ic_1"),
    name: "ingest",
    data_schema: ref("ds_1"),
    observation_specification: { observation_type: "x" },
  },
  ingestionJobs: {
    ...job("ij_1"),
    storage_connector: ref("sc_1"),
    datasource: ref("src_1"),
    data_path: "wa_churn.csv",
  },
  onboardingConfigurations: {
    ...owned("oc_1"),
    name: "onboard",
    configuration_type: "INITIAL",
    prediction_type: "CLASSIFICATION",
    encoding_strategy: "STREAM",
    handle_unseen_categories: true,
    impute: false,
    one_hot_encoding_max_categories: 32,
    strip_categories: true,
    targets: ["churn"],
  },
  onboardingJobs: {
    ...job("oj_1"),
    datasource: ref("src_1"),
    dataset: ref("dset_1"),
  },
  workspaces: { ...owned("w_1"), name: "w" },
  trainingConfigurations: { id: "tc_1", name: "tc", learning_rate: 0.1 },
  trainingJobs: {
    ...job("tj_1"),
    dataset: ref("dset_1"),
    workspace: ref("w_1"),
    training_configuration: ref("tc_1"),
    model: ref("m_1"),
  },
  deploymentConfigurations: {
    ...owned("dc_1"),
    name: "serverless",
    deployment_type: "SERVERLESS",
    maximum_concurrency: 4,
    memory_size: 2048,
  },
  deployedModels: {
    ...owned("dm_1"),
    name: "live",
    status: "STARTING",
    model: ref("m_1"),
    deployment_configuration: ref("dc_1"),
    tags: [{ name: "demo" }],
  },
  datasources: { ...owned("src_1"), name: "src" },
  datasets: { ...owned("dset_1"), name: "dset" },
  models: { ...owned("m_1"), name: "model", features: ["tenure"] },
};

/** A valid create body for each creatable group. */
const bodies: Record<string, Record<string, unknown>> = {
  storageConnectors: { name: "s", bucket_name: "demo" },
  computeConfigurations: {
    name: "cpu",
    machine_type: "ml.m5.large",
    compute_type: "PROCESSING",
  },
  dataSchemas: {
    name: "churn",
    fields: [{
      name: "tenure",
      data_type: { data_type: "NUMBER", format: "INT64" },
      designation: "FEATURE",
      semantic_type: "CONTINUOUS",
    }],
  },
  ingestionConfigurations: { name: "ingest", data_schema_id: "ds_1" },
  ingestionJobs: {
    name: "ingest",
    compute_configuration_id: "cc_1",
    data_processing_configuration_id: "ic_1",
    storage_connector_id: "sc_1",
    data_path: "wa_churn.csv",
    datasource_name: "src",
  },
  onboardingConfigurations: { name: "onboard", targets: ["churn"] },
  onboardingJobs: {
    name: "onboard",
    compute_configuration_id: "cc_1",
    data_processing_configuration_id: "oc_1",
    datasource_id: "src_1",
    dataset_name: "dset",
  },
  workspaces: { name: "w" },
  trainingConfigurations: { name: "tc", learning_rate: 0.1 },
  trainingJobs: {
    name: "train",
    dataset_id: "dset_1",
    training_configuration_id: "tc_1",
    compute_configuration_id: "cc_2",
    model_name: "model",
  },
  deploymentConfigurations: { name: "serverless" },
  deployedModels: {
    name: "live",
    model_id: "m_1",
    deployment_configuration_id: "dc_1",
  },
};

interface Seen {
  method: string;
  path: string;
  search: string;
  headers: Headers;
  body: unknown;
}

/** A client whose fetch answers `answer` (status 200/201/204 as the method asks) and records. */
function recordingClient(answer: () => unknown, status = 200) {
  const seen: Seen[] = [];
  const client = new Client({
    baseUrl: "https://mlp.invalid/api/",
    clientId: "id",
    clientSecret: "s3cret",
    workspaceId: "w_1",
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      const text = await request.text();
      if (url.pathname === "/api/oauth/token") {
        return Response.json({
          access_token: "tok",
          token_type: "Bearer",
          expires_in: 3600,
        });
      }
      seen.push({
        method: request.method,
        path: url.pathname.slice("/api".length),
        search: url.search,
        headers: request.headers,
        body: text ? JSON.parse(text) : undefined,
      });
      if (request.method === "DELETE") {
        return new Response(null, { status: 204 });
      }
      return Response.json(answer(), { status });
    },
  });
  return { client, seen };
}

const page = (data: unknown[]) => ({
  data,
  pagination: {
    total_items: data.length,
    items_per_page: 10,
    current_page: 1,
    total_pages: 1,
  },
});

type AnyCollection = {
  create?: (body: unknown) => Promise<{ id: string }>;
  get: (id: string) => Promise<{ id: string }>;
  list: () => Promise<{ data: { id: string }[] }>;
  delete: (id: string) => Promise<void>;
};

for (const group of Object.keys(items)) {
  Deno.test(`resources: ${group} create/get/list/delete`, async () => {
    const item = items[group];
    const table = routes[group as keyof typeof routes] as Record<
      string,
      { path: string }
    >;
    const collection =
      (new Client({ baseUrl: "https://x.invalid" }) as unknown as Record<
        string,
        AnyCollection
      >)[group];
    assert(collection, `client.${group} exists`);

    const { client, seen } = recordingClient(() => item, 201);
    const resource = (client as unknown as Record<string, AnyCollection>)[
      group
    ];
    if (bodies[group]) {
      const created = await resource.create!(bodies[group]);
      assertEquals(created.id, item.id);
      assertEquals(seen.at(-1)!.method, "POST");
      assertEquals(seen.at(-1)!.path, table.create.path);
      assertEquals(
        seen.at(-1)!.headers.get("content-type"),
        "application/json",
      );
      // Every field given is sent; defaults may be added, never dropped.
      for (const [key, value] of Object.entries(bodies[group])) {
        assertEquals(
          (seen.at(-1)!.body as Record<string, unknown>)[key],
          value,
        );
      }
    } else {
      assertEquals(resource.create, undefined);
    }

    const got = await resource.get("x/1");
    assertEquals(got.id, item.id);
    assertEquals(seen.at(-1)!.method, "GET");
    assertEquals(
      seen.at(-1)!.path,
      table.get.path.replace("{id}", "x%2F1"),
    );

    const listing = recordingClient(() => page([item]));
    const listed = await (listing.client as unknown as Record<
      string,
      AnyCollection
    >)[group].list();
    assertEquals(listed.data[0].id, item.id);
    assertEquals(listing.seen[0].path, table.list.path);
    assertEquals(listing.seen[0].search, "?page=1&items_per_page=10");

    assertEquals(await resource.delete("x1"), undefined);
    assertEquals(seen.at(-1)!.method, "DELETE");
    assertEquals(seen.at(-1)!.path, table.delete.path.replace("{id}", "x1"));
    for (const s of seen) {
      assertEquals(s.headers.get("authorization"), "Bearer tok");
    }
  });
}

Deno.test("endpoints 2 and 3: accounts list and get (list envelope)", async () => {
  const account = {
    id: "acc_1",
    name: "Demo",
    status: "ACTIVE",
    created_at: T,
    updated_at: null,
  };
  const { client, seen } = recordingClient(() => page([account]));
  const listed = await client.accounts.list({ page: 1, items_per_page: 5 });
  assertEquals(listed.data[0].status, "ACTIVE");
  assertEquals(seen[0].path, "/accounts");
  assertEquals(seen[0].search, "?page=1&items_per_page=5");
  const one = await client.accounts.get("acc_1");
  assertEquals(one.name, "Demo");
  assertEquals(seen[1].path, "/accounts/acc_1");
  const all = [];
  for await (const a of client.accounts.iterate()) all.push(a.id);
  assertEquals(all, ["acc_1"]);
});

Deno.test("endpoint 9: deleting an onboarding configuration accepts 204 and 200 {}", async () => {
  for (const body of [null, "{}"]) {
    const client = new Client({
      baseUrl: "https://mlp.invalid",
      clientId: "id",
      clientSecret: "s",
      fetch: (input) => {
        const url = new URL(new Request(input).url);
        return Promise.resolve(
          url.pathname === "/oauth/token"
            ? Response.json({
              access_token: "t",
              token_type: "Bearer",
              expires_in: 60,
            })
            // 200 {} stands for servers that send the empty object docs/api.md#endpoints shows.
            : new Response(body, { status: body ? 200 : 204 }),
        );
      },
    });
    assertEquals(
      await client.onboardingConfigurations.delete("oc_1"),
      undefined,
    );
  }
});

Deno.test("endpoint 10: training job with X-Active-Workspace", async () => {
  const { client, seen } = recordingClient(() => items.trainingJobs, 201);
  const created = await client.trainingJobs.create(
    bodies.trainingJobs as never,
    { workspaceId: "w_9" },
  );
  assertEquals(created.model.id, "m_1");
  assertEquals(seen[0].headers.get("x-active-workspace"), "w_9");
  assertEquals(
    (seen[0].body as { managed_spot_training: boolean })
      .managed_spot_training,
    false,
  );
});

Deno.test("endpoint 13: views with the cache directives, split table back", async () => {
  const table = {
    columns: ["prediction.churn", "probability.churn.Yes"],
    index: [0, 1],
    data: [["No", 0.2], ["Yes", 0.7]],
  };
  const { client, seen } = recordingClient(() => table);
  const result = await client.deployedModels.views("dm_1", {
    query: { tenure: [1, 34] },
  });
  assertEquals(result, table);
  assertEquals(seen[0].method, "POST");
  assertEquals(seen[0].path, "/deployed-models/dm_1/views");
  assertEquals(
    seen[0].headers.get("x-views-cache-control"),
    "no-cache, no-store",
  );
  assertEquals(seen[0].body, {
    data: [{ view_type: "RESULTS" }],
    query: { tenure: [1, 34] },
    targets: {},
  });
});

Deno.test("models: global explanation", async () => {
  const explanation = {
    target: "churn",
    classes: ["No", "Yes"],
    score_classes: ["Yes"],
    intercept: [-1.2],
    terms: [{
      name: "tenure",
      features: ["tenure"],
      importance: 0.4,
      labels: [["0-10", "10-20"]],
      scores: [[0.5, -0.5]],
    }],
  };
  const { client, seen } = recordingClient(() => explanation);
  const got = await client.models.explanation("m_1");
  assertEquals(got.terms[0].importance, 0.4);
  assertEquals(seen[0].path, "/models/m_1/explanation");
});

Deno.test("every route of the table is reachable from the client", () => {
  const client = new Client({
    baseUrl: "https://x.invalid",
  }) as unknown as Record<string, Record<string, unknown>>;
  for (const [group, ops] of Object.entries(routes)) {
    if (group === "auth") continue; // the token call is the transport's
    for (const op of Object.keys(ops)) {
      assertEquals(
        typeof client[group][op],
        "function",
        `client.${group}.${op}`,
      );
    }
  }
});
