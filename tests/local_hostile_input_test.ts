/**
 * The local platform under hostile input (issue 9, defects 1-4 and the
 * "also seen" list): deep nesting and oversized bodies are refused before
 * anything is stored, a refused create leaves no trace (memory or SQLite),
 * bucket files are read through a checked handle, references are checked
 * and inserted in one step, and JSON bodies need a JSON Content-Type.
 */
import { assert, assertEquals, assertMatch } from "@std/assert";
import { createLocalPlatform } from "../src/local/local_platform.ts";
import { openSqliteStore } from "../src/local/store/sqlite_store.ts";
import { readDataFile, resolveDataPath } from "../src/local/store/buckets.ts";
import {
  clientFor,
  raw,
  setup,
  tokenFor,
  until,
} from "./_helpers/local_setup.ts";
import { uncheckedRecord } from "./_helpers/records.ts";
import { projectModule, runUnprivileged } from "./_helpers/unprivileged.ts";

/** `levels` arrays nested in one another. */
function nested(levels: number): unknown {
  let value: unknown = [];
  for (let i = 0; i < levels; i++) value = [value];
  return value;
}

const onboarding = (name: string, feature_groups: unknown) => ({
  name,
  targets: ["species"],
  prediction_type: "CLASSIFICATION",
  feature_groups,
});

