/**
 * Exactly-once creates: when a create whose first attempt got no answer is
 * re-sent and refused as a duplicate (409), the lost attempt probably made
 * the resource. {@linkcode reconcileCreate} finds it by name in the
 * collection and returns it when it is what was sent; otherwise the caller
 * gets the conflict with both bodies (README, "Retries and exactly-once
 * creates").
 *
 * @example
 * ```ts
 * import { matchesSent } from "./reconcile.ts";
 * const same = matchesSent({ name: "a", data_schema_id: "s1" }, { id: "1", name: "a", data_schema: { id: "s1" } });
 * if (!same) throw new Error();
 * ```
 *
 * @module
 */
import { type Route, routes } from "../schemas/routes.ts";
import { ConflictError } from "./errors.ts";

/** One page of a list answer, as reconciliation reads it. */
export interface ListPage {
  /** The page's items. */
  data: { name?: unknown }[];
  /** The list's pages. */
  pagination: { total_pages: number };
}

/**
 * Finds the resource a lost create made: the one of the collection named
 * as `sent` was, read page by page through `listPage`. Returns it when it
 * matches what was sent; otherwise throws `conflict`, or a conflict with
 * both bodies when one of that name exists and differs.
 *
 * @example
 * ```ts
 * import { reconcileCreate } from "./reconcile.ts";
 * import { ConflictError } from "./errors.ts";
 * import { routes } from "../schemas/routes.ts";
 * const conflict = new ConflictError({ status: 409, message: "exists" });
 * const found = await reconcileCreate(routes.workspaces.create, { name: "w" }, conflict, () =>
 *   Promise.resolve({ data: [{ id: "ws_1", name: "w" }], pagination: { total_pages: 1 } } as never));
 * if ((found as { id: string }).id !== "ws_1") throw new Error();
 * ```
 */
export async function reconcileCreate(
  route: Route,
  sent: unknown,
  conflict: ConflictError,
  listPage: (list: Route, page: number) => Promise<ListPage>,
  readItem?: (get: Route) => Promise<unknown>,
): Promise<unknown> {
  // A cancel re-sent after a lost answer is refused as "already ended"
  // (409) when the lost one landed: the job is then CANCELLED, which is
  // what was asked. Any other end is the caller's conflict.
  const get = getRouteOfCancel(route);
  if (get && readItem) {
    const job = await readItem(get);
    const status = (job as { status?: unknown } | undefined)?.status;
    if (status === "CANCELLED" || status === "CANCELED") return job;
    throw conflict;
  }
  const name = (sent as { name?: unknown } | undefined)?.name;
  const list = listRouteOf(route);
  if (!list) throw conflict;
  // Found by name; a nameless one (a schema's label or protection) by what
  // was sent, every field of it: the 409 said one like it exists.
  const found = typeof name === "string"
    ? (item: { name?: unknown }) => item.name === name
    : (item: unknown) => sameChild(sent, item);
  let existing: unknown;
  for (let page = 1;; page++) {
    const answer = await listPage(list, page);
    existing = answer.data.find(found);
    if (existing || answer.data.length === 0) break;
    if (page >= answer.pagination.total_pages) break;
  }
  if (existing === undefined) throw conflict;
  if (typeof name !== "string") return existing;
  if (matchesSent(sent, existing)) return existing;
  throw new ConflictError({
    status: conflict.status,
    errorCode: conflict.errorCode,
    requestId: conflict.requestId,
    body: { sent, existing },
    message:
      `${route.method} ${route.path}: an earlier attempt of this create got no answer, and a ${
        route.path.slice(1)
      } named ${
        JSON.stringify(name)
      } now exists that differs from what was sent`,
    hint:
      "Compare error.body.sent and error.body.existing; delete the existing one or create with another name",
  });
}

/** The get route of the job collection whose cancel route is `route`. */
function getRouteOfCancel(route: Route): Route | undefined {
  for (const group of Object.values(routes) as Record<string, Route>[]) {
    if (group.cancel === route) return group.get;
  }
  return undefined;
}

/** The list route of the collection a create route adds to. */
function listRouteOf(create: Route): Route | undefined {
  for (const group of Object.values(routes) as Record<string, Route>[]) {
    if (group.create === create) return group.list;
  }
  return undefined;
}

/**
 * Whether a resource found by name is the one `sent` would have made: every
 * field sent is there with the same value (objects and arrays compared the
 * same way, member by member; the service may add fields), and a reference
 * sent as `x_id` is the resource's `x.id`. Fields the resource does not show
 * (a secret, the name of an artifact a job makes) cannot be compared and are
 * passed over.
 *
 * @example
 * ```ts
 * import { matchesSent } from "./reconcile.ts";
 * matchesSent({ name: "a", data_schema_id: "s1" }, { id: "1", name: "a", data_schema: { id: "s1" } }); // true
 * ```
 */
export function matchesSent(sent: unknown, existing: unknown): boolean {
  if (!isRecord(sent) || !isRecord(existing)) return false;
  for (const [key, value] of Object.entries(sent)) {
    if (value === undefined) continue;
    if (Object.hasOwn(existing, key)) {
      if (!contains(existing[key], value)) return false;
    } else if (key.endsWith("_id")) {
      const ref = existing[key.slice(0, -3)];
      if (isRecord(ref) && ref.id !== value) return false;
    }
  }
  return true;
}

/**
 * Whether a nameless child resource is what `sent` would have made: every
 * field sent is there with the same value, or shown as {@linkcode shownAs}
 * says.
 */
function sameChild(sent: unknown, existing: unknown): boolean {
  if (!isRecord(sent) || !isRecord(existing)) return false;
  const given = Object.entries(sent).filter(([, v]) => v !== undefined);
  return given.length > 0 && given.every(([key, value]) => {
    return Object.hasOwn(existing, key)
      ? contains(existing[key], value)
      : shownAs(existing, key, value);
  });
}

/** `value` is `have`, or is contained in it member by member. */
function contains(have: unknown, value: unknown): boolean {
  if (Array.isArray(value)) {
    return Array.isArray(have) && have.length === value.length &&
      value.every((v, i) => contains(have[i], v));
  }
  if (isRecord(value)) {
    return isRecord(have) &&
      Object.entries(value).every(([k, v]) =>
        v === undefined ||
        (Object.hasOwn(have, k) ? contains(have[k], v) : shownAs(have, k, v))
      );
  }
  return Object.is(have, value);
}

/**
 * A member sent under another shape than the resource shows it: `x_name`
 * (or `x_id`) as the reference `x` (a label's `field_name` as
 * `field.name`), a data protection's `fields` as the names of its
 * `protected_fields` (each once).
 */
function shownAs(
  have: Record<string, unknown>,
  key: string,
  value: unknown,
): boolean {
  const shown = have.protected_fields;
  if (key === "fields" && Array.isArray(value) && Array.isArray(shown)) {
    const names = shown.map((f) => isRecord(f) ? f.name : undefined);
    return contains(names, [...new Set(value)]);
  }
  const m = /^(.+)_(name|id)$/.exec(key);
  const ref = m ? have[m[1]] : undefined;
  return isRecord(ref) && ref[m![2]] === value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
