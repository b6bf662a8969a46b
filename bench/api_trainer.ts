/**
 * The API-driven {@linkcode Trainer} of bench/model_vs_sklearn.ts: the model
 * is trained through the platform's public API (the SDK's `local()`,
 * in-process) and scored through views, the way a user would do it.
 *
 * The training rows are written as a CSV to a temp folder served as a
 * bucket; then storage connector, schema (built from the same fields as the
 * direct trainer, so both train on identical inputs), ingestion job,
 * onboarding job, training configuration (default hyperparameters), training
 * job(s), deployment; the held-out rows go through `deployment.views()` and
 * the probabilities come from the views' `probability.<target>.<class>`
 * columns.
 *
 * Timed: each training job from its creation request to `COMPLETED` seen by
 * the client (best of `repeats`), the same job's server-side span
 * (`updated_at - created_at` of the job resource), and the first pass of
 * ingest + onboard + train end to end.
 *
 * @module
 */
import type { FieldType, PollOptions, SchemaBuilder } from "../mod.ts";
import { local } from "../local.ts";
import type { RawColumns, SchemaField } from "../src/local/model/encoding.ts";
import type { Trained, Trainer } from "./model_vs_sklearn.ts";

/** Options of {@linkcode apiTrainer}. */
export interface ApiTrainerOptions {
  /** Training jobs run on the same dataset; the fit time is the best (default 3, like the other rows). */
  repeats?: number;
  /**
   * Poll schedule of the awaited jobs (default every 10-20 ms: the platform
   * is in-process, so polls are cheap and the measured time is the job's,
   * not the client's waiting).
   */
  poll?: PollOptions;
}

/**
 * Writes columns as CSV text (header first; null is an empty cell; cells
 * with a comma, quote or line break are quoted), columns in `order`.
 *
 * @example
 * ```ts
 * import { columnsToCsv } from "./api_trainer.ts";
 * const csv = columnsToCsv({ a: [1, null], b: ["x,y", "z"] }, ["b", "a"]);
 * if (csv !== 'b,a\n"x,y",1\nz,\n') throw new Error(csv);
 * ```
 */
export function columnsToCsv(
  cols: RawColumns,
  order: readonly string[] = Object.keys(cols),
): string {
  const cell = (v: string | number | null) => {
    const s = v === null ? "" : String(v);
    return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
  };
  const n = cols[order[0]]?.length ?? 0;
  const lines = [order.map(cell).join(",")];
  for (let i = 0; i < n; i++) {
    lines.push(order.map((name) => cell(cols[name][i])).join(","));
  }
  return lines.join("\n") + "\n";
}

/** The SDK column type of a schema field as the direct trainer gives it. */
function fieldType(f: SchemaField): FieldType {
  if (f.data_type.data_type !== "NUMBER") {
    return {
      data_type: { data_type: "STRING", format: null },
      semantic_type: "CATEGORICAL",
    };
  }
  return {
    data_type: {
      data_type: "NUMBER",
      format: f.data_type.format === "FLOAT64" ? "FLOAT64" : "INT64",
    },
    semantic_type: f.semantic_type === "CATEGORICAL"
      ? "CATEGORICAL"
      : "CONTINUOUS",
  };
}

const seconds = (from: number) => (performance.now() - from) / 1000;

/**
 * A trainer that goes through the platform's API on `local()`. The returned
 * {@linkcode Trained} scores through views and must be `close()`d (it holds
 * the platform and the temp folder).
 *
 * @example Penguins through the API, scored through views
 * ```ts
 * import { apiTrainer } from "./api_trainer.ts";
 * const fields = [
 *   { name: "species", data_type: { data_type: "STRING", format: null }, designation: "TARGET", semantic_type: "CATEGORICAL" },
 *   { name: "mass", data_type: { data_type: "NUMBER", format: "INT64" }, designation: "FEATURE", semantic_type: "CONTINUOUS" },
 * ];
 * const mass = Array.from({ length: 60 }, (_, i) => 3000 + 40 * i);
 * const trained = await apiTrainer({ repeats: 1 })(fields, {
 *   species: mass.map((m) => (m < 4200 ? "Adelie" : "Gentoo")),
 *   mass,
 * }, "species");
 * try {
 *   const [light, heavy] = await trained.predictProba({ mass: [3100, 5200] });
 *   if (trained.classes.join() !== "Adelie,Gentoo") throw new Error(trained.classes.join());
 *   if (!(light[0] > 0.5 && heavy[1] > 0.5)) throw new Error(`${light} ${heavy}`);
 * } finally {
 *   await trained.close?.();
 * }
 * ```
 */
