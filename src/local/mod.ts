/**
 * The local platform: the whole service in-process, for offline work,
 * notebooks and tests. {@linkcode createLocalClient} gives a client already
 * connected to it (no socket: the client's fetch is the app's own; the
 * package's `local()` in local.ts is built on it); `createLocalPlatform()`
 * gives the app itself, to serve over HTTP (`deno task local`) or to wire by
 * hand.
 *
 * @example
 * ```ts
 * import { Client } from "../client.ts";
 * import { createLocalClient } from "./mod.ts";
 * const ml = await createLocalClient({}, (o) => new Client(o));
 * const page = await ml.workspaces.list();
 * if (page.pagination.total_items !== 0) throw new Error();
 * await ml.platform.close();
 * ```
 *
 * @module
 */
import type { ClientOptions } from "../client.ts";
import { createLocalPlatform, type LocalPlatform } from "./local_platform.ts";
import type { LocalPlatformOptions } from "./options.ts";

export { createLocalPlatform, type LocalPlatform } from "./local_platform.ts";
export type {
  AccountConfig,
  CredentialConfig,
  LocalPlatformOptions,
  OperatorConfig,
  OrganisationConfig,
} from "./options.ts";
export { type FaultOptions, parseFaults } from "./http/faults.ts";
export { openApiDocument } from "./http/openapi.ts";

/** A client connected to a local platform, with the platform at hand. */
export type LocalClient<C> = C & {
  /** The platform the client talks to (`close()` it when done). */
  readonly platform: LocalPlatform;
};

/**
 * Starts a local platform and returns a client connected to it through the
 * app's own fetch, with the default account's credentials. `makeClient`
 * chooses the client class (the SDK's `local()` passes its `MLPlatform`).
 *
 * @example
 * ```ts
 * import { Client } from "../client.ts";
 * import { createLocalClient } from "./mod.ts";
 * const ml = await createLocalClient({}, (o) => new Client(o));
 * const accounts = await ml.accounts.list();
 * if (accounts.data[0].status !== "ACTIVE") throw new Error();
 * await ml.platform.close();
 * ```
 */
export async function createLocalClient<C extends object>(
  options: LocalPlatformOptions & { client?: Partial<ClientOptions> },
  makeClient: (options: ClientOptions) => C,
): Promise<LocalClient<C>> {
  const { client: clientOptions, ...platformOptions } = options;
  const platform = await createLocalPlatform(platformOptions);
  const client = makeClient({
    // In-process calls are cheap: poll 202 results quickly.
    pollInterval: 25,
    ...clientOptions,
    baseUrl: platform.baseUrl,
    clientId: platform.credentials.clientId,
    clientSecret: platform.credentials.clientSecret,
    // The transport already hands over a Request: no second copy.
    fetch: (input, init) =>
      platform.fetch(
        input instanceof Request && init === undefined
          ? input
          : new Request(input, init),
      ),
  });
  attachPlatform(client, platform);
  return client;
}

/** Gives `client` its platform, not enumerable (spreads and JSON leave it out). */
function attachPlatform<C extends object>(
  client: C,
  platform: LocalPlatform,
): asserts client is LocalClient<C> {
  Object.defineProperty(client, "platform", {
    value: platform,
    enumerable: false,
  });
}
