/**
 * Signatures shared by the per-resource handlers of the local platform.
 *
 * @module
 */
import type { Caller } from "../http/auth.ts";
import type { PlatformContext } from "../context.ts";
import type { StoredRecord } from "../store/store.ts";

/** Creates a resource from a request body already parsed by the route's schema. */
export type CreateHandler = (
  ctx: PlatformContext,
  caller: Caller,
  // The route table's body schema has parsed (and defaulted) it already.
  // deno-lint-ignore no-explicit-any
  body: any,
  request: Request,
) => StoredRecord | Promise<StoredRecord>;

/** Extra steps around the generic delete. */
export interface DeleteHooks {
  /** Refuses the delete (throws) when the resource is busy. */
  before?: (ctx: PlatformContext, record: StoredRecord) => void;
  /** Cleans up what the resource owned (blobs, loaded models). */
  after?: (ctx: PlatformContext, record: StoredRecord) => void;
}
