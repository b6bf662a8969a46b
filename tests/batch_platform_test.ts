/**
 * Batch views on the local platform, through the client's endpoints: rows
 * come out in input order with the kept columns, predictions equal
 * `views()` on the same rows, result pages cover the output exactly, bad
 * rows become error rows (or fail the job, leaving no file), and a batch's
 * inputs cannot be deleted under it (409 naming the dependants).
 */
import { assert, assertEquals, assertMatch, assertRejects } from "@std/assert";
import { ConflictError, ValidationError } from "../src/http/errors.ts";
import type { ViewsBatchJob } from "../src/schemas/batch.ts";
import {
  type BatchFixture,
  batchFixture,
  churnCsv,
  churnRows,
} from "./_helpers/batch.ts";

let fixture: BatchFixture | undefined;
/** The steps, run in order on one platform (trained once for the file). */
const STEPS: [string, () => Promise<void>][] = [];
let refs: { storage: string; cpu: string } | undefined;

/** While set, deployments stay STARTING until it resolves. */
let hold: { promise: Promise<void>; release: () => void } | undefined;

/** The platform, a storage connector of bucket `b` and a PROCESSING compute, made once. */
async function ready() {
  fixture ??= await batchFixture({
    deploymentGate: () => hold?.promise ?? Promise.resolve(),
  });
  const { ml } = fixture;
  refs ??= {
    storage: (await ml.storageConnectors.create({
      name: "batch-b",
      bucket_name: "b",
    })).id,
    cpu: (await ml.computeConfigurations.create({
      name: "batch-cpu",
      machine_type: "m5",
      compute_type: "PROCESSING",
    })).id,
  };
  return { ...fixture, ...refs };
}

let names = 0;
/** Starts a batch of `input` with a new configuration; resolves once it ended. */
async function runBatch(
  config: {
    keep_columns?: string[];
    on_error?: "FAIL" | "NULL_PREDICTION";
    output_format?: "CSV" | "JSON_LINES";
    view_types?: ("RESULTS" | "PREDICTIONS")[];
  },
  input: string,
  output: string,
): Promise<ViewsBatchJob> {
  const { ml, deployment, storage, cpu } = await ready();
  const n = ++names;
  const c = await ml.viewsBatchConfigurations.create({
    name: `config-${n}`,
    ...config,
  });
  const job = await ml.viewsBatchJobs.create({
    name: `batch-${n}`,
    deployed_model_id: deployment.id,
    views_batch_configuration_id: c.id,
    storage_connector_id: storage,
    compute_configuration_id: cpu,
    data_path: input,
    output_path: output,
    views_batch_name: `scored-${n}`,
  });
  assertEquals(job.status, "STARTING");
  return await untilEnded(job.id);
}

