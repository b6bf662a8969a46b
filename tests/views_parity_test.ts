/**
 * One model, one answer, whatever runs it: a seeded 4-class table (a
 * categorical level that never meets two classes, missing cells, a skewed
 * numeric column) trained through `local()`'s quickstart gives exactly the
 * model metrics and views saved in `tests/fixtures/views_parity.json`, and
 * a seeded log-normal regression table (whose model serves with the log
 * link, `exp` of its score) those of
 * `tests/fixtures/views_parity_regression.json`. The npm build runs the
 * same fixtures under Node (tests/node/parity.test.mjs), so the Deno
 * module, the npm package and (through the consistency test) HTTP all
 * serve the same numbers, byte for byte.
 *
 * A change of the model's behaviour regenerates the fixture on purpose:
 *
 * ```sh
 * deno run -A scripts/with_import_map.ts run -A tests/views_parity_test.ts --write
 * ```
 */
import { assertEquals } from "@std/assert";
import { local } from "../local.ts";
import { createRng } from "../src/local/model/rng.ts";

const FIXTURE = new URL("./fixtures/views_parity.json", import.meta.url);
const REGRESSION = new URL(
  "./fixtures/views_parity_regression.json",
  import.meta.url,
);

/** What the fixture holds; tests/node/parity.test.mjs reads the same file. */
interface Parity {
  csv: string;
  target: string;
  training: Record<string, number>;
  query: Record<string, (string | number | null)[]>;
  metrics: Record<string, number | null>;
  /** The model record's link (regression). */
  link?: string;
  rows: Record<string, unknown>[];
}

/** The seeded table: 4 classes, a level of `region` never seen with two. */
function table(): Pick<Parity, "csv" | "query"> {
  const rng = createRng(20261127);
  const normal = () =>
    Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
  const lines = ["amount,score,region,plan,label"];
  const query: Parity["query"] = {
    amount: [],
    score: [],
    region: [],
    plan: [],
  };
  for (let i = 0; i < 420; i++) {
    const amount = Math.round(Math.exp(normal() * 0.8 + 3) * 100) / 100;
    const score = Math.round(normal() * 1000) / 1000;
    const region = `r${Math.floor(rng() * 9)}`;
    const plan = rng() < 0.1 ? "" : ["basic", "plus", "pro"][i % 3];
    const z = score + Math.log(amount) / 2 + (region === "r8" ? 2 : 0);
    // r8 never meets classes c and d.
    const label = region === "r8"
      ? (z > 2.5 ? "b" : "a")
      : z < 1
      ? "a"
      : z < 2
      ? "b"
      : z < 2.6
      ? "c"
      : "d";
    lines.push(`${amount},${score},${region},${plan},${label}`);
    if (i % 35 === 0) {
      query.amount.push(amount);
      query.score.push(i % 70 === 0 ? null : score);
      query.region.push(i === 70 ? "r-unseen" : region);
      query.plan.push(plan === "" ? null : plan);
    }
  }
  return { csv: lines.join("\n") + "\n", query };
}

/**
 * The seeded regression table: a positive price whose log is additive in
 * its columns (log-normal), so the model keeps the log link.
 */
function regressionTable(): Pick<Parity, "csv" | "query"> {
  const rng = createRng(20261128);
  const normal = () =>
    Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
  const lines = ["area,age,district,price"];
  const query: Parity["query"] = { area: [], age: [], district: [] };
  for (let i = 0; i < 600; i++) {
    const area = Math.round(Math.exp(normal() * 0.4 + 4.5));
    const age = rng() < 0.05 ? null : Math.round(rng() * 80);
    const district = `d${Math.floor(rng() * 6)}`;
    const log = 6 + 0.9 * Math.log(area) - 0.006 * (age ?? 40) +
      0.15 * Number(district.slice(1)) + 0.35 * normal();
    const price = Math.round(Math.exp(log));
    lines.push(`${area},${age ?? ""},${district},${price}`);
    if (i % 40 === 0) {
      query.area.push(area);
      query.age.push(age);
      query.district.push(i === 80 ? "d-unseen" : district);
    }
  }
  return { csv: lines.join("\n") + "\n", query };
}

/** Trains the fixture's table through quickstart and answers its query. */
async function run(
  fixture: Pick<Parity, "csv" | "target" | "training" | "query">,
): Promise<Pick<Parity, "metrics" | "link" | "rows">> {
  const dir = await Deno.makeTempDir({ prefix: "views_parity_" });
  const ml = await local({ buckets: { data: dir }, progress: false });
  try {
    await Deno.writeTextFile(`${dir}/parity.csv`, fixture.csv);
    const { model, deployment } = await ml.quickstart({
      bucket: "data",
      path: "parity.csv",
      target: fixture.target,
      training: fixture.training,
    });
    const result = await deployment.views(fixture.query);
    return {
      metrics: model.metrics ?? {},
      ...(model.link ? { link: model.link } : {}),
      rows: result.rows(),
    };
  } finally {
    await ml.close();
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * Each fixture: its file, its table, its target and its training (the
 * regression's eight bags by default: the log link must beat the target
 * significantly over the bags, which two bags can hardly show).
 */
const FIXTURES: {
  file: URL;
  table: () => Pick<Parity, "csv" | "query">;
  target: string;
  training: Record<string, number>;
}[] = [
  {
    file: FIXTURE,
    table,
    target: "label",
    training: { estimators: 2, maxRounds: 150, randomSeed: 7 },
  },
  {
    file: REGRESSION,
    table: regressionTable,
    target: "price",
    training: { maxRounds: 150, randomSeed: 7 },
  },
];

if (import.meta.main && Deno.args.includes("--write")) {
  for (const { file, table, target, training } of FIXTURES) {
    const base = { ...table(), target, training };
    const fixture: Parity = { ...base, ...await run(base) };
    await Deno.writeTextFile(file, JSON.stringify(fixture, null, 2) + "\n");
    console.log(`wrote ${file.pathname}`);
  }
} else {
  Deno.test("views parity: Deno serves exactly the metrics and views the fixture holds (Node runs the same fixture)", async () => {
    const fixture: Parity = JSON.parse(await Deno.readTextFile(FIXTURE));
    // The fixture's table is the generator's: a changed generator regenerates it.
    assertEquals(fixture.csv, table().csv);
    const got = await run(fixture);
    assertEquals(got.metrics, fixture.metrics);
    assertEquals(got.rows, fixture.rows);
  });

  Deno.test("views parity: a log-link regression serves exactly the metrics and views its fixture holds (Node runs the same fixture)", async () => {
    const fixture: Parity = JSON.parse(await Deno.readTextFile(REGRESSION));
    assertEquals(fixture.csv, regressionTable().csv);
    // The table is one whose log the search prefers.
    assertEquals(fixture.link, "log");
    const got = await run(fixture);
    assertEquals(got.link, "log");
    assertEquals(got.metrics, fixture.metrics);
    assertEquals(got.rows, fixture.rows);
  });
}
