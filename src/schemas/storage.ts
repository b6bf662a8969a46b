// deno-doc-ignore-file private-type-ref missing-explicit-type -- wire types are inferred from these zod schemas (one source of truth), so they name zod's own types
/**
 * Storage connectors: a named pointer to a read-only source bucket.
 *
 * @module
 */
import { z } from "zod";
import { configurationFields, NameSchema } from "./common.ts";

/** A storage connector. */
export const StorageConnectorSchema = z.looseObject({
  ...configurationFields,
  bucket_name: z.string(),
}).meta({ id: "StorageConnector" });
/** A storage connector. */
export type StorageConnector = z.infer<typeof StorageConnectorSchema>;

/** Body of `POST /storage-connectors` (path and body from docs/contract.md#paths). */
export const StorageConnectorCreateSchema = z.object({
  name: NameSchema,
  bucket_name: z.string().trim().min(1, "bucket_name is required"),
}).meta({ id: "StorageConnectorCreate" });
/** Body of `POST /storage-connectors`. */
export type StorageConnectorCreate = z.input<
  typeof StorageConnectorCreateSchema
>;
