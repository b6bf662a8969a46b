// The row cache of gradientHistogram (each row's exponentials kept between
// a round's terms) gives the histograms of the plain computation: bit for
// bit on a round's first term, to rounding on the terms after it, over a
// whole round of terms, for the logistic and the softmax loss.
import {
  assert,
  assertAlmostEquals,
  assertEquals,
  assertThrows,
} from "@std/assert";
import { stageRows } from "../src/local/model/rowsource.ts";
import {
  gradientHistogram,
  newHistogram,
  softmaxRowByRow,
} from "../src/local/model/histogram.ts";
import { createRng } from "../src/local/model/rng.ts";

/** A round of `terms` terms over `n` rows, with and without the cache. */
function round(
  loss: "logistic" | "softmax",
  K: number,
  seed: number,
  n = 500,
  cellsPer = 9,
) {
  const rng = createRng(seed);
  const terms = 6;
  const y = Int32Array.from({ length: n }, () => Math.floor(rng() * K));
  const cells = Array.from(
    { length: terms },
    () => Uint8Array.from({ length: n }, () => Math.floor(rng() * cellsPer)),
  );
  // Scores up to ±12 (saturated probabilities included).
  const s0 = Float64Array.from({ length: n * K }, () => (rng() - 0.5) * 24);
  const updates = cells.map(() =>
    Float64Array.from({ length: cellsPer * K }, () => (rng() - 0.5) * 2)
  );
  const plain = s0.slice(), cached = s0.slice();
  const cache = new Float64Array(n * K);
  const out: { plain: number[][]; cached: number[][] } = {
    plain: [],
    cached: [],
  };
  for (let j = 0; j < terms; j++) {
    const pc = j > 0 ? cells[j - 1] : null;
    const pu = j > 0 ? updates[j - 1] : null;
    const a = newHistogram(cellsPer, K), b = newHistogram(cellsPer, K);
    gradientHistogram(
      loss,
      K,
      plain,
      y,
      new Float64Array(0),
      cells[j],
      n,
      a,
      pc,
      pu,
    );
    gradientHistogram(
      loss,
      K,
      cached,
      y,
      new Float64Array(0),
      cells[j],
      n,
      b,
      pc,
      pu,
      false,
      cache,
    );
    // The scores themselves are updated the same way.
    assertEquals(cached, plain);
    assertEquals(b.C, a.C);
    out.plain.push([...a.G, ...a.H]);
    out.cached.push([...b.G, ...b.H]);
  }
  return out;
}

for (
  const [loss, K] of [["logistic", 1], ["softmax", 3], ["softmax", 7]] as const
) {
  Deno.test(`gradientHistogram's row cache: ${loss}, K = ${K}`, () => {
    for (const seed of [1, 2, 3]) {
      const { plain, cached } = round(loss, K, seed);
      // First term: filled from the scores, the same arithmetic.
      assertEquals(cached[0], plain[0]);
      for (let j = 1; j < plain.length; j++) {
        for (let q = 0; q < plain[j].length; q++) {
          const d = Math.abs(cached[j][q] - plain[j][q]);
          assert(
            d <= 1e-12 * Math.max(1, Math.abs(plain[j][q])),
            `term ${j}, entry ${q}: ${cached[j][q]} vs ${plain[j][q]}`,
          );
        }
        // And it is a real update, not the first term's sums again.
        assert(plain[j].some((x, q) => x !== plain[0][q]));
      }
    }
  });

  Deno.test(`gradientHistogram's row cache: ${loss}, K = ${K}, more cells than rows`, () => {
    // An update with more cells than rows refills the cache from the
    // updated scores: the plain computation's arithmetic, bit for bit.
    for (const seed of [1, 2, 3]) {
      const { plain, cached } = round(loss, K, seed, 6, 9);
      assertEquals(cached, plain);
    }
  });
}

