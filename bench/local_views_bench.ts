/**
 * Views throughput of the local platform (the hot path): a penguins model,
 * 1000-row RESULTS requests, in-process (the app's fetch, as `local()` uses)
 * and over HTTP (Deno.serve on a free port).
 *
 * `deno task bench` runs the Deno.bench cases; `deno run -A
 * bench/local_views_bench.ts` prints rows per second for both. (The SDK's
 * own views, in-process and against the CLI server over HTTP, beside raw
 * fetch: bench/api_views.ts, run by `deno task bench:model`.)
 *
 * @module
 */
import { createLocalPlatform } from "../src/local/platform.ts";
import { compareRowsPerSecond, postViews } from "./api_views.ts";
import {
  clientFor,
  DATASETS,
  deployPenguins,
  penguinQuery,
  tokenFor,
  untilRunning,
} from "../tests/_helpers/local_setup.ts";

const ROWS = 1000;
const platform = await createLocalPlatform({
  buckets: { demo: DATASETS },
  viewsAsyncRows: 100_000,
});
const client = clientFor(platform, platform.credentials);
const { dm } = await deployPenguins(client);
await untilRunning(client, dm.id);
const token = await tokenFor(platform);
const body = JSON.stringify({ query: penguinQuery(ROWS) });
const server = Deno.serve({
  port: 0,
  hostname: "127.0.0.1",
  onListen: () => {},
}, platform.app.fetch);
const httpBase = `http://127.0.0.1:${server.addr.port}`;

async function views(
  base: string,
  send: (r: Request) => Promise<Response>,
): Promise<void> {
  const table = await postViews(send, base, dm.id, token, body);
  if (table.data.length !== ROWS) throw new Error("wrong row count");
}
const inProcess = () => views(platform.baseUrl, platform.fetch);
const overHttp = () => views(httpBase, (r) => fetch(r));

Deno.bench(
  `views ${ROWS} rows in-process`,
  { group: "views", baseline: true },
  inProcess,
);
Deno.bench(`views ${ROWS} rows over HTTP`, { group: "views" }, overHttp);

if (import.meta.main) {
  // The same interleaved measurement as bench/api_benchmark.ts's views table.
  const measured = await compareRowsPerSecond(
    { "in-process": inProcess, "over HTTP": overHttp },
    ROWS,
    { warmup: 5 },
  );
  for (const [name, t] of Object.entries(measured)) {
    console.log(
      `${name}: ${Math.round(t.rowsPerSecond)} rows/s (${
        t.msPerCall.toFixed(1)
      } ms per ${ROWS}-row request)`,
    );
  }
  await server.shutdown();
  await platform.close();
}
