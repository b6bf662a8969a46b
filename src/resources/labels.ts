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
export class LabelCollection<TCreate, T> {
  readonly #transport: Transport;
  readonly #routes: LabelRoutes;

  /** Binds a label route group to a transport. */
  constructor(transport: Transport, routes: LabelRoutes) {
    this.#transport = transport;
    this.#routes = routes;
  }

  /** Adds a label to the schema `schemaId` (400 names a field that does not fit). */
  async create(
    schemaId: string,
    body: TCreate,
    options?: RequestOptions,
  ): Promise<T> {
    return await this.#transport.call(this.#routes.create, {
      ...options,
      params: { id: schemaId },
      body,
    }) as T;
  }

  /** One page of the schema's labels of this kind. */
  async list(
    schemaId: string,
    query: ListQuery = {},
    options?: RequestOptions,
  ): Promise<Page<T>> {
    return await this.#transport.call(this.#routes.list, {
      ...options,
      params: { id: schemaId },
      query: listQuery(query, `GET ${this.#routes.list.path}`),
    }) as Page<T>;
  }

  /** One label by id. */
  async get(
    schemaId: string,
    labelId: string,
    options?: RequestOptions,
  ): Promise<T> {
    return await this.#transport.call(this.#routes.get, {
      ...options,
      params: { id: schemaId, label_id: labelId },
    }) as T;
  }

  /**
   * Deletes a label; while a deployed model shows it, a `ConflictError`
   * lists those deployed models.
   */
  async delete(
    schemaId: string,
    labelId: string,
    options?: RequestOptions,
  ): Promise<void> {
    await this.#transport.call(this.#routes.delete, {
      ...options,
      params: { id: schemaId, label_id: labelId },
    });
  }
}
