/**
 * Typed blobs: each family of blobs (a dataset's encoding, a trained model)
 * is written and read through one {@linkcode BlobKind}, so its type is
 * stated once, where its key is.
 *
 * @example
 * ```ts
 * import { MemoryStore } from "./store.ts";
 * import { blobKind } from "./blobs.ts";
 * const counts = blobKind<{ n: number }>("count");
 * const store = new MemoryStore();
 * counts.write(store, "a", { n: 1 });
 * if (counts.read(store, "a")?.n !== 1 || counts.key("a") !== "count:a") throw new Error();
 * ```
 *
 * @module
 */
import type { EbmModel } from "../model/types.ts";
import type { Store } from "./store.ts";

/** One family of blobs of type `T`, keyed `<prefix>:<id>`. */
export interface BlobKind<T> {
  /** The store key of the blob of `id`. */
  key(id: string): string;
  /** The blob of `id`, or undefined. */
  read(store: Store, id: string): T | undefined;
  /** Stores the blob of `id`. */
  write(store: Store, id: string, value: T): void;
}

/**
 * A family of blobs of type `T` under `prefix`.
 *
 * @example
 * ```ts
 * import { blobKind } from "./blobs.ts";
 * if (blobKind<string>("note").key("x") !== "note:x") throw new Error();
 * ```
 */
export function blobKind<T>(prefix: string): BlobKind<T> {
  const key = (id: string) => `${prefix}:${id}`;
  return {
    key,
    // Only `write` stores under this prefix, so what is read is a T.
    read: (store, id) => store.getBlob(key(id)) as T | undefined,
    write: (store, id, value) => store.putBlob(key(id), value),
  };
}

/**
 * The trained models, by model id: written by the training job, read by
 * serving and views. It lives here, beside the store, so that serving loads
 * nothing of training to find a model.
 */
export const modelBlobs: BlobKind<EbmModel> = blobKind<EbmModel>("model");
