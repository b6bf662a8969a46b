/**
 * Options of the local platform and the operator setup they describe
 * (docs/api.md#the-workflow: organisations, accounts and credentials are made by the
 * operator, never through the API).
 *
 * @example
 * ```ts
 * import { resolveOperator } from "./options.ts";
 * const op = resolveOperator({});
 * if (op.accounts.length !== 1 || op.accounts[0].credentials.length !== 1) throw new Error();
 * ```
 *
 * @module
 */
import { z } from "zod";
import type { FaultOptions } from "./http/faults.ts";
import { randomHex, timestamp } from "./ids.ts";
import { messageOf } from "./error_message.ts";
import { ownRecord } from "../schemas/common.ts";
import { issuePath } from "../schemas/errors.ts";

/** One credential pair and the user it acts for (`created_by`). */
export interface CredentialConfig {
  /** The `client_id` of the token call. */
  clientId: string;
  /** The `client_secret` of the token call. */
  clientSecret: string;
  /** Name of the user these credentials act for (default "API user"). */
  user?: string;
  /** Id of that user (default derived from the client id). */
  userId?: string;
}

/** One account made by the operator. */
export interface AccountConfig {
  /** Account id (default: a new random id). */
  id?: string;
  /** Account name. */
  name: string;
  /** Status (default `ACTIVE`); credentials of other statuses get 403. */
  status?: string;
  /** Id of the organisation the account belongs to (default: the first one). */
  organisation?: string;
  /** Credential pairs of the account (default: one random pair). */
  credentials?: CredentialConfig[];
}

/** An organisation made by the operator. */
export interface OrganisationConfig {
  /** Organisation id (default: a new random id). */
  id?: string;
  /** Organisation name. */
  name: string;
}

/** The operator's setup, as options or as the JSON of a config file. */
export interface OperatorConfig {
  /** Organisations (default: one). */
  organisations?: OrganisationConfig[];
  /** Accounts (default: one ACTIVE account with one credential pair). */
  accounts?: AccountConfig[];
}

/** Options of {@linkcode createLocalPlatform}. */
export interface LocalPlatformOptions extends OperatorConfig {
  /** Bucket names mapped to local folders: `{ demo: "./datasets" }`. */
  buckets?: Record<string, string>;
  /** Credentials of the default account (when `accounts` is not given). */
  clientId?: string;
  /** Secret of the default account's credentials. */
  clientSecret?: string;
  /**
   * A JSON file with `organisations`, `accounts`, `buckets`, `limits` and
   * the other options JSON can hold (options win); one of another shape or
   * with an unknown key is refused ({@linkcode readConfigFile}).
   */
  configFile?: string;
  /** `expires_in` of issued tokens, in seconds (default 2592000, 30 days). */
  tokenTtlSeconds?: number;
  /**
   * The clock tokens are issued and checked by, in milliseconds since the
   * epoch (default `Date.now`): a test can expire a token by moving it.
   */
  clock?: () => number;
  /** Persist state in this folder (SQLite); default: memory only. */
  dataDir?: string;
  /**
   * Base URL the app believes it is served at (default
   * `http://mlplatform.local`). With a path (`http://host/api/v1`), the
   * in-process client sends its requests under it and the app, which
   * routes from the root, takes them as behind a proxy that removes it.
   */
  baseUrl?: string;
  /** Fault injection (off by default). */
  faults?: FaultOptions;
  /** `maximum_runtime_seconds` given to new jobs (default 3600). */
  maximumRuntimeSeconds?: number;
  /** Views with more rows than this are answered 202 + Location (default 1000). */
  viewsAsyncRows?: number;
  /** Views requests that may wait per deployed model beyond its concurrency (default 16). */
  viewsQueueSize?: number;
  /**
   * Awaited before each deployed model starts loading, so that it stays
   * `STARTING` until the promise settles (default: none). Lets a test or a
   * demo observe a deployment that is not running yet.
   */
  deploymentGate?: (deployedModelId: string) => Promise<void>;
  /** Request limits (body size, JSON nesting); also settable in the `--config` file. */
  limits?: RequestLimits;
  /** Where the app reports unexpected errors (default `console.error`). */
  logger?: (message: string, error?: unknown) => void;
}

/**
 * Limits every request body is held to before it is parsed, so that no
 * oversized or deeply nested value reaches the handlers or the store.
 */
export interface RequestLimits {
  /** Largest request body, in bytes; larger ones get a 413 (default 10 MiB). */
  maxBodyBytes?: number;
  /** Deepest nesting of arrays and objects in a JSON body; deeper gets a 400 (default 64). */
  maxJsonDepth?: number;
}

/** Default largest request body: 10 MiB (views requests go in 1,000-row chunks). */
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;
/** Default deepest JSON nesting (the API's own bodies nest 4 levels at most). */
export const DEFAULT_MAX_JSON_DEPTH = 64;

