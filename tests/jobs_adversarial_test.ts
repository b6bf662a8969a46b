/**
 * An outside tester's hostile suite against awaitable jobs under faults,
 * in-process (the local platform's own fetch, wrapped to lose or refuse
 * chosen answers): a cancel whose answer is lost, creates and polls meeting
 * 429, 500, 202 and dropped connections, a second client attaching by id.
 * No create may happen twice, and an awaited workflow must come through.
 * What tests/http_retry_test.ts, tests/jobs_lifecycle_test.ts,
 * tests/jobs_attach_cancel_test.ts, tests/local_chaos_test.ts and
 * tests/sdk_adversarial_test.ts hold is not repeated here.
 */
import { assert, assertEquals, assertMatch } from "@std/assert";
import {
  createLocalPlatform,
  type LocalPlatform,
} from "../src/local/local_platform.ts";
import { MLPlatform } from "../src/platform.ts";
import { JobCancelledError } from "../src/jobs/errors.ts";
import { ConflictError, ValidationError } from "../src/http/errors.ts";

const POLL = { initialDelay: 5, maxDelay: 20 };

/** What a fault rule sees of a request, and what it may do. */
type Rule = (
  req: Request,
  forward: () => Promise<Response>,
) => Promise<Response> | undefined;

/**
 * An in-process platform on a temporary bucket, and an MLPlatform whose
 * fetch passes every request through `rules` (the first that answers wins;
 * none: the platform answers). Every request is counted by method and path.
 */
