/**
 * The second thread of a views batch: a Worker holding its own
 * {@linkcode ChunkScorer} (the model, the header, the layout, sent once),
 * scoring and formatting every other chunk while the server's thread
 * scores the next, so a batch uses two cores. Chunks go back in the order
 * they came; a scorer's failure (a bad row under `FAIL`) comes back as
 * the same message. Where the runtime has no `Worker` (Node), the batch
 * scores on one thread.
 *
 * @example
 * ```ts
 * import { encodeDataset } from "../model/encoding.ts";
 * import { train } from "../model/ebm.ts";
 * import { ScoringWorker } from "./batch_worker.ts";
 * const x = Array.from({ length: 60 }, (_, i) => i);
 * const model = train(encodeDataset({ x, y: x.map((v) => (v < 30 ? "lo" : "hi")) }, [
 *   { name: "x", data_type: { data_type: "NUMBER" }, designation: "FEATURE", semantic_type: "CONTINUOUS" },
 *   { name: "y", data_type: { data_type: "STRING" }, designation: "TARGET", semantic_type: "CATEGORICAL" },
 * ]), { max_rounds: 5 });
 * const worker = ScoringWorker.start({
 *   model,
 *   header: ["x"],
 *   input: { shape: { viewType: "PREDICTIONS", keep: [], onError: "FAIL", errorColumn: "error" }, format: "CSV", display: "in.csv" },
 *   layout: { columns: ["prediction.y"], kinds: ["string"], viewIndex: [0] },
 * })!;
 * try {
 *   const { text } = await worker.score([{ fields: ["50"], line: 2 }], 0);
 *   if (text !== "hi\n") throw new Error(text);
 *   const bad = await worker.score([{ fields: ["oops"], line: 3 }], 1).catch((e) => e.message);
 *   if (!bad.includes("Row 2 (line 3) of in.csv cannot be scored")) throw new Error(bad);
 * } finally {
 *   worker.close();
 * }
 * ```
 *
 * @module
 */
import type { EbmModel } from "../model/types.ts";
import {
  type BatchLayout,
  ChunkScorer,
  type Row,
  type ScorerInput,
} from "./batch_scorer.ts";

/** The Worker's name: only a Worker started with it installs the handler below. */
const WORKER_NAME = "mlplatform-batch-scorer";

/** What the scorer is built from, sent once. */
export interface ScorerInit {
  /** The deployed model's model. */
  model: EbmModel;
  /** The input's header. */
  header: string[];
  /** The batch's shape, format and name for messages. */
  input: ScorerInput;
  /** The output's layout. */
  layout: BatchLayout;
}

/** The server's messages. */
type Request =
  | { type: "init"; init: ScorerInit }
  | { type: "score"; id: number; rows: Row[]; first: number };

/** The Worker's answers. */
type Reply =
  | { type: "scored"; id: number; text: string; errors: number }
  | { type: "failed"; id: number; message: string };

/** A chunk's output text and how many of its rows were written with an error. */
export interface ScoredChunk {
  /** The chunk's output lines. */
  text: string;
  /** Rows written with an error. */
  errors: number;
}

/** A Worker scoring chunks for one batch. */
export class ScoringWorker {
  readonly #worker: Worker;
  readonly #waiting = new Map<
    number,
    { resolve: (c: ScoredChunk) => void; reject: (e: Error) => void }
  >();
  #next = 0;
  #broken?: Error;

  private constructor(worker: Worker, init: ScorerInit) {
    this.#worker = worker;
    worker.onmessage = (e: MessageEvent<Reply>) => {
      const reply = e.data;
      const waiting = this.#waiting.get(reply.id);
      this.#waiting.delete(reply.id);
      if (reply.type === "scored") waiting?.resolve(reply);
      else waiting?.reject(new Error(reply.message));
    };
    worker.onerror = (e: ErrorEvent) => {
      e.preventDefault();
      this.#fail(
        new Error(
          `the batch's scoring thread failed: ${e.message}; start the views batch job again.`,
        ),
      );
    };
    worker.postMessage({ type: "init", init } satisfies Request);
  }

  /**
   * Starts a scoring Worker for `init`, or gives undefined where the
   * runtime has no `Worker`.
   */
  static start(init: ScorerInit): ScoringWorker | undefined {
    if (typeof Worker === "undefined") return undefined;
    const worker = new Worker(new URL(import.meta.url), {
      type: "module",
      name: WORKER_NAME,
    });
    return new ScoringWorker(worker, init);
  }

  /** Scores `rows` (data row `first` on, 0-based) in the Worker. */
  score(rows: Row[], first: number): Promise<ScoredChunk> {
    if (this.#broken) return Promise.reject(this.#broken);
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      this.#worker.postMessage(
        { type: "score", id, rows, first } satisfies Request,
      );
    });
  }

  /** Stops the Worker; chunks still out are rejected. */
  close(): void {
    this.#worker.terminate();
    this.#fail(new Error("the batch's scoring thread was stopped"));
  }

  #fail(error: Error): void {
    this.#broken ??= error;
    for (const { reject } of this.#waiting.values()) reject(error);
    this.#waiting.clear();
  }
}

// Only in the Worker ScoringWorker.start starts (by its name): importing
// this module anywhere else installs nothing.
const scope = globalThis as unknown as {
  name?: unknown;
  onmessage: ((e: MessageEvent<Request>) => void) | null;
  postMessage(message: Reply): void;
};
if (scope.name === WORKER_NAME) {
  let scorer: ChunkScorer | undefined;
  scope.onmessage = (e) => {
    const request = e.data;
    if (request.type === "init") {
      const { model, header, input, layout } = request.init;
      scorer = new ChunkScorer(model, header, input, layout);
      return;
    }
    try {
      const text = scorer!.score(request.rows, request.first);
      scope.postMessage({
        type: "scored",
        id: request.id,
        text,
        errors: scorer!.errors,
      });
    } catch (error) {
      scope.postMessage({
        type: "failed",
        id: request.id,
        message: error instanceof Error ? error.message : String(error),
      });
    }
  };
}
