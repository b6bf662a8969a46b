/**
 * Averaging the bags is averaging their models: without winsorizing, every
 * merged cell is the plain mean of the bags' cells, whatever the cells' row
 * counts and however far a term's mean per class is from 0. Dropping the
 * centres `mergeBags` takes out before averaging (issue 22's first fault:
 * a category that never meets a class puts that class's term mean far from
 * 0) fails it.
 */
import { assert } from "@std/assert";
import fc from "fast-check";
import { mergeBags } from "../src/local/model/finalize.ts";

Deno.test("mergeBags: each merged cell is the mean of the bags' cells (any rows per cell, any class means)", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 2, max: 8 }), // bags
      fc.integer({ min: 1, max: 5 }), // classes
      fc.integer({ min: 1, max: 6 }), // cells
      fc.integer({ min: 0, max: 1_000_000 }),
      (B, K, size, seed) => {
        let x = seed;
        const next =
          () => ((x = (x * 1103515245 + 12345) % 2147483648) / 2147483648);
        // Skewed cell counts; every cell's class scores offset per bag and class.
        const cells: number[] = [];
        for (let q = 0; q < size; q++) {
          for (let r = Math.floor(next() * 6); r >= 0; r--) cells.push(q);
        }
        const tables = Array.from({ length: B }, () => {
          const t = new Float64Array(size * K);
          for (let i = 0; i < t.length; i++) {
            t[i] = (next() - 0.3) * 8 - (i % K);
          }
          return t;
        });
        const { scores } = mergeBags(tables, cells, K, 0);
        for (let i = 0; i < scores.length; i++) {
          const mean = tables.reduce((a, t) => a + t[i], 0) / B;
          assert(
            Math.abs(scores[i] - mean) < 1e-9,
            `cell ${i}: ${scores[i]} vs ${mean}`,
          );
        }
      },
    ),
    { numRuns: 300 },
  );
});
