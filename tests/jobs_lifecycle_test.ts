/**
 * Job<T> lifecycle through the real client and a scripted fetch: completion,
 * FAILED, timeout, abort, unknown status, 202 chains and 429 while polling.
 */
import { assert, assertEquals, assertRejects } from "@std/assert";
import { MLPlatform } from "../src/platform.ts";
import { JobFailedError, JobTimeoutError } from "../src/jobs/errors.ts";
import { ValidationError } from "../src/http/errors.ts";

const ref = (id: string) => ({ id, name: id });
const owned = (id: string) => ({
  id,
  account: ref("acc"),
  created_at: "2024-01-01T00:00:00.000000Z",
  created_by: ref("user"),
});
const job = (status: string, extra: Record<string, unknown> = {}) => ({
  ...owned("ij_1"),
  job_type: "INITIAL",
  name: "ingest-churn",
  compute_configuration: ref("cc"),
  data_processing_configuration: ref("ic"),
  storage_connector: ref("sc"),
  datasource: ref("ds_1"),
  data_path: "churn.csv",
  status,
  progress: status === "COMPLETED" ? 1 : 0.5,
  stage: "reading",
  stage_progress: 0,
  maximum_runtime_seconds: 3600,
  ...extra,
});

type Answer = Response | (() => Response);

/** A fetch that answers the token call, then `script[path]` in order. */
function scripted(script: Record<string, Answer[]>) {
  const calls: string[] = [];
  const fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    calls.push(`${request.method} ${url.pathname}`);
    if (url.pathname === "/oauth/token") {
      return Promise.resolve(
        Response.json({
          access_token: "t",
          token_type: "Bearer",
          expires_in: 3600,
        }),
      );
    }
    const queue = script[`${request.method} ${url.pathname}`];
    if (!queue?.length) {
      return Promise.resolve(
        Response.json({
          message: `unscripted ${url.pathname}`,
          error_code: "NOT_FOUND",
        }, { status: 404 }),
      );
    }
    const next = queue.length > 1 ? queue.shift()! : queue[0];
    return Promise.resolve(typeof next === "function" ? next() : next.clone());
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
  return { ml, calls };
}

function start(ml: MLPlatform) {
  return ml.ingestionJob({
    configuration: "ic",
    storage: "sc",
    compute: "cc",
    path: "churn.csv",
    datasourceName: "churn",
    poll: { initialDelay: 1, maxDelay: 2 },
  }).create();
}

const created = () => Response.json(job("STARTING"), { status: 201 });
const status = (s: string, extra?: Record<string, unknown>) => () =>
  Response.json(job(s, extra));
const datasource = () => Response.json({ ...owned("ds_1"), name: "churn" });

Deno.test("job: completes and resolves to the datasource", async () => {
  const { ml, calls } = scripted({
    "POST /data-processing-ingestion-jobs": [created()],
    "GET /data-processing-ingestion-jobs/ij_1": [
      status("RUNNING")(),
      status("RUNNING", { progress: 0.8 })(),
      status("COMPLETED")(),
    ],
    "GET /datasources/ds_1": [datasource()],
  });
  const ingestion = start(ml);
  assertEquals((await ingestion.created).status, "STARTING");
  assertEquals(ingestion.id, "ij_1");
  const seen: string[] = [];
  const source = await ingestion.wait({
    onProgress: (s) => seen.push(`${s.status}:${s.progress}`),
  });
  assertEquals(source.id, "ds_1");
  assertEquals(seen, [
    "STARTING:0.5",
    "RUNNING:0.5",
    "RUNNING:0.8",
    "COMPLETED:1",
  ]);
  assertEquals(calls.filter((c) => c.startsWith("POST /data")).length, 1);
  // `await job` shares one wait and gives the same result.
  assertEquals((await ingestion).id, "ds_1");
});

Deno.test("job: FAILED ends with JobFailedError carrying the message", async () => {
  const { ml } = scripted({
    "POST /data-processing-ingestion-jobs": [created()],
    "GET /data-processing-ingestion-jobs/ij_1": [
      status("FAILED", { message: "column churn is missing" })(),
    ],
  });
  const error = await assertRejects(() => start(ml).wait(), JobFailedError);
  assert(error.message.includes("column churn is missing"), error.message);
  assertEquals(error.snapshot.status, "FAILED");
});

