/**
 * Scores a views query of any length by splitting it into chunks, sending
 * them with bounded concurrency, retrying retryable failures, and joining
 * the answers back into one split table in the original row order.
 *
 * @module
 */
import { FrameError } from "./errors.ts";
import type { SplitTable, ViewsQuery } from "./types.ts";
import { sleep } from "../abort.ts";

/**
 * How long (ms) a worker of {@linkcode scoreInChunks} scores chunks before
 * it lets the event loop run timers: in-process, an abort waits at most
 * about this long (plus a chunk); each turn costs 1-2 ms.
 */
const YIELD_EVERY_MS = 50;

/** Rows per chunk when `chunkSize` is not given: ~1,000 rows keeps each request well under a megabyte for tens of features. */
export const DEFAULT_CHUNK_SIZE = 1000;

/** What the `score` callback receives besides the chunk. */
export interface ChunkContext {
  /** Aborted when the caller aborts or another chunk fails for good; pass it to fetch. */
  signal: AbortSignal;
  /** 0-based chunk number. */
  chunk: number;
  /** Position of the chunk's first row in the whole query. */
  offset: number;
  /** 1 on the first try, 2 on the first retry... */
  attempt: number;
}

/** Progress reported after each chunk completes. */
export interface ChunkProgress {
  /** Rows scored so far. */
  rowsDone: number;
  /** Rows in the whole query. */
  rows: number;
  /** Chunks scored so far. */
  chunksDone: number;
  /** Chunks in the whole query. */
  chunks: number;
}

/** Options of {@linkcode scoreInChunks}. */
export interface ScoreInChunksOptions {
  /** Sends one chunk and resolves to its split table (one row per query row, in order). */
  score: (chunk: ViewsQuery, context: ChunkContext) => Promise<SplitTable>;
  /** Rows per request; default {@linkcode DEFAULT_CHUNK_SIZE}. */
  chunkSize?: number;
  /** Requests in flight at once; default 1. Pass the deployment's `maximum_concurrency`. */
  concurrency?: number;
  /** Retries per chunk after the first attempt, for retryable errors only; default 2. */
  retries?: number;
  /** Decides whether an error is worth retrying; default {@linkcode isRetryableError}. */
  isRetryable?: (error: unknown) => boolean;
  /** Milliseconds to wait before retry `attempt` (1-based); default 250 ms doubling, with jitter, at most 5 s. */
  retryDelay?: (attempt: number) => number;
  /** Stops all work; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Called after each chunk completes. */
  onProgress?: (progress: ChunkProgress) => void;
}

/**
 * Thrown by {@linkcode scoreInChunks} when a chunk fails for good; `cause`
 * is the last error and the message says which rows were concerned.
 *
 * @example
 * ```ts
 * import { ChunkError } from "./chunked.ts";
 * const error = new ChunkError(2, 2000, 1000, 3, new Error("503 Service Unavailable"));
 * if (!error.message.includes("rows 2000-2999")) throw new Error("unexpected");
 * ```
 */
export class ChunkError extends Error {
  /** Creates the error for chunk `chunk` covering `size` rows from `offset`. */
  constructor(
    /** 0-based chunk number. */
    readonly chunk: number,
    /** First row of the chunk. */
    readonly offset: number,
    /** Rows in the chunk. */
    readonly size: number,
    /** Attempts made. */
    readonly attempts: number,
    cause: unknown,
  ) {
    super(
      `scoring chunk ${chunk} (rows ${offset}-${
        offset + size - 1
      }) failed after ${attempts} attempt${attempts === 1 ? "" : "s"}: ${
        cause instanceof Error ? cause.message : String(cause)
      }`,
      { cause },
    );
    this.name = "ChunkError";
  }
}

/**
 * The default retry rule: an error carrying `retryable: boolean` decides for
 * itself; one with an HTTP `status` is retried for 408, 429 and 5xx; a
 * `TypeError` (what fetch throws on network failure) is retried; aborts never are.
 *
 * @example
 * ```ts
 * import { isRetryableError } from "./chunked.ts";
 * const verdicts = [{ status: 503 }, { status: 400 }, new TypeError("network"), { retryable: false, status: 503 }]
 *   .map(isRetryableError);
 * if (verdicts.join() !== "true,false,true,false") throw new Error("unexpected");
 * ```
 */
