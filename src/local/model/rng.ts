/**
 * A small seeded PRNG so that training is reproducible (no `Math.random`).
 *
 * @example
 * ```ts
 * import { createRng } from "./rng.ts";
 *
 * const a = createRng(7), b = createRng(7);
 * if (!(a() === b())) throw new Error("example failed");
 * ```
 *
 * @module
 */

/**
 * Returns a mulberry32 generator of floats in [0, 1) for a 32-bit seed. It is
 * fast, has a 2^32 period (ample for row shuffles) and is identical in every
 * runtime, which keeps worker and in-thread training bit-for-bit equal.
 *
 * @example
 * ```ts
 * import { createRng } from "./rng.ts";
 *
 * const r = createRng(0);
 * const x = r();
 * if (!(x >= 0 && x < 1)) throw new Error("example failed");
 * ```
 */
export function createRng(seed: number): () => number {
  let s = (seed >>> 0) ^ 0x9e3779b9;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Shuffles an array in place (Fisher-Yates) with the given generator.
 *
 * @example
 * ```ts
 * import { createRng, shuffle } from "./rng.ts";
 *
 * const xs = shuffle([1, 2, 3, 4], createRng(1));
 * if (!(xs.length === 4 && new Set(xs).size === 4)) throw new Error("example failed");
 * ```
 */
export function shuffle<T extends { length: number; [i: number]: unknown }>(
  xs: T,
  rng: () => number,
): T {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    const t = xs[i];
    xs[i] = xs[j];
    xs[j] = t;
  }
  return xs;
}
