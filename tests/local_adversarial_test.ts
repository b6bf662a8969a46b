/**
 * An outside tester's hostile suite against the local platform's HTTP API
 * (docs/api.md, docs/contract.md): odd bodies, ids, query strings and
 * tokens, another account's ids, paths that try to leave the bucket, and
 * the bad input of batch views jobs (issue 23, item 6). Each answer must be
 * the status and JSON error body the specification gives, never a 500, and
 * a refused request must leave nothing behind. What tests/local_errors_test.ts,
 * tests/local_hostile_input_test.ts, tests/local_isolation_test.ts and
 * tests/batch_platform_test.ts already hold is not repeated here.
 */
import { assert, assertEquals, assertMatch } from "@std/assert";
import { serveNode } from "../src/local/http/node_serve.ts";
import { openSqliteStore } from "../src/local/store/sqlite_store.ts";
import { local, type LocalMLPlatform } from "../local.ts";
import type { Deployment } from "../src/builders/deployment.ts";
import { ValidationError } from "../src/http/errors.ts";
import { churnCsv, churnRows } from "./_helpers/batch.ts";
import { clientFor, raw, setup, tokenFor } from "./_helpers/local_setup.ts";

type Answer = Awaited<ReturnType<typeof raw>>;

/** Two accounts, A (the platform's default credentials) and B. */
const ACCOUNTS = [
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
];

/**
 * docs/contract.md#errors: every error body has `message` and one of the
 * listed `error_code`s; a 400 also lists `errors`, one per offending field.
 */
function assertError(
  res: Answer,
  status: number,
  code: string,
  what: string,
  field?: string,
): void {
  assertEquals(res.status, status, `${what}: ${JSON.stringify(res.body)}`);
  assertEquals(res.body.error_code, code, what);
  assert(
    typeof res.body.message === "string" && res.body.message.length > 0,
    what,
  );
  if (field !== undefined) {
    assert(
      res.body.errors?.some((e) => e.path === field),
      `${what}: no issue names "${field}": ${JSON.stringify(res.body.errors)}`,
    );
  }
}

