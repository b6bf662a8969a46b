/**
 * `@mlplatform/sdk/local`: the whole platform (docs/api.md) in-process, offline,
 * on your own CSV files: a real model, real explanations, no account.
 *
 * - {@linkcode local} starts it and returns an {@linkcode MLPlatform}
 *   connected to it (no socket: the client's fetch is the app's own).
 * - {@linkcode createLocalPlatform} gives the app itself, to serve over HTTP
 *   (`deno task local`) or to wire by hand.
 *
 * This entry loads Hono, jose and the model; the root entry (`connect()` and
 * everything a client needs) loads none of them.
 *
 * @example Offline, from a CSV to explained predictions
 * ```ts
 * import { local } from "./local.ts";
 *
 * const ml = await local({ buckets: { data: "datasets" }, progress: false });
 * const { deployment } = await ml.quickstart({
 *   bucket: "data",
 *   path: "penguins.csv",
 *   target: "species",
 *   // A quick model (one estimator, at most 100 rounds); omit for the defaults.
 *   training: { estimators: 1, maxRounds: 100 },
 * });
 * const result = await deployment.views({
 *   island: ["Biscoe"],
 *   bill_length_mm: [45.2],
 *   bill_depth_mm: [14.8],
 *   flipper_length_mm: [212],
 *   body_mass_g: [5200],
 *   sex: ["female"],
 * });
 * console.log(result.rows()[0]["prediction.species"]); // "Gentoo"
 * await ml.close();
 * ```
 *
 * @module
 */
import type { ClientOptions } from "./src/client.ts";
import { errorFromResponse } from "./src/http/error_mapping.ts";
import { ConfigurationError, MLPlatformError } from "./src/http/errors.ts";
import type { PollOptions } from "./src/jobs/poll_schedule.ts";
import { HttpError } from "./src/local/errors.ts";
import type { LocalPlatformOptions } from "./src/local/options.ts";
import type { LocalPlatform } from "./src/local/local_platform.ts";
import { createLocalClient, type LocalClient } from "./src/local/mod.ts";
import { MLPlatform, type MLPlatformOptions } from "./src/platform.ts";

export { createLocalPlatform } from "./src/local/local_platform.ts";
export type { LocalPlatform } from "./src/local/local_platform.ts";
export type {
  AccountConfig,
  Credential,
  CredentialConfig,
  LocalPlatformOptions,
  Operator,
  OperatorAccount,
  OperatorConfig,
  OrganisationConfig,
  RequestLimits,
} from "./src/local/options.ts";
export type { FaultOptions } from "./src/local/http/faults.ts";

/** Options of {@linkcode local}: the platform's, plus the client's. */
export type LocalOptions =
  & LocalPlatformOptions
  & Partial<Omit<MLPlatformOptions, keyof ClientOptions>>
  & {
    /** Client options (timeouts, retries, ...) for the connected client. */
    client?: Partial<ClientOptions>;
  };

/**
 * How `local()`'s platform polls its jobs unless told otherwise: from 10 ms,
 * growing by half each poll to 100 ms. In-process, a poll is a function call,
 * and most jobs end in milliseconds: the service's schedule (240 ms first)
 * made every step of a small workflow wait a quarter of a second. The cap
 * was 1 s: a training's result then waited up to a second after its job
 * ended (a 2.7 s training of 80,000 rows was answered at 3.6 s, a quarter
 * of its time; BENCHMARKS.md section 7, "The large churn tables: memory
 * and fit").
 *
 * @example
 * ```ts
 * import { LOCAL_POLL } from "./local.ts";
 * if (!(LOCAL_POLL.initialDelay! < 240)) throw new Error("example failed");
 * ```
 */
export const LOCAL_POLL: PollOptions = Object.freeze({
  initialDelay: 10,
  factor: 1.5,
  maxDelay: 100,
});

/** An {@linkcode MLPlatform} connected to an in-process local platform. */
export interface LocalMLPlatform extends MLPlatform {
  /** The platform the client talks to. */
  readonly platform: LocalPlatform;
  /**
   * Stops the platform's background work (its running jobs end `FAILED`)
   * and closes its store. Calling it again waits for the same close. Every
   * call made after it (a job's poll too) is refused with a
   * `ConfigurationError` saying so: start another with `local()` (with the
   * same `dataDir` to find what was persisted).
   */
  close(): Promise<void>;
}

