/**
 * The shapes the encoder reads: raw column values (a datasource's columns or
 * a views query) and the parts of a data schema field it uses. A leaf, so
 * the datasource and the encoder both import it and not each other.
 *
 * @module
 */

import type { SchemaField as WireSchemaField } from "../../schemas/data_schemas.ts";

/** One raw cell: a number, a string, or null for an empty cell. */
export type RawValue = number | string | null;

/** A datasource as columns of raw values, keyed by column name. */
export type RawColumns = Record<string, ReadonlyArray<RawValue>>;

/** The parts of a data schema field (docs/api.md#resources) that encoding reads. */
export type SchemaField =
  & Pick<WireSchemaField, "name" | "designation" | "semantic_type">
  & {
    /** The column type; `format` may be left out (encoding does not read it). */
    data_type:
      & Pick<WireSchemaField["data_type"], "data_type">
      & { format?: string | null };
  };
