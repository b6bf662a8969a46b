/**
 * Every error status of the local platform, through the client (typed
 * errors) and raw (bodies per docs/api.md#errors and docs/contract.md#errors).
 */
import {
  assert,
  assertEquals,
  assertInstanceOf,
  assertMatch,
  assertRejects,
} from "@std/assert";
import {
  AuthenticationError,
  ConflictError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
  ValidationError,
} from "../src/http/errors.ts";
import { errorResponse } from "../src/local/http/error_response.ts";
import { clientFor, raw, setup, tokenFor } from "./_helpers/local_setup.ts";

Deno.test("local errors: 400 names the offending path (malformed JSON, wrong types, unknown bucket)", async () => {
  const { platform, client } = await setup();
  try {
    const token = await tokenFor(platform);
    const malformed = await raw(platform, "POST", "/workspaces", {
      token,
      text: "{oops",
      headers: { "Content-Type": "application/json" },
    });
    assertEquals(malformed.status, 400);
    assertEquals(malformed.body.error_code, "VALIDATION_ERROR");
    assertMatch(String(malformed.body.message), /not valid JSON/);
    const wrongType = await raw(platform, "POST", "/data-schemas", {
      token,
      body: {
        name: "s",
        fields: [{
          name: "x",
          data_type: { data_type: "NUMBER" },
          designation: "FEATURE",
          semantic_type: 7,
        }],
      },
    });
    assertEquals(wrongType.status, 400);
    assertEquals(wrongType.body.errors?.map((e) => e.path), [
      "fields.0.semantic_type",
    ]);
    const badQuery = await raw(
      platform,
      "GET",
      "/workspaces?items_per_page=500",
      { token },
    );
    assertEquals(badQuery.status, 400);
    assertEquals(badQuery.body.errors?.[0].path, "items_per_page");
    const e = await assertRejects(
      () =>
        client.storageConnectors.create({
          name: "x",
          bucket_name: "elsewhere",
        }),
      ValidationError,
    );
    assertEquals(e.status, 400);
    assertEquals(e.issues[0].path, "bucket_name");
    assertMatch(e.issues[0].message, /unknown bucket "elsewhere".*"demo"/);
    const tooMany = await raw(platform, "POST", "/training-configurations", {
      token,
      body: { name: "t", bins: 1 },
    });
    assertEquals(tooMany.status, 400);
    assertEquals(tooMany.body.errors?.[0].path, "bins");
  } finally {
    await platform.close();
  }
});

Deno.test("local errors: 401 without a token, with a bad one, with wrong credentials, with an expired one", async () => {
  // The platform's clock is the test's: the token expires when the test says,
  // not when a loaded machine happens to take more than a second.
  let now = Date.now();
  const { platform } = await setup({ tokenTtlSeconds: 1, clock: () => now });
  try {
    const none = await raw(platform, "GET", "/workspaces");
    assertEquals(none.status, 401);
    assertMatch(String(none.body.message), /POST \/oauth\/token/);
    assertEquals(
      (await raw(platform, "GET", "/workspaces", { token: "not.a.jwt" }))
        .status,
      401,
    );
    const wrong = clientFor(platform, {
      clientId: platform.credentials.clientId,
      clientSecret: "wrong",
    });
    await assertRejects(() => wrong.workspaces.list(), AuthenticationError);
    const token = await tokenFor(platform);
    assertEquals(
      (await raw(platform, "GET", "/workspaces", { token })).status,
      200,
    );
    // Tokens carry whole-second expiry: two seconds on, this one has expired.
    now += 2000;
    const expired = await raw(platform, "GET", "/workspaces", { token });
    assertEquals(expired.status, 401);
    assertMatch(String(expired.body.message), /expired/);
  } finally {
    await platform.close();
  }
});

Deno.test("local errors: 403 for another account's account record and for a suspended account", async () => {
  const { platform } = await setup({
    accounts: [
      {
        id: "acc_a",
        name: "A",
        credentials: [{ clientId: "a", clientSecret: "secret-a" }],
      },
      {
        id: "acc_b",
        name: "B",
        credentials: [{ clientId: "b", clientSecret: "secret-b" }],
      },
      {
        id: "acc_c",
        name: "C",
        status: "SUSPENDED",
        credentials: [{ clientId: "c", clientSecret: "secret-c" }],
      },
    ],
  });
  try {
    const a = clientFor(platform, { clientId: "a", clientSecret: "secret-a" });
    const e = await assertRejects(
      () => a.accounts.get("acc_b"),
      PermissionDeniedError,
    );
    assertEquals(e.status, 403);
    assertEquals(e.errorCode, "FORBIDDEN");
    await assertRejects(() => a.accounts.get("acc_nope"), NotFoundError);
    const c = clientFor(platform, { clientId: "c", clientSecret: "secret-c" });
    const suspended = await assertRejects(
      () => c.workspaces.list(),
      PermissionDeniedError,
    );
    assertMatch(suspended.message, /SUSPENDED/);
  } finally {
    await platform.close();
  }
});

