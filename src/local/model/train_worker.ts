/**
 * Worker entry for {@link ./worker.ts}: receives an encoded dataset and the
 * parameters, trains with the same code as in-thread training, and posts
 * progress messages and finally the model (or the error) back. As a bag
 * helper (`{ type: "bags", data?, task, deadlineAt }`, see
 * `workerBagHelper`), it fits the bags it claims and posts them back; given
 * `{ type: "rows", setup }`, it builds the second half of every histogram of
 * a boosting stage until the training thread closes it (`serveRows`). Given
 * `{ type: "helper", port }` (the main thread starts a training's helper
 * beside its training worker), it serves those requests from the port and
 * answers there; `{ type: "line", port }` (each training's own channel,
 * see `runOnThreads`) brings a training request on that port, answered
 * there; `{ type: "release" }` (its training ended, the thread is
 * kept for the next: ./threads.ts) lets go of the dataset. It runs as a
 * `node:worker_threads` thread (the parent's port) or a Web Worker.
 *
 * Messages out: `{ type: "progress", fraction, stage, logged? }`, `{ type: "done", model }`,
 * `{ type: "bags-done", results }`,
 * `{ type: "error", name, message, column, code }`.
 *
 * @example
 * ```ts
 * // Started by trainInBackground; not imported directly:
 * const url = new URL("./train_worker.ts", import.meta.url);
 * if (!(url.pathname.endsWith("train_worker.ts"))) throw new Error("example failed");
 * ```
 *
 * @module
 */

import v8 from "node:v8";
import vm from "node:vm";
import { parentPort } from "node:worker_threads";
import { type BagTask, fitBags, newStageReuse } from "./bagging.ts";
import { trainAsync } from "./train.ts";
import type { EncodedDataset } from "./encoder.ts";
import type { TrainingParams } from "./params.ts";
import { type RowSetup, serveRows } from "./rows.ts";
import { availableCores, workerBagHelper, workerError } from "./worker.ts";

/**
 * A helper's half of every histogram of one boosting stage (see
 * `RowSplit`): it serves them until the training thread closes the split.
 */
export interface RowsRequest {
  type: "rows";
  setup: RowSetup;
}

/**
 * Sent to a kept helper when its training ends (./threads.ts): it lets go
 * of the training's dataset and stages while it waits for the next one.
 */
export interface ReleaseRequest {
  type: "release";
}

/** The training request the main thread posts. */
export interface TrainRequest {
  type?: "train";
  data: EncodedDataset;
  params: Partial<TrainingParams>;
  maximumRuntimeSeconds?: number;
  /** Set by the main thread to stop the training and its helper (`stopFlag`). */
  stop?: Int32Array;
  /** The channel to the bag helper the main thread started beside this worker (see `HelperRequest`). */
  helperPort?: MessagePort;
}

/**
 * A training's own channel (see `runOnThreads`): its request arrives on
 * `port`, and its progress, model or error go back there. A Web port moves
 * the request's buffers; a `node:worker_threads` thread's own port copies
 * them (Deno 2.9).
 */
export interface LineRequest {
  type: "line";
  port: MessagePort;
}

/**
 * Makes this worker a bag helper: it serves the bags and rows requests
 * that arrive on `port` (from the training worker at the other end) and
 * answers there.
 */
export interface HelperRequest {
  type: "helper";
  port: MessagePort;
}

/**
 * A bag helper's task (see `workerBagHelper`): the dataset comes with the
 * first task only; `deadlineAt` (epoch ms) stops it as the training's
 * runtime cap would.
 */
export interface BagsRequest {
  type: "bags";
  data?: EncodedDataset;
  task: BagTask;
  deadlineAt: number | null;
  /** The training's stop flag: set, the helper stops as at its deadline. */
  stop?: Int32Array;
}

/**
 * A full garbage collection of this thread, where the runtime lets one be
 * asked for (Deno and Node do, through `node:v8` and `node:vm`), else
 * nothing. A kept thread (./threads.ts) runs it when idle: an idle isolate
 * collects nothing by itself, and one training's garbage is 100-200 MB.
 */
const collect: () => void = (() => {
  try {
    v8.setFlagsFromString("--expose-gc");
    const gc = vm.runInNewContext("gc");
    return typeof gc === "function" ? gc : () => {};
  } catch {
    return () => {};
  }
})();

