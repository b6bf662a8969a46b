/**
 * Serves a web-standard fetch handler (the local platform's Hono app) with
 * `node:http`, so Node users need neither Deno nor an adapter package: each
 * incoming request becomes a `Request`, each `Response` is written back,
 * streamed. Deno runs it too (its `node:http` is the same API).
 *
 * @module
 */
import { createServer, type IncomingMessage, maxHeaderSize } from "node:http";
import type { Listening } from "./cli_args.ts";

/**
 * A request of `node:http` as a web `Request`, its body streamed: the app
 * reads it within its size limit (a body declared or sent over it is a 413
 * at once). Buffering it whole first held any body a client sent in memory,
 * and a 10 GB `Content-Length` got no answer until 10 GB had come.
 */
function toRequest(
  incoming: IncomingMessage,
  origin: string,
  signal: AbortSignal,
): Request {
  const headers = new Headers();
  const raw = incoming.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    // HTTP/2 pseudo-headers (":path") are not valid in Headers.
    if (!raw[i].startsWith(":")) headers.append(raw[i], raw[i + 1]);
  }
  const method = incoming.method ?? "GET";
  let body: ReadableStream<Uint8Array> | undefined;
  if (method !== "GET" && method !== "HEAD") {
    // Paused until the app reads; what it leaves unread (a refused body)
    // is read and dropped, so the connection can answer and go on.
    let stopped = false;
    incoming.pause();
    body = new ReadableStream<Uint8Array>({
      start(controller) {
        incoming.on("data", (chunk: unknown) => {
          if (stopped) return;
          // node:http gives Buffers (Uint8Arrays) when no encoding is set.
          if (chunk instanceof Uint8Array) controller.enqueue(chunk);
          if ((controller.desiredSize ?? 1) <= 0) incoming.pause();
        });
        incoming.once("end", () => {
          if (!stopped) controller.close();
        });
        incoming.once("error", (error) => {
          if (!stopped) controller.error(error);
        });
      },
      pull() {
        incoming.resume();
      },
      cancel() {
        stopped = true;
        incoming.resume();
      },
    });
  }
  // A path ("/x") goes after the origin: resolved against it, as a URL
  // relative to it, "//evil.example/x" named another host (and made the
  // 202 Locations point there).
  const target = incoming.url ?? "/";
  const url = target.startsWith("/")
    ? new URL(`${origin}${target}`)
    : new URL(target, origin);
  return new Request(url, {
    method,
    headers,
    body,
    signal,
    // A streamed body needs it (fetch's rule for a ReadableStream body).
    duplex: "half",
  } as RequestInit);
}

/** A whole HTTP/1.1 answer with a JSON body, written to a raw socket. */
function rawAnswer(
  status: number,
  reason: string,
  body: { message: string; error_code: string },
): string {
  const json = JSON.stringify(body);
  return `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${
    new TextEncoder().encode(json).byteLength
  }\r\nConnection: close\r\n\r\n${json}`;
}

/**
 * Listens on `host:port` and answers every request with `handler`. A handler
 * that throws is answered 500 with a JSON `message`, and logged.
 *
 * @param handler A fetch handler, e.g. `createLocalPlatform(...).app.fetch`.
 * @param address Where to listen; port 0 picks a free port.
 * @returns The bound port and `close()`.
 * @throws {Error} When the address cannot be bound (e.g. the port is in use).
 *
 * @example
 * ```ts
 * import { serveNode } from "./node_serve.ts";
 *
 * const server = await serveNode(
 *   async (req) => new Response(`${req.method} ${new URL(req.url).pathname} ${await req.text()}`),
 *   { port: 0, host: "127.0.0.1" },
 * );
 * const res = await fetch(`http://127.0.0.1:${server.port}/echo`, { method: "POST", body: "hi" });
 * if (await res.text() !== "POST /echo hi") throw new Error();
 * await server.close();
 * ```
 */
export function serveNode(
  handler: (request: Request) => Response | Promise<Response>,
  address: { port: number; host: string },
): Promise<Listening> {
  const origin = `http://${
    address.host.includes(":") ? `[${address.host}]` : address.host
  }:${address.port}`;
  const server = createServer(async (incoming, outgoing) => {
    const aborted = new AbortController();
    outgoing.on("close", () => {
      if (!outgoing.writableFinished) aborted.abort();
    });
    /** Whether the answer can be written again (true), or its client left. */
    const drained = () =>
      new Promise<boolean>((resolve) => {
        const signal = aborted.signal;
        if (signal.aborted) return resolve(false);
        const end = (ok: boolean) => () => {
          outgoing.off("drain", onDrain);
          signal.removeEventListener("abort", onAbort);
          resolve(ok);
        };
        const onDrain = end(true);
        const onAbort = end(false);
        outgoing.once("drain", onDrain);
        signal.addEventListener("abort", onAbort, { once: true });
      });
    try {
      const host = incoming.headers.host;
      const response = await handler(
        toRequest(
          incoming,
          host ? `http://${host}` : origin,
          aborted.signal,
        ),
      );
      const headers: Record<string, string | string[]> = {};
      response.headers.forEach((value, name) => {
        headers[name] = name === "set-cookie"
          ? response.headers.getSetCookie()
          : value;
      });
      // A Response made with a status only has an empty statusText: given
      // as is, node:http wrote "HTTP/1.1 413 " with no reason phrase, where
      // Deno.serve writes "413 Payload Too Large". node:http's own then.
      outgoing.writeHead(
        response.status,
        response.statusText || undefined,
        headers,
      );
      if (response.body && incoming.method !== "HEAD") {
        const reader = response.body.getReader();
        while (true) {
          const { value, done } = await reader.read();
          if (done) break;
          if (!outgoing.write(value) && !await drained()) {
            // The client went away mid-answer: waiting for a "drain" that
            // never came held the answer (and this handler) for ever.
            await reader.cancel().catch(() => {});
            return;
          }
        }
      }
      outgoing.end();
    } catch (error) {
      if (aborted.signal.aborted) return;
      console.error("mlp-local: the handler failed:", error);
      if (!outgoing.headersSent) {
        outgoing.writeHead(500, { "content-type": "application/json" });
      }
      outgoing.end(
        JSON.stringify({
          message:
            "Internal server error in the local platform; see its console.",
        }),
      );
    }
  });
  // node:http answers a request it cannot parse itself, before the handler:
  // give those answers the platform's JSON error body.
  server.on("clientError", (error: Error & { code?: string }, socket) => {
    if (!socket.writable || error.code === "ECONNRESET") {
      socket.destroy();
      return;
    }
    socket.end(
      error.code === "HPE_HEADER_OVERFLOW"
        ? rawAnswer(431, "Request Header Fields Too Large", {
          message:
            `The request's headers are larger than this server accepts (node:http's maxHeaderSize, ${maxHeaderSize} bytes); an access token is under 1 KiB: send the one POST /oauth/token returned, and no oversized headers.`,
          error_code: "REQUEST_HEADERS_TOO_LARGE",
        })
        : rawAnswer(400, "Bad Request", {
          message: `The request is not valid HTTP/1.1 (${
            error.code ?? error.message
          }); send a well-formed request.`,
          error_code: "VALIDATION_ERROR",
        }),
    );
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(address.port, address.host, () => {
      server.off("error", reject);
      const bound = server.address();
      resolve({
        port: typeof bound === "object" && bound ? bound.port : address.port,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((error) => error ? fail(error) : done());
            server.closeAllConnections?.();
          }),
      });
    });
  });
}
