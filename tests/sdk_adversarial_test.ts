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
  ConfigurationError,
  ConflictError,
  InvalidResponseError,
  MLPlatformError,
  RateLimitError,
  ValidationError,
} from "../src/http/errors.ts";
import { MLPlatform } from "../src/platform.ts";
import { parseRetryAfter } from "../src/http/retry.ts";
import { offlinePlatform } from "./_helpers/offline.ts";

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

Deno.test("sdk adversarial: Retry-After values that are not delta-seconds or an HTTP-date are ignored (backoff), never a zero wait", () => {
  // RFC 9110 §10.2.3: Retry-After = HTTP-date / delay-seconds (1*DIGIT).
  // docs/contract.md#errors: 429 with Retry-After. V8's lenient Date.parse
  // read "-5" as the year -5 (so: wait 0 ms and hammer the service).
  for (
    const bad of ["-5", "-1", "1.", "5 6", "1,2", "abc", "1e3", "", "0x10"]
  ) {
    assertEquals(parseRetryAfter(bad, 1e12), undefined, JSON.stringify(bad));
  }
  assertEquals(parseRetryAfter("0.5", 1e12), 500); // fractional seconds kept
  assertEquals(parseRetryAfter("Thu, 01 Jan 1970 00:00:05 GMT", 1e12), 0);
  assertEquals(
    parseRetryAfter("Sun Nov  6 08:49:37 1994", Date.UTC(1994, 10, 6, 8, 49)),
    37_000,
  );
  assertEquals(
    parseRetryAfter("Sunday, 06-Nov-94 08:49:37 GMT", Date.UTC(1994, 10, 6)),
    (8 * 3600 + 49 * 60 + 37) * 1000,
  );
});

Deno.test("sdk adversarial: 429 forever ends with a RateLimitError after the documented attempts; a huge or far-future Retry-After is not waited for", async () => {
  for (
    const retryAfter of [
      undefined,
      "-3",
      "soon",
      "99999999999999999999",
      "Fri, 31 Dec 9999 23:59:59 GMT",
    ]
  ) {
    const { client, seen, sleeps } = fake(
      () =>
        Response.json({ message: "slow down", error_code: "RATE_LIMITED" }, {
          status: 429,
          headers: retryAfter === undefined
            ? {}
            : { "retry-after": retryAfter },
        }),
      { maxRetries: 4 },
    );
    const error = await assertRejects(
      () => client.workspaces.get("w_1"),
      RateLimitError,
    );
    const api = seen.filter((r) => !r.url.pathname.endsWith("/oauth/token"));
    const huge = retryAfter !== undefined && /^9|9999/.test(retryAfter);
    // README.md#retries: maxRetries retries after the first attempt; a
    // Retry-After beyond maxRetryAfter is left to the caller at once.
    assertEquals(api.length, huge ? 1 : 5, String(retryAfter));
    assert(sleeps.every((ms) => ms > 0 && Number.isFinite(ms)), `${sleeps}`);
    if (huge) assert((error.retryAfter ?? 0) > 60_000);
  }
});

Deno.test("sdk adversarial: a 503 on a create forever ends with a typed error, and only one create body per attempt", async () => {
  // src/http/retry.ts / docs: a 503 is "not processed": re-sent.
  const { client, seen } = fake(
    () =>
      Response.json({ message: "down", error_code: "INTERNAL_ERROR" }, {
        status: 503,
      }),
    { maxRetries: 3 },
  );
  await assertRejects(
    () => client.workspaces.create({ name: "w" }),
    MLPlatformError,
  );
  const creates = seen.filter((r) =>
    r.method === "POST" && r.url.pathname === "/workspaces"
  );
  assertEquals(creates.length, 4);
});

Deno.test("sdk adversarial: pagination against a service that ignores the page asked for ends, without repeating pages forever", async () => {
  // docs/api.md#conventions: pages are asked for by number; a service
  // answering current_page 1 to every page must not make iterate() loop.
  let calls = 0;
  const { client } = fake((req) => {
    calls++;
    if (calls > 50) throw new Error("looping");
    const asked = Number(req.url.searchParams.get("page") ?? 1);
    return Response.json(page([workspace(`w_${asked}`)], 1, 3));
  });
  const ids: string[] = [];
  for await (const w of client.workspaces.iterate()) ids.push(w.id);
  assertEquals(ids, ["w_1", "w_2", "w_3"]);
});

