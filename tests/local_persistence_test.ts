/**
 * A restart with a data directory keeps everything: resources, datasources,
 * datasets, models, credentials and tokens; deployed models load again; a
 * job interrupted by the restart ends FAILED saying so.
 */
import { assertEquals, assertMatch } from "@std/assert";
import { createLocalPlatform } from "../src/local/local_platform.ts";
import {
  clientFor,
  DATASETS,
  deployPenguins,
  penguinQuery,
  tokenFor,
  untilRunning,
} from "./_helpers/local_setup.ts";
import { MemoryStore } from "../src/local/store/store.ts";
import { openSqliteStore } from "../src/local/store/sqlite_store.ts";
import { uncheckedRecord } from "./_helpers/records.ts";

Deno.test("local persistence: a restart with a data directory loses nothing", async () => {
  const dataDir = await Deno.makeTempDir();
  const options = { dataDir, buckets: { demo: DATASETS }, logger: () => {} };
  try {
    const first = await createLocalPlatform(options);
    const client = clientFor(first, first.credentials);
    const { dm, model } = await deployPenguins(client);
    await untilRunning(client, dm.id);
    const before = await client.deployedModels.views(dm.id, {
      query: penguinQuery(3),
    });
    const token = await tokenFor(first);
    const counts = async (c: typeof client) =>
      Object.fromEntries(
        await Promise.all(
          ([
            "storageConnectors",
            "dataSchemas",
            "ingestionJobs",
            "onboardingJobs",
            "trainingJobs",
            "datasources",
            "datasets",
            "models",
            "deployedModels",
          ] as const)
            .map(async (g) => [g, (await c[g].list()).pagination.total_items]),
        ),
      );
    const countsBefore = await counts(client);
    await first.close();

    const second = await createLocalPlatform(options);
    try {
      assertEquals(
        second.credentials,
        first.credentials,
        "the generated credentials are kept",
      );
      const again = clientFor(second, second.credentials);
      assertEquals(await counts(again), countsBefore);
      assertEquals((await again.models.get(model.id)).status, "READY");
      const res = await second.fetch(
        new Request(`${second.baseUrl}/workspaces`, {
          headers: { Authorization: `Bearer ${token}` },
        }),
      );
      assertEquals(
        res.status,
        200,
        "tokens issued before the restart still work",
      );
      await res.body?.cancel();
      await untilRunning(again, dm.id);
      const after = await again.deployedModels.views(dm.id, {
        query: penguinQuery(3),
      });
      assertEquals(after, before);
      assertEquals(
        (await again.models.explanation(model.id)).target,
        "species",
      );
    } finally {
      await second.close();
    }
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("local persistence: jobs interrupted by a restart end FAILED saying so", async () => {
  const dataDir = await Deno.makeTempDir();
  try {
    // Simulate a process that died mid-job: a RUNNING job and its PENDING artifact in the store.
    const store = await openSqliteStore(dataDir);
    store.put(uncheckedRecord({
      kind: "ingestionJobs",
      id: "ij_1",
      account: "acc_x",
      body: {
        id: "ij_1",
        name: "j",
        status: "RUNNING",
        datasource: { id: "src_1", name: "s" },
      },
    }));
    store.put(uncheckedRecord({
      kind: "datasources",
      id: "src_1",
      account: "acc_x",
      body: { id: "src_1", name: "s", status: "PENDING" },
    }));
    store.close();
    const platform = await createLocalPlatform({ dataDir, logger: () => {} });
    await platform.close();
    const reopened = await openSqliteStore(dataDir);
    const job = reopened.get("ingestionJobs", "ij_1")!.body;
    assertEquals(job.status, "FAILED");
    assertMatch(String(job.message), /restarted/);
    assertEquals(reopened.get("datasources", "src_1")!.body.status, "FAILED");
    reopened.close();
    assertEquals(new MemoryStore().all("ingestionJobs"), []);
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

// Two platforms on one data directory (two `deno task local --data-dir d`)
// each answered from their own copy of the records: a name was taken twice,
// and the second one's start marked the first one's running jobs FAILED.
Deno.test("local persistence: a second platform on a data directory in use is refused until the first closes", async () => {
  const dataDir = await Deno.makeTempDir();
  try {
    const first = await createLocalPlatform({ dataDir, logger: () => {} });
    const refused = await createLocalPlatform({ dataDir, logger: () => {} })
      .then(async (second) => {
        await second.close();
        return undefined;
      }, (error: Error & { code?: string }) => error);
    assertMatch(
      String(refused?.message),
      /another local platform has this data directory \(.*\) open/,
    );
    assertEquals(refused?.code, "EBUSY");
    await first.close();
    const again = await createLocalPlatform({ dataDir, logger: () => {} });
    assertEquals(again.credentials, first.credentials);
    await again.close();
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});
