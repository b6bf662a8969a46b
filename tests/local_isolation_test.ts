/**
 * Two accounts proving isolation, bucket path escapes refused, and data
 * problems ending jobs FAILED with messages naming the column and the line.
 */
import { assert, assertEquals, assertMatch, assertRejects } from "@std/assert";
import { NotFoundError, ValidationError } from "../src/http/errors.ts";
import {
  clientFor,
  ended,
  ingestPenguins,
  PENGUIN_FIELDS,
  raw,
  setup,
  tokenFor,
  until,
} from "./_helpers/local_setup.ts";

Deno.test("local isolation: one account's credentials never see or touch another's resources (404)", async () => {
  const { platform } = await setup({
    accounts: [
      {
        name: "A",
        credentials: [{ clientId: "a", clientSecret: "secret-a", user: "Ann" }],
      },
      {
        name: "B",
        credentials: [{ clientId: "b", clientSecret: "secret-b", user: "Bob" }],
      },
    ],
  });
  try {
    const a = clientFor(platform, { clientId: "a", clientSecret: "secret-a" });
    const b = clientFor(platform, { clientId: "b", clientSecret: "secret-b" });
    const ws = await a.workspaces.create({ name: "shared-name" });
    assertEquals(ws.created_by.name, "Ann");
    await assertRejects(() => b.workspaces.get(ws.id), NotFoundError);
    await assertRejects(() => b.workspaces.delete(ws.id), NotFoundError);
    assertEquals((await b.workspaces.list()).data, []);
    // Names are unique per account only.
    assertEquals(
      (await b.workspaces.create({ name: "shared-name" })).account.name,
      "B",
    );
    const bAccounts = await b.accounts.list();
    assertEquals(bAccounts.data.map((x) => x.name), ["B"]);
    // A's workspace as B's active workspace is unknown to B.
    const token = await tokenFor(platform, {
      clientId: "b",
      clientSecret: "secret-b",
    });
    const res = await raw(platform, "POST", "/training-jobs", {
      token,
      headers: { "X-Active-Workspace": ws.id },
      body: {
        name: "t",
        dataset_id: "x",
        training_configuration_id: "y",
        compute_configuration_id: "z",
        model_name: "m",
      },
    });
    assertEquals(res.status, 404);
    assertMatch(String(res.body.message), /X-Active-Workspace/);
    assertEquals((await a.workspaces.get(ws.id)).id, ws.id);
  } finally {
    await platform.close();
  }
});