/**
 * The request limits after defaults; refuses values that are not positive
 * integers, naming the option.
 *
 * @example
 * ```ts
 * import { resolveLimits } from "./options.ts";
 * const l = resolveLimits({ maxJsonDepth: 8 });
 * if (l.maxJsonDepth !== 8 || l.maxBodyBytes !== 10 * 1024 * 1024) throw new Error();
 * ```
 */
export function resolveLimits(
  limits: RequestLimits = {},
): Required<RequestLimits> {
  const out = {
    maxBodyBytes: limits.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    maxJsonDepth: limits.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH,
  };
  for (const [name, value] of Object.entries(out)) {
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new Error(
        `limits.${name} must be a positive integer, got ${
          JSON.stringify(value)
        }; fix the option or the config file.`,
      );
    }
  }
  return out;
}

/** A credential pair after defaults. */
export interface Credential {
  /** The client id (`client_id` of the token call). */
  clientId: string;
  /** The client secret (`client_secret` of the token call). */
  clientSecret: string;
  /** The user the credentials act for (`created_by` of what they create). */
  user: { id: string; name: string };
}

/** An account after defaults. */
export interface OperatorAccount {
  /** Account id. */
  id: string;
  /** Account name. */
  name: string;
  /** `ACTIVE`, or any other status (which the platform answers 403 for). */
  status: string;
  /** The organisation the account belongs to. */
  organisation: { id: string; name: string };
  /** When the account was set up (ISO 8601). */
  created_at: string;
  /** The credential pairs that act in this account. */
  credentials: Credential[];
}

/** The operator setup after defaults. */
export interface Operator {
  /** Every organisation. */
  organisations: { id: string; name: string }[];
  /** Every account, with its credentials. */
  accounts: OperatorAccount[];
}

/**
 * Fills in the operator setup: one organisation, one ACTIVE account and one
 * random credential pair unless the options say otherwise.
 *
 * @param options Organisations, accounts and default credentials.
 * @param createdAt Timestamp for the accounts' `created_at`.
 *
 * @example
 * ```ts
 * import { resolveOperator } from "./options.ts";
 * const op = resolveOperator({ clientId: "me", clientSecret: "s3cret" });
 * if (op.accounts[0].credentials[0].clientId !== "me") throw new Error();
 * ```
 */
export function resolveOperator(
  options: LocalPlatformOptions,
  createdAt = timestamp(),
): Operator {
  const organisations =
    (options.organisations?.length
      ? options.organisations
      : [{ name: "Local organisation" }]).map((o) => ({
        id: o.id ?? `org_${randomHex(8)}`,
        name: o.name,
      }));
  const accounts = (options.accounts?.length ? options.accounts : [{
    name: "Local account",
    credentials: [{
      clientId: options.clientId ?? `local-${randomHex(8)}`,
      clientSecret: options.clientSecret ?? randomHex(24),
    }],
  }]).map((a): OperatorAccount => {
    const organisation = a.organisation === undefined
      ? organisations[0]
      : organisations.find((o) => o.id === a.organisation);
    if (!organisation) {
      throw new Error(
        `Account "${a.name}" names organisation "${a.organisation}", which is not among the configured organisations (${
          organisations.map((o) => o.id).join(", ")
        }). Fix the operator config.`,
      );
    }
    const credentials = (a.credentials?.length ? a.credentials : [{
      clientId: `local-${randomHex(8)}`,
      clientSecret: randomHex(24),
    }]).map((c) => ({
      clientId: c.clientId,
      clientSecret: c.clientSecret,
      user: {
        id: c.userId ?? `usr_${c.clientId.replace(/[^\w-]/g, "")}`,
        name: c.user ?? "API user",
      },
    }));
    return {
      id: a.id ?? `acc_${randomHex(8)}`,
      name: a.name,
      status: a.status ?? "ACTIVE",
      organisation,
      created_at: createdAt,
      credentials,
    };
  });
  const seen = new Set<string>();
  for (const c of accounts.flatMap((a) => a.credentials)) {
    if (seen.has(c.clientId)) {
      throw new Error(
        `client_id "${c.clientId}" is configured twice; every credential pair needs its own client_id.`,
      );
    }
    seen.add(c.clientId);
  }
  return { organisations, accounts };
}

/** A name, id or secret of the config file: a string with something in it. */
const nonEmpty = z.string().min(1);
/** A number of the config file (each is checked further where it is used). */
const num = z.number();

/**
 * What a `--config` file may hold: the operator setup, buckets and limits,
 * and the options of {@linkcode LocalPlatformOptions} that JSON can say. An
 * unknown key (`"port"`, a misspelt `"bucket"`) is refused, not ignored.
 */
