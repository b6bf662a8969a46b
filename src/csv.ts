/**
 * RFC 4180 CSV parsing for the local platform's ingestion step.
 *
 * Handles quoted fields, doubled quotes inside quotes, CRLF or LF (or lone CR)
 * record ends, newlines embedded in quoted fields and a leading UTF-8 BOM. The
 * scanner walks the text once by char code and slices unquoted fields straight
 * out of the input, so a ~1 MB file parses in a few milliseconds.
 *
 * @example
 * ```ts
 * import { parseCsv } from "./csv.ts";
 *
 * const { header, rows } = parseCsv('a,b\n1,"x, ""y"""\n');
 * if (!(header.join("|") === "a|b")) throw new Error("example failed");
 * if (!(rows[0][1] === 'x, "y"')) throw new Error("example failed");
 * ```
 *
 * @module
 */

/** A parsed CSV file: the header row and the data rows as strings. */
export interface CsvTable {
  /** Column names from the first record. */
  header: string[];
  /** Data records, each with exactly `header.length` fields; empty cell = `""`. */
  rows: string[][];
  /** For each data row, the 1-based physical line of the file where it starts (for error messages). */
  lines: number[];
}

/**
 * Thrown when the text is not valid CSV. `line` is the 1-based physical line of
 * the problem, so a user can open the file at that place and fix it.
 *
 * @example
 * ```ts
 * import { CsvError, parseCsv } from "./csv.ts";
 *
 * try {
 *   parseCsv('a,b\n1,"open\n');
 * } catch (e) {
 *   if (!(e instanceof CsvError && e.line === 2)) throw new Error("example failed");
 * }
 * ```
 */
export class CsvError extends Error {
  /** 1-based line number where the malformed record or field starts. */
  readonly line: number;
  /** Creates the error; the message already names the line. */
  constructor(message: string, line: number) {
    super(message);
    this.name = "CsvError";
    this.line = line;
  }
}

const QUOTE = 34; // "
const COMMA = 44; // ,
const LF = 10;
const CR = 13;

/**
 * The longest record (row) the parsers read, in characters: 16 Mi (its
 * text in the file, quotes and commas counted, its line break not). A table's
 * rows are far shorter (1,500 columns of short cells is a few KB); a record
 * this long is a file with no line breaks or a quote never closed, and
 * reading on would hold all of it (and its copies) in memory.
 *
 * @example
 * ```ts
 * import { CsvError, MAX_RECORD_CHARS, parseCsv } from "./csv.ts";
 * try {
 *   parseCsv("a\n" + "x".repeat(MAX_RECORD_CHARS + 1) + "\n");
 *   throw new Error("read");
 * } catch (e) {
 *   if (!(e instanceof CsvError && e.line === 2 && e.message.includes("more than"))) throw e;
 * }
 * ```
 */
export const MAX_RECORD_CHARS = 16 * 1024 * 1024;

/**
 * A record longer than {@linkcode MAX_RECORD_CHARS}, starting on `line`:
 * the error every parser throws for it.
 *
 * @example
 * ```ts
 * import { recordTooLong } from "./csv.ts";
 * const e = recordTooLong(7, 20_000_000);
 * if (!(e.line === 7 && e.message.includes("line 7"))) throw new Error(e.message);
 * ```
 */
export function recordTooLong(line: number, chars: number): CsvError {
  return new CsvError(
    `CSV line ${line}: a record (row) of more than ${
      MAX_RECORD_CHARS.toLocaleString("en-US")
    } characters (${
      chars.toLocaleString("en-US")
    } read); rows are not this long in a table: check that the file is CSV with a line break after each row, and that no quoted field is left open (everything after an open quote reads as one field).`,
    line,
  );
}

