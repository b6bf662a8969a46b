/**
 * Gzipped CSV files (`.csv.gz`) read as the CSV they hold: recognised by the
 * gzip magic bytes (not the name), inflated through the platform's
 * `DecompressionStream` chunk by chunk. Ingestion, the local platform's
 * bucket reads and schema inference share it, so a `.csv.gz` file works
 * wherever a `.csv` file does.
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
  try {
    const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream()
      .pipeThrough(new DecompressionStream("gzip"));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  } catch (error) {
    throw inflateError(error);
  }
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
  const input = new ReadableStream<Uint8Array<ArrayBuffer>>({
    start(controller) {
      for (const chunk of head) {
        controller.enqueue(chunk as Uint8Array<ArrayBuffer>);
      }
    },
    async pull(controller) {
      try {
        const next = await source.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value as Uint8Array<ArrayBuffer>);
      } catch (error) {
        failure = { error };
        controller.error(error);
      }
    },
    async cancel() {
      await source.return?.();
    },
  });
  const reader = input.pipeThrough(new DecompressionStream("gzip"))
    .getReader();
  let done = false;
  try {
    for (;;) {
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await reader.read();
      } catch (error) {
        done = true;
        throw failure ? failure.error : inflateError(error);
      }
      if (next.done) {
        done = true;
        return;
      }
      yield next.value;
    }
  } finally {
    // Stopped early (the caller's error): let the source close.
    if (!done) await reader.cancel().catch(() => {});
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
