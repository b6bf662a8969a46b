/**
 * Models: what training jobs create. Read, listed and deleted like any
 * collection, plus their global explanation.
 *
 * @module
 */
import type { GlobalExplanation, Model } from "../schemas/artifacts.ts";
import { routes } from "../schemas/routes.ts";
import type { RequestOptions, Transport } from "../http/transport.ts";
import { ReadOnlyCollection } from "./collection.ts";
import { displayExplanation } from "./display.ts";

/**
 * Models and their global explanations.
 *
 * @example
 * ```ts
 * import { Client } from "../client.ts";
 * const explanation = { target: "churn", classes: ["No", "Yes"], score_classes: ["Yes"], intercept: [-1], terms: [] };
 * const client = new Client({
 *   baseUrl: "https://mlp.invalid", clientId: "id", clientSecret: "s",
 *   fetch: (req) => Promise.resolve(Response.json(
 *     new URL((req as Request).url).pathname === "/oauth/token"
 *       ? { access_token: "t", token_type: "Bearer", expires_in: 3600 }
 *       : explanation,
 *   )),
 * });
 * console.log((await client.models.explanation("m_1")).target); // "churn"
 * ```
 */
export class Models extends ReadOnlyCollection<Model> {
  /** Binds the model routes to a transport. */
  constructor(transport: Transport) {
    super(transport, routes.models);
  }

  /**
   * How every term of the model shapes its prediction, with its schema's
   * `field_labels`; measured against the data anchor `anchorId` (`"none"`:
   * none; absent: the schema's default anchor, if it has one).
   */
  async explanation(
    id: string,
    options?: RequestOptions & { anchorId?: string },
  ): Promise<GlobalExplanation> {
    const { anchorId, ...rest } = options ?? {};
    const explanation = await this.transport.call(routes.models.explanation, {
      ...rest,
      params: { id },
      ...(anchorId ? { query: { anchor_id: anchorId } } : {}),
    });
    return displayExplanation(explanation);
  }
}
