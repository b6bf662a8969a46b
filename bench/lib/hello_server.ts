/**
 * The floor of the load line: Hono's hello world on `Deno.serve`, on a free
 * loopback port. Prints `listening on http://127.0.0.1:<port>` once ready.
 *
 * Run: `deno run -A bench/lib/hello_server.ts`.
 *
 * @module
 */
import { Hono } from "hono";

const app = new Hono();
app.get("/", (c) => c.text("Hello Hono!"));

Deno.serve({
  hostname: "127.0.0.1",
  port: 0,
  onListen: ({ port }) => console.log(`listening on http://127.0.0.1:${port}`),
}, app.fetch);
