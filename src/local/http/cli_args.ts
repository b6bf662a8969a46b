/**
 * The command line of the local platform, shared by `deno task local`
 * (cli.ts, served with `Deno.serve`) and the npm package's `mlp-local` bin
 * (node_cli.ts, served with `node:http`): one flag parser, one start-up
 * sequence and one banner, whatever runtime listens.
 *
 * Flags: `--port` (default 8787; 0 picks a free port), `--host` (default
 * 127.0.0.1), `--bucket name=folder` (repeatable),
 * `--faults 500=0.1,429=0.05,202=0.1,latency=50,seed=1`, `--token-ttl`
 * seconds, `--data-dir` (persist in SQLite there), `--config` (JSON operator
 * setup). `MLP_CLIENT_ID` / `MLP_CLIENT_SECRET` set the default account's
 * credentials; otherwise random ones are written to a private file whose
 * path is printed (secrets never go to the console).
 *
 * @module
 */
import { stat } from "node:fs/promises";
import { parseArgs } from "node:util";
import { parseFaults } from "./faults.ts";
import { type LocalPlatformOptions, readConfigFile } from "../options.ts";
import { createLocalPlatform, type LocalPlatform } from "../local_platform.ts";
import { messageOf } from "../error_message.ts";

/** Options read from the command line. */
export interface CliOptions {
  /** Port to listen on (0: any free port). */
  port: number;
  /** Interface to listen on. */
  host: string;
  /** Options of the platform the server runs. */
  platform: LocalPlatformOptions;
}

/**
 * The usage line, for the command the user typed.
 *
 * @param program How the command is run (`deno task local`, `mlp-local`).
 * @returns One line listing every flag.
 *
 * @example
 * ```ts
 * import { usage } from "./cli_args.ts";
 * if (!usage("mlp-local").startsWith("Usage: mlp-local [--port 8787]")) throw new Error();
 * ```
 */
export function usage(program: string): string {
  return `Usage: ${program} [--port 8787] [--host 127.0.0.1] [--bucket name=folder]... [--faults 500=0.1,429=0.05,202=0.1,latency=50,seed=1] [--token-ttl seconds] [--data-dir dir] [--config file.json]`;
}

/**
 * Reads the flags and the credential environment variables.
 *
 * @param args The arguments after the program name.
 * @param env `MLP_CLIENT_ID` and `MLP_CLIENT_SECRET`, when set.
 * @param program Named in the usage line of every error.
 * @returns The port, the host and the platform's options.
 * @throws {Error} Naming the flag that is wrong, with the usage line.
 *
 * @example
 * ```ts
 * import { parseCli } from "./cli_args.ts";
 * const o = parseCli(["--port", "9000", "--bucket", "demo=./data", "--faults", "500=0.5"], {});
 * if (o.port !== 9000 || o.platform.buckets?.demo !== "./data" || o.platform.faults?.error500 !== 0.5) throw new Error();
 * ```
 */
