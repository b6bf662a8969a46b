/**
 * What the scripts that drive a local platform over its API share
 * (`scripts/chaos.ts`, `scripts/fuzz.ts`): a token request for the
 * platform's own account, the account's listable collections, reading a
 * collection page by page, and integer flags.
 *
 * @module
 */
import { routes } from "../../src/schemas/mod.ts";

/** The part of a local platform these helpers use. */
export interface LocalAccount {
  /** Where the platform answers. */
  baseUrl: string;
  /** The account's API credentials. */
  credentials: { clientId: string; clientSecret: string };
}

/**
 * The `POST /oauth/token` request of the platform's account
 * (client credentials).
 *
 * @example
 * ```ts
 * import { tokenRequest } from "./local_account.ts";
 * const request = tokenRequest({ baseUrl: "http://127.0.0.1:1", credentials: { clientId: "a", clientSecret: "b" } });
 * if (request.method !== "POST" || !(await request.text()).includes("client_id=a")) throw new Error();
 * ```
 */
export function tokenRequest(account: LocalAccount): Request {
  return new Request(`${account.baseUrl}/oauth/token`, {
    method: "POST",
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: account.credentials.clientId,
      client_secret: account.credentials.clientSecret,
    }),
  });
}

/**
 * Every collection an account lists (accounts aside), from the route table:
 * its route group and list path.
 *
 * @example
 * ```ts
 * import { listedCollections } from "./local_account.ts";
 * if (!listedCollections().some((c) => c.group === "models")) throw new Error();
 * ```
 */
export function listedCollections(): { group: string; path: string }[] {
  return Object.entries(routes).flatMap(([group, ops]) => {
    const list = (ops as Record<string, { path: string; list?: boolean }>)
      .list;
    // A collection under another resource (a schema's labels) is listed
    // through its parent's id: not a top-level collection.
    return list?.list && group !== "accounts" && !list.path.includes("{")
      ? [{ group, path: list.path }]
      : [];
  });
}

/** One page of a list answer. */
export interface ListPage<T> {
  /** The page's items. */
  data: T[];
  /** Where the page is. */
  pagination: { total_pages: number };
}

/**
 * Every item of the collection at `path`, read 100 at a time through
 * `page` (which fetches one URL path and returns its list answer).
 *
 * @example
 * ```ts
 * import { listAll } from "./local_account.ts";
 * const pages = [{ data: [1, 2], pagination: { total_pages: 2 } }, { data: [3], pagination: { total_pages: 2 } }];
 * const items = await listAll<number>("/models", (url) => Promise.resolve(pages[Number(url.split("&page=")[1]) - 1]));
 * if (items.join() !== "1,2,3") throw new Error();
 * ```
 */
export async function listAll<T>(
  path: string,
  page: (url: string) => Promise<ListPage<T>>,
): Promise<T[]> {
  const items: T[] = [];
  for (let n = 1;; n++) {
    const body = await page(`${path}?items_per_page=100&page=${n}`);
    items.push(...body.data);
    if (n >= body.pagination.total_pages) return items;
  }
}

/**
 * The value of a `--name=N` flag as a non-negative integer, `fallback`
 * when absent; exits with status 2 and a message when it is not one.
 *
 * @example
 * ```ts
 * import { intArg } from "./local_account.ts";
 * if (intArg("seeds", 100, ["--seeds=5"]) !== 5 || intArg("seeds", 100, []) !== 100) throw new Error();
 * ```
 */
export function intArg(
  name: string,
  fallback: number,
  args: readonly string[] = Deno.args,
): number {
  const hit = args.find((a) => a.startsWith(`--${name}=`));
  const value = hit ? Number(hit.split("=")[1]) : fallback;
  if (!Number.isInteger(value) || value < 0) {
    console.error(`--${name} must be a non-negative integer`);
    Deno.exit(2);
  }
  return value;
}