Deno.test("local adversarial: bodies that are not the object a create takes are 400s, and store nothing", async () => {
  const dataDir = await Deno.makeTempDir();
  try {
    const { platform } = await setup({ dataDir });
    const token = await tokenFor(platform);
    const json = { "Content-Type": "application/json" };
    // docs/contract.md#errors: 400 validation failure; the body is refused
    // as a whole when it is not a JSON object at all.
    for (
      const text of [
        "[]",
        "null",
        '"lab"',
        "42",
        "true",
        '{"name":"a"} trailing',
        '{"name":"a",}',
        '{"name":"a"',
        "NaN",
      ]
    ) {
      const res = await raw(platform, "POST", "/workspaces", {
        token,
        text,
        headers: json,
      });
      assertError(res, 400, "VALIDATION_ERROR", text);
    }
    // A name of another JSON type is named as `name`.
    for (const name of [123, ["lab"], { $ne: null }, null, true, "", "   "]) {
      const res = await raw(platform, "POST", "/workspaces", {
        token,
        body: { name },
      });
      assertError(res, 400, "VALIDATION_ERROR", JSON.stringify(name), "name");
    }
    // Ids that reference others must be strings, named by their field.
    for (const id of [7, null, ["dsch_1"], { $gt: "" }]) {
      const res = await raw(
        platform,
        "POST",
        "/data-processing-ingestion-configurations",
        { token, body: { name: "ic", data_schema_id: id } },
      );
      assertError(
        res,
        400,
        "VALIDATION_ERROR",
        JSON.stringify(id),
        "data_schema_id",
      );
    }
    // Fields the service assigns are not the caller's to set: an id, the
    // account (another's), timestamps, the creator, a status.
    const forged = await raw(platform, "POST", "/workspaces", {
      token,
      body: {
        name: "forged",
        id: "ws_mine",
        account: { id: "acc_other", name: "Other" },
        created_at: "1970-01-01T00:00:00.000000Z",
        created_by: { id: "usr_x", name: "X" },
        status: "COMPLETED",
      },
    });
    assertEquals(forged.status, 201);
    assert(forged.body.id !== "ws_mine");
    assert((forged.body.account as { id: string }).id !== "acc_other");
    assert(!String(forged.body.created_at).startsWith("1970"));
    assertEquals("status" in forged.body, false);
    await raw(platform, "DELETE", `/workspaces/${forged.body.id}`, { token });
    // JSON with another charset is another media type (415).
    const latin = await raw(platform, "POST", "/workspaces", {
      token,
      text: '{"name":"x"}',
      headers: { "Content-Type": "application/json; charset=iso-8859-1" },
    });
    assertError(latin, 415, "UNSUPPORTED_MEDIA_TYPE", "latin-1");
    // Bytes that are not UTF-8 under a JSON type: a 400, not a 500.
    const bad = await platform.fetch(
      new Request(`${platform.baseUrl}/workspaces`, {
        method: "POST",
        headers: { ...json, Authorization: `Bearer ${token}` },
        body: new Uint8Array([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0xfe]),
      }),
    );
    assertEquals(bad.status, 400);
    assertEquals((await bad.json()).error_code, "VALIDATION_ERROR");
    const list = await raw(platform, "GET", "/workspaces", { token });
    assertEquals(list.body.data, []);
    await platform.close();
    const store = await openSqliteStore(dataDir);
    try {
      assertEquals(store.all("workspaces").length, 0);
    } finally {
      store.close();
    }
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("local adversarial: odd ids and page queries are 404s and 400s naming the parameter", async () => {
  const { platform } = await setup();
  try {
    const token = await tokenFor(platform);
    await raw(platform, "POST", "/workspaces", { token, body: { name: "w" } });
    // docs/contract.md#errors: an unknown id is a 404 with a JSON body,
    // whatever its characters. (A lone `%2e%2e` segment is not an id: the
    // URL standard reads it as `..`, before any server sees it.)
    for (
      const id of [
        "%00",
        "%2E%2E%2Faccounts",
        "..%2F..%2Faccounts",
        "%F0%9F%92%A5",
        "%FF",
        "x".repeat(10_000),
        "ws_%0Aevil",
      ]
    ) {
      for (const method of ["GET", "DELETE"]) {
        const res = await raw(platform, method, `/workspaces/${id}`, { token });
        assertError(res, 404, "NOT_FOUND", `${method} ${id.slice(0, 20)}`);
      }
    }
    // docs/contract.md#lists: pages are 1-based integers, at most 100 a page.
    for (
      const [query, field] of [
        ["page=0", "page"],
        ["page=-1", "page"],
        ["page=1.5", "page"],
        ["page=NaN", "page"],
        ["page=Infinity", "page"],
        ["page=1e400", "page"],
        ["page=", "page"],
        ["page=abc", "page"],
        ["page=99999999999999999999", "page"],
        ["items_per_page=0", "items_per_page"],
        ["items_per_page=101", "items_per_page"],
        ["items_per_page=-5", "items_per_page"],
        ["items_per_page=1e2x", "items_per_page"],
      ]
    ) {
      const res = await raw(platform, "GET", `/workspaces?${query}`, { token });
      assertError(res, 400, "VALIDATION_ERROR", query, field);
    }
    // A page past the end is an empty page with a true count; unknown
    // parameters are ignored (docs/api.md#conventions: tolerance).
    const past = await raw(
      platform,
      "GET",
      "/workspaces?page=900000&items_per_page=100&sort=name&page_token=x",
      { token },
    );
    assertEquals(past.status, 200);
    assertEquals(past.body.data, []);
    assertEquals(past.body.pagination, {
      total_items: 1,
      items_per_page: 100,
      current_page: 900000,
      total_pages: 1,
    });
  } finally {
    await platform.close();
  }
});

Deno.test("local adversarial: names with NUL, lone surrogates and other scripts come back as sent, after a restart too", async () => {
  const dataDir = await Deno.makeTempDir();
  try {
    const names = [
      "a\u0000b",
      "lone \ud800 surrogate",
      "\u{1F4A5} 爆発 ',\"; DROP TABLE records; --",
      "e\u0301", // e + combining accent: another name than "é"
      "\u00e9",
    ];
    let { platform } = await setup({ dataDir });
    let token = await tokenFor(platform);
    const ids: string[] = [];
    for (const name of names) {
      const res = await raw(platform, "POST", "/workspaces", {
        token,
        body: { name },
      });
      assertEquals(res.status, 201, JSON.stringify(res.body));
      assertEquals(res.body.name, name);
      ids.push(String(res.body.id));
    }
    // docs/contract.md#create-bodies-and-defaults: a taken name is a 409.
    const again = await raw(platform, "POST", "/workspaces", {
      token,
      body: { name: names[0] },
    });
    assertError(again, 409, "CONFLICT", "NUL name twice");
    await platform.close();
    ({ platform } = await setup({ dataDir }));
    token = await tokenFor(platform);
    for (const [i, id] of ids.entries()) {
      const res = await raw(platform, "GET", `/workspaces/${id}`, { token });
      assertEquals(res.body.name, names[i], `name ${i} after a restart`);
    }
    await platform.close();
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("local adversarial: concurrent creates of one name: exactly one 201, the others 409", async () => {
  const { platform } = await setup();
  try {
    const token = await tokenFor(platform);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        raw(platform, "POST", "/workspaces", {
          token,
          body: { name: "race" },
        })),
    );
    const statuses = answers.map((a) => a.status).sort();
    assertEquals(statuses, [201, ...Array(19).fill(409)]);
    const list = await raw(platform, "GET", "/workspaces", { token });
    assertEquals((list.body.data as unknown[]).length, 1);
  } finally {
    await platform.close();
  }
});

/** A JWT of `payload` signed with `key` (HS256), or unsigned with "none". */
async function forge(
  payload: Record<string, unknown>,
  key: Uint8Array<ArrayBuffer> | "none",
): Promise<string> {
  const b64 = (bytes: Uint8Array) =>
    btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(
      /\//g,
      "_",
    ).replace(/=+$/, "");
  const text = (value: unknown) =>
    b64(new TextEncoder().encode(JSON.stringify(value)));
  const head = text({ alg: key === "none" ? "none" : "HS256", typ: "JWT" });
  const body = `${head}.${text(payload)}`;
  if (key === "none") return `${body}.`;
  const hmac = await crypto.subtle.importKey(
    "raw",
    key,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const sig = await crypto.subtle.sign(
    "HMAC",
    hmac,
    new TextEncoder().encode(body),
  );
  return `${body}.${b64(new Uint8Array(sig))}`;
}

Deno.test("local adversarial: forged, garbled and foreign tokens are 401s that reveal nothing", async () => {
  const { platform } = await setup({ accounts: ACCOUNTS });
  const other = await setup({ accounts: ACCOUNTS });
  try {
    const a = await tokenFor(platform, {
      clientId: "a",
      clientSecret: "secret-a",
    });
    const ws = await raw(platform, "POST", "/workspaces", {
      token: a,
      body: { name: "secret-workspace" },
    });
    const [head, payload] = a.split(".");
    const claims = JSON.parse(
      atob(payload.replace(/-/g, "+").replace(/_/g, "/")),
    );
    const far = Math.floor(Date.now() / 1000) + 3600;
    const tokens = {
      "alg none": await forge({ ...claims, exp: far }, "none"),
      "random key": await forge(
        { ...claims, exp: far },
        crypto.getRandomValues(new Uint8Array(32)),
      ),
      "payload swapped": `${head}.${
        btoa(JSON.stringify({ ...claims, exp: far })).replace(/=+$/, "")
      }.${a.split(".")[2]}`,
      "another platform's": await tokenFor(other.platform, {
        clientId: "a",
        clientSecret: "secret-a",
      }),
      "two dots": "..",
      "unicode": "t\u00f6ken.\u00e9.x",
      "empty": "",
    };
    for (const [what, token] of Object.entries(tokens)) {
      const res = await raw(platform, "GET", `/workspaces/${ws.body.id}`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      assertEquals(res.status, 401, what);
      assertEquals(res.body.error_code, "UNAUTHORIZED", what);
      assert(!JSON.stringify(res.body).includes("secret-workspace"), what);
    }
    for (const header of ["Basic YTpzZWNyZXQtYQ==", `Token ${a}`, a]) {
      const res = await raw(platform, "GET", "/workspaces", {
        headers: { Authorization: header },
      });
      assertEquals(res.status, 401, header.slice(0, 12));
    }
  } finally {
    await platform.close();
    await other.platform.close();
  }
});

Deno.test("local adversarial: the client refuses ids a URL would resolve away, before sending", async () => {
  const { platform } = await setup();
  try {
    const calls: string[] = [];
    const client = clientFor(platform, platform.credentials, {
      fetch: (input: Request | URL | string, init?: RequestInit) => {
        const request = new Request(input, init);
        calls.push(`${request.method} ${new URL(request.url).pathname}`);
        return platform.fetch(request);
      },
    });
    const schema = await client.dataSchemas.create({
      name: "s",
      fields: [{
        name: "x",
        data_type: { data_type: "NUMBER", format: "INT64" },
        designation: "FEATURE",
        semantic_type: "CONTINUOUS",
      }],
    });
    const sent = calls.length;
    // `/workspaces/..` is `/`, `/training-jobs/../cancel` is `/cancel`, and
    // `/data-schemas/S/friendly-names/..` is `/data-schemas/S/`: on a
    // lenient server, the schema itself.
    const attempts: [string, () => Promise<unknown>][] = [
      ["workspaces.get", () => client.workspaces.get("..")],
      ["workspaces.delete", () => client.workspaces.delete(".")],
      ["trainingJobs.cancel", () => client.trainingJobs.cancel("..")],
      [
        "friendlyNames.delete",
        () => client.friendlyNames.delete({ id: schema.id }, ".."),
      ],
      ["friendlyNames.get", () => client.friendlyNames.get({ id: ".." }, "x")],
    ];
    for (const [what, attempt] of attempts) {
      const error = await attempt().then(() => undefined, (e) => e);
      assert(error instanceof TypeError, `${what}: ${error}`);
      assertMatch(error.message, /"(id|label_id)"/, what);
      assertMatch(error.message, /is "\.\.?"/, what);
    }
    // From JavaScript: a resource or null where its id goes was sent as
    // text (GET /models/%5Bobject%20Object%5D, a 404 hiding the mistake).
    const model = { id: "mdl_1", name: "m" };
    for (
      const [what, attempt] of [
        ["models.get(model)", () => client.models.get(model as never)],
        ["models.delete(null)", () => client.models.delete(null as never)],
        [
          "trainingJobs.cancel(7)",
          () => client.trainingJobs.cancel(7 as never),
        ],
      ] as const
    ) {
      const error = await attempt().then(() => undefined, (e) => e);
      assert(error instanceof TypeError, `${what}: ${error}`);
      assertMatch(
        error.message,
        /"id" .* is (of type object|null|of type number), not an id/,
        what,
      );
    }
    assertEquals(calls.slice(sent), [], "a request was sent");
    assertEquals((await client.dataSchemas.get(schema.id)).id, schema.id);
  } finally {
    await platform.close();
  }
});

/**
 * Sends `head` (and `body`) on a raw connection and reads the answer's
 * status line and JSON body; gives up after `waitMs` (a server still
 * waiting for the rest of a body answers nothing: "no answer").
 */
async function rawHttp(
  port: number,
  head: string,
  waitMs = 5000,
): Promise<{ status: number; body: Record<string, unknown> } | "no answer"> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const timer = setTimeout(() => conn.close(), waitMs);
  let text = "";
  try {
    await conn.write(new TextEncoder().encode(head));
    const buf = new Uint8Array(65536);
    const decoder = new TextDecoder();
    for (;;) {
      const n = await conn.read(buf);
      if (n === null) break;
      text += decoder.decode(buf.subarray(0, n), { stream: true });
      const end = text.indexOf("\r\n\r\n");
      const length = /content-length: *(\d+)/i.exec(text);
      if (end >= 0 && length && text.length >= end + 4 + Number(length[1])) {
        break;
      }
      if (end >= 0 && !length && text.endsWith("\r\n0\r\n\r\n")) break;
    }
  } catch { /* closed by the timer, or by the server */ }
  clearTimeout(timer);
  try {
    conn.close();
  } catch { /* already closed */ }
  const status = /^HTTP\/1\.1 (\d{3})/.exec(text);
  if (!status) return "no answer";
  let json = text.slice(text.indexOf("\r\n\r\n") + 4);
  if (
    /transfer-encoding: *chunked/i.test(text.slice(0, text.indexOf("\r\n\r\n")))
  ) {
    let plain = "";
    for (let at = 0;;) {
      const eol = json.indexOf("\r\n", at);
      const size = parseInt(json.slice(at, eol), 16);
      if (!size) break;
      plain += json.slice(eol + 2, eol + 2 + size);
      at = eol + 2 + size + 2;
    }
    json = plain;
  }
  return { status: Number(status[1]), body: json ? JSON.parse(json) : {} };
}

Deno.test("local adversarial: over HTTP (Deno.serve and node:http), a body declared over the limit is a 413 before it is sent, and dot segments route as the URL says", async () => {
  const { platform } = await setup({ limits: { maxBodyBytes: 4096 } });
  const token = await tokenFor(platform);
  const deno = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    (r) => platform.fetch(r),
  );
  const node = await serveNode((r) => platform.fetch(r), {
    port: 0,
    host: "127.0.0.1",
  });
  try {
    for (
      const [server, port] of [["deno", deno.addr.port], [
        "node",
        node.port,
      ]] as const
    ) {
      // docs/contract.md#errors: "413 a request body over the size limit".
      // 10 GB declared, 10 bytes sent: the answer cannot wait for the rest
      // (node:http buffered every body whole before the app saw it).
      const huge = await rawHttp(
        port,
        `POST /workspaces HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 10000000000\r\n\r\n{"name":"`,
      );
      assert(huge !== "no answer", `${server}: no answer to a 10 GB body`);
      assertEquals(huge.status, 413, server);
      assertEquals(huge.body.error_code, "PAYLOAD_TOO_LARGE", server);
      // Within the limit, over HTTP, the body still arrives whole.
      const ok = await rawHttp(
        port,
        `POST /workspaces HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 19\r\nConnection: close\r\n\r\n{"name":"${server}-ws!"}`,
      );
      assert(ok !== "no answer", server);
      assertEquals([ok.status, ok.body.name], [201, `${server}-ws!`], server);
      // A path with a dot segment is the path the URL standard makes of
      // it, on either server as in process: /workspaces/../accounts is
      // GET /accounts.
      const dots = await rawHttp(
        port,
        `GET /workspaces/../accounts HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n\r\n`,
      );
      assert(dots !== "no answer", server);
      assertEquals(dots.status, 200, `${server}: ${JSON.stringify(dots.body)}`);
      assert(Array.isArray(dots.body.data), server);
      // A path starting with two slashes is a path, not another host: the
      // 202's Location is made from the request's URL.
      const twoSlashes = await rawHttp(
        port,
        `GET //evil.example/workspaces HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n\r\n`,
      );
      assert(twoSlashes !== "no answer", server);
      assertEquals(
        twoSlashes.status,
        404,
        `${server}: ${JSON.stringify(twoSlashes.body)}`,
      );
      assertMatch(
        String(twoSlashes.body.message),
        /GET \/\/evil\.example\/workspaces/,
      );
      // A body goes along with a resolved path (%2e is a dot too).
      const posted = await rawHttp(
        port,
        `POST /x/%2e%2e/workspaces HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 19\r\nConnection: close\r\n\r\n{"name":"${server}-dot"}`,
      );
      assert(posted !== "no answer", server);
      assertEquals(
        [posted.status, posted.body.name],
        [201, `${server}-dot`],
        server,
      );
    }
  } finally {
    await deno.shutdown();
    await node.close();
    await platform.close();
  }
});

Deno.test("local adversarial: quickstart with bad input is a ValidationError naming the option, before anything is made", async () => {
  const dir = await Deno.makeTempDir({ prefix: "adv_quick_" });
  await Deno.writeTextFile(`${dir}/t.csv`, churnCsv(churnRows(60, 1)));
  const ml = await local({ buckets: { b: dir }, progress: false });
  const collections = [
    "storageConnectors",
    "dataSchemas",
    "ingestionConfigurations",
    "ingestionJobs",
    "onboardingConfigurations",
    "trainingConfigurations",
    "computeConfigurations",
  ] as const;
  try {
    const cases: [Record<string, unknown>, string][] = [
      [{ path: "../t.csv" }, "data_path"],
      [{ path: "nope.csv" }, "data_path"],
      [{ bucket: "zz" }, "storage_connector_id"],
      [{ target: "nope" }, "target"],
      // A typo in a column to leave out kept the column as a feature.
      [{ exclude: ["ID"] }, "exclude.0"],
      // Training options were refused only after ingestion and onboarding.
      [{ training: { maxRounds: -1 } }, "max_rounds"],
      [
        { training: { monotone: { tenur: "increasing" } } },
        "training.monotone.tenur",
      ],
      [
        { exclude: ["id"], training: { interactions: [["id", "tenure"]] } },
        "training.interactions.0.0",
      ],
    ];
    for (const [patch, field] of cases) {
      const error = await ml.quickstart({
        bucket: "b",
        path: "t.csv",
        target: "churn",
        progress: false,
        ...patch,
      } as never).then(() => undefined, (e) => e);
      const what = JSON.stringify(patch);
      assert(error instanceof ValidationError, `${what}: ${error}`);
      assert(
        error.issues.some((i: { path: string }) =>
          i.path === field || i.path.startsWith(`${field} (option`)
        ),
        `${what}: ${JSON.stringify(error.issues)}`,
      );
      for (const c of collections) {
        assertEquals((await ml[c].list()).data, [], `${what} made ${c}`);
      }
    }
  } finally {
    await ml.close();
    await Deno.remove(dir, { recursive: true });
  }
});

/** A platform of two accounts with a churn model of A's deployed, made once. */
interface Served {
  ml: LocalMLPlatform;
  dir: string;
  outside: string;
  /** Tokens of A and B. */
  a: string;
  b: string;
  /** A's deployed model (and its SDK object), storage connector, PROCESSING compute and batch configuration. */
  dm: string;
  deployment: Deployment<string, string>;
  storage: string;
  cpu: string;
  config: string;
}

let served: Served | undefined;

async function serve(): Promise<Served> {
  if (served) return served;
  const dir = await Deno.makeTempDir({ prefix: "adv_bucket_" });
  const outside = await Deno.makeTempDir({ prefix: "adv_outside_" });
  await Deno.writeTextFile(`${dir}/train.csv`, churnCsv(churnRows(300, 7)));
  await Deno.writeTextFile(`${dir}/in.csv`, churnCsv(churnRows(20, 3)));
  await Deno.writeTextFile(`${outside}/secret.csv`, churnCsv(churnRows(5, 9)));
  const ml = await local({
    buckets: { b: dir },
    accounts: ACCOUNTS,
    progress: false,
  });
  const { deployment } = await ml.quickstart({
    bucket: "b",
    path: "train.csv",
    target: "churn",
    exclude: ["id"],
    training: { maxRounds: 10, estimators: 1 },
    progress: false,
  });
  const storage = await ml.storageConnectors.create({
    name: "adv-b",
    bucket_name: "b",
  });
  const cpu = await ml.computeConfigurations.create({
    name: "adv-cpu",
    machine_type: "m5",
    compute_type: "PROCESSING",
  });
  const config = await ml.viewsBatchConfigurations.create({
    name: "adv-config",
    keep_columns: ["id"],
  });
  served = {
    ml,
    dir,
    outside,
    a: await tokenFor(ml.platform, ACCOUNTS[0].credentials[0]),
    b: await tokenFor(ml.platform, ACCOUNTS[1].credentials[0]),
    dm: deployment.id,
    deployment,
    storage: storage.id,
    cpu: cpu.id,
    config: config.id,
  };
  return served;
}

let jobs = 0;
/** A views batch job create body of A's, with `patch` applied. */
function batchBody(s: Served, patch: Record<string, unknown> = {}) {
  const n = ++jobs;
  return {
    name: `adv-job-${n}`,
    deployed_model_id: s.dm,
    views_batch_configuration_id: s.config,
    storage_connector_id: s.storage,
    compute_configuration_id: s.cpu,
    data_path: "in.csv",
    output_path: `out-${n}.csv`,
    views_batch_name: `adv-batch-${n}`,
    ...patch,
  };
}

/** Polls the views batch job `id` until it has ended. */
async function jobEnded(s: Served, id: string): Promise<Answer> {
  for (;;) {
    const res = await raw(s.ml.platform, "GET", `/views-batch-jobs/${id}`, {
      token: s.a,
    });
    if (!["STARTING", "RUNNING"].includes(String(res.body.status))) return res;
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The names in a folder, sorted, recursively (`sub/x`). */
async function tree(dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    out.push(`${prefix}${e.name}`);
    if (e.isDirectory && !e.isSymlink) {
      out.push(...await tree(`${dir}/${e.name}`, `${prefix}${e.name}/`));
    }
  }
  return out.sort();
}

const STEPS: [string, (s: Served) => Promise<void>][] = [];

STEPS.push([
  "batch job paths that leave the bucket or name no file are 400s naming the field, and make nothing",
  async (s) => {
    const { ml, dir, outside } = s;
    await Deno.mkdir(`${dir}/sub`, { recursive: true });
    await Deno.mkdir(`${dir}/sub.csv`, { recursive: true });
    await Deno.symlink(`${outside}/secret.csv`, `${dir}/link-out.csv`);
    await Deno.symlink(outside, `${dir}/folder-out`);
    await Deno.symlink(`${dir}/in.csv`, `${dir}/link-in.csv`);
    await Deno.symlink(dir, `${dir}/sub/up`);
    // A named pipe (where the system makes one): not a file either way.
    const fifo = await new Deno.Command("mkfifo", { args: [`${dir}/pipe.csv`] })
      .output().then((o) => o.success, () => false);
    const before = await tree(dir);
    const outsideBefore = await tree(outside);
    // docs/contract.md#batch-views: "Both paths follow the bucket rules
    // below (400 naming the field); the output may not be the input";
    // docs/contract.md#buckets-local-platform: `..`, an absolute path and a
    // symlink pointing out are refused.
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ data_path: "link-out.csv" }, "data_path", /outside the bucket/],
      [{ data_path: "folder-out/secret.csv" }, "data_path", /outside|leaves/],
      [{ data_path: "sub/../../x.csv" }, "data_path", /leaves the bucket/],
      [{ data_path: `${outside}/secret.csv` }, "data_path", /absolute/],
      [{ data_path: "in\u0000.csv" }, "data_path", /./],
      [{ data_path: "%2e%2e/secret.csv" }, "data_path", /no file/],
      [{ data_path: "sub" }, "data_path", /not a CSV file/],
      [{ data_path: "sub.csv" }, "data_path", /is a folder, not a file/],
      [{ data_path: "" }, "data_path", /./],
      [{ output_path: "folder-out/x.csv" }, "output_path", /outside/],
      [{ output_path: "folder-out/new/deep/x.csv" }, "output_path", /outside/],
      [{ output_path: "link-in.csv" }, "output_path", /a link/],
      [{ output_path: "sub" }, "output_path", /a folder/],
      [{ output_path: "newdir/" }, "output_path", /names a folder/],
      [{ output_path: "sub/" }, "output_path", /names a folder/],
      [{ output_path: "in.csv/x.csv" }, "output_path", /file stands/],
      [{ output_path: "out\u0000.csv" }, "output_path", /a NUL character/],
      [{ output_path: `${"x".repeat(300)}.csv` }, "output_path", /too long/],
      // Refused before its folders are made: none are left behind.
      [{ output_path: "fresh/deep/o\u0000.csv" }, "output_path", /NUL/],
      [
        { output_path: `fresh/deep/${"é".repeat(130)}.csv` },
        "output_path",
        /too long/,
      ],
      [{ data_path: `${"x".repeat(300)}.csv` }, "data_path", /no file/],
      [{ output_path: "." }, "output_path", /leaves the bucket/],
      [{ output_path: "sub/.." }, "output_path", /leaves the bucket/],
      [{ output_path: "" }, "output_path", /./],
      [{ output_path: "./in.csv" }, "output_path", /is the input/],
      [{ output_path: "sub/../in.csv" }, "output_path", /is the input/],
      [{ output_path: "sub/up/in.csv" }, "output_path", /is the input/],
      [{ output_path: "\\\\server\\share\\x.csv" }, "output_path", /absolute/],
      [{ output_path: "C:\\x.csv" }, "output_path", /absolute/],
      [{ deployed_model_id: 7 }, "deployed_model_id", /./],
      [{ data_path: ["in.csv"] }, "data_path", /./],
    ];
    if (fifo) {
      cases.push(
        [{ data_path: "pipe.csv" }, "data_path", /not a regular file/],
        [{ output_path: "pipe.csv" }, "output_path", /not a regular file/],
      );
    }
    for (const [patch, field, message] of cases) {
      const res = await raw(ml.platform, "POST", "/views-batch-jobs", {
        token: s.a,
        body: batchBody(s, patch),
      });
      const what = JSON.stringify(patch);
      assertError(res, 400, "VALIDATION_ERROR", what, field);
      assertMatch(String(res.body.message), message, what);
      // The answer never shows where the bucket lives on the machine.
      assert(!String(res.body.message).includes(dir), what);
    }
    assertEquals(await tree(dir), before, "a refused create made a file");
    assertEquals(await tree(outside), outsideBefore);
    const list = await raw(ml.platform, "GET", "/views-batches", {
      token: s.a,
    });
    assertEquals(list.body.data, [], "a refused create left a views batch");
  },
]);

STEPS.push([
  "concurrent batch job creates of one name, or of one views batch name: one 201, the rest 409, one views batch",
  async (s) => {
    const { ml } = s;
    const body = batchBody(s);
    const answers = await Promise.all(
      Array.from(
        { length: 8 },
        (_, i) =>
          raw(ml.platform, "POST", "/views-batch-jobs", {
            token: s.a,
            // Half reuse the job's name, half only its views batch's name.
            body: i % 2
              ? { ...body, output_path: `dup-${i}.csv` }
              : { ...body, name: `other-${i}`, output_path: `dup-${i}.csv` },
          }),
      ),
    );
    const created = answers.filter((a) => a.status === 201);
    assertEquals(
      created.length,
      1,
      JSON.stringify(answers.map((a) => a.status)),
    );
    for (const a of answers.filter((a) => a.status !== 201)) {
      assertError(a, 409, "CONFLICT", "duplicate create");
    }
    const ended = await jobEnded(s, String(created[0].body.id));
    assertEquals(ended.body.status, "COMPLETED", String(ended.body.message));
    const batches = await raw(
      ml.platform,
      "GET",
      "/views-batches?items_per_page=100",
      { token: s.a },
    );
    assertEquals(
      (batches.body.data as { name: string }[]).filter((b) =>
        b.name === body.views_batch_name
      ).length,
      1,
    );
    const jobList = await raw(
      ml.platform,
      "GET",
      "/views-batch-jobs?items_per_page=100",
      { token: s.a },
    );
    assertEquals(
      (jobList.body.data as { name: string }[]).filter((j) =>
        j.name === body.name || j.name.startsWith("other-")
      ).length,
      1,
    );
  },
]);

/** Starts a batch of `input` with configuration `config`; the ended job. */
async function runBatch(
  s: Served,
  input: string,
  config: Record<string, unknown> = {},
): Promise<Answer> {
  const c = await raw(s.ml.platform, "POST", "/views-batch-configurations", {
    token: s.a,
    body: { name: `adv-config-${++jobs}`, ...config },
  });
  assertEquals(c.status, 201, JSON.stringify(c.body));
  const body = batchBody(s, {
    data_path: input,
    views_batch_configuration_id: c.body.id,
  });
  const job = await raw(s.ml.platform, "POST", "/views-batch-jobs", {
    token: s.a,
    body,
  });
  assertEquals(job.status, 201, JSON.stringify(job.body));
  return await jobEnded(s, String(job.body.id));
}

STEPS.push([
  "odd files end the job FAILED with a message (or error rows), never half-written",
  async (s) => {
    const { dir } = s;
    const header = "id,tenure,charges,contract\n";
    const files: Record<string, string | Uint8Array> = {
      // Text that Number() would read, but that is no finite number.
      "nan.csv":
        `${header}a,NaN,50,month\nb,Infinity,50,month\nc,1e999,50,month\nd,-Infinity,50,month\ne,0x1F,50,month\n`,
      "dup_header.csv": "id,tenure,tenure,charges,contract\na,1,2,50,month\n",
      "bad_utf8.csv": new Uint8Array([
        ...new TextEncoder().encode(`${header}a,1,50,mo`),
        0xff,
        0xfe,
        ...new TextEncoder().encode("nth\n"),
      ]),
      "broken.csv.gz": new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 1]),
      "quotes.csv": `${header}"a,1",1,50,"mon\nth"\nb,2,50,"unclosed\n`,
      "blank_lines.csv": `${header}\n\na,1,50,month\n\n`,
    };
    for (const [name, content] of Object.entries(files)) {
      if (typeof content === "string") {
        await Deno.writeTextFile(`${dir}/${name}`, content);
      } else await Deno.writeFile(`${dir}/${name}`, content);
    }
    // docs/contract.md#batch-views: "A row the model cannot score (a number
    // column holding text, ...) ... is written with null views and
    // `column 'x': reason` in the error column under NULL_PREDICTION".
    const nan = await runBatch(s, "nan.csv", {
      keep_columns: ["id"],
      on_error: "NULL_PREDICTION",
    });
    assertEquals(nan.body.status, "COMPLETED", String(nan.body.message));
    const batch = String((nan.body.views_batch as { id: string }).id);
    const page = await raw(
      s.ml.platform,
      "GET",
      `/views-batches/${batch}/results`,
      { token: s.a },
    );
    assertEquals(page.status, 200, JSON.stringify(page.body));
    const rows = page.body.data as unknown[][];
    assertEquals(rows.length, 5);
    for (const row of rows) {
      // Every cell a JSON value the results' schema allows, finite numbers.
      for (const cell of row) {
        assert(
          cell === null || typeof cell === "string" ||
            (typeof cell === "number" && Number.isFinite(cell)),
          JSON.stringify(row),
        );
      }
      const error = row.at(-1);
      const views = row.slice(1, -1);
      // A row is scored or an error row: never views without an error
      // computed from a value that is no number.
      assert(
        (error === null && views.every((v) => v !== null)) ||
          (typeof error === "string" && /tenure/.test(error) &&
            views.every((v) => v === null)),
        JSON.stringify(row),
      );
    }
    // Under FAIL, each of these files fails the job with a message, or
    // completes; no output file is left when it fails.
    const expected: Record<string, RegExp> = {
      "nan.csv":
        /Row 1 \(line 2\).*column 'tenure': "NaN" is not a number[^.]*\)\. Fix the row/,
      "broken.csv.gz": /gzip data of the input is damaged/,
      "quotes.csv": /line 4: a quoted field is never closed/,
    };
    for (const name of Object.keys(files)) {
      const job = await runBatch(s, name);
      const status = String(job.body.status);
      if (name in expected) {
        assertEquals(status, "FAILED", name);
        assertMatch(String(job.body.message), expected[name], name);
      }
      assert(["COMPLETED", "FAILED"].includes(status), `${name}: ${status}`);
      if (status === "FAILED") {
        assert(String(job.body.message ?? "").length > 0, name);
        const out = String(job.body.output_path);
        assertEquals(
          await Deno.stat(`${dir}/${out}`).then(() => true, () => false),
          false,
          `${name}: a failed job left ${out}`,
        );
      }
    }
    const left = await tree(dir);
    assert(!left.some((f) => f.endsWith(".part")), left.join());
  },
]);

