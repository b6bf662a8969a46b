/**
 * Deployed models (docs/api.md#endpoints, endpoints 12 and 13): the collection, plus views,
 * the predictions and explanations of a running deployed model.
 *
 * @module
 */
import type {
  DeployedModel,
  DeployedModelCreate,
} from "../schemas/deployments.ts";
import type { SplitTable, ViewsRequest } from "../schemas/views.ts";
import { routes } from "../schemas/routes.ts";
import type {
  CallOptions,
  RequestOptions,
  Transport,
} from "../http/transport.ts";
import { Collection } from "./collection.ts";
import { displayTable } from "./display.ts";

/**
 * Deployed models and their views.
 *
 * @example
 * ```ts
 * import { Client } from "../client.ts";
 * const client = new Client({
 *   baseUrl: "https://mlp.invalid", clientId: "id", clientSecret: "s",
 *   fetch: (req) => {
 *     const r = req as Request;
 *     if (new URL(r.url).pathname === "/oauth/token") {
 *       return Promise.resolve(Response.json({ access_token: "t", token_type: "Bearer", expires_in: 3600 }));
 *     }
 *     // Echo the cache directive back, to show it was sent.
 *     return Promise.resolve(Response.json({
 *       columns: ["cache"], index: [0], data: [[r.headers.get("x-views-cache-control")]],
 *     }));
 *   },
 * });
 * const table = await client.deployedModels.views("dm_1", { query: { tenure: [1] } });
 * console.log(table.data[0][0]); // "no-cache, no-store"
 * ```
 */
export class DeployedModels
  extends Collection<DeployedModelCreate, DeployedModel> {
  /** Binds the deployed model routes to a transport. */
  constructor(transport: Transport) {
    super(transport, routes.deployedModels);
  }

  /**
   * Predictions and explanations for the rows of `body.query` (docs/api.md#resources
   * endpoint 13), as a split-orientation table. The model must be `RUNNING`.
   * Pass `validated: true` only with a body that is already the output of
   * `ViewsRequestSchema` (the views builder's), to skip parsing it again.
   */
  async views(
    id: string,
    body: ViewsRequest,
    options?: RequestOptions & Pick<CallOptions, "validated">,
  ): Promise<SplitTable> {
    const table = await this.transport.call(routes.deployedModels.views, {
      ...options,
      params: { id },
      body,
    });
    return displayTable(table);
  }
}
