/**
 * The in-process quickstart at scale: `local()` in this process,
 * then one `quickstart()` (infer, ingest, onboard, train, deploy) on wa_churn
 * resampled to N rows (bench/model_churn_resample.ts), as a new user's
 * notebook would run it. Prints the wall time and this process's peak RSS
 * (VmHWM), which holds everything: the platform, the CSV's parse, the
 * encoded table and the training worker (its helper too).
 *
 * Run: `deno run -A bench/model_quickstart_1m.ts [rows=1000000]`.
 *
 * @module
 */
import { local } from "../local.ts";
import { peakRssMb } from "./model_large.ts";

if (import.meta.main) {
  const rows = Number(Deno.args[0] ?? 1_000_000);
  const dir = await Deno.makeTempDir({ prefix: "quickstart_large_" });
  try {
    // Written by another process: generating 1M rows here would leave its
    // garbage (about 280 MB of RSS) in the figure of the quickstart.
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        new URL("./model_churn_resample.ts", import.meta.url).pathname,
        String(rows),
        dir,
      ],
      stderr: "inherit",
    }).output();
    if (!out.success) throw new Error("model_churn_resample.ts failed");
    const file = new TextDecoder().decode(out.stdout).trim();
    const name = file.slice(dir.length + 1);
    const before = peakRssMb();
    const t = performance.now();
    const ml = await local({ buckets: { big: dir }, progress: false });
    try {
      const { model } = await ml.quickstart({
        bucket: "big",
        path: name,
        target: "churn",
        progress: false,
      });
      const record = await ml.models.get(model.id);
      console.log(JSON.stringify({
        rows,
        seconds: (performance.now() - t) / 1000,
        peak_rss_mb_before: before,
        peak_rss_mb: peakRssMb(),
        stop_reason: record.stop_reason,
      }));
    } finally {
      await ml.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
