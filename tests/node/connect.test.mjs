/**
 * `connect()` in Node: it reads `MLP_BASE_URL`, `MLP_CLIENT_ID` and
 * `MLP_CLIENT_SECRET` from `process.env`, refuses a missing one with a
 * ConfigurationError that names it and says what to do, and never shows the
 * client secret or an access token through `util.inspect`, `console.log`'s
 * formatting, `JSON.stringify` or an error.
 *
 * Each test file runs in its own Node process, so changing process.env here
 * touches no other test; every test restores what it changed anyway.
 *
 * @module
 */

import { test } from "node:test";
import assert from "node:assert/strict";
import { format, inspect } from "node:util";
import {
  AuthenticationError,
  ConfigurationError,
  connect,
  MLPlatform,
  MLPlatformError,
} from "@mlplatform/sdk";
import { local } from "@mlplatform/sdk/local";

const ENV = ["MLP_BASE_URL", "MLP_CLIENT_ID", "MLP_CLIENT_SECRET"];

async function withEnv(values, run) {
  const saved = Object.fromEntries(ENV.map((k) => [k, process.env[k]]));
  for (const k of ENV) {
    if (values[k] === undefined) delete process.env[k];
    else process.env[k] = values[k];
  }
  try {
    return await run();
  } finally {
    for (const k of ENV) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  }
}

/** Every way a Node user may print or serialise a value. */
function renderings(value) {
  return [
    inspect(value),
    // No `getters: true`: with showHidden, Node calls prototype getters on
    // the prototype itself, which corrupts zod 4.6's lazily bound schema
    // methods process-wide (see the report); not a secret-leak path.
    inspect(value, { showHidden: true, depth: Infinity }),
    inspect({ nested: { value } }, { depth: Infinity }),
    format("%o %O %s %j", value, value, value, value),
    JSON.stringify(value) ?? "",
    JSON.stringify({ value }) ?? "",
    String(value),
  ];
}

function assertHidden(value, secrets, what) {
  for (const text of renderings(value)) {
    for (const secret of secrets) {
      assert.ok(!text.includes(secret), `${what} shows a secret: ${text}`);
    }
    // No JWT-shaped access token either.
    assert.doesNotMatch(text, /eyJ[\w-]{8,}\.[\w-]{8,}/, `${what}: ${text}`);
  }
}

