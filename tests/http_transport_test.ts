/**
 * Transport behaviours against a real scripted HTTP server: token cache,
 * renewal and sharing, retries and Retry-After, 202 chains, foreign origins,
 * abort, timeout, creates that must not be repeated, pagination.
 */
import {
  assert,
  assertEquals,
  assertInstanceOf,
  assertRejects,
  assertStrictEquals,
} from "@std/assert";
import { Client, type ClientOptions } from "../src/client.ts";
import {
  AuthenticationError,
  RateLimitError,
  ServerError,
  TimeoutError,
  ValidationError,
} from "../src/http/errors.ts";
import { ViewsRequestSchema } from "../src/schemas/views.ts";
import {
  hang,
  json,
  type ScriptedServer,
  startScriptedServer,
  tokenIssuer,
} from "./_helpers/scripted_server.ts";

const T = "2024-05-01T12:00:00.000000Z";
const ref = { id: "u_1", name: "me" };

function page<T>(data: T[], current = 1, totalPages = 1, perPage = 10) {
  return {
    data,
    pagination: {
      total_items: totalPages * perPage,
      items_per_page: perPage,
      current_page: current,
      total_pages: totalPages,
    },
  };
}

function workspace(id: string) {
  return { id, name: id, account: ref, created_at: T, created_by: ref };
}

/** A client on the server with instant, recorded sleeps and a settable clock. */
function clientFor(server: ScriptedServer, extra: Partial<ClientOptions> = {}) {
  const sleeps: number[] = [];
  const clock = { now: 1_000_000 };
  const client = new Client({
    baseUrl: server.url,
    clientId: "id",
    clientSecret: "s3cret",
    retryBaseDelay: 10,
    retryMaxDelay: 40,
    pollInterval: 5,
    clock: () => clock.now,
    sleep: (ms, signal) => {
      sleeps.push(ms);
      return signal?.aborted
        ? Promise.reject(signal.reason)
        : Promise.resolve();
    },
    ...extra,
  });
  return { client, sleeps, clock };
}

Deno.test("token: form-encoded exchange, cached, bearer on API calls only", async () => {
  await using server = startScriptedServer({
    steps: [
      { method: "GET", path: "/workspaces", respond: () => json(page([])) },
      { method: "GET", path: "/workspaces", respond: () => json(page([])) },
    ],
  });
  const { client } = clientFor(server);
  await client.workspaces.list();
  await client.workspaces.list();
  assertEquals(server.tokens.length, 1);
  const [tokenCall] = server.tokens;
  assertEquals(
    tokenCall.headers.get("content-type"),
    "application/x-www-form-urlencoded",
  );
  assertEquals(Object.fromEntries(new URLSearchParams(tokenCall.body)), {
    grant_type: "client_credentials",
    client_id: "id",
    client_secret: "s3cret",
  });
  assertEquals(tokenCall.headers.get("authorization"), null);
  for (const call of server.api) {
    assertEquals(call.headers.get("authorization"), "Bearer tok-1");
  }
  assertEquals(server.unexpected, []);
});

Deno.test("token: renewed shortly before it expires (injected clock)", async () => {
  await using server = startScriptedServer({
    token: tokenIssuer(3600),
    steps: Array.from({ length: 3 }, () => ({
      respond: () => json(page([])),
    })),
  });
  const { client, clock } = clientFor(server);
  await client.workspaces.list();
  // One hour lifetime, renewed one minute early: still fine just before.
  clock.now += 3600_000 - 60_000 - 1;
  await client.workspaces.list();
  assertEquals(server.tokens.length, 1);
  clock.now += 1;
  await client.workspaces.list();
  assertEquals(server.tokens.length, 2);
  assertEquals(
    server.api.map((r) => r.headers.get("authorization")),
    ["Bearer tok-1", "Bearer tok-1", "Bearer tok-2"],
  );
});

Deno.test("token: a 401 renews the token once and retries the call", async () => {
  await using server = startScriptedServer({
    steps: [
      { respond: () => json({ message: "token revoked" }, 401) },
      { respond: () => json(workspace("w_1"), 201) },
    ],
  });
  const { client } = clientFor(server);
  const created = await client.workspaces.create({ name: "w" });
  assertEquals(created.id, "w_1");
  assertEquals(server.tokens.length, 2);
  assertEquals(
    server.api.map((r) => r.headers.get("authorization")),
    ["Bearer tok-1", "Bearer tok-2"],
  );
});

