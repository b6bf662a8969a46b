/**
 * Ingestion's parsing thread. The server reads the CSV file as bytes and
 * hands their buffer to a Worker running this module (moved, not copied);
 * the Worker parses them into typed columns (`datasourceFromCsv`, which
 * decodes a piece of the bytes at a time, so no text of the whole file is
 * ever made and a file may be larger than the longest string the engine
 * holds) and moves the columns back. Before, the server's thread made the
 * text (117 MB for the 1,000,000-row churn file, beside the 134 MB read
 * buffer it was decoded from) and posted it to the model worker, which
 * copied it again; those copies were garbage waiting for a full collection
 * on the server's thread while the Worker parsed, the peak of a large
 * quickstart.
 *
 * Small files (under `PARSE_IN_WORKER_CHARS` bytes), and runtimes without
 * `Worker`, are parsed in the calling thread: same result, same errors.
 *
 * @example
 * ```ts
 * import { parseBytesInBackground } from "./ingest_worker.ts";
 * const bytes = new TextEncoder().encode("x,y\n1,a\n2,b\n");
 * const d = await parseBytesInBackground(bytes, [
 *   { name: "x", data_type: { data_type: "NUMBER" }, designation: "FEATURE", semantic_type: "CONTINUOUS" },
 *   { name: "y", data_type: { data_type: "STRING" }, designation: "TARGET", semantic_type: "CATEGORICAL" },
 * ], { useWorker: true });
 * const y = d.columns.y;
 * if (!(d.nRows === 2 && y.kind === "string" && y.dictionary.join() === "a,b")) throw new Error();
 * if (bytes.byteLength !== 0) throw new Error("the bytes were copied, not moved");
 * ```
 *
 * @module
 */
import {
  type Datasource,
  datasourceFromChunks,
  datasourceFromCsv,
  makeDatasource,
} from "../model/datasource.ts";
import { gunzipChunks, isGzip } from "../../gzip.ts";
import type { SchemaField } from "../model/encoding.ts";
import {
  isArrayBuffer,
  runInWorker,
  workerError,
  type WorkerErrorMessage,
} from "../model/worker.ts";

/** The Worker's name: only a Worker started with it installs the handler below. */
const WORKER_NAME = "mlplatform-ingest-parser";

/** What the server posts: the file's bytes (their buffer moved) and the schema's fields. */
interface ParseBytesRequest {
  bytes: Uint8Array;
  fields: SchemaField[];
}

/** What the Worker answers. */
type ParseBytesReply =
  | { type: "parsed"; nRows: number; columns: Datasource["columns"] }
  | WorkerErrorMessage;

/** Files from this many bytes are parsed in a Worker (where there is one). */
export const PARSE_IN_WORKER_CHARS = 1_000_000;

/**
 * Gzip files from this many bytes are parsed in a Worker: deflate packs up
 * to about 1,000 bytes into one, so what a smaller one holds parses in a
 * moment in-thread.
 */
const GZIP_IN_WORKER_BYTES = PARSE_IN_WORKER_CHARS / 100;

/**
 * Parses the CSV file's `bytes` (a CSV, or gzip data holding one: inflated
 * a piece at a time as it is parsed, so neither its whole text nor its
 * whole inflated bytes are ever held) into a typed {@link Datasource}
 * without blocking the caller's event loop: in a Worker for large files
 * (from `PARSE_IN_WORKER_CHARS` bytes, a hundredth of that for gzip) where
 * `Worker` exists, with the bytes' buffer moved to it (`bytes` is empty
 * afterwards) unless it is shared with other data (then they are copied);
 * else in-thread. Same result and errors either way (`ModelDataError`
 * naming the column, `CsvError` naming the line, an `InflateError` for
 * gzip data that does not inflate). Aborting `signal` stops the Worker and
 * rejects with its reason.
 *
 * @example
 * ```ts
 * import { ModelDataError } from "../model/errors.ts";
 * import { parseBytesInBackground } from "./ingest_worker.ts";
 * const bytes = new TextEncoder().encode("x\n1\nnope\n");
 * const fields = [{ name: "x", data_type: { data_type: "NUMBER" }, designation: "FEATURE", semantic_type: "CONTINUOUS" }] as const;
 * for (const useWorker of [true, false]) {
 *   const error = await parseBytesInBackground(bytes.slice(), [...fields], { useWorker }).catch((e) => e);
 *   if (!(error instanceof ModelDataError && error.column === "x" && error.message.includes("line 3"))) throw error;
 * }
 * ```
 */
export function parseBytesInBackground(
  bytes: Uint8Array,
  fields: SchemaField[],
  options: { signal?: AbortSignal; useWorker?: boolean } = {},
): Promise<Datasource> {
  const { signal } = options;
  const large = bytes.length >=
    (isGzip(bytes) ? GZIP_IN_WORKER_BYTES : PARSE_IN_WORKER_CHARS);
  const worker = (options.useWorker ?? large) && typeof Worker !== "undefined";
  if (!worker) return parse(bytes, fields);
  // Moved when the bytes are their buffer's only view (a file just read).
  const whole = bytes.buffer instanceof ArrayBuffer &&
    bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  const request: ParseBytesRequest = {
    bytes: whole ? bytes : bytes.slice(),
    fields,
  };
  return runInWorker<ParseBytesReply, Datasource>({
    url: new URL(import.meta.url),
    name: WORKER_NAME,
    request: { value: request },
    transfer: [request.bytes.buffer as ArrayBuffer],
    signal,
    onMessage(m, resolve) {
      if (m.type === "parsed") resolve(makeDatasource(m.nRows, m.columns));
    },
    failure: (message) =>
      `the CSV parsing worker failed: ${message}; retry the ingestion.`,
  });
}

/** The file's datasource: a CSV at once, gzip data as it inflates. */
async function parse(
  bytes: Uint8Array,
  fields: SchemaField[],
): Promise<Datasource> {
  if (!isGzip(bytes)) return datasourceFromCsv(bytes, fields);
  async function* compressed() {
    yield bytes;
  }
  return await datasourceFromChunks(gunzipChunks(compressed()), fields);
}

/** The Worker's side: parse, move the columns back (or post the error). */
async function serve(request: ParseBytesRequest): Promise<ParseBytesReply> {
  try {
    const d = await parse(request.bytes, request.fields);
    return { type: "parsed", nRows: d.nRows, columns: { ...d.columns } };
  } catch (err) {
    return workerError(err);
  } finally {
    // Parsed: let the bytes go now, not when the Worker ends.
    // (`ArrayBuffer.prototype.transfer`, ES2024: detaching frees the memory.)
    const buffer = request.bytes.buffer as {
      transfer?: (n: number) => unknown;
    };
    buffer.transfer?.(0);
  }
}

// Only in the Worker parseBytesInBackground starts (by its name): importing
// this module anywhere else installs nothing.
const scope = globalThis as unknown as {
  name?: unknown;
  onmessage: ((e: MessageEvent<ParseBytesRequest>) => void) | null;
  postMessage(message: unknown, transfer?: Transferable[]): void;
};
if (scope.name === WORKER_NAME) {
  scope.onmessage = async (e) => {
    const reply = await serve(e.data);
    const transfer = reply.type === "parsed"
      ? Object.values(reply.columns).map((c) =>
        (c.kind === "number" ? c.values : c.codes).buffer
      ).filter(isArrayBuffer)
      : [];
    scope.postMessage(reply, transfer);
  };
}
