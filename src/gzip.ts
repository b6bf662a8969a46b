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
    throw new Error(
      `the file is gzip data that does not inflate (${
        error instanceof Error ? error.message : String(error)
      }); check that the .gz file is complete, or upload the CSV itself.`,
    );
  }
}