async function untilEnded(id: string): Promise<ViewsBatchJob> {
  const { ml } = await ready();
  for (;;) {
    const job = await ml.viewsBatchJobs.get(id);
    if (!["STARTING", "RUNNING"].includes(job.status)) return job;
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Every row of a batch's output, read page by page through the API. */
async function allResults(batchId: string, per: number) {
  const { ml } = await ready();
  const rows: unknown[][] = [];
  const index: number[] = [];
  let columns: string[] = [];
  for (let page = 1;; page++) {
    const got = await ml.viewsBatches.results(batchId, {
      page,
      items_per_page: per,
    });
    columns = got.columns;
    rows.push(...got.data);
    index.push(...got.index);
    if (page >= got.pagination.total_pages) break;
  }
  return { columns, rows, index };
}

/** Files left in the bucket folder other than the inputs. */
async function filesIn(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const e of Deno.readDir(dir)) names.push(e.name);
  return names.sort();
}

STEPS.push([
  "order kept, kept columns, pages, predictions identical to views()",
  async () => {
    const { ml, deployment, dir } = await ready();
    const rows = churnRows(2500, 11);
    await Deno.writeTextFile(`${dir}/in.csv`, churnCsv(rows));
    const job = await runBatch(
      { keep_columns: ["id"] },
      "in.csv",
      "out/in.csv",
    );
    assertEquals(job.status, "COMPLETED", String(job.message));
    const batch = await ml.viewsBatches.get(job.views_batch.id);
    assertEquals(batch.status, "READY");
    assertEquals([batch.rows_in, batch.rows_out, batch.rows_with_errors], [
      2500,
      2500,
      0,
    ]);
    assertEquals(batch.views_batch_job?.id, job.id);
    // Pages of 700 cross the 1000-row chunks of the file.
    const got = await allResults(batch.id, 700);
    assertEquals(got.columns, batch.columns);
    assertEquals(got.columns[0], "id");
    assertEquals(got.index, rows.map((_, i) => i));
    assertEquals(got.rows.map((r) => r[0]), rows.map((r) => r[0]));

    const { table: views } = await deployment.views({
      tenure: rows.map((r) => r[1]),
      charges: rows.map((r) => r[2]),
      contract: rows.map((r) => r[3]),
    });
    assertEquals(got.columns.slice(1), views.columns);
    assertEquals(got.rows.map((r) => r.slice(1)), views.data);

    // The same rows as JSON Lines, predictions only.
    const jl = await runBatch(
      {
        keep_columns: ["id"],
        output_format: "JSON_LINES",
        view_types: ["PREDICTIONS"],
      },
      "in.csv",
      "in.jsonl",
    );
    assertEquals(jl.status, "COMPLETED", String(jl.message));
    const lines = (await Deno.readTextFile(`${dir}/in.jsonl`)).trim().split(
      "\n",
    );
    assertEquals(lines.length, 2500);
    const jgot = await allResults(jl.views_batch.id, 10_000);
    const keep = views.columns.map((c, i) => [c, i] as const).filter(([c]) =>
      c.startsWith("prediction.") || c.startsWith("probability.")
    );
    assertEquals(jgot.columns, ["id", ...keep.map(([c]) => c)]);
    assertEquals(
      jgot.rows,
      views.data.map((r, i) => [rows[i][0], ...keep.map(([, j]) => r[j])]),
    );
    assertEquals(JSON.parse(lines[0]).id, rows[0][0]);

    // A page past the end is empty, with the pagination still true.
    const past = await ml.viewsBatches.results(batch.id, {
      page: 3,
      items_per_page: 10_000,
    });
    assertEquals([past.data.length, past.pagination.total_items], [0, 2500]);
    assertEquals(await filesIn(`${dir}/out`), ["in.csv"]);
  },
]);

STEPS.push([
  "a bad row is an error row, or fails the job with nothing written",
  async () => {
    const { ml, dir } = await ready();
    const rows: unknown[][] = churnRows(30, 3);
    rows[4] = ["c-bad", "abc", 50, "month", "No"]; // text in a number column
    rows[9] = ["c-short", 12, 30]; // too few fields
    await Deno.writeTextFile(`${dir}/bad.csv`, churnCsv(rows));
    const job = await runBatch(
      { keep_columns: ["id"], on_error: "NULL_PREDICTION" },
      "bad.csv",
      "bad_scored.csv",
    );
    assertEquals(job.status, "COMPLETED", String(job.message));
    const batch = await ml.viewsBatches.get(job.views_batch.id);
    assertEquals([batch.rows_in, batch.rows_out, batch.rows_with_errors], [
      30,
      30,
      2,
    ]);
    assertEquals(batch.columns.at(-1), "error");
    const { rows: out } = await allResults(batch.id, 100);
    assertEquals(out.map((r) => r[0]), rows.map((r) => r[0]));
    const error = (i: number) => out[i].at(-1);
    assertMatch(String(error(4)), /^column 'tenure': .*"abc" is not a number/);
    assertMatch(String(error(9)), /3 fields but the header has 5/);
    assertEquals(out[4].slice(1, -1).every((v) => v === null), true);
    assertEquals(out[9][0], "c-short");
    assertEquals(
      out.filter((_, i) => i !== 4 && i !== 9).every((r) =>
        r.at(-1) === null && typeof r[1] === "string"
      ),
      true,
    );

    const failed = await runBatch({}, "bad.csv", "bad_failed.csv");
    assertEquals(failed.status, "FAILED");
    assertMatch(
      String(failed.message),
      /Row 5 \(line 6\) of "bad.csv" in bucket "b" cannot be scored: column 'tenure'/,
    );
    assertEquals(
      (await ml.viewsBatches.get(failed.views_batch.id)).status,
      "FAILED",
    );
    const left = await filesIn(dir);
    assert(
      !left.some((f) => f.startsWith("bad_failed") || f.includes(".part")),
      left.join(),
    );
    await assertRejects(
      () => ml.viewsBatches.results(failed.views_batch.id),
      ConflictError,
    );
  },
]);

STEPS.push(["bad input is a clear error and leaves no file", async () => {
  const { ml, deployment, dir, storage, cpu } = await ready();
  await Deno.writeTextFile(`${dir}/empty.csv`, "");
  await Deno.writeTextFile(`${dir}/header.csv`, "id,tenure,charges,contract\n");
  await Deno.writeTextFile(
    `${dir}/nocol.csv`,
    "id,tenure,contract\na,1,month\n",
  );
  await Deno.writeTextFile(
    `${dir}/semi.csv`,
    "id;tenure;charges;contract\na;1;20;month\n",
  );
  const empty = await runBatch({}, "empty.csv", "empty_out.csv");
  assertEquals(empty.status, "FAILED");
  assertMatch(String(empty.message), /is empty: a CSV file needs a header row/);
  const missing = await runBatch(
    { keep_columns: ["id"] },
    "nocol.csv",
    "nocol_out.csv",
  );
  assertEquals(missing.status, "FAILED");
  assertMatch(
    String(missing.message),
    /no column for the model's feature "charges"/,
  );
  // A file separated by semicolons reads as one column: said so.
  const semi = await runBatch({}, "semi.csv", "semi_out.csv");
  assertEquals(semi.status, "FAILED");
  assertMatch(String(semi.message), /looks separated by semicolons/);
  const header = await runBatch(
    { keep_columns: ["id"] },
    "header.csv",
    "header_out.csv",
  );
  assertEquals(header.status, "COMPLETED", String(header.message));
  const batch = await ml.viewsBatches.get(header.views_batch.id);
  assertEquals([batch.rows_in, batch.rows_with_errors], [0, 0]);
  assertEquals(
    (await Deno.readTextFile(`${dir}/header_out.csv`)).trim(),
    batch.columns.join(","),
  );
  const left = await filesIn(dir);
  assert(
    !left.includes("empty_out.csv") && !left.includes("nocol_out.csv") &&
      !left.includes("semi_out.csv"),
  );
  assert(!left.some((f) => f.includes(".part")), left.join());

  const c = await ml.viewsBatchConfigurations.create({ name: "plain" });
  const body = {
    name: "refused",
    deployed_model_id: deployment.id,
    views_batch_configuration_id: c.id,
    storage_connector_id: storage,
    compute_configuration_id: cpu,
    data_path: "in.csv",
    output_path: "o.csv",
    views_batch_name: "refused",
  };
  const refused = async (patch: Record<string, string>, path: string) => {
    const e = await assertRejects(
      () => ml.viewsBatchJobs.create({ ...body, ...patch }),
      ValidationError,
    );
    assertEquals(e.issues[0].path, path, e.message);
    return e.issues[0].message;
  };
  assertMatch(
    await refused({ data_path: "../etc/passwd.csv" }, "data_path"),
    /leaves the bucket/,
  );
  assertMatch(
    await refused({ output_path: "../o.csv" }, "output_path"),
    /leaves the bucket/,
  );
  assertMatch(
    await refused({ output_path: "/tmp/o.csv" }, "output_path"),
    /absolute/,
  );
  assertMatch(
    await refused({ data_path: "train.txt" }, "data_path"),
    /not a CSV file/,
  );
  assertMatch(await refused({ data_path: "nope.csv" }, "data_path"), /no file/);
  assertMatch(
    await refused(
      { output_path: "header.csv", data_path: "header.csv" },
      "output_path",
    ),
    /is the input/,
  );
  // A compressed name for an output written as plain text: zcat failed on
  // scored/out.csv.gz, a CSV under a .gz name.
  for (
    const name of ["scored/out.csv.gz", "out.CSV.GZ", "o.zip", "o.csv.bz2"]
  ) {
    assertMatch(
      await refused({ output_path: name }, "output_path"),
      /names a compressed file, but the output is written uncompressed \(CSV\): name it "\.csv"/,
    );
  }
  const kept = await ml.viewsBatchConfigurations.create({
    name: "clash",
    keep_columns: ["bias"],
  });
  assertMatch(
    await refused(
      { views_batch_configuration_id: kept.id },
      "views_batch_configuration_id",
    ),
    /two columns named "bias"/,
  );
  const training = await ml.computeConfigurations.create({
    name: "gpu-batch",
    machine_type: "g5",
    compute_type: "TRAINING",
  });
  assertMatch(
    await refused(
      { compute_configuration_id: training.id },
      "compute_configuration_id",
    ),
    /PROCESSING/,
  );
  // Nothing was created by the refused calls.
  assertEquals(
    (await ml.viewsBatchJobs.list({ items_per_page: 100 })).data.filter((j) =>
      j.name === "refused"
    ).length,
    0,
  );
}]);

STEPS.push([
  "deleting what a batch uses answers 409 naming the batch and its job",
  async () => {
    const { ml, deployment, dir, storage } = await ready();
    await Deno.writeTextFile(`${dir}/small.csv`, churnCsv(churnRows(5, 5)));
    const job = await runBatch({}, "small.csv", "small_out.csv");
    assertEquals(job.status, "COMPLETED", String(job.message));
    const expected = [
      { id: job.views_batch.id, dependant_type: "VIEWS_BATCH" },
      { id: job.id, dependant_type: "VIEWS_BATCH_JOB" },
    ];
    const dependants = async (del: () => Promise<void>) => {
      const e = await assertRejects(del, ConflictError);
      return e.dependants.map((d) => ({
        id: d.id,
        dependant_type: d.dependant_type,
      }))
        .filter((d) => d.id === job.id || d.id === job.views_batch.id)
        .sort((a, b) => a.dependant_type.localeCompare(b.dependant_type));
    };
    assertEquals(
      await dependants(() =>
        ml.viewsBatchConfigurations.delete(job.views_batch_configuration.id)
      ),
      expected,
    );
    assertEquals(
      await dependants(() => ml.deployedModels.delete(deployment.id)),
      expected,
    );
    assertEquals(
      await dependants(() => ml.storageConnectors.delete(storage)),
      expected,
    );
    // An output rewritten since (same size, other text) is not read as the batch's.
    assertEquals(
      (await ml.viewsBatches.results(job.views_batch.id)).data.length,
      5,
    );
    const written = await Deno.readTextFile(`${dir}/small_out.csv`);
    await new Promise((r) => setTimeout(r, 20)); // a later modification time
    await Deno.writeTextFile(
      `${dir}/small_out.csv`,
      written.replace(/\d(?=\D*$)/, (d) => String((Number(d) + 1) % 10)),
    );
    const changed = await assertRejects(
      () => ml.viewsBatches.results(job.views_batch.id),
      ConflictError,
    );
    assertMatch(changed.message, /changed since the views batch/);
    // The batch and its job go (each without blocking the other), then the configuration.
    await ml.viewsBatches.delete(job.views_batch.id);
    await ml.viewsBatchJobs.delete(job.id);
    await ml.viewsBatchConfigurations.delete(job.views_batch_configuration.id);
    // The output file is the bucket owner's: deleting the batch leaves it.
    assert((await Deno.stat(`${dir}/small_out.csv`)).isFile);
  },
]);

STEPS.push([
  "a gzip-compressed input (one member or several) gives the same output",
  async () => {
    const { dir } = await ready();
    const rows = churnRows(1500, 21);
    const text = churnCsv(rows);
    await Deno.writeTextFile(`${dir}/plain.csv`, text);
    const gz = new Response(
      new Blob([text]).stream().pipeThrough(new CompressionStream("gzip")),
    );
    await Deno.writeFile(
      `${dir}/packed.csv.gz`,
      new Uint8Array(await gz.arrayBuffer()),
    );
    const plain = await runBatch(
      { keep_columns: ["id"] },
      "plain.csv",
      "plain_out.csv",
    );
    const packed = await runBatch(
      { keep_columns: ["id"] },
      "packed.csv.gz",
      "packed_out.csv",
    );
    // Two gzip members one after another (`cat a.gz b.gz`, pigz, bgzip), cut
    // mid-line: one stream of their contents (RFC 1952).
    const members = await Promise.all(
      [text.slice(0, 1001), text.slice(1001)].map((part) =>
        new Response(
          new Blob([part]).stream().pipeThrough(new CompressionStream("gzip")),
        ).arrayBuffer()
      ),
    );
    await Deno.writeFile(
      `${dir}/members.csv.gz`,
      new Uint8Array(await new Blob(members).arrayBuffer()),
    );
    const joined = await runBatch(
      { keep_columns: ["id"] },
      "members.csv.gz",
      "members_out.csv",
    );
    assertEquals(
      [plain.status, packed.status, joined.status],
      ["COMPLETED", "COMPLETED", "COMPLETED"],
    );
    const expected = await Deno.readTextFile(`${dir}/plain_out.csv`);
    assertEquals(await Deno.readTextFile(`${dir}/packed_out.csv`), expected);
    assertEquals(await Deno.readTextFile(`${dir}/members_out.csv`), expected);
  },
]);

STEPS.push([
  "a deployed model that is not RUNNING is a 409 saying to wait",
  async () => {
    const { ml, deployment, storage, cpu } = await ready();
    let release = () => {};
    hold = {
      promise: new Promise<void>((r) => (release = r)),
      release: () => release(),
    };
    const model = (await ml.deployedModels.get(deployment.id)).model.id;
    const dc = await ml.deploymentConfigurations.create({ name: "held" });
    const starting = await ml.deployedModels.create({
      name: "held",
      model_id: model,
      deployment_configuration_id: dc.id,
    });
    const c = await ml.viewsBatchConfigurations.create({ name: "for-held" });
    const e = await assertRejects(
      () =>
        ml.viewsBatchJobs.create({
          name: "too-early",
          deployed_model_id: starting.id,
          views_batch_configuration_id: c.id,
          storage_connector_id: storage,
          compute_configuration_id: cpu,
          data_path: "in.csv",
          output_path: "early.csv",
          views_batch_name: "too-early",
        }),
      ConflictError,
    );
    assertMatch(
      e.message,
      /is STARTING, not RUNNING: poll GET \/deployed-models\//,
    );
    hold.release();
    hold = undefined;
  },
]);

Deno.test("batch views on the local platform", async (t) => {
  try {
    for (const [name, fn] of STEPS) await t.step(name, fn);
  } finally {
    hold?.release();
    await fixture?.close();
  }
});
