/**
 * Every builder refuses an invalid body with a ValidationError naming the
 * field, and sends nothing.
 */
import { assert, assertEquals, assertRejects, assertThrows } from "@std/assert";
import { ValidationError } from "../src/http/errors.ts";
import { Deployment } from "../src/builders/deployment.ts";
import { offlinePlatform } from "./_helpers/offline.ts";

const { ml, requests } = offlinePlatform();

function refused(run: () => unknown, path: string, text?: string) {
  const before = requests();
  const error = assertThrows(run, ValidationError);
  assert(
    error.issues.some((i) => i.path.startsWith(path)),
    `expected an issue at ${path}: ${error.message}`,
  );
  if (text) assert(error.message.includes(text), error.message);
  assertEquals(requests(), before, "nothing is sent");
  return error;
}

Deno.test("schema: duplicate field name", () => {
  refused(
    () => ml.schema("s").feature("a", ml.integer()).feature("a", ml.float()),
    "fields.1.name",
    'duplicate field name "a"',
  );
});

Deno.test("schema: no target, no feature, empty name", () => {
  refused(
    () => ml.schema("s").feature("a", ml.integer()).body(),
    "fields",
    "no TARGET",
  );
  refused(() => ml.schema("s").target("y").body(), "fields", "no FEATURE");
  refused(
    () => ml.schema(" ").feature("a", ml.integer()).target("y").body(),
    "name",
  );
});

Deno.test("schema: a STRING column cannot be CONTINUOUS", () => {
  refused(
    () =>
      ml.schema("s").feature("a", {
        data_type: { data_type: "STRING", format: null },
        semantic_type: "CONTINUOUS",
      }).target("y").body(),
    "fields.0.semantic_type",
  );
});

Deno.test("schema: create() rejects before sending", async () => {
  await assertRejects(
    () => ml.schema("s").target("y").create(),
    ValidationError,
  );
  assertEquals(requests(), 0);
});

Deno.test("storage connector and compute: required fields", () => {
  refused(
    () => ml.storageConnector("").body(),
    "bucket_name",
    'option "bucket"',
  );
  refused(
    () => ml.compute("cpu", { machineType: " " }).body(),
    "machine_type",
    'option "machineType"',
  );
  refused(
    // deno-lint-ignore no-explicit-any
    () => ml.compute("cpu", { computeType: "GPU" as any }).body(),
    "compute_type",
  );
  refused(() => ml.workspace("").body(), "name");
});

Deno.test("ingestion configuration and job: ids and path", () => {
  refused(
    () => ml.ingestionConfiguration("in", "").body(),
    "data_schema_id",
    'option "schema"',
  );
  refused(
    () =>
      ml.ingestionJob({
        configuration: "ic",
        storage: "sc",
        compute: "cc",
        path: "",
        datasourceName: "d",
      }).body(),
    "data_path",
    'option "path"',
  );
});

Deno.test("onboarding configuration: targets, bounds, and targets missing from the schema", () => {
  refused(
    () => ml.onboardingConfiguration("o", { targets: [] }).body(),
    "targets",
    "at least one target",
  );
  refused(
    () =>
      ml.onboardingConfiguration("o", {
        targets: ["y"],
        oneHotEncodingMaxCategories: 0,
      }).body(),
    "one_hot_encoding_max_categories",
    'option "oneHotEncodingMaxCategories"',
  );
  refused(
    () =>
      ml.onboardingConfiguration("o", { targets: ["y"], shards: "big" }).body(),
    "shards",
  );
  refused(
    () =>
      ml.onboardingConfiguration("o", { targets: ["churm"] })
        .with({ schemaTargets: ["churn"] }).body(),
    "targets.0",
    '"churm" is not a target of the data schema',
  );
  refused(
    () =>
      ml.onboardingJob({
        datasource: "",
        configuration: "oc",
        compute: "cc",
        datasetName: "d",
      }).body(),
    "datasource_id",
  );
});

Deno.test("training configuration: training_size + validation_size > 1, and bounds", () => {
  refused(
    () =>
      ml.trainingConfiguration("t", { trainingSize: 0.9, validationSize: 0.2 })
        .body(),
    "validation_size",
    "training_size + validation_size must be at most 1",
  );
  refused(
    () => ml.trainingConfiguration("t", { learningRate: 0 }).body(),
    "learning_rate",
    'option "learningRate"',
  );
  refused(() => ml.trainingConfiguration("t", { bins: 1 }).body(), "bins");
  refused(
    () => ml.trainingConfiguration("t", { maxInteractionDegree: 3 }).body(),
    "max_interaction_degree",
  );
  refused(
    () => ml.trainingConfiguration("t", { maxRounds: 1.5 }).body(),
    "max_rounds",
  );
  // Every field is reachable and reaches the body in snake_case.
  const body = ml.trainingConfiguration("t", {
    binningStrategy: "UNIFORM",
    l1Ratio: 0.5,
    randomSeed: 7,
    modelCapabilities: { hasCausal: false },
  }).body();
  assertEquals([body.binning_strategy, body.l1_ratio, body.random_seed], [
    "UNIFORM",
    0.5,
    7,
  ]);
  assertEquals(body.model_capabilities, {
    has_causal: false,
    estimators_data: undefined,
  });
});

Deno.test("training job: model name and ids", () => {
  refused(
    () =>
      ml.trainingJob({
        dataset: "ds",
        configuration: "tc",
        compute: "cc",
        modelName: "",
      }).body(),
    "model_name",
    'option "modelName"',
  );
});

