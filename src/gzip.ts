/**
 * Gzipped CSV files (`.csv.gz`) read as the CSV they hold: recognised by the
 * gzip magic bytes (not the name), inflated chunk by chunk. Ingestion, the
 * local platform's bucket reads and schema inference share it, so a `.csv.gz`
 * file works wherever a `.csv` file does.
 *
 * A gzip file may hold several members one after another (`cat a.gz b.gz`,
 * pigz, bgzip, a log rotated in pieces); RFC 1952 reads them as one stream
 * of their contents. Deno's `DecompressionStream` stops with an error after
 * the first member, so the inflating is `node:zlib`'s gunzip (Deno and Node
 * both have it), which reads every member; it is imported when first needed,
 * so plain CSV never loads it.
 *
 * @example
 * ```ts
 * import { gunzipIfGzip, isGzip } from "./gzip.ts";
 *
 * const csv = new TextEncoder().encode("x,y\n1,a\n");
 * const gz = new Uint8Array(
 *   await new Response(new Blob([csv]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer(),
 * );
 * if (!isGzip(gz) || isGzip(csv)) throw new Error("magic bytes");
 * if (new TextDecoder().decode(await gunzipIfGzip(gz)) !== "x,y\n1,a\n") throw new Error("inflated");
 * if (await gunzipIfGzip(csv) !== csv) throw new Error("plain bytes pass through");
 * ```
 *
 * @module
 */

/** Whether `bytes` start with the gzip magic bytes (0x1f 0x8b). */
export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/**
 * The inflated bytes of gzip data, or `bytes` themselves when they are not
 * gzip. The data is inflated as a stream, chunk by chunk, into one buffer.
 *
 * @throws {Error} When the gzip data is corrupt or truncated, saying so.
 */
export async function gunzipIfGzip(bytes: Uint8Array): Promise<Uint8Array> {
  if (!isGzip(bytes)) return bytes;
  const { gunzip } = await import("node:zlib");
  // zlib's thread pool inflates, so the caller's thread keeps answering.
  const inflated = await new Promise<Uint8Array>((resolve, reject) =>
    gunzip(bytes, (error, result) => error ? reject(error) : resolve(result))
  ).catch((error) => {
    throw inflateError(error);
  });
  // A Buffer is a view of a pool or a larger buffer: hand back a plain
  // Uint8Array over exactly its bytes.
  return new Uint8Array(
    inflated.buffer,
    inflated.byteOffset,
    inflated.byteLength,
  );
}

/**
 * {@linkcode gunzipIfGzip} of bytes that arrive in chunks (a file read
 * piece by piece), as they arrive: the inflated chunks of gzip data, or the
 * chunks themselves when the data does not start with the gzip magic bytes.
 * Only a chunk or two is held at a time.
 *
 * @throws {Error} When the gzip data is corrupt or truncated, with
 *   {@linkcode gunzipIfGzip}'s message; an error reading `chunks` as it is.
 *
 * @example
 * ```ts
 * import { gunzipChunks } from "./gzip.ts";
 *
 * const csv = new TextEncoder().encode("x,y\n1,a\n");
 * const gz = new Uint8Array(
 *   await new Response(new Blob([csv]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer(),
 * );
 * async function* oneByOne(bytes: Uint8Array) {
 *   for (const b of bytes) yield Uint8Array.of(b);
 * }
 * const out: number[] = [];
 * for await (const chunk of gunzipChunks(oneByOne(gz))) out.push(...chunk);
 * if (new TextDecoder().decode(Uint8Array.from(out)) !== "x,y\n1,a\n") throw new Error("inflated");
 * ```
 */
export async function* gunzipChunks(
  chunks: AsyncIterable<Uint8Array>,
): AsyncGenerator<Uint8Array> {
  const source = chunks[Symbol.asyncIterator]();
  // The first bytes, to look for the magic bytes (a chunk may hold one).
  const head: Uint8Array[] = [];
  let length = 0;
  while (length < 2) {
    const next = await source.next();
    if (next.done) break;
    head.push(next.value);
    length += next.value.length;
  }
  const byte = (k: number) => {
    for (const chunk of head) {
      if (k < chunk.length) return chunk[k];
      k -= chunk.length;
    }
    return -1;
  };
  if (byte(0) !== 0x1f || byte(1) !== 0x8b) {
    try {
      yield* head;
      for (let n = await source.next(); !n.done; n = await source.next()) {
        yield n.value;
      }
    } finally {
      await source.return?.();
    }
    return;
  }
  // A failure of the source is its own error, not a corrupt file.
  let failure: { error: unknown } | undefined;
  async function* compressed() {
    try {
      yield* head;
      for (let n = await source.next(); !n.done; n = await source.next()) {
        yield n.value;
      }
    } catch (error) {
      failure = { error };
      throw error;
    } finally {
      await source.return?.();
    }
  }
  const [{ createGunzip }, { pipeline, Readable }] = await Promise.all([
    import("node:zlib"),
    import("node:stream"),
  ]);
  // Chunks of 256 KiB (zlib's default is 16 KiB): fewer, larger pieces.
  const gunzip = createGunzip({ chunkSize: 1 << 18 });
  // pipeline carries backpressure and errors both ways: an error of either
  // side ends the loop below with it, and stopping the loop early (the
  // caller's error) destroys both, which closes the source. (Deno's
  // Duplex.toWeb, tried first, crashed the process with an uncaught error
  // when the reader stopped early.)
  pipeline(Readable.from(compressed()), gunzip, () => {});
  try {
    for await (const chunk of gunzip) yield chunk as Uint8Array;
  } catch (error) {
    throw failure ? failure.error : inflateError(error);
  }
}

/**
 * Gzip data that does not inflate (corrupt or cut short), as
 * {@linkcode gunzipIfGzip} and {@linkcode gunzipChunks} throw it; `cause`
 * is the decompressor's own error, for a caller that words it its way.
 *
 * @example
 * ```ts
 * import { InflateError } from "./gzip.ts";
 * const e = new InflateError(new TypeError("corrupt"));
 * if (!(e.message.includes("(corrupt)") && e.cause instanceof TypeError)) throw new Error("example failed");
 * ```
 */
export class InflateError extends Error {
  override name = "InflateError";
  constructor(cause: unknown) {
    super(
      `the file is gzip data that does not inflate (${
        cause instanceof Error ? cause.message : String(cause)
      }); check that the .gz file is complete, or upload the CSV itself.`,
      { cause },
    );
  }
}

function inflateError(error: unknown): Error {
  return new InflateError(error);
}
