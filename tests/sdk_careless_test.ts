/**
 * A careless user's calls, held to what README.md, the JSDoc and
 * docs/contract.md promise: iterating a list while items are deleted or
 * created, huge option values, views of more rows than one request
 * carries (errors, bad chunk options, a missing feature, an abort), a
 * batch page with unscored rows, reusing a closed `local()`, a base URL
 * with a path the API does not have, and an abort that lands after the
 * job ended. The fake service is a custom `fetch` (no server).
 */
import {
  assert,
  assertEquals,
  assertInstanceOf,
  assertMatch,
  assertRejects,
} from "@std/assert";
import { Client, type ClientOptions } from "../src/client.ts";
import {
  ConfigurationError,
  ConflictError,
  NotFoundError,
  ValidationError,
} from "../src/http/errors.ts";
import { Deadlines } from "../src/http/deadlines.ts";
import { Job } from "../src/jobs/job.ts";
import { Deployment } from "../src/builders/deployment.ts";
import { BatchPage } from "../src/builders/batch_result.ts";
import { local } from "../local.ts";

const BASE = "http://api.test.invalid";
const T = "2024-05-01T12:00:00.000000Z";
const ref = { id: "u_1", name: "me" };

function workspace(id: string) {
  return { id, name: id, account: ref, created_at: T, created_by: ref };
}

/** A client on `handler` (the token call answered), requests counted. */
function fake(
  handler: (request: Request, url: URL) => Response | Promise<Response>,
  options: Partial<ClientOptions> = {},
) {
  const sent: string[] = [];
  const client = new Client({
    baseUrl: BASE,
    clientId: "id",
    clientSecret: "s3cret",
    maxRetries: 0,
    fetch: (input, init) => {
      const request = new Request(input, init);
      const url = new URL(request.url);
      if (url.pathname.endsWith("/oauth/token")) {
        return Promise.resolve(Response.json({
          access_token: "tok",
          token_type: "Bearer",
          expires_in: 3600,
        }));
      }
      sent.push(`${request.method} ${url.pathname}`);
      return Promise.resolve(handler(request, url));
    },
    ...options,
  });
  return { client, sent };
}

/** `GET /workspaces` answered page by page from `items` as it is now. */
function listing(items: { id: string }[]) {
  return (_: Request, url: URL) => {
    const page = Number(url.searchParams.get("page") ?? 1);
    const size = Number(url.searchParams.get("items_per_page") ?? 10);
    return Response.json({
      data: items.slice((page - 1) * size, page * size),
      pagination: {
        total_items: items.length,
        items_per_page: size,
        current_page: page,
        total_pages: Math.ceil(items.length / size),
      },
    });
  };
}

const names = (n: number, prefix = "w") =>
  Array.from({ length: n }, (_, i) => `${prefix}${i}`);

Deno.test("sdk careless: items deleted before the iterator's page while it runs are still yielded, each once, in order", async () => {
  // README: the list iterator "walks them all". Page-numbered reading
  // skipped w10..w14 once w0..w4 were deleted after page 1: page 2 then
  // began at w15.
  const items = names(25).map(workspace);
  const { client } = fake(listing(items));
  const seen: string[] = [];
  for await (const w of client.workspaces.iterate()) {
    seen.push(w.id);
    if (seen.length === 10) items.splice(0, 5); // another user deletes five
  }
  assertEquals(seen, names(25));
});

Deno.test("sdk careless: deleting every item as it is yielded deletes them all", async () => {
  const items = names(35).map(workspace);
  const { client } = fake(listing(items));
  let deleted = 0;
  for await (const w of client.workspaces.iterate()) {
    items.splice(items.findIndex((x) => x.id === w.id), 1);
    deleted++;
  }
  assertEquals([deleted, items.length], [35, 0]);
});

