/**
 * Protected fields and model constraints through the SDK on the local
 * platform (docs/contract.md#model-constraints-and-protected-fields), on a
 * third of the public churn table: the shapes' create and read, the 400s
 * naming the constraint, the model record's per-group metrics reproduced
 * exactly by `GROUP_METRICS` views on its validation rows, the constraints'
 * cost, and a monotone feature checked on a dense grid through views.
 */
import { assert, assertEquals, assertRejects } from "@std/assert";
import { local } from "../local.ts";
import { ConflictError, ValidationError } from "../src/http/errors.ts";
import { parseCsv } from "../src/csv.ts";
import type { FieldType } from "../src/builders/fields.ts";

const DATASETS = new URL("../datasets/", import.meta.url).pathname;

Deno.test("protected fields and model constraints: shapes, 400s, per-group metrics as views give them, monotone on a grid", async () => {
  const dir = await Deno.makeTempDir({ prefix: "constraints_" });
  const text = await Deno.readTextFile(`${DATASETS}wa_churn.csv`);
  const lines = text.trimEnd().split("\n");
  // Every third row: the table's columns and spread, a quicker training.
  const kept = [lines[0], ...lines.slice(1).filter((_, i) => i % 3 === 0)];
  await Deno.writeTextFile(`${dir}/churn.csv`, kept.join("\n") + "\n");
  const table = parseCsv(kept.join("\n"));
  const column = (name: string) => {
    const j = table.header.indexOf(name);
    return table.rows.map((r) => {
      const v = r[j];
      if (v === "") return null;
      const x = Number(v);
      return Number.isFinite(x) ? x : v;
    });
  };
  const ml = await local({ buckets: { data: dir }, progress: false });
  try {
    const floats = ["tenure", "monthly_charges", "total_charges"];
    const strings = new Set(
      table.header.filter((h) =>
        table.rows.some((r) =>
          r[table.header.indexOf(h)] !== "" &&
          !Number.isFinite(Number(r[table.header.indexOf(h)]))
        )
      ),
    );
    const typeOf = (name: string): FieldType =>
      floats.includes(name)
        ? ml.float()
        : strings.has(name)
        ? ml.category()
        : ml.flag();
    // deno-lint-ignore no-explicit-any
    let builder: any = ml.schema("churn");
    for (const name of table.header) {
      if (name !== "churn") builder = builder.feature(name, typeOf(name));
    }
    const schema = await builder.target("churn").protect("female").create();
    // Read back: the protection with its ids.
    const read = await ml.dataSchemas.get(schema.id);
    assertEquals(read.data_protections.length, 1);
    const protection = read.data_protections[0] as {
      id: string;
      protected_fields: { id: string; name: string }[];
    };
    assert(protection.id.length > 0);
    assertEquals(protection.protected_fields.map((f) => f.name), ["female"]);
    assert(protection.protected_fields[0].id.length > 0);
    // Protecting the target, or a column the schema lacks: 400 naming it.
    const bad = await assertRejects(
      () =>
        ml.dataSchemas.create({
          name: "bad",
          fields: [
            { ...typeOf("tenure"), name: "tenure", designation: "FEATURE" },
            { ...ml.category(), name: "churn", designation: "TARGET" },
          ],
          data_protections: [{ fields: ["churn", "nope"] }],
        }),
      ValidationError,
    );
    assertEquals(bad.issues.map((i) => i.path), [
      "data_protections.0.fields.0",
      "data_protections.0.fields.1",
    ]);

    const storage = await ml.storageConnector("data");
    const source = await ml.ingest("churn.csv", { storage, schema });
    const dataset = await ml.onboard(source);
    // A schema a datasource uses is not deleted (the integrity rule).
    await assertRejects(
      () => ml.dataSchemas.delete(schema.id),
      ConflictError,
    );
    // Two bags, the fewest that are averaged (monotone shapes must stay
    // monotone through the average): the subject is the constraints, not
    // the accuracy, and two bags are a quarter of the default's CPU. Bins
    // and pairs given: no inner search for either of the two models the
    // constraint cost trains (the search is model_selection_test's).
    const config = await ml.trainingConfiguration("constrained", {
      randomSeed: 3,
      estimators: 2,
      bins: 64,
      maxInteractions: 3,
    });
    const compute = await ml.compute("trainer", { computeType: "TRAINING" });
    const workspace = await ml.workspace("constraints");
    const job = (modelName: string) =>
      ml.trainingJob({
        dataset,
        configuration: config,
        compute,
        workspace,
        modelName,
      });
    // Refused with a 400 naming the constraint.
    const refused = async (
      j: ReturnType<typeof job>,
      path: string,
      words: string,
    ) => {
      // The builder checks what it can before sending (a duplicate), the
      // platform the rest.
      const e = await assertRejects(
        async () => await j.create(),
        ValidationError,
      );
      // (The builder's path adds the option it came from.)
      assertEquals(e.issues[0]?.path.split(" ")[0], path, e.message);
      assert(e.message.includes(words), e.message);
    };
    await refused(
      job("m1").monotone("contract", "increasing"),
      "model_constraints.0.field",
      "CATEGORICAL",
    );
    await refused(
      job("m2").exclude("total_charges").monotone(
        "nope" as never,
        "increasing",
      ),
      "model_constraints.1.field",
      "not a feature",
    );
    await refused(
      job("m3").monotone("female", "increasing"),
      "model_constraints.0.field",
      "protected",
    );
    await refused(
      job("m4").interactions(["tenure", "female"]),
      "model_constraint_groups.0.fields.1",
      "protected",
    );
    await refused(
      job("m5").monotone("tenure", "increasing").exclude("tenure"),
      "model_constraints.1.field",
      "constrained twice",
    );

    const trained = await job("churn-constrained")
      .monotone("tenure", "decreasing")
      .monotone("monthly_charges", "increasing")
      .exclude("total_charges")
      .interactions(["tenure", "contract", "monthly_charges"], [
        "internet_service",
        "payment_method",
      ])
      .with({ measureConstraintCost: true });
    const model = await trained;
    // The job carries its constraints with ids.
    const jobRecord = (await ml.trainingJobs.list()).data.find((j) =>
      j.model.id === model.id
    )!;
    assertEquals(
      jobRecord.model_constraints!.map((c) =>
        `${c.field}:${c.constraint_type}`
      ),
      [
        "tenure:MONOTONE_DECREASING",
        "monthly_charges:MONOTONE_INCREASING",
        "total_charges:EXCLUDED",
      ],
    );
    assert(jobRecord.model_constraints!.every((c) => c.id.length > 0));
    assertEquals(jobRecord.model_constraint_groups!.length, 2);
    // Excluded and protected features: no term, listed as dropped.
    assert(!model.features!.includes("female"));
    assert(!model.features!.includes("total_charges"));
    for (const t of model.terms!) {
      assert(!/female|total_charges/.test(t), t);
    }
    for (const t of model.terms!.filter((t) => t.includes("*"))) {
      const [a, b] = t.split("*");
      const groups = [["tenure", "contract", "monthly_charges"], [
        "internet_service",
        "payment_method",
      ]];
      assert(groups.some((g) => g.includes(a) && g.includes(b)), t);
    }
    const cost = model.constraint_cost!;
    assertEquals(cost.metric, "validation_auc");
    assert(cost.constrained! > 0.7 && cost.unconstrained! > 0.7);
    assertEquals(cost.constrained, model.metrics!.validation_auc);

    // Per-group metrics: the record's are the GROUP_METRICS views' on the
    // validation rows it names.
    const [female] = model.group_metrics!;
    assertEquals(female.field, "female");
    assertEquals(female.groups.map((g) => g.group), ["0", "1"]);
    assertEquals(
      female.groups.reduce((s, g) => s + g.count, 0),
      model.validation!.rows,
    );
    const live = await ml.deploy(model);
    const rows = model.validation!.row_indices!;
    const query: Record<string, (string | number | null)[]> = {};
    for (const name of [...model.features!, "female"]) {
      const values = column(name);
      query[name] = rows.map((r) => values[r]);
    }
    const churn = column("churn");
    const answer = await ml.deployedModels.views(live.id, {
      data: [{ view_type: "GROUP_METRICS" }],
      query,
      targets: { churn: rows.map((r) => churn[r]) },
    });
    const names = answer.columns.slice(3);
    assertEquals(names, ["positive_rate", "auc", "accuracy", "fpr", "fnr"]);
    for (const g of female.groups) {
      const row = answer.data.find((r) =>
        r[0] === "female" && r[1] === g.group
      )!;
      assertEquals(row[2], g.count);
      names.forEach((m, k) => assertEquals(row[3 + k], g.metrics[m], m));
    }
    const gap = answer.data.find((r) => r[1] === "(largest gap)")!;
    names.forEach((m, k) => assertEquals(gap[3 + k], female.largest_gap[m]));
    // A RESULTS view refuses the protected field as a feature, saying why.
    const refusedViews = await assertRejects(
      () => ml.deployedModels.views(live.id, { query }),
      ValidationError,
    );
    assert(refusedViews.message.includes("protected"), refusedViews.message);

    // Monotone through views: tenure swept over a dense grid (beyond its
    // range), every other feature held at a row's values.
    const grid = Array.from({ length: 500 }, (_, i) => -5 + i * 0.18);
    for (const r of rows.slice(0, 4)) {
      const q: Record<string, (string | number | null)[]> = {};
      for (const name of model.features!) {
        q[name] = name === "tenure"
          ? grid
          : grid.map(() => query[name][rows.indexOf(r)]);
      }
      const t = await ml.deployedModels.views(live.id, {
        query: q,
        targets: { churn: "Yes" },
      });
      const at = (n: string) => t.columns.indexOf(n);
      const logit = t.data.map((row) =>
        t.columns.reduce(
          (s, c, k) =>
            c === "bias" || c.startsWith("contribution.")
              ? s + Number(row[k])
              : s,
          0,
        )
      );
      assert(at("bias") >= 0);
      for (let i = 1; i < logit.length; i++) {
        assert(logit[i] <= logit[i - 1], `tenure ${grid[i]}: ${logit[i]}`);
      }
    }
  } finally {
    await ml.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a monotone constraint on a dataset of three classes is a 400 naming it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "constraints3_" });
  const rows = Array.from(
    { length: 60 },
    (_, i) => `${i},${["a", "b", "c"][i % 3]}`,
  );
  await Deno.writeTextFile(`${dir}/three.csv`, ["x,y", ...rows].join("\n"));
  const ml = await local({ buckets: { data: dir }, progress: false });
  try {
    const schema = await ml.schema("three").feature("x", ml.float())
      .target("y").create();
    const storage = await ml.storageConnector("data");
    const source = await ml.ingest("three.csv", { storage, schema });
    const dataset = await ml.onboard(source);
    const e = await assertRejects(
      async () =>
        await ml.trainingJob({
          dataset,
          configuration: await ml.trainingConfiguration("t3", {}),
          compute: await ml.compute("c3", { computeType: "TRAINING" }),
          workspace: await ml.workspace("w3"),
          modelName: "three",
        }).monotone("x", "increasing").create(),
      ValidationError,
    );
    assertEquals(e.issues[0]?.path, "model_constraints.0.field");
    assert(e.message.includes("3 classes"), e.message);
  } finally {
    await ml.close();
    await Deno.remove(dir, { recursive: true });
  }
});