Deno.test("token: a second 401 is an AuthenticationError, no loop", async () => {
  await using server = startScriptedServer({
    steps: [
      { respond: () => json({ message: "nope" }, 401) },
      { respond: () => json({ message: "still nope" }, 401) },
    ],
  });
  const { client } = clientFor(server);
  const error = await assertRejects(
    () => client.workspaces.get("w_1"),
    AuthenticationError,
  );
  assertEquals(error.status, 401);
  assert(error.message.includes("still nope"));
  assertEquals(server.api.length, 2);
  assertEquals(server.tokens.length, 2);
});

Deno.test("token: refused credentials say which settings to check", async () => {
  await using server = startScriptedServer({
    token: () => json({ message: "invalid_client" }, 401),
  });
  const { client } = clientFor(server);
  const error = await assertRejects(
    () => client.accounts.list(),
    AuthenticationError,
  );
  assert(error.message.includes("MLP_CLIENT_SECRET"));
  assert(!error.message.includes("s3cret"));
  assertEquals(server.api.length, 0);
});

Deno.test("token: concurrent calls share one token request", async () => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => release = resolve);
  const issue = tokenIssuer();
  await using server = startScriptedServer({
    token: async (r) => {
      await gate;
      return issue(r);
    },
    steps: Array.from({ length: 5 }, () => ({
      respond: () => json(page([])),
    })),
  });
  const { client } = clientFor(server);
  const calls = Array.from({ length: 5 }, () => client.workspaces.list());
  // Let every call reach the token wait before the token arrives.
  for (let i = 0; i < 10_000 && server.tokens.length === 0; i++) {
    await new Promise((r) => setTimeout(r));
  }
  assertEquals(server.tokens.length > 0, true, "no call reached the token");
  release();
  await Promise.all(calls);
  assertEquals(server.tokens.length, 1);
  assertEquals(server.api.length, 5);
});

Deno.test("retries: GET repeated on 502, 503, 504 and 429 with backoff", async () => {
  await using server = startScriptedServer({
    steps: [
      { respond: () => json({ message: "bad gateway" }, 502) },
      { respond: () => json({ message: "unavailable" }, 503) },
      { respond: () => json({ message: "gateway timeout" }, 504) },
      { respond: () => json({ message: "slow down" }, 429) },
      { respond: () => json(workspace("w_1")) },
    ],
  });
  const { client, sleeps } = clientFor(server, { maxRetries: 4 });
  assertEquals((await client.workspaces.get("w_1")).id, "w_1");
  assertEquals(server.api.length, 5);
  // Exponential with equal jitter: [5,10], [10,20], [20,40], then capped at 40.
  const bounds = [[5, 10], [10, 20], [20, 40], [20, 40]];
  assertEquals(sleeps.length, 4);
  sleeps.forEach((ms, i) => {
    assert(ms >= bounds[i][0] && ms <= bounds[i][1], `sleep ${i} was ${ms}`);
  });
});

Deno.test("retries: give up after maxRetries with the last error", async () => {
  await using server = startScriptedServer({
    steps: Array.from({ length: 3 }, () => ({
      respond: () =>
        json({ message: "down", error_reference: "ref-7" }, 503, {
          "x-request-id": "req-3",
        }),
    })),
  });
  const { client } = clientFor(server, { maxRetries: 2 });
  const error = await assertRejects(
    () => client.accounts.list(),
    ServerError,
  );
  assertEquals(error.errorReference, "ref-7");
  assertEquals(error.requestId, "req-3");
  assertEquals(server.api.length, 3);
});

Deno.test("retries: Retry-After in seconds and as an HTTP date", async () => {
  await using server = startScriptedServer({
    steps: [
      {
        respond: () => json({ message: "later" }, 429, { "retry-after": "2" }),
      },
      {
        respond: () =>
          json({ message: "later" }, 503, {
            // 3 s after the injected clock's now (1 000 000 ms).
            "retry-after": new Date(1_000_000 + 3000).toUTCString(),
          }),
      },
      { respond: () => json(page([])) },
    ],
  });
  const { client, sleeps } = clientFor(server, { maxRetries: 3 });
  await client.accounts.list();
  assertEquals(sleeps, [2000, 3000]);
});

