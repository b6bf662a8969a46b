/**
 * The local platform's request path after its speed-ups: every answer still
 * carries an `X-Request-Id` (the caller's, or a new one), a remembered token
 * is still checked (a tampered copy of a good token is refused after the
 * good one was accepted), and a body is read the same way whether its size
 * is declared or streamed, and a views call taken past Hono's router (a
 * plain URL) answers exactly as through it (any other form of the URL).
 */
import { assert, assertEquals, assertMatch } from "@std/assert";
import {
  deployPenguins,
  penguinQuery,
  raw,
  setup,
  tokenFor,
  untilRunning,
} from "./_helpers/local_setup.ts";

Deno.test("request path: every answer carries X-Request-Id, the caller's echoed", async () => {
  const { platform } = await setup();
  try {
    const token = await tokenFor(platform);
    const answers = [
      await raw(platform, "GET", "/workspaces", { token }),
      await raw(platform, "POST", "/workspaces", { token, body: { name: 7 } }),
      await raw(platform, "GET", "/workspaces"),
      await raw(platform, "GET", "/no-such-route", { token }),
      await raw(platform, "GET", "/openapi.json"),
      await raw(platform, "GET", "/operations/op_none", { token }),
    ];
    assertEquals(answers.map((a) => a.status), [200, 400, 401, 404, 200, 404]);
    const ids = answers.map((a) => a.headers.get("X-Request-Id"));
    for (const id of ids) assertMatch(String(id), /^req_\w+$/);
    assertEquals(new Set(ids).size, ids.length, "ids must differ");
    const echoed = await raw(platform, "GET", "/workspaces", {
      token,
      headers: { "X-Request-Id": "mine-1" },
    });
    assertEquals(echoed.headers.get("X-Request-Id"), "mine-1");
  } finally {
    await platform.close();
  }
});

Deno.test("request path: a remembered token does not let a tampered copy through", async () => {
  const { platform } = await setup();
  try {
    const token = await tokenFor(platform);
    for (let i = 0; i < 2; i++) {
      assertEquals(
        (await raw(platform, "GET", "/workspaces", { token })).status,
        200,
      );
    }
    const last = token.at(-1) === "A" ? "B" : "A";
    const tampered = token.slice(0, -1) + last;
    const refused = await raw(platform, "GET", "/workspaces", {
      token: tampered,
    });
    assertEquals(refused.status, 401);
    assertMatch(String(refused.body.message), /not valid/);
    // Changed only in the signature's unused low bits (which a base64
    // decoder ignores): the same bytes, but not the token that was issued.
    const alphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const lastBits = token.slice(0, -1) +
      alphabet[alphabet.indexOf(token.at(-1)!) ^ 1];
    assertEquals(
      (await raw(platform, "GET", "/workspaces", { token: lastBits })).status,
      401,
    );
    // The payload changed, signature kept: refused too.
    const [h, p, s] = token.split(".");
    const claims = JSON.parse(atob(p.replace(/-/g, "+").replace(/_/g, "/")));
    const forged = [
      h,
      btoa(JSON.stringify({ ...claims, exp: claims.exp + 3600 }))
        .replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_"),
      s,
    ].join(".");
    assertEquals(
      (await raw(platform, "GET", "/workspaces", { token: forged })).status,
      401,
    );
  } finally {
    await platform.close();
  }
});

Deno.test("request path: a body is read alike with a declared size and streamed", async () => {
  const { platform } = await setup();
  try {
    const token = await tokenFor(platform);
    const text = JSON.stringify({ name: "sized" });
    const sized = await platform.fetch(
      new Request(`${platform.baseUrl}/workspaces`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${token}`,
          "Content-Type": "application/json",
          "Content-Length": String(text.length),
        },
        body: text,
      }),
    );
    assertEquals(sized.status, 201);
    assertEquals((await sized.json()).name, "sized");
    const streamed = await platform.fetch(
      new Request(`${platform.baseUrl}/workspaces`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${token}`,
          "Content-Type": "application/json",
        },
        body: new Blob([JSON.stringify({ name: "streamed" })]).stream(),
      }),
    );
    assertEquals(streamed.status, 201);
    assertEquals((await streamed.json()).name, "streamed");
    // Bad UTF-8 with a declared size: a 400 saying so, not a crash.
    const bytes = new Uint8Array([123, 34, 110, 34, 58, 34, 0xff, 34, 125]);
    const bad = await platform.fetch(
      new Request(`${platform.baseUrl}/workspaces`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${token}`,
          "Content-Type": "application/json",
          "Content-Length": String(bytes.length),
        },
        body: bytes,
      }),
    );
    assertEquals(bad.status, 400);
    assert(/UTF-8/.test((await bad.json()).message));
    // A replacement character sent as good UTF-8 is text like any other
    // (bad bytes decode to one, so the fast decode checks again).
    const replaced = await platform.fetch(
      new Request(`${platform.baseUrl}/workspaces`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${token}`,
          "Content-Type": "application/json",
        },
        body: JSON.stringify({ name: "a\uFFFDb" }),
      }),
    );
    assertEquals(replaced.status, 201);
    assertEquals((await replaced.json()).name, "a\uFFFDb");
  } finally {
    await platform.close();
  }
});