Deno.test("job: an unknown status keeps waiting", async () => {
  const { ml } = scripted({
    "POST /data-processing-ingestion-jobs": [created()],
    "GET /data-processing-ingestion-jobs/ij_1": [
      status("QUEUED")(),
      status("WARMING_UP")(),
      status("COMPLETED")(),
    ],
    "GET /datasources/ds_1": [datasource()],
  });
  const statuses: string[] = [];
  for await (const s of start(ml).watch()) statuses.push(s.status);
  assertEquals(statuses, ["STARTING", "QUEUED", "WARMING_UP", "COMPLETED"]);
});

Deno.test("job: timeout ends with JobTimeoutError carrying the last snapshot", async () => {
  const { ml } = scripted({
    "POST /data-processing-ingestion-jobs": [created()],
    "GET /data-processing-ingestion-jobs/ij_1": [
      status("RUNNING", { progress: 0.4 }),
    ],
  });
  const error = await assertRejects(
    () => start(ml).wait({ timeout: 20 }),
    JobTimeoutError,
  );
  assertEquals(error.snapshot.status, "RUNNING");
  assertEquals(error.snapshot.progress, 0.4);
  assertEquals(error.timeout, 20);
});

Deno.test("job: abort rejects with the signal's reason", async () => {
  const { ml } = scripted({
    "POST /data-processing-ingestion-jobs": [created()],
    "GET /data-processing-ingestion-jobs/ij_1": [status("RUNNING")],
  });
  const controller = new AbortController();
  const reason = new Error("stopped by the user");
  let polls = 0;
  const waiting = start(ml).wait({
    signal: controller.signal,
    onProgress: () => {
      if (++polls === 2) controller.abort(reason);
    },
  });
  const error = await assertRejects(() => waiting);
  assertEquals(error, reason);
});

Deno.test("job: 202 + Location chains are followed while polling", async () => {
  const accepted = (to: string) => () =>
    new Response(null, { status: 202, headers: { Location: to } });
  const { ml, calls } = scripted({
    "POST /data-processing-ingestion-jobs": [accepted("/operations/op_1")],
    "GET /operations/op_1": [accepted("/operations/op_2")()],
    "GET /operations/op_2": [created()],
    "GET /data-processing-ingestion-jobs/ij_1": [
      accepted("/operations/op_3")(),
      status("COMPLETED")(),
    ],
    "GET /operations/op_3": [status("RUNNING")()],
    "GET /datasources/ds_1": [datasource()],
  });
  const source = await start(ml);
  assertEquals(source.id, "ds_1");
  assert(calls.includes("GET /operations/op_2"), calls.join("\n"));
  assert(calls.includes("GET /operations/op_3"), calls.join("\n"));
});

Deno.test("job: 429 while polling slows down instead of failing", async () => {
  const { ml } = scripted({
    "POST /data-processing-ingestion-jobs": [created()],
    "GET /data-processing-ingestion-jobs/ij_1": [
      Response.json({ message: "slow down", error_code: "RATE_LIMITED" }, {
        status: 429,
        headers: { "Retry-After": "0" },
      }),
      status("COMPLETED")(),
    ],
    "GET /datasources/ds_1": [datasource()],
  });
  assertEquals((await start(ml)).id, "ds_1");
});

Deno.test("job: an invalid body throws before any request", async () => {
  const { ml, calls } = scripted({});
  const error = await assertRejects(
    async () =>
      await ml.ingestionJob({
        configuration: "ic",
        storage: "sc",
        compute: "",
        path: "churn.csv",
        datasourceName: "churn",
      }),
    ValidationError,
  );
  assert(
    error.message.includes('compute_configuration_id (option "compute")'),
    error.message,
  );
  assertEquals(calls, []);
});

Deno.test("job: a deployed model is ready when RUNNING and resolves to a Deployment", async () => {
  const deployed = (s: string) =>
    Response.json({
      ...owned("dm_1"),
      name: "churn",
      status: s,
      model: ref("m_1"),
      deployment_configuration: ref("dc_1"),
    }, { status: s === "STARTING" ? 201 : 200 });
  const { ml } = scripted({
    "POST /deployed-models": [deployed("STARTING")],
    "GET /deployed-models/dm_1": [deployed("RUNNING")],
    "GET /models/m_1": [
      Response.json({
        ...owned("m_1"),
        name: "churn",
        features: ["tenure"],
        targets: ["churn"],
      }),
    ],
  });
  const live = await ml.deployedModel({
    model: "m_1",
    configuration: "dc_1",
    name: "churn",
    poll: { initialDelay: 1 },
  });
  assertEquals(live.status, "RUNNING");
  assertEquals(live.features, ["tenure"]);
});

