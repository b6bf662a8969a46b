/**
 * Warm training threads: the model worker and its bag helper
 * (./train_worker.ts in both roles), kept after a training that ended well
 * and given to the next one. A fresh thread runs the training code cold: on
 * a table of a few hundred rows that is most of the fit (ad_data: 2.2 s
 * with fresh threads, 1.2 s with warm ones; BENCHMARKS.md section 7, "Warm
 * training threads"). The threads are `node:worker_threads` Workers (Deno
 * implements them) because those can be unref'd: a kept pair does not keep
 * the process alive, so a script that never closes its platform still
 * exits. A Web Worker has no `unref()`, and an idle one would hold the
 * process open.
 *
 * One pair is kept at most (two cores); a training that fails, is aborted or
 * whose thread crashes ends its threads instead of keeping them.
 *
 * @module
 */

import os from "node:os";
import { Worker as Thread } from "node:worker_threads";

export type { Thread };

/** A training's threads: the model worker and, on two cores, its bag helper. */
export interface TrainingThreads {
  /** Runs the training (`TrainRequest`). */
  trainer: Thread;
  /** Serves the trainer's bags and rows over a channel (`HelperRequest`). */
  helper: Thread | null;
}

let kept: TrainingThreads | null = null;

/** Ends a kept pair that fails or exits while idle (nobody else listens). */
function dropKept(): void {
  const pair = kept;
  kept = null;
  if (pair) endThreads(pair);
}

function idleListeners(thread: Thread, on: boolean): void {
  if (on) {
    thread.on("error", dropKept);
    thread.on("exit", dropKept);
  } else {
    thread.off("error", dropKept);
    thread.off("exit", dropKept);
  }
}

/**
 * A new thread running `url`. Node passes a thread the process's own
 * `execArgv` by default, and some of those stop it from starting (`node
 * --input-type=module -e ...` refuses to start a thread that is given a
 * file); the training code needs none of them.
 */
function start(url: URL): Thread {
  return new Thread(url, { execArgv: [] });
}

/**
 * The kept pair if there is one, else new threads of `url`: with a helper
 * when `helper` is true (one is started, or a kept one ended, to match).
 * The threads hold the process open until {@linkcode keepThreads} or
 * {@linkcode endThreads}.
 *
 * @param url The worker module (./train_worker.ts, or .js in the npm build).
 * @param helper Whether the training gets a bag helper.
 * @returns The threads, the caller's until it keeps or ends them.
 *
 * @example
 * ```ts
 * import { endThreads, takeThreads } from "./threads.ts";
 *
 * const url = new URL("./train_worker.ts", import.meta.url);
 * const threads = takeThreads(url, false);
 * if (threads.helper !== null) throw new Error("no helper was asked for");
 * await endThreads(threads);
 * ```
 */
export function takeThreads(url: URL, helper: boolean): TrainingThreads {
  const pair = kept ?? { trainer: start(url), helper: null };
  if (kept) {
    kept = null;
    idleListeners(pair.trainer, false);
    if (pair.helper) idleListeners(pair.helper, false);
  }
  if (helper && !pair.helper) pair.helper = start(url);
  if (!helper && pair.helper) {
    pair.helper.terminate();
    pair.helper = null;
  }
  pair.trainer.ref();
  pair.helper?.ref();
  return pair;
}

/**
 * Keeps a pair whose training ended well for the next training (ending the
 * pair kept before, if any), unref'd so it does not hold the process open.
 * The caller has removed its own listeners.
 *
 * @param pair The threads {@linkcode takeThreads} gave.
 *
 * @example
 * ```ts
 * import { closeTrainingThreads, keepThreads, keptTrainingThreads, takeThreads } from "./threads.ts";
 *
 * const url = new URL("./train_worker.ts", import.meta.url);
 * keepThreads(takeThreads(url, true));
 * if (keptTrainingThreads() !== 2) throw new Error("a trainer and a helper are kept");
 * const again = takeThreads(url, true); // the same two threads
 * if (keptTrainingThreads() !== 0) throw new Error("taken");
 * keepThreads(again);
 * await closeTrainingThreads();
 * if (keptTrainingThreads() !== 0) throw new Error("closed");
 * ```
 */