Deno.test("local buckets: paths that leave the bucket are refused (.., absolute, symlink out)", async () => {
  const root = await Deno.makeTempDir();
  const bucket = `${root}/bucket`;
  await Deno.mkdir(`${bucket}/sub`, { recursive: true });
  await Deno.writeTextFile(`${root}/secret.csv`, "species\nx\n");
  await Deno.copyFile(
    new URL("../datasets/penguins.csv", import.meta.url),
    `${bucket}/sub/penguins.csv`,
  );
  await Deno.symlink(`${root}/secret.csv`, `${bucket}/out.csv`);
  await Deno.symlink(`${bucket}/sub/penguins.csv`, `${bucket}/in.csv`);
  const { platform, client } = await setup({ buckets: { demo: bucket } });
  try {
    for (
      const path of [
        "../secret.csv",
        "sub/../../secret.csv",
        `${root}/secret.csv`,
        "out.csv",
        "missing.csv",
        "sub",
      ]
    ) {
      const e = await assertRejects(
        () => ingestPenguins(client, path.replace(/\W/g, "_"), path),
        ValidationError,
      );
      assertEquals(e.issues[0].path, "data_path", path);
    }
    const inside = await ingestPenguins(client, "in", "in.csv");
    assertEquals(
      inside.done.status,
      "COMPLETED",
      "a symlink inside the bucket is fine",
    );
    const nested = await ingestPenguins(
      client,
      "nested",
      "sub/../sub/penguins.csv",
    );
    assertEquals(nested.done.status, "COMPLETED");
  } finally {
    await platform.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("local ingestion: a missing column or a wrong value fails the job naming column and line", async () => {
  const bucket = await Deno.makeTempDir();
  const text = await Deno.readTextFile(
    new URL("../datasets/penguins.csv", import.meta.url),
  );
  const lines = text.trimEnd().split("\n");
  await Deno.writeTextFile(
    `${bucket}/no_sex.csv`,
    lines.map((l) => l.split(",").slice(0, 6).join(",")).join("\n"),
  );
  lines[5] = lines[5].replace(",181,", ",lots,").replace(
    /,(\d+),(\d+),"/,
    ',lots,$2,"',
  );
  await Deno.writeTextFile(`${bucket}/bad_value.csv`, lines.join("\n"));
  const { platform, client } = await setup({ buckets: { demo: bucket } });
  try {
    const missing = await ingestPenguins(client, "1", "no_sex.csv");
    assertEquals(missing.done.status, "FAILED");
    assertMatch(String(missing.done.message), /'sex'/);
    assertEquals(
      (await client.datasources.get(missing.done.datasource.id)).status,
      "FAILED",
    );
    const bad = await ingestPenguins(client, "2", "bad_value.csv");
    assertEquals(bad.done.status, "FAILED");
    assertMatch(String(bad.done.message), /'flipper_length_mm'/);
    assertMatch(String(bad.done.message), /line 6/);
  } finally {
    await platform.close();
    await Deno.remove(bucket, { recursive: true });
  }
});

Deno.test("local onboarding: impossible configurations are refused at create, data problems fail the job", async () => {
  const bucket = await Deno.makeTempDir();
  const text = await Deno.readTextFile(
    new URL("../datasets/penguins.csv", import.meta.url),
  );
  // Same file with an empty species column.
  await Deno.writeTextFile(
    `${bucket}/no_species.csv`,
    text.replace(/^"(Adelie|Chinstrap|Gentoo)"/gm, ""),
  );
  await Deno.copyFile(
    new URL("../datasets/penguins.csv", import.meta.url),
    `${bucket}/penguins.csv`,
  );
  const { platform, client } = await setup({ buckets: { demo: bucket } });
  try {
    const good = await ingestPenguins(client);
    const empty = await ingestPenguins(client, "-empty", "no_species.csv");
    assertEquals(empty.done.status, "COMPLETED", String(empty.done.message));
    const token = await tokenFor(platform);
    const emptyTargets = await raw(
      platform,
      "POST",
      "/data-processing-onboarding-configurations",
      { token, body: { name: "none", targets: [] } },
    );
    assertEquals(emptyTargets.status, 400);
    assertEquals(emptyTargets.body.errors?.[0].path, "targets");
    const job = (config: string, datasource: string, name: string) =>
      client.onboardingJobs.create({
        name,
        compute_configuration_id: good.cpu.id,
        data_processing_configuration_id: config,
        datasource_id: datasource,
        dataset_name: name,
      });
    const unknown = await client.onboardingConfigurations.create({
      name: "unknown",
      targets: ["wingspan"],
    });
    const e1 = await assertRejects(
      () => job(unknown.id, good.done.datasource.id, "j1"),
      ValidationError,
    );
    assertMatch(e1.message, /wingspan/);
    const numeric = await client.onboardingConfigurations.create({
      name: "numeric",
      targets: ["bill_length_mm"],
    });
    const e2 = await assertRejects(
      () => job(numeric.id, good.done.datasource.id, "j2"),
      ValidationError,
    );
    assertMatch(e2.message, /CATEGORICAL/);
    const species = await client.onboardingConfigurations.create({
      name: "species",
      targets: ["species"],
    });
    const failing = await job(species.id, empty.done.datasource.id, "j3");
    const done = await until(
      () => client.onboardingJobs.get(failing.id),
      ended,
    );
    assertEquals(done.status, "FAILED");
    assertMatch(String(done.message), /'species'/);
    assertEquals(PENGUIN_FIELDS[0].name, "species");
    assert((await client.datasets.get(done.dataset.id)).status === "FAILED");
  } finally {
    await platform.close();
    await Deno.remove(bucket, { recursive: true });
  }
});