Deno.test("sdk careless: items created at the front of a newest-first list while iterating are not yielded twice", async () => {
  const items = names(25).map(workspace);
  const { client } = fake(listing(items));
  const seen: string[] = [];
  for await (const w of client.workspaces.iterate()) {
    seen.push(w.id);
    if (seen.length === 10) {
      for (const id of names(5, "new")) items.unshift(workspace(id));
    }
  }
  assertEquals(new Set(seen).size, seen.length, seen.join());
  for (const id of names(25)) assert(seen.includes(id), `${id} skipped`);
});

Deno.test("sdk careless: a poll wait beyond 24.8 days waits, instead of polling every millisecond", async () => {
  // One setTimeout fires after 1 ms past 2^31 - 1 ms: a wait given as
  // { timeout: Infinity, poll: { initialDelay: 3e9 } } polled without pause.
  let polls = 0;
  const job = new Job({
    kind: "training job",
    start: () => Promise.resolve({ id: "tj_1", status: "RUNNING" }),
    retrieve: (id) => (polls++, Promise.resolve({ id, status: "RUNNING" })),
    resolve: () => "model",
    progress: false,
  });
  const controller = new AbortController();
  const waiting = job.wait({
    signal: controller.signal,
    timeout: Infinity,
    poll: { initialDelay: 3e9, maxDelay: 3e9 },
  });
  await new Promise((r) => setTimeout(r, 100));
  controller.abort(new Error("enough"));
  await assertRejects(() => waiting, Error, "enough");
  assertEquals(polls, 0);
});

Deno.test("sdk careless: a client timeout beyond 24.8 days arms one timer, not one every millisecond", async () => {
  const original = globalThis.setTimeout;
  let timers = 0;
  globalThis.setTimeout = ((...args: Parameters<typeof setTimeout>) => {
    timers++;
    return original(...args);
  }) as typeof setTimeout;
  try {
    const deadlines = new Deadlines();
    let fired = false;
    const release = deadlines.add(3e9, () => (fired = true));
    await new Promise((r) => original(r, 150));
    release();
    assertEquals(fired, false);
    assert(timers <= 3, `${timers} timers armed in 150 ms`);
  } finally {
    globalThis.setTimeout = original;
  }
});

const FEATURES = ["bill_length_mm", "sex"];
const COLUMNS = ["prediction.species", "bias", "contribution.bill_length_mm"];
const RESOURCE = {
  id: "dm_1",
  name: "penguins",
  status: "RUNNING",
  model: { id: "m_1" },
  deployment_configuration: { id: "dc_1" },
  tags: [],
  account: ref,
  created_at: T,
  created_by: ref,
};

/** A views answer for `body`'s rows, computed at once (no timer, no I/O). */
async function answer(request: Request, work = 0): Promise<Response> {
  const body = await request.json();
  const rows = body.query.bill_length_mm.length;
  const until = performance.now() + work;
  while (performance.now() < until) { /* scoring */ }
  return Response.json({
    columns: COLUMNS,
    index: Array.from({ length: rows }, (_, i) => i),
    data: Array.from({ length: rows }, () => ["Adelie", 0.1, 0.2]),
  });
}

function query(rows: number) {
  return {
    bill_length_mm: Array.from({ length: rows }, (_, i) => 30 + i / 100),
    sex: Array.from({ length: rows }, () => "male"),
  };
}

