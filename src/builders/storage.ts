// deno-doc-ignore-file private-type-ref missing-explicit-type missing-return-type -- protected builder internals are typed by the zod request schemas they validate with
/**
 * Storage connector builder: a named pointer to a read-only source bucket.
 *
 * @module
 */
import { ResourceBuilder } from "./spec.ts";

/** Options of a storage connector. */
export interface StorageConnectorOptions {
  /** Connector name (unique in the account). */
  name: string;
  /** The source bucket (on the local platform: a key of its `buckets` option). */
  bucket: string;
}

/**
 * Builds `POST /storage-connectors`. Immutable; awaitable.
 *
 * @example
 * ```ts
 * import { StorageConnectorBuilder } from "./storage.ts";
 * const body = new StorageConnectorBuilder(undefined, { name: "src", bucket: "demo" }).body();
 * if (JSON.stringify(body) !== '{"name":"src","bucket_name":"demo"}') throw new Error(JSON.stringify(body));
 * ```
 */
export class StorageConnectorBuilder
  extends ResourceBuilder<"storageConnectors", StorageConnectorOptions> {
  /** Its definition. */
  protected readonly spec = this.define({
    route: "storageConnectors",
    wire: { bucket: "bucket_name" },
  });
}
