/**
 * Ingestion parses a file's bytes a piece at a time (src/csv.ts
 * `parseCsvColumns` of a `Uint8Array`): no text of the whole file is made, so
 * a file may be larger than the longest string the engine holds. Whatever
 * the piece size, cut inside a multi-byte character, a CRLF, a doubled quote
 * or a quoted line break, the columns (or the error) are those of the whole
 * text. And every parser refuses a record longer than `MAX_RECORD_CHARS`
 * before it holds more of it, naming its line.
 */
import { assertEquals, assertRejects, assertThrows } from "@std/assert";
import { CsvError, MAX_RECORD_CHARS, parseCsv } from "../src/csv.ts";
import { parseCsvColumns } from "../src/csv_columns.ts";
import { CsvRecordParser } from "../src/local/jobs/csv_stream.ts";
import { createRng } from "../src/local/model/rng.ts";
import { tallyCsv } from "../src/infer/csv_source.ts";
import { randomCsv } from "./_helpers/random_csv.ts";

/** The columns as plain data, or the error as its class and message. */
function read(
  input: string | Uint8Array,
  kinds: Map<string, "number" | "string">,
  piece?: number,
) {
  try {
    const t = parseCsvColumns(input, kinds, piece);
    return {
      header: t.header,
      rows: t.rows,
      columns: [...t.columns].map(([name, c]) =>
        c.kind === "number"
          ? [name, Array.from(c.values, (v) => Number.isNaN(v) ? "NaN" : v)]
          : [name, c.dictionary, Array.from(c.codes)]
      ),
    };
  } catch (e) {
    return { error: e instanceof Error ? `${e.name}: ${e.message}` : e };
  }
}

Deno.test("csv pieces: random texts read from their bytes in pieces of any size give the whole text's columns or error", () => {
  const random = createRng(20261129);
  for (let t = 0; t < 300; t++) {
    const text = randomCsv(random);
    const bytes = new TextEncoder().encode(text);
    // Every name a string column, or the first a number column (so that a
    // cell that is not a number is compared too).
    const names = ["a", "b", "c", "y", "d", "e"];
    const kinds = new Map(
      names.map((n, j) => [n, j === 0 && t % 2 ? "number" : "string"] as const),
    );
    const expected = read(text, kinds);
    for (const piece of [1, 2, 3, 5, 7, 16, 64, 1 << 20]) {
      assertEquals(
        read(bytes, kinds, piece),
        expected,
        `${JSON.stringify(text)}, pieces of ${piece}`,
      );
    }
  }
});

Deno.test("csv pieces: a record longer than MAX_RECORD_CHARS is refused by every parser, naming its line", () => {
  const long = "x".repeat(MAX_RECORD_CHARS + 10);
  const text = `a,b\n1,2\n3,${long}\n5,6\n`;
  const said =
    /CSV line 3: a record \(row\) of more than 16,777,216 characters/;
  for (
    const f of [
      () => parseCsv(text),
      () => parseCsvColumns(text, new Map([["a", "number"]])),
      () =>
        parseCsvColumns(
          new TextEncoder().encode(text),
          new Map([["a", "number"]]),
        ),
      () => {
        const parser = new CsvRecordParser();
        for (let i = 0; i < text.length; i += 1 << 16) {
          parser.push(text.slice(i, i + (1 << 16)), () => {});
        }
        parser.end(() => {});
      },
    ]
  ) {
    const e = assertThrows(f, CsvError);
    assertEquals(said.test(e.message), true, e.message);
    assertEquals(e.line, 3);
  }
});

Deno.test("csv pieces: a record that never ends (a quote left open, no line breaks) is refused once past the cap, not at the end of the file", async () => {
  // Pieces as batch views and schema inference read them: the error comes
  // while the record is under way, so no more than the cap is ever held.
  const piece = new TextEncoder().encode("y".repeat(1 << 16));
  const pieces = MAX_RECORD_CHARS / piece.length;
  for (const head of ['a,b\n1,"', "a,b\n"]) {
    const parser = new CsvRecordParser();
    const text = new TextDecoder().decode(piece);
    let pushed = 0;
    const e = assertThrows(() => {
      parser.push(head, () => {});
      for (; pushed < 4 * pieces; pushed++) parser.push(text, () => {});
    }, CsvError);
    assertEquals([e.line, pushed <= pieces + 1], [2, true], `${pushed}`);
    // Schema inference's reader, over a stream that never ends by itself.
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      start: (c) => c.enqueue(new TextEncoder().encode(head)),
      pull: (c) => {
        if (++pulled > 4 * pieces) c.close();
        else c.enqueue(piece);
      },
    });
    const e2 = await assertRejects(
      () => tallyCsv(stream, () => ({ target: false })),
      CsvError,
    );
    assertEquals([e2.line, pulled <= 2 * pieces + 2], [2, true], `${pulled}`);
  }
});

