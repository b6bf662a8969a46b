/**
 * An outside tester's hostile suite against the SDK's client side (the
 * transport, pagination, tokens, jobs and builders), with a fake service in
 * a custom `fetch`: what a hostile or broken server, or a JavaScript caller
 * passing odd values, can do to it. The local platform's HTTP API is probed
 * in tests/local_adversarial_test.ts, and the transport's ordinary
 * behaviours in tests/http_transport_test.ts and tests/http_retry_test.ts;
 * neither is repeated here.
 */
import {
  assert,
  assertEquals,
  assertInstanceOf,
  assertRejects,
} from "@std/assert";
import { Client, type ClientOptions } from "../src/client.ts";
import {
  ConnectionError,
  InvalidResponseError,
  MLPlatformError,
  RateLimitError,
} from "../src/http/errors.ts";
import { parseRetryAfter } from "../src/http/retry.ts";

const T = "2024-05-01T12:00:00.000000Z";
const ref = { id: "u_1", name: "me" };
const BASE = "http://api.test.invalid";

function workspace(id: string) {
  return { id, name: id, account: ref, created_at: T, created_by: ref };
}

function page<T>(data: T[], current: number, totalPages: number) {
  return {
    data,
    pagination: {
      total_items: totalPages * 10,
      items_per_page: 10,
      current_page: current,
      total_pages: totalPages,
    },
  };
}

/** One request the fake service received. */
interface Seen {
  method: string;
  url: URL;
  authorization: string | null;
  body: string;
}

type Handler = (req: Seen) => Response | Promise<Response>;

/**
 * A client whose fetch is `handler` (the token call included unless
 * `token` answers it), with recorded instant sleeps.
 */
function fake(
  handler: Handler,
  extra: Partial<ClientOptions> & { token?: Handler } = {},
) {
  const seen: Seen[] = [];
  const sleeps: number[] = [];
  let issued = 0;
  const { token, ...options } = extra;
  const client = new Client({
    baseUrl: BASE,
    clientId: "id",
    clientSecret: "s3cret",
    retryBaseDelay: 10,
    retryMaxDelay: 40,
    pollInterval: 5,
    clock: () => 1_000_000,
    sleep: (ms, signal) => {
      sleeps.push(ms);
      return signal?.aborted
        ? Promise.reject(signal.reason)
        : Promise.resolve();
    },
    fetch: async (input, init) => {
      const request = new Request(input, init);
      const req: Seen = {
        method: request.method,
        url: new URL(request.url),
        authorization: request.headers.get("authorization"),
        body: await request.text(),
      };
      seen.push(req);
      if (
        req.url.pathname.endsWith("/oauth/token") && req.url.origin === BASE
      ) {
        if (token) return token(req);
        return Response.json({
          access_token: `tok-${++issued}`,
          token_type: "Bearer",
          expires_in: 3600,
        });
      }
      return handler(req);
    },
    ...options,
  });
  return { client, seen, sleeps };
}

const foreign = (seen: Seen[]) => seen.filter((r) => r.url.origin !== BASE);

Deno.test("sdk adversarial: a token endpoint redirecting to another origin never gets the client secret there", async () => {
  // docs/contract.md#202-accepted: never sending the token to another
  // origin; docs/api.md#authentication: keep the credentials secret. A 307
  // keeps method and body, so following it would post the secret away.
  for (const status of [307, 308, 302, 301]) {
    const { client, seen } = fake(() => Response.json(page([], 1, 0)), {
      token: () =>
        new Response(null, {
          status,
          headers: { location: "http://evil.invalid/steal" },
        }),
    });
    await assertRejects(() => client.workspaces.list(), MLPlatformError);
    for (const r of foreign(seen)) {
      assert(!r.body.includes("s3cret"), `${status}: secret sent to ${r.url}`);
      assertEquals(r.authorization, null);
    }
  }
});
