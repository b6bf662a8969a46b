/**
 * Small views calls reuse one set of typed arrays per model
 * (predictor.ts, `rowScratch`): every call's answer must equal the same
 * rows scored in one call of more rows (which makes its own arrays),
 * whatever came before it: calls of other sizes, another model's calls, a
 * call refused halfway through its rows.
 */
import { assertEquals, assertThrows } from "@std/assert";
import { encodeDataset } from "../src/local/model/encoding.ts";
import { train } from "../src/local/model/train.ts";
import { contributionTable, predict } from "../src/local/model/explain.ts";
import { ModelInputError } from "../src/local/model/errors.ts";
import { createRng } from "../src/local/model/rng.ts";

function fitted(seed: number, classes: string[]) {
  const rng = createRng(seed);
  const n = 300;
  const x = Array.from({ length: n }, () => Math.round(rng() * 1000) / 10);
  const c = Array.from(
    { length: n },
    () => ["r", "g", "b"][Math.floor(rng() * 3)],
  );
  const y = x.map((v, i) =>
    classes[(Math.floor(v / 25) + (c[i] === "g" ? 1 : 0)) % classes.length]
  );
  const data = encodeDataset({ x, c, y }, [
    {
      name: "x",
      data_type: { data_type: "NUMBER" },
      designation: "FEATURE",
      semantic_type: "CONTINUOUS",
    },
    {
      name: "c",
      data_type: { data_type: "STRING" },
      designation: "FEATURE",
      semantic_type: "CATEGORICAL",
    },
    {
      name: "y",
      data_type: { data_type: "STRING" },
      designation: "TARGET",
      semantic_type: "CATEGORICAL",
    },
  ]);
  return { model: train(data, { max_rounds: 20 }), x, c };
}

Deno.test("views scratch: small calls answer as one large call, whatever came before", () => {
  const a = fitted(1, ["p", "q", "s"]);
  const b = fitted(2, ["u", "v"]);
  const rows = 70; // more than the 64 rows a scratch serves: its own arrays
  const query = (m: typeof a, from: number, to: number) => ({
    x: m.x.map((v, i) => (i % 7 === 3 ? null : v)).slice(from, to),
    c: m.c.slice(from, to),
  });
  const whole = {
    a: contributionTable(a.model, query(a, 0, rows)),
    b: contributionTable(b.model, query(b, 0, rows)),
  };
  const sizes = [1, 2, 1, 3, 1, 64, 1, 5];
  let at = 0;
  for (let k = 0; k < 40; k++) {
    const n = sizes[k % sizes.length];
    const from = at % (rows - n);
    at += 7;
    for (const [name, m] of [["a", a], ["b", b]] as const) {
      const part = contributionTable(m.model, query(m, from, from + n));
      assertEquals(part.data, whole[name].data.slice(from, from + n));
      const p = predict(m.model, query(m, from, from + n));
      assertEquals(
        p.probabilities,
        whole[name].data.slice(from, from + n).map((r) =>
          r.slice(1, 1 + m.model.classes.length)
        ),
      );
    }
    if (k % 5 === 0) {
      // Refused at its second row, after the first was written in.
      assertThrows(
        () => contributionTable(a.model, { x: [1, "oops"], c: ["r", "g"] }),
        ModelInputError,
      );
    }
  }
});
