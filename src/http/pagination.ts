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
 * Items created or deleted while the iteration runs neither repeat nor go
 * missing: an item is yielded once (by its `id`), and when the list's
 * `total_items` falls between two pages (items deleted, perhaps before the
 * page about to be read, which moves the unread items back by as many
 * places), the pages they may have moved to are read again. Deleting each
 * item as it is yielded therefore deletes them all (page-numbered reading
 * would skip every other page). A deletion hidden by as many creations
 * between two pages is not seen: `total_items` did not change.
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
 *
 * @example Deleting every item while iterating deletes them all
 * ```ts
 * import { paginate } from "./pagination.ts";
 * const list = Array.from({ length: 25 }, (_, i) => ({ id: `w${i}` }));
 * const fetchPage = (q: { page: number; items_per_page?: number }) => {
 *   const size = q.items_per_page ?? 10;
 *   return Promise.resolve({
 *     data: list.slice((q.page - 1) * size, q.page * size),
 *     pagination: {
 *       total_items: list.length,
 *       items_per_page: size,
 *       current_page: q.page,
 *       total_pages: Math.ceil(list.length / size),
 *     },
 *   });
 * };
 * const deleted: string[] = [];
 * for await (const item of paginate(fetchPage)) {
 *   list.splice(list.findIndex((x) => x.id === item.id), 1);
 *   deleted.push(item.id);
 * }
 * if (deleted.length !== 25 || list.length !== 0) throw new Error(deleted.join());
 * ```
 */
export async function* paginate<T>(
  fetchPage: (
    query: { page: number; items_per_page?: number },
  ) => Promise<Page<T>>,
  query: ListQuery = {},
): AsyncGenerator<T, void, undefined> {
  const itemsPerPage = query.items_per_page === undefined
    ? undefined
    : Number(query.items_per_page);
  let page = Number(query.page ?? 1);
  const yielded = new Set<unknown>();
  // The offset (in the list as last answered) of the first item not read
  // yet; undefined before the first page.
  let unread: number | undefined;
  let total: number | undefined;
  // What bounds the re-reads, so that a service whose totals go up and
  // down (or lie) cannot keep the iteration going: a page is read again
  // only when the list is smaller than ever before, or from a page further
  // than any that was read again from.
  let lowestTotal = Infinity;
  let backFrom = 0;
  for (;;) {
    const result = await fetchPage({ page, items_per_page: itemsPerPage });
    const { pagination } = result;
    const size = pagination.items_per_page;
    // Never ask for a page already asked for, nor go past the last, only
    // because of what the service says: one answering current_page 1 to
    // every page was read forever.
    const current = Math.max(pagination.current_page ?? page, page);
    const start = (current - 1) * size;
    const shrunk = total !== undefined && pagination.total_items < total;
    if (unread !== undefined && shrunk) {
      // Deleted items before the unread ones moved those back.
      unread = Math.max(0, unread - (total! - pagination.total_items));
    }
    total = pagination.total_items;
    const gap = unread !== undefined && unread < start;
    if (gap && (total < lowestTotal || current > backFrom)) {
      // This page's items come again after the ones before them: in order.
      lowestTotal = Math.min(lowestTotal, total);
      backFrom = Math.max(backFrom, current);
      page = Math.floor(unread! / size) + 1;
      continue;
    }
    lowestTotal = Math.min(lowestTotal, total);
    for (const item of result.data) {
      const id = idOf(item);
      if (id !== undefined) {
        if (yielded.has(id)) continue;
        yielded.add(id);
      }
      yield item;
    }
    // A short page is the last one (or a service's own count): only
    // deletions, never a short page, make the next page start earlier.
    if (!gap) unread = current * size;
    // Stop on the last page, and on an empty page in case the service's
    // total_pages is stale (items deleted while iterating), unless unread
    // items moved back before it (read from there once allowed).
    if (
      !gap &&
      (result.data.length === 0 || current >= pagination.total_pages)
    ) return;
    page = current + 1;
  }
}

/** An item's `id`, which says it was yielded already; undefined without one. */
function idOf(item: unknown): unknown {
  return item !== null && typeof item === "object" && "id" in item
    ? (item as { id: unknown }).id
    : undefined;
}