Deno.test("csv pieces: a record of exactly MAX_RECORD_CHARS characters (its quotes and commas counted, its line break not) is read by every reader, one more is refused", async () => {
  // Before: the batch parser counted a field twice at its comma or line
  // end (a record of half the cap was refused) and a quoted field without
  // its quotes; the others counted the line break (a record of exactly the
  // cap was refused after an LF, one a character shorter after a CRLF).
  const M = MAX_RECORD_CHARS;
  // Slices of one long string (made once); quoted but one, as the parsers
  // skip through quotes fast.
  const xs = "x".repeat(M + 1);
  const x = (n: number) => xs.slice(0, n);
  const records = (d: number) => [
    ["LF", x(M + d), "\n"],
    ["CRLF, a doubled quote", `"${x(M + d - 4)}"""`, "\r\n"],
    ["lone CR, two fields", `"${x(M + d - 4)}",y`, "\r"],
    // Read by every reader before; one more was not refused by the batch
    // parser.
    ...(d ? [["no line break at the end", `"${x(M + d - 2)}"`, ""]] : []),
  ];
  const batch = (text: string) => {
    const parser = new CsvRecordParser();
    for (let i = 0; i < text.length; i += 1 << 20) {
      parser.push(text.slice(i, i + (1 << 20)), () => {});
    }
    parser.end(() => {});
  };
  type Read = (text: string) => unknown;
  // parseCsv stands for the readers built on its scanner (ingestion's too),
  // which the batch parser is not; inference reads the CRLF record in
  // pieces, one of them ending between its CR and its LF.
  const readers = (k: number): [string, Read][] => [
    ...(k === 0 ? [["parseCsv", parseCsv] as [string, Read]] : []),
    ["batch views", batch],
    ...(k === 1
      ? [[
        "schema inference, a piece ending with the CR",
        (text: string) =>
          tallyCsv({ csv: text }, () => undefined, text.length - 1),
      ] as [string, Read]]
      : []),
  ];
  for (const d of [0, 1]) {
    for (const [k, [name, record, eol]] of records(d).entries()) {
      const header = record.endsWith(",y") ? "a,b" : "a";
      const text = `${header}${eol || "\n"}${record}${eol}`;
      for (const [reader, read] of readers(k)) {
        const said = `${reader}: ${name}, ${
          d ? "one more" : "exactly the cap"
        }`;
        let error: unknown;
        try {
          await read(text);
        } catch (e) {
          error = e;
        }
        if (d === 0) assertEquals(error, undefined, said);
        else {
          assertEquals(error instanceof CsvError && error.line, 2, said);
          const count = `(${(M + 1).toLocaleString("en-US")} read)`;
          assertEquals(
            (error as Error).message.includes(count),
            true,
            `${said}: ${(error as Error).message.slice(0, 100)}`,
          );
        }
      }
    }
  }
});

Deno.test("csv pieces: a file with lone CR line ends (no LF at all) reads as its LF twin, looking at each byte a bounded number of times", () => {
  // Before, each piece looked for its last LF from its end back through
  // the whole file read so far: none in a lone-CR file, so the work grew
  // with the square of its size (a 64 MB file: 19 s, against 3 s with LF).
  // Counted, not timed: the bytes' lastIndexOf says how far it looked.
  let looked = 0;
  class Counted extends Uint8Array {
    override lastIndexOf(value: number, from = this.length - 1): number {
      const at = super.lastIndexOf(value, from);
      looked += from - at;
      return at;
    }
  }
  const rows = ["a,b"];
  for (let i = 0; rows.length < 20_000; i++) rows.push(`${i % 997},c${i % 7}`);
  const kinds = new Map([["a", "number"], ["b", "string"]] as const);
  const parsed = (eol: string) => {
    const text = new TextEncoder().encode(rows.join(eol) + eol);
    const bytes = new Counted(text.length);
    bytes.set(text);
    looked = 0;
    return { t: read(bytes, new Map(kinds), 64), looked, size: text.length };
  };
  const lf = parsed("\n"), cr = parsed("\r");
  assertEquals(cr.t, lf.t);
  assertEquals(cr.t.rows, 19_999);
  // Each piece looks back within itself only (CR: for an LF, then a CR).
  for (const { looked, size } of [lf, cr]) {
    assertEquals(
      looked <= 2 * size,
      true,
      `${looked} bytes looked at for ${size}`,
    );
  }
});
