/**
 * Attach and cancel, against the local platform served over real HTTP:
 * a second client (in another process) attaches to a job a first one
 * started and gets the same model; a running training is cancelled (the
 * job and its model end CANCELLED, the training Worker is gone); cancelling
 * a finished job is a 409; `wait({ signal })` only stops waiting unless
 * `cancelOnAbort` is set; a service without the cancel path gives a typed
 * error.
 */
import {
  assert,
  assertEquals,
  assertInstanceOf,
  assertRejects,
} from "@std/assert";
import { join } from "node:path";
import { createLocalPlatform } from "../src/local/local_platform.ts";
import { liveTrainingWorkers } from "../src/local/model/worker.ts";
import { MLPlatform } from "../src/platform.ts";
import { ConflictError, NotFoundError } from "../src/http/errors.ts";
import {
  CancellationNotSupportedError,
  JobCancelledError,
} from "../src/jobs/errors.ts";
import { Client } from "../src/client.ts";
import { attachJob } from "../src/builders/attach.ts";
import { DATASETS } from "./_helpers/local_setup.ts";

const POLL = { initialDelay: 10, maxDelay: 50 };

/** The local platform on 127.0.0.1 (a free port), and clients on it. */
async function served() {
  const local = await createLocalPlatform({
    buckets: { demo: DATASETS },
    logger: () => {},
  });
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    local.app.fetch,
  );
  const baseUrl = `http://127.0.0.1:${server.addr.port}`;
  const client = () =>
    new MLPlatform({ baseUrl, ...local.credentials, progress: false });
  return {
    baseUrl,
    credentials: local.credentials,
    client,
    async close() {
      await local.close();
      await server.shutdown();
    },
  };
}

/** A READY dataset of `file` (target `target`) made by `ml`. */
async function dataset(ml: MLPlatform, file: string, target: string) {
  const storage = await ml.storageConnector("demo");
  const draft = await ml.inferSchema(join(DATASETS, file), {
    target,
    name: `${file}-schema`,
  });
  const schema = await draft.create();
  const datasource = await ml.ingest(file, { storage, schema, poll: POLL });
  return await ml.onboard(datasource, { poll: POLL });
}

