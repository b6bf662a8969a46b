/**
 * A CSV source of schema inference read piece by piece: a file (path or
 * `file:` URL, from disk in Deno or Node), an `http(s):` URL, a Blob or
 * File, or text. Gzip data (a `.csv.gz` file, known by its magic bytes) is
 * inflated as it is read. Each piece is parsed with `src/csv.ts`'s rules and
 * errors (a record may cross pieces), and each column's cells are tallied
 * ({@linkcode ColumnTally}) as they pass: what stays in memory is a piece
 * of 64 KiB (small enough for V8's young generation, so each dies young)
 * and, per column, the distinct values inference needs, whatever the
 * file's size.
 *
 * @module
 */
import { newCsvScan, scanCsvRows } from "../csv.ts";
import { gunzipChunks } from "../gzip.ts";
import { ColumnTally, type InferColumnOptions, ownCopy } from "./columns.ts";

/** Bytes read, and text characters parsed, at a time. */
const PIECE = 1 << 16;

/** Distinct cells a column counts before it adds its cells one by one. */
const DISTINCT_CELLS = 4096;

/** A CSV source: a path or URL, a Blob, a stream of bytes, or the text. */
export type CsvSource =
  | string
  | URL
  | Blob
  | ReadableStream<Uint8Array>
  | { csv: string };

/** A CSV file's header and its columns' tallies (null: a column left out). */
export interface CsvTallies {
  /** Column names, trimmed. */
  header: string[];
  /** Per header position, the column's tally, or null when not asked for. */
  tallies: (ColumnTally | null)[];
}

/**
 * Reads a CSV source piece by piece and tallies its columns: `optionsOf`
 * gives each column's inference options (`undefined`: leave it out; it is
 * still parsed and checked). The header and every record are checked as
 * `parseCsvColumns` checks them, with its errors.
 *
 * @throws {CsvError} On malformed CSV or an empty file, naming the line.
 *
 * @example
 * ```ts
 * import { tallyCsv } from "./csv_source.ts";
 * const csv = 'id,note,y\n1,"two\nlines",a\n2,,b\n';
 * const { header, tallies } = await tallyCsv({ csv }, (name) => name === "id" ? undefined : { target: name === "y" });
 * if (header.join() !== "id,note,y" || tallies[0] !== null) throw new Error();
 * if (tallies[1]!.report("note").missing !== 1) throw new Error();
 * tallies[2]!.report("y").type.semantic_type; // "CATEGORICAL"
 * ```
 */
export async function tallyCsv(
  source: CsvSource,
  optionsOf: (name: string) => InferColumnOptions | undefined,
  piece: number = PIECE,
): Promise<CsvTallies> {
  const scan = newCsvScan();
  // Per header position (made when the header is read): the cell counts of
  // a column asked for, else null.
  let columns: (CellCounts | null)[] | undefined;
  const columnsOf = (header: string[]) =>
    header.map((name) => {
      const options = optionsOf(name);
      return options === undefined ? null : new CellCounts(options);
    });
  const onRow = (record: string[], line: number) => {
    columns ??= columnsOf(scan.header!);
    for (let j = 0; j < columns.length; j++) {
      const column = columns[j];
      if (column !== null) column.add(record[j], line);
    }
  };
  // Text not parsed yet: the record under way, then the pieces after it.
  let pending: string[] = [];
  let length = 0;
  // Nothing parsed last time (one record longer than the text so far):
  // wait for twice as much, so a long record is rescanned only a few times.
  let waitFor = 0;
  const parse = (partial: boolean) => {
    const text = pending.length === 1 ? pending[0] : pending.join("");
    scan.partial = partial;
    scanCsvRows(text, onRow, scan);
    const rest = text.slice(scan.stop);
    pending = rest === "" ? [] : [rest];
    length = rest.length;
    waitFor = scan.stop === 0 ? 2 * text.length : 0;
  };
  const start = emptyQuotedStart();
  for await (const text of textPieces(source, piece)) {
    if (start.verdict === undefined && start.push(text)) {
      // As before: the header was parsed alone, up to the first line break,
      // and a first line of `""` alone (a blank record) left it no record.
      scanCsvRows("", () => {}, { ...scan, partial: false, header: null });
    }
    pending.push(text);
    length += text.length;
    if (length >= waitFor) parse(true);
  }
  parse(false);
  const header = scan.header!;
  // A header and no rows: every column is empty.
  columns ??= columnsOf(header);
  return { header, tallies: columns.map((c) => c?.finish() ?? null) };
}

/**
 * Whether a text starts (after one BOM and any line breaks) with a line that
 * is only `""`, told from its pieces as they come: `push` returns the
 * verdict once the text has shown enough of itself (`verdict` keeps it).
 */
function emptyQuotedStart() {
  // 0: at the text's start; 1: in its first line breaks; 2, 3: after one
  // or two quotes.
  let state = 0;
  const result = {
    verdict: undefined as boolean | undefined,
    push(text: string): boolean {
      for (let i = 0; i < text.length && result.verdict === undefined; i++) {
        const c = text.charCodeAt(i);
        if (state === 0) {
          state = 1;
          if (c === 0xfeff) continue;
        }
        if (state === 1 && (c === 10 || c === 13)) continue;
        if (state < 3 && c === 34) state++;
        else result.verdict = state === 3 && (c === 10 || c === 13);
      }
      return result.verdict === true;
    },
  };
  return result;
}