Deno.test("deployment configuration: a negative maximum_concurrency, too little memory", () => {
  refused(
    () => ml.deploymentConfiguration("d", { maximumConcurrency: -1 }).body(),
    "maximum_concurrency",
    'option "maximumConcurrency"',
  );
  refused(
    () => ml.deploymentConfiguration("d", { memorySize: 64 }).body(),
    "memory_size",
  );
  refused(
    () => ml.deployedModel({ model: "m", configuration: "" }).body(),
    "name",
  );
});

Deno.test("views: ragged query, unknown feature, empty query", () => {
  const live = new Deployment(undefined, {
    id: "dm",
    name: "dm",
    status: "RUNNING",
    model: { id: "m" },
    deployment_configuration: { id: "dc" },
    account: { id: "a" },
    created_at: "",
    created_by: { id: "u" },
    tags: [],
  }, { features: ["a", "b"], targets: ["y"] });
  refused(() => live.query({ a: [1, 2], b: [1] }).body(), "query");
  refused(
    () => ml.views(live, { a: [1], c: [2] } as never).body(),
    "query.c",
    "not a feature of the model",
  );
  refused(() => live.query({}).body(), "query", "at least one feature");
  // A misspelt feature is told the feature it most likely means.
  const churn = new Deployment(undefined, {
    ...live.toJSON(),
  }, { features: ["tenure", "monthly_charges"], targets: ["churn"] });
  refused(
    () => churn.query({ tenure: [1], montly_charges: [2] } as never).body(),
    "query.montly_charges",
    'did you mean "monthly_charges"?',
  );
});

Deno.test("awaiting a one-step builder rejects without sending", async () => {
  await assertRejects(
    async () =>
      await ml.deploymentConfiguration("d", { maximumConcurrency: 0 }),
    ValidationError,
  );
  assertEquals(requests(), 0);
});

Deno.test("quickstart: options of the wrong shape are refused naming the field, before anything is read or sent", async () => {
  // quickstart("data.csv", {...}) and a missing path were a TypeError
  // about `split` of undefined.
  const cases: [unknown, string][] = [
    ["data.csv", "options"],
    [null, "options"],
    [{ bucket: "b", target: "y" }, "path"],
    [{ bucket: "b", path: "t.csv" }, "target"],
    [{ bucket: "b", path: " ", target: "y" }, "path"],
    [{ bucket: 7, path: "t.csv", target: "y" }, "bucket"],
    [{ bucket: "b", path: "t.csv", target: "y", name: "" }, "name"],
  ];
  for (const [options, path] of cases) {
    const error = await assertRejects(
      () => ml.quickstart(options as never),
      ValidationError,
    );
    assertEquals(error.issues.map((i) => i.path), [path], error.message);
  }
  assertEquals(requests(), 0);
});

Deno.test("one-call steps: a missing or wrong argument is refused naming it, before anything is made or sent", async () => {
  // deploy(undefined) was a TypeError about `name`, ingest() without
  // options one about `progress`, onboard(undefined) a TypeError about a
  // path parameter.
  const cases: [string, () => PromiseLike<unknown>, string[]][] = [
    ["deploy(undefined)", () => ml.deploy(undefined as never), ["model"]],
    ["deploy(null)", () => ml.deploy(null as never), ["model"]],
    ["deploy({})", () => ml.deploy({} as never), ["model"]],
    ["train(undefined)", () => ml.train(undefined as never), ["dataset"]],
    ["train('')", () => ml.train(""), ["dataset"]],
    ["onboard(undefined)", () => ml.onboard(undefined as never), [
      "datasource",
    ]],
    [
      "ingest(undefined, undefined)",
      () => ml.ingest(undefined as never, undefined as never),
      ["path", "options"],
    ],
    ["ingest('t.csv', {})", () => ml.ingest("t.csv", {} as never), [
      "storage",
    ]],
    [
      "ingest('t.csv', { storage })",
      () => ml.ingest("t.csv", { storage: "sc_1" } as never),
      ["schema"],
    ],
    ["ingest({ path })", () =>
      ml.ingest({ path: "t.csv" } as never, {
        storage: "sc_1",
        schema: "ds_1",
      }), ["path"]],
  ];
  for (const [call, run, paths] of cases) {
    const error = await assertRejects(
      () => Promise.resolve(run()),
      ValidationError,
    );
    assertEquals(
      error.issues.map((i) => i.path),
      paths,
      `${call}: ${error.message}`,
    );
  }
  assertEquals(requests(), 0);
});

Deno.test("list: a key that is no list parameter is refused naming it, a request option told to go second, before anything is sent", async () => {
  // list({ signal }) never aborted and list({ itemsPerPage: 5 }) gave 10 a
  // page: unknown keys were dropped without a word.
  const aborted = AbortSignal.abort();
  const cases: [Record<string, unknown>, string, RegExp][] = [
    [
      { signal: aborted },
      "signal",
      /request option: pass it as the second argument, list\(\{\}, \{ signal \}\)/,
    ],
    [{ timeout: 5 }, "timeout", /second argument/],
    [{ itemsPerPage: 5 }, "itemsPerPage", /did you mean "items_per_page"/],
    [
      { page: 2, sort: "name" },
      "sort",
      /not a list parameter \(page, items_per_page\)/,
    ],
  ];
  for (const [query, path, said] of cases) {
    for (
      const list of [
        () => ml.workspaces.list(query as never),
        () => ml.accounts.list(query as never),
        () =>
          ml.workspaces.iterate(query as never)[Symbol.asyncIterator]().next(),
      ]
    ) {
      const error = await assertRejects(list, ValidationError);
      assertEquals(error.issues.map((i) => i.path), [path]);
      assert(said.test(error.message), error.message);
    }
  }
  assertEquals(requests(), 0);
});
