/**
 * A views batch stopped mid-way leaves no file under the output's name:
 * cancelled (the job ends CANCELLED, the temporary file is removed), the
 * platform closed under it (FAILED), and the server process killed outright
 * (the output never appears; after a restart the job is FAILED saying so).
 */
import { assert, assertEquals, assertMatch } from "@std/assert";
import { local } from "../local.ts";
import { batchFixture, churnCsv, churnRows } from "./_helpers/batch.ts";

/** Rows enough that scoring lasts long past the first progress report. */
const BIG_ROWS = 150_000;

async function filesIn(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const e of Deno.readDir(dir)) names.push(e.name);
  return names.sort();
}

/**
 * The folder's names once it holds no temporary `.part` file: a cancelled
 * job's work removes its file as it unwinds, after the cancel's answer.
 * `waitMs` bounds a broken run; it is not a timing assertion.
 */
async function settledFilesIn(dir: string, waitMs = 60_000): Promise<string[]> {
  const giveUp = Date.now() + waitMs;
  let names = await filesIn(dir);
  while (names.some((f) => f.endsWith(".part")) && Date.now() < giveUp) {
    await new Promise((r) => setTimeout(r, 5));
    names = await filesIn(dir);
  }
  return names;
}

Deno.test("batch views stopped mid-way: cancel, close, kill leave no output", async (t) => {
  const dataDir = await Deno.makeTempDir({ prefix: "batch_state_" });
  const fixture = await batchFixture({ dataDir });
  const { ml, deployment, dir } = fixture;
  let closed = false;
  try {
    await Deno.writeTextFile(
      `${dir}/big.csv`,
      churnCsv(churnRows(BIG_ROWS, 9)),
    );
    const storage = await ml.storageConnectors.create({
      name: "b",
      bucket_name: "b",
    });
    const cpu = await ml.computeConfigurations.create({
      name: "cpu",
      machine_type: "m5",
      compute_type: "PROCESSING",
    });
    const configuration = await ml.viewsBatchConfigurations.create({
      name: "keep-id",
      keep_columns: ["id"],
    });
    let n = 0;
    const start = async () => {
      const job = await ml.viewsBatchJobs.create({
        name: `big-${++n}`,
        deployed_model_id: deployment.id,
        views_batch_configuration_id: configuration.id,
        storage_connector_id: storage.id,
        compute_configuration_id: cpu.id,
        data_path: "big.csv",
        output_path: `big_out_${n}.csv`,
        views_batch_name: `big-${n}`,
      });
      for (;;) {
        const now = await ml.viewsBatchJobs.get(job.id);
        if (now.status === "RUNNING" && now.progress > 0.05) return now;
        if (now.status !== "STARTING" && now.status !== "RUNNING") {
          throw new Error(`ended before it could be stopped: ${now.status}`);
        }
        await new Promise((r) => setTimeout(r, 5));
      }
    };

    await t.step(
      "cancel: CANCELLED with a message, no output, no temporary file",
      async () => {
        const job = await start();
        const cancelled = await ml.viewsBatchJobs.cancel(job.id);
        assertEquals(cancelled.status, "CANCELLED");
        assertMatch(String(cancelled.message), /Cancelled/);
        const batch = await ml.viewsBatches.get(job.views_batch.id);
        assertEquals(batch.status, "CANCELLED");
        // The work may still be unwinding: look once its file is gone.
        const files = await settledFilesIn(dir);
        assert(!files.includes(job.output_path), files.join());
        assert(!files.some((f) => f.endsWith(".part")), files.join());
      },
    );

    await t.step(
      "the platform closed mid-way: FAILED after a restart, no output",
      async () => {
        const job = await start();
        await ml.close();
        closed = true;
        const files = await filesIn(dir);
        assert(!files.includes(job.output_path), files.join());
        assert(!files.some((f) => f.endsWith(".part")), files.join());
        const again = await local({
          dataDir,
          buckets: { b: dir },
          progress: false,
        });
        try {
          const ended = await again.viewsBatchJobs.get(job.id);
          assertEquals(ended.status, "FAILED");
          assertMatch(String(ended.message), /closed while this job ran/);
          assertEquals(
            (await again.viewsBatches.get(job.views_batch.id)).status,
            "FAILED",
          );
        } finally {
          await again.close();
        }
      },
    );

    await t.step(
      "the server killed mid-way: the output never appears",
      async () => {
        const child = new Deno.Command(Deno.execPath(), {
          args: [
            "run",
            "-A",
            new URL("./_helpers/batch_crash_child.ts", import.meta.url)
              .pathname,
            dataDir,
            dir,
            JSON.stringify({
              deployment: deployment.id,
              configuration: configuration.id,
              storage: storage.id,
              compute: cpu.id,
            }),
          ],
          stdout: "piped",
          stderr: "piped",
        }).spawn();
        const reader = child.stdout.pipeThrough(new TextDecoderStream())
          .getReader();
        let said = "";
        while (!said.includes("\n")) {
          const { value, done } = await reader.read();
          if (done) break;
          said += value;
        }
        child.kill("SIGKILL");
        await child.status;
        await reader.cancel();
        const stderr = await new Response(child.stderr).text();
        const [word, jobId, batchId] = said.trim().split(" ");
        assertEquals(word, "scoring", `the child said "${said}"; ${stderr}`);
        let files = await filesIn(dir);
        assert(!files.includes("crash_out.csv"), files.join());
        // Killed outright, the job could not remove its temporary file.
        assert(files.some((f) => f.endsWith(".part")), files.join());
        const again = await local({
          dataDir,
          buckets: { b: dir },
          progress: false,
        });
        try {
          const ended = await again.viewsBatchJobs.get(jobId);
          assertEquals(ended.status, "FAILED");
          assertMatch(String(ended.message), /restarted while this job ran/);
          assertEquals(
            (await again.viewsBatches.get(batchId)).status,
            "FAILED",
          );
        } finally {
          await again.close();
        }
        // The restart removed what the killed job left under its temporary name.
        files = await filesIn(dir);
        assert(!files.includes("crash_out.csv"), files.join());
        assert(!files.some((f) => f.endsWith(".part")), files.join());
      },
    );
  } finally {
    if (!closed) await ml.close();
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(dataDir, { recursive: true });
  }
});
