/**
 * One model, one answer, whatever runs it: a seeded 4-class table (a
 * categorical level that never meets two classes, missing cells, a skewed
 * numeric column) trained through `local()`'s quickstart gives exactly the
 * model metrics and views saved in `tests/fixtures/views_parity.json`. The
 * npm build runs the same fixture under Node (tests/node/parity.test.mjs),
 * so the Deno module, the npm package and (through the consistency test)
 * HTTP all serve the same numbers, byte for byte.
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

/** What the fixture holds; tests/node/parity.test.mjs reads the same file. */
interface Parity {
  csv: string;
  target: string;
  training: Record<string, number>;
  query: Record<string, (string | number | null)[]>;
  metrics: Record<string, number | null>;
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

/** Trains the fixture's table through quickstart and answers its query. */
async function run(
  fixture: Pick<Parity, "csv" | "target" | "training" | "query">,
): Promise<Pick<Parity, "metrics" | "rows">> {
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
    return { metrics: model.metrics ?? {}, rows: result.rows() };
  } finally {
    await ml.close();
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main && Deno.args.includes("--write")) {
  const base = {
    ...table(),
    target: "label",
    training: { estimators: 2, maxRounds: 150, randomSeed: 7 },
  };
  const fixture: Parity = { ...base, ...await run(base) };
  await Deno.writeTextFile(FIXTURE, JSON.stringify(fixture, null, 2) + "\n");
  console.log(`wrote ${FIXTURE.pathname}`);
} else {
  Deno.test("views parity: Deno serves exactly the metrics and views the fixture holds (Node runs the same fixture)", async () => {
    const fixture: Parity = JSON.parse(await Deno.readTextFile(FIXTURE));
    // The fixture's table is the generator's: a changed generator regenerates it.
    assertEquals(fixture.csv, table().csv);
    const got = await run(fixture);
    assertEquals(got.metrics, fixture.metrics);
    assertEquals(got.rows, fixture.rows);
  });
}