export function keepThreads(pair: TrainingThreads): void {
  if (kept && kept !== pair) dropKept();
  idleListeners(pair.trainer, true);
  if (pair.helper) idleListeners(pair.helper, true);
  pair.trainer.unref();
  pair.helper?.unref();
  kept = pair;
}

/**
 * Posts to a thread, moving `transfer`: buffers, and the Web
 * `MessagePort`s Deno's threads take (node's types name only node's).
 *
 * @param thread The thread.
 * @param message What to post (structured clone).
 * @param transfer What moves instead of being copied.
 *
 * @example
 * ```ts
 * import { endThreads, postTo, takeThreads } from "./threads.ts";
 *
 * const threads = takeThreads(new URL("./train_worker.ts", import.meta.url), false);
 * const bytes = new ArrayBuffer(8);
 * postTo(threads.trainer, { type: "release" }, [bytes]);
 * if (bytes.byteLength !== 0) throw new Error("the buffer moved");
 * await endThreads(threads);
 * ```
 */
export function postTo(
  thread: Thread,
  message: unknown,
  transfer: readonly (ArrayBuffer | MessagePort)[] = [],
): void {
  thread.postMessage(
    message,
    transfer as unknown as Parameters<Thread["postMessage"]>[1],
  );
}

/**
 * Ends a pair's threads (a training that failed, was aborted, or crashed).
 *
 * @param pair The threads.
 * @returns When both have exited.
 *
 * @example
 * ```ts
 * import { endThreads, takeThreads } from "./threads.ts";
 *
 * const threads = takeThreads(new URL("./train_worker.ts", import.meta.url), true);
 * const exited = new Promise((resolve) => threads.trainer.once("exit", resolve));
 * await endThreads(threads);
 * await exited;
 * ```
 */
export async function endThreads(pair: TrainingThreads): Promise<void> {
  await Promise.all([
    pair.trainer.terminate(),
    pair.helper?.terminate(),
  ]).catch(() => {});
}

/**
 * How many kept threads are idle, waiting for a training (0, 1 or 2).
 *
 * @returns The count.
 *
 * @example
 * ```ts
 * import { closeTrainingThreads, keptTrainingThreads } from "./threads.ts";
 *
 * await closeTrainingThreads();
 * if (keptTrainingThreads() !== 0) throw new Error("none kept after close");
 * ```
 */
export function keptTrainingThreads(): number {
  return kept ? 1 + (kept.helper ? 1 : 0) : 0;
}

/**
 * Ends the kept threads now; the next training starts fresh ones. Nothing
 * needs to call it for a process to exit (kept threads are unref'd): it is
 * for a caller that wants the memory back at once, or a test.
 *
 * @returns When they have exited.
 *
 * @example
 * ```ts
 * import { closeTrainingThreads, keepThreads, keptTrainingThreads, takeThreads } from "./threads.ts";
 *
 * keepThreads(takeThreads(new URL("./train_worker.ts", import.meta.url), false));
 * await closeTrainingThreads();
 * if (keptTrainingThreads() !== 0) throw new Error("example failed");
 * ```
 */
export async function closeTrainingThreads(): Promise<void> {
  const pair = kept;
  kept = null;
  if (pair) {
    idleListeners(pair.trainer, false);
    if (pair.helper) idleListeners(pair.helper, false);
    await endThreads(pair);
  }
}

/**
 * Cores training may use: `navigator.hardwareConcurrency` where the runtime
 * has it, else `os.availableParallelism()` (Node), else 1.
 *
 * @example
 * ```ts
 * import { availableCores } from "./threads.ts";
 * if (!(availableCores() >= 1)) throw new Error("example failed");
 * ```
 */
export function availableCores(): number {
  // Deno has `navigator.hardwareConcurrency`; Node 20 has no `navigator`,
  // and `os.availableParallelism` (Node 18.14+, Deno too) stands in.
  const n = (globalThis as { navigator?: { hardwareConcurrency?: number } })
    .navigator?.hardwareConcurrency ?? os.availableParallelism?.();
  return typeof n === "number" && n >= 1 ? Math.floor(n) : 1;
}
