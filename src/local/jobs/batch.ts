/**
 * The work of a views batch job: stream a CSV file of a bucket (plain or
 * gzip), score it with a deployed model in chunks of {@linkcode CHUNK_ROWS}
 * rows, in input order, and write each chunk to a hidden temporary file next
 * to the output, renamed to the output's name only once every row is
 * written. Memory holds one piece of input and one chunk, whatever the file's
 * size. A cancel, a failure or a platform that closes removes the temporary
 * file: no partial file ever has the output's name.
 *
 * A row the model cannot score (a number column holding text, an unseen
 * category the model refuses, a row with the wrong number of fields) either
 * fails the job naming the row, column and reason (`FAIL`), or is written
 * with null views and the reason in the error column (`NULL_PREDICTION`).
 *
 * @module
 */
import type { FileHandle } from "node:fs/promises";
import { realpathSync, rmSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { inputColumns } from "../model/encoder.ts";
import type { EbmModel } from "../model/types.ts";
import { contributionTable } from "../model/explain.ts";
import { assertUniqueHeader, columnNames, CsvError } from "../../csv.ts";
import { gunzipChunks, InflateError } from "../../gzip.ts";
import { messageOf } from "../error_message.ts";
import type { JobWork, WorkControl } from "./runner.ts";
import { macrotask } from "./yield.ts";
import { makeFolder, stillInPlace } from "./batch_output.ts";
import { sameFile } from "../store/buckets.ts";
import { csvField, CsvRecordParser } from "./csv_stream.ts";
import { type ScoredChunk, ScoringWorker } from "./batch_worker.ts";
import {
  type BatchLayout,
  type BatchShape,
  ChunkScorer,
  type ColumnKind,
  type Row,
} from "./batch_scorer.ts";

export type { BatchLayout, BatchShape, ColumnKind };
import type { Store, StoredRecord } from "../store/store.ts";

/** Rows scored and written per step; also the stride of the page index. */
export const CHUNK_ROWS = 1000;

/** Bytes read from the input per step. */
const PIECE_BYTES = 1 << 20;

/** Inputs from this size on are scored on two threads (where there is `Worker`). */
const PARALLEL_BYTES = 4 << 20;

/** Longest stretch of scoring, in ms, before other work gets a turn. */
const YIELD_MS = 20;

/**
 * The output's columns for `model` and `shape`, or an error message when
 * two would share a name (a kept column named like a view column).
 *
 * @example
 * ```ts
 * import { batchLayout } from "./batch.ts";
 * const model = { task: "regression" } as never;
 * const views = ["prediction.y", "bias", "contribution.x"];
 * const layout = batchLayout(model, views, { viewType: "PREDICTIONS", keep: ["id"], onError: "NULL_PREDICTION", errorColumn: "error" });
 * if (typeof layout === "string" || layout.columns.join() !== "id,prediction.y,error") throw new Error(JSON.stringify(layout));
 * ```
 */
export function batchLayout(
  model: Pick<EbmModel, "task">,
  viewColumns: readonly string[],
  shape: BatchShape,
): BatchLayout | string {
  const viewIndex: number[] = [];
  viewColumns.forEach((name, i) => {
    if (
      shape.viewType === "RESULTS" || name.startsWith("prediction.") ||
      name.startsWith("probability.")
    ) viewIndex.push(i);
  });
  const views = viewIndex.map((i) => viewColumns[i]);
  const columns = [...shape.keep, ...views];
  const kinds: ColumnKind[] = [
    ...shape.keep.map((): ColumnKind => "string"),
    ...views.map((name): ColumnKind =>
      name.startsWith("prediction.") && model.task !== "regression"
        ? "string"
        : "number"
    ),
  ];
  if (shape.onError === "NULL_PREDICTION") {
    columns.push(shape.errorColumn);
    kinds.push("string");
  }
  const seen = new Set<string>();
  for (const name of columns) {
    if (seen.has(name)) {
      return `the output would have two columns named "${name}": rename the kept column or the error column of the views batch configuration`;
    }
    seen.add(name);
  }
  return { columns, kinds, viewIndex };
}

/**
 * The views columns `model` answers (what `views()` answers for no rows).
 *
 * @example
 * ```ts
 * import { viewColumnsOf } from "./batch.ts";
 * if (typeof viewColumnsOf !== "function") throw new Error();
 * ```
 */
export function viewColumnsOf(model: EbmModel): string[] {
  const empty: Record<string, unknown[]> = Object.create(null);
  for (const name of inputColumns(model.encoder)) empty[name] = [];
  return contributionTable(model, empty).columns;
}

/** What a views batch job needs. */
export interface BatchInput {
  /** The loaded model of the deployed model (at the time the job starts). */
  model: () => EbmModel | undefined;
  /** How the output is laid out and what a bad row does. */
  shape: BatchShape;
  /** `CSV` or `JSON_LINES`. */
  format: string;
  /** Opens the input with the bucket's checks and hands its handle to `use`. */
  openInput: <T>(use: (handle: FileHandle) => Promise<T>) => Promise<T>;
  /** How the input is named to the user (`"x.csv" in bucket "b"`). */
  display: string;
  /** The output file's final path. */
  outputFile: string;
  /** How the output is named to the user (default: its name, no folder). */
  outputDisplay?: string;
  /** The hidden file written first and renamed to `outputFile` when complete. */
  tempFile: string;
  /**
   * Score on a second thread too (a Worker), beside this one. Default: for
   * inputs of 4 MB or more, where the runtime has `Worker`.
   */
  parallel?: boolean;
}

/** What a completed batch reports, and the index its result pages are read by. */
export interface BatchOutcome {
  /** Data rows read. */
  rowsIn: number;
  /** Rows written (every row read). */
  rowsOut: number;
  /** Rows written with null views and an error. */
  rowsWithErrors: number;
  /** The output's layout. */
  layout: BatchLayout;
  /** The output file's size in bytes. */
  bytes: number;
  /** The output file's modification time once renamed, in ms. */
  modified: number;
  /** Byte offset of every {@linkcode CHUNK_ROWS}-th row in the output. */
  offsets: number[];
}

/**
 * Removes the temporary output a views batch job left when the platform
 * stopped under it (a killed process cannot clean up after itself); the
 * output's own name never held a partial file. Synchronous: it runs while
 * the platform recovers, before it answers anything.
 *
 * @example
 * ```ts
 * import { removeBatchLeftovers } from "./batch.ts";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/.o.csv.vb_1.part`, "id\n");
 * const ctx = {
 *   buckets: { b: dir },
 *   store: { get: () => ({ body: { bucket_name: "b" } }) },
 * };
 * const job = { body: { storage_connector: { id: "sc" }, output_path: "o.csv", views_batch: { id: "vb_1" } } };
 * removeBatchLeftovers(ctx as never, job as never);
 * if ([...Deno.readDirSync(dir)].length !== 0) throw new Error("left over");
 * await Deno.remove(dir);
 * ```
 */
export function removeBatchLeftovers(
  ctx: { buckets: Record<string, string>; store: Store },
  job: StoredRecord<"viewsBatchJobs">,
): void {
  const sc = ctx.store.get("storageConnectors", job.body.storage_connector.id);
  const bucket = String(sc?.body.bucket_name);
  if (!sc || !Object.hasOwn(ctx.buckets, bucket)) return;
  const root = realpathSync(ctx.buckets[bucket]);
  // The path was checked inside the bucket when the job was created.
  const file = resolve(root, job.body.output_path);
  if (relative(root, file).startsWith("..")) return;
  rmSync(tempName(file, job.body.views_batch.id), { force: true });
}

/**
 * The hidden name an output has while its job writes it: next to it, so
 * the rename that publishes it stays within one folder.
 *
 * @example
 * ```ts
 * import { tempName } from "./batch.ts";
 * if (tempName("/b/out/x.csv", "vb_1") !== "/b/out/.x.csv.vb_1.part") throw new Error();
 * ```
 */
export function tempName(file: string, batchId: string): string {
  const slash = Math.max(file.lastIndexOf("/"), file.lastIndexOf("\\"));
  return `${file.slice(0, slash + 1)}.${file.slice(slash + 1)}.${batchId}.part`;
}

/**
 * Builds the views batch work; `onDone` receives the counts and the page
 * index once the output has its final name.
 *
 * @example A model scores a small file; a row it cannot score gets an error
 * ```ts
 * import { encodeDataset } from "../model/encoding.ts";
 * import { train } from "../model/ebm.ts";
 * import { MemoryStore } from "../store/store.ts";
 * import { uncheckedRecord } from "../../../tests/_helpers/records.ts";
 * import { JobRunner } from "./runner.ts";
 * import { batchWork, tempName } from "./batch.ts";
 * const x = Array.from({ length: 80 }, (_, i) => i);
 * const model = train(encodeDataset({ x, y: x.map((v) => (v < 40 ? "lo" : "hi")) }, [
 *   { name: "x", data_type: { data_type: "NUMBER" }, designation: "FEATURE", semantic_type: "CONTINUOUS" },
 *   { name: "y", data_type: { data_type: "STRING" }, designation: "TARGET", semantic_type: "CATEGORICAL" },
 * ]), { max_rounds: 10 });
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/in.csv`, "id,x\na,5\nb,oops\nc,70\n");
 * const { open } = await import("node:fs/promises");
 * const store = new MemoryStore();
 * store.put(uncheckedRecord({ kind: "viewsBatchJobs", id: "j", account: "a", body: {} }));
 * let errors = -1;
 * await new JobRunner(store, () => {}).start("viewsBatchJobs", "j", 60, batchWork({
 *   model: () => model,
 *   shape: { viewType: "PREDICTIONS", keep: ["id"], onError: "NULL_PREDICTION", errorColumn: "error" },
 *   format: "CSV",
 *   openInput: async (use) => {
 *     const handle = await open(`${dir}/in.csv`);
 *     try { return await use(handle); } finally { await handle.close(); }
 *   },
 *   display: "in.csv",
 *   outputFile: `${dir}/out.csv`,
 *   tempFile: tempName(`${dir}/out.csv`, "vb_1"),
 * }, (outcome) => (errors = outcome.rowsWithErrors)));
 * const lines = (await Deno.readTextFile(`${dir}/out.csv`)).trim().split("\n");
 * if (lines[0] !== "id,prediction.y,probability.y.hi,probability.y.lo,error") throw new Error(lines[0]);
 * if (!lines[1].startsWith("a,lo,") || !lines[3].startsWith("c,hi,")) throw new Error(lines.join("|"));
 * if (!lines[2].startsWith("b,,,,") || errors !== 1) throw new Error(lines[2]);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function batchWork(
  input: BatchInput,
  onDone: (outcome: BatchOutcome) => void,
): JobWork {
  return async (job) => {
    const { lstat, open, rename, rm, stat } = await import(
      "node:fs/promises"
    );
    // Stopped (cancel, runtime cap, platform closing): the temporary file
    // goes at once, before the job is reported ended, not when the work
    // next looks at its signal.
    const removeTemp = () => rmSync(input.tempFile, { force: true });
    job.signal.addEventListener("abort", removeTemp, { once: true });
    const model = input.model();
    if (!model) {
      throw new Error(
        "The deployed model is no longer loaded (was it deleted or did it fail?); deploy the model again and start a new views batch job.",
      );
    }
    job.report("reading", 0, 0.01);
    let out: FileHandle | undefined;
    let renamed = false;
    // The output's folder is made here, not when the job was created (a
    // refused create leaves none), and it must still be the real folder
    // inside the bucket that the create resolved: a folder swapped for a
    // link out of the bucket since then is written through by nothing but
    // this job's own temporary file, which goes (see `stillInPlace`).
    const folder = dirname(input.outputFile);
    try {
      await makeFolder(folder, input.outputDisplay);
      out = await open(input.tempFile, "wx");
      const own = await out.stat();
      await stillInPlace(folder, input.tempFile, own, input.outputDisplay);
      if (job.signal.aborted) removeTemp();
      const outcome = await input.openInput(async (handle) => {
        const size = (await handle.stat()).size;
        return await score(job, model, input, handle, size, out!);
      });
      await out.close();
      out = undefined;
      if (job.signal.aborted) throw job.signal.reason;
      await stillInPlace(folder, input.tempFile, own, input.outputDisplay);
      await rename(input.tempFile, input.outputFile);
      renamed = true;
      try {
        await stillInPlace(folder, input.outputFile, own, input.outputDisplay);
      } catch (error) {
        // Swapped between the check and the rename: this job's file is
        // taken back from wherever the link led (the very file it wrote).
        const there = await lstat(input.outputFile).catch(() => null);
        if (there && sameFile(there, own)) {
          await rm(input.outputFile, { force: true }).catch(() => {});
        }
        throw error;
      }
      outcome.modified = (await stat(input.outputFile)).mtimeMs;
      if (job.signal.aborted) {
        // Cancelled while renaming: the job says CANCELLED, so no file either.
        await rm(input.outputFile, { force: true });
        throw job.signal.reason;
      }
      onDone(outcome);
    } catch (error) {
      if (job.signal.aborted) throw job.signal.reason;
      if (error instanceof CsvError) {
        throw new Error(`${input.display} is not valid CSV: ${error.message}`);
      }
      // A system error here is the output's (opening, writing or renaming
      // it): its own message holds the bucket's real folder on this
      // machine, which the job's message must not show.
      const code = (error as { code?: unknown } | null)?.code;
      if (typeof code === "string" && /^E[A-Z]+$/.test(code)) {
        throw new Error(
          `Writing the output ${
            input.outputDisplay ??
              `"${
                input.outputFile.slice(input.outputFile.lastIndexOf("/") + 1)
              }"`
          } failed (${code}${
            code === "ENOENT"
              ? ": its folder was removed while the job ran"
              : ""
          }); check the bucket's folder and start a new views batch job.`,
        );
      }
      throw error;
    } finally {
      job.signal.removeEventListener("abort", removeTemp);
      await out?.close().catch(() => {});
      if (!renamed) await rm(input.tempFile, { force: true }).catch(() => {});
    }
  };
}

/** Reads, scores and writes the whole input; the counts and index. */
async function score(
  job: WorkControl,
  model: EbmModel,
  input: BatchInput,
  handle: FileHandle,
  size: number,
  out: FileHandle,
): Promise<BatchOutcome> {
  const viewColumns = viewColumnsOf(model);
  const layout = batchLayout(model, viewColumns, input.shape);
  if (typeof layout === "string") {
    throw new Error(`Cannot write the output: ${layout}.`);
  }
  const encoder = new TextEncoder();
  const jsonLines = input.format === "JSON_LINES";
  let bytes = 0;
  const offsets: number[] = [];
  const write = async (text: string) => {
    const data = encoder.encode(text);
    let done = 0;
    while (done < data.length) {
      const { bytesWritten } = await out.write(data, done, data.length - done);
      done += bytesWritten;
    }
    bytes += data.length;
  };

  let header: string[] | undefined;
  let scorer: ChunkScorer | undefined;
  let pending: Row[] = [];
  let rowsIn = 0;
  let rowsWithErrors = 0;
  let bytesRead = 0;
  let lastYield = performance.now();
  const parser = new CsvRecordParser();
  const take = (fields: string[], line: number) => {
    if (!header) {
      // A column named twice: which one the model reads is unsaid; refused.
      header = columnNames(fields);
      assertUniqueHeader(header, line);
    } else pending.push({ fields, line });
  };
  // With a second thread, chunks go in pairs: the first to the Worker,
  // the second scored here meanwhile; both are written in input order.
  let worker: ScoringWorker | undefined;
  let sent: { rows: number; result: Promise<ScoredChunk> } | undefined;
  const stopWorker = () => worker?.close();
  job.signal.addEventListener("abort", stopWorker, { once: true });
  const writeChunk = async (text: string, errors: number) => {
    offsets.push(bytes);
    rowsWithErrors += errors;
    await write(text);
  };
  const writeSent = async () => {
    if (!sent) return;
    const { text, errors } = await sent.result;
    sent = undefined;
    await writeChunk(text, errors);
  };
  const flush = async (rows: Row[]) => {
    if (!scorer) {
      if (!header) return;
      scorer = new ChunkScorer(model, header, input, layout);
      if (!jsonLines) {
        await write(layout.columns.map(csvField).join(",") + "\n");
      }
      if (input.parallel ?? size >= PARALLEL_BYTES) {
        worker = ScoringWorker.start({
          model,
          header,
          input: {
            shape: input.shape,
            format: input.format,
            display: input.display,
          },
          layout,
        });
      }
    }
    if (rows.length === 0) return;
    const first = rowsIn;
    rowsIn += rows.length;
    if (worker && !sent) {
      sent = { rows: rows.length, result: worker.score(rows, first) };
      sent.result.catch(() => {}); // awaited below; not unhandled meanwhile
      return;
    }
    let text: string;
    try {
      text = scorer.score(rows, first);
    } catch (error) {
      await writeSent(); // an earlier row's failure is the one to tell
      throw error;
    }
    const errors = scorer.errors;
    await writeSent();
    await writeChunk(text, errors);
    const read = size ? bytesRead / size : 1;
    job.report("scoring", read, 0.02 + 0.96 * read);
    // Other requests get their turn every few chunks: a timer per chunk
    // costs 1-4 ms each (2 s over a million rows).
    if (performance.now() - lastYield > YIELD_MS) {
      await macrotask();
      lastYield = performance.now();
    }
    if (job.signal.aborted) throw job.signal.reason;
  };
  const drain = async (all: boolean) => {
    let from = 0;
    while (
      pending.length - from >= CHUNK_ROWS || (all && from < pending.length)
    ) {
      await flush(pending.slice(from, from + CHUNK_ROWS));
      from += CHUNK_ROWS;
    }
    pending = from ? pending.slice(from) : pending;
  };

  const readAll = async (): Promise<BatchOutcome> => {
    for await (
      const text of textOf(handle, job.signal, (n) => (bytesRead += n))
    ) {
      parser.push(text, take);
      if (header && !scorer) await flush([]);
      await drain(false);
    }
    parser.end(take);
    if (!header) {
      throw new Error(
        `${input.display} is empty: a CSV file needs a header row naming its columns (and then one row per line).`,
      );
    }
    await flush([]);
    await drain(true);
    await writeSent();
    return {
      rowsIn,
      rowsOut: rowsIn,
      rowsWithErrors,
      layout,
      bytes,
      modified: 0, // set once the file has its final name
      offsets,
    };
  };
  try {
    return await readAll();
  } finally {
    job.signal.removeEventListener("abort", stopWorker);
    stopWorker();
  }
}

/** The input's text, piece by piece, gunzipped when it starts like gzip. */
async function* textOf(
  handle: FileHandle,
  signal: AbortSignal,
  onBytes: (n: number) => void,
): AsyncGenerator<string> {
  let position = 0;
  const readPiece = async (): Promise<Uint8Array<ArrayBuffer>> => {
    const buffer = new Uint8Array(PIECE_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, PIECE_BYTES, position);
    position += bytesRead;
    onBytes(bytesRead);
    return buffer.subarray(0, bytesRead);
  };
  async function* pieces() {
    for (;;) {
      if (signal.aborted) throw signal.reason;
      const piece = await readPiece();
      if (piece.length === 0) return;
      yield piece;
    }
  }
  const decoder = new TextDecoder();
  try {
    // gunzipChunks tells gzip from text by its magic bytes (src/gzip.ts);
    // a consumer that stops early closes it, and it the pieces.
    for await (const bytes of gunzipChunks(pieces())) {
      yield decoder.decode(bytes, { stream: true });
    }
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw new Error(
      error instanceof InflateError
        ? `the gzip data of the input is damaged (${
          messageOf(error.cause)
        }); compress the file again`
        : `reading the input failed: ${messageOf(error)}`,
    );
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}
