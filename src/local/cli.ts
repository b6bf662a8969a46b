/**
 * `deno task local`: serves the local platform over HTTP.
 *
 * ```sh
 * deno task local --port 8787 --bucket demo=datasets --data-dir .mlp
 * ```
 *
 * Flags: `--port` (default 8787), `--host` (default 127.0.0.1), `--bucket
 * name=folder` (repeatable), `--faults 500=0.1,429=0.05,202=0.1,latency=50,seed=1`,
 * `--token-ttl` seconds, `--data-dir` (persist in SQLite there), `--config`
 * (JSON operator setup). `MLP_CLIENT_ID` / `MLP_CLIENT_SECRET` set the
 * default account's credentials; otherwise random ones are written to a
 * private file whose path is printed (secrets never go to the console).
 *
 * @module
 */
import { parseArgs } from "node:util";
import { parseFaults } from "./faults.ts";
import type { LocalPlatformOptions } from "./options.ts";
import { createLocalPlatform } from "./platform.ts";

/** Options read from the command line. */
export interface CliOptions {
  port: number;
  host: string;
  platform: LocalPlatformOptions;
}

const USAGE =
  "Usage: deno task local [--port 8787] [--host 127.0.0.1] [--bucket name=folder]... [--faults 500=0.1,429=0.05,202=0.1,latency=50,seed=1] [--token-ttl seconds] [--data-dir dir] [--config file.json]";

/**
 * Reads the flags and the credential environment variables.
 *
 * @throws {Error} Naming the flag that is wrong, with the usage line.
 *
 * @example
 * ```ts
 * import { parseCli } from "./cli.ts";
 * const o = parseCli(["--port", "9000", "--bucket", "demo=./data", "--faults", "500=0.5"], {});
 * if (o.port !== 9000 || o.platform.buckets?.demo !== "./data" || o.platform.faults?.error500 !== 0.5) throw new Error();
 * ```
 */
export function parseCli(
  args: string[],
  env: Record<string, string | undefined>,
): CliOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        port: { type: "string", default: "8787" },
        host: { type: "string", default: "127.0.0.1" },
        bucket: { type: "string", multiple: true, default: [] },
        faults: { type: "string" },
        "token-ttl": { type: "string" },
        "data-dir": { type: "string" },
        config: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
    }));
  } catch (error) {
    throw new Error(`${(error as Error).message}\n${USAGE}`);
  }
  if (values.help) throw new Error(USAGE);
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(
      `--port must be an integer from 0 to 65535, got "${values.port}".\n${USAGE}`,
    );
  }
  const buckets: Record<string, string> = {};
  for (const spec of values.bucket ?? []) {
    const at = spec.indexOf("=");
    if (at <= 0 || at === spec.length - 1) {
      throw new Error(`--bucket needs name=folder, got "${spec}".\n${USAGE}`);
    }
    buckets[spec.slice(0, at)] = spec.slice(at + 1);
  }
  const platform: LocalPlatformOptions = {
    buckets,
    configFile: values.config,
    dataDir: values["data-dir"],
    faults: values.faults ? parseFaults(values.faults) : undefined,
    clientId: env.MLP_CLIENT_ID || undefined,
    clientSecret: env.MLP_CLIENT_SECRET || undefined,
  };
  if (Object.keys(buckets).length === 0) delete platform.buckets;
  if (
    (platform.clientId === undefined) !== (platform.clientSecret === undefined)
  ) {
    throw new Error(
      "Set both MLP_CLIENT_ID and MLP_CLIENT_SECRET, or neither (random credentials are then made).",
    );
  }
  if (values["token-ttl"] !== undefined) {
    const ttl = Number(values["token-ttl"]);
    if (!Number.isInteger(ttl) || ttl <= 0) {
      throw new Error(
        `--token-ttl must be a positive whole number of seconds, got "${
          values["token-ttl"]
        }".`,
      );
    }
    platform.tokenTtlSeconds = ttl;
  }
  return { port, host: values.host!, platform };
}

/** Writes the credentials to a file only the user can read; returns its path. */
async function writeCredentials(
  dir: string | undefined,
  credentials: { clientId: string; clientSecret: string },
  baseUrl: string,
): Promise<string> {
  const { writeFile, mkdtemp } = await import("node:fs/promises");
  const { join } = await import("node:path");
  const { tmpdir } = await import("node:os");
  const folder = dir ?? await mkdtemp(join(tmpdir(), "mlplatform-local-"));
  const file = join(folder, "credentials.env");
  await writeFile(
    file,
    `MLP_BASE_URL=${baseUrl}\nMLP_CLIENT_ID=${credentials.clientId}\nMLP_CLIENT_SECRET=${credentials.clientSecret}\n`,
    { mode: 0o600 },
  );
  return file;
}

/** Serves the platform until the process is stopped. */
async function main(): Promise<void> {
  const deno = (globalThis as { Deno?: typeof Deno }).Deno;
  if (!deno?.serve) {
    throw new Error(
      "The CLI needs Deno (Deno.serve). Under Node, serve createLocalPlatform().app with @hono/node-server.",
    );
  }
  const env = {
    MLP_CLIENT_ID: deno.env.get("MLP_CLIENT_ID"),
    MLP_CLIENT_SECRET: deno.env.get("MLP_CLIENT_SECRET"),
  };
  const cli = parseCli(deno.args, env);
  const displayHost = cli.host === "0.0.0.0" ? "localhost" : cli.host;
  let baseUrl = `http://${displayHost}:${cli.port}`;
  const platform = await createLocalPlatform({ ...cli.platform, baseUrl });
  const server = deno.serve({
    port: cli.port,
    hostname: cli.host,
    onListen: () => {},
  }, platform.app.fetch);
  baseUrl = `http://${displayHost}:${server.addr.port}`;
  const where = env.MLP_CLIENT_ID
    ? "from MLP_CLIENT_ID / MLP_CLIENT_SECRET"
    : `in ${await writeCredentials(
      cli.platform.dataDir,
      platform.credentials,
      baseUrl,
    )} (source it, or read MLP_CLIENT_ID / MLP_CLIENT_SECRET from it)`;
  console.log(`Local ML platform listening on ${baseUrl}`);
  console.log(
    `  API reference: ${baseUrl}/docs   OpenAPI: ${baseUrl}/openapi.json`,
  );
  console.log(
    `  client_id: ${platform.credentials.clientId}; credentials ${where}`,
  );
  console.log(
    `  buckets: ${JSON.stringify(cli.platform.buckets ?? {})}; state: ${
      cli.platform.dataDir
        ? `persisted in ${cli.platform.dataDir}`
        : "in memory"
    }`,
  );
  const stop = async () => {
    await server.shutdown();
    await platform.close();
    deno.exit(0);
  };
  deno.addSignalListener("SIGINT", stop);
  if (deno.build.os !== "windows") deno.addSignalListener("SIGTERM", stop);
}

if (import.meta.main) {
  main().catch((error) => {
    console.error(`error: ${(error as Error).message}`);
    (globalThis as { Deno?: typeof Deno }).Deno?.exit(1);
  });
}