Deno.test("local errors: 404 for unknown ids, unknown references and unknown routes", async () => {
  const { platform, client } = await setup();
  try {
    const e = await assertRejects(
      () => client.models.get("mdl_missing"),
      NotFoundError,
    );
    assertEquals(e.errorCode, "NOT_FOUND");
    assert(e.requestId, "the request id header is kept");
    const ref = await assertRejects(
      () =>
        client.ingestionConfigurations.create({
          name: "i",
          data_schema_id: "dsch_missing",
        }),
      NotFoundError,
    );
    assertMatch(ref.message, /data_schema_id/);
    await assertRejects(
      () => client.workspaces.delete("ws_missing"),
      NotFoundError,
    );
    const token = await tokenFor(platform);
    assertEquals(
      (await raw(platform, "GET", "/no-such-thing", { token })).status,
      404,
    );
  } finally {
    await platform.close();
  }
});

Deno.test("local errors: 409 conflict for duplicate names, integrity body listing dependants", async () => {
  const { platform, client } = await setup();
  try {
    await client.workspaces.create({ name: "lab" });
    const dup = await assertRejects(
      () => client.workspaces.create({ name: "lab" }),
      ConflictError,
    );
    assertEquals(dup.errorCode, "CONFLICT");
    assertEquals(dup.dependants.length, 0);
    const schema = await client.dataSchemas.create({
      name: "s",
      fields: [{
        name: "x",
        data_type: { data_type: "NUMBER", format: "INT64" },
        designation: "FEATURE",
        semantic_type: "CONTINUOUS",
      }],
    });
    const config = await client.ingestionConfigurations.create({
      name: "i",
      data_schema_id: schema.id,
    });
    const blocked = await assertRejects(
      () => client.dataSchemas.delete(schema.id),
      ConflictError,
    );
    assertEquals(blocked.errorCode, "INTEGRITY_ERROR");
    assertEquals(blocked.dependants, [{
      id: config.id,
      name: "i",
      dependant_type: "DATA_PROCESSING_INGESTION_CONFIGURATION",
    }]);
    // Endpoint 9: an onboarding configuration with no dependants deletes with 204.
    const oc = await client.onboardingConfigurations.create({
      name: "o",
      targets: ["y"],
    });
    const token = await tokenFor(platform);
    const res = await platform.fetch(
      new Request(
        `${platform.baseUrl}/data-processing-onboarding-configurations/${oc.id}`,
        {
          method: "DELETE",
          headers: { Authorization: `Bearer ${token}` },
        },
      ),
    );
    assertEquals(res.status, 204);
    assertEquals(await res.text(), "");
  } finally {
    await platform.close();
  }
});

Deno.test("local errors: injected 429 with Retry-After, 500 with error_reference, 202 + Location followed", async () => {
  const limited = await setup({
    faults: { rateLimit429: 1, retryAfterSeconds: 3 },
  });
  try {
    const token = await tokenFor(limited.platform).catch(() => "");
    assertEquals(token, "", "even the token call is limited");
    const res = await raw(limited.platform, "GET", "/workspaces");
    assertEquals(res.status, 429);
    assertEquals(res.headers.get("Retry-After"), "3");
    await assertRejects(() => limited.client.workspaces.list(), RateLimitError);
  } finally {
    await limited.platform.close();
  }
  const failing = await setup({ faults: { error500: 1 } });
  try {
    const e = await assertRejects(
      () => failing.client.workspaces.list(),
      ServerError,
    );
    assertEquals(e.status, 500);
    assertMatch(String(e.errorReference), /^err_/);
  } finally {
    await failing.platform.close();
  }
  const deferred = await setup({ faults: { accepted202: 1 } });
  try {
    const token = await tokenFor(deferred.platform);
    const res = await raw(deferred.platform, "POST", "/workspaces", {
      token,
      body: { name: "raw" },
    });
    assertEquals(res.status, 202);
    const location = res.headers.get("Location")!;
    assertMatch(location, /\/operations\/op_/);
    await new Promise((r) => setTimeout(r, 10));
    const polled = await raw(
      deferred.platform,
      "GET",
      new URL(location).pathname,
      { token },
    );
    assertEquals(polled.status, 201);
    assertEquals(polled.body.name, "raw");
    // The client follows the Location and returns the created resource.
    const ws = await deferred.client.workspaces.create({ name: "followed" });
    assertEquals(ws.name, "followed");
  } finally {
    await deferred.platform.close();
  }
});

Deno.test("local errors: seeded faults repeat exactly", async () => {
  const run = async () => {
    const { platform } = await setup({
      faults: { error500: 0.3, rateLimit429: 0.2, seed: 42 },
    });
    try {
      const statuses = [];
      for (let i = 0; i < 30; i++) {
        statuses.push((await raw(platform, "GET", "/workspaces")).status);
      }
      return statuses;
    } finally {
      await platform.close();
    }
  };
  const first = await run();
  assertEquals(await run(), first);
  assert(
    first.includes(500) && first.includes(429) && first.includes(401),
    first.join(),
  );
});

Deno.test("local errors: an unexpected failure is a 500 whose reference is logged with the stack", async () => {
  const logged: unknown[][] = [];
  const res = errorResponse(
    new TypeError("x is undefined"),
    (...args) => logged.push(args),
    "GET /x",
  );
  const body = await res.json();
  assertEquals(res.status, 500);
  assertMatch(body.error_reference, /^err_/);
  assertMatch(String(logged[0][0]), new RegExp(body.error_reference));
  assertInstanceOf(logged[0][1], TypeError);
  assert(
    !String(body.message).includes("x is undefined"),
    "internals are not sent",
  );
});
