/**
 * RFC 4180 CSV records from text that arrives in pieces: the parser keeps
 * only the record under way between pieces, so a file of any size is read
 * with the memory of one piece (batch views stream their input this way;
 * ingestion parses a whole file with `src/csv.ts`). Quoted fields may hold
 * commas, doubled quotes and newlines, and may be split across pieces;
 * records end with LF, CRLF or a lone CR; a leading BOM is dropped; blank
 * lines are skipped, except in a file of one column, where a blank line is
 * a row whose cell is empty (src/csv.ts's rules, lines counted as it counts
 * them). A record longer than `MAX_RECORD_CHARS` (src/csv.ts) is an error,
 * so one endless line cannot take the memory.
 *
 * @example
 * ```ts
 * import { CsvRecordParser } from "./csv_stream.ts";
 * const records: string[][] = [];
 * const parser = new CsvRecordParser();
 * for (const piece of ['id,no', 'te\n1,"a, ""b', '"""\r\n2,\n']) {
 *   parser.push(piece, (r) => records.push([...r]));
 * }
 * parser.end((r) => records.push([...r]));
 * if (JSON.stringify(records) !== '[["id","note"],["1","a, \\"b\\""],["2",""]]') {
 *   throw new Error(JSON.stringify(records));
 * }
 * ```
 *
 * @module
 */
import { CsvError, MAX_RECORD_CHARS, recordTooLong } from "../../csv.ts";

const QUOTE = 34;
const COMMA = 44;
const LF = 10;
const CR = 13;

/** Where the parser is within a record. */
const State = {
  /** At the start of a field. */
  FieldStart: 0,
  /** Inside an unquoted field. */
  Unquoted: 1,
  /** Inside a quoted field. */
  Quoted: 2,
  /** Just after a quote inside a quoted field (an escape or the end). */
  QuoteSeen: 3,
  /** Just after a CR that ended a record (an LF may follow). */
  AfterCr: 4,
} as const;
type State = typeof State[keyof typeof State];

/** Receives each record (a new array each time) and the 1-based line it starts on. */
export type RecordSink = (record: string[], line: number) => void;

/** An incremental RFC 4180 parser: `push` pieces of text, then `end`. */
export class CsvRecordParser {
  #state: State = State.FieldStart;
  #field = "";
  #record: string[] = [];
  #line = 1;
  #recordLine = 1;
  #started = false;
  /**
   * Characters of the record under way in the file, in fields already
   * ended (their quotes and commas counted).
   */
  #recordChars = 0;
  /** Characters of the field under way in the file that are not in `#field` (its quotes). */
  #quotes = 0;
  /** The field under way's text so far ends with a CR (inside quotes). */
  #afterCr = false;
  /** Fields of the first record (-1 before it): one, and a blank line is a row. */
  #first = -1;

