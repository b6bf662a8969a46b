/**
 * Schema inference reads a CSV piece by piece (src/infer/csv_source.ts):
 * whatever the piece size and the source (text, Blob, gzipped Blob, file on
 * disk), each column's report, or the error, is the one inference gave when
 * it parsed the whole text at once. `whole()` below is that reading, kept
 * here as the reference: the header parsed alone, then `parseCsvColumns` of
 * the text into dictionary codes, counted per distinct cell.
 */
import { assert, assertEquals, assertRejects } from "@std/assert";
import { CsvError, parseCsv } from "../src/csv.ts";
import { type CsvStringColumn, parseCsvColumns } from "../src/csv_columns.ts";
import {
  type ColumnReport,
  type InferColumnOptions,
  inferCountedColumn,
} from "../src/infer/columns.ts";
import { tallyCsv } from "../src/infer/csv_source.ts";
import { inferSchema } from "../src/infer/infer.ts";
import { randomCsv } from "./_helpers/random_csv.ts";
import { ValidationError } from "../src/http/errors.ts";

type OptionsOf = (name: string) => InferColumnOptions | undefined;

/** What a report says that a schema shows (not the bounded `distinct`). */
const shown = (r: ColumnReport | null) =>
  r && { name: r.name, type: r.type, missing: r.missing, note: r.note };

/** The error as a string, class and message. */
const said = (e: unknown) =>
  e instanceof Error ? `${e.name}: ${e.message}` : `thrown: ${String(e)}`;

/** End of the header record (as inference found it before). */
function headerEnd(text: string): number {
  let quoted = false;
  let start = 0;
  while (start < text.length && /[\r\n\uFEFF]/.test(text[start])) start++;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === "\n" || c === "\r")) return i;
  }
  return text.length;
}

/** The reference: inference's reading of the whole text, as it was. */
function whole(text: string, optionsOf: OptionsOf) {
  try {
    const header = parseCsv(text.slice(0, headerEnd(text))).header;
    const { columns } = parseCsvColumns(
      text,
      new Map(header.map((name) => [name, "string" as const])),
    );
    return {
      header,
      reports: header.map((name) => {
        const options = optionsOf(name);
        if (options === undefined) return null;
        const { codes, dictionary } = columns.get(name) as CsvStringColumn;
        const counts = new Uint32Array(dictionary.length + 1);
        for (let i = 0; i < codes.length; i++) counts[codes[i]]++;
        return shown(
          inferCountedColumn(name, ["", ...dictionary], counts, options),
        );
      }),
    };
  } catch (e) {
    return { error: said(e) };
  }
}

/** The same through the piece-by-piece reader. */
async function streamed(
  source: Parameters<typeof tallyCsv>[0],
  optionsOf: OptionsOf,
  piece?: number,
) {
  try {
    const { header, tallies } = await tallyCsv(source, optionsOf, piece);
    return {
      header,
      reports: header.map((name, j) => shown(tallies[j]?.report(name) ?? null)),
    };
  } catch (e) {
    return { error: said(e) };
  }
}

const encode = (text: string) => new TextEncoder().encode(text);

async function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream()
    .pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** A seeded generator of numbers in [0, 1). */
function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Options: one column (or none) as the target, a random prediction type. */
function randomOptions(random: () => number, text: string): OptionsOf {
  const target = ["a", "b", "y", "none"][Math.floor(random() * 4)];
  const predictionType = (["CLASSIFICATION", "REGRESSION", undefined] as const)[
    Math.floor(random() * 3)
  ];
  void text;
  return (name) =>
    name === "" || name === "c"
      ? undefined
      : { target: name === target, predictionType };
}

Deno.test("infer stream: random CSV texts give the whole text's reports or error, at every piece size and from every source (text, Blob, byte stream, gzip)", async () => {
  const random = seeded(20261127);
  for (let t = 0; t < 400; t++) {
    const text = randomCsv(random);
    const optionsOf = randomOptions(random, text);
    const expected = whole(text, optionsOf);
    const bytes = encode(text);
    // A Blob read as text() dropped a BOM before the parser dropped another.
    const blobExpected = whole(new TextDecoder().decode(bytes), optionsOf);
    const gz = await gzip(bytes);
    const label = JSON.stringify(text);
    for (const piece of [1, 2, 3, 7, 64, 65536]) {
      assertEquals(
        await streamed({ csv: text }, optionsOf, piece),
        expected,
        `text ${label}, pieces of ${piece}`,
      );
    }
    for (const piece of [1, 2, 5, 4096]) {
      assertEquals(
        await streamed(new Blob([bytes]), optionsOf, piece),
        blobExpected,
        `Blob ${label}, pieces of ${piece}`,
      );
    }
    // A stream of the bytes (a bucket file's, as quickstart reads it), in
    // chunks of 3 bytes: its BOM stays text, as a file's does.
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 3) {
          controller.enqueue(bytes.slice(at, at + 3));
        }
        controller.close();
      },
    });
    assertEquals(
      await streamed(stream, optionsOf, 5),
      expected,
      `stream ${label}`,
    );
    for (const piece of [1, 9]) {
      assertEquals(
        await streamed(
          new Blob([gz as Uint8Array<ArrayBuffer>]),
          optionsOf,
          piece,
        ),
        blobExpected,
        `gzipped Blob ${label}, pieces of ${piece}`,
      );
    }
  }
});

