/**
 * The job runner: the lifecycle STARTING -> RUNNING -> COMPLETED / FAILED
 * with progress, and maximum_runtime_seconds enforced.
 */
import { assertEquals, assertMatch } from "@std/assert";
import { JobRunner } from "../src/local/jobs/runner.ts";
import { MemoryStore } from "../src/local/store/store.ts";
import { uncheckedRecord } from "./_helpers/records.ts";

Deno.test("local runner: a job past its runtime cap is stopped and ends FAILED saying so", async () => {
  const store = new MemoryStore();
  store.put(uncheckedRecord({
    kind: "trainingJobs",
    id: "t",
    account: "a",
    body: { status: "STARTING" },
  }));
  const runner = new JobRunner(store, () => {});
  let aborted = false;
  let ended: string | null | undefined;
  await runner.start(
    "trainingJobs",
    "t",
    0.05,
    (job) =>
      new Promise<void>((resolve) => {
        job.report("training", 0.5, 0.5);
        job.signal.addEventListener("abort", () => {
          aborted = true;
          resolve();
        });
      }),
    (failure) => (ended = failure),
  );
  const body = store.get("trainingJobs", "t")!.body;
  assertEquals(body.status, "FAILED");
  assertMatch(String(body.message), /maximum_runtime_seconds/);
  assertEquals(aborted, true, "the work's signal aborted");
  assertMatch(String(ended), /maximum_runtime_seconds/);
  assertEquals(runner.isRunning("trainingJobs", "t"), false);
});

Deno.test("local runner: RUNNING with moving progress, then COMPLETED at 1", async () => {
  const store = new MemoryStore();
  store.put(uncheckedRecord({
    kind: "ingestionJobs",
    id: "j",
    account: "a",
    body: { status: "STARTING", progress: 0 },
  }));
  const runner = new JobRunner(store, () => {});
  const seen: unknown[] = [];
  const done = runner.start("ingestionJobs", "j", 60, async (job) => {
    seen.push(store.get("ingestionJobs", "j")!.body.status);
    job.report("reading", 0.5, 0.25);
    seen.push(store.get("ingestionJobs", "j")!.body.progress);
    await new Promise((r) => setTimeout(r, 0));
    job.report("storing", 1, 0.9);
    seen.push(store.get("ingestionJobs", "j")!.body.stage);
  });
  assertEquals(
    store.get("ingestionJobs", "j")!.body.status,
    "STARTING",
    "the create answer still says STARTING",
  );
  await done;
  assertEquals(seen, ["RUNNING", 0.25, "storing"]);
  const body = store.get("ingestionJobs", "j")!.body;
  assertEquals([body.status, body.progress, body.stage_progress], [
    "COMPLETED",
    1,
    1,
  ]);
});