STEPS.push([
  "another account's ids are 404s everywhere, and nothing of A's shows in B's answers",
  async (s) => {
    const { ml } = s;
    const done = await runBatch(s, "in.csv", { keep_columns: ["id"] });
    assertEquals(done.body.status, "COMPLETED", String(done.body.message));
    const job = String(done.body.id);
    const batch = String((done.body.views_batch as { id: string }).id);
    const model = (await ml.deployedModels.get(s.dm)).model.id;
    // docs/contract.md#errors: "404 unknown id, and also another account's
    // resource: answering 403 would confirm to a stranger that the id exists".
    const calls: [string, string, unknown?][] = [
      ["GET", `/views-batch-jobs/${job}`],
      ["GET", `/views-batches/${batch}`],
      ["GET", `/views-batches/${batch}/results`],
      ["GET", `/views-batches/${batch}/results?page=1&items_per_page=10000`],
      ["POST", `/views-batch-jobs/${job}/cancel`],
      ["DELETE", `/views-batches/${batch}`],
      ["DELETE", `/views-batch-jobs/${job}`],
      ["GET", `/views-batch-configurations/${s.config}`],
      ["DELETE", `/views-batch-configurations/${s.config}`],
      ["GET", `/deployed-models/${s.dm}`],
      ["GET", `/models/${model}`],
      ["GET", `/models/${model}/explanation`],
      ["DELETE", `/storage-connectors/${s.storage}`],
      ["POST", `/deployed-models/${s.dm}/views`, {
        query: { tenure: [1], charges: [50], contract: ["month"] },
      }],
      // The views path past Hono's router, and through it (a query string).
      ["POST", `/deployed-models/${s.dm}/views?x=1`, {
        query: { tenure: [1], charges: [50], contract: ["month"] },
      }],
      // A body naming no feature of A's model: still a 404 (a 400 listing
      // the model's features would show them to a stranger).
      ["POST", `/deployed-models/${s.dm}/views`, { query: { nope: [1] } }],
      ["POST", `/deployed-models/${s.dm}/views`, {
        query: { tenure: ["x"], charges: [50], contract: ["month"] },
      }],
      ["POST", `/deployed-models/${s.dm}/views`, {
        query: { tenure: [1], charges: [50], contract: ["month"] },
        targets: { churn: "Maybe" },
      }],
    ];
    for (const [method, path, body] of calls) {
      // Twice: the second call's token is one the platform knows already.
      for (let i = 0; i < 2; i++) {
        const res = await raw(ml.platform, method, path, {
          token: s.b,
          body: body ?? (method === "POST" ? {} : undefined),
        });
        assertError(res, 404, "NOT_FOUND", `${method} ${path}`);
        const text = JSON.stringify(res.body);
        assert(!text.includes("adv-"), `${method} ${path} shows A's names`);
      }
    }
    // B's own batch job naming A's resources: 404 naming the field.
    const bStorage = await raw(ml.platform, "POST", "/storage-connectors", {
      token: s.b,
      body: { name: "b-b", bucket_name: "b" },
    });
    const bCpu = await raw(ml.platform, "POST", "/compute-configurations", {
      token: s.b,
      body: { name: "b-cpu", machine_type: "m5", compute_type: "PROCESSING" },
    });
    const bConfig = await raw(
      ml.platform,
      "POST",
      "/views-batch-configurations",
      { token: s.b, body: { name: "b-config" } },
    );
    const own = {
      storage_connector_id: bStorage.body.id,
      compute_configuration_id: bCpu.body.id,
      views_batch_configuration_id: bConfig.body.id,
    };
    // B's own references but A's deployed model: a 404 naming it (the
    // model is looked up first), with no views batch made.
    const res = await raw(ml.platform, "POST", "/views-batch-jobs", {
      token: s.b,
      body: { ...batchBody(s), ...own },
    });
    assertError(res, 404, "NOT_FOUND", "A's deployed model");
    assertMatch(String(res.body.message), /deployed_model_id/);
    // B trains on A's dataset with a constraint on no feature: the dataset
    // is unknown to B (404), and A's features are not listed to B.
    const ws = await raw(ml.platform, "POST", "/workspaces", {
      token: s.b,
      body: { name: "b-ws" },
    });
    const tc = await raw(ml.platform, "POST", "/training-configurations", {
      token: s.b,
      body: { name: "b-tc" },
    });
    const gpu = await raw(ml.platform, "POST", "/compute-configurations", {
      token: s.b,
      body: { name: "b-gpu", machine_type: "g5", compute_type: "TRAINING" },
    });
    const dataset = (await ml.datasets.list()).data[0].id;
    const train = await raw(ml.platform, "POST", "/training-jobs", {
      token: s.b,
      headers: { "X-Active-Workspace": String(ws.body.id) },
      body: {
        name: "b-train",
        dataset_id: dataset,
        training_configuration_id: tc.body.id,
        compute_configuration_id: gpu.body.id,
        model_name: "b-model",
        model_constraints: [{ field: "nope", constraint_type: "EXCLUDED" }],
      },
    });
    assertError(train, 404, "NOT_FOUND", "B trains on A's dataset");
    assert(!/tenure|charges|contract/.test(JSON.stringify(train.body)));
    // A's lists are unchanged, B's hold only B's.
    const bList = await raw(ml.platform, "GET", "/views-batches", {
      token: s.b,
    });
    assertEquals(bList.body.data, []);
    const still = await raw(
      ml.platform,
      "GET",
      `/views-batches/${batch}/results`,
      {
        token: s.a,
      },
    );
    assertEquals(still.status, 200);
  },
]);

