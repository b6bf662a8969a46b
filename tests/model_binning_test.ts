/**
 * Refined bins (the linear start's, see `LINEAR_BINS` in ebm.ts): every
 * refined bin lies inside the coarse bin `coarseOf` names, so a value's
 * boosted bin is the same through either binning.
 */
import { assert, assertEquals } from "@std/assert";
import fc from "fast-check";
import {
  binColumn,
  numericBins,
  refineBins,
} from "../src/local/model/binning.ts";

Deno.test("binning: a refined bin lies in the coarse bin coarseOf names, for any values and strategy", () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.oneof(
          fc.double({ min: -1e6, max: 1e6, noNaN: true }),
          fc.constant(NaN),
          fc.integer({ min: 0, max: 5 }),
        ),
        { minLength: 1, maxLength: 400 },
      ),
      fc.integer({ min: 2, max: 40 }),
      fc.integer({ min: 2, max: 254 }),
      fc.constantFrom("QUANTILE", "UNIFORM"),
      fc.constantFrom(0, 0.01),
      (raw, coarseBins, fineBins, strategy, minDistance) => {
        const values = Float64Array.from(raw);
        const coarse = numericBins(
          "x",
          values,
          coarseBins,
          strategy,
          minDistance,
        );
        const { bins, coarseOf } = refineBins(
          coarse,
          values,
          fineBins,
          strategy,
          minDistance,
        );
        assertEquals(coarseOf.length, bins.nBins);
        assert(coarse.cuts.every((c) => bins.cuts.includes(c)));
        assert(bins.nBins >= coarse.nBins);
        const probe = Float64Array.from([
          ...raw,
          ...coarse.cuts,
          ...bins.cuts,
          -Infinity,
          Infinity,
        ]);
        const viaCoarse = binColumn(coarse, probe);
        const viaRefined = binColumn(bins, probe);
        probe.forEach((_, i) =>
          assertEquals(coarseOf[viaRefined[i]], viaCoarse[i])
        );
        assertEquals(bins.labels.length, bins.nBins);
        assert(bins.pairMap.length === bins.nBins && bins.pairBins <= 13);
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("binning: values near the largest double get finite cuts between their neighbours (the midpoint's sum overflowed to Infinity)", () => {
  const big = [1e308, 1.2e308, 1.4e308, 1.6e308, 1.7e308];
  for (const strategy of ["QUANTILE", "UNIFORM"]) {
    // Few distinct values: a cut between each pair of neighbours.
    const few = numericBins("x", Float64Array.from(big), 8, strategy);
    assertEquals(few.cuts.length, big.length - 1);
    few.cuts.forEach((c, i) => {
      assert(Number.isFinite(c) && big[i] < c && c < big[i + 1], `${c}`);
    });
    // More distinct values than bins, over the whole range of doubles.
    const wide = Float64Array.from(
      { length: 200 },
      (_, i) => 1.7e308 * (i / 99.5 - 1),
    );
    const b = numericBins("x", wide, 10, strategy);
    assert(b.cuts.length >= 5, `${strategy}: ${b.cuts.length} cuts`);
    for (let i = 0; i < b.cuts.length; i++) {
      assert(Number.isFinite(b.cuts[i]), `${strategy}: cut ${b.cuts[i]}`);
      if (i > 0) assert(b.cuts[i] > b.cuts[i - 1]);
    }
    assert(b.labels.every((l) => !l.includes("Infinity")), b.labels.join());
  }
});