Deno.test("attach: a second client in another process attaches to a training started by the first and gets the same model", async () => {
  const platform = await served();
  try {
    const first = platform.client();
    const data = await dataset(first, "penguins.csv", "species");
    // One bag: attaching is the subject, not the model.
    const job = first.train(data, {
      maxRounds: 300,
      estimators: 1,
      poll: POLL,
    });
    const ref = await job.ref();
    assertEquals(ref.kind, "training job");

    // Another process: only the saved ref and the credentials cross over.
    const script = `
      import { connect } from "${new URL("../mod.ts", import.meta.url).href}";
      const ml = connect({ progress: false });
      const job = ml.attach(JSON.parse(Deno.env.get("REF")), { poll: { initialDelay: 10, maxDelay: 50 } });
      const seen = new Set();
      for await (const s of job.watch()) seen.add(s.status);
      const model = await job;
      console.log(JSON.stringify({ model: model.id, status: model.status, seen: [...seen] }));
    `;
    const child = await new Deno.Command(Deno.execPath(), {
      args: ["eval", "--quiet", script],
      cwd: new URL("../", import.meta.url).pathname,
      env: {
        MLP_BASE_URL: platform.baseUrl,
        MLP_CLIENT_ID: platform.credentials.clientId,
        MLP_CLIENT_SECRET: platform.credentials.clientSecret,
        REF: JSON.stringify(ref),
      },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(child.stderr);
    assert(child.success, stderr);
    const seen = JSON.parse(new TextDecoder().decode(child.stdout));

    const model = await job;
    assertEquals(seen.model, model.id);
    assertEquals(seen.status, "READY");
    assert(seen.seen.includes("COMPLETED"), JSON.stringify(seen.seen));

    // In this process too, by kind and id, with a fresh client.
    const again = await platform.client().attach("training", ref.id, {
      poll: POLL,
    });
    assertEquals(again.id, model.id);
  } finally {
    await platform.close();
  }
});

Deno.test("attach: an unknown id is a NotFoundError, an unknown kind says which kinds exist", async () => {
  const platform = await served();
  try {
    const ml = platform.client();
    await assertRejects(
      async () => await ml.attach("training", "tj_missing"),
      NotFoundError,
    );
    let error: unknown;
    try {
      ml.attach({ kind: "painting", id: "x" });
    } catch (e) {
      error = e;
    }
    assertInstanceOf(error, TypeError);
    assert(error.message.includes('"training job"'), error.message);
  } finally {
    await platform.close();
  }
});

Deno.test("cancel: a running training ends CANCELLED with a message, its model too, and its Worker is gone", async () => {
  const platform = await served();
  try {
    const ml = platform.client();
    const data = await dataset(ml, "penguins.csv", "species");
    // No validation split, so no early stop: it would run for minutes.
    const job = ml.train(data, {
      maxRounds: 1_000_000,
      validationSize: 0,
      logInterval: 1,
      poll: POLL,
    });
    for await (const s of job.watch()) {
      if (s.stage === "training") break;
    }
    assertEquals(liveTrainingWorkers(), 1);
    const started = performance.now();
    const cancelled = await job.cancel();
    const ms = performance.now() - started;
    console.log(`cancel answered after ${ms.toFixed(0)} ms`);
    // The answer comes once the job has ended, not merely once asked.
    assertEquals(cancelled.status, "CANCELLED");
    assert(
      String(cancelled.message).includes("Cancelled"),
      String(cancelled.message),
    );
    assertEquals(liveTrainingWorkers(), 0);
    const error = await job.then(() => undefined, (e) => e);
    assertInstanceOf(error, JobCancelledError);
    const { model: ref } = await ml.trainingJobs.get(cancelled.id);
    const model = await ml.models.get(ref.id);
    assertEquals(model.status, "CANCELLED");
    // A cancelled model cannot be deployed; the 409 says why.
    await assertRejects(
      async () => await ml.deploy(model.id, { poll: POLL }),
      ConflictError,
      "CANCELLED",
    );
  } finally {
    await platform.close();
  }
});

Deno.test("cancel: a completed job is a 409, and stays COMPLETED", async () => {
  const platform = await served();
  try {
    const ml = platform.client();
    const data = await dataset(ml, "penguins.csv", "species");
    // One bag, few rounds: the job's end is the subject, not the model.
    const job = ml.train(data, { maxRounds: 20, estimators: 1, poll: POLL });
    const model = await job;
    await assertRejects(() => job.cancel(), ConflictError, "already ended");
    const id = (await job.ref()).id;
    await assertRejects(
      () => ml.trainingJobs.cancel(id),
      ConflictError,
      "COMPLETED",
    );
    assertEquals((await ml.trainingJobs.get(id)).status, "COMPLETED");
    assertEquals((await ml.models.get(model.id)).status, "READY");
    // Deployed models are deleted, not cancelled.
    const deployment = ml.deploy(model, { poll: POLL });
    await assertRejects(
      () => deployment.cancel(),
      CancellationNotSupportedError,
      "delete",
    );
    await deployment;
  } finally {
    await platform.close();
  }
});

Deno.test("wait({ signal }) only stops waiting; with cancelOnAbort it also cancels the job", async () => {
  const platform = await served();
  try {
    const ml = platform.client();
    const data = await dataset(ml, "penguins.csv", "species");
    const long = {
      maxRounds: 1_000_000,
      validationSize: 0,
      logInterval: 1,
      poll: POLL,
    };

    const kept = ml.train(data, long);
    const stop = new AbortController();
    const waiting = kept.wait({ signal: stop.signal });
    for await (const s of kept.watch()) if (s.stage === "training") break;
    stop.abort(new Error("stop waiting"));
    await assertRejects(() => waiting, Error, "stop waiting");
    assertEquals((await kept.refresh()).status, "RUNNING");
    // Seen running: stop it now rather than let it train beside the next.
    await kept.cancel();

    const cancelled = ml.train(data, long);
    const abort = new AbortController();
    const cancelling = cancelled.wait({
      signal: abort.signal,
      cancelOnAbort: true,
    });
    for await (const s of cancelled.watch()) {
      if (s.stage === "training") break;
    }
    abort.abort(new Error("stop the job"));
    await assertRejects(() => cancelling, Error, "stop the job");
    assertEquals((await cancelled.refresh()).status, "CANCELLED");
  } finally {
    await platform.close();
  }
});

Deno.test("cancel against a service without the cancel path: CancellationNotSupportedError", async () => {
  const job = {
    id: "tj_1",
    name: "t",
    status: "RUNNING",
    progress: 0.5,
    stage_progress: 0.5,
    account: { id: "a" },
    created_at: "2025-01-01T00:00:00Z",
    created_by: { id: "u" },
    dataset: { id: "d" },
    workspace: { id: "w" },
    training_configuration: { id: "tc" },
    compute_configuration: { id: "cc" },
    model: { id: "m" },
  };
  for (const status of [404, 405]) {
    const client = new Client({
      baseUrl: "https://mlp.invalid",
      clientId: "id",
      clientSecret: "s",
      maxRetries: 0,
      fetch: (input) => {
        const url = new URL((input as Request).url);
        if (url.pathname === "/oauth/token") {
          return Promise.resolve(Response.json({
            access_token: "t",
            token_type: "Bearer",
            expires_in: 3600,
          }));
        }
        if (url.pathname.endsWith("/cancel")) {
          return Promise.resolve(Response.json(
            { message: "no such operation" },
            { status },
          ));
        }
        return Promise.resolve(Response.json(job));
      },
    });
    const attached = attachJob(client, "training", "tj_1", { progress: false });
    const error = await attached.cancel().then(() => undefined, (e) => e);
    assertInstanceOf(error, CancellationNotSupportedError);
    assertEquals(error.status, status);
    assert(error.message.includes("does not support cancelling"));
  }
});
