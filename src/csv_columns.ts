/**
 * CSV parsed straight into typed columns for ingestion (no string kept per
 * cell): numbers as `Float64Array`, strings as dictionary codes, from the
 * file's text or its UTF-8 bytes, whole ({@link parseCsvColumns}) or as they
 * arrive ({@link CsvColumnsReader}). The rules and errors are
 * `src/csv.ts`'s.
 *
 * @example
 * ```ts
 * import { parseCsvColumns } from "./csv_columns.ts";
 * const t = parseCsvColumns(new TextEncoder().encode("x,c\n1,a\n,b\n"), new Map([["x", "number"]]));
 * if (!(t.rows === 2 && t.header.join() === "x,c" && t.columns.size === 1)) throw new Error("example failed");
 * ```
 *
 * @module
 */
import {
  assertUniqueHeader,
  columnNames,
  CsvError,
  decimalNumber,
  emptyError,
  fieldCountError,
  forEachRecord,
  newCsvScan,
} from "./csv.ts";

const LF = 10;
const CR = 13;

/** A column of numbers: `values[row]`, NaN for an empty cell. */
export interface CsvNumberColumn {
  kind: "number";
  values: Float64Array;
}

/**
 * A column of strings, dictionary-coded: `codes[row]` is 0 for an empty
 * cell, else `k` for the string `dictionary[k - 1]` (each distinct string
 * once, in order of first appearance).
 */
export interface CsvStringColumn {
  kind: "string";
  codes: Uint32Array;
  dictionary: string[];
}

/** A typed column of {@link parseCsvColumns}. */
export type CsvColumn = CsvNumberColumn | CsvStringColumn;

/** The columns {@link parseCsvColumns} read. */
export interface CsvColumns {
  header: string[];
  /** Data rows. */
  rows: number;
  /** The wanted columns by name. */
  columns: Map<string, CsvColumn>;
}

/**
 * A cell of a number column that is not a number: names the column, the
 * line and the cell.
 *
 * @example
 * ```ts
 * import { CsvValueError, parseCsvColumns } from "./csv_columns.ts";
 *
 * try {
 *   parseCsvColumns("a\n1\nx\n", new Map([["a", "number"]]));
 * } catch (e) {
 *   if (!(e instanceof CsvValueError && e.column === "a" && e.line === 3 && e.cell === "x")) throw new Error("example failed");
 * }
 * ```
 */
export class CsvValueError extends CsvError {
  /** The column's name. */
  readonly column: string;
  /** The cell's text. */
  readonly cell: string;
  /** Creates the error for `cell` of `column` on `line`. */
  constructor(column: string, cell: string, line: number) {
    super(
      `CSV line ${line}: column '${column}' holds '${cell}', which is not a number.`,
      line,
    );
    this.name = "CsvValueError";
    this.column = column;
    this.cell = cell;
  }
}

/**
 * Parses CSV text (same rules as {@link parseCsv}) straight into typed
 * columns, without keeping a string per cell: `number` columns become a
 * `Float64Array` (an empty cell is NaN; anything but a finite number after
 * trimming is a {@link CsvValueError}), `string` columns dictionary codes.
 * Only the columns named in `kinds` are kept; the header must hold them
 * (the caller checks, with `header`).
 *
 * @param input The whole file: its text, or its UTF-8 bytes, which are
 *   decoded a piece at a time (no string of the whole file is made, so a
 *   file may be larger than the longest string a JavaScript engine holds);
 *   a leading BOM is ignored.
 * @param kinds The wanted columns and their kind.
 * @param pieceBytes How many bytes are decoded at a time (default 64 KiB;
 *   the result is the same for any size, which tests check with tiny ones).
 * @throws {CsvError} As {@link parseCsv}; {@link CsvValueError} for a cell
 *   of a number column that is not a number.
 *
 * @example
 * ```ts
 * import { parseCsvColumns } from "./csv_columns.ts";
 *
 * const t = parseCsvColumns("x,c,skip\n1.5,a,z\n,b,z\n2,a,z\n", new Map([["x", "number"], ["c", "string"]]));
 * const x = t.columns.get("x")!, c = t.columns.get("c")!;
 * if (!(t.rows === 3 && x.kind === "number" && Number.isNaN(x.values[1]) && x.values[2] === 2)) throw new Error("example failed");
 * if (!(c.kind === "string" && c.dictionary.join() === "a,b" && Array.from(c.codes).join() === "1,2,1")) throw new Error("example failed");
 * ```
 */
