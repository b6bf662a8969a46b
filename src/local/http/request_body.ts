/**
 * Reading a request body within the platform's limits: JSON bodies need a
 * JSON `Content-Type` (415), are held to a size (413) and a nesting depth
 * (400) before they are parsed, and are then parsed by their route's schema
 * (400 naming each offending path). The token call's body is read here
 * too: form-encoded or JSON, any other media type a 415 likewise.
 *
 * @module
 */
import type { z } from "zod";
import { TokenRequestSchema, ViewsRequestSchema } from "../../schemas/mod.ts";
import { fastViewsRequest } from "../../schemas/views_fast.ts";
import type { PlatformSettings } from "../context.ts";
import {
  fromZodError,
  invalidField,
  payloadTooLarge,
  unsupportedContentEncoding,
  unsupportedMediaType,
} from "../errors.ts";
import { messageOf } from "../error_message.ts";

/**
 * Schemas with a shortcut for their common, plainly valid values, held to
 * zod's output by a test; `undefined` from a shortcut means "ask zod". Views
 * bodies only: parsing them was a seventh of a one-row views call.
 */
const FAST_PATHS = new Map<z.ZodType, (value: unknown) => unknown>([
  [ViewsRequestSchema, fastViewsRequest],
]);

/**
 * `value` parsed by `schema`, or a 400 naming each offending path.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * import { parseOr400 } from "./request_body.ts";
 * if (parseOr400(z.object({ n: z.number() }), { n: 1 }).n !== 1) throw new Error();
 * let status = 0;
 * try { parseOr400(z.object({ n: z.number() }), {}); } catch (e) { status = e instanceof Error && "status" in e ? Number(e.status) : 0; }
 * if (status !== 400) throw new Error(String(status));
 * ```
 */
export function parseOr400<S extends z.ZodType>(
  schema: S,
  value: unknown,
): z.output<S> {
  const fast = FAST_PATHS.get(schema)?.(value);
  if (fast !== undefined) return fast as z.output<S>;
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw fromZodError(parsed.error);
  return parsed.data;
}

/**
 * A `Content-Type`'s media type, lower case (names are case-insensitive),
 * and whether its charset, if it names one, is UTF-8 (the only one bodies
 * are read in).
 */
function mediaType(type: string): { mime: string; utf8: boolean } {
  const [mime, ...params] = type.split(";").map((p) => p.trim().toLowerCase());
  const charset = params.find((p) => p.startsWith("charset="));
  return { mime, utf8: !charset || /^charset="?utf-8"?$/.test(charset) };
}

/**
 * Whether a `Content-Type` names JSON: `application/json` (or a `+json`
 * type), with no charset or UTF-8.
 */
function isJsonType(type: string | null): boolean {
  if (!type) return false;
  if (type === "application/json") return true; // the common case, at once
  const { mime, utf8 } = mediaType(type);
  return utf8 && (mime === "application/json" ||
    /^application\/[\w.-]+\+json$/.test(mime));
}

/**
 * Whether a `Content-Type` names a form: `application/x-www-form-urlencoded`,
 * with no charset or UTF-8 (its percent-escapes are read as UTF-8).
 */
function isFormType(type: string | null): boolean {
  if (!type) return false;
  const { mime, utf8 } = mediaType(type);
  return utf8 && mime === "application/x-www-form-urlencoded";
}

/**
 * The request body decoded from UTF-8, read with the size limit: a declared or
 * actual size over `limits.maxBodyBytes` is a 413 before anything is parsed.
 */
async function bodyText(
  request: Request,
  limits: PlatformSettings["limits"],
): Promise<string> {
  // Bodies are read as they come: a compressed one (gzip, br) would read as
  // bytes that are not UTF-8, or worse as text that happens to be.
  const coding = request.headers.get("content-encoding");
  if (coding !== null && coding.trim().toLowerCase() !== "identity") {
    throw unsupportedContentEncoding(coding);
  }
  const max = limits.maxBodyBytes;
  const declared = request.headers.get("content-length");
  if (Number(declared) > max) throw payloadTooLarge(max);
  if (declared !== null && declared !== "" && !request.bodyUsed) {
    // A declared size within the limit: read the body whole. Over HTTP the
    // server reads exactly that many bytes, and `bytes()` skips the
    // ReadableStream a reader needs (a fifth of a one-row views call's CPU).
    const bytes = await request.bytes().catch(bodyCut);
    if (bytes.byteLength > max) throw payloadTooLarge(max);
    return utf8(bytes);
  }
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read().catch(bodyCut);
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel().catch(() => {});
      throw payloadTooLarge(max);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return utf8(bytes);
}

/**
 * A body that could not be read whole is the client's doing (it closed the
 * connection, or sent fewer bytes than its `Content-Length` and went away):
 * a 400, not an unexpected error logged with its stack for every client
 * that disconnects.
 */
function bodyCut(): never {
  throw invalidField(
    "",
    "the body ended before it was whole (the connection closed, or fewer bytes came than its Content-Length said); send the whole body",
  );
}

/** One decoder for every body: `fatal` makes bad UTF-8 throw, not replace. */
const UTF8 = new TextDecoder("utf-8", { fatal: true });
/** The replacing decoder: several times faster than the fatal one. */
const LOOSE = new TextDecoder("utf-8");

