/**
 * Small random CSV texts for property tests of the parsers: odd line ends
 * (LF, CRLF, lone CR, mixed), quoted fields holding commas, quotes and line
 * breaks, multi-byte characters, blank lines, a BOM, a repeated or empty
 * header name, and now and then a malformed cell or a row of the wrong
 * width, so that both readings and errors are compared. Schema inference's
 * piece-by-piece reader (tests/infer_stream_test.ts) and ingestion's
 * (tests/csv_pieces_test.ts) are both held to the whole text's reading on
 * them.
 */

/** Cells of the rows, as written in the file (quoted ones with their quotes). */
const CELLS = [
  "",
  " ",
  "0",
  "1",
  "1.5",
  "-2",
  " 3 ",
  "1e3",
  "x",
  "yes",
  "Month-to-month",
  "2016-08-28",
  "é",
  "日本",
  "😀",
  '"a,b"',
  '"two\nlines"',
  '"cr\r\nlf"',
  '"lone\rcr"',
  '"say ""hi"""',
  '""',
  '"Month-to-month, long"',
  '"7"',
] as const;
/** Cells that make the text malformed. */
const BAD = ['x"y', '"open', '"a"b', '"a""'] as const;
const EOLS = ["\n", "\r\n", "\r"] as const;
const NAMES = ["a", "b", "c", "y", " d ", "e", ""] as const;

/**
 * A small random CSV text: up to 4 columns and 13 rows, drawn with
 * `random` (numbers in [0, 1)).
 */
export function randomCsv(random: () => number): string {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
  const width = 1 + Math.floor(random() * 4);
  const eol = pick(EOLS);
  const lineEnd = () => random() < 0.1 ? pick(EOLS) : eol;
  // Header cells: the usual names, now and then a repeated or empty one, a
  // cell of the rows (a quoted newline, a number) or a malformed one.
  const names = Array.from({ length: width }, (_, j): string => {
    const r = random();
    if (r < 0.05) return pick(NAMES);
    if (r < 0.08) return pick(CELLS);
    return r < 0.09 ? pick(BAD) : NAMES[j];
  });
  let text = random() < 0.2 ? "\uFEFF" : "";
  if (random() < 0.1) text += lineEnd();
  text += names.map((n) => random() < 0.2 ? `"${n}"` : n).join(",");
  const rows = Math.floor(random() * 14);
  for (let i = 0; i < rows; i++) {
    text += lineEnd();
    if (random() < 0.08) text += lineEnd(); // a blank line
    const w = random() < 0.02 ? width + 1 : width;
    text += Array.from(
      { length: w },
      (): string => random() < 0.01 ? pick(BAD) : pick(CELLS),
    ).join(",");
  }
  if (random() < 0.7) text += lineEnd();
  return text;
}
