/**
 * Schema inference alone, in its own process: `inferSchema()` of one CSV file
 * given as a path, a Blob of the file's bytes, or `{ csv }` of its text, then
 * this process's peak RSS (VmHWM) and the time inference took. The fields
 * and review notes are printed as a hash, so two runs (before and after a
 * change) can be compared for the identical schema.
 *
 * Run: `deno run -A bench/infer_schema.ts <file.csv[.gz]> <target>
 * [--source=path|blob|text]` (default `path`). Make a large file with
 * bench/model_churn_resample.ts. Wrap it in `/usr/bin/time -f "%M KB %U user
 * %S sys %e wall"` for the kernel's view of the same peak.
 *
 * @module
 */
import { inferSchema } from "../src/infer/infer.ts";
import { peakRssMb } from "./model_large.ts";

if (import.meta.main) {
  const source = Deno.args.find((a) => a.startsWith("--source="))?.slice(9) ??
    "path";
  const [file, target] = Deno.args.filter((a) => !a.startsWith("--"));
  const t = performance.now();
  const input = source === "blob"
    ? new Blob([await Deno.readFile(file)])
    : source === "text"
    ? { csv: await Deno.readTextFile(file) }
    : file;
  const draft = await inferSchema(input, { target, name: "bench" });
  const seconds = (performance.now() - t) / 1000;
  const body = JSON.stringify({ fields: draft.fields, review: draft.review });
  const digest = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(body),
  );
  console.log(JSON.stringify({
    source,
    seconds: Math.round(seconds * 100) / 100,
    peak_rss_mb: peakRssMb(),
    fields: draft.fields.length,
    review: draft.review.length,
    schema_sha256: Array.from(new Uint8Array(digest).slice(0, 8))
      .map((b) => b.toString(16).padStart(2, "0")).join(""),
  }));
}
