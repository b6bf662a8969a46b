/**
 * An outside tester's hostile suite against training inputs and the model
 * record: odd constraints and protections, odd targets and tiny tables,
 * huge values, and what the SDK's one-call steps accept that the platform
 * then refuses late. Every bad input must be a typed error naming the field
 * before anything is stored (a ValidationError in the SDK, a 400 over
 * HTTP), or, when only the data can tell, a job FAILED with a message
 * naming the column; never a crash, a hang or a record the SDK cannot read.
 * What tests/local_adversarial_test.ts, tests/sdk_adversarial_test.ts,
 * tests/data_adversarial_test.ts and the constraint tests
 * (tests/local_constraints_test.ts, tests/model_constraints_test.ts) hold
 * is not repeated here.
 */
import { assert, assertEquals, assertMatch, assertThrows } from "@std/assert";
import { local, type LocalMLPlatform } from "../local.ts";
import { ValidationError } from "../src/http/errors.ts";
import { JobFailedError } from "../src/jobs/errors.ts";
import { constrainDataset } from "../src/local/model/constraints.ts";
import { encodeDataset } from "../src/local/model/encoding.ts";
import { raw, tokenFor } from "./_helpers/local_setup.ts";
import { ModelDataError } from "../src/local/model/errors.ts";
import { explanationChart } from "../notebook.ts";
import { ViewsResult } from "../src/builders/views_result.ts";
import { field } from "./_helpers/generated.ts";

/** A CSV of `n` rows: `header`, then `row(i)` for each. */
function csv(header: string, n: number, row: (i: number) => string): string {
  return [header, ...Array.from({ length: n }, (_, i) => row(i))].join("\n") +
    "\n";
}

/** One in-process platform on a fresh bucket folder, for one test. */
async function platform(): Promise<
  { ml: LocalMLPlatform; dir: string; done: () => Promise<void> }
