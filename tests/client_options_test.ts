/**
 * Client construction: options from the environment, the errors naming what
 * is missing, the browser refusal, and secrets kept out of inspection,
 * JSON and error messages.
 */
import {
  assert,
  assertEquals,
  assertInstanceOf,
  assertStringIncludes,
  assertThrows,
} from "@std/assert";
import { inspect } from "node:util";
import { Client, resolveClientOptions } from "../src/client.ts";
import { ConfigurationError } from "../src/http/errors.ts";
import { isBrowserLike } from "../src/http/environment.ts";

const ENV = ["MLP_BASE_URL", "MLP_CLIENT_ID", "MLP_CLIENT_SECRET"];

function withEnv(values: Record<string, string>, fn: () => void) {
  const saved = Object.fromEntries(ENV.map((k) => [k, Deno.env.get(k)]));
  try {
    for (const k of ENV) Deno.env.delete(k);
    for (const [k, v] of Object.entries(values)) Deno.env.set(k, v);
    fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) Deno.env.delete(k);
      else Deno.env.set(k, v);
    }
  }
}

Deno.test("resolveClientOptions: options win over the environment", () => {
  withEnv({
    MLP_BASE_URL: "https://env.invalid",
    MLP_CLIENT_ID: "env-id",
    MLP_CLIENT_SECRET: "env-secret",
  }, () => {
    assertEquals(resolveClientOptions().baseUrl, "https://env.invalid");
    assertEquals(resolveClientOptions().clientSecret, "env-secret");
    const explicit = resolveClientOptions({
      baseUrl: "https://opt.invalid",
      clientId: "opt-id",
    });
    assertEquals(explicit.baseUrl, "https://opt.invalid");
    assertEquals(explicit.clientId, "opt-id");
    assertEquals(explicit.clientSecret, "env-secret");
  });
});

Deno.test("resolveClientOptions: names each missing setting and how to set it", () => {
  withEnv({ MLP_CLIENT_ID: "env-id" }, () => {
    const error = assertThrows(
      () => resolveClientOptions(),
      ConfigurationError,
    );
    assertStringIncludes(error.message, "MLP_BASE_URL");
    assertStringIncludes(error.message, "MLP_CLIENT_SECRET");
    assert(!error.message.includes("clientId (option)"));
    assertStringIncludes(error.message, "--allow-env");
  });
});

Deno.test("environment: a denied --allow-env reads as unset", async () => {
  const script = await Deno.makeTempFile({ suffix: ".ts" });
  const module = new URL("../src/http/environment.ts", import.meta.url).href;
  await Deno.writeTextFile(
    script,
    `import { readEnv } from ${JSON.stringify(module)};
     console.log(JSON.stringify(readEnv("MLP_BASE_URL") ?? null));`,
  );
  try {
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-prompt", "--no-config", "--deny-env", script],
      env: { MLP_BASE_URL: "https://set.invalid" },
    }).output();
    const stderr = new TextDecoder().decode(output.stderr);
    assert(output.success, stderr);
    assertEquals(new TextDecoder().decode(output.stdout).trim(), "null");
  } finally {
    await Deno.remove(script);
  }
});

Deno.test("browser: a client secret is refused unless explicitly allowed", () => {
  assertEquals(isBrowserLike(), false);
  assertEquals(isBrowserLike({ document: {} }), true);
  assertEquals(isBrowserLike({ window: {} }), true);
  assertEquals(isBrowserLike({ window: {}, Deno: {} }), false);
  const global = globalThis as { document?: unknown };
  global.document = {};
  try {
    const options = {
      baseUrl: "https://mlp.invalid",
      clientId: "id",
      clientSecret: "s3cret",
    };
    const error = assertThrows(() => new Client(options), ConfigurationError);
    assertStringIncludes(error.message, "docs/api.md#authentication");
    assertStringIncludes(error.message, "dangerouslyAllowBrowser");
    assertThrows(() => resolveClientOptions(options), ConfigurationError);
    new Client({ ...options, dangerouslyAllowBrowser: true });
    new Client({ baseUrl: "https://mlp.invalid" }); // no secret: fine
  } finally {
    delete global.document;
  }
});

Deno.test("secrets: never in inspect, JSON or errors, even after a token was fetched", async () => {
  const client = new Client({
    baseUrl: "https://mlp.invalid",
    clientId: "the-id",
    clientSecret: "TOP-SECRET-VALUE",
    maxRetries: 0,
    fetch: (input) => {
      const url = new URL(new Request(input).url);
      return Promise.resolve(
        url.pathname === "/oauth/token"
          ? Response.json({
            access_token: "BEARER-TOKEN-VALUE",
            token_type: "Bearer",
            expires_in: 3600,
          })
          : Response.json({ message: "nope", error_code: "X" }, {
            status: 403,
          }),
      );
    },
  });
  const error = await client.accounts.list().catch((e) => e);
  assertEquals(error.status, 403);
  const renderings = [
    Deno.inspect(client, { depth: 10, showHidden: true }),
    Deno.inspect(client.transport, { depth: 10, showHidden: true }),
    Deno.inspect(client.workspaces, { depth: 10, showHidden: true }),
    inspect(client, { depth: 10, showHidden: true }),
    inspect(client.workspaces, { depth: 10, showHidden: true }),
    JSON.stringify(client),
    JSON.stringify(client.workspaces),
    String(error),
    String(error.stack),
    Deno.inspect(error, { depth: 10 }),
  ];
  for (const text of renderings) {
    assert(!text.includes("TOP-SECRET-VALUE"), text);
    assert(!text.includes("BEARER-TOKEN-VALUE"), text);
  }
  assertStringIncludes(renderings[0], "the-id");
});

Deno.test("base URL: an invalid one is refused at construction", () => {
  const error = assertThrows(
    () => new Client({ baseUrl: "mlp.example.com" }),
    ConfigurationError,
  );
  assertStringIncludes(error.message, "https://");
  assertEquals(
    new Client({ baseUrl: "https://mlp.invalid/v/" }).baseUrl,
    "https://mlp.invalid/v",
  );
});

Deno.test("credentials: a call without them fails before sending", async () => {
  let sent = 0;
  const client = new Client({
    baseUrl: "https://mlp.invalid",
    fetch: () => {
      sent++;
      return Promise.resolve(new Response());
    },
  });
  const error = await client.workspaces.list().catch((e) => e);
  assertInstanceOf(error, ConfigurationError);
  assertStringIncludes(error.message, "MLP_CLIENT_ID");
  assertEquals(sent, 0);
});
