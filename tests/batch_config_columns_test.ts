/**
 * Column names a configuration lists are read as the input's header names
 * are: trimmed. A views batch configuration's `keep_columns: [" id "]` was
 * taken at create and then failed every job (the header's `id` never
 * matched `" id "`); now it is stored as `id`, and a name no column can have
 * (empty or only spaces), a name listed twice once trimmed, or a kept column
 * that is also the error column is a 400 at create naming the field, and a
 * `ValidationError` in the SDK before anything is sent. Onboarding targets
 * follow the same rule.
 */
import {
  assert,
  assertEquals,
  assertMatch,
  assertRejects,
  assertThrows,
} from "@std/assert";
import { ValidationError } from "../src/http/errors.ts";
import { Deployment } from "../src/builders/deployment.ts";
import { offlinePlatform } from "./_helpers/offline.ts";
import { ViewsBatchConfigurationCreateSchema } from "../src/schemas/batch.ts";
import { OnboardingConfigurationCreateSchema } from "../src/schemas/onboarding.ts";
import { openSqliteStore } from "../src/local/store/sqlite_store.ts";
import { local } from "../local.ts";
import { batchFixture, churnCsv, churnRows } from "./_helpers/batch.ts";
import { raw, tokenFor } from "./_helpers/local_setup.ts";

/** The issues of a refused parse, as `path: message` lines. */
function issuesOf(result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}): string[] {
  assert(!result.success, "expected a refusal");
  return result.error!.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
}

Deno.test("batch configuration schema: kept and error column names are trimmed; blank, repeated or clashing names are refused, naming the field", () => {
  const parse = (patch: Record<string, unknown>) =>
    ViewsBatchConfigurationCreateSchema.safeParse({ name: "n", ...patch });
  const trimmed = parse({
    keep_columns: [" id ", "region\t"],
    on_error: "NULL_PREDICTION",
    error_column: " why ",
  });
  assert(trimmed.success, JSON.stringify(trimmed.error?.issues));
  assertEquals(trimmed.data.keep_columns, ["id", "region"]);
  assertEquals(trimmed.data.error_column, "why");

  for (const blank of ["", "   ", "\t"]) {
    const [issue] = issuesOf(parse({ keep_columns: ["id", blank] }));
    assertMatch(issue, /^keep_columns\.1: must name a column/);
  }
  const [twice] = issuesOf(parse({ keep_columns: ["id", " id"] }));
  assertMatch(twice, /^keep_columns\.1: "id" is listed twice/);
  const [error] = issuesOf(parse({ error_column: "  " }));
  assertMatch(error, /^error_column: must name a column/);
  // The error column comes after the kept ones: one name for both would
  // give the output two columns of that name, so every job was refused.
  const [clash] = issuesOf(
    parse({ keep_columns: ["id", "error"], on_error: "NULL_PREDICTION" }),
  );
  assertMatch(clash, /^keep_columns\.1: "error" is also the error_column/);
  const [spaced] = issuesOf(parse({
    keep_columns: ["why "],
    on_error: "NULL_PREDICTION",
    error_column: " why",
  }));
  assertMatch(spaced, /^keep_columns\.0: "why" is also the error_column/);
  // Without NULL_PREDICTION no error column is written: no clash.
  assert(parse({ keep_columns: ["error"] }).success);
});

Deno.test("onboarding configuration schema: targets are trimmed; blank or repeated targets are refused", () => {
  const parse = (targets: unknown) =>
    OnboardingConfigurationCreateSchema.safeParse({ name: "o", targets });
  assertEquals(parse([" churn "]).data?.targets, ["churn"]);
  assertMatch(issuesOf(parse(["  "]))[0], /^targets\.0: must name a column/);
  assertMatch(
    issuesOf(parse(["churn", "churn "]))[0],
    /^targets\.1: "churn" is listed twice \(names are trimmed\): name each target once/,
  );
  assertMatch(issuesOf(parse([]))[0], /name at least one target/);
});

