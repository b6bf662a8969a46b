// deno-doc-ignore-file private-type-ref missing-explicit-type missing-return-type -- protected builder internals are typed by the zod request schemas they validate with
/**
 * Storage connector builder: a named pointer to a read-only source bucket.
 *
 * @module
 */
import type { z } from "zod";
import {
  type StorageConnector,
  StorageConnectorCreateSchema,
} from "../schemas/storage.ts";
import { type CreateOptions, OptionsBuilder } from "./base.ts";

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
 * new StorageConnectorBuilder(undefined, { name: "src", bucket: "demo" }).body();
 * // { name: "src", bucket_name: "demo" }
 * ```
 */
export class StorageConnectorBuilder extends OptionsBuilder<
  StorageConnectorOptions,
  typeof StorageConnectorCreateSchema,
  StorageConnector
> {
  /** What is built. */
  readonly what = "storage connector";
  /** The body schema. */
  protected readonly schema = StorageConnectorCreateSchema;
  /** Wire -> option names. */
  protected override optionNames(): Record<string, string> {
    return { bucket_name: "bucket" };
  }
  /** The body as given. */
  protected raw(): Record<string, unknown> {
    return { name: this.options.name, bucket_name: this.options.bucket };
  }
  /** Sends it. */
  protected send(
    body: z.output<typeof StorageConnectorCreateSchema>,
    options?: CreateOptions,
  ): Promise<StorageConnector> {
    return this.requireClient().storageConnectors.create(body, options);
  }
}