Deno.test("infer stream: a large table (more distinct cells than a column counts, identifiers, a regression target) gives the whole text's reports", async () => {
  const random = seeded(7);
  const rows = 20_000;
  // Counts at the rules' edges: 10 and 11 distinct integers, 20 and 21
  // distinct numbers in a target.
  const lines = ["id,price,code,mixed,flag,day,note,y,ten,eleven,t20,t21"];
  for (let i = 0; i < rows; i++) {
    lines.push([
      `cust-${i.toString(36).padStart(12, "0")}`,
      (random() * 1000).toFixed(2),
      String(Math.floor(random() * 9)),
      random() < 0.001 ? "n/a" : String(Math.floor(random() * 50_000)),
      random() < 0.5 ? "0" : "1",
      `2020-01-${String(1 + Math.floor(random() * 28)).padStart(2, "0")}`,
      random() < 0.1 ? "" : `"note, ${Math.floor(random() * 30)}\nline"`,
      (random() * 100).toFixed(1),
      String(i % 10),
      String(i % 11),
      String((i % 20) / 2),
      String(i % 21),
    ].join(","));
  }
  const text = lines.join("\r\n") + "\r\n";
  for (const target of ["y", "code", "note", "t20", "t21"]) {
    for (const predictionType of [undefined, "CLASSIFICATION", "REGRESSION"]) {
      const optionsOf: OptionsOf = (name) => ({
        target: name === target,
        predictionType: predictionType as InferColumnOptions["predictionType"],
      });
      const expected = whole(text, optionsOf);
      assert(!("error" in expected));
      for (const piece of [997, 65536]) {
        assertEquals(
          await streamed({ csv: text }, optionsOf, piece),
          expected,
          `${target} ${predictionType}, pieces of ${piece}`,
        );
      }
    }
  }
});

/** Writes `bytes` to a temp file named `name`; returns its path. */
async function tempFile(
  dir: string,
  name: string,
  bytes: Uint8Array | string,
): Promise<string> {
  const path = `${dir}/${name}`;
  await Deno.writeFile(path, typeof bytes === "string" ? encode(bytes) : bytes);
  return path;
}

/** The schema a draft shows, to compare two inferences. */
const schemaOf = (d: Awaited<ReturnType<typeof inferSchema>>) => ({
  fields: d.fields,
  review: d.review,
  predictionType: d.predictionType,
});

/** Rows of `note,n,y` whose text reaches past `bytes` bytes. */
function rowsPast(bytes: number, eol: string): string[] {
  const lines = ["note,n,y"];
  let size = lines[0].length + eol.length;
  for (let i = 0; size <= bytes + 200; i++) {
    const line = `plain ${i % 7},${i % 13},${i % 2 ? "yes" : "no"}`;
    lines.push(line);
    size += line.length + eol.length;
  }
  return lines;
}

