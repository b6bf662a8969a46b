/**
 * The generic resource collection: `get`, `list`, `iterate` and `delete`
 * for every collection, and `create` for those the caller may create. Each
 * method is one route of the route table sent through the transport, so
 * validation, errors, retries and polling are the same everywhere.
 *
 * @module
 */
import type { z } from "zod";
import {
  type ListQuery,
  ListQuerySchema,
  type Page,
} from "../schemas/common.ts";
import type { Route } from "../schemas/routes.ts";
import { paginate } from "../http/pagination.ts";
import type {
  CallOptions,
  RequestOptions,
  Transport,
} from "../http/transport.ts";
import { parseRequest } from "../http/parse.ts";
import { ValidationError } from "../http/errors.ts";
import { displayPage, displayResource, kindOf } from "./display.ts";

/** The routes of a collection that can be read and deleted. */
export interface ReadRoutes {
  /** `GET /{collection}/{id}`. */
  readonly get: Route;
  /** `GET /{collection}`. */
  readonly list: Route;
  /** `DELETE /{collection}/{id}`. */
  readonly delete: Route;
}

/** The routes of a collection that can also be created. */
export interface CrudRoutes extends ReadRoutes {
  /** `POST /{collection}`. */
  readonly create: Route;
}

/**
 * A collection the service fills (datasources, datasets, models): read,
 * list, iterate, delete.
 *
 * @example
 * ```ts
 * import { ReadOnlyCollection } from "./collection.ts";
 * import { Client } from "../client.ts";
 * const client = new Client({
 *   baseUrl: "https://mlp.invalid",
 *   clientId: "id",
 *   clientSecret: "secret",
 *   fetch: (req) => {
 *     const path = new URL((req as Request).url).pathname;
 *     return Promise.resolve(Response.json(path === "/oauth/token"
 *       ? { access_token: "t", token_type: "Bearer", expires_in: 3600 }
 *       : { data: [], pagination: { total_items: 0, items_per_page: 10, current_page: 1, total_pages: 0 } }));
 *   },
 * });
 * const datasets = client.datasets;
 * console.log(datasets instanceof ReadOnlyCollection); // true
 * console.log((await datasets.list()).data.length); // 0
 * ```
 */
export class ReadOnlyCollection<T, R extends ReadRoutes = ReadRoutes> {
  /** The transport the calls go through. */
  protected readonly transport: Transport;
  /** This collection's routes. */
  protected readonly routes: R;
  /** What an item is called on its notebook card, e.g. `"Training job"`. */
  protected readonly kind: string;

  /** Binds a route group to a transport. */
  constructor(transport: Transport, routes: R) {
    this.transport = transport;
    this.routes = routes;
    this.kind = kindOf(routes.get);
  }

  /** Retrieves one item by id (404 gives `NotFoundError`). */
  get(id: string, options?: RequestOptions): Promise<T> {
    return this.callForItem(this.routes.get, { ...options, params: { id } });
  }

  /** Sends one call of `route` that answers with an item (shown as this collection's card). */
  protected async callForItem(route: Route, call: CallOptions): Promise<T> {
    const item = await this.transport.call(route, call);
    return displayResource(item as T, this.kind);
  }

  /** One page of the collection (`page` from 1, `items_per_page` up to 100). */
  async list(
    query: ListQuery = {},
    options?: RequestOptions,
  ): Promise<Page<T>> {
    const page = await this.transport.call(this.routes.list, {
      ...options,
      query: listQuery(query, `GET ${this.routes.list.path}`),
    });
    return displayPage(page as Page<T>, this.kind);
  }

  /** Every item of every page from `query.page` on: `for await (const x of c.iterate())`. */
  iterate(query: ListQuery = {}, options?: RequestOptions): AsyncIterable<T> {
    return checkedPages(
      query,
      `GET ${this.routes.list.path}`,
      (q) => this.list(q, options),
    );
  }

  /**
   * Deletes one item. Resolves when it is gone; a 409 with dependants gives
   * a `ConflictError` listing them.
   */
  async delete(id: string, options?: RequestOptions): Promise<void> {
    await this.transport.call(this.routes.delete, {
      ...options,
      params: { id },
    });
  }
}