Deno.test("sdk careless: views of more rows than one request carries fail with the same typed error as one request", async () => {
  // 1,001 rows used to reject with a ChunkError (no MLPlatformError), so
  // `catch (e) { if (e instanceof NotFoundError) ... }` worked up to 1,000.
  const { client } = fake(() =>
    Response.json(
      { message: 'No deployed model with id "dm_1"', error_code: "NOT_FOUND" },
      { status: 404 },
    )
  );
  const live = new Deployment(client, RESOURCE, {
    features: FEATURES,
    targets: ["species"],
  });
  const error = await assertRejects(
    () => live.views(query(2500), { concurrency: 1 }),
    NotFoundError,
  );
  assertMatch(error.message, /rows 0-999/);

  // A row number in the service's message counts from its request's row.
  const bad = fake(async (request) => {
    const body = await request.json();
    const at = body.query.bill_length_mm.indexOf("abc");
    return at < 0
      ? answer(
        new Request(request.url, {
          method: "POST",
          body: JSON.stringify(body),
        }),
      )
      : Response.json({
        message: `The request is invalid: column 'bill_length_mm' row ${at}`,
        error_code: "VALIDATION_ERROR",
        errors: [{ path: "query.bill_length_mm", message: `row ${at}` }],
      }, { status: 400 });
  });
  const rows = query(2500) as { bill_length_mm: unknown[]; sex: string[] };
  rows.bill_length_mm[2497] = "abc";
  const invalid = await assertRejects(
    () =>
      new Deployment(bad.client, RESOURCE, { features: FEATURES }).views(
        rows as never,
        { concurrency: 2 },
      ),
    ValidationError,
  );
  assertMatch(invalid.message, /row 497/);
  assertMatch(invalid.message, /rows 2000-2499.*counts from row 2000/);
  assertEquals(invalid.issues[0].path, "query.bill_length_mm");
});

Deno.test("sdk careless: a bad chunkSize or concurrency, a feature left out, or classes to explain for other rows are refused naming it before any request", async () => {
  const { client, sent } = fake((request) => answer(request));
  const live = new Deployment(client, RESOURCE, { features: FEATURES });
  for (
    const [option, path] of [
      [{ chunkSize: 0 }, "chunkSize"],
      [{ chunkSize: "100" }, "chunkSize"],
      [{ chunkSize: NaN }, "chunkSize"],
      [{ concurrency: 0 }, "concurrency"],
      [{ concurrency: 1.5 }, "concurrency"],
    ] as const
  ) {
    const error = await assertRejects(
      () => live.views(query(1500), option as never),
      ValidationError,
    );
    assertEquals(error.issues.map((i) => i.path), [path], error.message);
  }
  const { sex: _, ...noSex } = query(3);
  for (const input of [noSex, [{ bill_length_mm: 1 }]]) {
    const error = await assertRejects(
      () => live.views(input as never),
      ValidationError,
    );
    assertEquals(error.issues.map((i) => i.path), ["query.sex"]);
    assertMatch(error.message, /Nothing was sent/);
  }
  // Explained classes per row, but not one for every row.
  for (const rows of [3, 2500]) {
    const error = await assertRejects(
      () =>
        live.query(query(rows)).explain("species", ["Adelie", "Gentoo"])
          .create({}),
      ValidationError,
    );
    assertEquals(error.issues.map((i) => i.path), ["targets.species"]);
  }
  assertEquals(sent, []);
  // Every feature given: sent.
  assertEquals((await live.views(query(2))).length, 2);
});

Deno.test("sdk careless: an abort stops views of many rows scored in-process, where no request waits for I/O", async () => {
  // local() answers each request without a timer or I/O: the abort (a
  // timer) never ran before every chunk was scored, and the call resolved.
  for (const abortIn of ["timer", "AbortSignal.timeout"]) {
    let requests = 0;
    const { client } = fake((request) => (requests++, answer(request, 3)));
    const live = new Deployment(client, RESOURCE, { features: FEATURES });
    const controller = new AbortController();
    const signal = abortIn === "timer"
      ? controller.signal
      : AbortSignal.timeout(30);
    if (abortIn === "timer") {
      setTimeout(() => controller.abort(new Error("stop")), 30);
    }
    await assertRejects(() =>
      live.views(query(3000), { chunkSize: 10, concurrency: 2, signal })
    );
    assert(requests < 200, `${requests} of 300 requests sent after the abort`);
  }
});