export function isRetryableError(error: unknown): boolean {
  if (error === null || typeof error !== "object") return false;
  const e = error as { name?: unknown; retryable?: unknown; status?: unknown };
  if (e.name === "AbortError" || e.name === "TimeoutError") return false;
  if (typeof e.retryable === "boolean") return e.retryable;
  if (typeof e.status === "number") {
    return e.status === 408 || e.status === 429 || e.status >= 500;
  }
  return error instanceof TypeError;
}

/**
 * Scores `query` in chunks and returns one split table whose rows follow the
 * query's row order. The chunks' own index labels are dropped (each answer
 * counts from 0) and the result's index is renumbered 0..n-1, so `index[i]`
 * is the position of the query row. All chunks must answer with the same
 * columns. At most `concurrency` calls to `score` are in flight at any time.
 * An empty query resolves to an empty table without calling `score`.
 *
 * @example
 * ```ts
 * import { scoreInChunks } from "./chunked.ts";
 * const table = await scoreInChunks({ x: [1, 2, 3, 4, 5] }, {
 *   chunkSize: 2,
 *   concurrency: 2,
 *   score: async (chunk) => ({
 *     columns: ["double"],
 *     index: chunk.x.map((_, i) => i),
 *     data: chunk.x.map((x) => [Number(x) * 2]),
 *   }),
 * });
 * if (JSON.stringify(table.data) !== "[[2],[4],[6],[8],[10]]") throw new Error("order");
 * if (table.index.join() !== "0,1,2,3,4") throw new Error("index");
 * ```
 */
export async function scoreInChunks(
  query: ViewsQuery,
  options: ScoreInChunksOptions,
): Promise<SplitTable> {
  const chunkSize = positiveInteger(
    "chunkSize",
    options.chunkSize ?? DEFAULT_CHUNK_SIZE,
  );
  const concurrency = positiveInteger("concurrency", options.concurrency ?? 1);
  const retries = options.retries ?? 2;
  if (!Number.isInteger(retries) || retries < 0) {
    throw new RangeError(`retries must be a whole number >= 0, got ${retries}`);
  }
  if (typeof options.score !== "function") {
    throw new TypeError(
      "scoreInChunks needs a score(chunk) function that sends one chunk and returns its table",
    );
  }
  const isRetryable = options.isRetryable ?? isRetryableError;
  const retryDelay = options.retryDelay ?? defaultRetryDelay;
  const { names, rows } = measure(query);
  const outer = options.signal;
  outer?.throwIfAborted();
  if (rows === 0) return { columns: [], index: [], data: [] };

  const chunks = Math.ceil(rows / chunkSize);
  const data: unknown[][] = new Array(rows);
  let columns: string[] | undefined;
  const extras: Pick<SplitTable, "field_labels" | "anchor"> = {};
  let chunksDone = 0;
  let rowsDone = 0;
  let next = 0;
  // One controller stops every worker: on the caller's abort or on a final failure.
  const controller = new AbortController();
  const signal = controller.signal;
  const onAbort = () => controller.abort(outer!.reason);
  outer?.addEventListener("abort", onAbort, { once: true });

  const runChunk = async (chunk: number): Promise<void> => {
    const offset = chunk * chunkSize;
    const size = Math.min(chunkSize, rows - offset);
    // Null prototype: a feature named `__proto__` stays an ordinary key.
    const part: ViewsQuery = Object.create(null);
    for (const name of names) {
      part[name] = query[name].slice(offset, offset + size);
    }
    for (let attempt = 1;; attempt++) {
      signal.throwIfAborted();
      let table: SplitTable;
      try {
        table = await options.score(part, { signal, chunk, offset, attempt });
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        if (attempt > retries || !isRetryable(error)) {
          throw new ChunkError(chunk, offset, size, attempt, error);
        }
        await sleep(retryDelay(attempt), signal);
        continue;
      }
      signal.throwIfAborted();
      columns = place(table, columns, data, offset, size, chunk);
      // Every chunk carries the same labels and anchor: keep the first's.
      extras.field_labels ??= table.field_labels;
      extras.anchor ??= table.anchor;
      chunksDone++;
      rowsDone += size;
      options.onProgress?.({ rowsDone, rows, chunksDone, chunks });
      return;
    }
  };

  const worker = async (): Promise<void> => {
    let turn = performance.now();
    while (next < chunks) {
      // A chunk scored in-process (local()) never waits for I/O: without
      // a turn of the event loop now and then, no timer ran (the caller's
      // AbortSignal.timeout(), a setTimeout that aborts) before every
      // chunk was scored, so the signal stopped nothing.
      if (performance.now() - turn >= YIELD_EVERY_MS) {
        await sleep(0, signal);
        turn = performance.now();
        if (next >= chunks) break;
      }
      await runChunk(next++);
    }
  };

  const aborted = new Promise<never>((_, reject) => {
    signal.addEventListener("abort", () => reject(signal.reason), {
      once: true,
    });
  });
  aborted.catch(() => {}); // only observed through the race below
  try {
    const workers = Array.from(
      { length: Math.min(concurrency, chunks) },
      worker,
    );
    await Promise.race([Promise.all(workers), aborted]);
  } catch (error) {
    if (outer?.aborted) throw outer.reason;
    controller.abort(error); // stop the other workers and their requests
    throw error;
  } finally {
    outer?.removeEventListener("abort", onAbort);
  }
  return {
    columns: columns!,
    index: Array.from({ length: rows }, (_, i) => i),
    data,
    ...(extras.field_labels ? { field_labels: extras.field_labels } : {}),
    ...(extras.anchor ? { anchor: extras.anchor } : {}),
  };
}