const ConfigFileSchema = z.strictObject({
  organisations: z.array(
    z.strictObject({ id: nonEmpty.optional(), name: nonEmpty }),
  )
    .optional(),
  accounts: z.array(z.strictObject({
    id: nonEmpty.optional(),
    name: nonEmpty,
    status: nonEmpty.optional(),
    organisation: nonEmpty.optional(),
    credentials: z.array(z.strictObject({
      clientId: nonEmpty,
      clientSecret: nonEmpty,
      user: nonEmpty.optional(),
      userId: nonEmpty.optional(),
    })).optional(),
  })).optional(),
  buckets: ownRecord(nonEmpty).optional(),
  limits: z.strictObject({
    maxBodyBytes: num.optional(),
    maxJsonDepth: num.optional(),
  }).optional(),
  clientId: nonEmpty.optional(),
  clientSecret: nonEmpty.optional(),
  tokenTtlSeconds: num.optional(),
  dataDir: nonEmpty.optional(),
  baseUrl: nonEmpty.optional(),
  faults: z.strictObject({
    error500: num.optional(),
    rateLimit429: num.optional(),
    accepted202: num.optional(),
    answerLost: num.optional(),
    slow: num.optional(),
    slowMs: num.optional(),
    latencyMs: num.optional(),
    retryAfterSeconds: num.optional(),
    seed: num.optional(),
  }).optional(),
  maximumRuntimeSeconds: num.optional(),
  viewsAsyncRows: num.optional(),
  viewsQueueSize: num.optional(),
}) satisfies z.ZodType<LocalPlatformOptions>;

/**
 * Reads a JSON config file (operator setup and buckets) with `node:fs`, so it
 * works under Deno and Node alike, and checks its shape: a file of the wrong
 * shape (`null`, an array, `"accounts": "x"`, a number for a client id) is
 * refused naming each wrong field, where it failed later as a TypeError
 * ("c.clientId.replace is not a function") or was taken as empty. Neither
 * message repeats the file's text or values: it may hold secrets.
 *
 * @throws {Error} When the file cannot be read, is not JSON, or is not of
 * the shape above.
 *
 * @example
 * ```ts
 * import { readConfigFile } from "./options.ts";
 * const file = await Deno.makeTempFile({ suffix: ".json" });
 * await Deno.writeTextFile(file, JSON.stringify({ buckets: { demo: "." } }));
 * if ((await readConfigFile(file)).buckets?.demo !== ".") throw new Error();
 * await Deno.writeTextFile(file, JSON.stringify({ accounts: [{ name: "a", credentials: [{ clientId: 5 }] }] }));
 * const refused = await readConfigFile(file).then(() => "", (e) => e.message);
 * if (!refused.includes("accounts.0.credentials.0.clientId")) throw new Error(refused);
 * await Deno.remove(file);
 * ```
 */
export async function readConfigFile(
  path: string,
): Promise<LocalPlatformOptions> {
  const { readFile } = await import("node:fs/promises");
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (cause) {
    throw new Error(
      `Cannot read the config file "${path}": ${
        messageOf(cause)
      }. Check the path.`,
      { cause },
    );
  }
  // A byte-order mark (Windows Notepad and PowerShell write one) is not
  // JSON, but it is no part of the setup either: it read as "Unexpected
  // token".
  if (text.startsWith("\uFEFF")) text = text.slice(1);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new Error(
      `The config file "${path}" is not valid JSON: ${
        withoutQuotedText(messageOf(cause), text)
      }.`,
    );
  }
  const parsed = ConfigFileSchema.safeParse(value);
  if (!parsed.success) {
    throw new Error(
      `The config file "${path}" is not a setup the local platform reads: ${
        parsed.error.issues.map((i) =>
          `${issuePath(i.path) || "the file"}: ${i.message}`
        ).join("; ")
      }. A config file is a JSON object of organisations, accounts, buckets, limits and other options of the platform (README, "The local platform over HTTP").`,
    );
  }
  return parsed.data;
}

/**
 * A `JSON.parse` message without the text it quotes (V8 quotes the 10
 * characters either side of an unexpected token, or the whole text when it
 * is short): a config file holds secrets, and the message goes to the
 * console. Where the quoted text is found once, its line and column say
 * where instead.
 */
function withoutQuotedText(message: string, text: string): string {
  const quoted =
    /^(Unexpected token) .+?, (\.\.\.)?"([\s\S]*)"(?:\.\.\.)? is not valid JSON$/
      .exec(message);
  if (!quoted) return message;
  const [, what, cut, context] = quoted;
  const at = text.indexOf(context);
  const unique = at >= 0 && text.indexOf(context, at + 1) < 0;
  if (!cut || !unique) {
    return `${what} (the text is not repeated here: it may hold secrets)`;
  }
  const before = text.slice(0, at + 10).split("\n");
  return `${what} at line ${before.length} column ${
    before[before.length - 1].length + 1
  } (the text is not repeated here: it may hold secrets)`;
}