STEPS.push([
  "results queries: bad pages are 400s naming the parameter, pages past the end are empty, a swapped output is a 409 that reads nothing",
  async (s) => {
    const { ml, dir, outside } = s;
    const done = await runBatch(s, "in.csv", { keep_columns: ["id"] });
    const batch = String((done.body.views_batch as { id: string }).id);
    const results = `/views-batches/${batch}/results`;
    // docs/contract.md#batch-views: "up to 10,000 rows a page".
    for (
      const [query, field] of [
        ["page=0", "page"],
        ["page=-3", "page"],
        ["page=1.5", "page"],
        ["page=NaN", "page"],
        ["page=Infinity", "page"],
        ["page=99999999999999999999", "page"],
        ["items_per_page=0", "items_per_page"],
        ["items_per_page=10001", "items_per_page"],
        ["items_per_page=1e9", "items_per_page"],
      ]
    ) {
      const res = await raw(ml.platform, "GET", `${results}?${query}`, {
        token: s.a,
      });
      assertError(res, 400, "VALIDATION_ERROR", query, field);
    }
    const far = await raw(
      ml.platform,
      "GET",
      `${results}?page=9007199254740991&items_per_page=10000`,
      { token: s.a },
    );
    assertEquals(far.status, 200, JSON.stringify(far.body));
    assertEquals([far.body.data, far.body.index], [[], []]);
    assertEquals(
      (far.body.pagination as { total_items: number }).total_items,
      20,
    );
    // The output swapped for a link to a file outside the bucket: 409, and
    // not a byte of the outside file in the answer.
    const out = `${dir}/${done.body.output_path}`;
    const size = (await Deno.stat(out)).size;
    const secret = "SECRET,".repeat(Math.ceil(size / 7)).slice(0, size);
    await Deno.writeTextFile(`${outside}/same-size.csv`, secret);
    await Deno.remove(out);
    await Deno.symlink(`${outside}/same-size.csv`, out);
    const swapped = await raw(ml.platform, "GET", results, { token: s.a });
    assertError(swapped, 409, "CONFLICT", "swapped output");
    assert(!JSON.stringify(swapped.body).includes("SECRET"));
    await Deno.remove(out);
    const gone = await raw(ml.platform, "GET", results, { token: s.a });
    assertError(gone, 409, "CONFLICT", "removed output");
  },
]);