Deno.test("sdk adversarial: a 202 or redirect Location that is not http(s) (file:, data:) is refused, never fetched", async () => {
  // docs/contract.md#202-accepted: the client follows Location, relative
  // or absolute, on the service: Deno's fetch reads file: URLs, so a
  // hostile Location could make the client read a local file.
  for (const location of ["file:///etc/hostname", "data:,{}"]) {
    for (const status of [202, 302, 307]) {
      const { client, seen } = fake((req) =>
        req.url.pathname === "/workspaces/w_1"
          ? new Response(null, { status, headers: { location } })
          : Response.json(workspace("w_1"))
      );
      await assertRejects(
        () => client.workspaces.get("w_1"),
        MLPlatformError,
        undefined,
        `${status} ${location}`,
      );
      assert(
        seen.every((r) => r.url.protocol === "http:"),
        `${status} ${location}: ${seen.map((r) => r.url.href)}`,
      );
    }
  }
});

Deno.test("sdk adversarial: a protocol-relative or dot-dot Location: another origin gets no token, the same origin does", async () => {
  const { client, seen } = fake((req) => {
    if (req.url.pathname === "/deployed-models/dm_1/views") {
      return new Response(null, {
        status: 202,
        headers: { location: "//evil.invalid/ops/1" },
      });
    }
    if (req.url.origin !== BASE) {
      return new Response(null, {
        status: 202,
        headers: { location: `${BASE}/deployed-models/../ops/2` },
      });
    }
    return Response.json({ columns: ["a"], index: [0], data: [[1]] });
  });
  const table = await client.deployedModels.views("dm_1", {
    query: { x: [1] },
  });
  assertEquals(table.data, [[1]]);
  assertEquals(foreign(seen).map((r) => r.authorization), [null]);
  const last = seen.at(-1)!;
  assertEquals(last.url.pathname, "/ops/2");
  assertEquals(last.authorization, "Bearer tok-1");
});

Deno.test("sdk adversarial: token endpoint answers that are not a token are typed errors naming the field, and show no secret", async () => {
  const answers: [string, () => Response][] = [
    ["html", () => new Response("<html>login</html>", { status: 200 })],
    [
      "no expiry",
      () => Response.json({ access_token: "t", token_type: "Bearer" }),
    ],
    [
      "negative expiry",
      () =>
        Response.json({
          access_token: "t",
          token_type: "Bearer",
          expires_in: -1,
        }),
    ],
    [
      "expiry as text",
      () =>
        Response.json({
          access_token: "t",
          token_type: "Bearer",
          expires_in: "3600",
        }),
    ],
    [
      "empty token",
      () =>
        Response.json({
          access_token: "",
          token_type: "Bearer",
          expires_in: 60,
        }),
    ],
  ];
  for (const [what, answer] of answers) {
    const { client, seen } = fake(() => Response.json(workspace("w_1")), {
      token: answer,
    });
    const error = await assertRejects(
      () => client.workspaces.get("w_1"),
      InvalidResponseError,
      undefined,
      what,
    );
    assert(!String(error.message).includes("s3cret"), what);
    assert(!JSON.stringify(error).includes("s3cret"), what);
    if (what !== "html") {
      assert(
        /access_token|expires_in/.test(error.message),
        `${what}: ${error.message}`,
      );
    }
    assertEquals(seen.filter((r) => r.url.pathname !== "/oauth/token"), []);
  }
});

Deno.test("sdk adversarial: a token with expires_in 0 is used for its call, one token per call, no loop", async () => {
  let tokens = 0;
  const { client, seen } = fake(() => Response.json(workspace("w_1")), {
    token: () =>
      Response.json({
        access_token: `t${++tokens}`,
        token_type: "Bearer",
        expires_in: 0,
      }),
  });
  await client.workspaces.get("w_1");
  await client.workspaces.get("w_1");
  assertEquals(tokens, 2);
  const api = seen.filter((r) => r.url.pathname !== "/oauth/token");
  assertEquals(api.map((r) => r.authorization), ["Bearer t1", "Bearer t2"]);
});

