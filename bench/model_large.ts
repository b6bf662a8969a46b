/**
 * The large-table run of the model benchmark: a resampled churn CSV (see
 * bench/model_churn_resample.ts) taken through the local platform the way a
 * new user would, in this process: `quickstart()`'s steps one by one (infer
 * the schema from the bucket file, ingest, onboard, train with default
 * hyperparameters, deploy), each timed, then the held-out rows scored
 * through views. Reports the process's peak RSS (VmHWM), so run it in a
 * fresh process per table (bench/model_bench.ts does).
 *
 * Run: `deno run -A bench/model_large.ts --infer <dir> <target>`, then
 * `deno run -A bench/model_large.ts <dir> <target>`, where `<dir>` holds
 * `train.csv` and optionally `test.json` (see {@link writeSplit}); the
 * first infers the schema (as quickstart() does, its own process and peak),
 * the second runs ingest to deployed model and removes the folder. Prints one JSON line: step times, the test
 * ROC AUC, the model's metrics and the peak RSS after each step (the
 * pipeline's own peak is the one after `deploy`; `views` scores the test
 * rows after it).
 *
 * @module
 */
import { local } from "../local.ts";
import { parseCsv } from "../src/csv.ts";
import { auc } from "../src/local/model/ebm.ts";

/** Peak resident set size of this process in MB (Linux VmHWM; null elsewhere). */
export function peakRssMb(): number | null {
  try {
    const status = Deno.readTextFileSync("/proc/self/status");
    const m = status.match(/VmHWM:\s+(\d+) kB/);
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/**
 * Writes the train rows of a split as their own CSV and the test rows as a
 * views query with the true classes (`<dir>/train.csv`, `<dir>/test.json`),
 * in the calling process, so the pipeline's process holds none of it.
 */
export async function writeSplit(
  csv: string,
  target: string,
  split: { train: number[]; test: number[] },
  dir: string,
): Promise<void> {
  const lines = (await Deno.readTextFile(csv)).split("\n");
  const pick = (rows: number[]) => [lines[0], ...rows.map((r) => lines[r + 1])];
  await Deno.writeTextFile(
    `${dir}/train.csv`,
    pick(split.train).join("\n") + "\n",
  );
  const table = parseCsv(pick(split.test).join("\n") + "\n");
  const query: Record<string, (string | number | null)[]> = {};
  const y: string[] = [];
  table.header.forEach((name, j) => {
    if (name === target) table.rows.forEach((r) => y.push(r[j]));
    else {
      query[name] = table.rows.map((r) =>
        r[j] === "" ? null : Number.isFinite(Number(r[j])) ? Number(r[j]) : r[j]
      );
    }
  });
  await Deno.writeTextFile(`${dir}/test.json`, JSON.stringify({ query, y }));
}

if (import.meta.main) {
  // <dir>: holds train.csv (and test.json to score); removed at the end
  // of the pipeline run. `--infer` first, in its own process, writes
  // schema.json there.
  const inferOnly = Deno.args.includes("--infer");
  const [dir, target] = Deno.args.filter((a) => a !== "--infer");
  const seconds = (t: number) => (performance.now() - t) / 1000;
  const ml = await local({ buckets: { big: dir }, progress: false });
  const steps: Record<string, number> = {};
  // Peak RSS (MB) reached by the end of each step.
  const peaks: Record<string, number | null> = {};
  try {
    let t = performance.now();
    const schemaFile = `${dir}/schema.json`;
    let schema;
    if (inferOnly) {
      // As quickstart() does: infer from the bucket object, streamed.
      const draft = await ml.platform.streamObject(
        "big",
        "train.csv",
        (bytes) => ml.inferSchema(bytes, { target, name: "big" }),
      );
      await Deno.writeTextFile(schemaFile, JSON.stringify(draft.body()));
      console.log(JSON.stringify({
        steps: { infer: seconds(t) },
        peak_rss_mb: peakRssMb(),
      }));
      Deno.exit(0);
    } else {
      // The schema inferred by an earlier `--infer` run (its own process).
      schema = await ml.dataSchemas.create(
        JSON.parse(await Deno.readTextFile(schemaFile)),
      );
    }
    steps.schema = seconds(t);
    peaks.schema = peakRssMb();
    t = performance.now();
    const storage = await ml.storageConnector("big").create();
    const datasource = await ml.ingest("train.csv", { storage, schema });
    steps.ingest = seconds(t);
    peaks.ingest = peakRssMb();
    t = performance.now();
    const dataset = await ml.onboard(datasource, {});
    steps.onboard = seconds(t);
    peaks.onboard = peakRssMb();
    t = performance.now();
    const model = await ml.train(dataset, {});
    steps.train = seconds(t);
    peaks.train = peakRssMb();
    t = performance.now();
    const deployment = await ml.deploy(model, {});
    steps.deploy = seconds(t);
    peaks.deploy = peakRssMb();
    let score: number | null = null;
    const testFile = `${dir}/test.json`;
    const test = await Deno.stat(testFile).then(
      async () =>
        JSON.parse(await Deno.readTextFile(testFile)) as {
          query: Record<string, (string | number | null)[]>;
          y: string[];
        },
      () => null,
    );
    if (test) {
      t = performance.now();
      // 10,000 rows a call keep each request under the body size limit.
      const positive: number[] = [];
      let classes: string[] = [];
      const n = test.y.length;
      for (let from = 0; from < n; from += 10_000) {
        const query = Object.fromEntries(
          Object.entries(test.query).map(([k, v]) => [
            k,
            v.slice(from, from + 10_000),
          ]),
        );
        const p = (await deployment.views(query)).probabilities(target);
        classes = Object.keys(p).sort();
        positive.push(...p[classes[1]]);
      }
      score = auc(
        Float64Array.from(positive),
        Int32Array.from(test.y, (c) => classes.indexOf(c.replaceAll('"', ""))),
        1,
      );
      steps.views = seconds(t);
      peaks.views = peakRssMb();
    }
    const record = await ml.models.get(model.id);
    console.log(JSON.stringify({
      steps,
      score,
      metrics: record.metrics,
      stop_reason: record.stop_reason,
      peak_rss_mb: peakRssMb(),
      peak_rss_mb_after: peaks,
    }));
  } finally {
    await ml.close();
    if (!inferOnly) await Deno.remove(dir, { recursive: true });
  }
}
