/**
 * Ingestion alone, in its own process: one CSV file (`.csv` or `.csv.gz`)
 * ingested through `local()` in-process (the schema inferred first, not
 * timed), then the ingestion's seconds and this process's peak RSS (VmHWM,
 * which holds the platform, the parsing Worker and the stored columns),
 * beside the floor (reading the file's bytes and decoding them as text, in
 * inflated first for gzip, in this process) and a peer (pandas `read_csv` of the same file, timed inside
 * its own process with `/usr/bin/python3`), as ratios.
 *
 * Run: `deno run -A bench/ingest_file.ts <file.csv[.gz]> <target>
 * [--runs=3]`. Make a large file with bench/model_churn_resample.ts.
 *
 * @module
 */
import { dirname, relative } from "node:path";
import { local } from "../local.ts";
import { gunzipChunks } from "../src/gzip.ts";
import { peakRssMb } from "./model_large.ts";

/** Seconds pandas' `read_csv` takes on `file` (best of `runs`), or null. */
async function pandasSeconds(file: string, runs: number) {
  const script = [
    "import sys, time, pandas",
    "best = 1e9",
    `for _ in range(${runs}):`,
    "    t = time.perf_counter(); pandas.read_csv(sys.argv[1]); best = min(best, time.perf_counter() - t)",
    "print(best)",
  ].join("\n");
  const out = await new Deno.Command("/usr/bin/python3", {
    args: ["-c", script, file],
    stderr: "inherit",
  }).output().catch(() => null);
  return out?.success ? Number(new TextDecoder().decode(out.stdout)) : null;
}

if (import.meta.main) {
  const runs = Number(
    Deno.args.find((a) => a.startsWith("--runs="))?.slice(7) ?? 3,
  );
  const [file, target] = Deno.args.filter((a) => !a.startsWith("--"));
  const dir = dirname(file);
  const path = relative(dir, file);
  // The floor: the bytes read, and decoded (as text, or inflated then text).
  let floor = Infinity;
  for (let r = 0; r < runs; r++) {
    const t = performance.now();
    // gunzipChunks passes a plain CSV's bytes through as they are.
    const stream = gunzipChunks((await Deno.open(file)).readable);
    const decoder = new TextDecoder();
    let chars = 0;
    for await (const chunk of stream) {
      chars += decoder.decode(chunk, { stream: true }).length;
    }
    floor = Math.min(floor, (performance.now() - t) / 1000);
    if (chars === 0) throw new Error(`${file} is empty`);
  }
  const ml = await local({ buckets: { bench: dir }, progress: false });
  let ours = Infinity;
  let rows = 0;
  try {
    const schema = await (await ml.inferSchema(file, {
      target,
      name: "ingest-bench",
    })).create();
    const storage = await ml.storageConnector("bench");
    for (let r = 0; r < runs; r++) {
      const t = performance.now();
      const datasource = await ml.ingest(path, { storage, schema });
      ours = Math.min(ours, (performance.now() - t) / 1000);
      rows = datasource.row_count ?? 0;
    }
  } finally {
    await ml.close();
  }
  const peer = await pandasSeconds(file, runs);
  const round = (x: number) => Math.round(x * 100) / 100;
  console.log(JSON.stringify({
    file: path,
    rows,
    runs,
    ingest_seconds: round(ours),
    floor_read_decode_seconds: round(floor),
    pandas_read_csv_seconds: peer === null ? null : round(peer),
    vs_floor: round(ours / floor),
    vs_pandas: peer === null ? null : round(ours / peer),
    peak_rss_mb: peakRssMb(),
  }));
}
