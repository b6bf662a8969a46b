/**
 * `deno task local` as a new user meets it: the CLI serves over HTTP, prints
 * the base URL and where the credentials are, and answers the token call, a
 * list, a create and a 404 like curl would see them.
 */
import { assertEquals, assertMatch, assertThrows } from "@std/assert";
import { parseCli } from "../src/local/cli.ts";
import { DATASETS } from "./_helpers/local_setup.ts";

Deno.test("local cli: flags are read and wrong ones explained", () => {
  const o = parseCli([
    "--port",
    "0",
    "--bucket",
    "a=./x",
    "--bucket",
    "b=./y",
    "--token-ttl",
    "60",
    "--data-dir",
    "d",
  ], {
    MLP_CLIENT_ID: "id",
    MLP_CLIENT_SECRET: "secret",
  });
  assertEquals(o.platform.buckets, { a: "./x", b: "./y" });
  assertEquals([
    o.platform.tokenTtlSeconds,
    o.platform.dataDir,
    o.platform.clientId,
  ], [60, "d", "id"]);
  assertThrows(
    () => parseCli(["--bucket", "nofolder"], {}),
    Error,
    "name=folder",
  );
  assertThrows(
    () => parseCli(["--faults", "500=2"], {}),
    Error,
    "between 0 and 1",
  );
  assertThrows(() => parseCli(["--port", "x"], {}), Error, "--port");
  assertThrows(() => parseCli(["--nope"], {}), Error, "Usage");
});

Deno.test("local cli: served over HTTP, used as with curl", async () => {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("../src/local/cli.ts", import.meta.url).pathname,
      "--port",
      "0",
      "--bucket",
      `demo=${DATASETS}`,
    ],
    env: { MLP_CLIENT_ID: "curl-user", MLP_CLIENT_SECRET: "curl-secret" },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  // A CLI that never prints its banner is stopped (the read then ends).
  const bound = setTimeout(() => child.kill("SIGKILL"), 60_000);
  try {
    while (!out.includes("buckets:")) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the CLI ended early: ${out}`);
      out += value;
    }
    const base = out.match(/listening on (http:\/\/\S+)/)![1];
    assertMatch(out, /credentials from MLP_CLIENT_ID/);
    assertEquals(
      out.includes("curl-secret"),
      false,
      "the secret is never printed",
    );
    const tokenRes = await fetch(`${base}/oauth/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body:
        "grant_type=client_credentials&client_id=curl-user&client_secret=curl-secret",
    });
    assertEquals(tokenRes.status, 200);
    const { access_token, token_type, expires_in } = await tokenRes.json();
    assertEquals([token_type, expires_in], ["Bearer", 2592000]);
    const auth = { Authorization: `Bearer ${access_token}` };
    const list = await fetch(`${base}/storage-connectors`, { headers: auth });
    assertEquals([list.status, (await list.json()).pagination.total_items], [
      200,
      0,
    ]);
    const created = await fetch(`${base}/storage-connectors`, {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "demo", bucket_name: "demo" }),
    });
    assertEquals(created.status, 201);
    assertMatch((await created.json()).id, /^sc_/);
    const missing = await fetch(`${base}/storage-connectors/sc_missing`, {
      headers: auth,
    });
    assertEquals(missing.status, 404);
    assertEquals((await missing.json()).error_code, "NOT_FOUND");
  } finally {
    clearTimeout(bound);
    child.kill("SIGTERM");
    await reader.cancel();
    await child.stderr.cancel();
    await child.status;
  }
});
