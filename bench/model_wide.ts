/**
 * Wide and awkward tables, and fit speed (issue 22 items 5-6): ours beside
 * scikit-learn's HistGradientBoosting (and LR / XGBoost) on the same split,
 * in one run, on the public tables of `../shared/datasets/` that are wide
 * (pd_speech, ad_data, grants), carry a date (chicago) or are small
 * (wa_churn, cells, ...): test score, fit seconds, ours/HGB and our peak RSS,
 * with the model's candidates, pairs and dropped columns.
 *
 * The peers are bench/model_reference.py (it writes the split); ours is
 * bench/model_bench.ts's `fitAndScore` (the model worker, as the platform
 * trains; best of `--repeats`, default 1) in a fresh process per table, so
 * its peak RSS is its own. Numeric columns are the ones whose every present
 * cell is a number, the rest categorical, as schema inference reads them;
 * columns the peers cannot take as they are (chicago's `date`) are left out
 * of their copy of the file only.
 *
 * Run: `deno run -A bench/model_wide.ts [--only=pd_speech,ad_data]
 * [--repeats=3] [--no-xgboost] [--params='{"learning_rate":0.05}']`; `--profile=<name>` trains one table in this thread and
 * prints the seconds of every training stage instead.
 *
 * @module
 */
import process from "node:process";
import { parseCsv } from "../src/csv.ts";
import { gunzipIfGzip } from "../src/gzip.ts";
import { columnsFromCsv } from "../src/local/model/datasource.ts";
import { encodeDataset } from "../src/local/model/encoding.ts";
import type { TrainingParams } from "../src/local/model/params.ts";
import { train } from "../src/local/model/train.ts";
import {
  type DatasetSpec,
  fieldsOf,
  numericOf,
} from "../tests/_helpers/datasets.ts";
import { fitAndScore, run } from "./model_bench.ts";
import { peakRssMb } from "./model_large.ts";

/** Folder of the public tables (beside the worktree). */
const SHARED = new URL("../../shared/datasets/", import.meta.url).pathname;

/** One table: its file, target and task, and columns the peers go without. */
interface WideTable {
  name: string;
  file: string;
  target: string;
  regression?: boolean;
  peersWithout?: string[];
}

const TABLES: readonly WideTable[] = [
  { name: "pd_speech", file: "pd_speech.csv", target: "class" },
  { name: "ad_data", file: "ad_data.csv", target: "Class" },
  { name: "grants", file: "grants.csv.gz", target: "class" },
  {
    name: "chicago",
    file: "chicago.csv",
    target: "ridership",
    regression: true,
    peersWithout: ["date"],
  },
  { name: "cells", file: "cells.csv", target: "class" },
  { name: "wa_churn", file: "wa_churn.csv", target: "churn" },
  { name: "digits", file: "digits.csv", target: "target" },
];

const NUMERIC = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

/** The table's text (inflated when gzipped). */
async function textOf(t: WideTable): Promise<string> {
  const bytes = await gunzipIfGzip(await Deno.readFile(SHARED + t.file));
  return new TextDecoder().decode(bytes);
}

/** The table's spec: numeric columns are those whose present cells all are numbers. */
function specOf(t: WideTable, header: string[], rows: string[][]) {
  const numeric = header.filter((_, j) =>
    rows.every((r) => r[j] === "" || NUMERIC.test(r[j]))
  );
  const spec: DatasetSpec = {
    file: t.file,
    target: t.target,
    numeric: t.regression ? numeric : numeric.filter((c) => c !== t.target),
    predictionType: t.regression ? "REGRESSION" : "CLASSIFICATION",
  };
  return spec;
}

async function loaded(t: WideTable) {
  const table = parseCsv(await textOf(t));
  const spec = specOf(t, table.header, table.rows);
  const fields = fieldsOf(table.header, spec);
  return { table, spec, fields, columns: columnsFromCsv(table, fields) };
}

/** Ours on one table, in this process: one JSON line. */
async function ours(
  t: WideTable,
  splitFile: string,
  repeats: number,
  params: Partial<TrainingParams>,
) {
  const { spec, fields: all, columns: raw } = await loaded(t);
  const split = JSON.parse(await Deno.readTextFile(splitFile));
  // Columns the model leaves out on the training rows (say, constant there)
  // are not sent to views, which refuse them (as the platform's do).
  const train = Object.fromEntries(
    Object.entries(raw).map((
      [k, v],
    ) => [k, split.train.map((r: number) => v[r])]),
  );
  const left = new Set(
    (encodeDataset(train, all, {
      targets: [t.target],
      prediction_type: spec.predictionType,
    }).encoder.dropped ?? []).map((d) => d.name),
  );
  const fields = all.filter((f) => !left.has(f.name));
  const columns = Object.fromEntries(
    Object.entries(raw).filter(([k]) => !left.has(k)),
  );
  const r = await fitAndScore(
    columns,
    fields,
    t.target,
    spec.predictionType,
    split,
    repeats,
    params,
  );
  const m = r.model.metrics;
  return {
    score: r.score,
    fitSeconds: r.fitSeconds,
    peakMb: peakRssMb(),
    features: r.model.terms.filter((x) => x.features.length === 1).length,
    pairs: r.model.terms.filter((x) => x.features.length === 2).length,
    candidates: m.candidates,
    rounds: `${m.mainRounds}/${m.pairRounds}`,
    dropped: (r.model.encoder.dropped ?? []).map((d) =>
      `${d.name}: ${d.reason}`
    ).slice(0, 3),
    droppedCount: (r.model.encoder.dropped ?? []).length,
  };
}

