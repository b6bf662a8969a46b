/**
 * Yielding inside a job's work: long steps (parsing, encoding, boosting)
 * await {@linkcode macrotask} between chunks so that timers, I/O and other
 * requests run meanwhile.
 *
 * @module
 */

/**
 * Resolves on a later macrotask (not a microtask), so timers and I/O get
 * their turn first.
 *
 * @example
 * ```ts
 * import { macrotask } from "./yield.ts";
 * let timerRan = false;
 * setTimeout(() => (timerRan = true), 0);
 * await macrotask();
 * if (!timerRan) throw new Error("the timer did not run first");
 * ```
 */
export function macrotask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