function place(
  table: SplitTable,
  columns: string[] | undefined,
  data: unknown[][],
  offset: number,
  size: number,
  chunk: number,
): string[] {
  if (
    table === null || typeof table !== "object" ||
    !Array.isArray(table.columns) || !Array.isArray(table.data)
  ) {
    throw new FrameError(
      `chunk ${chunk}: score() must resolve to a split table { columns, index, data }`,
    );
  }
  if (table.data.length !== size) {
    throw new FrameError(
      `chunk ${chunk} (rows ${offset}-${
        offset + size - 1
      }) came back with ${table.data.length} rows instead of ${size}; ` +
        "rows cannot be matched to the query",
    );
  }
  if (
    columns &&
    (columns.length !== table.columns.length ||
      columns.some((c, j) => c !== table.columns[j]))
  ) {
    throw new FrameError(
      `chunk ${chunk} answered with columns [${
        table.columns.join(", ")
      }] but an earlier chunk had ` +
        `[${
          columns.join(", ")
        }]; all chunks must come from the same deployment`,
    );
  }
  for (let k = 0; k < size; k++) data[offset + k] = table.data[k];
  return columns ?? table.columns;
}

function measure(query: ViewsQuery): { names: string[]; rows: number } {
  if (query === null || typeof query !== "object" || Array.isArray(query)) {
    throw new FrameError(
      "scoreInChunks needs a views query { feature: values[] }; convert rows with toViewsQuery()",
    );
  }
  const names = Object.keys(query);
  if (names.length === 0) {
    throw new FrameError(
      "the views query has no columns; pass at least one feature",
    );
  }
  const rows = Array.isArray(query[names[0]]) ? query[names[0]].length : -1;
  for (const name of names) {
    const values = query[name];
    if (!Array.isArray(values) || values.length !== rows) {
      throw new FrameError(
        `query column "${name}" has ${
          Array.isArray(values) ? values.length : "no"
        } values but "${names[0]}" has ${rows}; ` +
          "every column needs one value per row",
      );
    }
  }
  return { names, rows };
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new RangeError(`${name} must be a whole number >= 1, got ${value}`);
  }
  return value;
}

function defaultRetryDelay(attempt: number): number {
  const base = Math.min(5000, 250 * 2 ** (attempt - 1));
  return base / 2 + Math.random() * (base / 2); // jitter spreads retries of concurrent chunks
}
