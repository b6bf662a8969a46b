/**
 * The large-table run of the model benchmark: a resampled churn CSV (see
 * bench/model_churn_resample.ts) taken through the local platform the way a
 * new user would, in this process: `quickstart()`'s steps one by one (infer
 * the schema from the bucket file, ingest, onboard, train with default
 * hyperparameters, deploy), each timed, then the held-out rows scored
 * through views. Reports the process's peak RSS (VmHWM), so run it in a
 * fresh process per table (bench/model_bench.ts does).
 *
 * Run: `deno run -A bench/model_large.ts <csv> <target> [split.json]`; prints
 * one JSON line. With a split (row indices `train`/`test`, as written by
 * bench/model_reference.py), the model trains on the train rows (written as
 * their own CSV first) and the ROC AUC of the test rows is reported.
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

/** Lines `rows` (0-based data rows) of a CSV text, with its header. */
function pickLines(text: string, rows: number[]): string {
  const lines = text.split("\n");
  const out = [lines[0]];
  for (const r of rows) out.push(lines[r + 1]);
  return out.join("\n") + "\n";
}

if (import.meta.main) {
  const [csv, target, splitFile] = Deno.args;
  const dir = await Deno.makeTempDir({ prefix: "model_large_" });
  const seconds = (t: number) => (performance.now() - t) / 1000;
  let test:
    | { query: Record<string, (string | number | null)[]>; y: string[] }
    | null = null;
  if (splitFile) {
    const split = JSON.parse(await Deno.readTextFile(splitFile));
    let text: string | null = await Deno.readTextFile(csv);
    await Deno.writeTextFile(`${dir}/train.csv`, pickLines(text, split.train));
    const table = parseCsv(pickLines(text, split.test));
    text = null;
    const query: Record<string, (string | number | null)[]> = {};
    const y: string[] = [];
    table.header.forEach((name, j) => {
      if (name === target) table.rows.forEach((r) => y.push(r[j]));
      else {
        query[name] = table.rows.map((r) =>
          r[j] === ""
            ? null
            : Number.isFinite(Number(r[j]))
            ? Number(r[j])
            : r[j]
        );
      }
    });
    test = { query, y };
  } else await Deno.copyFile(csv, `${dir}/train.csv`);
  const ml = await local({ buckets: { big: dir }, progress: false });
  const steps: Record<string, number> = {};
  // Peak RSS (MB) reached by the end of each step.
  const peaks: Record<string, number | null> = {};
  try {
    let t = performance.now();
    // As quickstart() does: infer from the bucket object's text.
    const draft = await ml.inferSchema(
      new Blob([await ml.platform.readObject("big", "train.csv")]),
      { target, name: "big" },
    );
    const schema = await draft.create();
    steps.infer = seconds(t);
    peaks.infer = peakRssMb();
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
    await Deno.remove(dir, { recursive: true });
  }
}
