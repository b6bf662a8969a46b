/**
 * Views batches: what views batch jobs make (our extension, docs/contract.md#batch-views).
 * Read, listed and deleted like any collection, plus their results: one
 * page of the output file at a time, read through the API (so it works the
 * same against the hosted service as on the local platform).
 *
 * @module
 */
import {
  type BatchResultsQuery,
  BatchResultsQuerySchema,
  type ViewsBatch,
  type ViewsBatchResults,
} from "../schemas/batch.ts";
import { routes } from "../schemas/routes.ts";
import { parseRequest } from "../http/parse.ts";
import type { RequestOptions, Transport } from "../http/transport.ts";
import { ReadOnlyCollection } from "./collection.ts";

/**
 * Views batches and their result pages.
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
 *         columns: ["id", "prediction.churn"], index: [2], data: [["c", "Yes"]],
 *         pagination: { total_items: 3, items_per_page: 2, current_page: 2, total_pages: 2 },
 *       }));
 *   },
 * });
 * const page = await client.viewsBatches.results("vb_1", { page: 2, items_per_page: 2 });
 * if (page.data[0][1] !== "Yes" || page.index[0] !== 2) throw new Error("unexpected");
 * ```
 */
export class ViewsBatches extends ReadOnlyCollection<ViewsBatch> {
  /** Binds the views batch routes to a transport. */
  constructor(transport: Transport) {
    super(transport, routes.viewsBatches);
  }

  /**
   * One page of a READY views batch's output (`page` from 1,
   * `items_per_page` up to 10,000, default 1,000): a split table whose
   * `index` holds each row's position in the output, and the pagination.
   * A batch that is not READY gives a `ConflictError`.
   */
  results(
    id: string,
    query: BatchResultsQuery = {},
    options?: RequestOptions,
  ): Promise<ViewsBatchResults> {
    const parsed = parseRequest(
      BatchResultsQuerySchema,
      query,
      `result parameters for GET /views-batches/${id}/results`,
    );
    return this.transport.call(routes.viewsBatches.results, {
      ...options,
      params: { id },
      query: parsed,
    });
  }
}