Deno.test("retries: a Retry-After beyond maxRetryAfter is left to the caller", async () => {
  await using server = startScriptedServer({
    steps: [{
      respond: () => json({ message: "later" }, 429, { "retry-after": "120" }),
    }],
  });
  const { client, sleeps } = clientFor(server, { maxRetryAfter: 60_000 });
  const error = await assertRejects(
    () => client.accounts.list(),
    RateLimitError,
  );
  assertEquals(error.retryAfter, 120_000);
  assert(error.message.includes("120 s"));
  assertEquals(sleeps, []);
});

Deno.test("creates: repeated when the connection was refused before sending", async () => {
  await using server = startScriptedServer({
    steps: [{ respond: () => json(workspace("w_9"), 201) }],
  });
  // A real refused connection: a port that was just closed.
  const closed = startScriptedServer({});
  const closedUrl = closed.url;
  await closed.close();
  let apiAttempts = 0;
  const { client } = clientFor(server, {
    maxRetries: 1,
    fetch: (input, init) => {
      const request = new Request(input, init);
      if (
        new URL(request.url).pathname === "/workspaces" && ++apiAttempts === 1
      ) {
        return fetch(closedUrl + "/workspaces", { method: "POST", body: "{}" });
      }
      return fetch(request);
    },
  });
  assertEquals((await client.workspaces.create({ name: "w" })).id, "w_9");
  assertEquals(apiAttempts, 2);
  assertEquals(server.api.length, 1);
});

Deno.test("202: follows relative then absolute Location to the final answer", async () => {
  let base = "";
  await using server = startScriptedServer({
    steps: [
      {
        method: "POST",
        path: "/workspaces",
        respond: () =>
          json({}, 202, { location: "/operations/1", "retry-after": "1" }),
      },
      // Relative to /operations/1: resolves to /operations/2.
      {
        method: "GET",
        path: "/operations/1",
        respond: () => json({}, 202, { location: "2" }),
      },
      {
        method: "GET",
        path: "/operations/2",
        respond: () => json({}, 202, { location: `${base}/operations/3` }),
      },
      {
        method: "GET",
        path: "/operations/3",
        respond: () => json(workspace("w_202")),
      },
    ],
  });
  base = server.url;
  const { client, sleeps } = clientFor(server);
  assertEquals((await client.workspaces.create({ name: "w" })).id, "w_202");
  assertEquals(server.unexpected, []);
  assertEquals(sleeps, [1000, 5, 5]);
  for (const call of server.api) {
    assertEquals(call.headers.get("authorization"), "Bearer tok-1");
  }
});

Deno.test("202: a Location on another origin gets no Authorization", async () => {
  await using foreign = startScriptedServer({
    steps: [{
      method: "GET",
      path: "/results/7",
      respond: () => json({ columns: ["a"], index: [0], data: [[1]] }),
    }],
  });
  await using server = startScriptedServer({
    steps: [{
      method: "POST",
      path: "/deployed-models/dm_1/views",
      respond: () => json({}, 202, { location: `${foreign.url}/results/7` }),
    }],
  });
  const { client } = clientFor(server);
  const table = await client.deployedModels.views("dm_1", {
    query: { x: [1] },
  });
  assertEquals(table.data, [[1]]);
  assertEquals(server.api[0].headers.get("authorization"), "Bearer tok-1");
  assertEquals(foreign.api.length, 1);
  assertEquals(foreign.api[0].headers.get("authorization"), null);
  assertEquals(foreign.tokens.length, 0);
});

Deno.test("redirects: followed by hand, without Authorization across origins", async () => {
  await using foreign = startScriptedServer({
    steps: [{ path: "/elsewhere", respond: () => json(workspace("w_r")) }],
  });
  await using server = startScriptedServer({
    steps: [{
      path: "/workspaces/w_r",
      respond: () =>
        new Response(null, {
          status: 307,
          headers: { location: `${foreign.url}/elsewhere` },
        }),
    }],
  });
  const { client } = clientFor(server);
  assertEquals((await client.workspaces.get("w_r")).id, "w_r");
  assertEquals(foreign.api[0].headers.get("authorization"), null);
});

Deno.test("abort: the caller's reason passes through, nothing retried", async () => {
  const controller = new AbortController();
  const reason = new Error("user cancelled");
  await using server = startScriptedServer({
    steps: [{
      respond: (r) => {
        controller.abort(reason);
        return hang()(r);
      },
    }],
  });
  const { client } = clientFor(server, { maxRetries: 3 });
  const error = await assertRejects(() =>
    client.accounts.list({}, { signal: controller.signal })
  );
  assertStrictEquals(error, reason);
  assertEquals(server.api.length, 1);
  // An already aborted signal sends nothing at all.
  await assertRejects(() =>
    client.accounts.list({}, { signal: AbortSignal.abort(reason) })
  );
  assertEquals(server.requests.length, 2); // token + the first call
});

