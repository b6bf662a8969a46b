/**
 * The operations every collection shares, for any resource kind: get (404
 * across accounts), list (paged, oldest first) and delete (409 while other
 * resources depend on it, with the kind's own hooks before and after).
 *
 * @module
 */
import { ListQuerySchema, type Page } from "../../schemas/mod.ts";
import { type KindName, KINDS } from "../../schemas/routes.ts";
import type { PlatformContext } from "../context.ts";
import { conflict, integrityError } from "../errors.ts";
import { parseOr400 } from "../http/request_body.ts";
import { dependantsOf, findOwned, pageOf } from "../store/records.ts";
import type { Resources, StoredRecord } from "../store/store.ts";
import type { Reply, SharedInput } from "./types.ts";

/** Extra steps around the generic delete. */
export interface DeleteHooks {
  /** Refuses the delete (throws) when the resource is busy. */
  before?: (ctx: PlatformContext, record: StoredRecord) => void;
  /** Cleans up what the resource owned (blobs, loaded models). */
  after?: (ctx: PlatformContext, record: StoredRecord) => void;
}

/** The get, list and delete operations of one kind. */
export type CollectionOperations<K extends KindName> = {
  /** `GET {path}/{id}`. */
  get(input: SharedInput<{ id: string }>): Reply<Resources[K]>;
  /** `GET {path}`. */
  list(
    input: SharedInput<Record<never, string>>,
  ): Reply<Page<Resources[K]>>;
  /** `DELETE {path}/{id}`. */
  delete(input: SharedInput<{ id: string }>): Reply<undefined>;
};

/**
 * Get, list and delete for `kind`, with its delete hooks.
 *
 * @example
 * ```ts
 * import { collection } from "./collection.ts";
 * const ops = collection("workspaces");
 * if (typeof ops.get !== "function" || typeof ops.delete !== "function") throw new Error();
 * ```
 */
export function collection<K extends KindName>(
  kind: K,
  hooks: DeleteHooks = {},
): CollectionOperations<K> {
  return {
    get: ({ ctx, caller, params }) => ({
      body: findOwned(ctx.store, caller.account.id, kind, params.id).body,
    }),
    list: ({ ctx, caller, query }) => ({
      body: pageOf(
        ctx.store.list(kind, caller.account.id).map((r) => r.body),
        parseOr400(ListQuerySchema, query),
      ),
    }),
    delete: ({ ctx, caller, params }) => {
      const record = findOwned(ctx.store, caller.account.id, kind, params.id);
      hooks.before?.(ctx, record);
      const dependants = dependantsOf(ctx.store, record);
      if (dependants.length) {
        throw integrityError(KINDS[kind].noun, record.id, dependants);
      }
      ctx.store.remove(kind, record.id);
      hooks.after?.(ctx, record);
      return { body: undefined };
    },
  };
}

/**
 * An artifact still being produced cannot be deleted under its job (409).
 *
 * @example
 * ```ts
 * import { refusePending } from "./collection.ts";
 * import { MemoryStore } from "../store/store.ts";
 * import { newRecord } from "../store/records.ts";
 * const caller = { account: { id: "a", name: "A" }, user: { id: "u", name: "U" } };
 * const record = newRecord(new MemoryStore(), caller, "models", { name: "m", status: "PENDING" });
 * let refused = false;
 * try { refusePending(undefined as never, record); } catch { refused = true; }
 * if (!refused) throw new Error();
 * ```
 */
export function refusePending(
  _ctx: PlatformContext,
  record: StoredRecord,
): void {
  if (record.body.status === "PENDING") {
    throw conflict(
      `The ${
        KINDS[record.kind].noun
      } ${record.id} is still being produced by its job; wait until the job ends, then delete it.`,
    );
  }
}
