/**
 * Many small zeroed arrays cut from one buffer: a bag's fit of a wide table
 * has thousands of terms, each with a step, a table and a histogram, and
 * thousands of buffers a bag cost more to make and to collect than to fill
 * (pd_speech's 751 terms: the garbage collector took 18% of a fit).
 *
 * @module
 */

/**
 * Takes zeroed `Float64Array`s, `n` values each, from one buffer of
 * `length` values, in the order asked; asking for more than `length` in all
 * throws (the caller sized it wrong). The arrays share the buffer: one that
 * leaves the fit (a model's table, a message to another thread) must be a
 * copy, since posting a view posts its whole buffer.
 *
 * @example
 * ```ts
 * import { arena } from "./arena.ts";
 *
 * const take = arena(5);
 * const a = take(2), b = take(3);
 * a[1] = 7;
 * if (a.length !== 2 || b.length !== 3 || b[0] !== 0 || a.buffer !== b.buffer) throw new Error("example failed");
 * let threw = false;
 * try { take(1); } catch { threw = true; }
 * if (!threw) throw new Error("example failed");
 * ```
 */
export function arena(length: number): (n: number) => Float64Array {
  const buffer = new Float64Array(length);
  let at = 0;
  return (n) => {
    if (at + n > length) {
      throw new Error(
        `arena of ${length} values: ${at} taken, ${n} more asked`,
      );
    }
    return buffer.subarray(at, at += n);
  };
}

/**
 * `buffer` cut into consecutive views of the given lengths (what kept
 * together is copied, posted and collected as one buffer, not one a term).
 *
 * @example
 * ```ts
 * import { cut } from "./arena.ts";
 *
 * const [a, b] = cut(Float64Array.of(1, 2, 3), [1, 2]);
 * if (a[0] !== 1 || b.join() !== "2,3" || a.buffer !== b.buffer) throw new Error("example failed");
 * ```
 */
export function cut(
  buffer: Float64Array,
  lengths: readonly number[],
): Float64Array[] {
  let at = 0;
  return lengths.map((n) => buffer.subarray(at, at += n));
}

/**
 * Zeroed arrays of the given lengths, consecutive in one new buffer (see
 * {@link cut}).
 *
 * @example
 * ```ts
 * import { together } from "./arena.ts";
 *
 * const [a, b] = together([1, 2]);
 * if (a.length !== 1 || b.join() !== "0,0" || a.buffer !== b.buffer) throw new Error("example failed");
 * ```
 */
export function together(lengths: readonly number[]): Float64Array[] {
  return cut(new Float64Array(lengths.reduce((n, l) => n + l, 0)), lengths);
}

/**
 * Copies of `arrays` in one new buffer, cut as they were (see {@link cut}).
 *
 * @example
 * ```ts
 * import { copyAll } from "./arena.ts";
 *
 * const a = Float64Array.of(1), b = Float64Array.of(2, 3);
 * const [c, d] = copyAll([a, b]);
 * a[0] = 9;
 * if (c[0] !== 1 || d.join() !== "2,3" || c.buffer !== d.buffer) throw new Error("example failed");
 * ```
 */
export function copyAll(arrays: readonly Float64Array[]): Float64Array[] {
  const out = together(arrays.map((a) => a.length));
  arrays.forEach((a, i) => out[i].set(a));
  return out;
}
