/**
 * `deno bench` timings of the modelling core on wa_churn.csv: CSV parsing,
 * onboarding (encoding), training with default parameters, and a 1,000-row
 * views table. Run with `deno task bench` or `deno bench -A bench/model_train_bench.ts`.
 *
 * @module
 */

import { parseCsv } from "../src/csv.ts";
import { train } from "../src/local/model/ebm.ts";
import { encodeDataset } from "../src/local/model/encoding.ts";
import { contributionTable } from "../src/local/model/explain.ts";
import { CHURN, loadEncoded } from "../tests/_helpers/datasets.ts";

const { text, columns, features, fields, data } = await loadEncoded(CHURN);
const model = train(data);
const query = Object.fromEntries(
  Object.entries(features).map(([k, v]) => [k, v.slice(0, 1000)]),
);

Deno.bench("parseCsv wa_churn.csv (~1 MB)", () => {
  parseCsv(text);
});
Deno.bench("encodeDataset wa_churn (7043 rows)", () => {
  encodeDataset(columns, fields, { targets: ["churn"] });
});
Deno.bench("train wa_churn, default params", { n: 10 }, () => {
  train(data);
});
Deno.bench("contributionTable 1000 rows with explanations", () => {
  contributionTable(model, query, { churn: "Yes" });
});
