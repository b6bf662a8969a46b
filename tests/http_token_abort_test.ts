/**
 * The shared token request and its callers' signals. Concurrent calls share
 * one `POST /oauth/token` (token.ts), and a caller's signal ends only its own
 * wait. But once every caller waiting for it has given up, nobody is left
 * for its answer: it stops too, its retries and backoff with it. Against an
 * unreachable service, a script whose call was aborted after 1 s (a
 * `signal: AbortSignal.timeout(1000)`) rejected at 1 s, yet Node stayed
 * alive for 42 s more while the orphaned token request retried.
 */
import { assert, assertEquals, assertRejects } from "@std/assert";
import { Client } from "../src/client.ts";

const TOKEN = { access_token: "t1", token_type: "Bearer", expires_in: 3600 };
const PAGE = {
  data: [],
  pagination: {
    total_items: 0,
    items_per_page: 10,
    current_page: 1,
    total_pages: 1,
  },
};

/**
 * A client whose fetch fails (as a refused connection does) until `up()`,
 * then answers the token and an empty page; sleeps are real but short
 * (2 ms), so a request that retries keeps retrying while the test watches.
 */
function unreachable() {
  let reachable = false;
  const attempts = { token: 0, api: 0 };
  const client = new Client({
    baseUrl: "http://platform.test",
    clientId: "id",
    clientSecret: "secret",
    maxRetries: 10_000,
    retryTimeout: 600_000,
    retryBaseDelay: 1,
    retryMaxDelay: 2,
    fetch: (input: string | URL | Request) => {
      const url = input instanceof Request ? input.url : String(input);
      const isToken = url.endsWith("/oauth/token");
      if (isToken) attempts.token++;
      else attempts.api++;
      if (!reachable) {
        return Promise.reject(new TypeError("connection refused"));
      }
      return Promise.resolve(
        Response.json(isToken ? TOKEN : PAGE, {
          headers: { "content-type": "application/json" },
        }),
      );
    },
  });
  return { client, attempts, up: () => (reachable = true) };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await pause(2);
  assert(check(), `timed out waiting until ${what}`);
}

Deno.test("token: when its only caller aborts, the token request stops retrying", async () => {
  const { client, attempts } = unreachable();
  const controller = new AbortController();
  const call = client.workspaces.list({}, { signal: controller.signal });
  await until(() => attempts.token >= 2, "the token request retries");
  const reason = new Error("the caller gave up");
  controller.abort(reason);
  const error = await call.catch((e) => e);
  assertEquals(error, reason);
  await pause(20);
  const after = attempts.token;
  await pause(60);
  assertEquals(
    attempts.token,
    after,
    "no one waits for the token any more, yet its request retried on",
  );
  assertEquals(attempts.api, 0);
});

Deno.test("token: a caller that aborts leaves the shared request to the callers still waiting", async () => {
  const { client, attempts, up } = unreachable();
  const leaving = new AbortController();
  const staying = new AbortController();
  const gone = client.workspaces.list({}, { signal: leaving.signal });
  const waiting = client.workspaces.list({}, { signal: staying.signal });
  const unsignalled = client.workspaces.list();
  await until(() => attempts.token >= 2, "the token request retries");
  leaving.abort(new Error("left"));
  await assertRejects(() => gone, Error, "left");
  up();
  assertEquals((await waiting).data, []);
  assertEquals((await unsignalled).data, []);
  // One token request for all three: the one that left stopped nothing.
  assertEquals(attempts.api, 2);
  const before = attempts.token;
  await client.workspaces.list();
  assertEquals(attempts.token, before, "the token is cached");
});

Deno.test("token: after every caller left, the next call asks for a token afresh", async () => {
  const { client, attempts, up } = unreachable();
  const controller = new AbortController();
  const call = client.workspaces.list({}, { signal: controller.signal });
  await until(() => attempts.token >= 1, "the token request starts");
  controller.abort(new Error("gone"));
  await assertRejects(() => call, Error, "gone");
  up();
  assertEquals((await client.workspaces.list()).data, []);
  // An already aborted signal sends nothing at all.
  const before = { ...attempts };
  const aborted = new AbortController();
  aborted.abort(new Error("never"));
  const fresh = unreachable();
  await assertRejects(
    () => fresh.client.workspaces.list({}, { signal: aborted.signal }),
    Error,
    "never",
  );
  await pause(20);
  assertEquals(fresh.attempts, { token: 0, api: 0 });
  assertEquals(attempts, before);
});