Deno.test("job: a one-call step uses its own progress and poll options", async () => {
  const { ml } = scripted({
    "POST /data-processing-ingestion-jobs": [created()],
    "GET /data-processing-ingestion-jobs/ij_1": [
      status("RUNNING")(),
      status("COMPLETED")(),
    ],
    "GET /datasources/ds_1": [datasource()],
  });
  const seen: string[] = [];
  const sleeps: number[] = [];
  const source = await ml.ingest("churn.csv", {
    storage: "sc",
    schema: "sch",
    configuration: "ic",
    compute: "cc",
    // The platform's own progress is false: the step's factory wins.
    progress: (title) => ({
      update: (s) => void seen.push(`${title}:${s.status}`),
      end: () => {},
    }),
    poll: {
      initialDelay: 1,
      maxDelay: 1,
      sleep: (ms) => (sleeps.push(ms), Promise.resolve()),
    },
  });
  assertEquals(source.id, "ds_1");
  assertEquals(seen, [
    "ingestion job:STARTING",
    "ingestion job:RUNNING",
    "ingestion job:COMPLETED",
  ]);
  // The step's schedule, not the default one (250 then 375 ms).
  assertEquals(sleeps, [1, 1]);
});

const failure = (status: number, extra: Record<string, string> = {}) => () =>
  Response.json({ message: `status ${status}`, error_code: "X" }, {
    status,
    headers: extra,
  });

// Fails on the main of 2026-11-23: one bad poll ended the wait.
Deno.test("job: the wait polls through transient errors (5xx, 408, 429, a 401 renewal fixes, network)", async () => {
  let broken = 0;
  const { ml, calls } = scripted({
    "POST /data-processing-ingestion-jobs": [created()],
    "GET /data-processing-ingestion-jobs/ij_1": [
      failure(500),
      failure(502),
      failure(503),
      failure(504),
      failure(408),
      failure(429, { "retry-after": "0" }),
      // Refused twice in a row: the transport's one renewal did not help,
      // the next poll renews again.
      failure(401),
      failure(401),
      () => {
        broken++;
        throw new TypeError("connection reset");
      },
      status("RUNNING"),
      status("COMPLETED"),
    ],
    "GET /datasources/ds_1": [datasource()],
  });
  const source = await start(ml).wait();
  assertEquals(source.id, "ds_1");
  assertEquals(broken, 1);
  assertEquals(
    calls.filter((c) => c === "GET /data-processing-ingestion-jobs/ij_1")
      .length,
    11, // the two 401s are one poll: refused, renewed, refused again
  );
});

Deno.test("job: a permanent error (404 of the job, 403) ends the wait at once", async () => {
  for (const code of [404, 403]) {
    const { ml, calls } = scripted({
      "POST /data-processing-ingestion-jobs": [created()],
      "GET /data-processing-ingestion-jobs/ij_1": [
        failure(code),
        status("COMPLETED"),
      ],
    });
    const error = await start(ml).wait().catch((e) => e);
    assertEquals(error.status, code);
    assertEquals(
      calls.filter((c) => c.startsWith("GET /data-processing")).length,
      1,
    );
  }
});

Deno.test("job: the error budget bounds failed polls in a row; a good poll refills it", async () => {
  const { ml, calls } = scripted({
    "POST /data-processing-ingestion-jobs": [created()],
    "GET /data-processing-ingestion-jobs/ij_1": [
      failure(500),
      failure(500),
      status("RUNNING"),
      failure(500),
      failure(500),
      failure(500),
      status("COMPLETED"),
    ],
  });
  const ingestion = ml.ingestionJob({
    configuration: "ic",
    storage: "sc",
    compute: "cc",
    path: "churn.csv",
    datasourceName: "churn",
    poll: { initialDelay: 1, maxDelay: 2, errorBudget: 2 },
  }).create();
  const error = await ingestion.wait().catch((e) => e);
  assertEquals(error.status, 500);
  // Two failures, a good poll, then the third failure in a row ends it.
  assertEquals(
    calls.filter((c) => c.startsWith("GET /data-processing")).length,
    6,
  );
});
