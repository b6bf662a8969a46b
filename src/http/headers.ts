/**
 * The headers of the transport's calls: accept, the client's, the route's
 * own (`X-Active-Workspace`, `X-Views-Cache-Control`), the call's, then
 * `content-type` for a body. A call that adds no headers of its own (no
 * `headers` or `workspaceId` option: most) sends its route's, built once
 * per transport and frozen, and their copy with the bearer token is kept
 * until the token changes; building them per call cost two objects a call
 * on the hot path (views, gets).
 *
 * @module
 */
import type { Route } from "../schemas/routes.ts";
import { ConfigurationError } from "./errors.ts";
import { authorized, type Outgoing } from "./exchange.ts";
import type { CallOptions, TransportSettings } from "./settings.ts";

/** What the headers of a call depend on, of the transport's settings. */
export type HeaderSettings = Pick<
  TransportSettings,
  "headers" | "workspaceId" | "viewsCacheControl"
>;

/**
 * The headers of one transport's calls.
 *
 * @example
 * ```ts
 * import { CallHeaders } from "./headers.ts";
 * import { routes } from "../schemas/routes.ts";
 * const headers = new CallHeaders({ viewsCacheControl: "no-cache" });
 * const route = routes.deployedModels.views;
 * const sent = headers.of(route, {}, true);
 * if (sent !== headers.of(route, {}, true)) throw new Error("built twice");
 * if (sent["x-views-cache-control"] !== "no-cache" || sent["content-type"] !== "application/json") throw new Error();
 * const outgoing = { method: "POST", url: "https://h.invalid/x", sameOrigin: true, headers: sent };
 * if (headers.signed(outgoing, "t").authorization !== "Bearer t") throw new Error();
 * if (headers.of(route, { headers: { a: "1" } }, true) === sent) throw new Error("own headers shared");
 * ```
 */
export class CallHeaders {
  readonly #settings: HeaderSettings;
  /** Per route, the shared headers of calls without a body. */
  readonly #plain = new Map<Route, Record<string, string>>();
  /** The same for calls with a body (`content-type` added). */
  readonly #typed = new Map<Route, Record<string, string>>();
  /** Shared headers with the token, while it is the current one. */
  readonly #signed = new WeakMap<
    Record<string, string>,
    { token: string | undefined; headers: Record<string, string> }
  >();

  /** Headers from `settings` (read at each call's first use of a route). */
  constructor(settings: HeaderSettings) {
    this.#settings = settings;
  }

  /**
   * Whether a call with `options` sends its route's shared headers (it
   * adds none of its own).
   */
  static shares(options: CallOptions): boolean {
    return options.headers === undefined && options.workspaceId === undefined;
  }

  /**
   * The headers of a call of `route` with `options`, with `content-type`
   * when `typed` (a body is sent): the route's shared, frozen object when
   * {@linkcode CallHeaders.shares} says so, a fresh one otherwise. Throws a
   * `ConfigurationError` for a workspace route without a workspace.
   */
  of(
    route: Route,
    options: CallOptions,
    typed: boolean,
  ): Record<string, string> {
    if (!CallHeaders.shares(options)) {
      const headers = this.#build(route, options);
      if (typed) headers["content-type"] = "application/json";
      return headers;
    }
    const cache = typed ? this.#typed : this.#plain;
    let headers = cache.get(route);
    if (headers === undefined) {
      headers = this.#build(route, options);
      if (typed) headers["content-type"] = "application/json";
      cache.set(route, Object.freeze(headers));
    }
    return headers;
  }

  /**
   * `authorized(outgoing, token)` (exchange.ts), kept for shared headers
   * until the token changes instead of copied per call.
   */
  signed(
    outgoing: Outgoing,
    token: string | undefined,
  ): Record<string, string> {
    // Frozen headers cannot change under the kept copy; another origin
    // gets no token (and no kept copy).
    if (!outgoing.sameOrigin || !Object.isFrozen(outgoing.headers)) {
      return authorized(outgoing, token);
    }
    const signed = this.#signed.get(outgoing.headers);
    if (signed !== undefined && signed.token === token) return signed.headers;
    const headers = Object.freeze(authorized(outgoing, token));
    this.#signed.set(outgoing.headers, { token, headers });
    return headers;
  }

  /**
   * The headers of one call, in one object: accept, the client's, the
   * route's own (workspace, views cache), then the call's.
   */
  #build(route: Route, options: CallOptions): Record<string, string> {
    const headers: Record<string, string> = {
      accept: "application/json",
      ...this.#settings.headers,
    };
    if (route.workspace) {
      const workspace = options.workspaceId ?? this.#settings.workspaceId;
      if (!workspace) {
        throw new ConfigurationError({
          message:
            `${route.method} ${route.path} needs a workspace (X-Active-Workspace)`,
          hint:
            "Pass { workspaceId } to this call or to the client options; create one with client.workspaces.create({ name })",
        });
      }
      headers["x-active-workspace"] = workspace;
    }
    if (route.views && this.#settings.viewsCacheControl !== false) {
      headers["x-views-cache-control"] = this.#settings.viewsCacheControl;
    }
    return options.headers ? { ...headers, ...options.headers } : headers;
  }
}