/** `bytes` decoded from UTF-8, or a 400 saying the body is not UTF-8. */
function utf8(bytes: Uint8Array): string {
  // Bad UTF-8 decodes to U+FFFD: without one in the text the bytes were
  // good, and the fatal decoder would have given the same text.
  const text = LOOSE.decode(bytes);
  if (!text.includes("\uFFFD")) return text;
  try {
    return UTF8.decode(bytes);
  } catch {
    throw invalidField(
      "",
      "the body is not valid UTF-8 text; send JSON encoded as UTF-8",
    );
  }
}

/**
 * Refuses (400) JSON text nesting arrays and objects deeper than `max`,
 * counted on the text before it is parsed (brackets inside strings ignored).
 */
function checkDepth(text: string, max: number): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) {
      inString = true;
    } else if (c === 91 || c === 123) {
      if (++depth > max) {
        throw invalidField(
          "",
          `the body nests arrays and objects deeper than ${max} levels (limits.maxJsonDepth); send a flatter body`,
        );
      }
    } else if (c === 93 || c === 125) {
      depth--;
    }
  }
}

/**
 * Reads and validates a JSON body: 415 without a JSON `Content-Type`, 413
 * over the size limit, 400 for nesting over the depth limit, malformed JSON
 * or a body its schema refuses (naming the path).
 *
 * @example
 * ```ts
 * import { z } from "zod";
 * import { jsonBody } from "./request_body.ts";
 * const limits = { maxBodyBytes: 1024, maxJsonDepth: 8 };
 * const request = new Request("http://x/", {
 *   method: "POST",
 *   headers: { "Content-Type": "application/json" },
 *   body: JSON.stringify({ name: "lab" }),
 * });
 * const body = await jsonBody(request, z.object({ name: z.string() }), limits);
 * if (body.name !== "lab") throw new Error();
 * ```
 */
export async function jsonBody<S extends z.ZodType>(
  request: Request,
  schema: S,
  limits: PlatformSettings["limits"],
): Promise<z.output<S>> {
  // Lower case: Deno reads these names without checking them first.
  const type = request.headers.get("content-type");
  if (!isJsonType(type)) throw unsupportedMediaType(type);
  const text = await bodyText(request, limits);
  let value: unknown;
  try {
    value = text.trim() === "" ? {} : JSON.parse(text);
  } catch (error) {
    // Too deep is said first, as when the depth is counted before parsing.
    checkDepth(text, limits.maxJsonDepth);
    throw invalidField(
      "",
      `the body is not valid JSON (${
        messageOf(error)
      }); send a JSON object with Content-Type: application/json`,
    );
  }
  // A body its shortcut takes nests at most SHALLOW levels: within any
  // depth limit of at least that, the count would have passed.
  const fast = limits.maxJsonDepth >= SHALLOW
    ? FAST_PATHS.get(schema)?.(value)
    : undefined;
  if (fast !== undefined) return fast as z.output<S>;
  checkDepth(text, limits.maxJsonDepth);
  return parseOr400(schema, value);
}

/**
 * The deepest nesting of a body a shortcut of {@linkcode FAST_PATHS} takes:
 * a views body's `{"query": {"x": [1]}}` or `{"data": [{...}]}`.
 */
const SHALLOW = 3;

/**
 * Reads the token call's body, within the limits: form-encoded, as
 * docs/api.md#endpoints has it and the SDK sends it, or JSON; any other (or
 * no) `Content-Type` is a 415 before the body is read, as for every other
 * operation (docs/contract.md#errors).
 *
 * @example
 * ```ts
 * import { tokenBody } from "./request_body.ts";
 * const limits = { maxBodyBytes: 1024, maxJsonDepth: 8 };
 * const fields = { grant_type: "client_credentials", client_id: "a", client_secret: "b" };
 * const request = new Request("http://x/oauth/token", {
 *   method: "POST",
 *   body: new URLSearchParams(fields),
 * });
 * const body = await tokenBody(request, limits);
 * if (body.client_id !== "a") throw new Error();
 * let status = 0;
 * try {
 *   await tokenBody(new Request("http://x/oauth/token", {
 *     method: "POST",
 *     headers: { "Content-Type": "text/plain" },
 *     body: new URLSearchParams(fields).toString(),
 *   }), limits);
 * } catch (e) {
 *   status = (e as { status: number }).status;
 * }
 * if (status !== 415) throw new Error(String(status));
 * ```
 */
export async function tokenBody(
  request: Request,
  limits: PlatformSettings["limits"],
) {
  // Lower case: Deno reads these names without checking them first.
  const type = request.headers.get("content-type");
  const json = isJsonType(type);
  if (!json && !isFormType(type)) throw unsupportedMediaType(type, "form");
  const text = await bodyText(request, limits);
  let raw: Record<string, unknown>;
  if (json) {
    checkDepth(text, limits.maxJsonDepth);
    try {
      raw = JSON.parse(text);
    } catch {
      throw invalidField("", "the body is not valid JSON");
    }
  } else {
    raw = Object.fromEntries(new URLSearchParams(text));
  }
  return parseOr400(TokenRequestSchema, raw);
}
