/**
 * Waiting that an `AbortSignal` can cut short: the transport's backoff, job
 * polling and chunked scoring all wait this way, so a caller's signal stops
 * every one of them at once.
 *
 * @module
 */

/**
 * Resolves after `ms` milliseconds, or rejects with the signal's reason as
 * soon as it aborts.
 *
 * @example
 * ```ts
 * import { sleep } from "./abort.ts";
 * await sleep(1);
 * const controller = new AbortController();
 * controller.abort(new Error("stop"));
 * await sleep(10_000, controller.signal).catch((e) => e.message); // "stop"
 * ```
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, Math.max(0, ms));
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