test("connect() with no environment names every missing variable and what to do", async () => {
  await withEnv({}, () => {
    assert.throws(
      () => connect(),
      (error) => {
        assert.ok(error instanceof ConfigurationError, String(error));
        assert.ok(error instanceof MLPlatformError);
        assert.equal(error.name, "ConfigurationError");
        for (const k of ENV) assert.match(error.message, new RegExp(k));
        assert.match(error.message, /connect\(\{/);
        assert.match(error.message, /local\(\)/);
        return true;
      },
    );
  });
});

/** The "Missing ..." sentence, without the hint that lists every variable. */
const missingPart = (error) => error.message.split(". ")[0];

test("connect() names only what is missing, and options fill the gaps", async () => {
  await withEnv({
    MLP_BASE_URL: "https://mlp.invalid",
    MLP_CLIENT_ID: "node-id",
  }, () => {
    assert.throws(
      () => connect(),
      (error) =>
        error instanceof ConfigurationError &&
        /^Missing clientSecret .*MLP_CLIENT_SECRET/.test(missingPart(error)) &&
        !/MLP_BASE_URL|MLP_CLIENT_ID/.test(missingPart(error)),
    );
    const ml = connect({ clientSecret: "from-options" });
    assert.ok(ml instanceof MLPlatform);
    assert.equal(ml.baseUrl, "https://mlp.invalid");
  });
  await withEnv({ MLP_CLIENT_SECRET: "only-secret" }, () => {
    assert.throws(
      () => connect(),
      (error) =>
        error instanceof ConfigurationError &&
        /MLP_BASE_URL/.test(missingPart(error)) &&
        /MLP_CLIENT_ID/.test(missingPart(error)) &&
        !/MLP_CLIENT_SECRET/.test(missingPart(error)),
    );
  });
});

test("connect() reads the environment, and its client never shows the secret", async () => {
  const secret = "node-env-secret-7f3a9c";
  await withEnv({
    MLP_BASE_URL: "https://mlp.invalid",
    MLP_CLIENT_ID: "node-env-id",
    MLP_CLIENT_SECRET: secret,
  }, () => {
    const ml = connect({ progress: false });
    assert.equal(ml.baseUrl, "https://mlp.invalid");
    assert.match(inspect(ml), /node-env-id/, "the client id may be shown");
    assertHidden(ml, [secret], "connect() client");
  });
});

test("neither the secret nor the token shows, before or after calls, nor in errors", async () => {
  const secret = "node-local-secret-2b8e41";
  const ml = await local({
    progress: false,
    clientId: "node-local-id",
    clientSecret: secret,
  });
  try {
    assertHidden(ml, [secret], "local() client before any call");
    const accounts = await ml.accounts.list();
    assert.equal(accounts.data[0].status, "ACTIVE");
    assertHidden(ml, [secret], "local() client holding a token");
    const schemaBuilder = ml.schema("s").feature("a", ml.integer()).target(
      "y",
    );
    assertHidden(schemaBuilder, [secret], "a builder");
    const job = ml.workspace(`node-secret-${Date.now()}`);
    assertHidden(await job, [secret], "a created resource");

    // Wrong secret against the same platform: a typed 401 that keeps both
    // the wrong and the right secret out of every rendering.
    const wrong = "node-wrong-secret-c0ffee";
    const intruder = connect({
      baseUrl: ml.baseUrl,
      clientId: "node-local-id",
      clientSecret: wrong,
      fetch: (input, init) => ml.platform.fetch(new Request(input, init)),
      progress: false,
    });
    const error = await intruder.accounts.list().then(
      () => assert.fail("expected an AuthenticationError"),
      (e) => e,
    );
    assert.ok(error instanceof AuthenticationError, String(error));
    assert.equal(error.status, 401);
    assert.match(error.message, /MLP_CLIENT_SECRET/, "says what to check");
    assertHidden(error, [wrong, secret], "AuthenticationError");
    assertHidden(error.stack, [wrong, secret], "its stack");
    assertHidden(intruder, [wrong], "the refused client");
  } finally {
    await ml.close();
  }
});

test("a call aborted while the service is unreachable lets the script exit at once", async () => {
  const { spawnSync } = await import("node:child_process");
  const { createServer } = await import("node:net");
  // A port nothing listens on: bound, then closed, so connections are refused.
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  // The token request's retries (about 40 s of backoff) outlived the call
  // they were for: the script printed its error after 0.5 s and exited 40 s
  // later.
  const script = `
    import { connect } from "@mlplatform/sdk";
    const ml = connect({ baseUrl: "http://127.0.0.1:${port}", clientId: "a", clientSecret: "b", progress: false });
    const started = Date.now();
    process.on("exit", () => console.log(JSON.stringify({ exit: Date.now() - started })));
    await ml.accounts.list({}, { signal: AbortSignal.timeout(500) }).catch((e) => console.log(e.name));
  `;
  const run = spawnSync(
    process.execPath,
    ["--input-type=module", "-e", script],
    {
      cwd: new URL(".", import.meta.url),
      encoding: "utf8",
      timeout: 30_000,
    },
  );
  assert.equal(run.status, 0, `${run.stderr}${run.stdout}`);
  const [name, timing] = run.stdout.trim().split("\n");
  assert.equal(name, "TimeoutError");
  const { exit } = JSON.parse(timing);
  assert.ok(exit < 5_000, `the script exited ${exit} ms after its call began`);
});
