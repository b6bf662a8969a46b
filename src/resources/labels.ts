/**
 * A data schema's labels (docs/contract.md#labels-and-anchors): friendly
 * names, category names, units, dimensions and data anchors, each a
 * collection under its schema.
 *
 * @module
 */
import type { ListQuery, Page } from "../schemas/common.ts";
import type { Route } from "../schemas/routes.ts";
import type { RequestOptions, Transport } from "../http/transport.ts";
import { listQuery } from "./collection.ts";

/** The routes of one label collection. */
export interface LabelRoutes {
  /** `POST /data-schemas/{id}/...`. */
  readonly create: Route;
  /** `GET /data-schemas/{id}/...`. */
  readonly list: Route;
  /** `GET /data-schemas/{id}/.../{label_id}`. */
  readonly get: Route;
  /** `DELETE /data-schemas/{id}/.../{label_id}`. */
  readonly delete: Route;
}

/**
 * The parent an item lives under: its id, or every path parameter but the
 * item's (a protected field: `{ id, protection_id }`).
 */
export type Parent = string | Readonly<Record<string, string>>;

function paramsOf(parent: Parent): Record<string, string> {
  return typeof parent === "string" ? { id: parent } : { ...parent };
}

/** The routes of a collection under a parent, read and deleted only. */
export interface ChildRoutes {
  /** `GET {parent}/...`. */
  readonly list: Route;
  /** `GET {parent}/.../{item}`. */
  readonly get: Route;
  /** `DELETE {parent}/.../{item}`. */
  readonly delete: Route;
}

/**
 * A collection under a parent resource (a training job's model constraints,
 * a data schema's labels or protections): every call names the parent first.
 *
 * @example
 * ```ts
 * import { Client } from "../client.ts";
 * const seen: string[] = [];
 * const client = new Client({ baseUrl: "https://mlp.invalid", clientId: "id", clientSecret: "s",
 *   fetch: (input) => {
 *     const url = String(input instanceof Request ? input.url : input);
 *     seen.push(url);
 *     return Promise.resolve(url.endsWith("/oauth/token")
 *       ? Response.json({ access_token: "t", token_type: "Bearer", expires_in: 3600 })
 *       : new Response(null, { status: 204 }));
 *   } });
 * await client.modelConstraints.delete("tj_1", "mcn_1");
 * if (!seen.at(-1)!.endsWith("/training-jobs/tj_1/model-constraints/mcn_1")) throw new Error(seen.join());
 * ```
 */
export class ChildCollection<T> {
  readonly #transport: Transport;
  readonly #routes: ChildRoutes;
  /** The item's path parameter, as the route names it (`label_id`). */
  readonly #param: string;

  /** Binds a route group under a parent to a transport. */
  constructor(transport: Transport, routes: ChildRoutes) {
    this.#transport = transport;
    this.#routes = routes;
    this.#param = /\{(\w+)\}$/.exec(routes.get.path)?.[1] ?? "label_id";
  }

  /** One page of the parent's items of this kind. */
  async list(
    parent: Parent,
    query: ListQuery = {},
    options?: RequestOptions,
  ): Promise<Page<T>> {
    return await this.#transport.call(this.#routes.list, {
      ...options,
      params: paramsOf(parent),
      query: listQuery(query, `GET ${this.#routes.list.path}`),
    }) as Page<T>;
  }

  /** One item by id. */
  async get(
    parent: Parent,
    itemId: string,
    options?: RequestOptions,
  ): Promise<T> {
    return await this.#transport.call(this.#routes.get, {
      ...options,
      params: { ...paramsOf(parent), [this.#param]: itemId },
    }) as T;
  }

  /**
   * Deletes an item; while something uses it (a deployed model shows a
   * label, a model was trained under a protection or a constraint), a
   * `ConflictError` lists what does.
   */
  async delete(
    parent: Parent,
    itemId: string,
    options?: RequestOptions,
  ): Promise<void> {
    await this.#transport.call(this.#routes.delete, {
      ...options,
      params: { ...paramsOf(parent), [this.#param]: itemId },
    });
  }
}

/**
 * One label collection of data schemas: every call names the schema first.
 *
 * @example
 * ```ts
 * import { Client } from "../client.ts";
 * import { ValidationError } from "../http/errors.ts";
 * const client = new Client({ baseUrl: "https://mlp.invalid", clientId: "id", clientSecret: "s",
 *   fetch: () => Promise.reject(new Error("never called: the body is refused first")) });
 * try {
 *   await client.friendlyNames.create("dsch_1", { field_name: "tenure", friendly_name: "" });
 * } catch (error) {
 *   console.log(error instanceof ValidationError); // true
 * }
 * ```
 */
export class LabelCollection<TCreate, T> extends ChildCollection<T> {
  readonly #transport: Transport;
  readonly #create: Route;

  /** Binds a label route group to a transport. */
  constructor(transport: Transport, routes: LabelRoutes) {
    super(transport, routes);
    this.#transport = transport;
    this.#create = routes.create;
  }

  /** Adds a label to the schema `schemaId` (400 names a field that does not fit). */
  async create(
    schemaId: string,
    body: TCreate,
    options?: RequestOptions,
  ): Promise<T> {
    return await this.#transport.call(this.#create, {
      ...options,
      params: { id: schemaId },
      body,
    }) as T;
  }
}
