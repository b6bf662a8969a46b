/**
 * Line 7, the model: its figures come from `deno task bench:model` (the
 * model benchmark, owned beside the model), run once as a subprocess, so
 * nothing is measured twice.
 *
 * The subprocess gets `BENCH_MODEL_JSON=<file>` in its environment. When the
 * model benchmark writes `{ "figures": [...] }` there (figures in this
 * table's shape, see `Figure` in bench/lib/figures.ts; `line` defaults to 7),
 * those are used as they are. Otherwise its printed tables are read: ROC
 * AUC against the better scikit-learn model, fit time against
 * HistGradientBoosting, and views throughput of the SDK against raw fetch.
 * Figures read from print have no noise (the model benchmark does not print
 * one), so the comparison with an earlier run skips them.
 *
 * A full model run takes many minutes (the 1,000,000-row table goes through
 * the whole local pipeline), so each run's figures are also kept in
 * `bench/results/model/<date>-<short sha>.json`, and `deno task bench
 * --model-from latest` (or a file name) takes line 7 from such a file
 * instead of running the model benchmark again; the table's notes say which
 * file and when it was measured.
 *
 * @module
 */
import type { Figure, LineResult } from "../lib/figures.ts";

const ROOT = new URL("../..", import.meta.url).pathname;

/**
 * Reads the figures of `deno task bench:model`'s printed report.
 *
 * @example
 * ```ts
 * import { figuresFromReport } from "./model.ts";
 * const report = [
 *   "penguins (275 train / 69 test rows, same split)",
 *   "  model                          ROC AUC accuracy   fit s fit/HGB",
 *   "  ours, direct                    0.9997   0.9710   0.112   1.30x",
 *   "  sklearn HistGradientBoosting    0.9962   0.9710   0.086   1.00x",
 *   "  sklearn LogisticRegression      0.9990   0.9855   0.005   0.06x",
 *   "Views throughput (...)",
 *   "  where       rows/call  SDK rows/s  raw rows/s SDK/raw SDK ms/call raw ms/call",
 *   "  over HTTP       1,000      92,172     109,992    0.84        10.8         9.1",
 * ].join("\n");
 * const f = figuresFromReport(report);
 * if (f.length !== 3 || f[0].id !== "model.penguins.ours_direct.auc") throw new Error(JSON.stringify(f));
 * if (f[1].value !== 1.3 || f[2].value !== 0.84) throw new Error();
 * ```
 */
export function figuresFromReport(report: string): Figure[] {
  const figures: Figure[] = [];
  let dataset = "";
  let rows: {
    name: string;
    auc: number;
    fitRatio: number;
    fit: number;
    bar: boolean;
  }[] = [];
  const flush = () => {
    const sklearn = rows.filter((r) => r.name.startsWith("sklearn"));
    const best = Math.max(...sklearn.map((r) => r.auc));
    for (const r of rows.filter((r) => r.name.startsWith("ours"))) {
      const key = `model.${dataset}.${r.name.replace(/\W+/g, "_")}`;
      figures.push({
        id: `${key}.auc`,
        line: 7,
        label: `model, ${dataset}, ${r.name}: test ROC AUC`,
        value: r.auc / best,
        unit: "x",
        noise: NaN,
        against: "the better scikit-learn model",
        // The model benchmark's bar, where it applies one (a MET/MISSED column).
        goal: r.bar ? { min: (best - 0.005) / best } : undefined,
        detail: `${r.auc.toFixed(4)} vs ${best.toFixed(4)}`,
      }, {
        id: `${key}.fit`,
        line: 7,
        label: `model, ${dataset}, ${r.name}: fit time`,
        value: r.fitRatio,
        unit: "x",
        noise: NaN,
        against: "scikit-learn HistGradientBoosting",
        goal: r.bar ? { max: 2 } : undefined,
        detail: `${r.fit.toFixed(3)} s`,
      });
    }
    rows = [];
  };
  for (const line of report.split("\n")) {
    const section = line.match(/^(\w+) \(\d+ train/);
    if (section) {
      flush();
      dataset = section[1];
      continue;
    }
    const row = line.match(
      /^\s{2}((?:ours|sklearn)[^\d]*?)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)x(\s+\S+)?/,
    );
    if (row) {
      rows.push({
        name: row[1].trim(),
        auc: Number(row[2]),
        fit: Number(row[4]),
        fitRatio: Number(row[5]),
        bar: row[6] !== undefined,
      });
      continue;
    }
    const views = line.match(
      /^\s{2}(in-process|over HTTP)\s+([\d,]+)\s+([\d,]+)\s+([\d,]+)\s+([\d.]+)/,
    );
    if (views) {
      flush();
      const n = Number(views[2].replaceAll(",", ""));
      figures.push({
        id: `model.views.${views[1].replace(/\W+/g, "_")}.${n}`,
        line: 7,
        label: `views of the churn model, ${views[2]} rows a call, ${
          views[1]
        }: SDK throughput`,
        value: Number(views[5]),
        unit: "x",
        noise: NaN,
        against: "raw fetch + res.json() of the same bodies",
        detail: `SDK ${views[3]} rows/s, raw ${views[4]} rows/s`,
      });
    }
  }
  flush();
  return figures;
}