async function faulty(files: Record<string, string>) {
  const dir = await Deno.makeTempDir({ prefix: "jobs_adv_" });
  for (const [name, text] of Object.entries(files)) {
    await Deno.writeTextFile(`${dir}/${name}`, text);
  }
  const platform: LocalPlatform = await createLocalPlatform({
    buckets: { b: dir },
    logger: () => {},
  });
  const rules: Rule[] = [];
  const seen: string[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    const path = new URL(req.url).pathname;
    seen.push(`${req.method} ${path}`);
    const forward = () => platform.fetch(req.clone());
    for (const rule of rules) {
      const answer = rule(req, forward);
      if (answer) return await answer;
    }
    return await forward();
  };
  const client = (extra: Record<string, unknown> = {}) =>
    new MLPlatform({
      baseUrl: platform.baseUrl,
      ...platform.credentials,
      fetch,
      progress: false,
      // Quick backoff: the subject is what is retried, not how long.
      retryBaseDelay: 1,
      retryMaxDelay: 5,
      ...extra,
    } as never);
  return {
    platform,
    rules,
    seen,
    client,
    async close() {
      await platform.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** A CSV of `n` rows: `header`, then `row(i)` for each. */
function csv(header: string, n: number, row: (i: number) => string): string {
  return [header, ...Array.from({ length: n }, (_, i) => row(i))].join("\n") +
    "\n";
}

const TABLE = csv(
  "x,z,y",
  60,
  (i) => `${i},${i % 7},${"ab"[+(i < 30)]}`,
);

/** A READY dataset of TABLE made by `ml`. */
async function dataset(ml: MLPlatform) {
  const storage = await ml.storageConnector("b");
  const schema = await ml.schema("t").feature("x", ml.float())
    .feature("z", ml.float()).target("y", ml.category()).create();
  return await ml.onboard(
    await ml.ingest("t.csv", { storage, schema, poll: POLL }),
    { poll: POLL },
  );
}

Deno.test("jobs adversarial: a cancel whose answer is lost after it landed resolves to the CANCELLED job, not a ConflictError", async () => {
  const f = await faulty({ "t.csv": TABLE });
  try {
    const ml = f.client();
    const data = await dataset(ml);
    // No validation split, so no early stop: it runs until cancelled.
    const job = ml.train(data, {
      maxRounds: 1_000_000,
      validationSize: 0,
      estimators: 1,
      logInterval: 1,
      poll: POLL,
    });
    for await (const s of job.watch()) if (s.stage === "training") break;
    // The first cancel is done by the platform, its answer lost (a 500, as
    // a proxy gives when the upstream connection drops): the client
    // re-sends it (outcome unknown) and the platform answers 409, "already
    // ended", to the cancel that made it end.
    let lost = 0;
    f.rules.push((req, forward) => {
      if (!new URL(req.url).pathname.endsWith("/cancel") || lost++) return;
      return forward().then(() =>
        new Response(JSON.stringify({ message: "upstream reset" }), {
          status: 500,
          headers: { "Content-Type": "application/json" },
        })
      );
    });
    const cancelled = await job.cancel();
    assertEquals(cancelled.status, "CANCELLED");
    assertEquals(
      f.seen.filter((s) => s.endsWith("/cancel")).length,
      2,
      "one cancel re-sent",
    );
    const error = await job.then(() => undefined, (e) => e);
    assert(error instanceof JobCancelledError, String(error));
    // A second cancel is the caller's 409: its hint said "choose another
    // name", as for a taken name.
    const again = await job.cancel().then(() => undefined, (e) => e);
    assert(again instanceof ConflictError, String(again));
    assert(!/another name/.test(again.message), again.message);
    assertMatch(again.message, /not in a state that allows this/);
  } finally {
    await f.close();
  }
});

Deno.test("jobs adversarial: a label, protection or anchor create whose answer is lost after it landed returns it, not a ConflictError; a different one still conflicts", async () => {
  const f = await faulty({ "t.csv": TABLE });
  try {
    const ml = f.client();
    const schema = await ml.schema("t").feature("x", ml.float())
      .feature("z", ml.float()).target("y", ml.category()).create();
    // Labels have no name to find them by: the re-sent create was refused
    // "has one already" (409) by the label its lost first attempt made.
    const lose = (suffix: string) => {
      let lost = 0;
      f.rules.push((req, forward) => {
        const path = new URL(req.url).pathname;
        if (req.method !== "POST" || !path.endsWith(suffix) || lost++) return;
        return forward().then(() =>
          new Response(JSON.stringify({ message: "upstream reset" }), {
            status: 502,
            headers: { "Content-Type": "application/json" },
          })
        );
      });
    };
    lose("/friendly-names");
    const label = await ml.friendlyNames.create(schema.id, {
      field_name: "x",
      friendly_name: "Ex",
    });
    assertEquals([label.field.name, label.friendly_name], ["x", "Ex"]);
    const all = await ml.friendlyNames.list(schema.id);
    assertEquals(all.data.length, 1);
    lose("/data-protections");
    const protection = await ml.dataProtections.create(schema.id, {
      fields: ["z"],
    });
    assertEquals(
      protection.protected_fields.map((p: { name: string }) => p.name),
      ["z"],
    );
    // An anchor has a name, but shows its terms' field_name as field.name:
    // found by name, it "differed from what was sent".
    lose("/data-anchors");
    const anchor = await ml.dataAnchors.create(schema.id, {
      name: "typical",
      terms: [{ field_name: "x", value: 3 }],
    });
    assertEquals(anchor.terms.map((t) => [t.field.name, t.value]), [["x", 3]]);
    // Not what was sent: the conflict is the caller's.
    const other = await ml.friendlyNames.create(schema.id, {
      field_name: "x",
      friendly_name: "Something else",
    }).then(() => undefined, (e) => e);
    assertEquals(other?.status, 409);
  } finally {
    await f.close();
  }
});

Deno.test("jobs adversarial: a one-call step given a configuration refuses the options that configuration makes unused, instead of dropping them", async () => {
  const f = await faulty({ "t.csv": TABLE });
  try {
    const ml = f.client();
    const storage = await ml.storageConnector("b");
    const schema = await ml.schema("t").feature("x", ml.float())
      .feature("z", ml.float()).target("y", ml.category()).create();
    const source = await ml.ingest("t.csv", { storage, schema, poll: POLL });
    const onboarding = await ml.onboardingConfiguration("enc", {
      targets: ["y"],
    });
    const dataset = await ml.onboard(source, {
      configuration: onboarding,
      poll: POLL,
    });
    const training = await ml.trainingConfiguration("quick", {
      estimators: 1,
      maxRounds: 10,
    });
    const model = await ml.train(dataset, {
      configuration: training,
      poll: POLL,
    });
    const deployment = await ml.deploymentConfiguration("small", {});
    const before = f.seen.filter((s) => s.startsWith("POST")).length;
    // Each was dropped without a word: a model trained with the
    // configuration's 10 rounds, not the 2 asked for.
    const cases: [() => PromiseLike<unknown>, string][] = [
      [
        () => ml.train(dataset, { configuration: training, maxRounds: 2 }),
        "maxRounds",
      ],
      [
        () => ml.onboard(source, { configuration: onboarding, impute: true }),
        "impute",
      ],
      [
        () => ml.deploy(model, { configuration: deployment, memorySize: 4096 }),
        "memorySize",
      ],
    ];
    for (const [call, option] of cases) {
      const error = await call().then(() => undefined, (e) => e);
      assert(error instanceof ValidationError, `${option}: ${error}`);
      assertEquals(error.issues.map((i) => i.path), [option]);
    }
    assertEquals(
      f.seen.filter((s) => s.startsWith("POST")).length,
      before,
      "a refused call sent a create",
    );
  } finally {
    await f.close();
  }
});

Deno.test("jobs adversarial: every create's first answer lost (after it landed): a workflow with labels, protections, anchors and constraints comes through, each resource made once", async () => {
  const f = await faulty({
    "t.csv": csv(
      "x,z,s,y",
      60,
      (i) => `${i},${i % 7},${"uv"[i % 2]},${"ab"[+(i < 30)]}`,
    ),
  });
  try {
    // Every POST but the token and views: its first attempt is done by the
    // platform and its answer replaced by a 502 (outcome unknown); the
    // client re-sends it and must find what the first attempt made.
    const lostOnce = new Set<string>();
    f.rules.push((req, forward) => {
      const path = new URL(req.url).pathname;
      if (
        req.method !== "POST" || path === "/oauth/token" ||
        path.endsWith("/views") || path.includes("/operations/") ||
        lostOnce.has(path)
      ) return;
      lostOnce.add(path);
      return forward().then(() =>
        new Response(JSON.stringify({ message: "bad gateway" }), {
          status: 502,
          headers: { "Content-Type": "application/json" },
        })
      );
    });
    const ml = f.client();
    const storage = await ml.storageConnector("b");
    const schema = await ml.schema("t")
      .feature("x", ml.float(), { friendlyName: "Ex", unit: "m" })
      .feature("z", ml.float()).feature("s", ml.category())
      .target("y", ml.category(), { categories: { a: "Alpha" } })
      .protect("s").anchor("typical", { x: 10 }, { default: true }).create();
    const source = await ml.ingest("t.csv", { storage, schema, poll: POLL });
    const dataset = await ml.onboard(source, { poll: POLL });
    const model = await ml.train(dataset, {
      estimators: 1,
      maxRounds: 10,
      monotone: { x: "increasing" },
      interactions: [["x", "z"]],
      poll: POLL,
    });
    const deployment = await ml.deploy(model, { poll: POLL });
    const result = await deployment.views({ x: [1, 50], z: [1, 2] });
    assertEquals(result.length, 2);
    const batch = await deployment.batch({
      bucket: "b",
      path: "t.csv",
      output: "out/scored.csv",
      keep: ["x"],
      poll: POLL,
    });
    assertEquals(batch.rowsOut, 60);
    assert(lostOnce.size >= 12, [...lostOnce].join());
    // Each create made one resource.
    for (
      const c of [
        "storageConnectors",
        "dataSchemas",
        "ingestionConfigurations",
        "ingestionJobs",
        "onboardingConfigurations",
        "onboardingJobs",
        "trainingConfigurations",
        "trainingJobs",
        "workspaces",
        "deploymentConfigurations",
        "deployedModels",
        "viewsBatchConfigurations",
        "viewsBatchJobs",
        "viewsBatches",
      ] as const
    ) {
      assertEquals((await ml[c].list()).data.length, 1, c);
    }
  } finally {
    await f.close();
  }
});
