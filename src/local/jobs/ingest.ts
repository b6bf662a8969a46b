/**
 * The work of an ingestion job: read the CSV from the bucket, parse it with
 * the real CSV parser straight into typed columns by the data schema (a
 * missing column or a value of the wrong type fails the job, naming the
 * column and the line), and store the datasource's typed columns (a
 * `Datasource` of src/local/model/datasource.ts: numbers as `Float64Array`,
 * strings as dictionary codes; no string per cell is kept). The file is read
 * as bytes; large files are decoded and parsed in a Worker
 * (./ingest_worker.ts) that gets the bytes' buffer moved to it, so the
 * server answers other requests meanwhile and never holds the file's text.
 *
 * @module
 */
import { CsvError } from "../../csv.ts";
import { parseBytesInBackground } from "./ingest_worker.ts";
import type { SchemaField } from "../model/encoding.ts";
import type { Store } from "../store/store.ts";
import type { JobWork } from "./runner.ts";
import { macrotask } from "./yield.ts";
import { messageOf } from "../error_message.ts";

/** Blob key of a datasource's columns. */
export const datasourceBlobKey = (id: string): string => `datasource:${id}`;

/** What an ingestion job needs. */
export interface IngestInput {
  /** Resolved real path of the CSV file inside its bucket. */
  file: string;
  /**
   * Reads the CSV file's bytes with the bucket's check and read as one
   * operation (`readDataBytes` of buckets.ts); without it, `file` is read
   * as is.
   */
  read?: (signal: AbortSignal) => Promise<Uint8Array>;
  /** How the file is named to the user (bucket and data_path). */
  display: string;
  /** The data schema's fields. */
  fields: SchemaField[];
  /** Id of the datasource to fill. */
  datasourceId: string;
}

/**
 * Builds the ingestion work; on success the datasource columns are stored
 * and `onRows` receives the row count.
 *
 * @example
 * ```ts
 * import { MemoryStore } from "../store/store.ts";
 * import { uncheckedRecord } from "../../../tests/_helpers/records.ts";
 * import { JobRunner } from "./runner.ts";
 * import { datasourceBlobKey, ingestWork } from "./ingest.ts";
 * const file = await Deno.makeTempFile({ suffix: ".csv" });
 * await Deno.writeTextFile(file, "x,y\n1,a\nnope,b\n");
 * const store = new MemoryStore();
 * store.put(uncheckedRecord({ kind: "ingestionJobs", id: "j", account: "a", body: {} }));
 * const fields = [
 *   { name: "x", data_type: { data_type: "NUMBER" }, designation: "FEATURE", semantic_type: "CONTINUOUS" },
 *   { name: "y", data_type: { data_type: "STRING" }, designation: "TARGET", semantic_type: "CATEGORICAL" },
 * ];
 * await new JobRunner(store, () => {}).start("ingestionJobs", "j", 60,
 *   ingestWork(store, { file, display: "t.csv", fields, datasourceId: "d" }, () => {}));
 * const job = store.get("ingestionJobs", "j")!.body;
 * if (job.status !== "FAILED" || !String(job.message).includes("'x'")) throw new Error(String(job.message));
 * await Deno.remove(file);
 * ```
 */
export function ingestWork(
  store: Store,
  input: IngestInput,
  onRows: (rows: number, columns: string[]) => void,
): JobWork {
  return async (job) => {
    job.report("reading", 0, 0.05);
    const { readFile } = await import("node:fs/promises");
    let bytes: Uint8Array;
    try {
      bytes = input.read
        ? await input.read(job.signal)
        : await readFile(input.file, { signal: job.signal });
    } catch (error) {
      if (job.signal.aborted) throw job.signal.reason;
      throw new Error(
        `Cannot read ${input.display}: ${
          messageOf(error)
        }. Check that the file is still in the bucket.`,
      );
    }
    job.report("reading", 1, 0.3);
    await macrotask();
    if (job.signal.aborted) throw job.signal.reason;
    job.report("parsing", 0, 0.3);
    // Parsed straight into typed columns (no string per cell), in a worker
    // for large files so the server keeps answering meanwhile.
    let datasource;
    const parsing = parseBytesInBackground(bytes, input.fields, {
      signal: job.signal,
    });
    // The bytes are the worker's (or parsed) now: don't keep them alive here.
    bytes = new Uint8Array();
    try {
      datasource = await parsing;
    } catch (error) {
      if (job.signal.aborted) throw job.signal.reason;
      if (error instanceof CsvError) {
        throw new Error(
          `${input.display} is not valid CSV: ${messageOf(error)}`,
        );
      }
      throw new Error(`${input.display}: ${messageOf(error)}`);
    }
    job.report("parsing", 1, 0.9);
    await macrotask();
    if (job.signal.aborted) throw job.signal.reason;
    job.report("storing", 0, 0.9);
    store.putBlob(datasourceBlobKey(input.datasourceId), datasource);
    job.report("storing", 1, 1);
    onRows(datasource.nRows, Object.keys(datasource.columns));
  };
}