Deno.test("local hostile input: a 10,000-level nested body is a 400 and leaves no trace (memory and SQLite)", async () => {
  const dataDir = await Deno.makeTempDir();
  try {
    const { platform } = await setup({ dataDir });
    const token = await tokenFor(platform);
    const path = "/data-processing-onboarding-configurations";
    const deep = await raw(platform, "POST", path, {
      token,
      body: onboarding("oc", nested(10_000)),
    });
    assertEquals(deep.status, 400);
    assertEquals(deep.body.error_code, "VALIDATION_ERROR");
    assertMatch(String(deep.body.message), /deeper than 64 levels/);
    const list = await raw(platform, "GET", path, { token });
    assertEquals(list.status, 200);
    assertEquals((list.body.data as unknown[]).length, 0);
    // The name is free: no hidden half-stored record holds it.
    const again = await raw(platform, "POST", path, {
      token,
      body: onboarding("oc", [["a", "b"]]),
    });
    assertEquals(again.status, 201);
    await platform.close();
    const store = await openSqliteStore(dataDir);
    try {
      const names = store.all("onboardingConfigurations").map((r) =>
        r.body.name
      );
      assertEquals(names, ["oc"]);
    } finally {
      store.close();
    }
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("local hostile input: the depth limit is configurable and counts only real nesting", async () => {
  const { platform } = await setup({ limits: { maxJsonDepth: 8 } });
  try {
    const token = await tokenFor(platform);
    const path = "/data-processing-onboarding-configurations";
    // The body object, then feature_groups and 6 more arrays: 8 levels.
    const ok = await raw(platform, "POST", path, {
      token,
      body: onboarding("ok", nested(6)),
    });
    assertEquals(ok.status, 201);
    const deep = await raw(platform, "POST", path, {
      token,
      body: onboarding("deep", nested(7)),
    });
    assertEquals(deep.status, 400);
    assertMatch(String(deep.body.message), /deeper than 8 levels/);
    // Brackets inside strings are text, not nesting.
    const strings = await raw(platform, "POST", path, {
      token,
      body: onboarding("strings", ['[[[[[[[[[[[[{{{{{{{{\\"[[']),
    });
    assertEquals(strings.status, 201);
  } finally {
    await platform.close();
  }
});

Deno.test("local hostile input: a body over the size limit is a 413 with a JSON body, declared or streamed, and stores nothing", async () => {
  const dataDir = await Deno.makeTempDir();
  try {
    const { platform } = await setup({
      dataDir,
      limits: { maxBodyBytes: 4096 },
    });
    const token = await tokenFor(platform);
    const path = "/data-processing-onboarding-configurations";
    const big = JSON.stringify(
      onboarding("big", Array.from({ length: 2000 }, (_, i) => `f${i}`)),
    );
    const declared = await raw(platform, "POST", path, {
      token,
      text: big,
      headers: { "Content-Type": "application/json" },
    });
    assertEquals(declared.status, 413);
    assertEquals(declared.body.error_code, "PAYLOAD_TOO_LARGE");
    assertMatch(String(declared.body.message), /4096 bytes/);
    // No Content-Length: the limit holds while the stream is read.
    const bytes = new TextEncoder().encode(big);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 512) {
          controller.enqueue(bytes.slice(i, i + 512));
        }
        controller.close();
      },
    });
    const streamed = await platform.fetch(
      new Request(`${platform.baseUrl}${path}`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${token}`,
          "Content-Type": "application/json",
        },
        body: stream,
      }),
    );
    assertEquals(streamed.status, 413);
    assertEquals((await streamed.json()).error_code, "PAYLOAD_TOO_LARGE");
    const list = await raw(platform, "GET", path, { token });
    assertEquals((list.body.data as unknown[]).length, 0);
    await platform.close();
    const store = await openSqliteStore(dataDir);
    try {
      assertEquals(store.all("onboardingConfigurations").length, 0);
    } finally {
      store.close();
    }
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

// A client that sends half a body and disconnects (or dies) made the body's
// read throw: answered 500 and logged as an unexpected error with its stack,
// once per client, over Deno.serve and node:http alike.
Deno.test("local hostile input: a body cut off mid-way is a 400, not an unexpected error logged", async () => {
  const logged: string[] = [];
  const { platform } = await setup({ logger: (m) => logged.push(m) });
  try {
    const token = await tokenFor(platform);
    const cut = (declared: boolean, path = "/workspaces") => {
      const half = new TextEncoder().encode('{"name":"ha');
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(half);
          controller.error(new Error("connection reset by peer"));
        },
      });
      return platform.fetch(
        new Request(`${platform.baseUrl}${path}`, {
          method: "POST",
          headers: {
            Authorization: `Bearer ${token}`,
            "Content-Type": "application/json",
            ...(declared ? { "Content-Length": "100" } : {}),
          },
          body,
          duplex: "half",
        } as RequestInit),
      );
    };
    for (
      const res of [
        await cut(true),
        await cut(false),
        await cut(true, "/deployed-models/dm_1/views"),
      ]
    ) {
      assertEquals(res.status, 400);
      const body = await res.json();
      assertEquals(body.error_code, "VALIDATION_ERROR");
      assertMatch(body.message, /ended before it was whole/);
    }
    assertEquals(logged, []);
    const list = await raw(platform, "GET", "/workspaces", { token });
    assertEquals((list.body.data as unknown[]).length, 0);
  } finally {
    await platform.close();
  }
});

Deno.test("local hostile input: the default size limit (10 MiB) refuses a 60 MB feature_groups array", async () => {
  const { platform } = await setup();
  try {
    const token = await tokenFor(platform);
    const text = JSON.stringify(
      onboarding("huge", Array.from({ length: 6_000_000 }, () => "abcdefgh")),
    );
    assert(text.length > 60_000_000);
    const res = await raw(
      platform,
      "POST",
      "/data-processing-onboarding-configurations",
      { token, text, headers: { "Content-Type": "application/json" } },
    );
    assertEquals(res.status, 413);
    assertEquals(res.body.error_code, "PAYLOAD_TOO_LARGE");
  } finally {
    await platform.close();
  }
});

Deno.test("local hostile input: the limits come from the --config file too", async () => {
  const file = await Deno.makeTempFile({ suffix: ".json" });
  await Deno.writeTextFile(
    file,
    JSON.stringify({ limits: { maxBodyBytes: 300 } }),
  );
  const platform = await createLocalPlatform({
    configFile: file,
    logger: () => {},
  });
  try {
    const token = await tokenFor(platform);
    const res = await raw(platform, "POST", "/workspaces", {
      token,
      body: { name: "w".repeat(400) },
    });
    assertEquals(res.status, 413);
  } finally {
    await platform.close();
    await Deno.remove(file);
  }
});

// A --config file of the wrong shape failed as a TypeError naming no field
// ("c.clientId.replace is not a function"), or (an array) was taken as an
// empty setup; an unknown key ("port") was ignored. A file that is not JSON
// was quoted in the error, its secrets with it.
Deno.test("local hostile input: a --config file of the wrong shape is refused naming each field, and its text is never quoted", async () => {
  const file = await Deno.makeTempFile({ suffix: ".json" });
  const refusal = async (text: string) => {
    await Deno.writeTextFile(file, text);
    return await createLocalPlatform({ configFile: file, logger: () => {} })
      .then(async (p) => {
        await p.close();
        return "started";
      }, (e: Error) => e.message);
  };
  try {
    for (
      const [text, said] of [
        ["null", /the file: .*expected object, received null/],
        ["[1, 2]", /the file: .*expected object, received array/],
        ['{"accounts": "x"}', /accounts: .*expected array/],
        [
          '{"accounts": [{"name": "a", "credentials": [{"clientId": 5, "clientSecret": "s"}]}]}',
          /accounts\.0\.credentials\.0\.clientId: .*expected string/,
        ],
        ['{"buckets": {"d": 5}}', /buckets\.d: .*expected string/],
        ['{"port": 9000}', /Unrecognized key: "port"/],
      ] as const
    ) {
      assertMatch(await refusal(text), said, text);
    }
    const secret = "hunter2-very-secret-value";
    for (
      const text of [
        `{"accounts": [{"name": "a", "credentials": [{"clientId": "x", "clientSecret": ${secret}}]}]}`,
        `{"clientSecret": ${secret}}`,
        `{"s":${secret}}`,
      ]
    ) {
      const message = await refusal(text);
      assertMatch(message, /is not valid JSON: Unexpected token/);
      assert(!message.includes("hunter"), message);
    }
    assertMatch(
      await refusal(`{"a": 1,\n "clientSecret": ${secret}}`),
      /Unexpected token at line 2 column 18 /,
    );
    // A byte-order mark before the JSON (Notepad, PowerShell) is read past:
    // it was "not valid JSON: Unexpected token".
    assertEquals(
      await refusal(
        '\uFEFF{"accounts": [{"name": "a", "credentials": [{"clientId": "x", "clientSecret": "s"}]}]}',
      ),
      "started",
    );
    assertMatch(
      await refusal('\uFEFF{"port": 9000}'),
      /Unrecognized key: "port"/,
    );
  } finally {
    await Deno.remove(file);
  }
});

Deno.test("local hostile input: a bad limit is refused at startup, naming it", async () => {
  let message = "";
  try {
    await createLocalPlatform({ limits: { maxJsonDepth: 0 } });
  } catch (error) {
    message = (error as Error).message;
  }
  assertMatch(message, /limits\.maxJsonDepth must be a positive integer/);
});

Deno.test("local hostile input: local() that cannot start is a ConfigurationError in the platform's words, its error the cause", async () => {
  const { local } = await import("../local.ts");
  const { ConfigurationError } = await import("../mod.ts");
  for (
    const [options, said] of [
      [{ limits: { maxJsonDepth: 0 } }, /limits\.maxJsonDepth must be/],
      [{ configFile: "/no/such/config.json" }, /Cannot read the config file/],
    ] as const
  ) {
    const error = await local(options).then(() => null, (e: unknown) => e);
    assert(error instanceof ConfigurationError, String(error));
    assertMatch(error.message, said);
    assert(error.cause instanceof Error);
  }
});

Deno.test("local hostile input: a body without a JSON Content-Type is a 415; JSON with charset is fine", async () => {
  const { platform } = await setup();
  try {
    const token = await tokenFor(platform);
    const text = JSON.stringify({ name: "w" });
    for (const type of ["text/plain", "application/x-www-form-urlencoded"]) {
      const res = await raw(platform, "POST", "/workspaces", {
        token,
        text,
        headers: { "Content-Type": type },
      });
      assertEquals(res.status, 415, type);
      assertEquals(res.body.error_code, "UNSUPPORTED_MEDIA_TYPE");
      assertMatch(String(res.body.message), /application\/json/);
    }
    const none = await platform.fetch(
      new Request(`${platform.baseUrl}/workspaces`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}` },
        body: new TextEncoder().encode(text),
      }),
    );
    assertEquals(none.status, 415);
    await none.body?.cancel();
    const ok = await raw(platform, "POST", "/workspaces", {
      token,
      text,
      headers: { "Content-Type": "application/json; charset=UTF-8" },
    });
    assertEquals(ok.status, 201);
    const list = await raw(platform, "GET", "/workspaces", { token });
    assertEquals((list.body.data as unknown[]).length, 1);
  } finally {
    await platform.close();
  }
});

