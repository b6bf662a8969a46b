/**
 * The pair step (`fitPair`, boost.ts) against the plain two-level search it
 * replaces, on random histograms: bit for bit the same gain and cells
 * (`Object.is`, so even a zero's sign), with its counts' plan (`pairPlan`)
 * built for the call or once for every score column of a histogram, as a
 * multi-class stage does, or kept from round to round while the counts stay
 * the same (`refreshPairPlan`). The reference cuts one axis, then each side along
 * the other, summing the cells' cumulative sums in the same order.
 */
import { assert, assertEquals } from "@std/assert";
import {
  fitPair,
  soft,
  type StepRegularisation,
} from "../src/local/model/boost.ts";
import {
  newKeptPairPlan,
  pairPlan,
  refreshPairPlan,
} from "../src/local/model/pair_plan.ts";
import type { Histogram } from "../src/local/model/histogram.ts";
import { createRng } from "../src/local/model/rng.ts";

/** The best cut of slice [from, to) along B, as the scan of every cut finds it. */
function second(
  cum: Float64Array[],
  nB: number,
  from: number,
  to: number,
  minLeaf: number,
  lambda: number,
) {
  const [gCum, hCum, cCum] = cum;
  let gs = 0, hs = 0, cs = 0;
  for (let z = 0; z < nB; z++) {
    gs += gCum[to * nB + z] - gCum[from * nB + z];
    hs += hCum[to * nB + z] - hCum[from * nB + z];
    cs += cCum[to * nB + z] - cCum[from * nB + z];
  }
  if (cs < 2 * minLeaf) return null;
  let best: { score: number; cut: number; g: number[]; h: number[] } | null =
    null;
  let gl = 0, hl = 0, cl = 0;
  for (let z = 0; z < nB - 1; z++) {
    gl += gCum[to * nB + z] - gCum[from * nB + z];
    hl += hCum[to * nB + z] - hCum[from * nB + z];
    cl += cCum[to * nB + z] - cCum[from * nB + z];
    if (cl < minLeaf) continue;
    if (cs - cl < minLeaf) break;
    const gr = gs - gl, hr = hs - hl;
    const score = (gl * gl) / (hl + lambda) + (gr * gr) / (hr + lambda);
    if (!best || score > best.score) {
      best = { score, cut: z + 1, g: [gl, gr], h: [hl, hr] };
    }
  }
  return best;
}

/** The reference pair step: both orientations, every first cut, both sides. */
function reference(
  { G, H, C }: Histogram,
  K: number,
  k: number,
  P0: number,
  P1: number,
  minLeaf: number,
  lambda: number,
  lr: number,
  out: Float64Array,
  reg: StepRegularisation,
): number {
  const trees = [false, true].map((transposed) => {
    const nA = transposed ? P1 : P0, nB = transposed ? P0 : P1;
    const cum = [0, 1, 2].map(() => new Float64Array((nA + 1) * nB));
    for (let x = 0; x < nA; x++) {
      for (let z = 0; z < nB; z++) {
        const c = transposed ? z * P1 + x : x * P1 + z;
        const o = (x + 1) * nB + z, p = x * nB + z;
        cum[0][o] = cum[0][p] + G[c * K + k];
        cum[1][o] = cum[1][p] + H[c * K + k];
        cum[2][o] = cum[2][p] + C[c];
      }
    }
    let totalG = 0, totalH = 0;
    for (let z = 0; z < nB; z++) {
      totalG += cum[0][nA * nB + z];
      totalH += cum[1][nA * nB + z];
    }
    const parent = (totalG * totalG) / (totalH + lambda);
    let tree = {
      gain: 0,
      cut: 0,
      cuts: [0, 0],
      g: [0, 0, 0, 0],
      h: [0, 0, 0, 0],
    };
    for (let cut = 1; cut < nA; cut++) {
      const lo = second(cum, nB, 0, cut, minLeaf, lambda);
      if (!lo) continue;
      const hi = second(cum, nB, cut, nA, minLeaf, lambda);
      if (!hi) continue;
      const gain = lo.score + hi.score - parent;
      if (gain > tree.gain + 1e-12) {
        tree = {
          gain,
          cut,
          cuts: [lo.cut, hi.cut],
          g: [...lo.g, ...hi.g],
          h: [...lo.h, ...hi.h],
        };
      }
    }
    return { ...tree, transposed };
  });
  const best = trees[0].gain >= trees[1].gain ? trees[0] : trees[1];
  out.fill(0);
  if (best.gain <= Math.max(0, reg.minGain)) return 0;
  for (let i = 0; i < P0; i++) {
    for (let j = 0; j < P1; j++) {
      const first = best.transposed ? j : i, next = best.transposed ? i : j;
      const side = first < best.cut ? 0 : 1;
      const leaf = side * 2 + (next < best.cuts[side] ? 0 : 1);
      out[i * P1 + j] = (-lr * soft(best.g[leaf], reg.l1)) /
        (best.h[leaf] + lambda);
    }
  }
  return best.gain;
}