export function parseCsvColumns(
  input: string | Uint8Array,
  kinds: ReadonlyMap<string, "number" | "string">,
  pieceBytes: number = BYTES_PIECE,
): CsvColumns {
  // Sized once from the line breaks (records <= lines), so the columns are
  // not regrown (and copied) while parsing a large file.
  let capacity = lineBreaks(input, LF);
  if (capacity === 1) capacity = lineBreaks(input, CR); // lone CR line ends
  const reader = new CsvColumnsReader(kinds, { capacity, pieceBytes });
  if (typeof input === "string") return reader.endWithText(input);
  reader.push(input);
  return reader.end();
}

/** One more than the count of `code` in `input` (text or bytes). */
function lineBreaks(input: string | Uint8Array, code: number): number {
  let k = 1;
  if (typeof input === "string") {
    const c = String.fromCharCode(code);
    for (let i = input.indexOf(c); i >= 0; i = input.indexOf(c, i + 1)) k++;
  } else {
    for (let i = input.indexOf(code); i >= 0; i = input.indexOf(code, i + 1)) {
      k++;
    }
  }
  return k;
}

/**
 * Bytes decoded to text at most this many at a time by {@link
 * CsvColumnsReader}. Small on purpose: a piece's text is garbage once
 * parsed, and pieces this size die young (a scavenge takes them); 8 MiB
 * pieces outlived the parse in the large-object space, and the 1M-row churn
 * file's ingestion peaked 120 MB higher and ran 0.4 s slower (3.8 s against
 * 2.8 s with 64 KiB).
 */
const BYTES_PIECE = 64 * 1024;

/**
 * {@link parseCsvColumns} of a file that arrives in pieces of bytes (a gzip
 * file as it inflates): `push` each piece as it comes, then `end` for the
 * columns. Only the record under way and one piece of text are held; the
 * columns grow as rows come (by doubling, from `capacity` rows). The
 * errors are {@link parseCsvColumns}'s, thrown by the `push` or `end` that
 * meets them.
 *
 * @example
 * ```ts
 * import { CsvColumnsReader } from "./csv_columns.ts";
 * const reader = new CsvColumnsReader(new Map([["x", "number"]]));
 * const bytes = new TextEncoder().encode("x,y\n1.5,a\n2,b\n");
 * for (let at = 0; at < bytes.length; at += 3) reader.push(bytes.subarray(at, at + 3));
 * const t = reader.end();
 * const x = t.columns.get("x")!;
 * if (!(t.rows === 2 && x.kind === "number" && x.values[1] === 2)) throw new Error("example failed");
 * ```
 */
export class CsvColumnsReader {
  #kinds: ReadonlyMap<string, "number" | "string">;
  #header: string[] | null = null;
  #rows = 0;
  #capacity: number;
  #pieceBytes: number;
  /** Per header position: the builder of a wanted column, or null. */
  #builders: (ColumnBuilder | null)[] = [];
  #scan = newCsvScan();
  // As readFile's "utf8": a BOM is kept (the scan drops it at the start).
  #decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  /** Text not parsed yet: the record under way, then the pieces after it. */
  #pending: string[] = [];
  #pendingLength = 0;
  /** Parse again once this much text waits (a long record: see `#parse`). */
  #waitFor = 0;

  /**
   * A reader of the columns named in `kinds`; `capacity` rows are made room
   * for at the start, `pieceBytes` are decoded at a time (64 KiB).
   */
  constructor(
    kinds: ReadonlyMap<string, "number" | "string">,
    options: { capacity?: number; pieceBytes?: number } = {},
  ) {
    this.#kinds = kinds;
    this.#capacity = Math.max(1, options.capacity ?? 1024);
    this.#pieceBytes = options.pieceBytes ?? BYTES_PIECE;
  }

  /**
   * Parses the next bytes of the file (a piece of any size: it is decoded
   * a piece of at most 64 KiB at a time).
   *
   * @throws {CsvError} As {@link parseCsvColumns}.
   */
  push(bytes: Uint8Array): void {
    for (let at = 0; at < bytes.length;) {
      let end = Math.min(at + this.#pieceBytes, bytes.length);
      if (end < bytes.length) {
        // Cut after a line break (a whole UTF-8 character too): the piece's
        // text then ends its last record, unless a quoted field goes on, so
        // the next piece is parsed as it is decoded. A piece joined to the
        // rest of the one before is a copy of both, and garbage after.
        // Looked for in this piece only: searching `bytes` from `end` back
        // went on to the last LF before it, the whole file so far when it
        // has none (lone CR line ends), and parsing took quadratic time.
        const piece = bytes.subarray(at, end);
        let cut = piece.lastIndexOf(LF);
        if (cut < 0) cut = piece.lastIndexOf(CR); // lone CR line ends
        if (cut >= 0) end = at + cut + 1;
      }
      const text = this.#decoder.decode(bytes.subarray(at, end), {
        stream: true,
      });
      at = end;
      this.#pending.push(text);
      this.#pendingLength += text.length;
      if (this.#pendingLength >= this.#waitFor) this.#parse(true);
    }
  }