/** Trains one table in this thread (the dataset's own split) and prints each stage's seconds. */
async function profile(t: WideTable) {
  const { spec, fields, columns } = await loaded(t);
  let t0 = performance.now();
  const data = encodeDataset(columns, fields, {
    targets: [t.target],
    prediction_type: spec.predictionType,
  });
  console.log(`encode ${((performance.now() - t0) / 1000).toFixed(2)} s`);
  // CPU seconds of this thread's process (the machine may be shared).
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const stages = new Map<string, number>();
  let stage = "", last = cpu();
  t0 = performance.now();
  const c0 = last;
  const model = train(data, {}, {
    onProgress: (_f, s) => {
      if (s === stage) return;
      const now = cpu();
      stages.set(stage, (stages.get(stage) ?? 0) + now - last);
      stage = s;
      last = now;
    },
  });
  stages.set(stage, (stages.get(stage) ?? 0) + cpu() - last);
  for (const [s, ms] of stages) {
    console.log(`${s || "start"} ${(ms / 1000).toFixed(2)} s CPU`);
  }
  console.log(
    `total ${((performance.now() - t0) / 1000).toFixed(2)} s wall, ${
      ((cpu() - c0) / 1000).toFixed(2)
    } s CPU, candidates ${model.metrics.candidates}, peak ${peakRssMb()} MB`,
  );
}

/** The peers' copy of a table: without the columns they cannot take. */
async function peerFile(t: WideTable, dir: string): Promise<string> {
  if (!t.peersWithout) return SHARED + t.file;
  const table = parseCsv(await textOf(t));
  const keep = table.header.map((h, j) => t.peersWithout!.includes(h) ? -1 : j)
    .filter((j) => j >= 0);
  const quote = (s: string) =>
    /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  const lines = [table.header, ...table.rows].map((r) =>
    keep.map((j) => quote(r[j])).join(",")
  );
  const file = `${dir}/${t.name}.csv`;
  await Deno.writeTextFile(file, lines.join("\n") + "\n");
  return file;
}

if (import.meta.main) {
  const args = Object.fromEntries(
    Deno.args.map((a) => a.replace(/^--/, "").split("=")).map((
      [k, v],
    ) => [k, v ?? "true"]),
  );
  const repeats = Number(args.repeats ?? 1);
  // Hyperparameters over the defaults, as JSON (experiments only).
  const params = JSON.parse(args.params ?? "{}");
  const byName = (n: string) => TABLES.find((t) => t.name === n)!;
  if (args.profile) await profile(byName(args.profile));
  else if (args.one) {
    console.log(
      JSON.stringify(
        await ours(byName(args.one), args.split, repeats, params),
      ),
    );
  } else {
    const tables = args.only ? args.only.split(",").map(byName) : TABLES;
    const python = Deno.env.get("PYTHON") ?? "/usr/bin/python3";
    const dir = await Deno.makeTempDir({ prefix: "model_wide_" });
    if (args["no-xgboost"]) {
      // model_reference.py reports XGBoost as null when it cannot import it
      // (its exact splits take many minutes on grants on a loaded machine).
      await Deno.writeTextFile(`${dir}/xgboost.py`, "raise ImportError()\n");
      Deno.env.set("PYTHONPATH", dir);
    }
    try {
      for (const t of tables) {
        const { table, spec } = await loaded(t);
        const numeric = numericOf(spec, table.header).filter((c) =>
          c !== t.target && !t.peersWithout?.includes(c)
        );
        const splitFile = `${dir}/${t.name}.split.json`;
        const ref = JSON.parse(
          await run(python, [
            new URL("./model_reference.py", import.meta.url).pathname,
            await peerFile(t, dir),
            t.target,
            numeric.join(","),
            t.regression ? "regression" : "classification",
            splitFile,
            String(repeats),
          ]),
        );
        console.log(`  peers: ${JSON.stringify(ref)}`);
        const load = Deno.loadavg()[0];
        const o = JSON.parse(
          await run(Deno.execPath(), [
            "run",
            "-A",
            new URL(import.meta.url).pathname,
            `--one=${t.name}`,
            `--split=${splitFile}`,
            `--repeats=${repeats}`,
            `--params=${JSON.stringify(params)}`,
          ]),
        );
        const f = (x: { score: number } | null) => x ? x.score.toFixed(4) : "-";
        const s = (x: { fit_seconds: number } | null) =>
          x ? x.fit_seconds.toFixed(2) : "-";
        console.log(
          `${t.name} (${table.rows.length} x ${table.header.length}): ours ${
            o.score.toFixed(4)
          } HGB ${f(ref.hgb)} LR ${f(ref.linear)} XGB ${
            f(ref.xgboost)
          } | fit ours ${o.fitSeconds.toFixed(2)} s, HGB ${s(ref.hgb)} s, LR ${
            s(ref.linear)
          } s, XGB ${s(ref.xgboost)} s, ours/HGB ${
            (o.fitSeconds / ref.hgb.fit_seconds).toFixed(2)
          }x | peak ${o.peakMb} MB | load ${load.toFixed(1)}`,
        );
        console.log(
          `  ${o.features} features, ${o.pairs} pairs, ${o.candidates} candidates, rounds ${o.rounds}, ${o.droppedCount} dropped ${
            JSON.stringify(o.dropped)
          }`,
        );
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
}