Deno.test("local hostile input: a body with a Content-Encoding is a 415 saying to send it uncompressed, and creates nothing", async () => {
  const { platform } = await setup();
  try {
    const token = await tokenFor(platform);
    const text = JSON.stringify({ name: "w" });
    const gzipped = new Uint8Array(
      await new Response(
        new Blob([text]).stream().pipeThrough(new CompressionStream("gzip")),
      ).arrayBuffer(),
    );
    // A gzipped body read as text was "not valid UTF-8" (a 400 about the
    // bytes); a plain body labelled br was read as if the label were not
    // there.
    for (
      const [coding, body] of [["gzip", gzipped], ["br", text], [
        "GZIP, identity",
        gzipped,
      ]] as const
    ) {
      const res = await raw(platform, "POST", "/workspaces", {
        token,
        text: typeof body === "string" ? body : undefined,
        bytes: typeof body === "string" ? undefined : body,
        headers: {
          "Content-Type": "application/json",
          "Content-Encoding": coding,
        },
      });
      assertEquals(res.status, 415, coding);
      assertEquals(res.body.error_code, "UNSUPPORTED_MEDIA_TYPE");
      assertMatch(String(res.body.message), /Content-Encoding/);
      assertMatch(String(res.body.message), /uncompressed/);
    }
    const form = await raw(platform, "POST", "/oauth/token", {
      text: "grant_type=client_credentials",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        "Content-Encoding": "deflate",
      },
    });
    assertEquals(form.status, 415);
    // identity is no coding at all.
    const ok = await raw(platform, "POST", "/workspaces", {
      token,
      text,
      headers: {
        "Content-Type": "application/json",
        "Content-Encoding": "identity",
      },
    });
    assertEquals(ok.status, 201);
    const list = await raw(platform, "GET", "/workspaces", { token });
    assertEquals((list.body.data as unknown[]).length, 1);
  } finally {
    await platform.close();
  }
});