Deno.test("sdk careless: a batch row the model could not score has NaN probabilities, not 0", () => {
  const page = new BatchPage({
    columns: [
      "id",
      "prediction.churn",
      "probability.churn.No",
      "probability.churn.Yes",
      "error",
    ],
    index: [0, 1],
    data: [["a", "Yes", 0.2, 0.8, null], [
      "b",
      null,
      null,
      null,
      "column 'x': not a number",
    ]],
  });
  const { No, Yes } = page.probabilities();
  assertEquals([No[0], Yes[0]], [0.2, 0.8]);
  assert(Number.isNaN(No[1]) && Number.isNaN(Yes[1]), `${No[1]}, ${Yes[1]}`);
});

Deno.test("sdk careless: a closed local() platform refuses every later call with a ConfigurationError; closing twice is one close", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "mlp_closed_" });
  try {
    for (const options of [{}, { dataDir }]) {
      const ml = await local({ ...options, progress: false });
      await ml.workspaces.list();
      await ml.close();
      await ml.close();
      for (
        const call of [
          () => ml.workspaces.list(),
          () => ml.workspace("after-close").create(),
        ]
      ) {
        const error = await assertRejects(call, ConfigurationError);
        assertMatch(error.message, /local\(\) platform was closed/);
      }
    }
    // What it persisted is there for the next one.
    const again = await local({ dataDir, progress: false });
    try {
      assertEquals((await again.workspaces.list()).data.length, 0);
    } finally {
      await again.close();
    }
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("sdk careless: a base URL with a path the API does not have says to check the base URL, not an id", async () => {
  const { client } = fake(
    (request, url) =>
      Response.json({
        message: `No operation ${request.method} ${url.pathname}`,
        error_code: "NOT_FOUND",
      }, { status: 404 }),
    { baseUrl: `${BASE}/v1` },
  );
  // The token call is the first to fail: answered 404 by the fake too.
  const tokenless = new Client({
    baseUrl: `${BASE}/v1`,
    clientId: "id",
    clientSecret: "s3cret",
    maxRetries: 0,
    fetch: (input, init) => {
      const url = new URL(new Request(input, init).url);
      return Promise.resolve(Response.json({
        message: `No operation POST ${url.pathname}`,
        error_code: "NOT_FOUND",
      }, { status: 404 }));
    },
  });
  const token = await assertRejects(
    () => tokenless.workspaces.list(),
    NotFoundError,
  );
  assertMatch(token.message, /POST \/v1\/oauth\/token failed/);
  assertMatch(token.message, /check the base URL/);
  assert(!token.message.includes("Check the id"), token.message);
  const list = await assertRejects(
    () => client.workspaces.list(),
    NotFoundError,
  );
  assertMatch(list.message, /check the base URL/);
  // A resource by id: the id is what to check.
  const byId = await assertRejects(
    () => client.workspaces.get("ws_9"),
    NotFoundError,
  );
  assertMatch(byId.message, /Check the id/);
});

Deno.test("sdk careless: cancelOnAbort whose abort lands after the job ended rejects with the abort, not the cancel's 409", async () => {
  const controller = new AbortController();
  let cancels = 0;
  const job = new Job({
    kind: "training job",
    start: () => Promise.resolve({ id: "tj_1", status: "RUNNING" }),
    retrieve: (id) => Promise.resolve({ id, status: "COMPLETED" }),
    // The abort comes while the model is fetched: the job has ended.
    resolve: (_s, o) => {
      controller.abort(new Error("user stopped"));
      return o.signal?.aborted
        ? Promise.reject(o.signal.reason)
        : Promise.resolve("model");
    },
    cancel: (id) => {
      cancels++;
      return Promise.reject(
        new ConflictError({
          status: 409,
          message: `The job ${id} has already ended (COMPLETED)`,
        }),
      );
    },
    poll: { initialDelay: 1 },
    progress: false,
  });
  const error = await assertRejects(() =>
    job.wait({ signal: controller.signal, cancelOnAbort: true })
  );
  assertInstanceOf(error, Error);
  assertEquals([error.message, cancels], ["user stopped", 1]);
});