/**
 * Parses RFC 4180 CSV text into a header and string rows.
 *
 * Row orientation is kept (rather than columns) because ingestion converts
 * each cell by its schema type anyway and rows keep error reporting simple.
 * Completely blank lines are skipped when the header has more than one column
 * (a blank line there can only be an editing accident); a trailing newline is
 * allowed. Every record must have as many fields as the header.
 *
 * @param text The whole file as a string (a leading BOM is ignored).
 * @returns The header, the data rows and the line each row starts on.
 * @throws {CsvError} On an unterminated quote, a stray quote in an unquoted
 *   field, text after a closing quote, an empty file or a wrong field count;
 *   the message names the line.
 *
 * @example
 * ```ts
 * import { parseCsv } from "./csv.ts";
 *
 * const t = parseCsv('\uFEFFname,note\r\nann,"two\r\nlines"\r\nbob,\r\n');
 * if (!(t.rows.length === 2)) throw new Error("example failed");
 * if (!(t.rows[0][1] === "two\r\nlines")) throw new Error("example failed");
 * if (!(t.rows[1][1] === "")) throw new Error("example failed");
 * if (!(t.lines[1] === 4)) throw new Error("example failed");
 * ```
 */
export function parseCsv(text: string): CsvTable {
  const records: string[][] = [];
  const starts: number[] = [];
  let width = -1;
  forEachRecord(text, (record, line) => {
    if (width < 0) width = record.length;
    else if (record.length !== width) {
      throw fieldCountError(width, record, line);
    }
    records.push(record.slice());
    starts.push(line);
  });
  if (records.length === 0) throw emptyError();
  const header = columnNames(records[0]);
  assertUniqueHeader(header, starts[0]);
  return { header, rows: records.slice(1), lines: starts.slice(1) };
}

/**
 * A header record's column names, trimmed: `age, income` names `income`,
 * as a schema field (whose name is trimmed) calls it.
 *
 * @example
 * ```ts
 * import { columnNames } from "./csv.ts";
 * if (columnNames(["age", " income "]).join() !== "age,income") throw new Error("example failed");
 * ```
 */
export function columnNames(record: readonly string[]): string[] {
  return record.map((name) => name.trim());
}

/**
 * Refuses a header naming a column twice: which of the two a schema field
 * means is unsaid (ingestion used to take the first, the columnar reader the
 * last, inference made two fields of one name). Empty names are left alone:
 * spreadsheets export unnamed trailing columns as `a,b,,`, and no field can
 * name them.
 *
 * @param header The header record.
 * @param line The line it starts on.
 * @throws {CsvError} Naming the first column that appears twice.
 *
 * @example
 * ```ts
 * import { assertUniqueHeader, CsvError } from "./csv.ts";
 *
 * assertUniqueHeader(["a", "b", "", ""], 1);
 * try {
 *   assertUniqueHeader(["a", "b", "a"], 1);
 *   throw new Error("example failed");
 * } catch (e) {
 *   if (!(e instanceof CsvError && e.message.includes("'a' appears twice"))) throw e;
 * }
 * ```
 */
export function assertUniqueHeader(
  header: readonly string[],
  line: number,
): void {
  const seen = new Map<string, number>();
  for (let j = 0; j < header.length; j++) {
    const name = header[j];
    if (name === "") continue;
    const first = seen.get(name);
    if (first !== undefined) {
      throw new CsvError(
        `CSV line ${line}: column '${name}' appears twice in the header (fields ${
          first + 1
        } and ${j + 1}); rename one so each column has its own name.`,
        line,
      );
    }
    seen.set(name, j);
  }
}

/**
 * The number a CSV cell (or a string sent for a number) holds, or NaN when
 * it holds none: a finite decimal number, surrounding spaces allowed.
 * `Number()` alone also reads `0x10`, `0b11` and `0o7` (as 16, 3 and 7): no
 * CSV writer means those as numbers and schema inference calls such a column
 * text, so ingestion and views refuse them too rather than store 16.
 *
 * @param cell The cell's text.
 * @returns The number, or NaN (empty, not decimal, or not finite).
 *
 * @example
 * ```ts
 * import { decimalNumber } from "./csv.ts";
 *
 * if (!(decimalNumber(" 1.5e3 ") === 1500 && decimalNumber("010") === 10)) throw new Error("example failed");
 * if (!["0x10", "0b11", "0o7", "", "Infinity", "1_000"].every((c) => Number.isNaN(decimalNumber(c)))) throw new Error("example failed");
 * ```
 */