/** Where each model run's figures are kept. */
export const MODEL_RESULTS_DIR = `${ROOT}bench/results/model`;

/** A kept model run: `{ time, commit, figures }`. */
interface ModelRecord {
  time: string;
  commit: string;
  figures: Figure[];
  notes: string[];
}

/**
 * Line 7 from a kept model run: `from` is `"latest"` (the newest file of
 * `bench/results/model/`) or a file path.
 *
 * @example
 * ```ts
 * import { modelLineFrom } from "./model.ts";
 * const file = await Deno.makeTempFile({ suffix: ".json" });
 * await Deno.writeTextFile(file, JSON.stringify({
 *   time: "2026-11-23T17:00:00.000Z", commit: "abc1234", notes: [],
 *   figures: [{ id: "model.x.auc", line: 7, label: "x", value: 1, unit: "x", noise: NaN, against: "y" }],
 * }));
 * const line = await modelLineFrom(file);
 * await Deno.remove(file);
 * if (line.figures[0].id !== "model.x.auc") throw new Error();
 * if (!line.notes![0].includes("2026-11-23 17:00 UTC at abc1234")) throw new Error(line.notes![0]);
 * ```
 */
export async function modelLineFrom(from: string): Promise<LineResult> {
  let path = from;
  if (from === "latest") {
    const names: string[] = [];
    for await (const e of Deno.readDir(MODEL_RESULTS_DIR)) {
      if (e.isFile && e.name.endsWith(".json")) names.push(e.name);
    }
    const dated = await Promise.all(names.map(async (name) => ({
      name,
      time: (JSON.parse(
        await Deno.readTextFile(`${MODEL_RESULTS_DIR}/${name}`),
      ) as ModelRecord).time,
    })));
    const newest = dated.sort((a, b) => a.time < b.time ? 1 : -1)[0];
    if (!newest) throw new Error(`no model results in ${MODEL_RESULTS_DIR}`);
    path = `${MODEL_RESULTS_DIR}/${newest.name}`;
  }
  const record = JSON.parse(await Deno.readTextFile(path)) as ModelRecord;
  const shown = path.startsWith(ROOT) ? path.slice(ROOT.length) : path;
  return {
    figures: record.figures,
    notes: [
      `Line 7 was not measured in this run: taken from \`${shown}\`, the \`deno task bench:model\` run of ${
        record.time.slice(0, 16).replace("T", " ")
      } UTC at ${record.commit} (\`--model-from\`).`,
      ...record.notes.filter((n) => !n.startsWith("Line 7 comes from")),
    ],
  };
}

/**
 * Runs `deno task bench:model` and returns its figures as line 7; the
 * figures are also kept in `bench/results/model/` (unless `keep` is false).
 */
export async function modelLine(
  options: { keep?: boolean; commit?: string } = {},
): Promise<LineResult> {
  const started = new Date().toISOString();
  const json = await Deno.makeTempFile({ suffix: ".json" });
  try {
    await Deno.remove(json);
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["task", "bench:model"],
      cwd: ROOT,
      env: { BENCH_MODEL_JSON: json },
      stdout: "piped",
      stderr: "inherit",
    }).output();
    const report = new TextDecoder().decode(out.stdout);
    let figures: Figure[];
    let source: string;
    try {
      const written = JSON.parse(await Deno.readTextFile(json));
      const given: Partial<Figure>[] = Array.isArray(written)
        ? written
        : written.figures;
      figures = given.map((f) => ({
        id: "",
        label: "",
        value: NaN,
        line: 7,
        noise: NaN,
        against: "",
        unit: "x",
        ...f,
      }));
      source = "its BENCH_MODEL_JSON file";
    } catch {
      figures = figuresFromReport(report);
      source = "its printed report";
    }
    const notes = [
      `Line 7 comes from \`deno task bench:model\` (read from ${source}${
        out.success ? "" : `; it exited with code ${out.code}`
      }).`,
    ];
    if (!figures.length) {
      notes.push(
        `Line 7: no figures could be read from \`deno task bench:model\`; its output began: ${
          JSON.stringify(report.slice(0, 300))
        }`,
      );
    }
    if (options.keep !== false && figures.length) {
      await Deno.mkdir(MODEL_RESULTS_DIR, { recursive: true });
      const commit = options.commit ?? "unknown";
      const record: ModelRecord = { time: started, commit, figures, notes };
      await Deno.writeTextFile(
        `${MODEL_RESULTS_DIR}/${started.slice(0, 10)}-${
          commit.replace(/\W.*/, "")
        }-${started.slice(11, 19).replaceAll(":", "")}.json`,
        JSON.stringify(record, null, 1) + "\n",
      );
    }
    return { figures, notes };
  } finally {
    await Deno.remove(json).catch(() => {});
  }
}