Deno.test("local hostile input: the token call answers 415 for a body neither form-encoded nor JSON, and takes both with any case or charset", async () => {
  const { platform } = await setup();
  try {
    const { clientId, clientSecret } = platform.credentials;
    const fields = {
      grant_type: "client_credentials",
      client_id: clientId,
      client_secret: clientSecret,
    };
    const form = new URLSearchParams(fields).toString();
    const call = async (type: string | undefined, body: string) => {
      const res = await platform.fetch(
        new Request(`${platform.baseUrl}/oauth/token`, {
          method: "POST",
          headers: type === undefined ? {} : { "Content-Type": type },
          // Bytes, so that no Content-Type is added for the body.
          body: new TextEncoder().encode(body),
        }),
      );
      return {
        status: res.status,
        type: res.headers.get("content-type"),
        body: await res.json() as Record<string, unknown>,
      };
    };
    // A form (or JSON) body under another media type, or none, is a 415
    // with the JSON error body every other operation answers, naming what
    // to send; no token is issued.
    for (
      const type of [
        "text/plain",
        "text/plain;charset=UTF-8",
        "application/xml",
        "multipart/form-data; boundary=x",
        "application/x-www-form-urlencoded; charset=iso-8859-1",
        undefined,
      ]
    ) {
      const res = await call(type, form);
      assertEquals(res.status, 415, String(type));
      assertMatch(String(res.type), /^application\/json/);
      assertEquals(res.body.error_code, "UNSUPPORTED_MEDIA_TYPE", String(type));
      assertMatch(
        String(res.body.message),
        /application\/x-www-form-urlencoded/,
      );
      assertEquals("access_token" in res.body, false);
    }
    const json = await call("text/plain", JSON.stringify(fields));
    assertEquals(json.status, 415);
    // What the specification (form-encoded) and the SDK send, and JSON:
    // media type names are case-insensitive, a UTF-8 charset is fine.
    for (
      const [type, body] of [
        ["application/x-www-form-urlencoded", form],
        ["application/x-www-form-urlencoded;charset=UTF-8", form],
        ['Application/X-WWW-Form-URLEncoded; Charset="utf-8"', form],
        ["application/json", JSON.stringify(fields)],
        ["Application/JSON; charset=utf-8", JSON.stringify(fields)],
      ]
    ) {
      const res = await call(type, body);
      assertEquals(res.status, 200, `${type}: ${JSON.stringify(res.body)}`);
      assert(typeof res.body.access_token === "string", type);
    }
    // A form body the schema refuses is still a 400 naming the field.
    const bad = await call(
      "application/x-www-form-urlencoded",
      "grant_type=password",
    );
    assertEquals(bad.status, 400);
    assertEquals(bad.body.error_code, "VALIDATION_ERROR");
    // The SDK's own exchange still gets its token.
    const client = clientFor(platform, platform.credentials);
    assertEquals((await client.accounts.list()).data.length, 1);
  } finally {
    await platform.close();
  }
});

