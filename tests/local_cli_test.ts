/**
 * `deno task local` as a new user meets it: the CLI serves over HTTP, prints
 * the base URL and where the credentials are, and answers the token call, a
 * list, a create and a 404 like curl would see them.
 */
import { assert, assertEquals, assertMatch, assertThrows } from "@std/assert";
import { parseCli } from "../src/local/cli.ts";
import {
  HelpRequested,
  type Listen,
  startLocalServer,
} from "../src/local/http/cli_args.ts";
import { serveNode } from "../src/local/http/node_serve.ts";
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
  // `--port "$PORT"` with PORT unset listened on a random port (Number("")
  // is 0); "0x50", "1e3" and " 80" on other ports than written.
  for (const port of ["", "0x50", "1e3", " 80", "80.0"]) {
    assertThrows(
      () => parseCli(["--port", port], {}),
      Error,
      "--port must be an integer",
      JSON.stringify(port),
    );
  }
  // --help was an error (stderr, exit code 1): it is the help, for stdout.
  const help = assertThrows(() => parseCli(["-h"], {}), HelpRequested);
  assertMatch(help.message, /^Usage: deno task local/);
  assertMatch(help.message, /--data-dir dir .*\n[^]*MLP_CLIENT_ID/);
});

/** Starts the CLI's server in this process (serveNode), its banner kept. */
async function started(
  args: string[],
  env: Record<string, string> = {},
  listen: Listen = serveNode,
) {
  const banner: string[] = [];
  const server = await startLocalServer(
    ["--port", "0", ...args],
    env,
    listen,
    { log: (line) => banner.push(line) },
  );
  await server.stop();
  return banner.join("\n");
}

// "--host ::1" printed http://::1:8787, which is no URL (nor was the
// MLP_BASE_URL of credentials.env).
Deno.test("local cli: an IPv6 host is printed in brackets, every interface as localhost", async () => {
  const listen: Listen = () =>
    Promise.resolve({ port: 8787, close: async () => {} });
  const env = { MLP_CLIENT_ID: "me", MLP_CLIENT_SECRET: "s3cret" };
  for (
    const [host, base] of [
      ["::1", "http://[::1]:8787"],
      ["::", "http://localhost:8787"],
      ["0.0.0.0", "http://localhost:8787"],
      ["127.0.0.1", "http://127.0.0.1:8787"],
    ]
  ) {
    const banner = await started(["--host", host], env, listen);
    assertEquals(
      banner.split("\n")[0],
      `Local ML platform listening on ${base}`,
    );
    assert(URL.canParse(base));
  }
});

Deno.test("local cli: the banner says where the credentials really are, and they stay private", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cli_banner_" });
  try {
    const config = `${dir}/config.json`;
    await Deno.writeTextFile(
      config,
      JSON.stringify({
        buckets: { fromfile: dir },
        accounts: [{
          name: "team",
          credentials: [{ clientId: "team-id", clientSecret: "team-secret" }],
        }],
      }),
    );
    // The file's accounts were in force while the variables were ignored,
    // and the banner said the credentials came from the variables.
    const refused = await started(["--config", config], {
      MLP_CLIENT_ID: "env-id",
      MLP_CLIENT_SECRET: "env-secret",
    }).catch((e: Error) => e.message);
    assertMatch(refused, /MLP_CLIENT_ID .* accounts of --config .* in force/);
    // The same pair as the file's works, and the banner says so.
    assertMatch(
      await started(["--config", config], {
        MLP_CLIENT_ID: "team-id",
        MLP_CLIENT_SECRET: "team-secret",
      }),
      /client_id: team-id; credentials from MLP_CLIENT_ID/,
    );
    // Without them: the file's credentials, not copied to another file
    // (the banner named a credentials.env holding the file's secret), and
    // the file's buckets listed too.
    const banner = await started(["--config", config]);
    assertMatch(banner, /client_id: team-id; credentials from --config /);
    assertMatch(banner, /buckets: \{"fromfile":/);
    assertEquals(banner.includes("credentials.env"), false, banner);
    // A credentials.env already there (readable by all) is made private
    // before the secret is written into it: the mode applied only to a new file.
    const data = `${dir}/state`;
    await Deno.mkdir(data);
    await Deno.writeTextFile(`${data}/credentials.env`, "", { mode: 0o644 });
    await Deno.chmod(`${data}/credentials.env`, 0o644);
    assertMatch(
      await started(["--data-dir", data]),
      /credentials in .*credentials\.env/,
    );
    assertEquals(
      (await Deno.stat(`${data}/credentials.env`)).mode! & 0o777,
      0o600,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("local cli: served over HTTP, used as with curl", async () => {
  // With few file descriptors (256), so that a burst of connections runs
  // the server out of them below.
  const child = new Deno.Command("sh", {
    args: [
      "-c",
      'ulimit -n 256 && exec "$0" "$@"',
      Deno.execPath(),
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

    // A burst of connections that runs the server out of file descriptors:
    // Deno.serve stopped listening and the rejection ended the process.
    // It listens again once the connections are gone.
    const port = Number(new URL(base).port);
    const burst: Deno.Conn[] = [];
    try {
      for (let i = 0; i < 300; i++) {
        burst.push(await Deno.connect({ hostname: "127.0.0.1", port }));
      }
    } catch {
      // Refused once the server stopped listening.
    }
    for (const conn of burst) conn.close();
    // On a new connection (fetch would reuse one of its pool).
    const fresh = async () => {
      using conn = await Deno.connect({ hostname: "127.0.0.1", port });
      await conn.write(
        new TextEncoder().encode(
          "GET /openapi.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        ),
      );
      const head = new Uint8Array(12);
      await conn.read(head);
      return new TextDecoder().decode(head);
    };
    let after = "";
    for (const giveUp = Date.now() + 10_000; Date.now() < giveUp;) {
      after = await fresh().catch((e) => String(e));
      if (after === "HTTP/1.1 200") break;
      await new Promise((r) => setTimeout(r, 50));
    }
    assertEquals(after, "HTTP/1.1 200", "it listens again once it can");

    // A client holding a request open (half its body sent) kept SIGTERM
    // from stopping the server: Deno.serve's shutdown() waited for it, for
    // ever. The stop lets requests in flight finish for a second, then
    // closes their connections; the cut body is not an unexpected error.
    using held = await Deno.connect({ hostname: "127.0.0.1", port });
    await held.write(
      new TextEncoder().encode(
        `POST /workspaces HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${access_token}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"na`,
      ),
    );
    const served = await fetch(`${base}/workspaces`, { headers: auth });
    assertEquals(served.status, 200, "it answers beside the held request");
    await served.body?.cancel();
    child.kill("SIGTERM");
    const stopping = Date.now();
    const stuck = setTimeout(() => child.kill("SIGKILL"), 10_000);
    const status = await child.status;
    clearTimeout(stuck);
    assertEquals(status.code, 0, `stopped by ${status.signal}`);
    assert(Date.now() - stopping < 10_000, `${Date.now() - stopping} ms`);
    const stderr = await new Response(child.stderr).text();
    assertEquals(stderr.includes("unexpected error"), false, stderr);
  } finally {
    clearTimeout(bound);
    try {
      child.kill("SIGTERM");
    } catch {
      // Already stopped.
    }
    await reader.cancel();
    await child.stderr.cancel().catch(() => {});
    await child.status;
  }
});