> {
  const dir = await Deno.makeTempDir({ prefix: "model_adv_" });
  const ml = await local({ buckets: { b: dir }, progress: false });
  return {
    ml,
    dir,
    done: async () => {
      await ml.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** How many of each resource the account holds (refused calls store none). */
async function counts(ml: LocalMLPlatform): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (
    const c of [
      "storageConnectors",
      "dataSchemas",
      "ingestionConfigurations",
      "ingestionJobs",
      "datasources",
      "onboardingConfigurations",
      "onboardingJobs",
      "datasets",
      "trainingConfigurations",
      "trainingJobs",
      "models",
    ] as const
  ) {
    out[c] = (await ml[c].list({ items_per_page: 100 })).data.length;
  }
  return out;
}

/** A short training: one bag, few rounds (the subject is the input). */
const QUICK = { estimators: 1, maxRounds: 10 } as const;

Deno.test("model adversarial: a training left with no feature (all excluded, or all protected) is a 400 naming the constraint, not a crash of the job", async () => {
  const { ml, dir, done } = await platform();
  try {
    await Deno.writeTextFile(
      `${dir}/t.csv`,
      csv(
        "x,z,g,y",
        40,
        (i) => `${i},${i % 7},${"pq"[i % 2]},${"ab"[+(i < 20)]}`,
      ),
    );
    const storage = await ml.storageConnector("b");
    const schema = await ml.schema("t").feature("x", ml.float())
      .feature("z", ml.float()).feature("g", ml.category())
      .target("y", ml.category()).protect("g").create();
    const dataset = await ml.onboard(
      await ml.ingest("t.csv", { storage, schema }),
    );
    const before = await counts(ml);
    // docs/contract.md#model-validation-rows: "Training fails when no
    // feature is left"; here it is known at create, so it is refused there,
    // naming the constraint that left nothing (the protected g never was).
    const error = await ml.train(dataset, { ...QUICK, exclude: ["x", "z"] })
      .then(() => undefined, (e) => e);
    assert(error instanceof ValidationError, String(error));
    assertEquals(error.issues.map((i) => i.path), [
      "model_constraints.1.field",
    ]);
    assertMatch(error.message, /no feature of the dataset is left/);
    assertMatch(error.message, /g \(protected\)/);
    const after = await counts(ml);
    // The one-call step's own configuration is deleted again.
    assertEquals(after, before);

    // Every feature protected by the schema: nothing to name but the dataset.
    const allProtected = await ml.schema("p").feature("x", ml.float())
      .feature("z", ml.float()).feature("g", ml.category())
      .target("y", ml.category()).protect("x", "z", "g").create();
    const protectedSet = await ml.onboard(
      await ml.ingest("t.csv", { storage, schema: allProtected }),
    );
    const again = await ml.train(protectedSet, QUICK)
      .then(() => undefined, (e) => e);
    assert(again instanceof ValidationError, String(again));
    assertEquals(again.issues.map((i) => i.path), ["dataset_id"]);
    // One feature left is enough.
    const model = await ml.train(dataset, { ...QUICK, exclude: ["x"] });
    assertEquals(model.features, ["z"]);
  } finally {
    await done();
  }
});

Deno.test("model adversarial: constrainDataset leaving no feature is a ModelDataError saying why, not a TypeError deeper in training", () => {
  const data = encodeDataset({ x: [1, 2, 3, 4], y: ["n", "n", "y", "y"] }, [
    field("x", "number"),
    field("y", "category", "TARGET"),
  ]);
  const error = assertThrows(
    () =>
      constrainDataset(data, {
        monotone: {},
        excluded: ["x"],
        protected: [],
        groups: null,
      }),
    ModelDataError,
  );
  assertEquals(error.code, "NO_FEATURES_LEFT");
  assertMatch(error.message, /'x' \(excluded by a model constraint\)/);
});

Deno.test("model adversarial: quickstart and ml.train refuse constraints the training job would refuse, before ingestion or any create", async () => {
  const { ml, dir, done } = await platform();
  try {
    // m is empty on every row: inferred CATEGORICAL (no number to read).
    await Deno.writeTextFile(
      `${dir}/t.csv`,
      csv("x,c,m,y", 30, (i) => `${i},${"abc"[i % 3]},,${"ny"[i % 2]}`),
    );
    // Each was refused only by POST /training-jobs, after the storage
    // connector, schema, ingestion and onboarding had run and stored their
    // resources (the earlier sweep made quickstart check names only).
    const cases: [Record<string, unknown>, string][] = [
      [{ monotone: { c: "increasing" } }, "training.monotone.c"],
      [{ monotone: { m: "decreasing" } }, "training.monotone.m"],
      [{ monotone: { x: "up" } }, "training.monotone.x"],
      [{ monotone: ["x"] }, "training.monotone"],
      [{ monotone: { x: "increasing" }, exclude: ["x"] }, "training.exclude.0"],
      [{ exclude: ["c", "c"] }, "training.exclude.1"],
      [{ exclude: "c" }, "training.exclude"],
      [{ interactions: [["x"]] }, "training.interactions.0"],
      [{ interactions: ["xc"] }, "training.interactions.0"],
      [{ interactions: [["x", 7]] }, "training.interactions.0.1"],
      // A feature named twice in a group formed no pair, without a word.
      [{ interactions: [["x", "x"]] }, "training.interactions.0.1"],
      [{ measureConstraintCost: "yes" }, "training.measureConstraintCost"],
      // Every feature excluded: refused by the training job after the rest.
      [{ exclude: ["x", "c", "m"] }, "training.exclude"],
    ];
    for (const [training, field] of cases) {
      const what = JSON.stringify(training);
      const error = await ml.quickstart({
        bucket: "b",
        path: "t.csv",
        target: "y",
        training: { ...QUICK, ...training },
      } as never).then(() => undefined, (e) => e);
      assert(error instanceof ValidationError, `${what}: ${error}`);
      assertEquals(error.issues.map((i) => i.path), [field], what);
      for (const [kind, n] of Object.entries(await counts(ml))) {
        assertEquals(n, 0, `${what} made ${kind}`);
      }
    }
    // A monotone constraint on a multi-class target was refused only by
    // the training job; inference of the file (read in pieces) saw the
    // classes.
    await Deno.writeTextFile(
      `${dir}/k.csv`,
      csv(
        "x,c,y",
        30,
        (i) => `${i},${"abc"[i % 3]},${["lo", "mid", "hi"][i % 3]}`,
      ),
    );
    const multi = await ml.quickstart({
      bucket: "b",
      path: "k.csv",
      target: "y",
      training: { ...QUICK, monotone: { x: "increasing" } },
    }).then(() => undefined, (e) => e);
    assert(multi instanceof ValidationError, String(multi));
    assertEquals(multi.issues.map((i) => i.path), ["training.monotone.x"]);
    assertMatch(multi.issues[0].message, /"y" has three or more classes/);
    for (const [kind, n] of Object.entries(await counts(ml))) {
      assertEquals(n, 0, `the multi-class target made ${kind}`);
    }
    // ml.train checks the same shapes before it makes its configuration
    // (a string `exclude` was a TypeError from inside the job).
    const storage = await ml.storageConnector("b");
    const schema = await ml.schema("t").feature("x", ml.float())
      .feature("c", ml.category()).target("y", ml.category()).create();
    const dataset = await ml.onboard(
      await ml.ingest("t.csv", { storage, schema }),
    );
    const before = await counts(ml);
    for (
      const [options, field] of [
        [{ exclude: "c" }, "exclude"],
        [{ monotone: { x: "up" } }, "monotone.x"],
        [{ interactions: [["x"]] }, "interactions.0"],
        [{ interactions: [["x", "c", "x"]] }, "interactions.0.2"],
      ] as const
    ) {
      const error = await ml.train(dataset, { ...QUICK, ...options } as never)
        .then(() => undefined, (e) => e);
      assert(error instanceof ValidationError, String(error));
      assertEquals(error.issues.map((i) => i.path), [field]);
      assertEquals(await counts(ml), before, JSON.stringify(options));
    }
    // The platform's own answer to such a group: a 400 naming it (the
    // body is checked before any id in it is looked up).
    const res = await raw(ml.platform, "POST", "/training-jobs", {
      token: await tokenFor(ml.platform),
      body: {
        name: "j",
        dataset_id: dataset.id,
        training_configuration_id: "tc",
        compute_configuration_id: "cc",
        model_name: "m",
        model_constraint_groups: [{ fields: ["x", "c", "x"] }],
      },
    });
    assertEquals(res.status, 400, JSON.stringify(res.body));
    assertEquals(res.body.errors?.map((e) => e.path), [
      "model_constraint_groups.0.fields.2",
    ]);
    assertMatch(String(res.body.message), /"x" is named twice/);
  } finally {
    await done();
  }
});

Deno.test("model adversarial: a regression target too large to square fails onboarding naming it, never a model whose record the SDK cannot read", async () => {
  const { ml, dir, done } = await platform();
  try {
    // ±1e200: squared errors overflow to Infinity, written as null into the
    // job's learning curve, which made GET /training-jobs/{id}, the model
    // and GET /models (every model of the account) InvalidResponseErrors.
    await Deno.writeTextFile(
      `${dir}/huge.csv`,
      csv("x,y", 30, (i) => `${i},${i % 2 ? 1e200 : -1e200}`),
    );
    // 1e90: large, still fine.
    await Deno.writeTextFile(
      `${dir}/large.csv`,
      csv("x,y", 30, (i) => `${i},${i * 1e90}`),
    );
    const storage = await ml.storageConnector("b");
    const schema = await ml.schema("r").feature("x", ml.float())
      .target("y", ml.float()).create();
    const onboard = async (path: string) =>
      ml.onboard(await ml.ingest(path, { storage, schema }), {
        predictionType: "REGRESSION",
      });
    const error = await onboard("huge.csv").then(() => undefined, (e) => e);
    assert(error instanceof JobFailedError, String(error));
    assertMatch(error.message, /target 'y'.*1e\+200.*within ±1e\+100/);
    const model = await ml.train(await onboard("large.csv"), QUICK);
    assert(Number.isFinite(model.metrics?.validation_rmse));
    // Every model of the account is readable, and so is every job.
    await ml.models.list();
    await ml.trainingJobs.list();
  } finally {
    await done();
  }
});

Deno.test("model adversarial: quickstart with a hyperparameter the platform refuses (bins 500, early stopping patience 0) moves no data first", async () => {
  const { ml, dir, done } = await platform();
  try {
    await Deno.writeTextFile(
      `${dir}/t.csv`,
      csv("x,c,y", 30, (i) => `${i},${"abc"[i % 3]},${"ny"[i % 2]}`),
    );
    // Both are within the wire's bounds (the builders accept them, as a
    // hosted service may), and beyond the local model's: the training
    // configuration's create refused them only after the storage
    // connector, schema, ingestion and onboarding were made.
    for (
      const [training, field] of [
        [{ bins: 500 }, "bins"],
        [{ earlyStoppingPatience: 0 }, "early_stopping_patience"],
        [{ maxDepth: 16 }, "max_depth"],
      ] as const
    ) {
      const error = await ml.quickstart({
        bucket: "b",
        path: "t.csv",
        target: "y",
        training,
      }).then(() => undefined, (e) => e);
      assert(error instanceof ValidationError, String(error));
      assertEquals(error.issues.map((i) => i.path), [field]);
      for (const [kind, n] of Object.entries(await counts(ml))) {
        assertEquals(n, 0, `${JSON.stringify(training)} made ${kind}`);
      }
    }
  } finally {
    await done();
  }
});

Deno.test("model adversarial: GROUP_METRICS refuses a true value that is no class of the model (or no number, for regression), naming the row", async () => {
  const { ml, dir, done } = await platform();
  try {
    await Deno.writeTextFile(
      `${dir}/c.csv`,
      csv("x,s,y", 40, (i) => `${i},${"uv"[i % 2]},${"ab"[+(i < 20)]}`),
    );
    await Deno.writeTextFile(
      `${dir}/r.csv`,
      csv("x,s,y", 40, (i) => `${i},${"uv"[i % 2]},${2 * i + (i % 3)}`),
    );
    const storage = await ml.storageConnector("b");
    const deployed = async (path: string, target: "float" | "category") => {
      const schema = await ml.schema(path).feature("x", ml.float())
        .feature("s", ml.category())
        .target("y", target === "float" ? ml.float() : ml.category())
        .protect("s").create();
      const dataset = await ml.onboard(
        await ml.ingest(path, { storage, schema }),
        { predictionType: target === "float" ? "REGRESSION" : undefined },
      );
      return await ml.deploy(await ml.train(dataset, QUICK));
    };
    const classifier = await deployed("c.csv", "category");
    const query = { x: [1, 2, 3], s: ["u", "v", "u"] };
    // A typo of a class ("B" for "b") was counted silently as the other
    // class: every figure of its group was wrong, and nothing said so.
    const error = await classifier.groupMetrics(query, { y: ["a", "B", "b"] })
      .then(() => undefined, (e) => e);
    assert(error instanceof ValidationError, String(error));
    assertEquals(error.issues.map((i) => i.path), ["targets.y.1"]);
    assertMatch(error.message, /"B" is not a class of this model/);
    // Classes as sent, and missing truths (left out, as onboarding does).
    const fine = await classifier.groupMetrics(query, { y: ["a", null, "b"] });
    assertEquals(fine[0].groups.map((g) => g.count), [2]);

    const regression = await deployed("r.csv", "float");
    for (const bad of ["abc", "0x10", "Infinity"]) {
      const refused = await regression.groupMetrics(query, {
        y: [1, bad, 3],
      } as never).then(() => undefined, (e) => e);
      assert(refused instanceof ValidationError, `${bad}: ${refused}`);
      assertEquals(refused.issues.map((i) => i.path), ["targets.y.1"]);
    }
    const figures = await regression.groupMetrics(query, { y: [1, "2.5", 3] });
    for (const g of figures[0].groups) {
      assert(Number.isFinite(g.metrics.mae), JSON.stringify(g));
    }
  } finally {
    await done();
  }
});

Deno.test("model adversarial: a feature named like a pair term (x*z) is refused at the schema, naming it; its views had two contribution.x*z columns", async () => {
  const { ml, dir, done } = await platform();
  try {
    const fields = [
      {
        name: "x",
        data_type: { data_type: "NUMBER" as const, format: "FLOAT64" as const },
        designation: "FEATURE" as const,
        semantic_type: "CONTINUOUS" as const,
      },
      {
        name: "x*z",
        data_type: { data_type: "NUMBER" as const, format: "FLOAT64" as const },
        designation: "FEATURE" as const,
        semantic_type: "CONTINUOUS" as const,
      },
      {
        name: "y*",
        data_type: { data_type: "STRING" as const, format: null },
        designation: "TARGET" as const,
        semantic_type: "CATEGORICAL" as const,
      },
    ];
    // docs/contract.md#views: a pair's term is `<feature>*<feature>`, so
    // with x, z and x*z the model had two terms named x*z (and one x*x*z):
    // the answer's columns were not unique and rows() threw a FrameError.
    // The builder refuses before sending; the platform with a 400.
    const builder = () =>
      ml.schema("s").feature("x", ml.float()).feature("x*z", ml.float())
        .target("y*", ml.category()).create();
    const local = await builder().then(() => undefined, (e) => e);
    assert(local instanceof ValidationError, String(local));
    assertEquals(local.issues.map((i) => i.path), ["fields.1.name"]);
    const token = await tokenFor(ml.platform);
    const res = await raw(ml.platform, "POST", "/data-schemas", {
      token,
      body: { name: "s", fields },
    });
    assertEquals(res.status, 400, JSON.stringify(res.body));
    assertEquals(res.body.errors?.map((e) => e.path), ["fields.1.name"]);
    assertMatch(String(res.body.message), /"\*"/);
    // Quickstart infers the schema from the file: refused before anything
    // is made, and leaving the column out is the way through.
    await Deno.writeTextFile(
      `${dir}/t.csv`,
      csv("x,x*z,y", 30, (i) => `${i},${i % 5},${"ab"[i % 2]}`),
    );
    const quick = await ml.quickstart({
      bucket: "b",
      path: "t.csv",
      target: "y",
      training: QUICK,
    }).then(() => undefined, (e) => e);
    assert(quick instanceof ValidationError, String(quick));
    assertMatch(quick.message, /x\*z/);
    for (const [kind, n] of Object.entries(await counts(ml))) {
      assertEquals(n, 0, `quickstart made ${kind}`);
    }
    const { model } = await ml.quickstart({
      bucket: "b",
      path: "t.csv",
      target: "y",
      exclude: ["x*z"],
      training: QUICK,
    });
    assertEquals(model.features, ["x"]);
  } finally {
    await done();
  }
});

Deno.test("model adversarial: explanationChart of a model with no term left charts its bias; a row without views and a top that is no count are errors naming them", async () => {
  const { ml, dir, done } = await platform();
  try {
    await Deno.writeTextFile(
      `${dir}/t.csv`,
      csv("x,y", 40, (i) => `${i},${"ab"[+(i < 20)]}`),
    );
    const storage = await ml.storageConnector("b");
    const schema = await ml.schema("t").feature("x", ml.float())
      .target("y", ml.category()).create();
    const dataset = await ml.onboard(
      await ml.ingest("t.csv", { storage, schema }),
    );
    // Every term pruned and dropped: a valid model, answering views with a
    // bias and no contribution column. Its chart was a TypeError saying
    // the table had no `bias` column.
    const model = await ml.train(dataset, {
      ...QUICK,
      pruneThreshold: 1e6,
      sparseModel: true,
    });
    assertEquals(model.terms, []);
    const deployment = await ml.deploy(model);
    const result = await deployment.views({ x: [3] });
    const bias = result.table.data[0][result.table.columns.indexOf("bias")];
    const chart = result.explanationChart(0);
    assertMatch(chart["text/plain"], /log-odds/);
    const steps = (chart["application/vnd.vegalite.v5+json"].data as {
      values: { end: number }[];
    }).values;
    assertEquals(steps.at(-1)!.end, bias);
    // A row a batch could not score (NULL_PREDICTION) has null views: it
    // was charted as a bias of 0.
    const table = {
      columns: ["prediction.y", "bias", "contribution.x"],
      index: [0, 1],
      data: [["a", 0.5, 1], [null, null, null]],
    };
    assertThrows(() => explanationChart(table, 1), RangeError, "row 1");
    // top NaN dropped every contribution from a chart that no longer added
    // up to the log-odds it showed.
    for (const top of [NaN, -1, 1.5]) {
      assertThrows(
        () => explanationChart(table, 0, { top }),
        RangeError,
        "top",
      );
    }
  } finally {
    await done();
  }
});

Deno.test("model adversarial: a schema's default anchor naming a feature the model left out (excluded, constant, protected) no longer breaks every views call", async () => {
  const { ml, dir, done } = await platform();
  try {
    await Deno.writeTextFile(
      `${dir}/t.csv`,
      csv(
        "x,z,k,s,y",
        60,
        (i) => `${i},${i % 7},5,${"uv"[i % 2]},${"ab"[+(i < 30)]}`,
      ),
    );
    const storage = await ml.storageConnector("b");
    const schema = await ml.schema("t").feature("x", ml.float())
      .feature("z", ml.float()).feature("k", ml.float())
      .feature("s", ml.category()).target("y", ml.category()).protect("s")
      .anchor("typical", { x: 10, z: 3 }, { default: true })
      .anchor("odd", { k: 5, s: "u" }).create();
    const dataset = await ml.onboard(
      await ml.ingest("t.csv", { storage, schema }),
    );
    // README's flow: a default anchor, then a training that excludes one
    // of its features. Every views call of the model was a 400 "anchor: 'z'
    // is not a feature of this model", although none named an anchor.
    const model = await ml.train(dataset, { ...QUICK, exclude: ["z"] });
    const deployment = await ml.deploy(model);
    const query = { x: [3, 40] };
    const anchored = await deployment.views(query);
    // The excluded feature is left out of the anchor: it is the anchor x=10.
    const inline = await deployment.views(query, {
      anchor: { query: { x: [10] } },
    });
    assertEquals(anchored.table.data, inline.table.data);
    assertEquals(anchored.table.anchor?.name, "typical");
    // An anchor naming only features the model lacks (k constant, s
    // protected) measures against the training population: no anchor.
    const explanation = await ml.models.explanation(model.id);
    const odd = (await ml.dataSchemas.get(schema.id)).data_anchors
      .find((a) => a.name === "odd")!;
    const population = await deployment.views(query, { anchor: odd.id });
    const plain = await deployment.views(query, { anchor: null });
    const close = (a: unknown[][], b: unknown[][]) =>
      a.every((row, i) =>
        row.every((v, j) =>
          typeof v === "number"
            ? Math.abs(v - (b[i][j] as number)) < 1e-9
            : v === b[i][j]
        )
      );
    assert(
      close(population.table.data, plain.table.data),
      JSON.stringify([population.table.data, plain.table.data]),
    );
    assert(explanation.terms.length > 0);
  } finally {
    await done();
  }
});

Deno.test("model adversarial: ml.onboard with REGRESSION on a text target is refused naming predictionType, before the configuration and job that failed on it", async () => {
  const { ml, dir, done } = await platform();
  try {
    await Deno.writeTextFile(
      `${dir}/t.csv`,
      csv("x,y", 20, (i) => `${i},${"ab"[i % 2]}`),
    );
    const storage = await ml.storageConnector("b");
    const schema = await ml.schema("t").feature("x", ml.float())
      .target("y", ml.category()).create();
    const source = await ml.ingest("t.csv", { storage, schema });
    const before = await counts(ml);
    const error = await ml.onboard(source, { predictionType: "REGRESSION" })
      .then(() => undefined, (e) => e);
    assert(error instanceof ValidationError, String(error));
    assertEquals(error.issues.map((i) => i.path), ["predictionType"]);
    assertEquals(await counts(ml), before);
  } finally {
    await done();
  }
});

Deno.test("model adversarial: contributions() of a row without views (a NULL_PREDICTION batch row) is an error naming the row, not every term at 0", () => {
  // A batch page is a ViewsResult; an error row's views are all null.
  const page = new ViewsResult({
    columns: ["prediction.y", "bias", "contribution.x", "contribution.z"],
    index: [0, 1],
    data: [["a", 0.5, 1, -2], [null, null, null, null]],
  });
  assertEquals(page.contributions(0).map((c) => c.value), [-2, 1]);
  assertThrows(() => page.contributions(1), RangeError, "row 1");
  // top NaN returned no contribution at all.
  assertThrows(() => page.contributions(0, { top: NaN }), RangeError, "top");
  assertEquals(page.contributions(0, { top: 0 }), []);
});

Deno.test("model adversarial: a classifier trained without validation rows (a 3-row table) still lists class_metrics, each AUC null", async () => {
  const { ml, dir, done } = await platform();
  try {
    await Deno.writeTextFile(
      `${dir}/t.csv`,
      csv("x,y", 3, (i) => `${i},${"ab"[i % 2]}`),
    );
    const storage = await ml.storageConnector("b");
    const schema = await ml.schema("t").feature("x", ml.float())
      .target("y", ml.category()).create();
    const model = await ml.train(
      await ml.onboard(await ml.ingest("t.csv", { storage, schema })),
      QUICK,
    );
    assertEquals(model.metrics?.validation_rows, 0);
    // docs/contract.md#model-validation-rows: "a classifier's record also
    // carries class_metrics, one { class, validation_auc } per class".
    assertEquals(model.class_metrics, [
      { class: "a", validation_auc: null },
      { class: "b", validation_auc: null },
    ]);
  } finally {
    await done();
  }
});

Deno.test("model adversarial: a CSV header written with spaces after its commas (age, income) ingests, trains and batch-scores by the trimmed names", async () => {
  const { ml, dir, done } = await platform();
  try {
    // A schema's field names are trimmed (the create body trims them), so
    // the header cell " income" could never be found: quickstart inferred
    // the field, then ingestion failed "column 'income' ... not in the CSV
    // header", after the schema and the ingestion job were made.
    await Deno.writeTextFile(
      `${dir}/t.csv`,
      csv(
        "age, income, y",
        40,
        (i) => `${i},${(i * 3) % 17},${"ab"[+(i < 20)]}`,
      ),
    );
    const { model, deployment } = await ml.quickstart({
      bucket: "b",
      path: "t.csv",
      target: "y",
      training: QUICK,
    });
    assertEquals(model.features, ["age", "income"]);
    const batch = await deployment.batch({
      bucket: "b",
      path: "t.csv",
      output: "scored.csv",
      keep: ["income"],
    });
    assertEquals(batch.rowsOut, 40);
    // Names that are one once trimmed are one column named twice.
    await Deno.writeTextFile(`${dir}/twice.csv`, "a, a,y\n1,2,n\n");
    const error = await ml.inferSchema({ csv: "a, a,y\n1,2,n\n" }, {
      target: "y",
    }).then(() => undefined, (e) => e);
    assertMatch(String(error), /'a' appears twice/);
  } finally {
    await done();
  }
});

Deno.test("model adversarial: the class a views request asked to explain is the class its explanation chart names, row by row", async () => {
  // The chart of a 3-class answer could name no class (a softmax logit is
  // not told by the probabilities), though the request said which: the
  // result now keeps the request's targets.
  const { ml, dir, done } = await platform();
  try {
    await Deno.writeTextFile(
      `${dir}/t.csv`,
      csv("x,y", 90, (i) => `${i % 30},${"abc"[Math.floor((i % 30) / 10)]}`),
    );
    const storage = await ml.storageConnector("b");
    const schema = await ml.schema("t").feature("x", ml.float())
      .target("y", ml.category()).create();
    const dataset = await ml.onboard(
      await ml.ingest("t.csv", { storage, schema }),
    );
    const deployment = await ml.deploy(await ml.train(dataset, QUICK));
    const result = await deployment.query({ x: [1, 25] })
      .explain("y", ["b", "c"]).create();
    assertMatch(
      result.explanationChart(0)["text/plain"],
      /softmax logit of b /,
    );
    assertMatch(
      result.explanationChart(1)["text/plain"],
      /softmax logit of c /,
    );
    // One class for every row, and the caller's own choice first.
    const one = await deployment.query({ x: [1] }).explain("y", "c").create();
    assertMatch(one.explanationChart(0)["text/plain"], /softmax logit of c /);
    assertMatch(
      one.explanationChart(0, { explained: "a" })["text/plain"],
      /softmax logit of a /,
    );
    // Not asked: the predicted class is explained and none is named.
    const plain = await deployment.views({ x: [1] });
    assert(!/ of /.test(plain.explanationChart(0)["text/plain"]));
  } finally {
    await done();
  }
});
