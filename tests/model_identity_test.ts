/**
 * The model's behaviour is pinned: for a seed, training gives byte-identical
 * JSON to the models saved under `tests/fixtures/` (a binary table with an
 * interaction, a 4-class table with a category that never meets a class, a
 * regression table), in one thread and with the worker and its helper
 * thread. A refactoring of `src/local/model/` must keep it passing; a change
 * of behaviour regenerates the fixtures on purpose:
 *
 * ```sh
 * deno run -A tests/model_identity_test.ts --write
 * ```
 *
 * (add `--import-map` with the test runner's map where JSR is unreachable).
 */
import { assertEquals } from "@std/assert";
import { encodeDataset } from "../src/local/model/encoding.ts";
import { train } from "../src/local/model/ebm.ts";
import { trainInBackground } from "../src/local/model/worker.ts";
import { createRng } from "../src/local/model/rng.ts";
import { field, normal } from "./_helpers/generated.ts";

const FIXTURES = new URL("./fixtures/", import.meta.url);

/** The three tables, each with the parameters it trains with. */
function tables() {
  const rng = createRng(26);
  const n = 600;
  const a: number[] = [], b: number[] = [], c: string[] = [];
  const e: (number | null)[] = [];
  const pair: string[] = [], multi: string[] = [], value: number[] = [];
  for (let i = 0; i < n; i++) {
    const x = normal(rng), z = normal(rng), w = -Math.log(1 - rng());
    const level = Math.floor(rng() * 8);
    a.push(x);
    b.push(z);
    c.push(`k${level}`);
    e.push(rng() < 0.05 ? null : w);
    pair.push(x * z + 0.3 * normal(rng) > 0 ? "yes" : "no");
    const s = x + 0.5 * w + 0.2 * level + 0.7 * normal(rng);
    let k = s < 0 ? 0 : s < 1 ? 1 : s < 2 ? 2 : 3;
    if (level >= 6 && k === 3) k = 2; // k6, k7 never meet class 3
    multi.push(`m${k}`);
    value.push(3 * x + Math.exp(0.5 * z) + (level % 3) + 0.2 * normal(rng));
  }
  const features = [
    field("a", "number"),
    field("b", "number"),
    field("c", "category"),
    field("e", "number"),
  ];
  const columns = { a, b, c, e };
  return {
    binary_pairs: {
      data: encodeDataset({ ...columns, y: pair }, [
        ...features,
        field("y", "category", "TARGET"),
      ]),
      params: { max_rounds: 80 },
    },
    multiclass: {
      data: encodeDataset({ ...columns, y: multi }, [
        ...features,
        field("y", "category", "TARGET"),
      ]),
      params: { max_rounds: 80 },
    },
    regression: {
      data: encodeDataset({ ...columns, y: value }, [
        ...features,
        field("y", "number", "TARGET"),
      ], { prediction_type: "REGRESSION" }),
      params: { max_rounds: 80 },
    },
  };
}

if (import.meta.main && Deno.args.includes("--write")) {
  await Deno.mkdir(FIXTURES, { recursive: true });
  for (const [name, { data, params }] of Object.entries(tables())) {
    await Deno.writeTextFile(
      new URL(`model_${name}.json`, FIXTURES),
      JSON.stringify(train(data, params), null, 2) + "\n",
    );
  }
}

for (const [name, { data, params }] of Object.entries(tables())) {
  Deno.test(`identity: the ${name} model is byte-identical to its fixture, in one thread and with the worker's helper`, async () => {
    // The fixture is pretty-printed (so formatters leave it alone); parsed
    // and serialised again it is the model's JSON byte for byte, every
    // number included (JSON numbers round-trip exactly).
    const expected = JSON.stringify(
      JSON.parse(
        await Deno.readTextFile(new URL(`model_${name}.json`, FIXTURES)),
      ),
    );
    assertEquals(JSON.stringify(train(data, params)), expected);
    const background = await trainInBackground(data, params);
    assertEquals(JSON.stringify(background), expected);
  });
}
