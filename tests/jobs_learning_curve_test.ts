/**
 * Watch it learn: a training job carries its learning curve (training and
 * validation loss per logged round) while it runs and after, the model keeps
 * it, and the progress displays draw it (a Vega-Lite chart updated in place
 * in a notebook, the latest figures beside the terminal bar).
 */
import { assert, assertEquals, assertStringIncludes } from "@std/assert";
import { join } from "node:path";
import { createLocalPlatform } from "../src/local/local_platform.ts";
import { MLPlatform } from "../src/platform.ts";
import { notebookProgress } from "../src/notebook/progress.ts";
import { terminalProgress } from "../src/jobs/progress.ts";
import { VEGALITE_MIME } from "../src/notebook/charts.ts";
import type { LearningCurvePoint } from "../src/schemas/learning_curve.ts";
import { DATASETS } from "./_helpers/local_setup.ts";

const POLL = { initialDelay: 10, maxDelay: 30 };

Deno.test("learning curve: one point per logged round, in the job while it runs and in the model after", async () => {
  const local = await createLocalPlatform({
    buckets: { demo: DATASETS },
    logger: () => {},
  });
  try {
    const ml = new MLPlatform({
      baseUrl: local.baseUrl,
      ...local.credentials,
      fetch: local.fetch as typeof fetch,
      progress: false,
    });
    const storage = await ml.storageConnector("demo");
    const draft = await ml.inferSchema(join(DATASETS, "wa_churn.csv"), {
      target: "churn",
      name: "churn-curve",
    });
    const datasource = await ml.ingest("wa_churn.csv", {
      storage,
      schema: await draft.create(),
      poll: POLL,
    });
    const dataset = await ml.onboard(datasource, { poll: POLL });
    // 120 rounds of main terms only, never stopped early: 24 logged rounds.
    // One bag: the curve is the subject, not the bagged model's accuracy.
    const job = ml.train(dataset, {
      estimators: 1,
      maxRounds: 120,
      logInterval: 5,
      maxInteractions: 0,
      earlyStoppingPatience: 10_000,
      poll: POLL,
    });
    const whileRunning: LearningCurvePoint[][] = [];
    for await (const snapshot of job.watch()) {
      const curve = (snapshot as { learning_curve?: LearningCurvePoint[] })
        .learning_curve;
      if (snapshot.status === "RUNNING" && curve?.length) {
        whileRunning.push(curve);
      }
    }
    assert(whileRunning.length > 0, "no curve seen while the job ran");
    for (const curve of whileRunning) {
      // Every logged round so far, in order, none missing.
      assertEquals(
        curve.map((p) => p.round),
        curve.map((_, i) => 5 * (i + 1)),
      );
    }
    const model = await job;
    const rounds = Array.from({ length: 24 }, (_, i) => 5 * (i + 1));
    assertEquals(model.learning_curve?.map((p) => p.round), rounds);
    const finished = await ml.trainingJobs.get((await job.ref()).id);
    assertEquals(finished.learning_curve, model.learning_curve);
    const curve = model.learning_curve!;
    assert(curve.every((p) => typeof p.validation_loss === "number"));
    assert(curve.every((p) => p.stage === "training"));
    assert(
      curve[0].training_loss > curve.at(-1)!.training_loss,
      "training loss should fall as boosting goes on",
    );
  } finally {
    await local.close();
  }
});

function snapshot(points: number, status = "RUNNING") {
  return {
    id: "tj_1",
    name: "train-churn",
    status,
    progress: points / 10,
    stage: "training",
    learning_curve: Array.from({ length: points }, (_, i) => ({
      round: 5 * (i + 1),
      stage: "training",
      training_loss: 0.6 - 0.01 * i,
      validation_loss: 0.62 - 0.008 * i,
    })),
  };
}

Deno.test("notebook progress draws the curve under the bar and updates it in place", async () => {
  const sent: {
    bundle: Record<string, unknown>;
    options: Record<string, unknown>;
  }[] = [];
  let clock = 0;
  const bar = notebookProgress("training job", {
    jupyter: {
      display: (bundle, options) => {
        sent.push({
          bundle: bundle as Record<string, unknown>,
          options: options as Record<string, unknown>,
        });
        return Promise.resolve();
      },
    },
    throttleMs: 0,
    now: () => clock++,
  })!;
  bar.update({ id: "tj_1", status: "STARTING", progress: 0 });
  bar.update(snapshot(1));
  bar.update(snapshot(3));
  await bar.end(snapshot(4, "COMPLETED"));
  const charts = sent.filter((s) => VEGALITE_MIME in s.bundle);
  const bars = sent.filter((s) => "text/html" in s.bundle);
  assertEquals(charts.length, 3, "one chart per new set of points");
  assertEquals(bars.length, 4);
  const ids = new Set(charts.map((c) => c.options.display_id));
  assertEquals(ids.size, 1, "the chart is one display, updated in place");
  assert(!ids.has(bars[0].options.display_id), "the chart is not the bar");
  assertEquals(charts.map((c) => c.options.update), [false, true, true]);
  const last = charts.at(-1)!.bundle[VEGALITE_MIME] as {
    data: { values: unknown[] };
  };
  assertEquals(last.data.values.length, 8, "4 rounds, 2 losses each");
});

Deno.test("the terminal bar shows the latest figures of the curve", () => {
  let out = "";
  const bar = terminalProgress("training job", {
    write: (t) => (out += t),
    columns: 200,
  });
  bar.update(snapshot(3));
  assertStringIncludes(out, "round 15 loss 0.580 val 0.604");
  bar.end(snapshot(4, "COMPLETED"));
  assertStringIncludes(out, "round 20 loss 0.570 val 0.596");
});
