/**
 * The large churn tables of the model benchmark: datasets/wa_churn.csv
 * resampled (seeded, with replacement) to N rows, with a seeded jitter of up
 * to ±2% on `monthly_charges` so the rows are not exact copies. The files go
 * to a temp folder and are never committed.
 *
 * Run: `deno run -A bench/model_churn_resample.ts 100000 [dir] [seed]`
 * (prints the path of the CSV it wrote).
 *
 * @module
 */
import { parseCsv } from "../src/csv.ts";
import { createRng } from "../src/local/model/rng.ts";
import { DATASETS_DIR } from "../tests/_helpers/datasets.ts";

/**
 * The file beside a resampled CSV that names every row's source row of
 * wa_churn.csv (one index a line, in row order): a split by these groups
 * keeps a customer's copies on one side (bench/model_reference.py).
 *
 * @example
 * ```ts
 * import { groupsFileOf } from "./model_churn_resample.ts";
 * if (groupsFileOf("/t/wa_churn_50.csv") !== "/t/wa_churn_50.csv.groups.txt") throw new Error("example failed");
 * ```
 */
export function groupsFileOf(csv: string): string {
  return `${csv}.groups.txt`;
}

/**
 * Writes wa_churn.csv resampled to `rows` rows into `dir` (a fresh temp
 * folder when omitted) and returns the file's path; every row's source row
 * goes to {@link groupsFileOf} the file. The same `rows` and `seed` always
 * give the same files.
 *
 * @example
 * ```ts
 * import { writeResampledChurn } from "./model_churn_resample.ts";
 * const file = await writeResampledChurn(50);
 * const lines = (await Deno.readTextFile(file)).trim().split("\n");
 * await Deno.remove(file.slice(0, file.lastIndexOf("/")), { recursive: true });
 * if (lines.length !== 51 || !lines[0].startsWith('"churn"')) throw new Error(String(lines.length));
 * ```
 */
export async function writeResampledChurn(
  rows: number,
  dir?: string,
  seed = 0,
): Promise<string> {
  const text = await Deno.readTextFile(`${DATASETS_DIR}wa_churn.csv`);
  const lines = text.replace(/\r\n/g, "\n").trimEnd().split("\n");
  const header = lines[0];
  const table = parseCsv(text);
  const jitterColumn = table.header.indexOf("monthly_charges");
  if (table.rows.length !== lines.length - 1) {
    throw new Error("wa_churn.csv has multi-line records; resample by rows");
  }
  // Every source line split once: the text before and after the jittered cell.
  const before: string[] = [], after: string[] = [], charge: number[] = [];
  for (let r = 0; r < table.rows.length; r++) {
    const cells = table.rows[r];
    const line = lines[r + 1];
    // Cells of this file hold no commas, so the line splits on them.
    const parts = line.split(",");
    if (parts.length !== cells.length) {
      throw new Error(`line ${r + 2} has quoted commas; resample by cells`);
    }
    before.push(parts.slice(0, jitterColumn).join(","));
    after.push(parts.slice(jitterColumn + 1).join(","));
    charge.push(Number(cells[jitterColumn]));
  }
  const out = dir ?? await Deno.makeTempDir({ prefix: "churn_resample_" });
  const file = `${out}/wa_churn_${rows}.csv`;
  const rng = createRng(seed);
  const handle = await Deno.open(file, {
    write: true,
    create: true,
    truncate: true,
  });
  const encoder = new TextEncoder();
  const sources = new Uint32Array(rows);
  let chunk: string[] = [header];
  const flush = async () => {
    const bytes = encoder.encode(chunk.join("\n") + "\n");
    for (let o = 0; o < bytes.length;) {
      o += await handle.write(bytes.subarray(o));
    }
    chunk = [];
  };
  for (let i = 0; i < rows; i++) {
    const r = Math.floor(rng() * before.length);
    sources[i] = r;
    const x = charge[r] * (1 + 0.04 * (rng() - 0.5));
    chunk.push(`${before[r]},${x.toFixed(2)},${after[r]}`);
    if (chunk.length >= 50_000) await flush();
  }
  await flush();
  handle.close();
  await Deno.writeTextFile(groupsFileOf(file), sources.join("\n") + "\n");
  return file;
}

if (import.meta.main) {
  const [rows = "100000", dir, seed = "0"] = Deno.args;
  console.log(await writeResampledChurn(Number(rows), dir, Number(seed)));
}
