/**
 * The model the bench lines score with: penguins (quickstart on
 * `datasets/penguins.csv`, target `species`, default hyperparameters), on an
 * in-process or HTTP target, plus queries of any number of rows cycled from
 * the file.
 *
 * @module
 */
import type { Deployment } from "../../mod.ts";
import { DATASETS_DIR } from "../../tests/_helpers/datasets.ts";
import { type Query, queryFromCsv, type ViewsTarget } from "../api_views.ts";

/** The penguins file's folder (served as bucket `bench`). */
export const BUCKETS = { bench: DATASETS_DIR };

const NUMERIC = [
  "bill_length_mm",
  "bill_depth_mm",
  "flipper_length_mm",
  "body_mass_g",
];

/**
 * The penguins feature columns cycled to `rows` rows.
 *
 * @example
 * ```ts
 * import { penguinsQuery } from "./penguins.ts";
 * const q = await penguinsQuery(3);
 * if (q.island.length !== 3 || "species" in q) throw new Error();
 * ```
 */
export async function penguinsQuery(rows: number): Promise<Query> {
  const text = await Deno.readTextFile(`${DATASETS_DIR}/penguins.csv`);
  return queryFromCsv(text, "species", NUMERIC, rows);
}

/**
 * Trains and deploys the penguins model on `target` (quickstart), then a
 * second deployment of the same model serving `maximumConcurrency` requests
 * at once (the load line's 64 clients must not meet the default queue of 4).
 */
export async function deployPenguins(
  target: ViewsTarget,
  maximumConcurrency = 4,
): Promise<Deployment> {
  const { deployment, model } = await target.ml.quickstart({
    bucket: "bench",
    path: "penguins.csv",
    target: "species",
    sample: `${DATASETS_DIR}/penguins.csv`,
    progress: false,
  });
  if (maximumConcurrency === 4) return deployment;
  return await target.ml.deploy(model, {
    maximumConcurrency,
    progress: false,
  });
}
