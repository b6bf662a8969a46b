/**
 * Generic resource operations of the local platform: building a new record
 * with the fields every resource carries (docs/api.md#conventions), looking up an
 * owned resource (404 across accounts), paging, updating, and finding the
 * dependants that block a delete.
 *
 * @module
 */
import { conflict, notFound } from "../errors.ts";
import {
  type Kind,
  type KindName,
  KINDS,
  type Produces,
} from "../../schemas/routes.ts";
import type { Internal, Resources, Store, StoredRecord } from "./store.ts";
import { newId, timestamp } from "../ids.ts";
import type { z } from "zod";
import type {
  Dependant,
  ListQuerySchema,
  Page,
  Ref,
} from "../../schemas/mod.ts";

/**
 * The `{ id, name }` reference of a record.
 *
 * @example
 * ```ts
 * import { MemoryStore } from "./store.ts";
 * import { newRecord, refOf } from "./records.ts";
 * const caller = { account: { id: "a", name: "A" }, user: { id: "u", name: "U" } };
 * const model = newRecord(new MemoryStore(), caller, "models", { name: "x" });
 * const r = refOf(model);
 * if (r.id !== model.id || r.name !== "x") throw new Error();
 * ```
 */
export function refOf(record: StoredRecord): Ref & { name: string } {
  return { id: record.id, name: String(record.body.name ?? "") };
}

/**
 * Refuses a second resource of the same kind with the same name in the
 * account (409 conflict body).
 *
 * @example
 * ```ts
 * import { MemoryStore } from "./store.ts";
 * import { assertUniqueName, createRecord } from "./records.ts";
 * import { HttpError } from "../errors.ts";
 * const store = new MemoryStore();
 * const caller = { account: { id: "a", name: "A" }, user: { id: "u", name: "U" } };
 * createRecord(store, caller, "workspaces", { name: "x" });
 * const status = (() => { try { assertUniqueName(store, "workspaces", "a", "x"); } catch (e) { return e instanceof HttpError ? e.status : 0; } })();
 * if (status !== 409) throw new Error();
 * ```
 */
export function assertUniqueName(
  store: Store,
  kind: KindName,
  account: string,
  name: string,
): void {
  const clash = store.list(kind, account).find((r) => r.body.name === name);
  if (clash) {
    throw conflict(
      `A ${
        KINDS[kind].noun
      } named "${name}" already exists in this account (id ${clash.id}); choose another name or use the existing one.`,
    );
  }
}

/**
 * Builds a new resource without storing it: id, `account`, `created_at`,
 * `updated_at` (null), `created_by`, then `fields`. Checks the name is free.
 * Store what it returns with `store.put` (or several with `store.putMany`,
 * all or none), in the same synchronous step as the checks before it.
 *
 * @example
 * ```ts
 * import { MemoryStore } from "./store.ts";
 * import { newRecord } from "./records.ts";
 * const store = new MemoryStore();
 * const caller = { account: { id: "a", name: "A" }, user: { id: "u", name: "U" } };
 * const rec = newRecord(store, caller, "workspaces", { name: "lab" });
 * if (!rec.id.startsWith("ws_") || store.get("workspaces", rec.id)) throw new Error();
 * ```
 */
export function newRecord<K extends KindName>(
  store: Store,
  caller: Creator,
  kind: K,
  fields: NewFields<K>,
  internal: Internal = {},
): StoredRecord<K> {
  assertUniqueName(store, kind, caller.account.id, fields.name);
  const id = newId(KINDS[kind].prefix);
  const common: CommonFields = {
    id,
    account: { id: caller.account.id, name: caller.account.name },
    created_at: timestamp(),
    updated_at: null,
    created_by: { ...caller.user },
  };
  // The one place a body is assembled: the common fields plus the kind's own.
  const body = { ...common, ...fields } as Resources[K];
  return { kind, id, account: caller.account.id, body, internal };
}

/**
 * Who creates a record: the account it belongs to and the user it names as
 * `created_by` (a signed-in caller is one).
 */
export interface Creator {
  /** The owning account. */
  account: { id: string; name: string };
  /** The creating user. */
  user: { id: string; name: string };
}

/** The fields every resource carries, filled by {@linkcode newRecord}. */
interface CommonFields {
  id: string;
  account: { id: string; name: string };
  created_at: string;
  updated_at: null;
  created_by: { id: string; name: string };
}

/** What a handler gives {@linkcode newRecord}: the kind's body less the common fields. */
export type NewFields<K extends KindName> =
  & Omit<Resources[K], keyof CommonFields>
  & { name: string };

/**
 * Builds and stores a new resource ({@linkcode newRecord}, then `put`).
 *
 * @example
 * ```ts
 * import { MemoryStore } from "./store.ts";
 * import { createRecord } from "./records.ts";
 * const store = new MemoryStore();
 * const caller = { account: { id: "a", name: "A" }, user: { id: "u", name: "U" } };
 * const rec = createRecord(store, caller, "workspaces", { name: "lab" });
 * if (!rec.id.startsWith("ws_") || rec.body.created_by === undefined) throw new Error();
 * ```
 */
export function createRecord<K extends KindName>(
  ...args: Parameters<typeof newRecord<K>>
): StoredRecord<K> {
  const record = newRecord(...args);
  args[0].put(record);
  return record;
}

