/**
 * One fit on a large table, one thread against two (the histograms split
 * across the training thread and a helper Worker, see
 * src/local/model/rows.ts): the resampled churn table at the given rows,
 * default parameters, each timed `--runs` times after a warm-up, and whether
 * the two-thread models are the same run to run and how far they are from
 * the one-thread model. Say the load average with the figures: the second
 * thread only helps when a core is free.
 *
 * ```sh
 * deno run -A bench/model_rows.ts 100000 --runs=3
 * ```
 *
 * @module
 */

import { parseCsv } from "../src/csv.ts";
import { columnsFromCsv } from "../src/local/model/datasource.ts";
import { train, trainAsync } from "../src/local/model/ebm.ts";
import { encodeDataset } from "../src/local/model/encoding.ts";
import { workerBagHelper } from "../src/local/model/worker.ts";
import { CHURN, fieldsOf } from "../tests/_helpers/datasets.ts";
import { writeResampledChurn } from "./model_churn_resample.ts";

if (import.meta.main) {
  const rows = Number(Deno.args.find((a) => !a.startsWith("--")) ?? 100_000);
  const runs = Number(
    Deno.args.find((a) => a.startsWith("--runs="))?.slice(7) ?? 3,
  );
  const dir = await Deno.makeTempDir({ prefix: "model_rows_" });
  try {
    const file = await writeResampledChurn(rows, dir);
    const table = parseCsv(await Deno.readTextFile(file));
    const fields = fieldsOf(table.header, CHURN);
    const data = encodeDataset(columnsFromCsv(table, fields), fields, {
      targets: [CHURN.target],
      prediction_type: CHURN.predictionType,
    });
    const helper = workerBagHelper(data, null, 2);
    if (!helper) throw new Error("needs Worker and two cores");
    const one: number[] = [], two: number[] = [];
    const models: string[] = [];
    let single = "";
    for (let r = 0; r <= runs; r++) {
      let t0 = performance.now();
      const m1 = train(data);
      if (r > 0) one.push(performance.now() - t0);
      single = JSON.stringify(m1);
      t0 = performance.now();
      const m2 = await trainAsync(data, {}, {
        helper: helper.run,
        rows: helper.rows,
      });
      if (r > 0) two.push(performance.now() - t0);
      models.push(JSON.stringify(m2));
    }
    helper.close();
    const a = JSON.parse(single), b = JSON.parse(models[0]);
    let diff = 0;
    a.terms.forEach((t: { scores: number[] }, j: number) =>
      t.scores.forEach((v, q) =>
        diff = Math.max(diff, Math.abs(v - b.terms[j].scores[q]))
      )
    );
    const ms = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(", ");
    const load = Deno.loadavg().map((x) => x.toFixed(2)).join(" ");
    console.log(`${rows} rows (load ${load})`);
    console.log(`one thread: ${ms(one)} ms; two threads: ${ms(two)} ms`);
    console.log(
      `best two / best one: ${
        (Math.min(...two) / Math.min(...one)).toFixed(2)
      }; two-thread models the same every run: ${
        models.every((m) => m === models[0])
      }; largest score difference from one thread: ${diff.toExponential(2)}`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
