/**
 * Choosing the pair terms: FAST-style ranking of every pair of features by
 * the gain of a two-level tree on the residuals of the main terms.
 *
 * @module
 */

import { fitPair, gradientHistogram, newHistogram } from "./boost.ts";
import type { Bag, RawTerm } from "./prepared.ts";
import { cellsOf, scoreTerms, termCells } from "./predictor.ts";
import type { TrainProgress } from "./progress.ts";
import { gather, ROWS_PER_ROUND, sampleRows } from "./rowsource.ts";
import type { FeatureBins } from "./types.ts";

/**
 * FAST: ranks every pair by the gain of a 2-level tree on the residuals of
 * the main terms (on at most ROWS_PER_ROUND rows, seeded) and returns the
 * best `wanted` pairs.
 */
export function* rankPairs(
  features: FeatureBins[],
  bag: Bag,
  terms: RawTerm[],
  intercept: number[],
  K: number,
  minLeaf: number,
  lambda: number,
  wanted: number,
  rng: () => number,
  from: number,
  to: number,
  allowed: (a: number, c: number) => boolean = () => true,
): Generator<TrainProgress, [number, number][], void> {
  const F = features.length;
  const rows = sampleRows(bag.nTrain, ROWS_PER_ROUND / bag.nTrain, rng);
  const binsS = rows ? bag.trBins.map((b) => gather(b, rows)) : bag.trBins;
  const m = rows ? rows.length : bag.nTrain;
  const sS = scoreTerms(
    terms,
    cellsOf(features, terms, binsS),
    intercept,
    K,
    new Float64Array(m * K),
  );
  const yS = rows ? gather(bag.yTr, rows) : bag.yTr;
  const vS = rows && bag.vTr.length ? gather(bag.vTr, rows) : bag.vTr;
  const ranked: { pair: [number, number]; gain: number }[] = [];
  for (let a = 0; a < F; a++) {
    for (let c = a + 1; c < F; c++) {
      // Model constraint groups (constraints.ts) allow only some pairs.
      if (!allowed(a, c)) continue;
      const P0 = features[a].pairBins, P1 = features[c].pairBins;
      const pairHist = newHistogram(P0 * P1, K);
      gradientHistogram(
        bag.objective.loss,
        K,
        sS,
        yS,
        vS,
        termCells(features, [a, c], binsS),
        m,
        pairHist,
        null,
        null,
      );
      const scratch = new Float64Array(P0 * P1);
      let gain = 0;
      for (let k = 0; k < K; k++) {
        gain += fitPair(pairHist, K, k, P0, P1, minLeaf, lambda, 1, scratch);
      }
      if (gain > 0) ranked.push({ pair: [a, c], gain });
    }
    yield {
      fraction: from + ((to - from) * (a + 1)) / F,
      stage: "interactions",
    };
  }
  ranked.sort((x, y) =>
    y.gain - x.gain || x.pair[0] - y.pair[0] || x.pair[1] - y.pair[1]
  );
  return ranked.slice(0, wanted).map((r) => r.pair);
}
