/**
 * Waiting that an `AbortSignal` can cut short: the transport's backoff, job
 * polling and chunked scoring all wait this way, so a caller's signal stops
 * every one of them at once.
 *
 * @module
 */

/**
 * The longest delay one timer takes: 2^31 - 1 ms (about 24.8 days). Deno,
 * Node and browsers fire a longer `setTimeout` after 1 ms instead (Node
 * and Deno also print a TimeoutOverflowWarning), so a longer wait is made
 * of several timers.
 *
 * @example
 * ```ts
 * import { MAX_TIMER_MS } from "./abort.ts";
 * if (MAX_TIMER_MS !== 2_147_483_647) throw new Error(String(MAX_TIMER_MS));
 * ```
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Resolves after `ms` milliseconds, or rejects with the signal's reason as
 * soon as it aborts. A wait beyond {@linkcode MAX_TIMER_MS} (a huge
 * `pollInterval`, `timeout` or `Retry-After` given on purpose) lasts as
 * long as asked: one timer would have fired after 1 ms, and polled or
 * retried without pause.
 *
 * @example
 * ```ts
 * import { sleep } from "./abort.ts";
 * await sleep(1);
 * const controller = new AbortController();
 * controller.abort(new Error("stop"));
 * await sleep(10_000, controller.signal).catch((e) => e.message); // "stop"
 * ```
 *
 * @example A wait longer than one timer takes does not end early
 * ```ts
 * import { sleep } from "./abort.ts";
 * const controller = new AbortController();
 * const waiting = sleep(3e9, controller.signal).then(() => "elapsed", () => "aborted");
 * const soon = new Promise((r) => setTimeout(() => r("waiting"), 20));
 * const early = await Promise.race([waiting, soon]);
 * if (early !== "waiting") throw new Error(`a 35-day wait ended after 20 ms: ${early}`);
 * controller.abort(new Error("stop"));
 * if ((await waiting) !== "aborted") throw new Error("the abort did not end it");
 * ```
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    let left = Math.max(0, ms);
    const arm = () => {
      const step = Math.min(left, MAX_TIMER_MS);
      left -= step;
      timer = setTimeout(() => {
        if (left > 0) return arm();
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, step);
    };
    arm();
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Settles like `promise`, or rejects with the signal's reason as soon as it
 * aborts (the promise itself keeps running: use it for work that can't be
 * cancelled, like a shared token request another caller still waits on).
 *
 * @example
 * ```ts
 * import { abortable } from "./abort.ts";
 * await abortable(Promise.resolve(1)); // 1
 * const controller = new AbortController();
 * controller.abort(new Error("stop"));
 * await abortable(new Promise(() => {}), controller.signal).catch((e) => e.message); // "stop"
 * ```
 */
export function abortable<T>(
  promise: Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() =>
      signal.removeEventListener("abort", onAbort)
    );
  });
}