Deno.test("pair fit: the same gain and cells as the plain two-level search, to the bit", () => {
  const rng = createRng(42);
  let calls = 0;
  for (let t = 0; t < 3000; t++) {
    const K = [1, 3, 7][t % 3];
    const P0 = 1 + Math.floor(rng() * 18), P1 = 1 + Math.floor(rng() * 18);
    const cells = P0 * P1;
    const G = new Float64Array(cells * K), H = new Float64Array(cells * K);
    const C = new Float64Array(cells);
    // Sparse to full grids: empty cells, slices and sides are what the
    // counts' plan decides on.
    const density = rng();
    for (let c = 0; c < cells; c++) {
      if (rng() > density) continue;
      C[c] = 1 + Math.floor(rng() * 10);
      for (let q = 0; q < K; q++) {
        G[c * K + q] = (rng() - 0.5) * C[c];
        H[c * K + q] = rng() * C[c] * 0.25 + 1e-16 * C[c];
      }
    }
    const minLeaf = [1, 2, 5, 20][t % 4];
    const lambda = [0, 0.01, 1][t % 3];
    const reg = {
      l1: t % 5 === 0 ? 0.1 : 0,
      minGain: t % 7 === 0 ? 0.5 : 0,
      minGainFraction: 0,
    };
    const hist = { G, H, C };
    const plan = pairPlan(C, P0, P1, minLeaf);
    for (let k = 0; k < K; k++) {
      const want = new Float64Array(cells).fill(9);
      const got = new Float64Array(cells).fill(7);
      const a = reference(hist, K, k, P0, P1, minLeaf, lambda, 0.1, want, reg);
      const b = fitPair(
        hist,
        K,
        k,
        P0,
        P1,
        minLeaf,
        lambda,
        0.1,
        got,
        reg,
        ...(k % 2 ? [plan] : []),
      );
      assert(Object.is(a, b), `gain ${a} vs ${b} (case ${t}, class ${k})`);
      assert(
        want.every((x, i) => Object.is(x, got[i])),
        `cells differ (case ${t}, class ${k})`,
      );
      calls++;
    }
  }
  assert(calls > 5000);
});

Deno.test("pair fit: a plan kept across rounds is the plan of each round's counts", () => {
  // A pair stage's rounds: the counts stay the same (every row, every
  // round) or change (rows sampled, a grid of another size); the kept
  // plan must be what pairPlan builds from that round's counts, so the
  // stage fits what it fitted when it built the plan every round.
  const rng = createRng(7);
  let same = 0, changed = 0;
  for (let stage = 0; stage < 200; stage++) {
    const plan = newKeptPairPlan();
    let P0 = 1 + Math.floor(rng() * 33), P1 = 1 + Math.floor(rng() * 33);
    let C = new Float64Array(P0 * P1);
    const minLeaf = [1, 3, 10][stage % 3];
    for (let round = 0; round < 12; round++) {
      const change = round === 0 ? 2 : Math.floor(rng() * 4);
      if (change === 3) {
        P0 = 1 + Math.floor(rng() * 33), P1 = 1 + Math.floor(rng() * 33);
        C = new Float64Array(P0 * P1);
      }
      if (change >= 2) {
        for (let c = 0; c < C.length; c++) {
          C[c] = rng() < 0.4 ? 0 : Math.floor(rng() * 15);
        }
      } else if (change === 1) C[Math.floor(rng() * C.length)] += 1;
      refreshPairPlan(C, P0, P1, minLeaf, plan);
      if (change === 0) same++;
      else changed++;
      const want = pairPlan(C, P0, P1, minLeaf);
      for (const o of [0, 1]) {
        const n = 4 * (o === 0 ? P0 : P1);
        assertEquals(
          Array.from(plan.ranges[o].subarray(0, n)),
          Array.from(want.ranges[o].subarray(0, n)),
          `stage ${stage}, round ${round}, orientation ${o}`,
        );
      }
    }
  }
  assert(same > 300 && changed > 300, `same ${same}, changed ${changed}`);
});