Deno.test("abort: stops the wait between 202 polls", async () => {
  const controller = new AbortController();
  await using server = startScriptedServer({
    steps: [{ respond: () => json({}, 202, { location: "/operations/1" }) }],
  });
  const { client } = clientFor(server, {
    sleep: (_ms, signal) =>
      new Promise((_, reject) => {
        signal?.addEventListener("abort", () => reject(signal.reason));
        controller.abort(new Error("stop polling"));
      }),
  });
  const error = await assertRejects(() =>
    client.workspaces.create({ name: "w" }, { signal: controller.signal })
  );
  assertEquals((error as Error).message, "stop polling");
  assertEquals(server.api.length, 1);
});

Deno.test("timeout: TimeoutError; a GET is retried, and so is a create (its outcome is unknown)", async () => {
  await using server = startScriptedServer({
    steps: [
      { respond: hang() },
      { respond: hang() },
      { respond: hang() },
      { respond: hang() },
    ],
  });
  const { client } = clientFor(server, { maxRetries: 1 });
  const error = await assertRejects(
    () => client.accounts.list({}, { timeout: 30 }),
    TimeoutError,
  );
  assert(error.message.includes("30 ms"));
  assertEquals(server.api.length, 2);
  // Re-sent once (names are unique: a second copy cannot be made), then
  // the timeout is the caller's.
  await assertRejects(
    () => client.workspaces.create({ name: "w" }, { timeout: 30 }),
    TimeoutError,
  );
  assertEquals(server.api.length, 4);
});

Deno.test("delete: a 404 after an ambiguous failure means it is gone", async () => {
  await using server = startScriptedServer({
    steps: [
      { method: "DELETE", respond: () => json({ message: "gw" }, 502) },
      {
        method: "DELETE",
        respond: () => json({ message: "x", error_code: "NOT_FOUND" }, 404),
      },
    ],
  });
  const { client } = clientFor(server);
  await client.workspaces.delete("w_1");
  assertEquals(server.api.length, 2);
});

Deno.test("pagination: one page on request, every item with for await", async () => {
  const items = Array.from({ length: 5 }, (_, i) => workspace(`w_${i}`));
  await using server = startScriptedServer({
    steps: [
      { respond: () => json(page(items.slice(2, 4), 2, 3, 2)) },
      ...[0, 1, 2].map((p) => ({
        respond: () => json(page(items.slice(p * 2, p * 2 + 2), p + 1, 3, 2)),
      })),
    ],
  });
  const { client } = clientFor(server);
  const one = await client.workspaces.list({ page: 2, items_per_page: 2 });
  assertEquals(one.data.map((w) => w.id), ["w_2", "w_3"]);
  assertEquals(server.api[0].url.search, "?page=2&items_per_page=2");
  const seen: string[] = [];
  for await (const w of client.workspaces.iterate({ items_per_page: 2 })) {
    seen.push(w.id);
  }
  assertEquals(seen, items.map((w) => w.id));
  assertEquals(
    server.api.slice(1).map((r) => r.url.searchParams.get("page")),
    ["1", "2", "3"],
  );
});