export function parseCli(
  args: string[],
  env: Record<string, string | undefined>,
  program = "deno task local",
): CliOptions {
  const USAGE = usage(program);
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
    throw new Error(`${messageOf(error)}\n${USAGE}`);
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
    const name = spec.slice(0, at);
    // The same name twice: the later folder silently replaced the first.
    if (Object.hasOwn(buckets, name)) {
      throw new Error(`--bucket ${name}= is given twice.\n${USAGE}`);
    }
    buckets[name] = spec.slice(at + 1);
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

/**
 * Refuses a `--bucket` folder that is missing or not a folder at start-up:
 * served anyway, its typo only showed later as a 400 on every call using it.
 */
async function checkBucketFolders(cli: CliOptions): Promise<void> {
  const { buckets = {}, configFile } = cli.platform;
  // Buckets of the --config file too (the flags win over them).
  const fromFile = configFile
    ? (await readConfigFile(configFile)).buckets ?? {}
    : {};
  const all: [string, string, string][] = [
    ...Object.entries(fromFile).filter(([name]) =>
      !Object.hasOwn(buckets, name)
    )
      .map(([name, folder]): [string, string, string] => [
        `bucket "${name}" of --config ${configFile}`,
        name,
        folder,
      ]),
    ...Object.entries(buckets).map((
      [name, folder],
    ): [string, string, string] => [
      "--bucket",
      name,
      folder,
    ]),
  ];
  for (const [where, name, folder] of all) {
    const info = await stat(folder).catch(() => undefined);
    if (!info || !info.isDirectory()) {
      throw new Error(
        `${
          where === "--bucket"
            ? `--bucket ${name}=${folder}`
            : `${where} (${folder})`
        }: ${info ? "not a folder" : "no such folder"}.`,
      );
    }
  }
}

/** Writes the credentials to a file only the user can read; returns its path. */
async function writeCredentials(
  dir: string | undefined,
  credentials: { clientId: string; clientSecret: string },
  baseUrl: string,
): Promise<string> {
  const { writeFile, mkdtemp, mkdir } = await import("node:fs/promises");
  const { join } = await import("node:path");
  const { tmpdir } = await import("node:os");
  if (dir) await mkdir(dir, { recursive: true });
  const folder = dir ?? await mkdtemp(join(tmpdir(), "mlplatform-local-"));
  const file = join(folder, "credentials.env");
  await writeFile(
    file,
    `MLP_BASE_URL=${baseUrl}\nMLP_CLIENT_ID=${credentials.clientId}\nMLP_CLIENT_SECRET=${credentials.clientSecret}\n`,
    { mode: 0o600 },
  );
  return file;
}

/** A listening HTTP server, whatever runtime serves it. */
export interface Listening {
  /** The port actually bound (the chosen one when `--port 0`). */
  port: number;
  /** Stops accepting connections and ends the open ones. */
  close(): Promise<void>;
}

/** Starts an HTTP server for a fetch handler: `Deno.serve` or `node:http`. */
export type Listen = (
  handler: (request: Request) => Response | Promise<Response>,
  address: { port: number; host: string },
) => Promise<Listening>;

/** The running server of {@linkcode startLocalServer}. */
export interface LocalServer {
  /** Where it answers, e.g. `http://127.0.0.1:8787`. */
  baseUrl: string;
  /** The platform it serves. */
  platform: LocalPlatform;
  /** What it printed on start (the base URL, docs, credentials' origin). */
  banner: string[];
  /** Stops the server, then the platform's background work and store. */
  stop(): Promise<void>;
}

/**
 * Parses the flags, starts the platform, listens with `listen` and prints
 * where it answers and where the credentials are (never the secret).
 *
 * @param args The command-line arguments (after the program name).
 * @param env `MLP_CLIENT_ID` and `MLP_CLIENT_SECRET`, when set.
 * @param listen Serves a fetch handler over HTTP in this runtime.
 * @param options `program` for the usage line; `log` (default `console.log`).
 * @returns The running server.
 * @throws {Error} On a wrong flag (with the usage line) or a port in use.
 *
 * @example
 * ```ts
 * import { startLocalServer } from "./cli_args.ts";
 * import { serveNode } from "./node_serve.ts";
 *
 * const server = await startLocalServer(["--port", "0"], {
 *   MLP_CLIENT_ID: "me",
 *   MLP_CLIENT_SECRET: "s3cret",
 * }, serveNode, { log: () => {} });
 * const res = await fetch(`${server.baseUrl}/oauth/token`, {
 *   method: "POST",
 *   body: new URLSearchParams({ grant_type: "client_credentials", client_id: "me", client_secret: "s3cret" }),
 * });
 * if ((await res.json()).token_type !== "Bearer") throw new Error();
 * await server.stop();
 * ```
 */
export async function startLocalServer(
  args: string[],
  env: Record<string, string | undefined>,
  listen: Listen,
  options: { program?: string; log?: (line: string) => void } = {},
): Promise<LocalServer> {
  const log = options.log ?? console.log;
  const cli = parseCli(args, env, options.program);
  await checkBucketFolders(cli);
  const displayHost = cli.host === "0.0.0.0" ? "localhost" : cli.host;
  const platform = await createLocalPlatform({
    ...cli.platform,
    baseUrl: `http://${displayHost}:${cli.port}`,
  }).catch((error) => {
    // A system error here is the --data-dir's (making it, opening its
    // database); the bare "ENOENT: ... mkdir" named no flag.
    const code = (error as { code?: unknown } | null)?.code;
    if (cli.platform.dataDir !== undefined && typeof code === "string") {
      throw new Error(
        `--data-dir ${cli.platform.dataDir}: ${messageOf(error)}`,
      );
    }
    throw error;
  });
  let server: Listening;
  try {
    server = await listen(platform.app.fetch, {
      port: cli.port,
      host: cli.host,
    });
  } catch (error) {
    await platform.close();
    // The runtime's message ("Address already in use (os error 98)") does
    // not say which flag to change.
    throw new Error(
      `cannot listen on ${cli.host}:${cli.port} (--host, --port): ${
        messageOf(error)
      }`,
    );
  }
  const baseUrl = `http://${displayHost}:${server.port}`;
  const where = cli.platform.clientId
    ? "from MLP_CLIENT_ID / MLP_CLIENT_SECRET"
    : `in ${await writeCredentials(
      cli.platform.dataDir,
      platform.credentials,
      baseUrl,
    )} (source it, or read MLP_CLIENT_ID / MLP_CLIENT_SECRET from it)`;
  const banner = [
    `Local ML platform listening on ${baseUrl}`,
    `  API reference: ${baseUrl}/docs   OpenAPI: ${baseUrl}/openapi.json`,
    `  client_id: ${platform.credentials.clientId}; credentials ${where}`,
    `  buckets: ${JSON.stringify(cli.platform.buckets ?? {})}; state: ${
      cli.platform.dataDir
        ? `persisted in ${cli.platform.dataDir}`
        : "in memory"
    }`,
  ];
  for (const line of banner) log(line);
  let stopped: Promise<void> | undefined;
  return {
    baseUrl,
    platform,
    banner,
    stop: () => stopped ??= server.close().finally(() => platform.close()),
  };
}