  /**
   * Parses one more piece of text, calling `sink` for every record it
   * completes.
   *
   * @throws {CsvError} On a stray quote in an unquoted field or text after
   * a closing quote, naming the line.
   *
   * @example
   * ```ts
   * import { CsvRecordParser } from "./csv_stream.ts";
   * let n = 0;
   * new CsvRecordParser().push("a\nb\n", () => n++);
   * if (n !== 2) throw new Error();
   * ```
   */
  push(text: string, sink: RecordSink): void {
    let i = 0;
    if (!this.#started && text.length > 0) {
      this.#started = true;
      if (text.charCodeAt(0) === 0xfeff) i = 1;
    }
    const n = text.length;
    while (i < n) {
      switch (this.#state) {
        case State.AfterCr:
          if (text.charCodeAt(i) === LF) i++;
          this.#state = State.FieldStart;
          break;
        case State.FieldStart: {
          const c = text.charCodeAt(i);
          if (c === QUOTE) {
            this.#state = State.Quoted;
            this.#quotes++;
            this.#afterCr = false;
            i++;
          } else if (c === LF || c === CR) {
            // An empty last field, or a blank line (a record of one empty
            // field: `#emit` skips it, as src/csv.ts does).
            this.#record.push("");
            this.#emit(sink);
            this.#line++;
            this.#recordLine = this.#line;
            this.#state = c === CR ? State.AfterCr : State.FieldStart;
            i++;
          } else if (c === COMMA) {
            this.#record.push("");
            if (++this.#recordChars > MAX_RECORD_CHARS) this.#checkLength();
            i++;
          } else {
            this.#state = State.Unquoted;
          }
          break;
        }
        case State.Unquoted: {
          const start = i;
          let c = 0;
          while (i < n) {
            c = text.charCodeAt(i);
            if (c === COMMA || c === LF || c === CR) break;
            if (c === QUOTE) {
              throw new CsvError(
                `line ${this.#line}: a quote inside an unquoted field; quote the whole field and double the quotes inside it`,
                this.#line,
              );
            }
            i++;
          }
          this.#field += text.slice(start, i);
          if (i === n) return this.#checkLength(); // goes on in the next piece
          this.#endDelimiter(c, sink);
          i++;
          break;
        }
        case State.Quoted: {
          const j = text.indexOf('"', i);
          const end = j < 0 ? n : j;
          const piece = text.slice(i, end);
          // Line breaks inside the quotes: CRLF, LF or a lone CR, as
          // src/csv.ts counts them (a CR last in a piece may meet its LF
          // at the start of the next).
          for (
            let k = piece.indexOf("\n");
            k >= 0;
            k = piece.indexOf("\n", k + 1)
          ) {
            if (k > 0 || !this.#afterCr) this.#line++;
          }
          for (
            let k = piece.indexOf("\r");
            k >= 0;
            k = piece.indexOf("\r", k + 1)
          ) {
            if (piece.charCodeAt(k + 1) !== LF) this.#line++;
          }
          if (piece !== "") {
            this.#afterCr = piece.charCodeAt(piece.length - 1) === CR;
          }
          this.#field += piece;
          if (j < 0) return this.#checkLength();
          i = j + 1;
          this.#quotes++;
          this.#state = State.QuoteSeen;
          break;
        }
        case State.QuoteSeen: {
          const c = text.charCodeAt(i);
          if (c === QUOTE) {
            // A doubled quote: one quote of the field's text.
            this.#field += '"';
            this.#afterCr = false;
            this.#state = State.Quoted;
          } else if (c === COMMA || c === LF || c === CR) {
            this.#endDelimiter(c, sink);
          } else {
            throw new CsvError(
              `line ${this.#line}: text after a closing quote; a quoted field must end at a comma or the end of the line`,
              this.#line,
            );
          }
          i++;
          break;
        }
      }
    }
  }

  /**
   * Ends the input, emitting the last record if the text did not end with
   * a newline.
   *
   * @throws {CsvError} On a quoted field that never closes.
   *
   * @example
   * ```ts
   * import { CsvRecordParser } from "./csv_stream.ts";
   * const p = new CsvRecordParser();
   * let last: string[] = [];
   * p.push("a,b\n1,2", () => {});
   * p.end((r) => (last = [...r]));
   * if (last.join() !== "1,2") throw new Error();
   * ```
   */
  end(sink: RecordSink): void {
    if (this.#state === State.Quoted) {
      throw new CsvError(
        `line ${this.#recordLine}: a quoted field is never closed; add the closing quote`,
        this.#recordLine,
      );
    }
    if (
      this.#state === State.Unquoted || this.#state === State.QuoteSeen ||
      this.#record.length > 0
    ) {
      this.#checkLength();
      this.#record.push(this.#field);
      this.#field = "";
      this.#emit(sink);
    }
    this.#state = State.FieldStart;
  }

  /**
   * The record under way is not past {@linkcode MAX_RECORD_CHARS}: its
   * characters in the file so far (quotes and commas counted, its line
   * break not), as src/csv.ts counts them.
   */
  #checkLength(): void {
    const chars = this.#recordChars + this.#field.length + this.#quotes;
    if (chars > MAX_RECORD_CHARS) throw recordTooLong(this.#recordLine, chars);
  }

  /** The field ends at `c` (a comma or a record end). */
  #endDelimiter(c: number, sink: RecordSink): void {
    this.#checkLength();
    this.#recordChars += this.#field.length + this.#quotes;
    this.#quotes = 0;
    this.#record.push(this.#field);
    this.#field = "";
    if (c === COMMA) {
      // The comma is the record's too.
      if (++this.#recordChars > MAX_RECORD_CHARS) this.#checkLength();
      this.#state = State.FieldStart;
      return;
    }
    this.#emit(sink);
    this.#line++;
    this.#recordLine = this.#line;
    this.#state = c === CR ? State.AfterCr : State.FieldStart;
  }

  #emit(sink: RecordSink): void {
    const record = this.#record;
    this.#record = [];
    this.#recordChars = 0;
    this.#quotes = 0;
    // A blank line (or `""` alone) is skipped unless the first record has
    // one field, where it is a row whose cell is empty: src/csv.ts's rule.
    const blank = record.length === 1 && record[0] === "";
    if (blank && this.#first !== 1) return;
    if (this.#first < 0) this.#first = record.length;
    sink(record, this.#recordLine);
  }
}

/**
 * Quotes a CSV field when it must be (a comma, quote, CR or LF inside, or
 * leading or trailing spaces that a reader could trim).
 *
 * @example
 * ```ts
 * import { csvField } from "./csv_stream.ts";
 * if (csvField('a "b"') !== '"a ""b"""' || csvField("x") !== "x") throw new Error();
 * ```
 */
export function csvField(value: string): string {
  return /[",\r\n]|^\s|\s$/.test(value)
    ? `"${value.replaceAll('"', '""')}"`
    : value;
}
