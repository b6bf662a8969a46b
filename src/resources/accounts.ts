/**
 * Accounts (docs/api.md#endpoints, endpoints 2 and 3): listed and read, never created
 * through the API. `GET /accounts/{id}` answers with the list envelope; `get`
 * unwraps the one account from it.
 *
 * @module
 */
import type { Account } from "../schemas/accounts.ts";
import type { ListQuery, Page } from "../schemas/common.ts";
import { routes } from "../schemas/routes.ts";
import { NotFoundError } from "../http/errors.ts";
import type { RequestOptions, Transport } from "../http/transport.ts";
import { checkedPages, listQuery } from "./collection.ts";
import { displayPage, displayResource, kindOf } from "./display.ts";

const ACCOUNT = kindOf(routes.accounts.get);

/**
 * The accounts these credentials see.
 *
 * @example
 * ```ts
 * import { Client } from "../client.ts";
 * const account = { id: "acc_1", name: "Demo", status: "ACTIVE", created_at: "2024-01-01T00:00:00.000000Z", updated_at: null };
 * const client = new Client({
 *   baseUrl: "https://mlp.invalid", clientId: "id", clientSecret: "s",
 *   fetch: (req) => Promise.resolve(Response.json(
 *     new URL((req as Request).url).pathname === "/oauth/token"
 *       ? { access_token: "t", token_type: "Bearer", expires_in: 3600 }
 *       : { data: [account], pagination: { total_items: 1, items_per_page: 10, current_page: 1, total_pages: 1 } },
 *   )),
 * });
 * console.log((await client.accounts.get("acc_1")).name); // "Demo"
 * ```
 */
export class Accounts {
  readonly #transport: Transport;

  /** Binds the account routes to a transport. */
  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /** One page of accounts (docs/api.md#endpoints, endpoint 2). */
  async list(
    query: ListQuery = {},
    options?: RequestOptions,
  ): Promise<Page<Account>> {
    const page = await this.#transport.call(routes.accounts.list, {
      ...options,
      query: listQuery(query, "GET /accounts"),
    });
    return displayPage(page, ACCOUNT);
  }

  /** Every account, page after page. */
  iterate(
    query: ListQuery = {},
    options?: RequestOptions,
  ): AsyncIterable<Account> {
    return checkedPages(query, "GET /accounts", (q) => this.list(q, options));
  }

  /** One account (docs/api.md#endpoints, endpoint 3, unwrapped from its list envelope). */
  async get(id: string, options?: RequestOptions): Promise<Account> {
    const page = await this.#transport.call(routes.accounts.get, {
      ...options,
      params: { id },
    });
    const account = page.data.find((a) => a.id === id) ?? page.data[0];
    if (!account) {
      throw new NotFoundError({
        status: 200,
        body: page,
        message: `GET /accounts/${id} answered an empty list`,
        hint: "List the accounts with client.accounts.list() to see the ids",
      });
    }
    return displayResource(account, ACCOUNT);
  }
}
