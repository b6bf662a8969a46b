// deno-doc-ignore-file private-type-ref missing-explicit-type -- wire types are inferred from these zod schemas (one source of truth), so they name zod's own types
/**
 * Accounts (docs/api.md#resources). Created by the operator, only listed and read
 * through the API.
 *
 * @module
 */
import { z } from "zod";
import {
  IdSchema,
  listOf,
  openEnum,
  RefSchema,
  TimestampSchema,
} from "./common.ts";

/** An account. */
export const AccountSchema = z.looseObject({
  id: IdSchema,
  name: z.string(),
  status: openEnum(["ACTIVE"]),
  /** The organisation the account belongs to (operator-made, docs/api.md#the-workflow). */
  organisation: RefSchema.optional(),
  created_at: TimestampSchema,
  updated_at: TimestampSchema.nullable(),
}).meta({ id: "Account" });
/** An account. */
export type Account = z.infer<typeof AccountSchema>;

/** `GET /accounts` and `GET /accounts/{id}` both answer with the list envelope. */
export const AccountListSchema = listOf(AccountSchema).meta({
  id: "AccountList",
});
