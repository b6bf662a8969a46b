/**
 * Batch views through the SDK: `deployment.batch()` is a `Job` like every
 * other (awaited, watched, attached by id, cancelled), and its result reads
 * the output back through the API as pages, rows and a danfo DataFrame.
 */
import { assert, assertEquals, assertMatch, assertRejects } from "@std/assert";
import { JobCancelledError } from "../src/jobs/errors.ts";
import { BatchResult } from "../src/builders/batch_result.ts";
import { batchFixture, churnCsv, churnRows } from "./_helpers/batch.ts";

Deno.test("deployment.batch(): a Job whose result reads the output back through the API", async (t) => {
  const fixture = await batchFixture();
  const { ml, deployment, dir } = fixture;
  try {
    const rows: unknown[][] = churnRows(2300, 4);
    rows[7] = ["c-bad", 3, 40, "month", "No", "extra"]; // a field too many
    await Deno.writeTextFile(`${dir}/customers.csv`, churnCsv(rows));

    await t.step(
      "await, watch and the result's counts, pages, rows and frame",
      async () => {
        const job = deployment.batch({
          bucket: "b",
          path: "customers.csv",
          output: "scored/customers.csv",
          keep: ["id"],
          onError: "NULL_PREDICTION",
          progress: false,
        });
        assertEquals((await job.created).status, "STARTING");
        const seen: string[] = [];
        for await (const snapshot of job.watch()) seen.push(snapshot.status);
        assertEquals(seen.at(-1), "COMPLETED");
        const result = await job;
        assert(result instanceof BatchResult);
        assertEquals(
          [result.rowsIn, result.rowsOut, result.rowsWithErrors],
          [2300, 2300, 1],
        );
        assertEquals(result.outputPath, "scored/customers.csv");
        assertEquals(result.columns[0], "id");
        assertEquals(result.columns.at(-1), "error");

        const ids: unknown[] = [];
        let pages = 0;
        for await (const page of result.pages({ itemsPerPage: 1000 })) {
          pages++;
          for (const row of page.rows()) ids.push(row.id);
        }
        assertEquals(pages, 3);
        assertEquals(ids, rows.map((r) => r[0]));

        const all = await result.rows({ itemsPerPage: 500 });
        assertMatch(String(all[7].error), /6 fields but the header has 5/);
        assertEquals(all[7]["prediction.churn"], null);
        const frame = await result.frame({ itemsPerPage: 10_000 });
        assertEquals(frame.shape, [2300, result.columns.length]);
        assertEquals(frame.columns, [...result.columns]);

        // The batch is listed, and attaching by id gives the same result.
        const listed = await ml.batches.list({ items_per_page: 100 });
        assert(listed.data.some((b) => b.id === result.id));
        const ref = await job.ref();
        assertEquals(ref.kind, "views batch job");
        const attached = await ml.attach("batch", ref.id, { progress: false });
        assertEquals(attached.id, result.id);
        assertEquals(attached.rowsWithErrors, 1);
        const byRef = await ml.attach(ref, { progress: false });
        assert(byRef instanceof BatchResult);
      },
    );

    await t.step(
      "a configuration built once and reused; JSON Lines",
      async () => {
        const config = await ml.viewsBatchConfiguration("jsonl-predictions", {
          views: ["PREDICTIONS"],
          format: "JSON_LINES",
          keep: ["id"],
          onError: "NULL_PREDICTION",
        });
        assertEquals(config.output_format, "JSON_LINES");
        const result = await deployment.batch({
          bucket: "b",
          path: "customers.csv",
          output: "customers.jsonl",
          configuration: config,
          progress: false,
        });
        assertEquals(result.columns, [
          "id",
          "prediction.churn",
          "probability.churn.No",
          "probability.churn.Yes",
          "error",
        ]);
        const pages = result.pages({ itemsPerPage: 3 });
        const first: Record<string, unknown>[] = (await pages.next()).value!
          .rows();
        await pages.return(undefined);
        assertEquals(first.map((r) => r.id), rows.slice(0, 3).map((r) => r[0]));
        // Every line is one JSON object, the bad row's with its error.
        const lines = (await Deno.readTextFile(`${dir}/customers.jsonl`))
          .trimEnd().split("\n").map((l) => JSON.parse(l));
        assertEquals(lines.length, 2300);
        assertEquals(lines[7]["prediction.churn"], null);
        assertMatch(lines[7].error, /6 fields but the header has 5/);
        assertEquals(lines[8].error, null);
        const p = first[0];
        const sum = Number(p["probability.churn.No"]) +
          Number(p["probability.churn.Yes"]);
        assert(Math.abs(sum - 1) < 1e-12, String(sum));
      },
    );

    await t.step(
      "cancel(): the Job rejects with JobCancelledError and no output appears",
      async () => {
        await Deno.writeTextFile(
          `${dir}/many.csv`,
          churnCsv(churnRows(150_000, 8)),
        );
        const job = deployment.batch({
          bucket: "b",
          path: "many.csv",
          output: "many_scored.csv",
          progress: false,
          // Polled often, so the cancel comes well before the job could end.
          poll: { initialDelay: 5, maxDelay: 10 },
        });
        for await (const snapshot of job.watch()) {
          if (
            snapshot.status === "RUNNING" && (snapshot.progress ?? 0) > 0.05
          ) {
            break;
          }
        }
        const cancelled = await job.cancel();
        assertEquals(cancelled.status, "CANCELLED");
        await assertRejects(() => job.wait(), JobCancelledError);
        // The work may still be unwinding: look once its temporary file is
        // gone (the bound is on a broken run, not a timing assertion).
        const namesIn = async () => {
          const names: string[] = [];
          for await (const e of Deno.readDir(dir)) names.push(e.name);
          return names;
        };
        const giveUp = Date.now() + 60_000;
        let names = await namesIn();
        while (names.some((n) => n.endsWith(".part")) && Date.now() < giveUp) {
          await new Promise((r) => setTimeout(r, 5));
          names = await namesIn();
        }
        assert(!names.includes("many_scored.csv"), names.join());
        assert(!names.some((n) => n.endsWith(".part")), names.join());
      },
    );

    await t.step(
      "without a bucket or storage, batch() refuses before sending",
      () => {
        let message = "";
        try {
          deployment.batch({ path: "x.csv", output: "y.csv" });
        } catch (e) {
          message = (e as Error).message;
        }
        assertMatch(message, /needs the bucket/);
      },
    );
  } finally {
    await fixture.close();
  }
});
