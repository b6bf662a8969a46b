/**
 * Batch views at scale: N churn-like rows scored end to end through the SDK
 * over HTTP (`deployment.batch()` against `deno task local` in its own
 * process), beside the floor (the same model's in-process views table over
 * the same rows, already parsed into columns) and a peer (scikit-learn HGB
 * reading the CSV, `predict_proba`, writing the CSV;
 * bench/batch_sklearn_ref.py). Prints the times, the ratios and the
 * server's peak RSS while it scored.
 *
 * The model is trained on a first server (20,000 rows, default
 * hyperparameters), which is then stopped; a second server on the same
 * state loads the deployment and runs the batches, so its peak RSS is the
 * batch's (plus startup and the loaded model), not training's.
 *
 * Run: `deno run -A bench/batch_scale.ts [--rows 100000]`
 *
 * @module
 */
import { connect } from "../mod.ts";
import { startServerProcess } from "./api_views.ts";
import { openSqliteStore } from "../src/local/store/sqlite_store.ts";
import { modelBlobs } from "../src/local/store/blobs.ts";
import { contributionTable } from "../src/local/model/explain.ts";
import { parseCsv } from "../src/csv.ts";

const CONTRACTS = ["month", "year", "two-year"];
const PAYMENTS = ["card", "transfer", "check", "electronic"];
const INTERNET = ["fiber", "dsl", "none"];

/** Writes `n` churn-like rows (seeded) to `file` in pieces; `withTarget` adds churn. */
async function writeRows(
  file: string,
  n: number,
  seed: number,
  withTarget: boolean,
): Promise<void> {
  let state = seed >>> 0 || 1;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  const pick = (xs: string[]) => xs[Math.floor(next() * xs.length)];
  const out = await Deno.open(file, {
    write: true,
    create: true,
    truncate: true,
  });
  const encoder = new TextEncoder();
  let text =
    "id,tenure,monthly_charges,total_charges,senior,contract,payment,internet" +
    (withTarget ? ",churn" : "") + "\n";
  for (let i = 0; i < n; i++) {
    const tenure = Math.floor(next() * 72);
    const monthly = Math.round((20 + next() * 100) * 100) / 100;
    const total = next() < 0.01 ? "" : (tenure * monthly).toFixed(2);
    const senior = next() < 0.16 ? 1 : 0;
    const contract = pick(CONTRACTS);
    const payment = pick(PAYMENTS);
    const internet = pick(INTERNET);
    let line =
      `c${i},${tenure},${monthly},${total},${senior},${contract},${payment},${internet}`;
    if (withTarget) {
      const score = -tenure / 18 + monthly / 45 + senior * 0.4 +
        (contract === "month" ? 1.2 : -0.8) +
        (internet === "fiber" ? 0.5 : 0) + (next() - 0.5) * 2.5;
      line += score > 0.6 ? ",Yes" : ",No";
    }
    text += line + "\n";
    if (text.length > 1 << 20) {
      await out.write(encoder.encode(text));
      text = "";
    }
  }
  await out.write(encoder.encode(text));
  out.close();
}

