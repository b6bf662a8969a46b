/**
 * Pagination over the list envelope of docs/api.md#conventions (`data` + `pagination`):
 * an async iterator that asks for one page after another until the last.
 *
 * @module
 */
import type { ListQuery, Page } from "../schemas/common.ts";

/**
 * Every item of every page, from `query.page` (default 1) on, fetching a
 * page only when the previous one is used up.
 *
 * @example
 * ```ts
 * import { paginate } from "./pagination.ts";
 * const pages = [["a", "b"], ["c"]];
 * const items: string[] = [];
 * for await (
 *   const item of paginate((q) =>
 *     Promise.resolve({
 *       data: pages[q.page - 1],
 *       pagination: { total_items: 3, items_per_page: 2, current_page: q.page, total_pages: 2 },
 *     }), { items_per_page: 2 })
 * ) items.push(item);
 * console.log(items); // ["a", "b", "c"]
 * ```
 */
export async function* paginate<T>(
  fetchPage: (
    query: { page: number; items_per_page?: number },
  ) => Promise<Page<T>>,
  query: ListQuery = {},
): AsyncGenerator<T, void, undefined> {
  let page = Number(query.page ?? 1);
  for (;;) {
    const result = await fetchPage({
      page,
      items_per_page: query.items_per_page === undefined
        ? undefined
        : Number(query.items_per_page),
    });
    yield* result.data;
    // Stop on the last page, and on an empty page in case the service's
    // total_pages is stale (items deleted while iterating).
    // Never ask for a page already asked for, nor go past the last: a
    // service answering current_page 1 to every page was read forever.
    const current = Math.max(result.pagination.current_page ?? page, page);
    if (result.data.length === 0 || current >= result.pagination.total_pages) {
      return;
    }
    page = current + 1;
  }
}