  /**
   * Ends the file: parses what is left and returns the columns.
   *
   * @throws {CsvError} As {@link parseCsvColumns} ("CSV is empty" when no
   *   header came).
   */
  end(): CsvColumns {
    const text = this.#decoder.decode();
    if (text !== "") this.#pending.push(text);
    this.#parse(false);
    return this.#finish();
  }

  /** The whole file as one text (nothing pushed before): its columns. */
  endWithText(text: string): CsvColumns {
    forEachRecord(text, this.#visit);
    return this.#finish();
  }

  #parse(partial: boolean): void {
    const p = this.#pending;
    const text = p.length === 1 ? p[0] : p.join("");
    const scan = this.#scan;
    scan.partial = partial;
    forEachRecord(text, this.#visit, scan);
    const rest = text.slice(scan.stop);
    this.#pending = rest === "" ? [] : [rest];
    this.#pendingLength = rest.length;
    // Nothing parsed (one record longer than the text so far): wait for
    // twice as much, so that a long record is scanned only a few times.
    this.#waitFor = scan.stop === 0 ? 2 * text.length : 0;
  }

  #visit = (record: string[], line: number): void => {
    if (this.#header === null) {
      const header = this.#header = columnNames(record);
      assertUniqueHeader(header, line);
      this.#builders = header.map((name) => {
        const kind = this.#kinds.get(name);
        return kind === undefined
          ? null
          : newBuilder(name, kind, this.#capacity);
      });
      return;
    }
    if (record.length !== this.#header.length) {
      throw fieldCountError(this.#header.length, record, line);
    }
    const builders = this.#builders;
    const row = this.#rows;
    if (row === this.#capacity) {
      this.#capacity *= 2;
      for (const b of builders) b?.grow(this.#capacity);
    }
    for (let j = 0; j < builders.length; j++) {
      const b = builders[j];
      if (b !== null) b.add(row, record[j], line);
    }
    this.#rows = row + 1;
  };

  #finish(): CsvColumns {
    const header = this.#header;
    if (header === null) throw emptyError();
    const columns = new Map<string, CsvColumn>();
    for (const b of this.#builders) {
      if (b) columns.set(b.name, b.finish(this.#rows));
    }
    return { header, rows: this.#rows, columns };
  }
}

interface ColumnBuilder {
  name: string;
  add(row: number, cell: string, line: number): void;
  grow(capacity: number): void;
  finish(rows: number): CsvColumn;
}

function newBuilder(
  name: string,
  kind: "number" | "string",
  capacity: number,
): ColumnBuilder {
  if (kind === "number") {
    let values = new Float64Array(capacity);
    return {
      name,
      add(row, cell, line) {
        if (cell === "") {
          values[row] = NaN;
          return;
        }
        const x = decimalNumber(cell);
        if (Number.isNaN(x)) throw new CsvValueError(name, cell, line);
        values[row] = x;
      },
      grow(c) {
        values = grown(values, new Float64Array(c));
      },
      finish: (rows) => ({ kind: "number", values: values.subarray(0, rows) }),
    };
  }
  let codes = new Uint32Array(capacity);
  const index = new Map<string, number>();
  const dictionary: string[] = [];
  return {
    name,
    add(row, cell) {
      if (cell === "") {
        codes[row] = 0;
        return;
      }
      let k = index.get(cell);
      if (k === undefined) {
        dictionary.push(cell);
        index.set(cell, k = dictionary.length);
      }
      codes[row] = k;
    },
    grow(c) {
      codes = grown(codes, new Uint32Array(c));
    },
    finish: (rows) => ({
      kind: "string",
      codes: codes.subarray(0, rows),
      dictionary,
    }),
  };
}

/** `next` (a larger typed array) holding a copy of `values` at its start. */
function grown<A extends Float64Array | Uint32Array>(values: A, next: A): A {
  next.set(values);
  return next;
}