export function decimalNumber(cell: string): number {
  const t = cell.trim();
  if (t === "") return NaN;
  if (t.length > 2 && t.charCodeAt(0) === 48) { // "0x", "0b", "0o", any case
    const c = t.charCodeAt(1) | 32;
    if (c === 120 || c === 98 || c === 111) return NaN;
  }
  const x = Number(t);
  return Number.isFinite(x) ? x : NaN;
}

/** The error of a text with no header. */
export function emptyError(): CsvError {
  return new CsvError(
    "CSV is empty: expected a header line with column names.",
    1,
  );
}

/** The error of a record not as wide as the header. */
export function fieldCountError(
  width: number,
  record: string[],
  line: number,
): CsvError {
  return new CsvError(
    `CSV line ${line}: expected ${width} fields like the header, found ${record.length}; check for a missing or extra comma or an unquoted comma.`,
    line,
  );
}

/** A CSV text scanned piece by piece ({@link scanCsvRows}). */
export interface CsvScan {
  /** The piece starts the text (a BOM there is dropped). */
  start: boolean;
  /** The line the piece starts on; after a scan: the line of `stop`. */
  line: number;
  /** Fields of the text's first record (-1 before it). */
  first: number;
  /** The header, once read. */
  header: string[] | null;
  /** More text follows: a record the piece may not end is left unparsed. */
  partial: boolean;
  /** After a scan: where the piece's unparsed rest starts. */
  stop: number;
}

/**
 * A {@link CsvScan} at the start of a text, before its first piece.
 *
 * @example
 * ```ts
 * import { newCsvScan } from "./csv.ts";
 * const scan = newCsvScan();
 * if (!(scan.start && scan.line === 1 && scan.header === null && scan.partial)) throw new Error("example failed");
 * ```
 */
export function newCsvScan(): CsvScan {
  return {
    start: true,
    line: 1,
    first: -1,
    header: null,
    partial: true,
    stop: 0,
  };
}

/**
 * The data records of a CSV text, or of one piece of it after another (the
 * piece after one starts at its `scan.stop`): by the rules of {@link
 * parseCsvColumns}, with its errors, lines counted over the whole text. The
 * first record is the header (`scan.header`, names trimmed, none twice);
 * every later one must be as wide. Only the record under way crosses pieces.
 *
 * @param onRow Gets each data record (the same array, refilled) and its line.
 * @throws {CsvError} As {@link parseCsvColumns}; "CSV is empty" when the
 *   last piece (`partial` false) ends without a header.
 *
 * @example
 * ```ts
 * import { newCsvScan, scanCsvRows } from "./csv.ts";
 * const scan = newCsvScan();
 * const rows: string[] = [];
 * let text = "";
 * for (const piece of ['a,b\r', '\n1,"x', '\ny"\r\n2,', "z"]) {
 *   text = text.slice(scan.stop) + piece;
 *   scanCsvRows(text, (r, line) => rows.push(`${line}:${r.join("|")}`), scan);
 * }
 * scan.partial = false;
 * scanCsvRows(text.slice(scan.stop), (r, line) => rows.push(`${line}:${r.join("|")}`), scan);
 * if (rows.join() !== "2:1|x\ny,4:2|z" || scan.header?.join() !== "a,b") throw new Error(rows.join());
 * ```
 */
export function scanCsvRows(
  text: string,
  onRow: (record: string[], line: number) => void,
  scan: CsvScan,
): void {
  forEachRecord(text, (record, line) => {
    const header = scan.header;
    if (header === null) {
      assertUniqueHeader(scan.header = columnNames(record), line);
    } else if (record.length !== header.length) {
      throw fieldCountError(header.length, record, line);
    } else onRow(record, line);
  }, scan);
  if (!scan.partial && scan.header === null) throw emptyError();
}

/**
 * The scanner behind {@link parseCsv} and `parseCsvColumns` (./csv_columns.ts): calls
 * `visit` with every record (the same array, refilled: copy it to keep it)
 * and the line it starts on. Blank lines are skipped when the first record
 * has more than one field. With `scan`, the text is one piece of a longer
 * text (see {@link CsvScan}).
 */