Deno.test("request path: a views call answers alike past Hono's router and through it", async () => {
  const { platform, client } = await setup();
  try {
    const { dm } = await deployPenguins(client);
    await untilRunning(client, dm.id);
    const token = await tokenFor(platform);
    const body = { query: penguinQuery(2) };
    const path = `/deployed-models/${dm.id}/views`;
    // Plain: the direct route. With a query string: through Hono.
    const direct = await raw(platform, "POST", path, { token, body });
    const routed = await raw(platform, "POST", `${path}?via=hono`, {
      token,
      body,
    });
    assertEquals(direct.status, 200);
    assertEquals(routed.status, 200);
    assertEquals(direct.body, routed.body);
    for (const answer of [direct, routed]) {
      assertMatch(String(answer.headers.get("X-Request-Id")), /^req_\w+$/);
      assertEquals(answer.headers.get("Cache-Control"), "no-store");
      assertEquals(answer.headers.get("Content-Type"), "application/json");
    }
    // The same errors either way: no token, a bad body, an unknown id.
    for (const suffix of ["", "?via=hono"]) {
      const unauthenticated = await raw(platform, "POST", path + suffix, {
        body,
      });
      assertEquals(unauthenticated.status, 401);
      const bad = await raw(platform, "POST", path + suffix, {
        token,
        body: { query: { island: [1, 2], nope: ["x"] } },
      });
      assertEquals(bad.status, 400);
      const unknown = await raw(
        platform,
        "POST",
        `/deployed-models/dm_none/views${suffix}`,
        { token, body },
      );
      assertEquals(unknown.status, 404);
      assertMatch(String(unknown.headers.get("X-Request-Id")), /^req_\w+$/);
    }
    // An encoded id is decoded by Hono's route, as before.
    const encoded = await raw(
      platform,
      "POST",
      `/deployed-models/${encodeURIComponent(dm.id).replace("_", "%5F")}/views`,
      { token, body },
    );
    assertEquals(encoded.body, direct.body);
    // Other methods and a trailing slash are Hono's: no such operation.
    assertEquals((await raw(platform, "GET", path, { token })).status, 404);
    assertEquals(
      (await raw(platform, "POST", `${path}/`, { token, body })).status,
      404,
    );
  } finally {
    await platform.close();
  }
});

Deno.test("request path: local() with a base URL that has a path answers under it, 202 + Location included", async () => {
  // The path is where the in-process client sends its requests; the app
  // routes from the root, as behind a proxy that removes the path. Every
  // call was a 404 naming /api/v1/oauth/token.
  const { local } = await import("../local.ts");
  const ml = await local({
    baseUrl: "http://mlplatform.local/api/v1/",
    buckets: { data: "datasets" },
    // A views call of more than 100 rows is answered 202 + Location.
    viewsAsyncRows: 100,
    progress: false,
  });
  try {
    const ws = await ml.workspaces.create({ name: "w" });
    assertEquals((await ml.workspaces.get(ws.id)).id, ws.id);
    const { deployment } = await ml.quickstart({
      bucket: "data",
      path: "penguins.csv",
      target: "species",
      training: { maxRounds: 20, estimators: 2 },
    });
    // More rows than a views call answers at once: 202 and its Location,
    // which the client follows under the same base.
    const n = 300;
    const result = await deployment.views({
      island: Array(n).fill("Biscoe"),
      bill_length_mm: Array(n).fill(45.2),
      bill_depth_mm: Array(n).fill(15),
      flipper_length_mm: Array(n).fill(200),
      body_mass_g: Array(n).fill(4000),
      sex: Array(n).fill("male"),
    });
    assertEquals(result.rows().length, n);
  } finally {
    await ml.close();
  }
});
