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

function emptyError(): CsvError {
  return new CsvError(
    "CSV is empty: expected a header line with column names.",
    1,
  );
}

function fieldCountError(
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
 * import { type CsvScan, scanCsvRows } from "./csv.ts";
 * const scan: CsvScan = { start: true, line: 1, first: -1, header: null, partial: true, stop: 0 };
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
 * The scanner behind {@link parseCsv} and {@link parseCsvColumns}: calls
 * `visit` with every record (the same array, refilled: copy it to keep it)
 * and the line it starts on. Blank lines are skipped when the first record
 * has more than one field. With `scan`, the text is one piece of a longer
 * text (see {@link CsvScan}).
 */
function forEachRecord(
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
      if (i < n) {
        if (text.charCodeAt(i) === CR) {
          if (text.charCodeAt(i + 1) === LF) i++;
          // An LF may follow in the next piece.
          else if (partial && i + 1 === n) break records;
        }
        i++;
        line++;
      }
      break;
    }
    const blank = record.length === 1 && record[0] === "";
    if (blank && (first < 0 || first > 1)) continue;
    if (first < 0) first = record.length;
    visit(record, recordLine);
  }
  if (scan) {
    // Stopped inside a record: it starts again, whole, with the next piece.
    scan.stop = incomplete ? recordStart : n;
    scan.line = incomplete ? recordLine : line;
    scan.first = first;
    if (scan.stop > 0) scan.start = false;
  }
}

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
 * import { CsvValueError, parseCsvColumns } from "./csv.ts";
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
 * @param text The whole file as a string (a leading BOM is ignored).
 * @param kinds The wanted columns and their kind.
 * @throws {CsvError} As {@link parseCsv}; {@link CsvValueError} for a cell
 *   of a number column that is not a number.
 *
 * @example
 * ```ts
 * import { parseCsvColumns } from "./csv.ts";
 *
 * const t = parseCsvColumns("x,c,skip\n1.5,a,z\n,b,z\n2,a,z\n", new Map([["x", "number"], ["c", "string"]]));
 * const x = t.columns.get("x")!, c = t.columns.get("c")!;
 * if (!(t.rows === 3 && x.kind === "number" && Number.isNaN(x.values[1]) && x.values[2] === 2)) throw new Error("example failed");
 * if (!(c.kind === "string" && c.dictionary.join() === "a,b" && Array.from(c.codes).join() === "1,2,1")) throw new Error("example failed");
 * ```
 */
export function parseCsvColumns(
  text: string,
  kinds: ReadonlyMap<string, "number" | "string">,
): CsvColumns {
  let header: string[] | null = null;
  let rows = 0;
  // Sized once from the line breaks (records <= lines), so the columns are
  // not regrown (and copied) while parsing a large file.
  const breaks = (c: string) => {
    let k = 1;
    for (let i = text.indexOf(c); i >= 0; i = text.indexOf(c, i + 1)) k++;
    return k;
  };
  let capacity = breaks("\n");
  if (capacity === 1) capacity = breaks("\r"); // lone CR line ends
  // Per header position: the builder of a wanted column, or null.
  let builders: (ColumnBuilder | null)[] = [];
  forEachRecord(text, (record, line) => {
    if (header === null) {
      header = columnNames(record);
      assertUniqueHeader(header, line);
      builders = header.map((name) => {
        const kind = kinds.get(name);
        return kind === undefined ? null : newBuilder(name, kind, capacity);
      });
      return;
    }
    if (record.length !== header.length) {
      throw fieldCountError(header.length, record, line);
    }
    if (rows === capacity) {
      capacity *= 2;
      for (const b of builders) b?.grow(capacity);
    }
    for (let j = 0; j < builders.length; j++) {
      const b = builders[j];
      if (b !== null) b.add(rows, record[j], line);
    }
    rows++;
  });
  if (header === null) throw emptyError();
  const columns = new Map<string, CsvColumn>();
  for (const b of builders) if (b) columns.set(b.name, b.finish(rows));
  return { header, rows, columns };
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