Deno.test("sdk adversarial: answers off the schema are InvalidResponseErrors naming the field; never undefined in user data", async () => {
  const bodies: [string, unknown][] = [
    ["id", { ...workspace("w_1"), id: undefined }],
    ["id", { ...workspace("w_1"), id: 42 }],
    ["created_at", { ...workspace("w_1"), created_at: null }],
    ["name", { ...workspace("w_1"), name: ["a"] }],
    ["(body)", "not json"],
    ["(body)", null],
    ["(body)", [workspace("w_1")]],
  ];
  for (const [field, body] of bodies) {
    const { client } = fake(() =>
      typeof body === "string"
        ? new Response(body, { status: 200 })
        : Response.json(body)
    );
    const error = await assertRejects(
      () => client.workspaces.get("w_1"),
      InvalidResponseError,
      undefined,
      JSON.stringify(body),
    );
    if (field !== "(body)") {
      assert(error.message.includes(field), `${field}: ${error.message}`);
    }
  }
  // Extra fields are kept or dropped, never an error; a number past what a
  // double holds exactly is refused naming the field, not rounded.
  const { client } = fake(() =>
    Response.json({
      ...page([{ ...workspace("w_1"), extra: { deep: 1 } }], 1, 1),
      pagination: {
        total_items: 1e300,
        items_per_page: 10,
        current_page: 1,
        total_pages: 1,
      },
    })
  );
  await assertRejects(
    () => client.workspaces.list(),
    InvalidResponseError,
    "pagination.total_items",
  );
  const { client: lenient } = fake(() =>
    Response.json(page([{ ...workspace("w_1"), extra: { deep: 1 } }], 1, 1))
  );
  assertEquals((await lenient.workspaces.list()).data[0].id, "w_1");
});

// ---------------------------------------------------------------- jobs

const owned = (id: string) => ({
  id,
  account: { id: "acc", name: "acc" },
  created_at: "2024-01-01T00:00:00.000000Z",
  created_by: ref,
});
const ingestion = (status: string) => ({
  ...owned("ij_1"),
  job_type: "INITIAL",
  name: "ingest",
  compute_configuration: { id: "cc", name: "cc" },
  data_processing_configuration: { id: "ic", name: "ic" },
  storage_connector: { id: "sc", name: "sc" },
  datasource: { id: "ds_1", name: "ds_1" },
  data_path: "churn.csv",
  status,
  progress: status === "COMPLETED" ? 1 : 0.5,
  stage: "reading",
  stage_progress: 0,
  maximum_runtime_seconds: 3600,
});

/** An ingestion job the fake service runs: `polls` RUNNING answers, then COMPLETED. */
function ingestionPlatform(polls: number) {
  let gets = 0;
  let creates = 0;
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    await request.body?.cancel();
    if (url.pathname === "/oauth/token") {
      return Response.json({
        access_token: "t",
        token_type: "Bearer",
        expires_in: 3600,
      });
    }
    if (
      request.method === "POST" &&
      url.pathname === "/data-processing-ingestion-jobs"
    ) {
      creates++;
      return Response.json(ingestion("STARTING"), { status: 201 });
    }
    if (url.pathname === "/data-processing-ingestion-jobs/ij_1") {
      if (++gets > 500) throw new Error("polled without end");
      return Response.json(ingestion(gets > polls ? "COMPLETED" : "RUNNING"));
    }
    if (url.pathname === "/datasources/ds_1") {
      return Response.json({ ...owned("ds_1"), name: "churn" });
    }
    return Response.json({ message: "no", error_code: "NOT_FOUND" }, {
      status: 404,
    });
  };
  const ml = new MLPlatform({
    baseUrl: "https://mlp.test",
    clientId: "id",
    clientSecret: "secret",
    fetch: fetch as typeof globalThis.fetch,
    pollInterval: 1,
    maxRetries: 0,
    progress: false,
  });
  const job = ml.ingestionJob({
    configuration: "ic",
    storage: "sc",
    compute: "cc",
    path: "churn.csv",
    datasourceName: "churn",
    poll: { initialDelay: 1, maxDelay: 1 },
  }).create();
  return { job, counts: () => ({ gets, creates }) };
}

Deno.test("sdk adversarial: a job awaited twice polls once and resolves both to the same result; no second create", async () => {
  const { job, counts } = ingestionPlatform(2);
  const [a, b] = await Promise.all([job, job]);
  assertEquals(a, b);
  assertEquals((await job).id, "ds_1");
  assertEquals(counts(), { gets: 3, creates: 1 });
});

