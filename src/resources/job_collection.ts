/**
 * Job collections (ingestion, onboarding and training jobs): a collection
 * plus `cancel`, our extension of the published API, docs/contract.md#jobs-and-deployments (`POST /{jobs}/{id}/cancel`).
 *
 * @module
 */
import type { Route } from "../schemas/routes.ts";
import type { RequestOptions } from "../http/transport.ts";
import { Collection, type CrudRoutes } from "./collection.ts";

/** The routes of a job collection: the usual four and `cancel`. */
export interface JobRoutes extends CrudRoutes {
  /** `POST /{collection}/{id}/cancel`. */
  readonly cancel: Route;
}

/**
 * A collection of jobs, which can also be cancelled.
 *
 * @example
 * ```ts
 * import { Client } from "../client.ts";
 * const client = new Client({
 *   baseUrl: "https://mlp.invalid", clientId: "id", clientSecret: "s",
 *   fetch: (req) => {
 *     const url = new URL((req as Request).url);
 *     return Promise.resolve(Response.json(url.pathname === "/oauth/token"
 *       ? { access_token: "t", token_type: "Bearer", expires_in: 3600 }
 *       : {
 *         id: "tj_1", name: "t", status: "CANCELLED", message: "Cancelled by a client request.",
 *         account: { id: "a" }, created_at: "2025-01-01T00:00:00Z", created_by: { id: "u" },
 *         dataset: { id: "d" }, workspace: { id: "w" }, training_configuration: { id: "tc" },
 *         compute_configuration: { id: "cc" }, model: { id: "m" },
 *       }));
 *   },
 * });
 * const job = await client.trainingJobs.cancel("tj_1");
 * if (job.status !== "CANCELLED") throw new Error("unexpected");
 * ```
 */
export class JobCollection<TCreate, T>
  extends Collection<TCreate, T, JobRoutes> {
  /**
   * Cancels a STARTING or RUNNING job and returns it as the service answers
   * (`CANCELLED` with a message on the local platform). A job that has
   * ended gives a `ConflictError` (409); a service without this extension
   * answers 404 or 405 (`job.cancel()` turns that into a
   * `CancellationNotSupportedError`).
   */
  cancel(id: string, options?: RequestOptions): Promise<T> {
    return this.callForItem(this.routes.cancel, { ...options, params: { id } });
  }
}