export function forEachRecord(
  text: string,
  visit: (record: string[], line: number) => void,
  scan?: CsvScan,
): void {
  const n = text.length;
  const partial = scan?.partial === true;
  let i = (scan?.start ?? true) && text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = scan?.line ?? 1;
  let first = scan?.first ?? -1;
  const record: string[] = [];
  // Where the record under way starts, and its line.
  let recordStart = i;
  let recordLine = line;
  let incomplete = true;
  // Where the text of the record under way is known to end, when a piece
  // stops inside it (a CR last in a piece ends it: not its text).
  let readTo = n;
  // Where the text of the record just read ends (its line break follows).
  let recordEnd = i;

  records: for (;;) {
    if (i >= n) {
      incomplete = false;
      break;
    }
    recordStart = i;
    recordLine = line;
    record.length = 0;
    // Parse one record: fields separated by commas, ended by a newline or EOF.
    for (;;) {
      let field: string;
      if (i < n && text.charCodeAt(i) === QUOTE) {
        const quoteLine = line;
        i++;
        let out = "";
        let from = i;
        for (;;) {
          const q = text.indexOf('"', i);
          if (q < 0) {
            if (partial) break records;
            throw new CsvError(
              `CSV line ${quoteLine}: quoted field is never closed; add the closing '"' (quotes inside a field are written as "").`,
              quoteLine,
            );
          }
          // Count newlines inside the quoted part so later line numbers stay right.
          for (let k = i; k < q; k++) {
            const c = text.charCodeAt(k);
            if (c === LF || (c === CR && text.charCodeAt(k + 1) !== LF)) line++;
          }
          if (text.charCodeAt(q + 1) === QUOTE) {
            out += text.slice(from, q + 1);
            i = q + 2;
            from = i;
            continue;
          }
          // A quote last may be the first of a doubled quote.
          if (partial && q + 1 === n) break records;
          out += text.slice(from, q);
          i = q + 1;
          break;
        }
        field = out;
        const c = i < n ? text.charCodeAt(i) : -1;
        if (c !== COMMA && c !== LF && c !== CR && c !== -1) {
          throw new CsvError(
            `CSV line ${line}: unexpected text after a closing quote; a quoted field must end at a comma or line end.`,
            line,
          );
        }
      } else {
        const from = i;
        while (i < n) {
          const c = text.charCodeAt(i);
          if (c === COMMA || c === LF || c === CR) break;
          if (c === QUOTE) {
            throw new CsvError(
              `CSV line ${line}: a '"' inside an unquoted field; quote the whole field and double the inner quotes.`,
              line,
            );
          }
          i++;
        }
        // The field may go on in the next piece.
        if (partial && i === n) break records;
        field = text.slice(from, i);
      }
      record.push(field);
      if (i < n && text.charCodeAt(i) === COMMA) {
        i++;
        continue;
      }
      // Record end: CRLF, LF, lone CR or EOF.
      recordEnd = i;
      if (i < n) {
        if (text.charCodeAt(i) === CR) {
          if (text.charCodeAt(i + 1) === LF) i++;
          // An LF may follow in the next piece.
          else if (partial && i + 1 === n) {
            readTo = i;
            break records;
          }
        }
        i++;
        line++;
      }
      break;
    }
    // A record's length is its text's, its line break not counted.
    const chars = recordEnd - recordStart;
    if (chars > MAX_RECORD_CHARS) throw recordTooLong(recordLine, chars);
    const blank = record.length === 1 && record[0] === "";
    if (blank && (first < 0 || first > 1)) continue;
    if (first < 0) first = record.length;
    visit(record, recordLine);
  }
  // The record under way goes on with the next piece: not past the cap.
  if (incomplete && readTo - recordStart > MAX_RECORD_CHARS) {
    throw recordTooLong(recordLine, readTo - recordStart);
  }
  if (scan) {
    // Stopped inside a record: it starts again, whole, with the next piece.
    scan.stop = incomplete ? recordStart : n;
    scan.line = incomplete ? recordLine : line;
    scan.first = first;
    if (scan.stop > 0) scan.start = false;
  }
}