Deno.test("SDK builders: a blank or repeated kept column or target is a ValidationError naming it, and nothing is sent", async () => {
  const { ml, requests } = offlinePlatform();
  assertEquals(
    ml.viewsBatchConfiguration("c", { keep: [" id "] }).body().keep_columns,
    ["id"],
  );
  const blank = assertThrows(
    () => ml.viewsBatchConfiguration("c", { keep: ["id", "  "] }).body(),
    ValidationError,
  );
  assertEquals(blank.issues[0].path, 'keep_columns.1 (option "keep")');
  assertMatch(blank.issues[0].message, /must name a column/);
  await assertRejects(
    () => ml.viewsBatchConfiguration("c", { keep: ["id", "id "] }).create(),
    ValidationError,
    "listed twice",
  );
  const deployment = new Deployment(ml as never, {
    id: "dm",
    name: "dm",
    status: "RUNNING",
    model: { id: "m" },
    deployment_configuration: { id: "dc" },
    account: { id: "a" },
    created_at: "",
    created_by: { id: "u" },
    tags: [],
  });
  const job = deployment.batch({
    bucket: "b",
    path: "in.csv",
    output: "out.csv",
    keep: [" "],
  });
  const refused = await assertRejects(() => job, ValidationError);
  assertMatch(refused.issues[0].path, /^keep_columns\.0/);
  const targets = assertThrows(
    () => ml.onboardingConfiguration("o", { targets: ["  "] }).body(),
    ValidationError,
  );
  assertMatch(targets.issues[0].path, /^targets\.0/);
  assertEquals(requests(), 0, "nothing is sent");
});

Deno.test("local platform: a kept column named with spaces is the input's column, blank ones are a 400 at create, and a configuration stored before still runs", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "batch_columns_" });
  const fixture = await batchFixture({ dataDir });
  const { deployment, dir } = fixture;
  let ml = fixture.ml;
  try {
    await Deno.writeTextFile(`${dir}/in.csv`, churnCsv(churnRows(30, 3)));
    const storage = await ml.storageConnectors.create({
      name: "b",
      bucket_name: "b",
    });
    const cpu = await ml.computeConfigurations.create({
      name: "cpu",
      machine_type: "m5",
      compute_type: "PROCESSING",
    });
    let n = 0;
    const run = async (configuration: string) => {
      const job = await ml.viewsBatchJobs.create({
        name: `job-${++n}`,
        deployed_model_id: deployment.id,
        views_batch_configuration_id: configuration,
        storage_connector_id: storage.id,
        compute_configuration_id: cpu.id,
        data_path: "in.csv",
        output_path: `out-${n}.csv`,
        views_batch_name: `batch-${n}`,
      });
      for (;;) {
        const now = await ml.viewsBatchJobs.get(job.id);
        if (now.status !== "STARTING" && now.status !== "RUNNING") return now;
        await new Promise((r) => setTimeout(r, 10));
      }
    };

    // Over HTTP: the names no column can have are refused at create,
    // naming the field, and nothing is stored.
    const token = await tokenFor(ml.platform);
    for (
      const [keep, path] of [
        [["  "], "keep_columns.0"],
        [["id", " id "], "keep_columns.1"],
      ] as const
    ) {
      const res = await raw(
        ml.platform,
        "POST",
        "/views-batch-configurations",
        {
          token,
          body: { name: "refused", keep_columns: keep },
        },
      );
      assertEquals(res.status, 400, JSON.stringify(keep));
      assertEquals(res.body.error_code, "VALIDATION_ERROR");
      assertEquals(res.body.errors?.[0].path, path, JSON.stringify(res.body));
    }
    assertEquals(
      (await ml.viewsBatchConfigurations.list()).data.map((c) => c.name),
      [],
    );

    // " id " is the input's column id: stored trimmed, and the job runs.
    const spaced = await raw(
      ml.platform,
      "POST",
      "/views-batch-configurations",
      { token, body: { name: "spaced", keep_columns: [" id "] } },
    );
    assertEquals(spaced.status, 201);
    assertEquals(spaced.body.keep_columns, ["id"]);
    const done = await run(String(spaced.body.id));
    assertEquals(done.status, "COMPLETED", String(done.message));
    const batch = await ml.viewsBatches.get(done.views_batch.id);
    assertEquals(batch.columns[0], "id");
    const page = await ml.viewsBatches.results(batch.id);
    assertEquals(page.data[0][0], "c000000");

    // A configuration stored before the create trimmed its names.
    const old = await ml.viewsBatchConfigurations.create({
      name: "old",
      keep_columns: ["id"],
    });
    await ml.close();
    const store = await openSqliteStore(dataDir);
    const record = store.get("viewsBatchConfigurations", old.id)!;
    record.body.keep_columns = [" id "];
    store.put(record);
    store.close();
    ml = await local({ dataDir, buckets: { b: dir }, progress: false });
    for (;;) {
      const dm = await ml.deployedModels.get(deployment.id);
      if (dm.status === "RUNNING") break;
      assertEquals(dm.status, "STARTING");
      await new Promise((r) => setTimeout(r, 10));
    }
    const again = await run(old.id);
    assertEquals(again.status, "COMPLETED", String(again.message));
    assertEquals(
      (await ml.viewsBatches.get(again.views_batch.id)).columns[0],
      "id",
    );
  } finally {
    await ml.close();
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(dataDir, { recursive: true });
  }
});
