/**
 * Reading a views batch's output back, one page at a time, from the file
 * itself: the job kept the byte offset of every {@linkcode CHUNK_ROWS}-th
 * row, so a page seeks to the offset before its first row and reads at
 * most one chunk more than the page, whatever the file's size. Cells come
 * back typed by their column: view numbers as numbers, kept columns and the
 * error as text, empty cells as null.
 *
 * @module
 */
import type { FileHandle } from "node:fs/promises";
import { blobKind } from "../store/blobs.ts";
import { CHUNK_ROWS, type ColumnKind } from "./batch.ts";
import { CsvRecordParser } from "./csv_stream.ts";

/** What the job keeps to read its output's pages. */
export interface BatchIndex {
  /** `CSV` or `JSON_LINES`. */
  format: string;
  /** Output columns, in order. */
  columns: string[];
  /** What each column holds. */
  kinds: ColumnKind[];
  /** Rows in the output. */
  rows: number;
  /** The output's size when written (a changed file is refused). */
  bytes: number;
  /** The output's modification time when written, in ms (a rewritten file is refused). */
  modified?: number;
  /** Byte offset of every {@linkcode CHUNK_ROWS}-th row. */
  offsets: number[];
}

/** Where each views batch's page index is stored. */
export const batchIndexBlobs = blobKind<BatchIndex>("views-batch-index");

/** One page of rows, each aligned with the index's columns. */
export interface BatchPage {
  /** 0-based positions of the rows in the output. */
  index: number[];
  /** The rows. */
  data: (string | number | null)[][];
}

const PIECE_BYTES = 1 << 18;

/**
 * Reads rows `[from, from + count)` of the output open at `handle`.
 *
 * @example
 * ```ts
 * import { readBatchPage } from "./batch_results.ts";
 * const dir = await Deno.makeTempDir();
 * const file = `${dir}/out.csv`;
 * await Deno.writeTextFile(file, "id,p\na,0.5\nb,\n");
 * const { open } = await import("node:fs/promises");
 * const handle = await open(file);
 * const page = await readBatchPage(handle, {
 *   format: "CSV", columns: ["id", "p"], kinds: ["string", "number"], rows: 2, bytes: 17, offsets: [5],
 * }, 1, 5);
 * await handle.close();
 * if (JSON.stringify(page) !== '{"index":[1],"data":[["b",null]]}') throw new Error(JSON.stringify(page));
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function readBatchPage(
  handle: FileHandle,
  index: BatchIndex,
  from: number,
  count: number,
): Promise<BatchPage> {
  const page: BatchPage = { index: [], data: [] };
  const to = Math.min(index.rows, from + count);
  if (from >= to) return page;
  const anchor = Math.floor(from / CHUNK_ROWS);
  let row = anchor * CHUNK_ROWS;
  let position = index.offsets[anchor];
  const typed = index.format === "JSON_LINES"
    ? jsonRow(index.columns)
    : csvRow(index.kinds);
  const take = (cells: (string | number | null)[]) => {
    if (row >= from && row < to) {
      page.index.push(row);
      page.data.push(cells);
    }
    row++;
  };
  const decoder = new TextDecoder();
  const csv = new CsvRecordParser();
  let carry = "";
  const buffer = new Uint8Array(PIECE_BYTES);
  while (row < to) {
    const { bytesRead } = await handle.read(buffer, 0, PIECE_BYTES, position);
    const text = bytesRead
      ? decoder.decode(buffer.subarray(0, bytesRead), { stream: true })
      : decoder.decode();
    position += bytesRead;
    if (index.format === "JSON_LINES") {
      const lines = (carry + text).split("\n");
      carry = bytesRead ? lines.pop()! : "";
      for (const line of lines) {
        if (line && row < to) take(typed(line));
      }
    } else {
      csv.push(text, (fields) => row < to && take(typed(fields)));
      if (!bytesRead) csv.end((fields) => row < to && take(typed(fields)));
    }
    if (!bytesRead) break;
  }
  return page;
}

/** CSV cells typed by their column's kind. */
function csvRow(kinds: ColumnKind[]) {
  return (fields: string[] | string): (string | number | null)[] =>
    (fields as string[]).map((cell, j) =>
      cell === "" ? null : kinds[j] === "number" ? Number(cell) : cell
    );
}

/** A JSON line's values in column order. */
function jsonRow(columns: string[]) {
  return (line: string[] | string): (string | number | null)[] => {
    const row = JSON.parse(line as string) as Record<
      string,
      string | number | null
    >;
    return columns.map((c) => row[c] ?? null);
  };
}
