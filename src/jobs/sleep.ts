/**
 * Waiting between polls: an abortable sleep and the backoff schedule
 * (about 250 ms at first, growing by half each poll up to a cap), so short
 * jobs finish fast and long ones do not flood the service.
 *
 * @module
 */

/** How often a job is retrieved while it runs. */
export interface PollOptions {
  /** First wait, in ms (default 250). */
  initialDelay?: number;
  /** Longest wait, in ms (default 5000). */
  maxDelay?: number;
  /** Growth of each wait over the previous one (default 1.5). */
  factor?: number;
}

/**
 * The waits between polls, in ms: `initialDelay`, then times `factor` each
 * step, never above `maxDelay`.
 *
 * @example
 * ```ts
 * import { backoff } from "./sleep.ts";
 * const waits = backoff({ initialDelay: 250, maxDelay: 1000, factor: 2 });
 * [waits.next().value, waits.next().value, waits.next().value, waits.next().value];
 * // [250, 500, 1000, 1000]
 * ```
 */
export function* backoff(options: PollOptions = {}): Generator<number, never> {
  const max = Math.max(0, options.maxDelay ?? 5000);
  const factor = Math.max(1, options.factor ?? 1.5);
  let delay = Math.min(max, Math.max(0, options.initialDelay ?? 250));
  for (;;) {
    yield Math.round(delay);
    delay = Math.min(max, delay * factor);
  }
}