STEPS.push([
  "views bodies of wrong shapes are 400s naming the column; no 500, no NaN in an answer",
  async (s) => {
    const { ml } = s;
    const path = `/deployed-models/${s.dm}/views`;
    const ok = { tenure: [1], charges: [50], contract: ["month"] };
    // docs/contract.md#views: "query holds one array per feature, all of
    // the same length: a finite number, a string, or null for missing".
    const cases: [unknown, string][] = [
      [{ query: { ...ok, tenure: [1, 2] } }, "query.charges"],
      [{ query: { ...ok, tenure: ["NaN"] } }, "query.tenure"],
      [{ query: { ...ok, tenure: ["Infinity"] } }, "query.tenure"],
      [{ query: { ...ok, tenure: ["-Infinity"] } }, "query.tenure"],
      [{ query: { ...ok, charges: [{ v: 1 }] } }, "query.charges.0"],
      [{ query: { ...ok, charges: [[1]] } }, "query.charges.0"],
      [{ query: { ...ok, charges: [true] } }, "query.charges.0"],
      [{ query: { ...ok, charges: 50 } }, "query.charges"],
      [{ query: { ...ok, nope: [1] } }, "query.nope"],
      [{ query: [ok] }, "query"],
      [{ query: {} }, "query"],
      [{ query: ok, data: [] }, "data"],
      [{ query: ok, data: [{ view_type: "BOGUS" }] }, "data.0.view_type"],
      [{ query: ok, targets: { nope: "Yes" } }, "targets.nope"],
      [{ query: ok, targets: { churn: "Maybe" } }, "targets.churn"],
      [{ query: ok, targets: { churn: ["Yes", "No"] } }, "targets.churn"],
      [{ query: ok, anchor: 5 }, "anchor"],
      // docs/contract.md#model-constraints-and-protected-fields: GROUP_METRICS
      // alone in data, with true targets and a protected field in query.
      // (This model has no protected field: the view type is named.)
      [
        { query: ok, data: [{ view_type: "GROUP_METRICS" }] },
        "data.0.view_type",
      ],
      [{
        query: ok,
        data: [{ view_type: "GROUP_METRICS" }, { view_type: "RESULTS" }],
        targets: { churn: ["Yes"] },
      }, "data"],
      [{ query: ok, targets: { churn: [] } }, "targets.churn"],
      [
        { query: ok, anchor: { query: { tenure: ["x"] } } },
        "anchor.query.tenure",
      ],
    ];
    const wrong: string[] = [];
    for (const [body, field] of cases) {
      const res = await raw(ml.platform, "POST", path, { token: s.a, body });
      try {
        assertError(res, 400, "VALIDATION_ERROR", JSON.stringify(body), field);
      } catch (e) {
        wrong.push((e as Error).message);
      }
    }
    assertEquals(wrong, []);
    // 1e999 is Infinity once parsed: refused like "Infinity".
    const huge = await raw(ml.platform, "POST", path, {
      token: s.a,
      text: '{"query":{"tenure":[1e999],"charges":[50],"contract":["month"]}}',
      headers: { "Content-Type": "application/json" },
    });
    assertError(huge, 400, "VALIDATION_ERROR", "1e999", "query.tenure.0");
    // A feature left out is named (null is how a missing value is sent).
    const missing = await raw(ml.platform, "POST", path, {
      token: s.a,
      body: { query: { tenure: [1], charges: [50] } },
    });
    assertError(missing, 400, "VALIDATION_ERROR", "missing", "query.contract");
    // Values at the edge of doubles, empty strings, NUL and nulls are
    // answered with finite numbers.
    for (
      const query of [
        {
          tenure: [1.7976931348623157e308],
          charges: [-5e-324],
          contract: [""],
        },
        { tenure: [null], charges: [null], contract: ["mo\u0000nth"] },
      ]
    ) {
      const res = await raw(ml.platform, "POST", path, {
        token: s.a,
        body: { query },
      });
      assertEquals(res.status, 200, JSON.stringify(res.body));
      const row = (res.body.data as unknown[][])[0];
      assert(
        row.slice(1).every((c) => typeof c === "number" && Number.isFinite(c)),
        JSON.stringify(row),
      );
    }
    // Empty columns: no rows, an empty table (not a 500).
    const empty = await raw(ml.platform, "POST", path, {
      token: s.a,
      body: { query: { tenure: [], charges: [], contract: [] } },
    });
    assertEquals(empty.status, 200, JSON.stringify(empty.body));
    assertEquals([empty.body.data, empty.body.index], [[], []]);
  },
]);