Deno.test("sdk adversarial: watch() and wait() with an already-aborted signal reject with its reason and poll nothing", async () => {
  const { job, counts } = ingestionPlatform(2);
  await job.created;
  const reason = new Error("stop");
  const signal = AbortSignal.abort(reason);
  const watched = job.watch({ signal });
  assertEquals(await assertRejects(() => watched.next()), reason);
  assertEquals(await assertRejects(() => job.wait({ signal })), reason);
  assertEquals(counts().gets, 0);
});

Deno.test("sdk adversarial: an onProgress callback that throws ends the wait with its error, which is not swallowed", async () => {
  const { job } = ingestionPlatform(3);
  const boom = new Error("callback bug");
  assertEquals(
    await assertRejects(() =>
      job.wait({
        onProgress: () => {
          throw boom;
        },
      })
    ),
    boom,
  );
  // The job itself is not spoilt: a later wait completes.
  assertEquals((await job.wait()).id, "ds_1");
});

Deno.test("sdk adversarial: wait()'s timeout and poll options from JavaScript (NaN, strings, negatives) are refused naming the option, before polling", async () => {
  for (
    const [field, options] of [
      ["timeout", { timeout: NaN }],
      ["timeout", { timeout: "5000" }],
      ["timeout", { timeout: -1 }],
      ["poll.initialDelay", { poll: { initialDelay: NaN } }],
      ["poll.maxDelay", { poll: { maxDelay: "10" } }],
      ["poll.factor", { poll: { factor: Infinity } }],
      ["poll.errorBudget", { poll: { errorBudget: NaN } }],
    ] as const
  ) {
    const { job, counts } = ingestionPlatform(1_000);
    await job.created;
    const error = await assertRejects(
      // deno-lint-ignore no-explicit-any
      () => job.wait(options as any),
      ValidationError,
      undefined,
      field,
    );
    assert(
      error.issues.some((i) => i.path === field),
      `${field}: ${JSON.stringify(error.issues)}`,
    );
    assertEquals(counts().gets, 0, field);
  }
});

// ------------------------------------------------------------ builders

function refusedAt(run: () => unknown, path: string, text?: string) {
  let error: unknown;
  try {
    run();
  } catch (e) {
    error = e;
  }
  assert(error instanceof ValidationError, `${path}: ${error}`);
  assert(
    error.issues.some((i) => i.path.startsWith(path)),
    `${path}: ${JSON.stringify(error.issues)}`,
  );
  if (text) assert(error.message.includes(text), error.message);
}

Deno.test("sdk adversarial: builder numbers from JavaScript (NaN, Infinity, strings, arrays) are ValidationErrors naming the option, nothing sent", async () => {
  const { ml, requests } = offlinePlatform();
  for (
    const [option, wire, value] of [
      ["learningRate", "learning_rate", NaN],
      ["learningRate", "learning_rate", Infinity],
      ["learningRate", "learning_rate", "0.1"],
      ["maxRounds", "max_rounds", [10]],
      ["bins", "bins", -0.5],
      ["randomSeed", "random_seed", 2 ** 53],
    ] as const
  ) {
    refusedAt(
      () => ml.trainingConfiguration("t", { [option]: value } as never).body(),
      wire,
      option === wire ? undefined : `option "${option}"`,
    );
  }
  // -0 is a number like 0: accepted where 0 is.
  assertEquals(
    ml.trainingConfiguration("t", { l1Ratio: -0 }).body().l1_ratio,
    0,
  );
  // Frozen options are read, never written to.
  const frozen = Object.freeze({ learningRate: 0.2 });
  assertEquals(ml.trainingConfiguration("t", frozen).body().learning_rate, 0.2);
  await assertRejects(
    () => ml.trainingConfiguration("t", { learningRate: NaN }).create(),
    ValidationError,
  );
  assertEquals(requests(), 0);
});

Deno.test("sdk adversarial: an unknown builder option (a typo, __proto__, constructor) is a ValidationError naming it, not dropped", () => {
  const { ml, requests } = offlinePlatform();
  // A misspelling gets the nearest option, in the caller's style, and
  // never itself (the typo was once suggested as its own correction);
  // another library's name for a setting is refused, told ours.
  const told: [string, string][] = [
    ["learningrate", 'did you mean "learningRate"'],
    ["maxRoundz", 'did you mean "maxRounds"'],
    ["max_roundz", 'did you mean "max_rounds"'],
    [
      "max_iter",
      'did you mean "max_rounds"? "max_iter" is its name in other libraries',
    ],
    ["randomState", 'did you mean "randomSeed"?'],
  ];
  for (const [option, text] of told) {
    refusedAt(
      () => ml.trainingConfiguration("t", { [option]: 1 } as never).body(),
      option,
      text,
    );
  }
  refusedAt(
    () =>
      ml.deploymentConfiguration("d", { maxConcurrency: 4 } as never).body(),
    "maxConcurrency",
  );
  // An options object parsed from JSON may carry "__proto__" as an own key:
  // it must not set the body's prototype and smuggle fields in.
  const hostile = JSON.parse(
    '{"__proto__": {"learning_rate": 0.99}, "constructor": {"x": 1}}',
  );
  refusedAt(
    () => ml.trainingConfiguration("t", hostile).body(),
    "__proto__",
  );
  assertEquals(({} as Record<string, unknown>).learning_rate, undefined);
  assertEquals(requests(), 0);
});