/** Peak RSS (VmHWM) of process `pid` in MB, Linux only. */
function peakRssMb(pid: number): number | null {
  try {
    const m = Deno.readTextFileSync(`/proc/${pid}/status`).match(
      /VmHWM:\s+(\d+) kB/,
    );
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/** Current RSS (VmRSS) of process `pid` in MB. */
function rssMb(pid: number): number | null {
  try {
    const m = Deno.readTextFileSync(`/proc/${pid}/status`).match(
      /VmRSS:\s+(\d+) kB/,
    );
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

if (import.meta.main) {
  const at = Deno.args.indexOf("--rows");
  const rows = at >= 0 ? Number(Deno.args[at + 1]) : 100_000;
  const dir = await Deno.makeTempDir({ prefix: "batch_scale_" });
  const dataDir = await Deno.makeTempDir({ prefix: "batch_scale_state_" });
  const env = { MLP_CLIENT_ID: "bench", MLP_CLIENT_SECRET: "bench-secret-1" };
  const serverArgs = [
    "src/local/cli.ts",
    "--port",
    "0",
    "--bucket",
    `b=${dir}`,
    "--data-dir",
    dataDir,
  ];
  const seconds = (t: number) => (performance.now() - t) / 1000;
  try {
    await writeRows(`${dir}/train.csv`, 20_000, 1, true);
    await writeRows(`${dir}/score.csv`, rows, 2, false);
    const inputMb = (await Deno.stat(`${dir}/score.csv`)).size / 2 ** 20;

    // 1. Train and deploy on a first server.
    let server = await startServerProcess(serverArgs, env);
    let ml = connect({
      baseUrl: server.baseUrl,
      clientId: env.MLP_CLIENT_ID,
      clientSecret: env.MLP_CLIENT_SECRET,
      progress: false,
    });
    const { deployment, model } = await ml.quickstart({
      bucket: "b",
      path: "train.csv",
      target: "churn",
      exclude: ["id"],
      // Over HTTP the client cannot read the bucket: the same file, from disk.
      sample: `${dir}/train.csv`,
      progress: false,
    });
    await server.stop();

    // 2. A fresh server on the same state scores.
    server = await startServerProcess(serverArgs, env);
    ml = connect({
      baseUrl: server.baseUrl,
      clientId: env.MLP_CLIENT_ID,
      clientSecret: env.MLP_CLIENT_SECRET,
      progress: false,
    });
    for (;;) {
      const dm = await ml.deployedModels.get(deployment.id);
      if (dm.status === "RUNNING") break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const live = await ml.deployment(deployment.id);
    const rssLoaded = rssMb(server.pid);
    const poll = { initialDelay: 50, maxDelay: 200 };
    const runs: Record<string, { seconds: number; rows: number }> = {};
    for (const views of ["RESULTS", "PREDICTIONS"] as const) {
      const t = performance.now();
      const result = await live.batch({
        bucket: "b",
        path: "score.csv",
        output: `scored_${views.toLowerCase()}.csv`,
        keep: ["id"],
        views,
        progress: false,
        poll,
      });
      runs[views] = { seconds: seconds(t), rows: result.rowsOut };
    }
    const peakBatch = peakRssMb(server.pid);
    // Reading the RESULTS output back through the API, 10,000 rows a page.
    const listed = await ml.batches.list({ items_per_page: 100 });
    const results = listed.data.find((b) =>
      b.output_path === "scored_results.csv"
    )!;
    let t = performance.now();
    let read = 0;
    for (let page = 1;; page++) {
      const got = await ml.batches.results(results.id, {
        page,
        items_per_page: 10_000,
      });
      read += got.data.length;
      if (page >= got.pagination.total_pages) break;
    }
    const readBack = seconds(t);
    const peakAll = peakRssMb(server.pid);
    await server.stop();

    // 3. The floor: the same model's views table in-process, rows parsed.
    const store = await openSqliteStore(dataDir);
    const ebm = modelBlobs.read(store, model.id)!;
    store.close();
    t = performance.now();
    const table = parseCsv(await Deno.readTextFile(`${dir}/score.csv`));
    const parseSeconds = seconds(t);
    const columns = ebm.features.map((f) => table.header.indexOf(f.name));
    t = performance.now();
    for (let from = 0; from < table.rows.length; from += 1000) {
      const part = table.rows.slice(from, from + 1000);
      const query: Record<string, unknown[]> = {};
      ebm.features.forEach((f, j) => {
        query[f.name] = part.map((r) => r[columns[j]]);
      });
      contributionTable(ebm, query);
    }
    const floor = seconds(t);

    // 4. The peer.
    const py = await new Deno.Command("/usr/bin/python3", {
      args: [new URL("./batch_sklearn_ref.py", import.meta.url).pathname, dir],
      stdout: "piped",
      stderr: "inherit",
    }).output();
    const peer = JSON.parse(new TextDecoder().decode(py.stdout));

    const load = Deno.loadavg().map((x) => x.toFixed(2)).join(" ");
    const report = {
      rows,
      input_mb: Number(inputMb.toFixed(1)),
      load,
      batch_results_s: runs.RESULTS.seconds,
      batch_predictions_s: runs.PREDICTIONS.seconds,
      read_back_s: readBack,
      read_back_rows: read,
      floor_views_table_s: floor,
      floor_parse_s: parseSeconds,
      sklearn_score_s: peer.score_s,
      sklearn_predict_s: peer.predict_s,
      ratio_results_vs_floor: runs.RESULTS.seconds / (floor + parseSeconds),
      ratio_results_vs_sklearn: runs.RESULTS.seconds / peer.score_s,
      ratio_predictions_vs_sklearn: runs.PREDICTIONS.seconds / peer.score_s,
      server_rss_loaded_mb: rssLoaded,
      server_peak_rss_batches_mb: peakBatch,
      server_peak_rss_with_read_back_mb: peakAll,
      sklearn_peak_rss_mb: peer.peak_rss_mb,
    };
    console.log(JSON.stringify(report, null, 2));
  } finally {
    await Deno.remove(dir, { recursive: true });
    await Deno.remove(dataDir, { recursive: true });
  }
}