/**
 * A column's cells counted as they pass, then added to its tally: the first
 * {@linkcode DISTINCT_CELLS} distinct cells are counted (each is classified
 * once, at the end, with the line it was first seen on), any other cell is
 * added to the tally as it comes. The counted cells are copies, so no piece
 * of text is kept alive by them.
 */
class CellCounts {
  readonly tally: ColumnTally;
  #index = new Map<string, number>();
  #counts = new Float64Array(DISTINCT_CELLS);
  /** The line each counted cell was first seen on. */
  #lines = new Float64Array(DISTINCT_CELLS);
  #empty = 0;

  constructor(options: InferColumnOptions) {
    this.tally = new ColumnTally(options, { bounded: true, lines: true });
  }

  add(cell: string, line: number): void {
    if (cell === "") {
      this.#empty++;
      return;
    }
    const k = this.#index.get(cell);
    if (k !== undefined) this.#counts[k]++;
    else if (this.#index.size < DISTINCT_CELLS) {
      this.#counts[this.#index.size] = 1;
      this.#lines[this.#index.size] = line;
      this.#index.set(ownCopy(cell), this.#index.size);
    } else this.tally.add(cell, 1, line);
  }

  /** Adds the counted cells to the tally (once, at the end). */
  finish(): ColumnTally {
    let k = 0;
    for (const cell of this.#index.keys()) {
      this.tally.add(cell, this.#counts[k], this.#lines[k]);
      k++;
    }
    this.tally.add("", this.#empty);
    this.#index.clear();
    this.#empty = 0;
    return this.tally;
  }
}

/** The text of a CSV source, in pieces of about {@linkcode PIECE} characters. */
async function* textPieces(
  source: CsvSource,
  piece: number,
): AsyncGenerator<string> {
  if (typeof source === "object" && "csv" in source) {
    const text = source.csv;
    for (let at = 0; at < text.length; at += piece) {
      yield text.slice(at, at + piece);
    }
    return;
  }
  // As before: a file's BOM stays text (the parser drops one), a Blob's is
  // dropped by the decoder (as its text() did), then one by the parser.
  const decoder = new TextDecoder("utf-8", { ignoreBOM: !isBlob(source) });
  const batch: string[] = [];
  let size = 0;
  for await (const bytes of gunzipChunks(bytesOf(source, piece))) {
    // An inflated chunk can be several pieces long: decoded a piece at a
    // time, no string is too large for the young generation.
    for (let at = 0; at < bytes.length; at += piece) {
      const text = decoder.decode(bytes.subarray(at, at + piece), {
        stream: true,
      });
      if (text === "") continue;
      batch.push(text);
      size += text.length;
      if (size >= piece) {
        yield batch.length === 1 ? batch[0] : batch.join("");
        batch.length = 0;
        size = 0;
      }
    }
  }
  const last = decoder.decode();
  if (last !== "") batch.push(last);
  if (batch.length > 0) yield batch.join("");
}

const isBlob = (x: unknown): x is Blob =>
  typeof Blob !== "undefined" && x instanceof Blob;

/** What of Deno's file API reading a file uses, when running in Deno. */
interface DenoFiles {
  Deno?: {
    open?(path: string | URL): Promise<{
      read(buffer: Uint8Array): Promise<number | null>;
      close(): void;
    }>;
  };
}

/**
 * The bytes of a path or `file:` URL (from disk, in Deno or Node), an
 * `http(s):` URL (fetched) or a Blob, a chunk at a time.
 */
async function* bytesOf(
  source: string | URL | Blob | ReadableStream<Uint8Array>,
  piece: number,
): AsyncGenerator<Uint8Array> {
  if (isBlob(source)) {
    for (let at = 0; at < source.size; at += piece) {
      yield new Uint8Array(await source.slice(at, at + piece).arrayBuffer());
    }
    return;
  }
  if (source instanceof ReadableStream) return yield* chunksOf(source);
  if (source instanceof URL && source.protocol !== "file:") {
    const response = await fetch(source);
    if (!response.ok) {
      throw new Error(`Could not read ${source}: HTTP ${response.status}`);
    }
    if (response.body !== null) yield* chunksOf(response.body);
    return;
  }
  const deno = (globalThis as DenoFiles).Deno;
  if (deno?.open) {
    const file = await deno.open(source);
    try {
      for (;;) {
        const buffer = new Uint8Array(piece);
        const n = await file.read(buffer);
        if (n === null) return;
        yield buffer.subarray(0, n);
      }
    } finally {
      file.close();
    }
  }
  const fs = await import("node:fs/promises");
  const handle = await fs.open(source);
  try {
    for (;;) {
      const buffer = new Uint8Array(piece);
      const { bytesRead } = await handle.read(buffer, 0, piece, null);
      if (bytesRead === 0) return;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}

/** A stream's chunks; the stream is cancelled when they are not all read. */
async function* chunksOf(
  stream: ReadableStream<Uint8Array>,
): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  let done = false;
  try {
    for (;;) {
      const next = await reader.read();
      if ((done = next.done)) return;
      yield next.value;
    }
  } finally {
    if (!done) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