Deno.test("local hostile input: a 100 kB Authorization header gets a JSON 401", async () => {
  const { platform } = await setup();
  try {
    const res = await raw(platform, "GET", "/workspaces", {
      headers: { Authorization: `Bearer ${"a".repeat(100_000)}` },
    });
    assertEquals(res.status, 401);
    assertEquals(res.body.error_code, "UNAUTHORIZED");
  } finally {
    await platform.close();
  }
});

Deno.test("local hostile input: a refused store write leaves no trace in memory or SQLite", async () => {
  const dataDir = await Deno.makeTempDir();
  try {
    const store = await openSqliteStore(dataDir);
    const ok = uncheckedRecord({
      kind: "workspaces",
      id: "ws_1",
      account: "a",
      body: { name: "fine" },
    });
    // The second record cannot be serialised: neither is stored.
    const bad = uncheckedRecord({
      ...ok,
      id: "ws_2",
      body: { name: "bad", n: 1n },
    });
    let refused = false;
    try {
      store.putMany([ok, bad]);
    } catch {
      refused = true;
    }
    assert(refused);
    assertEquals(store.all("workspaces").length, 0);
    let blobRefused = false;
    try {
      store.putBlob("k", { n: 1n });
    } catch {
      blobRefused = true;
    }
    assert(blobRefused);
    assertEquals(store.getBlob("k"), undefined);
    store.close();
    const again = await openSqliteStore(dataDir);
    try {
      assertEquals(again.all("workspaces").length, 0);
      assertEquals(again.getBlob("k"), undefined);
    } finally {
      again.close();
    }
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("local hostile input: a path swapped for a link after the check is not read", async () => {
  const bucket = await Deno.makeTempDir();
  const outside = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${bucket}/a.csv`, "x\n1\n");
    await Deno.writeTextFile(`${outside}/secret.csv`, "x\nSECRET\n");
    const buckets = { b: bucket };
    // The check passes on the real file...
    const real = await resolveDataPath(buckets, "b", "a.csv");
    // ...then the file becomes a link out of the bucket before the read.
    await Deno.remove(real);
    await Deno.symlink(`${outside}/secret.csv`, real);
    const status = await readDataFile(buckets, "b", "a.csv").then(
      (text) => text,
      (e) => e.status,
    );
    assertEquals(status, 400);
    // The same through a folder of the path.
    await Deno.mkdir(`${bucket}/sub`);
    await Deno.writeTextFile(`${bucket}/sub/secret.csv`, "x\n1\n");
    await resolveDataPath(buckets, "b", "sub/secret.csv");
    await Deno.remove(`${bucket}/sub`, { recursive: true });
    await Deno.symlink(outside, `${bucket}/sub`);
    const viaFolder = await readDataFile(buckets, "b", "sub/secret.csv").then(
      (text) => text,
      (e) => e.status,
    );
    assertEquals(viaFolder, 400);
  } finally {
    await Deno.remove(bucket, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("local hostile input: ingestion never reads outside the bucket while the file flips to a link", async () => {
  const bucket = await Deno.makeTempDir();
  const outside = await Deno.makeTempDir();
  const { platform, client } = await setup({ buckets: { b: bucket } });
  let flipping = true;
  try {
    await Deno.writeTextFile(`${bucket}/data.csv`, "x,y\n1,a\n2,b\n");
    await Deno.writeTextFile(`${bucket}/real.csv`, "x,y\n1,a\n2,b\n");
    await Deno.writeTextFile(`${outside}/secret.csv`, "x,y\n1,OUTSIDE\n");
    const storage = await client.storageConnectors.create({
      name: "b",
      bucket_name: "b",
    });
    const cpu = await client.computeConfigurations.create({
      name: "cpu",
      machine_type: "ml.m5.large",
      compute_type: "PROCESSING",
    });
    const schema = await client.dataSchemas.create({
      name: "s",
      fields: [
        {
          name: "x",
          data_type: { data_type: "NUMBER", format: "FLOAT64" },
          designation: "FEATURE",
          semantic_type: "CONTINUOUS",
        },
        {
          name: "y",
          data_type: { data_type: "STRING", format: null },
          designation: "TARGET",
          semantic_type: "CATEGORICAL",
        },
      ],
    });
    const config = await client.ingestionConfigurations.create({
      name: "ic",
      data_schema_id: schema.id,
    });
    // Flip data.csv between the real file and a link out of the bucket.
    const flipper = (async () => {
      for (let i = 0; flipping && i < 100_000; i++) {
        await Deno.remove(`${bucket}/data.csv`).catch(() => {});
        if (i % 2) {
          await Deno.symlink(`${outside}/secret.csv`, `${bucket}/data.csv`)
            .catch(() => {});
        } else {
          await Deno.copyFile(`${bucket}/real.csv`, `${bucket}/data.csv`)
            .catch(() => {});
        }
      }
    })();
    // At least 20 creates must pass the check (the file was real then) for
    // the race to be tried; how many tries that takes depends on how the
    // flipper and the creates share the machine, so count passes, not tries.
    // A refused create costs a millisecond; the cap only stops a broken run.
    const jobs = [];
    for (let i = 0; jobs.length < 20 && i < 5_000; i++) {
      // Let the flipper run between creates, whatever the load.
      if (i % 4 === 3) await new Promise((r) => setTimeout(r, 0));
      try {
        jobs.push(
          await client.ingestionJobs.create({
            name: `job${i}`,
            compute_configuration_id: cpu.id,
            data_processing_configuration_id: config.id,
            storage_connector_id: storage.id,
            data_path: "data.csv",
            datasource_name: `ds${i}`,
          }),
        );
      } catch (e) {
        // Refused at the check (the link was in place, or no file for a
        // moment): a 4xx. Anything else is a real failure, not a refusal.
        const status = (e as { status?: number }).status;
        if (status === undefined || status < 400 || status >= 500) throw e;
      }
    }
    const ended = await Promise.all(jobs.map((j) =>
      until(
        () => client.ingestionJobs.get(j.id),
        (s) => s.status === "COMPLETED" || s.status === "FAILED",
      )
    ));
    flipping = false;
    await flipper;
    assert(jobs.length > 0, "no job passed the check: the test proves nothing");
    for (const job of ended) {
      assert(
        job.status === "COMPLETED" || job.status === "FAILED",
        `job ${job.id} did not end: ${job.status}`,
      );
      assert(
        !String(job.message ?? "").includes("OUTSIDE"),
        String(job.message),
      );
    }
    const token = await tokenFor(platform);
    for (const job of ended.filter((j) => j.status === "COMPLETED")) {
      const ds = await raw(
        platform,
        "GET",
        `/datasources/${job.datasource.id}`,
        { token },
      );
      assertEquals(ds.body.row_count, 2, `job ${job.id} read another file`);
    }
  } finally {
    flipping = false;
    await platform.close();
    await Deno.remove(bucket, { recursive: true });
    await Deno.remove(outside, { recursive: true });
  }
});

Deno.test("local hostile input: a storage connector deleted while a job referencing it is created: exactly one wins", async () => {
  const { platform, client } = await setup();
  try {
    const token = await tokenFor(platform);
    const cpu = await client.computeConfigurations.create({
      name: "cpu",
      machine_type: "ml.m5.large",
      compute_type: "PROCESSING",
    });
    const schema = await client.dataSchemas.create({
      name: "s",
      fields: [{
        name: "species",
        data_type: { data_type: "STRING", format: null },
        designation: "TARGET",
        semantic_type: "CATEGORICAL",
      }],
    });
    const config = await client.ingestionConfigurations.create({
      name: "ic",
      data_schema_id: schema.id,
    });
    const outcomes = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const sc = await client.storageConnectors.create({
        name: `sc${i}`,
        bucket_name: "demo",
      });
      const create = raw(platform, "POST", "/data-processing-ingestion-jobs", {
        token,
        body: {
          name: `job${i}`,
          compute_configuration_id: cpu.id,
          data_processing_configuration_id: config.id,
          storage_connector_id: sc.id,
          data_path: "penguins.csv",
          datasource_name: `ds${i}`,
        },
      });
      // Let the create reach its file check on odd rounds before deleting.
      if (i % 2) await new Promise((r) => setTimeout(r, 0));
      const remove = raw(platform, "DELETE", `/storage-connectors/${sc.id}`, {
        token,
      });
      const [created, deleted] = await Promise.all([create, remove]);
      const left = await raw(platform, "GET", `/storage-connectors/${sc.id}`, {
        token,
      });
      const outcome = `${created.status}/${deleted.status}`;
      outcomes.add(outcome);
      if (created.status === 201) {
        // The create won: the delete is refused and the connector stays.
        assertEquals(deleted.status, 409, outcome);
        assertEquals(left.status, 200);
        const job = await until(
          () => client.ingestionJobs.get(String(created.body.id)),
          (j) => j.status === "COMPLETED" || j.status === "FAILED",
        );
        assertEquals(job.storage_connector.id, sc.id);
      } else {
        // The delete won: the create names the missing reference.
        assertEquals(created.status, 404, outcome);
        assertMatch(String(created.body.message), /storage_connector_id/);
        assertEquals(deleted.status, 204);
        assertEquals(left.status, 404);
        const jobs = await raw(
          platform,
          "GET",
          "/data-processing-ingestion-jobs?items_per_page=100",
          { token },
        );
        assert(
          !(jobs.body.data as { name: string }[]).some((j) =>
            j.name === `job${i}`
          ),
        );
      }
    }
    assert(outcomes.size >= 1);
  } finally {
    await platform.close();
  }
});

Deno.test("local hostile input: a bucket folder the process may not read (Deno without --allow-read) is named as such, not as a folder that does not exist", async () => {
  const dir = await Deno.makeTempDir({ prefix: "perm_bucket_" });
  try {
    await Deno.writeTextFile(`${dir}/t.csv`, "x,y\n1,a\n2,b\n");
    const { stdout, stderr } = await runUnprivileged(
      `import { local } from ${projectModule("local.ts")};
      const ml = await local({ buckets: { b: ${
        JSON.stringify(dir)
      } }, progress: false });
      try { await ml.quickstart({ bucket: "b", path: "t.csv", target: "y" }); }
      catch (e) { console.log(e.name + ": " + e.message); }
      finally { await ml.close(); }
      `,
    );
    assert(
      stdout.startsWith("ValidationError: ") &&
        stdout.includes("may not be read by this process") &&
        stdout.includes(`--allow-read=${dir}`) &&
        !stdout.includes("does not exist"),
      stdout + stderr,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