Deno.test("infer stream: a quoted cell across the 64 KiB piece boundary, a quote pair cut in two, read from a file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    for (const at of [0, 1, 2, 5, 11]) {
      // A quoted cell with a comma, a newline and a doubled quote, placed
      // so that piece 1 ends `at` characters into it.
      const head = "note,n,y\n";
      const filler: string[] = [];
      let size = head.length;
      for (let i = 0; size < 65536 - 40; i++) {
        const line = `plain ${i % 5},${i % 9},${i % 2 ? "yes" : "no"}\n`;
        filler.push(line);
        size += line.length;
      }
      const pad = "x".repeat(65536 - at - size - ",1,no\n".length);
      const cell = '"a ""quoted"", long\ncell"';
      const text = head + filler.join("") + `${pad},1,no\n` +
        `${cell},2,yes\n` +
        filler.slice(0, 50).join("");
      assertEquals(text.slice(65536 - at, 65536 - at + 3), '"a ');
      const path = await tempFile(dir, `cut${at}.csv`, text);
      const fromFile = schemaOf(await inferSchema(path, { target: "y" }));
      const fromText = schemaOf(
        await inferSchema({ csv: text }, { target: "y" }),
      );
      assertEquals(fromFile, fromText);
      const options: OptionsOf = (name) => ({ target: name === "y" });
      assertEquals(await streamed(path, options), whole(text, options));
      // The cell was read whole: one more distinct note than the filler's.
      const { tallies } = await tallyCsv(path, options);
      assertEquals(tallies[0]!.report("note").distinct, 5 + 2);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("infer stream: a CRLF file cut mid-line and between CR and LF reads as the whole text", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const lines = rowsPast(65536 * 2, "\r\n");
    const text = lines.join("\r\n") + "\r\n";
    // The first piece ends mid-line in `text`; padding the first data row
    // moves a CR to its last character, the LF to the next piece's first.
    const cr = text.lastIndexOf("\r\n", 65535);
    const first = text.indexOf("\r\n") + 2;
    const between = text.slice(0, first) + "z".repeat(65535 - cr) +
      text.slice(first);
    for (const [name, body] of [["mid", text], ["crlf", between]] as const) {
      const path = await tempFile(dir, `${name}.csv`, body);
      const options: OptionsOf = (n) => ({ target: n === "y" });
      assertEquals(await streamed(path, options), whole(body, options), name);
      assertEquals(
        schemaOf(await inferSchema(path, { target: "y" })),
        schemaOf(await inferSchema({ csv: body }, { target: "y" })),
      );
    }
    assertEquals(between.slice(65535, 65537), "\r\n");
    // One column: a CR and LF read apart would be a blank line, which one
    // column reads as a missing value.
    const single = [
      "v",
      ...Array.from({ length: 30_000 }, (_, i) => `${i % 4}`),
    ]
      .join("\r\n") + "\r\n";
    const k = single.indexOf("\r\n", 65536 - 8);
    const shifted = "w".repeat(65536 - k - 1) + single;
    assertEquals(shifted.slice(65535, 65537), "\r\n");
    const path = await tempFile(dir, "single.csv", shifted);
    const { tallies } = await tallyCsv(path, () => ({}));
    assertEquals(tallies[0]!.report("v").missing, 0);
    assertEquals(
      await streamed(path, () => ({})),
      whole(shifted, () => ({})),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("infer stream: a gzipped file (.csv.gz, or gzip named .csv) reads as its CSV, larger than a piece", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const text = rowsPast(200_000, "\n").join("\n") + "\n";
    const gz = await gzip(encode(text));
    const plain = await tempFile(dir, "plain.csv", text);
    const packed = await tempFile(dir, "packed.csv.gz", gz);
    const misnamed = await tempFile(dir, "misnamed.csv", gz);
    const expected = schemaOf(await inferSchema(plain, { target: "y" }));
    assertEquals(
      schemaOf(await inferSchema(packed, { target: "y" })),
      expected,
    );
    assertEquals(
      schemaOf(await inferSchema(misnamed, { target: "y" })),
      expected,
    );
    assertEquals(
      (await inferSchema(packed, { target: "y" })).name,
      "packed.csv",
    );
    // Cut short, it fails saying so, as before.
    const cut = await tempFile(dir, "cut.csv.gz", gz.slice(0, gz.length >> 1));
    await assertRejects(
      () => inferSchema(cut, { target: "y" }),
      Error,
      "gzip data that does not inflate",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("infer stream: a header-only file and an empty file give what they gave before, from a file, a Blob and text", async () => {
  const dir = await Deno.makeTempDir();
  try {
    for (
      const text of ["a,b,y\n", "a,b,y", "\uFEFFa,b,y\r\n", "\n\na,b,y\n\n"]
    ) {
      const path = await tempFile(dir, "header.csv", text);
      const options: OptionsOf = (n) => ({ target: n === "y" });
      assertEquals(await streamed(path, options), whole(text, options));
      const draft = await inferSchema(path, { target: "y" });
      assertEquals(
        draft.review.map((n) => [n.field, n.reason]),
        [
          ["a", "every value is missing"],
          ["b", "every value is missing"],
          ["y", "every value is missing"],
        ],
      );
      assertEquals(
        schemaOf(await inferSchema(new Blob([text]), { target: "y" })),
        schemaOf(draft),
      );
    }
    // A first line of `""` alone was read as a blank header: "CSV is empty",
    // whatever follows.
    for (
      const text of [
        "",
        "\n\r\n",
        "\uFEFF",
        '""\na,y\n1,2\n',
        '\uFEFF\r\n""\r\na\n',
      ]
    ) {
      const path = await tempFile(dir, "empty.csv", text);
      assertEquals(
        await streamed(path, () => ({})),
        whole(text, () => ({})),
      );
      for (
        const source of [path, new Blob([text]), { csv: text }] as const
      ) {
        // The SDK's error, the parser's its cause.
        const e = await assertRejects(
          () => inferSchema(source, { target: "y" }),
          ValidationError,
          "CSV is empty: expected a header line with column names",
        );
        assert(e.cause instanceof CsvError);
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("infer stream: a quote never closed is the error naming its line, from a file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const lines = rowsPast(150_000, "\n");
    const at = 3000;
    lines[at] = `"open,${lines[at]}`;
    const text = lines.join("\n") + "\n";
    const path = await tempFile(dir, "open.csv", text);
    const expected = whole(text, () => ({}));
    assertEquals(
      expected,
      {
        error: `CsvError: CSV line ${
          at + 1
        }: quoted field is never closed; add the closing '"' (quotes inside a field are written as "").`,
      },
    );
    assertEquals(await streamed(path, () => ({})), expected);
    // A stray quote far into the file is found where it is.
    const stray = [...rowsPast(150_000, "\n")];
    stray[4000] = `a"b,1,no`;
    const strayText = stray.join("\n") + "\n";
    const strayPath = await tempFile(dir, "stray.csv", strayText);
    assertEquals(
      await streamed(strayPath, () => ({})),
      whole(strayText, () => ({})),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
