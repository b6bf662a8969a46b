/**
 * Views on the local platform: 409 until RUNNING, 400 naming the column, 202
 * + Location for large queries (followed by the client), and 429 with
 * Retry-After beyond maximum_concurrency plus its queue.
 */
import { assert, assertEquals, assertMatch, assertRejects } from "@std/assert";
import { ConflictError, ValidationError } from "../src/http/errors.ts";
import {
  deployPenguins,
  penguinQuery,
  raw,
  setup,
  tokenFor,
  untilRunning,
} from "./_helpers/local_setup.ts";

Deno.test("local views: 409 before RUNNING, 400 naming the column, 202 + Location for large queries", async () => {
  // The deployment stays STARTING until the test lets it load.
  let start!: () => void;
  const started = new Promise<void>((resolve) => (start = resolve));
  const { platform, client } = await setup({
    viewsAsyncRows: 50,
    deploymentGate: () => started,
  });
  try {
    const { dm } = await deployPenguins(client);
    const early = await assertRejects(
      () => client.deployedModels.views(dm.id, { query: penguinQuery(1) }),
      ConflictError,
    );
    assertMatch(early.message, /RUNNING/);
    assertEquals((await client.deployedModels.get(dm.id)).status, "STARTING");
    start();
    await untilRunning(client, dm.id);
    const unknown = await assertRejects(
      () =>
        client.deployedModels.views(dm.id, {
          query: { ...penguinQuery(2), wingspan: [1, 2] },
        }),
      ValidationError,
    );
    assertEquals(unknown.issues[0].path, "query.wingspan");
    const badClass = await assertRejects(
      () =>
        client.deployedModels.views(dm.id, {
          query: penguinQuery(2),
          targets: { species: "Emperor" },
        }),
      ValidationError,
    );
    assertEquals(badClass.issues[0].path, "targets.species");
    const token = await tokenFor(platform);
    const ragged = await raw(
      platform,
      "POST",
      `/deployed-models/${dm.id}/views`,
      {
        token,
        body: { query: { island: ["Dream"], sex: ["male", "female"] } },
      },
    );
    assertEquals(ragged.status, 400);
    assertEquals(ragged.body.errors?.[0].path, "query.sex");
    const wrongType = await raw(
      platform,
      "POST",
      `/deployed-models/${dm.id}/views`,
      {
        token,
        body: { query: { ...penguinQuery(1), body_mass_g: ["heavy"] } },
      },
    );
    assertEquals(wrongType.status, 400);
    assertEquals(wrongType.body.errors?.[0].path, "query.body_mass_g");

    const big = await raw(platform, "POST", `/deployed-models/${dm.id}/views`, {
      token,
      body: { query: penguinQuery(120) },
    });
    assertEquals(big.status, 202);
    assertMatch(String(big.headers.get("Location")), /\/operations\/op_/);
    const table = await client.deployedModels.views(dm.id, {
      query: penguinQuery(120),
    });
    assertEquals(table.data.length, 120);
    assertEquals(table.index[119], 119);
    assertEquals(table.data[0][0], "Gentoo");
  } finally {
    start();
    await platform.close();
  }
});

Deno.test("local views: beyond maximum_concurrency and its queue, 429 with Retry-After", async () => {
  const { platform, client } = await setup({
    viewsQueueSize: 0,
    viewsAsyncRows: 100_000,
  });
  try {
    const { dm } = await deployPenguins(client, { maximum_concurrency: 1 });
    await untilRunning(client, dm.id);
    const token = await tokenFor(platform);
    // Large enough to be computed in several steps, so the requests overlap.
    const body = { query: penguinQuery(8000) };
    const answers = await Promise.all(
      [1, 2, 3].map(() =>
        raw(platform, "POST", `/deployed-models/${dm.id}/views`, {
          token,
          body,
        })
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    assertEquals(statuses[0], 200);
    assert(statuses.includes(429), statuses.join());
    const limited = answers.find((a) => a.status === 429)!;
    assertEquals(limited.headers.get("Retry-After"), "1");
    assertMatch(String(limited.body.message), /maximum_concurrency/);
  } finally {
    await platform.close();
  }
});
