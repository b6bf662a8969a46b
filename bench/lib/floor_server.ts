/**
 * Floors for the load line's views server, served like the CLI server
 * (`Deno.serve` on a free loopback port, prints `listening on ...`):
 * `hono` is Hono's hello world; `post` reads a POST's JSON body, parses it
 * and answers a fixed JSON value with `Response.json` (any JSON endpoint's
 * least work); `hono-post` does the same behind a Hono route. The answer is
 * read from the JSON file given second (load_floors.ts gives a real views
 * answer: its size matters, since Deno.serve writes a body over about 400
 * bytes in a second `send()`), else a small table.
 *
 * `deno run -A bench/lib/floor_server.ts post [answer.json]`
 *
 * @module
 */
import { Hono } from "hono";

const ANSWER = Deno.args[1]
  ? JSON.parse(await Deno.readTextFile(Deno.args[1]))
  : {
    columns: ["prediction.species", "probability.species.Adelie", "bias"],
    index: [0],
    data: [["Adelie", 0.9876543210987654, -1.2345678901234567]],
  };

const mode = Deno.args[0] ?? "hono";
const app = new Hono();
app.get("/", (c) => c.text("Hello Hono!"));
app.post("/deployed-models/:id/views", async (c) => {
  JSON.parse(await c.req.text());
  return Response.json(ANSWER, { headers: { "Cache-Control": "no-store" } });
});
const post = async (request: Request) => {
  JSON.parse(await request.text());
  return Response.json(ANSWER, { headers: { "Cache-Control": "no-store" } });
};

Deno.serve({
  hostname: "127.0.0.1",
  port: 0,
  onListen: ({ port }) => console.log(`listening on http://127.0.0.1:${port}`),
}, mode === "post" ? post : app.fetch);
