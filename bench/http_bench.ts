/**
 * What the transport costs over raw fetch: a GET through `Client` (token
 * cache, headers, timeout, retry bookkeeping, zod parsing of the answer)
 * against a plain `fetch` + `json()` of the same URL, both on the same local
 * `Deno.serve` server. Run with `deno bench -A bench/http_bench.ts`.
 *
 * @module
 */
import { Client } from "../src/client.ts";

const T = "2024-05-01T12:00:00.123456Z";
const ref = { id: "u_1", name: "me" };
const workspace = JSON.stringify({
  id: "w_1",
  name: "bench",
  account: ref,
  created_at: T,
  created_by: ref,
});
const token = JSON.stringify({
  access_token: "tok",
  token_type: "Bearer",
  expires_in: 3600,
});

const server = Deno.serve(
  { hostname: "127.0.0.1", port: 0, onListen() {} },
  (request) =>
    new Response(
      new URL(request.url).pathname === "/oauth/token" ? token : workspace,
      { headers: { "content-type": "application/json" } },
    ),
);
const baseUrl = `http://127.0.0.1:${server.addr.port}`;
const client = new Client({ baseUrl, clientId: "id", clientSecret: "s" });
await client.workspaces.get("w_1"); // fetch the token once, outside the timing

Deno.bench(
  "raw fetch GET + json()",
  { group: "get", baseline: true },
  async () => {
    const response = await fetch(`${baseUrl}/workspaces/w_1`, {
      headers: { accept: "application/json", authorization: "Bearer tok" },
    });
    await response.json();
  },
);

// What any careful caller adds by hand: a timeout and an abort signal.
Deno.bench("raw fetch + timeout signal", { group: "get" }, async () => {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 60_000);
  const response = await fetch(`${baseUrl}/workspaces/w_1`, {
    headers: { accept: "application/json", authorization: "Bearer tok" },
    signal: controller.signal,
  });
  await response.json();
  clearTimeout(timer);
});

Deno.bench("Client.workspaces.get()", { group: "get" }, async () => {
  await client.workspaces.get("w_1");
});

globalThis.addEventListener("unload", () => server.shutdown());