STEPS.push([
  "deletes and cancels while a batch runs: 409s naming it, and the job still ends whole or cancelled, never half-written",
  async (s) => {
    const { ml, dir } = s;
    await Deno.writeTextFile(`${dir}/big.csv`, churnCsv(churnRows(40_000, 5)));
    await Deno.mkdir(`${dir}/outdir`, { recursive: true });
    const body = batchBody(s, {
      data_path: "big.csv",
      output_path: "outdir/big_scored.csv",
    });
    const created = await raw(ml.platform, "POST", "/views-batch-jobs", {
      token: s.a,
      body,
    });
    assertEquals(created.status, 201, JSON.stringify(created.body));
    const job = String(created.body.id);
    const batch = String((created.body.views_batch as { id: string }).id);
    // docs/contract.md#errors: a resource with dependants is protected (409
    // INTEGRITY_ERROR listing them), whatever the job's state.
    const blocked: [string, string][] = [
      ["/deployed-models", s.dm],
      ["/storage-connectors", s.storage],
      ["/compute-configurations", s.cpu],
      ["/views-batch-configurations", s.config],
    ];
    const deletes = await Promise.all([
      ...blocked.map(([path, id]) =>
        raw(ml.platform, "DELETE", `${path}/${id}`, { token: s.a })
      ),
      raw(ml.platform, "DELETE", `/views-batches/${batch}`, { token: s.a }),
      raw(ml.platform, "DELETE", `/views-batch-jobs/${job}`, { token: s.a }),
    ]);
    for (const [i, [path]] of blocked.entries()) {
      assertError(deletes[i], 409, "INTEGRITY_ERROR", path);
      const dependants = deletes[i].body.dependants as { id: string }[];
      assert(dependants.some((d) => d.id === job), path);
    }
    // The batch and its job, while the job runs: refused (409), not deleted.
    const [batchDelete, jobDelete] = deletes.slice(-2);
    const during = await raw(ml.platform, "GET", `/views-batch-jobs/${job}`, {
      token: s.a,
    });
    if (["STARTING", "RUNNING"].includes(String(during.body.status))) {
      assertEquals([batchDelete.status, jobDelete.status], [409, 409]);
      // Two cancels at once: neither came after the end (a 409 is for a
      // job that has already ended), so each answers the job as it ended,
      // or the later one is the 409 of an ended job.
      const cancels = await Promise.all(
        [1, 2].map(() =>
          raw(ml.platform, "POST", `/views-batch-jobs/${job}/cancel`, {
            token: s.a,
          })
        ),
      );
      for (const c of cancels) {
        if (c.status === 409) assertError(c, 409, "CONFLICT", "cancel");
        else {
          assertEquals(c.status, 200, JSON.stringify(c.body));
          assert(
            ["CANCELLED", "COMPLETED"].includes(String(c.body.status)),
            String(c.body.status),
          );
        }
      }
      assert(cancels.some((c) => c.status === 200));
    }
    const ended = await jobEnded(s, job);
    const status = String(ended.body.status);
    assert(["COMPLETED", "CANCELLED"].includes(status), status);
    // Cancelling an ended job is a 409 (docs/contract.md#jobs-and-deployments).
    const late = await raw(
      ml.platform,
      "POST",
      `/views-batch-jobs/${job}/cancel`,
      { token: s.a },
    );
    assertError(late, 409, "CONFLICT", "cancel after the end");
    const files = await tree(`${dir}/outdir`);
    if (status === "COMPLETED") {
      assertEquals(files, ["big_scored.csv"]);
      const lines = (await Deno.readTextFile(`${dir}/outdir/big_scored.csv`))
        .trimEnd().split("\n");
      assertEquals(lines.length, 40_001);
    } else assertEquals(files, []);
  },
]);