/**
 * The platform refuses a bad bucket or path with its own HttpError: the
 * SDK's caller gets the typed error a call over HTTP gives (ValidationError
 * naming the field), not the server's class.
 */
const typed = (bucket: string, path: string) => (error: unknown): never => {
  if (!(error instanceof HttpError)) throw error;
  throw errorFromResponse({
    status: error.status,
    headers: new Headers(error.headers),
    body: error.body,
    operation: `reading "${path}" of bucket "${bucket}"`,
  });
};

/**
 * Runs the whole platform (docs/api.md) in-process (no socket, no account) and
 * returns an {@linkcode MLPlatform} connected to it. Map bucket names to
 * local folders with `buckets`; persist everything with `dataDir`.
 *
 * @throws {ConfigurationError} When the platform cannot start (a bad
 *   option, a config file that does not read, `dataDir` on a runtime
 *   without `node:sqlite`), in the platform's words; its error is `cause`.
 *
 * @example
 * ```ts
 * import { local } from "./local.ts";
 * const ml = await local({ progress: false });
 * const [account] = (await ml.accounts.list()).data;
 * console.log(account.status); // "ACTIVE"
 * await ml.close();
 * ```
 *
 * @example A closed platform answers nothing more
 * ```ts
 * import { local } from "./local.ts";
 * import { ConfigurationError } from "./mod.ts";
 * const ml = await local({ progress: false });
 * await ml.close();
 * await ml.close(); // the same close, again
 * const refused = await ml.workspaces.list().then(() => undefined, (e) => e);
 * if (!(refused instanceof ConfigurationError)) throw new Error(String(refused));
 * ```
 */
export async function local(
  options: LocalOptions = {},
): Promise<LocalMLPlatform> {
  const { client, progress, poll = LOCAL_POLL, ...platformOptions } = options;
  // Set by close(): every later call is refused, not answered by a
  // platform whose jobs no longer run (in memory) or whose store is
  // closed (a 500 and a stack trace with dataDir).
  let closing: Promise<void> | undefined;
  const ml: LocalClient<MLPlatform> = await createLocalClient(
    { ...platformOptions, client },
    (o) =>
      new MLPlatform({
        ...o,
        fetch: (input, init) =>
          closing ? Promise.reject(closedError(input)) : o.fetch!(input, init),
        progress,
        poll,
        readObject: (bucket, path) =>
          closing
            ? Promise.reject(closedError())
            : ml.platform.readObject(bucket, path).catch(typed(bucket, path)),
        streamObject: (bucket, path, use) =>
          closing
            ? Promise.reject(closedError())
            : ml.platform.streamObject(bucket, path, use).catch(
              typed(bucket, path),
            ),
      }),
  ).catch((error: unknown) => {
    throw startError(error);
  });
  return Object.defineProperty(ml, "close", {
    value: () => (closing ??= ml.platform.close()),
    enumerable: false,
  }) as LocalMLPlatform;
}

/**
 * What `local()` throws when the platform cannot start (a bad option, a
 * config file that does not read, persistence on a runtime without
 * `node:sqlite`): a `ConfigurationError` with the platform's own words,
 * which say what to change; the platform's error is its `cause`.
 */
function startError(error: unknown): unknown {
  if (error instanceof MLPlatformError) return error;
  return new ConfigurationError({
    message: `local() could not start the platform: ${
      error instanceof Error ? error.message : String(error)
    }`,
    cause: error,
  });
}

/** The error of a call made after `close()`. */
function closedError(input?: RequestInfo | URL): ConfigurationError {
  const request = input instanceof Request
    ? ` (${input.method} ${new URL(input.url).pathname})`
    : "";
  return new ConfigurationError({
    message: `This local() platform was closed${request}: its jobs were ` +
      "stopped and its store closed, so it answers no more calls",
    hint:
      "Start another with local() (with the same dataDir to find what it persisted), and close it when done",
  });
}
