/**
 * The command line of the local platform, shared by `deno task local`
 * (cli.ts, served with `Deno.serve`) and the npm package's `mlp-local` bin
 * (node_cli.ts, served with `node:http`): one flag parser, one start-up
 * sequence and one banner, whatever runtime listens.
 *
 * Flags: `--port` (default 8787; 0 picks a free port), `--host` (default
 * 127.0.0.1), `--bucket name=folder` (repeatable),
 * `--faults 500=0.1,429=0.05,202=0.1,latency=50,seed=1`, `--token-ttl`
 * seconds, `--data-dir` (persist in SQLite there, one platform at a time),
 * `--config` (JSON operator setup), `--help` (the help, on stdout).
 * `MLP_CLIENT_ID` / `MLP_CLIENT_SECRET` set the default account's
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
 * What `--help` prints: the usage line, each flag, and the environment.
 *
 * @param program How the command is run (`deno task local`, `mlp-local`).
 * @returns The help text, one flag a line.
 *
 * @example
 * ```ts
 * import { help } from "./cli_args.ts";
 * const text = help("mlp-local");
 * if (!text.startsWith("Usage: mlp-local") || !text.includes("MLP_CLIENT_SECRET")) throw new Error(text);
 * ```
 */
export function help(program: string): string {
  return [
    usage(program),
    "",
    "Serves the local ML platform over HTTP (the API of docs/api.md#endpoints).",
    "",
    "  --port N              port to listen on (default 8787; 0: any free port)",
    "  --host H              interface to listen on (default 127.0.0.1)",
    "  --bucket name=folder  serve a local folder as a bucket (repeatable)",
    "  --data-dir dir        persist in SQLite in dir (default: in memory); one platform a dir",
    "  --config file.json    organisations, accounts, buckets, limits (the flags win)",
    "  --faults spec         seeded fault injection, e.g. 500=0.1,429=0.05,seed=1",
    "  --token-ttl seconds   lifetime of issued tokens (default 2592000, 30 days)",
    "  -h, --help            this help",
    "",
    "MLP_CLIENT_ID and MLP_CLIENT_SECRET set the credentials; without them random",
    "ones are written to a private file whose path is printed (never the secret).",
  ].join("\n");
}

/**
 * Thrown by {@linkcode parseCli} for `--help`: its message is the help,
 * for the command to print on stdout before it exits with 0 (it was an
 * error on stderr with exit code 1).
 *
 * @example
 * ```ts
 * import { HelpRequested, parseCli } from "./cli_args.ts";
 * let error: unknown;
 * try { parseCli(["--help"], {}, "mlp-local"); } catch (e) { error = e; }
 * if (!(error instanceof HelpRequested) || !error.message.includes("--data-dir")) throw new Error();
 * ```
 */
export class HelpRequested extends Error {
  /** @param text The help to print. */
  constructor(text: string) {
    super(text);
    this.name = "HelpRequested";
  }
}

