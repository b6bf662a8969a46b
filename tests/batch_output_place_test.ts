/**
 * Where a views batch job writes: the create resolves the output path and
 * makes nothing (a create refused after the check leaves no folder), the job
 * makes the folders, and a folder swapped for a link out of the bucket
 * between the create and the job's writes is not written through
 * (docs/contract.md, "Buckets (local platform)" and "Batch views").
 */
import { assertEquals, assertMatch } from "@std/assert";
import { encodeDataset } from "../src/local/model/encoding.ts";
import { train } from "../src/local/model/ebm.ts";
import { tempName } from "../src/local/jobs/batch.ts";
import { resolveOutputPath } from "../src/local/store/buckets.ts";
import { runBatchWork } from "./_helpers/batch.ts";

const model = train(
  encodeDataset({
    x: [1, 2, 3, 4, 5, 6, 7, 8],
    y: ["lo", "lo", "lo", "lo", "hi", "hi", "hi", "hi"],
  }, [
    {
      name: "x",
      data_type: { data_type: "NUMBER" },
      designation: "FEATURE",
      semantic_type: "CONTINUOUS",
    },
    {
      name: "y",
      data_type: { data_type: "STRING" },
      designation: "TARGET",
      semantic_type: "CATEGORICAL",
    },
  ]),
  { max_rounds: 5 },
);

/** Runs a batch of `bucket/in.csv` to `outputFile`; the job's record body. */
async function runJob(bucket: string, outputFile: string) {
  const { job } = await runBatchWork(`${bucket}/in.csv`, {
    model: () => model,
    shape: {
      viewType: "PREDICTIONS",
      keep: [],
      onError: "FAIL",
      errorColumn: "error",
    },
    format: "CSV",
    outputFile,
    outputDisplay: "the output",
    tempFile: tempName(outputFile, "vb_1"),
  });
  return job;
}

const tree = (dir: string): string[] =>
  [...Deno.readDirSync(dir)].flatMap((e) =>
    e.isDirectory
      ? [`${e.name}/`, ...tree(`${dir}/${e.name}`).map((n) => `${e.name}/${n}`)]
      : [e.name]
  ).sort();

Deno.test("batch output: resolving makes no folder; the job makes them and writes there", async () => {
  const bucket = await Deno.realPath(await Deno.makeTempDir());
  await Deno.writeTextFile(`${bucket}/in.csv`, "x\n1\n8\n");
  const out = await resolveOutputPath({ b: bucket }, "b", "new/deep/x.csv");
  assertEquals(out.file, `${bucket}/new/deep/x.csv`);
  assertEquals(tree(bucket), ["in.csv"], "nothing made by the check");
  const job = await runJob(bucket, out.file);
  assertEquals(job.status, "COMPLETED", job.message);
  assertEquals(tree(bucket), ["in.csv", "new/", "new/deep/", "new/deep/x.csv"]);
  await Deno.remove(bucket, { recursive: true });
});

Deno.test("batch output: a folder swapped for a link out of the bucket after the create is not written through", async () => {
  const bucket = await Deno.realPath(await Deno.makeTempDir());
  const outside = await Deno.realPath(await Deno.makeTempDir());
  await Deno.writeTextFile(`${bucket}/in.csv`, "x\n1\n8\n");
  // The output's own folder, and a folder above folders still to make.
  for (const [folder, path] of [["sw", "sw/x.csv"], ["p", "p/q/x.csv"]]) {
    await Deno.mkdir(`${bucket}/${folder}`);
    const out = await resolveOutputPath({ b: bucket }, "b", path);
    Deno.renameSync(`${bucket}/${folder}`, `${bucket}/${folder}_old`);
    Deno.symlinkSync(outside, `${bucket}/${folder}`);
    const job = await runJob(bucket, out.file);
    assertEquals(job.status, "FAILED", path);
    assertMatch(String(job.message), /the output changed while the job ran/);
    assertEquals(tree(outside), [], `${path}: nothing written outside`);
  }
  await Deno.remove(bucket, { recursive: true });
  await Deno.remove(outside, { recursive: true });
});