STEPS.push([
  "the output's folder removed while the job writes: the job ends FAILED, its message in the bucket's terms",
  async (s) => {
    const { ml, dir } = s;
    await Deno.mkdir(`${dir}/vanish`, { recursive: true });
    const created = await raw(ml.platform, "POST", "/views-batch-jobs", {
      token: s.a,
      body: batchBody(s, {
        data_path: "big.csv",
        output_path: "vanish/out.csv",
      }),
    });
    assertEquals(created.status, 201, JSON.stringify(created.body));
    // Removed once the job writes its temporary file there (removed before
    // the job starts, the job makes it again, as it makes any missing
    // folder of its output).
    const writing = async () => {
      for (const e of await Array.fromAsync(Deno.readDir(`${dir}/vanish`))) {
        if (e.name.endsWith(".part")) return true;
        // 40,000 rows take far longer than a poll: a wrong premise, not a pass.
        if (e.name === "out.csv") throw new Error("the job ended unseen");
      }
      return false;
    };
    while (!(await writing())) {
      await new Promise((r) => setTimeout(r, 1));
    }
    await Deno.remove(`${dir}/vanish`, { recursive: true });
    const ended = await jobEnded(s, String(created.body.id));
    // The rename then finds no file or no folder: the job cannot publish.
    assertEquals(ended.body.status, "FAILED");
    // A message in the bucket's terms, not the machine's folders.
    assertMatch(
      String(ended.body.message),
      /^Writing the output "vanish\/out.csv" in bucket "b" failed \(ENOENT: its folder was removed/,
    );
    assert(!String(ended.body.message).includes(dir));
    const batch = await raw(
      ml.platform,
      "GET",
      `/views-batches/${(ended.body.views_batch as { id: string }).id}`,
      { token: s.a },
    );
    assertEquals(batch.body.status, "FAILED");
    // The platform still answers.
    const list = await raw(ml.platform, "GET", "/views-batch-jobs", {
      token: s.a,
    });
    assertEquals(list.status, 200);
  },
]);

STEPS.push([
  "batch configurations that cannot work are 400s naming the field, at create or at the job's create",
  async (s) => {
    const { ml } = s;
    const wrong: string[] = [];
    const cases: [Record<string, unknown>, string][] = [
      [{ view_types: [] }, "view_types"],
      [{ view_types: ["RESULTS", "PREDICTIONS"] }, "view_types"],
      [{ view_types: ["BOGUS"] }, "view_types.0"],
      [{ output_format: "PARQUET" }, "output_format"],
      [{ on_error: "IGNORE" }, "on_error"],
      [{ keep_columns: "id" }, "keep_columns"],
      [{ keep_columns: [7] }, "keep_columns.0"],
      [{ keep_columns: [""] }, "keep_columns.0"],
      [{ keep_columns: ["id", "id"] }, "keep_columns.1"],
      // Names are trimmed, as the input's header names are: one that is
      // only spaces, or the same name twice once trimmed, matches nothing.
      [{ keep_columns: ["  "] }, "keep_columns.0"],
      [{ keep_columns: ["id", " id "] }, "keep_columns.1"],
      [{ error_column: "" }, "error_column"],
      [{ error_column: "  " }, "error_column"],
      [
        { on_error: "NULL_PREDICTION", keep_columns: ["error"] },
        "keep_columns.0",
      ],
    ];
    for (const [patch, field] of cases) {
      const res = await raw(
        ml.platform,
        "POST",
        "/views-batch-configurations",
        {
          token: s.a,
          body: { name: `bad-config-${++jobs}`, ...patch },
        },
      );
      if (res.status === 201) {
        // Taken at create: then the job's create refuses it, naming the
        // configuration, and makes nothing.
        const job = await raw(ml.platform, "POST", "/views-batch-jobs", {
          token: s.a,
          body: batchBody(s, { views_batch_configuration_id: res.body.id }),
        });
        try {
          assertError(
            job,
            400,
            "VALIDATION_ERROR",
            JSON.stringify(patch),
            "views_batch_configuration_id",
          );
        } catch (e) {
          wrong.push((e as Error).message);
        }
        continue;
      }
      try {
        assertError(res, 400, "VALIDATION_ERROR", JSON.stringify(patch), field);
      } catch (e) {
        wrong.push((e as Error).message);
      }
    }
    assertEquals(wrong, []);
  },
]);

STEPS.push([
  "deleting what others depend on is a 409 listing them; another account's 202 Location is a 404",
  async (s) => {
    const { ml } = s;
    const dm = await ml.deployedModels.get(s.dm);
    const model = await ml.models.get(dm.model.id);
    const blocked: [string, string, string][] = [
      [`/models/${model.id}`, s.dm, "DEPLOYED_MODEL"],
      [
        `/deployment-configurations/${dm.deployment_configuration.id}`,
        s.dm,
        "DEPLOYED_MODEL",
      ],
    ];
    for (const [path, id, type] of blocked) {
      const res = await raw(ml.platform, "DELETE", path, { token: s.a });
      assertError(res, 409, "INTEGRITY_ERROR", path);
      const dependants = res.body.dependants as {
        id: string;
        dependant_type: string;
      }[];
      assert(
        dependants.some((d) => d.id === id && d.dependant_type === type),
        `${path}: ${JSON.stringify(dependants)}`,
      );
      assertEquals(
        (await raw(ml.platform, "GET", path, { token: s.a })).status,
        200,
        `${path} was deleted`,
      );
    }
    // docs/contract.md#views: more than 1000 rows answer 202 + Location;
    // the Location is the caller's account's alone.
    const n = 1001;
    const big = await raw(
      ml.platform,
      "POST",
      `/deployed-models/${s.dm}/views`,
      {
        token: s.a,
        body: {
          query: {
            tenure: Array(n).fill(3),
            charges: Array(n).fill(70),
            contract: Array(n).fill("month"),
          },
        },
      },
    );
    assertEquals(big.status, 202);
    const location = new URL(String(big.headers.get("location")));
    const stranger = await raw(ml.platform, "GET", location.pathname, {
      token: s.b,
    });
    assertError(stranger, 404, "NOT_FOUND", "B reads A's operation");
    assert(!JSON.stringify(stranger.body).includes("prediction"));
    for (const op of ["op_nope", "%00", "x".repeat(5000)]) {
      const res = await raw(ml.platform, "GET", `/operations/${op}`, {
        token: s.a,
      });
      assertError(res, 404, "NOT_FOUND", op.slice(0, 10));
    }
    let mine = await raw(ml.platform, "GET", location.pathname, { token: s.a });
    while (mine.status === 202) {
      await new Promise((r) => setTimeout(r, 10));
      mine = await raw(ml.platform, "GET", location.pathname, { token: s.a });
    }
    assertEquals(mine.status, 200);
    assertEquals((mine.body.data as unknown[]).length, n);
  },
]);

STEPS.push([
  "deployment.batch() with bad input: a ValidationError naming the field, and no configuration left behind",
  async (s) => {
    const { ml, deployment } = s;
    const configurations = async () =>
      (await ml.viewsBatchConfigurations.list({ items_per_page: 100 })).data
        .map((c) => c.id).sort();
    const before = await configurations();
    const cases: [Record<string, unknown>, string][] = [
      // Refused by the platform (docs/contract.md#batch-views).
      [{ path: "../x.csv", output: "o.csv" }, "data_path"],
      [{ path: "nope.csv", output: "o.csv" }, "data_path"],
      [{ path: "in.csv", output: "in.csv" }, "output_path"],
      [{ path: "in.csv", output: "in.csv/o.csv" }, "output_path"],
      // Refused by the SDK before sending.
      [{ path: 7, output: "o.csv" }, "data_path"],
      [{ path: "in.csv", output: ["o.csv"] }, "output_path"],
      [
        { path: "in.csv", output: "o.csv", keep: ["id", "id"] },
        "keep_columns.1",
      ],
      [{ path: "in.csv", output: "o.csv", onError: "SKIP" }, "on_error"],
    ];
    for (const [options, field] of cases) {
      const error = await deployment.batch({ bucket: "b", ...options } as never)
        .then(() => undefined, (e) => e);
      const what = JSON.stringify(options);
      assert(error instanceof ValidationError, `${what}: ${error}`);
      assert(
        // The SDK names the option too: `data_path (option "path")`.
        error.issues.some((i: { path: string }) =>
          i.path === field || i.path.startsWith(`${field} (option`)
        ),
        `${what}: ${JSON.stringify(error.issues)}`,
      );
      assertEquals(
        await configurations(),
        before,
        `${what} left a configuration`,
      );
    }
    // A good call still works, and keeps its configuration.
    const result = await deployment.batch({
      bucket: "b",
      path: "in.csv",
      output: "sdk_ok.csv",
      keep: ["id"],
    });
    assertEquals(result.rowsIn, 20);
    assertEquals((await configurations()).length, before.length + 1);
  },
]);

STEPS.push([
  "ml.ingest(), ml.train() and ml.deploy() refused by the platform leave no configuration behind",
  async (s) => {
    const { ml } = s;
    const counts = async () =>
      await Promise.all(
        [
          ml.ingestionConfigurations,
          ml.trainingConfigurations,
          ml.deploymentConfigurations,
        ].map(async (c) => (await c.list({ items_per_page: 100 })).data.length),
      );
    const before = await counts();
    const schema = (await ml.dataSchemas.list()).data[0].id;
    const dataset = (await ml.datasets.list()).data[0].id;
    const refused: [string, () => Promise<unknown>, string][] = [
      [
        "ingest ../",
        () =>
          ml.ingest("../train.csv", { storage: s.storage, schema } as never),
        "data_path",
      ],
      ["train on no feature", () =>
        ml.train(dataset, {
          monotone: { nope: "increasing" },
          maxRounds: 5,
        } as never), "model_constraints.0.field"],
      ["train an unknown dataset", () => ml.train("ds_nope"), ""],
      ["deploy an unknown model", () => ml.deploy("mdl_nope"), ""],
    ];
    for (const [what, call, field] of refused) {
      const error = await call().then(() => undefined, (e) => e);
      assert(error instanceof Error, what);
      if (field) {
        assert(error instanceof ValidationError, `${what}: ${error}`);
        assert(error.issues.some((i) => i.path === field), what);
      }
      assertEquals(await counts(), before, `${what} left a configuration`);
    }
  },
]);

STEPS.push([
  "another account's data anchor is no anchor here, in views and explanations, and shows nothing of it",
  async (s) => {
    const { ml } = s;
    // B's own schema with an anchor whose name and value are B's secrets.
    const schema = await raw(ml.platform, "POST", "/data-schemas", {
      token: s.b,
      body: {
        name: "b-schema",
        fields: [{
          name: "tenure",
          data_type: { data_type: "NUMBER", format: "FLOAT64" },
          designation: "FEATURE",
          semantic_type: "CONTINUOUS",
        }],
      },
    });
    assertEquals(schema.status, 201, JSON.stringify(schema.body));
    const anchor = await raw(
      ml.platform,
      "POST",
      `/data-schemas/${schema.body.id}/data-anchors`,
      {
        token: s.b,
        body: {
          name: "b-secret-anchor",
          terms: [{ field_name: "tenure", value: 4242 }],
        },
      },
    );
    assertEquals(anchor.status, 201, JSON.stringify(anchor.body));
    // docs/contract.md#data-anchors: "a data anchor's id of the model's
    // schema (a 400 naming anchor otherwise)".
    const views = await raw(
      ml.platform,
      "POST",
      `/deployed-models/${s.dm}/views`,
      {
        token: s.a,
        body: {
          query: { tenure: [1], charges: [50], contract: ["month"] },
          anchor: anchor.body.id,
        },
      },
    );
    assertError(
      views,
      400,
      "VALIDATION_ERROR",
      "B's anchor in A's views",
      "anchor",
    );
    const model = (await ml.deployedModels.get(s.dm)).model.id;
    const explanation = await raw(
      ml.platform,
      "GET",
      `/models/${model}/explanation?anchor_id=${anchor.body.id}`,
      { token: s.a },
    );
    assert(
      [400, 404].includes(explanation.status),
      JSON.stringify(explanation.body),
    );
    for (const res of [views, explanation]) {
      const text = JSON.stringify(res.body);
      assert(!text.includes("b-secret") && !text.includes("4242"), text);
    }
    // B reads A's schema's anchors: 404.
    const aSchema = (await ml.dataSchemas.list()).data[0].id;
    const peek = await raw(
      ml.platform,
      "GET",
      `/data-schemas/${aSchema}/data-anchors`,
      { token: s.b },
    );
    assertError(peek, 404, "NOT_FOUND", "B lists A's anchors");
  },
]);

STEPS.push([
  "a deployed model deleted while its large views are computed: the 202's Location answers, never a 500",
  async (s) => {
    const { ml } = s;
    const dm = await ml.deployedModels.get(s.dm);
    const second = await raw(ml.platform, "POST", "/deployed-models", {
      token: s.a,
      body: {
        name: "adv-second",
        model_id: dm.model.id,
        deployment_configuration_id: dm.deployment_configuration.id,
      },
    });
    assertEquals(second.status, 201, JSON.stringify(second.body));
    const id = String(second.body.id);
    let status = "";
    while (status !== "RUNNING") {
      status = String(
        (await raw(ml.platform, "GET", `/deployed-models/${id}`, {
          token: s.a,
        })).body.status,
      );
      assert(status === "STARTING" || status === "RUNNING", status);
      await new Promise((r) => setTimeout(r, 10));
    }
    const n = 5000;
    const big = await raw(ml.platform, "POST", `/deployed-models/${id}/views`, {
      token: s.a,
      body: {
        query: {
          tenure: Array.from({ length: n }, (_, i) => i % 70),
          charges: Array(n).fill(70),
          contract: Array(n).fill("year"),
        },
      },
    });
    assertEquals(big.status, 202);
    const deleted = await raw(ml.platform, "DELETE", `/deployed-models/${id}`, {
      token: s.a,
    });
    assertEquals(deleted.status, 204, JSON.stringify(deleted.body));
    const location = new URL(String(big.headers.get("location"))).pathname;
    let answer = await raw(ml.platform, "GET", location, { token: s.a });
    while (answer.status === 202) {
      await new Promise((r) => setTimeout(r, 10));
      answer = await raw(ml.platform, "GET", location, { token: s.a });
    }
    // Answered whole (the rows were taken before the delete), or refused
    // as a client's error: never a server error.
    if (answer.status === 200) {
      assertEquals((answer.body.data as unknown[]).length, n);
    } else {
      assert([404, 409].includes(answer.status), JSON.stringify(answer.body));
      assertEquals(typeof answer.body.message, "string");
    }
    // Views of the deleted deployed model: 404.
    const after = await raw(
      ml.platform,
      "POST",
      `/deployed-models/${id}/views`,
      {
        token: s.a,
        body: { query: { tenure: [1], charges: [50], contract: ["month"] } },
      },
    );
    assertError(after, 404, "NOT_FOUND", "views after the delete");
  },
]);

STEPS.push([
  "a configuration deleted while a batch job naming it is created: exactly one wins, never both",
  async (s) => {
    const { ml } = s;
    const outcomes = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const c = await raw(ml.platform, "POST", "/views-batch-configurations", {
        token: s.a,
        body: { name: `race-config-${i}` },
      });
      const create = raw(ml.platform, "POST", "/views-batch-jobs", {
        token: s.a,
        body: batchBody(s, { views_batch_configuration_id: c.body.id }),
      });
      // Let the create reach its file checks on odd rounds.
      if (i % 2) await new Promise((r) => setTimeout(r, 0));
      const remove = raw(
        ml.platform,
        "DELETE",
        `/views-batch-configurations/${c.body.id}`,
        { token: s.a },
      );
      const [created, deleted] = await Promise.all([create, remove]);
      outcomes.add(`${created.status}/${deleted.status}`);
      if (created.status === 201) {
        // docs/contract.md#errors: the delete is blocked by its dependant.
        assertError(deleted, 409, "INTEGRITY_ERROR", `round ${i}`);
        const ended = await jobEnded(s, String(created.body.id));
        assertEquals(
          ended.body.status,
          "COMPLETED",
          String(ended.body.message),
        );
      } else {
        assertError(created, 404, "NOT_FOUND", `round ${i}`);
        assertMatch(
          String(created.body.message),
          /views_batch_configuration_id/,
        );
        assertEquals(deleted.status, 204);
      }
    }
    assert(outcomes.size >= 1);
  },
]);

