/**
 * src/gzip.ts reads gzip data as RFC 1952 says: every member of a file of
 * several (`cat a.gz b.gz`, pigz, bgzip) in turn; a damaged or cut file is an
 * `InflateError`; a failure of the source is the source's own error; and a
 * reader that stops early closes the source and leaves nothing running (an
 * earlier version crashed the process there with an uncaught error).
 */
import { assert, assertEquals, assertRejects } from "@std/assert";
import { gunzipChunks, gunzipIfGzip, InflateError } from "../src/gzip.ts";

async function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream()
    .pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

const encode = (text: string) => new TextEncoder().encode(text);
const concat = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) out.set(p, (at += p.length) - p.length);
  return out;
};

/** `bytes` in pieces of `size`, noting whether it was closed. */
function pieces(bytes: Uint8Array, size: number) {
  const seen = { closed: false };
  async function* gen() {
    try {
      for (let at = 0; at < bytes.length; at += size) {
        yield bytes.slice(at, at + size);
      }
    } finally {
      seen.closed = true;
    }
  }
  return { chunks: gen(), seen };
}

async function inflated(chunks: AsyncIterable<Uint8Array>): Promise<string> {
  const parts: Uint8Array[] = [];
  for await (const c of gunzipChunks(chunks)) parts.push(c.slice());
  return new TextDecoder().decode(concat(parts));
}

Deno.test("gzip stream: several members read as one stream of their contents, whole or in pieces of any size", async () => {
  const texts = ["x,y\n1,a\n2,", "b\n3,c", "", "\n4,d\n"];
  const file = concat(await Promise.all(texts.map((t) => gzip(encode(t)))));
  const whole = texts.join("");
  assertEquals(new TextDecoder().decode(await gunzipIfGzip(file)), whole);
  for (const size of [1, 2, 7, 64, file.length]) {
    assertEquals(await inflated(pieces(file, size).chunks), whole, `${size}`);
  }
});

Deno.test("gzip stream: a cut or damaged file is an InflateError; the source's own failure is its own error", async () => {
  const file = await gzip(encode("x,y\n".repeat(1000)));
  const cut = file.slice(0, file.length - 6);
  await assertRejects(() => gunzipIfGzip(cut), InflateError);
  await assertRejects(() => inflated(pieces(cut, 100).chunks), InflateError);
  const damaged = file.slice();
  damaged.fill(0xff, 12, 40);
  await assertRejects(
    () => inflated(pieces(damaged, 100).chunks),
    InflateError,
  );
  class DiskError extends Error {}
  async function* failing() {
    yield file.slice(0, 20);
    throw new DiskError("the disk went away");
  }
  await assertRejects(() => inflated(failing()), DiskError, "went away");
});

Deno.test("gzip stream: a reader that stops early closes the source and leaves nothing running", async () => {
  // 8 MB inflated from about 8 KB: the inflater is well ahead of the reader.
  const file = await gzip(encode("0123456789abcdef".repeat(1 << 19)));
  for (const size of [64, file.length]) {
    const { chunks, seen } = pieces(file, size);
    let read = 0;
    for await (const c of gunzipChunks(chunks)) {
      read += c.length;
      if (read > 1 << 20) break;
    }
    // Whatever was in flight settles without an uncaught error (the test
    // runner fails the test on one), and the source was closed.
    await new Promise((r) => setTimeout(r, 50));
    assert(seen.closed, `source closed (pieces of ${size})`);
  }
});