/**
 * A collection the caller creates items in.
 *
 * @example
 * ```ts
 * import { Client } from "../client.ts";
 * import { ValidationError } from "../http/errors.ts";
 * const client = new Client({ baseUrl: "https://mlp.invalid", clientId: "id", clientSecret: "s",
 *   fetch: () => Promise.reject(new Error("never called: the body is refused first")) });
 * try {
 *   await client.workspaces.create({ name: "" });
 * } catch (error) {
 *   console.log(error instanceof ValidationError); // true
 * }
 * ```
 */
export class Collection<TCreate, T, R extends CrudRoutes = CrudRoutes>
  extends ReadOnlyCollection<T, R> {
  /**
   * Creates an item. The body is validated (and defaults applied) before
   * sending; a create is not repeated once it may have reached the service.
   */
  create(body: TCreate, options?: RequestOptions): Promise<T> {
    return this.callForItem(this.routes.create, { ...options, body });
  }
}

/**
 * Validates list parameters like a body (defaults applied): a bad page size
 * is caught before sending, as a `ValidationError`.
 *
 * @example
 * ```ts
 * import { listQuery } from "./collection.ts";
 * import { ListQuerySchema } from "../schemas/common.ts";
 * listQuery({ page: 2 }, "GET /workspaces"); // { page: 2, items_per_page: 10 }
 * // Without parameters: zod's defaults, as zod gives them.
 * const page = listQuery({}, "GET /workspaces");
 * if (JSON.stringify(page) !== JSON.stringify(ListQuerySchema.parse({}))) throw new Error();
 * ```
 */
export function listQuery(
  query: ListQuery,
  operation: string,
): z.output<typeof ListQuerySchema> {
  if (typeof query === "object" && query !== null && !Array.isArray(query)) {
    refuseUnknownListKeys(query, operation);
    // The common call, a page without parameters: zod's answer for an
    // object that gives neither is always its defaults (a copy of them, as
    // zod returns a new object each time).
    if (query.page === undefined && query.items_per_page === undefined) {
      return { ...(listDefaults ??= ListQuerySchema.parse({})) };
    }
  }
  return parseRequest(
    ListQuerySchema,
    query,
    `list parameters for ${operation}`,
  );
}

/**
 * {@link paginate} of a list whose parameters are checked before the first
 * page is asked for (paginate passes on only `page` and `items_per_page`,
 * so a key that is no list parameter was dropped there without a word).
 */
export async function* checkedPages<T>(
  query: ListQuery,
  operation: string,
  fetchPage: Parameters<typeof paginate<T>>[0],
): AsyncGenerator<T, void, undefined> {
  listQuery(query, operation);
  yield* paginate(fetchPage, query);
}

/** Options of one request, which belong in a list call's second argument. */
const REQUEST_OPTIONS = new Set(["signal", "timeout", "headers"]);

// A list parameter that is not one was dropped without a word: a signal
// given first (list({ signal })) never aborted, itemsPerPage gave 10 a
// page. Refused like a bad page size, naming the key.
function refuseUnknownListKeys(query: object, operation: string): void {
  let issues: { path: string; message: string }[] | undefined;
  for (const key of Object.keys(query)) {
    if (key === "page" || key === "items_per_page") continue;
    const squashed = key.replace(/[_\s-]/g, "").toLowerCase();
    (issues ??= []).push({
      path: key,
      message: REQUEST_OPTIONS.has(key)
        ? `"${key}" is a request option: pass it as the second argument, list({}, { ${key} })`
        : squashed === "itemsperpage" || squashed === "pagesize" ||
            squashed === "limit"
        ? `not a list parameter: did you mean "items_per_page"?`
        : `not a list parameter (page, items_per_page)`,
    });
  }
  if (issues) {
    // The same error as the parameters' zod check in listQuery.
    throw new ValidationError({
      message: `Invalid list parameters for ${operation}, nothing was sent`,
      issues,
    });
  }
}

/** `ListQuerySchema`'s output for `{}`, parsed at the first list call. */
let listDefaults: z.output<typeof ListQuerySchema> | undefined;