Deno.test("sdk adversarial: very long and empty names are refused naming name; 200 characters pass", () => {
  const { ml, requests } = offlinePlatform();
  refusedAt(() => ml.trainingConfiguration("x".repeat(201)).body(), "name");
  refusedAt(() => ml.trainingConfiguration("   ").body(), "name");
  refusedAt(() => ml.trainingConfiguration(["a"] as never).body(), "name");
  assertEquals(
    ml.trainingConfiguration("x".repeat(200)).body().name.length,
    200,
  );
  assertEquals(requests(), 0);
});

Deno.test("sdk adversarial: list queries from JavaScript (NaN, strings, negatives, huge) are refused naming the parameter, before sending", async () => {
  for (
    const [param, query] of [
      ["page", { page: NaN }],
      ["page", { page: -1 }],
      ["page", { page: 1.5 }],
      ["items_per_page", { items_per_page: 1e9 }],
      ["items_per_page", { items_per_page: "ten" }],
    ] as const
  ) {
    const { client, seen } = fake(() => Response.json(page([], 1, 0)));
    const error = await assertRejects(
      () => client.workspaces.list(query as never),
      ValidationError,
      undefined,
      param,
    );
    assert(
      error.issues.some((i) => i.path.includes(param)),
      `${param}: ${JSON.stringify(error.issues)}`,
    );
    assertEquals(seen.length, 0, param);
  }
});

Deno.test("sdk adversarial: the bearer token and the secret appear in no error, inspection or JSON of the client, an error or a job", async () => {
  const { client } = fake(
    () =>
      Response.json({ message: "boom", error_reference: "r1" }, {
        status: 500,
      }),
    {
      maxRetries: 0,
    },
  );
  const error = await assertRejects(() => client.workspaces.get("w_1"));
  for (
    const text of [
      Deno.inspect(client, { depth: 10, showHidden: true }),
      JSON.stringify(client),
      Deno.inspect(error, { depth: 10, showHidden: true }),
      JSON.stringify(error),
      String((error as Error).stack),
    ]
  ) {
    assert(!text.includes("tok-1"), text);
    assert(!text.includes("s3cret"), text);
  }
});

Deno.test("sdk adversarial: a 503 create the service did make anyway is a ConflictError on the re-send, never a second resource", async () => {
  // docs: a 503 is 'not processed' (src/http/retry.ts): re-sent. A service
  // breaking that makes the re-send a duplicate name: a typed 409.
  let made = 0;
  const { client } = fake((req) => {
    if (req.method !== "POST") return Response.json(page([], 1, 0));
    if (made++ === 0) {
      return Response.json({ message: "busy", error_code: "INTERNAL_ERROR" }, {
        status: 503,
      });
    }
    return Response.json({ message: "taken", error_code: "CONFLICT" }, {
      status: 409,
    });
  });
  await assertRejects(
    () => client.workspaces.create({ name: "w" }),
    ConflictError,
  );
  assertEquals(made, 2);
});

// ------------------------------------------------------------ notebook

