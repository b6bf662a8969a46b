/**
 * The process batch_cancel_test.ts kills: it opens the local platform kept
 * in the folder `Deno.args[0]` (bucket `b` at `Deno.args[1]`), starts a
 * views batch job with the ids of `Deno.args[2]` (JSON), prints `scoring`
 * once the job has scored part of its input, and waits to be killed.
 *
 * @module
 */
import { local } from "../../local.ts";

const [dataDir, bucketDir, idsJson] = Deno.args;
const ids = JSON.parse(idsJson) as {
  deployment: string;
  configuration: string;
  storage: string;
  compute: string;
};
const ml = await local({
  dataDir,
  buckets: { b: bucketDir },
  progress: false,
});
for (;;) {
  const dm = await ml.deployedModels.get(ids.deployment);
  if (dm.status === "RUNNING") break;
  if (dm.status === "FAILED") throw new Error(String(dm.message));
  await new Promise((r) => setTimeout(r, 10));
}
const job = await ml.viewsBatchJobs.create({
  name: "crashing",
  deployed_model_id: ids.deployment,
  views_batch_configuration_id: ids.configuration,
  storage_connector_id: ids.storage,
  compute_configuration_id: ids.compute,
  data_path: "big.csv",
  output_path: "crash_out.csv",
  views_batch_name: "crashing",
});
for (;;) {
  const now = await ml.viewsBatchJobs.get(job.id);
  if (now.status === "RUNNING" && now.progress > 0.05) break;
  if (now.status !== "STARTING" && now.status !== "RUNNING") {
    throw new Error(`the job ended before the kill: ${now.status}`);
  }
  await new Promise((r) => setTimeout(r, 5));
}
console.log(`scoring ${job.id} ${job.views_batch.id}`);
await new Promise(() => {}); // killed here