Deno.test("a stage's rows refuse a pending update first in a round (the row cache would be stale)", () => {
  const n = 8;
  const source = stageRows({
    loss: "logistic",
    regression: false,
    K: 1,
    bag: {
      nTrain: n,
      yTr: Int32Array.from({ length: n }, (_, i) => i % 2),
      vTr: new Float64Array(0),
    },
    cellsTr: [
      new Uint8Array(n),
      Uint8Array.from({ length: n }, (_, i) => i % 2),
    ],
    tables: [new Float64Array(1), new Float64Array(2)],
    cellCounts: [1, 2],
    maxCells: 2,
    baseTr: new Float64Array(n),
    rate: 1,
    rng: createRng(1),
    helper: null,
  });
  const hist = newHistogram(2, 1);
  const update = Float64Array.of(0.5);
  let rows = source.next([new Float64Array(1), new Float64Array(2)]);
  assertThrows(
    () => source.histogram(rows, 1, 0, update, false, hist),
    Error,
    "pending update",
  );
  // In order: the first term fills, the second follows.
  rows = source.next([new Float64Array(1), new Float64Array(2)]);
  source.histogram(rows, 0, -1, null, false, newHistogram(1, 1));
  source.histogram(rows, 1, 0, update, false, hist);
  // Every score moved by the update: p = 1 / (1 + e^-0.5) a row.
  const p = 1 / (1 + Math.exp(-0.5));
  assertAlmostEquals(hist.G[0] + hist.G[1], n * p - n / 2, 1e-12);
  source.close();
});

Deno.test("gradientHistogram's row cache: a step too large for a row's exponentials refills that row from its scores", () => {
  // Two rows, three classes; the second term's update lifts class 2 of the
  // second row by 800 (its exp would overflow a double).
  const K = 3, n = 2;
  const y = Int32Array.of(0, 2);
  const cells = Uint8Array.of(0, 1);
  const update = Float64Array.of(0, 0, 0, 0, 0, 800);
  const plain = new Float64Array(n * K), cached = plain.slice();
  const cache = new Float64Array(n * K);
  const a = newHistogram(2, K), b = newHistogram(2, K);
  const none = new Float64Array(0);
  for (const [s, hist, c] of [[plain, a, null], [cached, b, cache]] as const) {
    gradientHistogram(
      "softmax",
      K,
      s,
      y,
      none,
      cells,
      n,
      hist,
      null,
      null,
      false,
      c,
    );
    gradientHistogram(
      "softmax",
      K,
      s,
      y,
      none,
      cells,
      n,
      hist,
      cells,
      update,
      false,
      c,
    );
  }
  assert(b.G.every(Number.isFinite), `finite gradients: ${b.G.join()}`);
  assertEquals(b.G, a.G);
  assertEquals(b.H, a.H);
});

for (const [loss, K] of [["logistic", 1], ["softmax", 4]] as const) {
  Deno.test(`a stage's rows: histograms at unchanged scores (a greedy ranking) are the plain ones, bit for bit (${loss})`, () => {
    const rng = createRng(11);
    const n = 300, terms = 5;
    const y = Int32Array.from({ length: n }, () => Math.floor(rng() * K));
    // Cells of both widths: a main term's bytes, a pair's 16-bit cells.
    const cellsTr = Array.from(
      { length: terms },
      (_, j) =>
        j % 2
          ? Uint16Array.from({ length: n }, () => Math.floor(rng() * 300))
          : Uint8Array.from({ length: n }, () => Math.floor(rng() * 7)),
    );
    const counts = cellsTr.map((_, j) => (j % 2 ? 300 : 7));
    const baseTr = Float64Array.from({ length: n * K }, () => 3 * rng() - 1.5);
    const tables = counts.map((c) => new Float64Array(c * K));
    const source = stageRows({
      loss,
      regression: false,
      K,
      bag: { nTrain: n, yTr: y, vTr: new Float64Array(0) },
      cellsTr,
      tables,
      cellCounts: counts,
      maxCells: 300,
      baseTr,
      rate: 1,
      rng: createRng(1),
      helper: null,
    });
    for (let round = 0; round < 3; round++) {
      const rows = source.next(tables);
      // Every term at the round's scores, twice over (counted the second
      // time, as a stage's later rounds are), each against the plain sums.
      for (const counted of [false, true]) {
        for (let j = 0; j < terms; j++) {
          const hist = newHistogram(counts[j], K);
          if (counted) {
            gradientHistogram(
              loss,
              K,
              rows.s.slice(),
              y,
              new Float64Array(0),
              cellsTr[j],
              n,
              hist,
              null,
              null,
            );
          }
          source.histogram(rows, j, -1, null, counted, hist);
          const plain = newHistogram(counts[j], K);
          gradientHistogram(
            loss,
            K,
            rows.s.slice(),
            y,
            new Float64Array(0),
            cellsTr[j],
            n,
            plain,
            null,
            null,
          );
          assertEquals(hist, plain, `round ${round}, term ${j}`);
        }
      }
      // Then a step, as a round takes it: the scores move, the next round
      // starts over.
      const u = Float64Array.from({ length: counts[1] * K }, () => rng() - 0.5);
      source.histogram(rows, 3, 1, u, true, newHistogram(counts[3], K));
      tables[1].forEach((_, q) => (tables[1][q] += u[q]));
    }
    source.close();
  });
}