Deno.test("sdk adversarial: names, statuses, columns and messages a service sends are escaped in every notebook HTML display", async () => {
  const {
    compareModels,
    errorCard,
    notebookProgress,
    resourceCard,
    viewsTable,
  } = await import("../notebook.ts");
  const { renderAs } = await import("../src/display.ts");
  const H = `<img src=x onerror=alert(1)>"'`;
  const resource = {
    id: H,
    name: H,
    status: H,
    message: H,
    stage: H,
    metrics: { [H]: 0.5 },
    created_at: H,
    created_by: { id: H, name: H },
    tags: [H],
    [H]: H,
  };
  const htmls: [string, string][] = [
    ["resourceCard", resourceCard(resource, { kind: H }).html],
    ["errorCard", errorCard(Object.assign(new Error(H), { name: H })).html],
    [
      "viewsTable",
      viewsTable({ columns: [H, "b"], index: [H], data: [[H, H]] })[
        "text/html"
      ],
    ],
    [
      "page",
      String(
        renderAs("page", {
          data: [resource],
          pagination: {
            total_items: 1,
            items_per_page: 10,
            current_page: 1,
            total_pages: 1,
          },
        }, H)["text/html"],
      ),
    ],
    [
      "compareModels",
      compareModels([
        { model: { id: H, name: H, metrics: { [H]: 1 } } },
        { model: { id: "m2", name: H, metrics: { [H]: 2 } } },
      ]).table["text/html"],
    ],
  ];
  const shown: unknown[] = [];
  const progress = notebookProgress(H, {
    throttleMs: 0,
    jupyter: {
      display: (obj) => {
        shown.push(obj);
        return Promise.resolve();
      },
    },
  })!;
  progress.update({ ...resource, progress: 0.5, stage_progress: 0.5 } as never);
  await progress.end({ ...resource, status: "FAILED" } as never);
  for (const [i, bundle] of shown.entries()) {
    const html = (bundle as Record<string, unknown>)["text/html"];
    if (typeof html === "string") htmls.push([`progress ${i}`, html]);
  }
  assert(htmls.length >= 6);
  for (const [what, html] of htmls) {
    assert(!/<img/i.test(html), `${what}: ${html}`);
  }
});

Deno.test("sdk adversarial: a base URL with a query, a fragment or credentials in it is a ConfigurationError, not a client sending elsewhere", async () => {
  for (
    const baseUrl of [
      "http://api.test.invalid/v1?key=1",
      "http://api.test.invalid/v1#frag",
      "http://user:pw@api.test.invalid/v1",
    ]
  ) {
    const seen: string[] = [];
    let made: Client | undefined;
    let error: unknown;
    try {
      made = new Client({
        baseUrl,
        clientId: "id",
        clientSecret: "s3cret",
        maxRetries: 0,
        fetch: (input) => {
          seen.push(input instanceof Request ? input.url : String(input));
          return Promise.resolve(Response.json({}));
        },
      });
      await made.workspaces.get("w_1");
    } catch (e) {
      error = e;
    }
    assertInstanceOf(error, ConfigurationError, baseUrl);
    assertEquals(seen, [], baseUrl);
    assert(!String((error as Error).message).includes("pw"), baseUrl);
  }
});

Deno.test("sdk adversarial: numeric client options from JavaScript (NaN, strings, negatives) are a ConfigurationError naming the option, at construction", () => {
  // a NaN timeout never fired (a hung request hung the call), a NaN
  // pollInterval polled a 202 without pause, a NaN maxRetryAfter or
  // retryTimeout silently turned every retry off.
  for (
    const [option, value] of [
      ["timeout", NaN],
      ["timeout", "1000"],
      ["timeout", Infinity],
      ["maxRetries", -1],
      ["maxRetries", NaN],
      ["retryTimeout", NaN],
      ["retryBaseDelay", -5],
      ["retryMaxDelay", "8000"],
      ["maxRetryAfter", NaN],
      ["pollInterval", NaN],
    ] as const
  ) {
    let error: unknown;
    try {
      new Client({ baseUrl: BASE, [option]: value } as never);
    } catch (e) {
      error = e;
    }
    assertInstanceOf(error, ConfigurationError, `${option}: ${value}`);
    assert(error.message.includes(option), error.message);
  }
  // Infinity where it means "no limit" stays allowed.
  new Client({ baseUrl: BASE, maxRetries: Infinity, maxRetryAfter: Infinity });
});

Deno.test("sdk adversarial: a views answer with rows shorter or longer than its columns is an InvalidResponseError naming the row, never cells of undefined", async () => {
  // docs/api.md#endpoints (13): a split table, rows aligned with columns.
  for (
    const data of [[[1]], [[1, 2, 3]], [[1, 2], [3]]]
  ) {
    const { client } = fake(() =>
      Response.json({ columns: ["a", "b"], index: data.map((_, i) => i), data })
    );
    await assertRejects(
      () => client.deployedModels.views("dm_1", { query: { x: [1] } }),
      InvalidResponseError,
      "data.",
      JSON.stringify(data),
    );
  }
  const { client } = fake(() =>
    Response.json({ columns: ["a", "b"], index: [0], data: [[1, null]] })
  );
  assertEquals(
    (await client.deployedModels.views("dm_1", { query: { x: [1] } })).data,
    [[1, null]],
  );
});