Deno.test("headers: X-Active-Workspace and X-Views-Cache-Control", async () => {
  const job = {
    id: "tj_1",
    name: "t",
    account: ref,
    created_at: T,
    created_by: ref,
    status: "STARTING",
    dataset: ref,
    workspace: ref,
    training_configuration: ref,
    compute_configuration: ref,
    model: ref,
  };
  const table = { columns: [], index: [], data: [] };
  await using server = startScriptedServer({
    steps: [
      { respond: () => json(job, 201) },
      { respond: () => json(job, 201) },
      { respond: () => json(table) },
    ],
  });
  const { client } = clientFor(server, { workspaceId: "ws_default" });
  const body = {
    name: "t",
    dataset_id: "ds",
    training_configuration_id: "tc",
    compute_configuration_id: "cc",
    model_name: "m",
  };
  await client.trainingJobs.create(body);
  await client.trainingJobs.create(body, { workspaceId: "ws_call" });
  await client.deployedModels.views("dm", { query: { a: [1] } });
  assertEquals(
    server.api.map((r) => r.headers.get("x-active-workspace")),
    ["ws_default", "ws_call", null],
  );
  assertEquals(
    server.api[2].headers.get("x-views-cache-control"),
    "no-cache, no-store",
  );
  assertInstanceOf(JSON.parse(server.api[0].body), Object);
  assertEquals(JSON.parse(server.api[0].body).managed_spot_training, false);

  await using other = startScriptedServer({
    steps: [{ respond: () => json(table) }, { respond: () => json(table) }],
  });
  const optedOut = clientFor(other, { viewsCacheControl: false }).client;
  await optedOut.deployedModels.views("dm", { query: { a: [1] } });
  const custom = clientFor(other, { viewsCacheControl: "no-cache" }).client;
  await custom.deployedModels.views("dm", { query: { a: [1] } });
  assertEquals(
    other.api.map((r) => r.headers.get("x-views-cache-control")),
    [null, "no-cache"],
  );
});

Deno.test("views: a body the caller parsed (validated: true) is not parsed again", async () => {
  const table = { columns: [], index: [], data: [] };
  await using server = startScriptedServer({
    steps: [{ respond: () => json(table) }, { respond: () => json(table) }],
  });
  const { client } = clientFor(server);
  const parsed = ViewsRequestSchema.parse({ query: { a: [1] } });
  await client.deployedModels.views("dm", parsed, { validated: true });
  assertEquals(JSON.parse(server.api[0].body), parsed);
  // Without the flag the body is checked here; with it, it goes as it is.
  const unchecked = { query: { a: [true] } } as never;
  await assertRejects(
    () => client.deployedModels.views("dm", unchecked),
    ValidationError,
  );
  await client.deployedModels.views("dm", unchecked, { validated: true });
  assertEquals(JSON.parse(server.api[1].body), { query: { a: [true] } });
  assertEquals(server.api.length, 2);
});

Deno.test("URLs: path and query written as URL + searchParams.set would, under a base path", async () => {
  const { Transport } = await import("../src/http/transport.ts");
  const { routes } = await import("../src/schemas/routes.ts");
  const { NotFoundError } = await import("../src/http/errors.ts");
  const seen: string[] = [];
  const transport = new Transport({
    baseUrl: "https://mlp.invalid/api/v2",
    clientId: "id",
    clientSecret: "s",
    fetch: (input) => {
      const url = (input as Request).url;
      seen.push(url);
      return Promise.resolve(
        new URL(url).pathname.endsWith("/oauth/token")
          ? Response.json({
            access_token: "t",
            token_type: "Bearer",
            expires_in: 3600,
          })
          : Response.json({ error_code: "NOT_FOUND", message: "no" }, {
            status: 404,
          }),
      );
    },
    timeout: 1000,
    maxRetries: 0,
    retryBaseDelay: 1,
    retryMaxDelay: 1,
    maxRetryAfter: 1,
    pollInterval: 1,
    viewsCacheControl: false,
    clock: Date.now,
    sleep: () => Promise.resolve(),
  });
  const query = {
    page: 2,
    "odd key": "a b&c=d/é?#+*-._~!'()",
    empty: "",
    skipped: undefined,
  };
  // "." and ".." are refused before sending: a URL resolves them away, so
  // the call would reach another path (`/workspaces/..` is `/`).
  for (const id of [".", ".."]) {
    const before = seen.length;
    const error = await assertRejects(
      () => transport.call(routes.workspaces.get, { params: { id }, query }),
      TypeError,
    );
    assert(error.message.includes(`is "${id}"`), error.message);
    assertEquals(seen.length, before, `"${id}" was sent`);
  }
  for (const id of ["w 1/..", "a.b", "ü%2e", "...", ".a"]) {
    const error = await assertRejects(
      () => transport.call(routes.workspaces.get, { params: { id }, query }),
      NotFoundError,
    );
    const expected = new URL(
      `https://mlp.invalid/api/v2/workspaces/${encodeURIComponent(id)}`,
    );
    expected.searchParams.set("page", "2");
    expected.searchParams.set("odd key", query["odd key"]);
    expected.searchParams.set("empty", "");
    assertEquals(seen.at(-1), expected.href);
    assert(
      error.message.startsWith(`GET ${expected.pathname}`),
      error.message,
    );
  }
});
