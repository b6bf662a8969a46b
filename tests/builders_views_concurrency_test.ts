/**
 * Scoring more rows than one request holds: the query goes in chunks, as
 * many in flight as the deployment's `maximum_concurrency`, in row order.
 *
 * @module
 */
import { assertEquals } from "@std/assert";
import { MLPlatform } from "../src/platform.ts";
import { createLocalPlatform } from "../src/local/local_platform.ts";

const datasets = new URL("../datasets/", import.meta.url).pathname;

Deno.test("chunked views run as many requests at once as maximum_concurrency allows", async () => {
  const platform = await createLocalPlatform({ buckets: { d: datasets } });
  let inFlight = 0;
  let peak = 0;
  let viewsCalls = 0;
  const ml = new MLPlatform({
    baseUrl: platform.baseUrl,
    ...platform.credentials,
    progress: false,
    pollInterval: 10,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const isViews = request.url.endsWith("/views");
      if (!isViews) return platform.fetch(request);
      viewsCalls++;
      peak = Math.max(peak, ++inFlight);
      try {
        // Hold each request a moment so concurrent chunks overlap.
        await new Promise((r) => setTimeout(r, 20));
        return await platform.fetch(request);
      } finally {
        inFlight--;
      }
    },
  });
  try {
    const { deployment } = await ml.quickstart({
      sample: `${datasets}penguins.csv`,
      bucket: "d",
      path: "penguins.csv",
      target: "species",
      // One bag: concurrency is the subject, not the model.
      training: { maxRounds: 30, estimators: 1 },
    });
    const config = await ml.deploymentConfiguration("two-at-once", {
      maximumConcurrency: 2,
    });
    const live = await ml.deploy(deployment.resource.model.id, {
      configuration: config,
    });
    const n = 2_500;
    const query = {
      island: Array.from({ length: n }, (_, i) => ["Biscoe", "Dream"][i % 2]),
      bill_length_mm: Array.from({ length: n }, (_, i) => 35 + (i % 20)),
      bill_depth_mm: Array.from({ length: n }, () => 17),
      flipper_length_mm: Array.from({ length: n }, (_, i) => 180 + (i % 40)),
      body_mass_g: Array.from({ length: n }, () => 4000),
      sex: Array.from({ length: n }, (_, i) => (i % 3 ? "male" : "female")),
    };
    viewsCalls = 0;
    const result = await live.views(query, { chunkSize: 500 });
    assertEquals(result.length, n);
    assertEquals(viewsCalls, 5);
    assertEquals(peak, 2);
    // Row order is kept across chunks: the same row alone scores the same.
    const single = await live.views({
      island: [query.island[1234]],
      bill_length_mm: [query.bill_length_mm[1234]],
      bill_depth_mm: [17],
      flipper_length_mm: [query.flipper_length_mm[1234]],
      body_mass_g: [4000],
      sex: [query.sex[1234]],
    });
    assertEquals(result.table.data[1234], single.table.data[0]);
  } finally {
    await platform.close();
  }
});