Deno.test("sdk adversarial: a per-call timeout that is not a finite number of 0 or more is refused naming timeout, before sending", async () => {
  for (const timeout of [NaN, -1, "100", Infinity]) {
    const { client, seen } = fake(() => Response.json(workspace("w_1")));
    await assertRejects(
      () => client.workspaces.get("w_1", { timeout } as never),
      ConfigurationError,
      "timeout",
      String(timeout),
    );
    assertEquals(seen.length, 0);
  }
});

Deno.test("sdk adversarial: a token revoked mid-wait (401) is renewed once and the job completes, created once; a token endpoint then refusing ends it typed", async () => {
  // docs/contract.md#tokens: the client renews once on a 401.
  for (const refuseRenewal of [false, true]) {
    let tokens = 0;
    let creates = 0;
    let gets = 0;
    const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      await request.body?.cancel();
      if (url.pathname === "/oauth/token") {
        if (tokens >= 1 && refuseRenewal) {
          return Response.json({ message: "revoked" }, { status: 401 });
        }
        return Response.json({
          access_token: `t${++tokens}`,
          token_type: "Bearer",
          expires_in: 3600,
        });
      }
      // The first token is revoked after the create and one poll.
      if (request.headers.get("authorization") === "Bearer t1" && gets >= 1) {
        return Response.json({ message: "expired" }, { status: 401 });
      }
      if (request.method === "POST") {
        creates++;
        return Response.json(ingestion("STARTING"), { status: 201 });
      }
      if (url.pathname === "/data-processing-ingestion-jobs/ij_1") {
        return Response.json(ingestion(++gets > 3 ? "COMPLETED" : "RUNNING"));
      }
      return Response.json({ ...owned("ds_1"), name: "churn" });
    };
    const ml = new MLPlatform({
      baseUrl: "https://mlp.test",
      clientId: "id",
      clientSecret: "secret",
      fetch: fetch as typeof globalThis.fetch,
      maxRetries: 0,
      progress: false,
    });
    const job = ml.ingestionJob({
      configuration: "ic",
      storage: "sc",
      compute: "cc",
      path: "churn.csv",
      datasourceName: "churn",
      poll: { initialDelay: 1, maxDelay: 1, errorBudget: 2 },
    }).create();
    if (refuseRenewal) {
      const error = await assertRejects(() => job.wait(), MLPlatformError);
      assertEquals(error.status, 401);
    } else {
      assertEquals((await job).id, "ds_1");
      assertEquals(tokens, 2);
    }
    assertEquals(creates, 1);
  }
});

Deno.test("sdk adversarial: credentials the caller put in headers (Authorization, Cookie) do not follow a redirect or a 202 to another origin either", async () => {
  // As fetch does on a cross-origin redirect (Fetch standard, HTTP-redirect
  // fetch: Authorization removed), and as docs/contract.md#202-accepted
  // asks of the token.
  for (const status of [202, 307]) {
    const foreignSeen: Headers[] = [];
    const client = new Client({
      baseUrl: BASE,
      clientId: "id",
      clientSecret: "s3cret",
      maxRetries: 0,
      pollInterval: 0,
      headers: { Authorization: "Basic dXNlcjpwdw==", Cookie: "session=1" },
      fetch: (input, init) => {
        const request = new Request(input, init);
        const url = new URL(request.url);
        if (url.pathname === "/oauth/token") {
          return Promise.resolve(Response.json({
            access_token: "tok-1",
            token_type: "Bearer",
            expires_in: 3600,
          }));
        }
        if (url.origin !== BASE) {
          foreignSeen.push(request.headers);
          return Promise.resolve(Response.json(workspace("w_1")));
        }
        return Promise.resolve(
          new Response(null, {
            status,
            headers: { location: "http://evil.invalid/w" },
          }),
        );
      },
    });
    assertEquals((await client.workspaces.get("w_1")).id, "w_1");
    assertEquals(foreignSeen.length, 1);
    assertEquals(foreignSeen[0].get("authorization"), null, String(status));
    assertEquals(foreignSeen[0].get("cookie"), null, String(status));
  }
});
