/**
 * The statistics every bench line uses: medians, quartiles, the noise of a
 * median, and interleaved timing (each round runs every case once, in a
 * rotating order, so a slow patch of the shared machine hits all cases
 * alike).
 *
 * @module
 */

/**
 * The `q` quantile of `xs` (linear interpolation between order statistics).
 *
 * @example
 * ```ts
 * import { quantile } from "./stats.ts";
 * if (quantile([1, 2, 3, 4], 0.5) !== 2.5) throw new Error();
 * ```
 */
export function quantile(xs: readonly number[], q: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const at = (s.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return s[lo] + (s[hi] - s[lo]) * (at - lo);
}

/**
 * The median of `xs`.
 *
 * @example
 * ```ts
 * import { median } from "./stats.ts";
 * if (median([3, 1, 2]) !== 2) throw new Error();
 * ```
 */
export function median(xs: readonly number[]): number {
  return quantile(xs, 0.5);
}

/**
 * The noise of the median of `xs`: half the width of the box plot's notch,
 * 1.58 x IQR / sqrt(n), about a 95% interval of the median. Two medians
 * whose difference exceeds their combined noise have moved.
 *
 * @example
 * ```ts
 * import { medianNoise } from "./stats.ts";
 * if (medianNoise([1, 2, 3, 4, 5]) <= 0) throw new Error();
 * ```
 */
export function medianNoise(xs: readonly number[]): number {
  if (xs.length < 2) return NaN;
  const iqr = quantile(xs, 0.75) - quantile(xs, 0.25);
  return (1.58 * iqr) / Math.sqrt(xs.length);
}

/** Options of {@linkcode interleave}. */
export interface InterleaveOptions {
  /** Rounds timed (each gives one sample per case). */
  rounds: number;
  /** Calls per sample; a sample is their mean time (default 1). */
  batch?: number;
  /** Untimed rounds first (default 2). */
  warmup?: number;
}

/**
 * Times every case once per round, in a rotating order, and returns each
 * case's samples (ms per call; a sample is the mean of `batch` calls).
 *
 * @example
 * ```ts
 * import { interleave } from "./stats.ts";
 * const order: string[] = [];
 * const t = await interleave({ a: () => order.push("a"), b: () => order.push("b") }, { rounds: 3, warmup: 0 });
 * if (t.a.length !== 3 || t.b.length !== 3) throw new Error("one sample per round");
 * if (order.join("") !== "abbaab") throw new Error("the order rotates each round");
 * ```
 */
export async function interleave<K extends string>(
  cases: Record<K, () => unknown>,
  options: InterleaveOptions,
): Promise<Record<K, number[]>> {
  const names = Object.keys(cases) as K[];
  const batch = options.batch ?? 1;
  const samples = Object.fromEntries(names.map((n) => [n, [] as number[]]));
  const warmup = options.warmup ?? 2;
  for (let round = -warmup; round < options.rounds; round++) {
    const offset = ((round % names.length) + names.length) % names.length;
    for (let k = 0; k < names.length; k++) {
      const name = names[(k + offset) % names.length];
      const run = cases[name];
      const t0 = performance.now();
      for (let i = 0; i < batch; i++) await run();
      const ms = (performance.now() - t0) / batch;
      if (round >= 0) samples[name].push(ms);
    }
  }
  return samples as Record<K, number[]>;
}

/**
 * Per-round ratios `a[i] / b[i]` of two interleaved sample lists.
 *
 * @example
 * ```ts
 * import { ratios } from "./stats.ts";
 * if (ratios([2, 4], [1, 2]).join() !== "2,2") throw new Error();
 * ```
 */
export function ratios(a: readonly number[], b: readonly number[]): number[] {
  return a.map((x, i) => x / b[i]);
}
