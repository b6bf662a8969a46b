/**
 * The SDK's one-call constraints (docs/contract.md#model-constraints-and-protected-fields)
 * on the local platform: `ml.train(dataset, { monotone, exclude,
 * interactions, measureConstraintCost })` and `quickstart({ training })`
 * send the job's constraints, and `deployment.groupMetrics()` on the
 * model's validation rows gives exactly the record's `group_metrics`.
 */
import { assert, assertEquals } from "@std/assert";
import { local } from "../local.ts";

/** A small binary table: y rises with x; w is noise; sex is protected. */
function table(n: number): { csv: string; cols: Record<string, unknown[]> } {
  let seed = 7;
  const rand = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const cols: Record<string, unknown[]> = {
    x: [],
    z: [],
    w: [],
    sex: [],
    y: [],
  };
  for (let i = 0; i < n; i++) {
    const x = Math.round(rand() * 1000) / 100;
    const z = Math.round(rand() * 1000) / 100;
    const sex = rand() < 0.5 ? "f" : "m";
    cols.x.push(x);
    cols.z.push(z);
    cols.w.push(Math.round(rand() * 100));
    cols.sex.push(sex);
    cols.y.push(x + z / 3 + rand() * 4 > 7 ? 1 : 0);
  }
  const names = Object.keys(cols);
  const lines = [names.join(",")];
  for (let i = 0; i < n; i++) {
    lines.push(names.map((k) => cols[k][i]).join(","));
  }
  return { csv: lines.join("\n") + "\n", cols };
}

Deno.test("one call: ml.train and quickstart take the constraints; deployment.groupMetrics equals the record's on its validation rows", async () => {
  const dir = await Deno.makeTempDir({ prefix: "one_call_" });
  const { csv, cols } = table(400);
  await Deno.writeTextFile(`${dir}/t.csv`, csv);
  const ml = await local({ buckets: { data: dir }, progress: false });
  try {
    const schema = await ml.schema("t")
      .feature("x", ml.float())
      .feature("z", ml.float())
      .feature("w", ml.float())
      .feature("sex", ml.category())
      .target("y", ml.category())
      .protect("sex")
      .create();
    const storage = await ml.storageConnector("data");
    const source = await ml.ingest("t.csv", { storage, schema });
    const dataset = await ml.onboard(source);
    const model = await ml.train(dataset, {
      maxRounds: 30,
      // Two bags (the fewest averaged): the subject is the constraints.
      estimators: 2,
      monotone: { x: "increasing" },
      exclude: ["w"],
      interactions: [["x", "z"]],
      measureConstraintCost: true,
    });
    const job = (await ml.trainingJobs.list()).data.find((j) =>
      j.model.id === model.id
    )!;
    assertEquals(
      job.model_constraints!.map((c) => `${c.field}:${c.constraint_type}`),
      ["x:MONOTONE_INCREASING", "w:EXCLUDED"],
    );
    assertEquals(job.model_constraint_groups!.map((g) => g.fields), [[
      "x",
      "z",
    ]]);
    assert(model.constraint_cost, "measureConstraintCost reached the job");
    assert(!model.features!.includes("w") && !model.features!.includes("sex"));

    // Per-group metrics of the validation rows, through the deployment.
    const live = await ml.deploy(model);
    const rows = model.validation!.row_indices!;
    const pick = (name: string) => rows.map((r) => cols[name][r]);
    const got = await live.groupMetrics(
      { x: pick("x"), z: pick("z"), sex: pick("sex") },
      { y: pick("y") },
    );
    assertEquals(got, model.group_metrics);

    // quickstart passes its training options' constraints the same way.
    const quick = await ml.quickstart({
      bucket: "data",
      path: "t.csv",
      target: "y",
      training: { maxRounds: 10, estimators: 2, exclude: ["w", "sex"] },
    });
    assert(!quick.model.features!.includes("w"), `${quick.model.features}`);
    assert(!quick.model.features!.includes("sex"));
    const quickJob = (await ml.trainingJobs.list()).data.find((j) =>
      j.model.id === quick.model.id
    )!;
    assertEquals(
      quickJob.model_constraints!.map((c) => c.field).sort(),
      ["sex", "w"],
    );
  } finally {
    await ml.close();
    await Deno.remove(dir, { recursive: true });
  }
});
