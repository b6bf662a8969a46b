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