/**
 * How long the trainer waits idle before it collects: a collection hands
 * the training's pages back, and the next training faults them in again
 * (0.2-0.3 s on ad_data on these machines; BENCHMARKS.md section 7, "Warm
 * training threads kept"), so trainings in a row skip it.
 */
const IDLE_COLLECT_MS = 1_000;
let idleCollect: ReturnType<typeof setTimeout> | undefined;

let helperData: EncodedDataset | null = null;
/** What the helper's fits of one training share (see `StageReuse`). */
let helperReuse = newStageReuse();

type Incoming =
  | TrainRequest
  | BagsRequest
  | RowsRequest
  | HelperRequest
  | ReleaseRequest
  | LineRequest;

/**
 * Where requests come from and answers go: the parent's port when this runs
 * as a `node:worker_threads` thread (the warm training threads of
 * ./threads.ts), else the Web Worker's own scope (a helper a training
 * worker started itself).
 */
const scope: {
  listen(handler: (m: Incoming) => void): void;
  postMessage(message: unknown, transfer?: Transferable[]): void;
} = parentPort
  ? {
    listen: (handler) => parentPort!.on("message", handler),
    postMessage: (message) => parentPort!.postMessage(message),
  }
  : (() => {
    // Only the two members used, so this file type-checks without the
    // worker lib.
    const self = globalThis as unknown as {
      onmessage: ((e: MessageEvent<Incoming>) => void) | null;
      postMessage(message: unknown, transfer?: Transferable[]): void;
    };
    return {
      listen: (handler) => {
        self.onmessage = (e) => handler(e.data);
      },
      postMessage: (message, transfer) => self.postMessage(message, transfer),
    };
  })();

/** Serves a helper's request (bags or rows), answering through `post`. */
function serveHelper(
  m: BagsRequest | RowsRequest,
  post: (message: unknown) => void,
): void {
  if (m.type === "rows") {
    try {
      serveRows(m.setup);
    } catch (err) {
      post(workerError(err));
    }
    return;
  }
  const { task, deadlineAt, stop } = m;
  // A new dataset is a new training: the bags' main stages kept for the
  // last one's tasks (see StageReuse) go with it.
  if (m.data) {
    helperData = m.data;
    helperReuse = newStageReuse();
  }
  try {
    if (!helperData) throw new Error("the bag helper got no dataset");
    const results = fitBags(
      helperData,
      task,
      () =>
        (stop !== undefined && Atomics.load(stop, 0) === 1) ||
        (deadlineAt !== null && Date.now() >= deadlineAt),
      helperReuse,
    );
    post({ type: "bags-done", results });
  } catch (err) {
    post(workerError(err));
  }
}

scope.listen((m) => handle(m, (message) => scope.postMessage(message)));

/** Serves one request, answering through `post`. */
function handle(m: Incoming, post: (message: unknown) => void): void {
  clearTimeout(idleCollect);
  if (m.type === "release") {
    // The helper's warmth matters less than its memory: collect now.
    helperData = null;
    helperReuse = newStageReuse();
    collect();
    return;
  }
  if (m.type === "helper") {
    const { port } = m;
    port.onmessage = (e: MessageEvent<BagsRequest | RowsRequest>) =>
      serveHelper(e.data, (message) => port.postMessage(message));
    return;
  }
  if (m.type === "line") {
    const { port } = m;
    port.onmessage = (e: MessageEvent<Incoming>) =>
      handle(e.data, (message) => port.postMessage(message));
    return;
  }
  if (m.type === "rows" || m.type === "bags") {
    serveHelper(m, post);
    return;
  }
  const { data, params, maximumRuntimeSeconds, stop, helperPort } = m;
  // Another core, when there is one, fits half of every configuration's
  // bags (the same model either way; see FitOptions.helper): the helper
  // the main thread started beside this worker, else one started here.
  const helper = workerBagHelper(
    data,
    maximumRuntimeSeconds === undefined
      ? null
      : Date.now() + maximumRuntimeSeconds * 1000,
    availableCores(),
    stop,
    helperPort,
  );
  trainAsync(data, params, {
    maximumRuntimeSeconds,
    stop,
    helper: helper?.run,
    rows: helper?.rows,
    onProgress: (fraction, stage, logged) =>
      post({ type: "progress", fraction, stage, logged }),
  }).then(
    (model) => post({ type: "done", model }),
    (err) => post(workerError(err)),
  ).finally(() => {
    helper?.close();
    idleCollect = setTimeout(collect, IDLE_COLLECT_MS);
  });
}