STEPS.push([
  "a batch job create cannot set what the platform decides (status, progress, its views batch, counts)",
  async (s) => {
    const { ml } = s;
    const body = {
      ...batchBody(s),
      status: "COMPLETED",
      progress: 1,
      message: "done already",
      views_batch: { id: "vb_other", name: "other" },
      rows_in: 1e9,
      maximum_runtime_seconds: 1e9,
    };
    const res = await raw(ml.platform, "POST", "/views-batch-jobs", {
      token: s.a,
      body,
    });
    assertEquals(res.status, 201, JSON.stringify(res.body));
    assertEquals([res.body.status, res.body.progress], ["STARTING", 0]);
    assert((res.body.views_batch as { id: string }).id !== "vb_other");
    assertEquals(res.body.maximum_runtime_seconds, 3600);
    const ended = await jobEnded(s, String(res.body.id));
    assertEquals(ended.body.status, "COMPLETED", String(ended.body.message));
    const batch = await raw(
      ml.platform,
      "GET",
      `/views-batches/${(ended.body.views_batch as { id: string }).id}`,
      { token: s.a },
    );
    assertEquals(batch.body.rows_in, 20);
  },
]);

Deno.test("local adversarial: batch views and views under hostile input", async (t) => {
  try {
    const s = await serve();
    for (const [name, fn] of STEPS) await t.step(name, () => fn(s));
  } finally {
    await served?.ml.close();
    if (served) {
      await Deno.remove(served.dir, { recursive: true });
      await Deno.remove(served.outside, { recursive: true });
    }
  }
});