Deno.test("gradientHistogram's softmax with a row cache, two rows at a time, is the one-row loop bit for bit (odd row counts, sampled rows, refills)", () => {
  const rng = createRng(5);
  for (const K of [2, 3, 7, 10]) {
    for (const n of [1, 2, 5, 6, 101, 400]) {
      for (const sampled of [false, true]) {
        // Sampled: row i is row at[i] of the cells, which hold 2n + 1 rows.
        const all = sampled ? 2 * n + 1 : n;
        const at = sampled
          ? Uint32Array.from(
            { length: n },
            (_, i) => 2 * i + (rng() < 0.5 ? 0 : 1),
          )
          : null;
        const cellsPer = 1 + Math.floor(rng() * 12);
        const y = Int32Array.from({ length: n }, () => Math.floor(rng() * K));
        const two = Float64Array.from(
          { length: n * K },
          () => (rng() - 0.5) * 24,
        );
        const one = two.slice();
        const cacheTwo = new Float64Array(n * K),
          cacheOne = new Float64Array(n * K);
        const cells = () =>
          Uint8Array.from({ length: all }, () => Math.floor(rng() * cellsPer));
        let pending: [Uint8Array, Float64Array] | null = null;
        for (let term = 0; term < 6; term++) {
          const mine = cells();
          const a = newHistogram(cellsPer, K), b = newHistogram(cellsPer, K);
          const [pc, pu] = pending ?? [null, null];
          gradientHistogram(
            "softmax",
            K,
            two,
            y,
            new Float64Array(0),
            mine,
            n,
            a,
            pc,
            pu,
            false,
            cacheTwo,
            at,
          );
          // The one-row loop with the factors gradientHistogram takes (the
          // exp of every update value), or none: the exponentials refilled.
          const f = pc === null || pu!.length > n * K
            ? null
            : Float64Array.from(pu!, Math.exp);
          softmaxRowByRow(
            K,
            one,
            y,
            mine,
            0,
            n,
            b.G,
            b.H,
            pc,
            pu,
            cacheOne,
            at,
            f,
          );
          const what = `K ${K}, n ${n}, sampled ${sampled}, term ${term}`;
          assertEquals([...a.G], [...b.G], what);
          assertEquals([...a.H], [...b.H], what);
          assertEquals([...two], [...one], what);
          assertEquals([...cacheTwo], [...cacheOne], what);
          // Term 3's step overflows some rows' exponentials (refilled).
          const scale = term === 3 ? 1600 : 2;
          pending = [
            mine,
            Float64Array.from(
              { length: cellsPer * K },
              () => Math.round((rng() - 0.5) * scale * 8) / 8,
            ),
          ];
        }
      }
    }
  }
});