/**
 * Reads the flags and the credential environment variables.
 *
 * @param args The arguments after the program name.
 * @param env `MLP_CLIENT_ID` and `MLP_CLIENT_SECRET`, when set.
 * @param program Named in the usage line of every error.
 * @returns The port, the host and the platform's options.
 * @throws {Error} Naming the flag that is wrong, with the usage line;
 * {@linkcode HelpRequested} for `--help`.
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
  if (values.help) throw new HelpRequested(help(program));
  // Digits only: Number() read "" (an unset `--port "$PORT"`) as 0, any
  // free port, and "0x50", "1e3" or " 80" as other ports than written.
  const port = /^\d{1,5}$/.test(values.port!) ? Number(values.port) : NaN;
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
async function checkBucketFolders(
  cli: CliOptions,
  config: LocalPlatformOptions,
): Promise<void> {
  const { buckets = {}, configFile } = cli.platform;
  // Buckets of the --config file too (the flags win over them).
  const fromFile = config.buckets ?? {};
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
  const { open, mkdtemp, mkdir } = await import("node:fs/promises");
  const { join } = await import("node:path");
  const { tmpdir } = await import("node:os");
  if (dir) await mkdir(dir, { recursive: true });
  const folder = dir ?? await mkdtemp(join(tmpdir(), "mlplatform-local-"));
  const file = join(folder, "credentials.env");
  // `mode` applies only to a file it creates: a credentials.env already
  // there (a --data-dir restored from a copy) kept its mode, readable by
  // anyone. Made private before the secret is written.
  const handle = await open(file, "w", 0o600);
  try {
    await handle.chmod(0o600);
    await handle.writeFile(
      `MLP_BASE_URL=${baseUrl}\nMLP_CLIENT_ID=${credentials.clientId}\nMLP_CLIENT_SECRET=${credentials.clientSecret}\n`,
    );
  } finally {
    await handle.close();
  }
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
  const config = cli.platform.configFile
    ? await readConfigFile(cli.platform.configFile)
    : {};
  await checkBucketFolders(cli, config);
  const accounts = config.accounts?.length
    ? config.accounts.flatMap((a) => a.credentials ?? [])
    : undefined;
  const { clientId, clientSecret } = cli.platform;
  if (
    accounts && clientId !== undefined &&
    !accounts.some((c) =>
      c.clientId === clientId && c.clientSecret === clientSecret
    )
  ) {
    // The file's accounts are the ones in force: the variables were
    // ignored while the banner said the credentials came from them.
    throw new Error(
      `MLP_CLIENT_ID / MLP_CLIENT_SECRET are set, but the accounts of --config ${cli.platform.configFile} are the ones in force and none has those credentials: unset the two variables, or add them to an account of the file.`,
    );
  }
  // Every interface (IPv4 or IPv6) is reached as localhost; an IPv6
  // address goes in brackets ("http://::1:8787" was no URL: the banner's
  // and credentials.env's base URL could not be used).
  const displayHost = cli.host === "0.0.0.0" || cli.host === "::"
    ? "localhost"
    : cli.host.includes(":")
    ? `[${cli.host}]`
    : cli.host;
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
  const inFlight = new InFlight();
  let server: Listening;
  try {
    server = await listen(inFlight.count(platform.app.fetch), {
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
  // Where the credentials come from: the variables, the --config file
  // (its secrets are not copied to another file), or random ones written
  // to a private file.
  const first = platform.credentials;
  const inFile = accounts ??
    (config.clientId && config.clientSecret
      ? [{ clientId: config.clientId, clientSecret: config.clientSecret }]
      : []);
  const dataDir = cli.platform.dataDir ?? config.dataDir;
  let where: string;
  try {
    where = clientId !== undefined
      ? "from MLP_CLIENT_ID / MLP_CLIENT_SECRET"
      : inFile.some((c) =>
          c.clientId === first.clientId && c.clientSecret === first.clientSecret
        )
      ? `from --config ${cli.platform.configFile}`
      : `in ${await writeCredentials(
        dataDir,
        first,
        baseUrl,
      )} (source it, or read MLP_CLIENT_ID / MLP_CLIENT_SECRET from it)`;
  } catch (error) {
    await server.close();
    await platform.close();
    throw new Error(
      `cannot write the credentials file${
        dataDir ? ` in the data directory ${dataDir}` : ""
      }: ${messageOf(error)}`,
    );
  }
  const banner = [
    `Local ML platform listening on ${baseUrl}`,
    `  API reference: ${baseUrl}/docs   OpenAPI: ${baseUrl}/openapi.json`,
    `  client_id: ${clientId ?? first.clientId}; credentials ${where}`,
    `  buckets: ${
      JSON.stringify({ ...config.buckets, ...cli.platform.buckets })
    }; state: ${dataDir ? `persisted in ${dataDir}` : "in memory"}`,
  ];
  for (const line of banner) log(line);
  let stopped: Promise<void> | undefined;
  return {
    baseUrl,
    platform,
    banner,
    stop: () =>
      stopped ??= inFlight.settled(STOP_GRACE_MS)
        .then(() => server.close())
        .finally(() => platform.close()),
  };
}

/**
 * How long a stop (SIGINT, SIGTERM) waits for the requests in flight to be
 * answered before it closes their connections: long enough for any answer
 * of the platform, short enough that a client holding a request open (a
 * body sent halfway) does not hold the stop.
 */
const STOP_GRACE_MS = 1000;

/** Counts the requests being answered, so a stop can let them finish. */
class InFlight {
  #count = 0;
  #idle: (() => void)[] = [];

  /** `handler`, counted while it answers. */
  count(
    handler: (request: Request) => Response | Promise<Response>,
  ): (request: Request) => Promise<Response> {
    return async (request) => {
      this.#count++;
      try {
        return await handler(request);
      } finally {
        if (--this.#count === 0) {
          for (const done of this.#idle.splice(0)) done();
        }
      }
    };
  }

  /** Resolves once no request is being answered, or after `ms`. */
  settled(ms: number): Promise<void> {
    if (this.#count === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.#idle.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