export function apiTrainer(options: ApiTrainerOptions = {}): Trainer {
  const repeats = Math.max(1, options.repeats ?? 3);
  const poll = options.poll ?? { initialDelay: 10, maxDelay: 20 };
  return async (fields, cols, target): Promise<Trained> => {
    const dir = await Deno.makeTempDir({ prefix: "api_bench_" });
    const ml = await local({ buckets: { bench: dir }, progress: false });
    const close = async () => {
      await ml.close();
      await Deno.remove(dir, { recursive: true });
    };
    try {
      await Deno.writeTextFile(
        `${dir}/train.csv`,
        columnsToCsv(cols, fields.map((f) => f.name)),
      );
      const storage = await ml.storageConnector("bench");
      let builder: SchemaBuilder<string, string> = ml.schema(
        `bench-${target}`,
      );
      for (const f of fields) {
        builder = f.designation === "TARGET"
          ? builder.target(f.name, fieldType(f))
          : builder.feature(f.name, fieldType(f));
      }
      const schema = await builder.create();
      const cpu = await ml.compute("bench-cpu", { computeType: "PROCESSING" });
      const gpu = await ml.compute("bench-train", { computeType: "TRAINING" });
      const workspace = await ml.workspace("bench");

      const started = performance.now();
      const datasource = await ml.ingestionJob({
        configuration: await ml.ingestionConfiguration("bench-ingest", schema),
        storage,
        compute: cpu,
        path: "train.csv",
        datasourceName: "bench",
        poll,
      });
      const ingestSeconds = seconds(started);
      const onboardStart = performance.now();
      const dataset = await ml.onboardingJob({
        datasource,
        configuration: await ml.onboardingConfiguration("bench-onboard", {
          targets: [target],
        }),
        compute: cpu,
        datasetName: "bench",
        poll,
      });
      const onboardSeconds = seconds(onboardStart);
      // No hyperparameters: the platform's defaults, like the direct trainer.
      const configuration = await ml.trainingConfiguration("bench-defaults");
      const fits: number[] = [];
      const serverFits: number[] = [];
      let pipelineSeconds = 0;
      let model;
      for (let r = 0; r < repeats; r++) {
        const jobStart = performance.now();
        const job = ml.trainingJob({
          dataset,
          configuration,
          compute: gpu,
          workspace,
          modelName: `bench-${r}`,
          poll,
        }).create();
        model = await job;
        fits.push(seconds(jobStart));
        if (r === 0) pipelineSeconds = seconds(started);
        const done = await ml.trainingJobs.get((await job.created).id);
        if (done.created_at && done.updated_at) {
          serverFits.push(
            (Date.parse(done.updated_at) - Date.parse(done.created_at)) / 1000,
          );
        }
      }
      const deployStart = performance.now();
      const deployment = await ml.deployedModel<string, string>({
        model: model!,
        configuration: await ml.deploymentConfiguration("bench"),
        poll,
      });
      const deploySeconds = seconds(deployStart);
      const classes = [
        ...new Set(
          cols[target].filter((v) => v !== null).map((v) => String(v)),
        ),
      ].sort();
      let viewsNote = "";
      return {
        fitSeconds: Math.min(...fits),
        classes,
        async predictProba(features) {
          const t0 = performance.now();
          const result = await deployment.views(
            features as Record<string, (string | number | null)[]>,
          );
          const p = result.probabilities(target);
          const missing = classes.filter((c) => !p[c]);
          if (missing.length) {
            throw new Error(
              `views answered no probability column for class(es) ${
                missing.join(", ")
              } of "${target}" (columns: ${
                result.table.columns.join(", ")
              }); the views table and the training classes disagree.`,
            );
          }
          const n = result.length;
          viewsNote = `views scored ${n} rows in ${seconds(t0).toFixed(3)} s (${
            Math.round(n / seconds(t0))
          } rows/s)`;
          return Array.from(
            { length: n },
            (_, i) => classes.map((c) => p[c][i]),
          );
        },
        notes: () => [
          `training job, creation -> COMPLETED seen by the client: ${
            fits.map((s) => s.toFixed(3)).join(", ")
          } s (server-side created_at -> updated_at: ${
            serverFits.map((s) => s.toFixed(3)).join(", ")
          } s)`,
          `ingest ${ingestSeconds.toFixed(3)} s + onboard ${
            onboardSeconds.toFixed(3)
          } s + first training = ${
            pipelineSeconds.toFixed(3)
          } s end to end; deploy ${deploySeconds.toFixed(3)} s; ${viewsNote}`,
        ],
        close,
      };
    } catch (error) {
      await close();
      throw error;
    }
  };
}