/**
 * A resource of the caller's account, or 404. Another account's resource is
 * also 404: answering 403 would confirm to a stranger that the id exists.
 *
 * @param field The request field that named the id, for the message.
 *
 * @example
 * ```ts
 * import { MemoryStore } from "./store.ts";
 * import { createRecord, findOwned } from "./records.ts";
 * import { HttpError } from "../errors.ts";
 * const store = new MemoryStore();
 * const other = { account: { id: "other", name: "O" }, user: { id: "u", name: "U" } };
 * const { id } = createRecord(store, other, "models", { name: "m" });
 * const status = (() => { try { findOwned(store, "mine", "models", id); } catch (e) { return e instanceof HttpError ? e.status : 0; } })();
 * if (status !== 404) throw new Error();
 * ```
 */
export function findOwned<K extends KindName>(
  store: Store,
  account: string,
  kind: K,
  id: string,
  field?: string,
): StoredRecord<K> {
  const record = store.get(kind, id);
  if (!record || record.account !== account) {
    const e = notFound(KINDS[kind].noun, id);
    if (field) e.body.message = `${e.body.message} (from ${field})`;
    throw e;
  }
  return record;
}

/**
 * Applies `patch` to a record's body, stamps `updated_at` and stores it.
 *
 * @example
 * ```ts
 * import { MemoryStore } from "./store.ts";
 * import { createRecord, updateRecord } from "./records.ts";
 * const store = new MemoryStore();
 * const caller = { account: { id: "a", name: "A" }, user: { id: "u", name: "U" } };
 * const { id } = createRecord(store, caller, "models", { name: "m", status: "PENDING" });
 * updateRecord(store, "models", id, { status: "READY" });
 * if (store.get("models", id)?.body.status !== "READY") throw new Error();
 * ```
 */
export function updateRecord<K extends KindName>(
  store: Store,
  kind: K,
  id: string,
  patch: Partial<Resources[K]>,
  internal?: Internal,
): StoredRecord<K> | undefined {
  const record = store.get(kind, id);
  if (!record) return undefined; // deleted meanwhile: nothing to update
  const next: StoredRecord<K> = {
    ...record,
    body: { ...record.body, ...patch, updated_at: timestamp() },
    internal: internal ? { ...record.internal, ...internal } : record.internal,
  };
  store.put(next);
  return next;
}

/**
 * One page of records in the list envelope (docs/contract.md#lists: 1-based pages).
 *
 * @example
 * ```ts
 * import { pageOf } from "./records.ts";
 * const page = pageOf([1, 2, 3], { page: 2, items_per_page: 2 });
 * if (page.data[0] !== 3 || page.pagination.total_pages !== 2) throw new Error();
 * ```
 */
export function pageOf<T>(
  items: T[],
  query: z.output<typeof ListQuerySchema>,
): Page<T> {
  const { items_per_page: per, page } = query;
  return {
    data: items.slice((page - 1) * per, page * per),
    pagination: {
      total_items: items.length,
      items_per_page: per,
      current_page: page,
      total_pages: Math.ceil(items.length / per),
    },
  };
}

/**
 * The resources of the same account that reference `record` in a top-level
 * `{ id }` field: the published (docs/api.md#errors) dependants. A job and the artifact it
 * produced are not each other's dependants (the job is the artifact's history).
 *
 * @example
 * ```ts
 * import { MemoryStore } from "./store.ts";
 * import { createRecord, dependantsOf, refOf } from "./records.ts";
 * const store = new MemoryStore();
 * const caller = { account: { id: "a", name: "A" }, user: { id: "u", name: "U" } };
 * const model = createRecord(store, caller, "models", { name: "m" });
 * createRecord(store, caller, "deployedModels", {
 *   name: "d", status: "RUNNING", model: refOf(model), deployment_configuration: { id: "dc_1" }, tags: [],
 * });
 * if (dependantsOf(store, model)[0]?.dependant_type !== "DEPLOYED_MODEL") throw new Error();
 * ```
 */
export function dependantsOf(
  store: Store,
  record: StoredRecord,
): Dependant[] {
  const out: Dependant[] = [];
  // A job and its artifact reference each other; neither blocks the other.
  const producedField = producesOf(record.kind)?.field;
  const produced = producedField && idOf(record.body[producedField]);
  for (const other of store.inAccount(record.account)) {
    if (other.id === record.id || other.id === produced) continue;
    const ownArtifact = producesOf(other.kind)?.field;
    const uses = Object.entries(other.body).some(([key, value]) =>
      key !== "account" && key !== "created_by" && key !== ownArtifact &&
      idOf(value) === record.id
    );
    if (uses) {
      out.push({
        id: other.id,
        name: String(other.body.name ?? ""),
        dependant_type: KINDS[other.kind].type,
      });
    }
  }
  return out;
}

/** What a job of `kind` produces, or undefined for other kinds. */
function producesOf(kind: KindName): Produces | undefined {
  const description: Kind = KINDS[kind];
  return description.produces;
}

/**
 * The `id` of a `{ id }` reference, or undefined for anything else.
 *
 * @example
 * ```ts
 * import { idOf } from "./records.ts";
 * if (idOf({ id: "m", name: "x" }) !== "m" || idOf("m") !== undefined) throw new Error();
 * ```
 */
export function idOf(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null || !("id" in value)) {
    return undefined;
  }
  return typeof value.id === "string" ? value.id : undefined;
}
