// deno-doc-ignore-file private-type-ref missing-explicit-type -- wire types are inferred from these zod schemas (one source of truth), so they name zod's own types
/**
 * The token exchange of docs/api.md#authentication (endpoint 1).
 *
 * @module
 */
import { z } from "zod";

/** Form body of `POST /oauth/token` (sent as `application/x-www-form-urlencoded`). */
export const TokenRequestSchema = z.object({
  grant_type: z.literal("client_credentials"),
  client_id: z.string().min(1, "client_id is required"),
  client_secret: z.string().min(1, "client_secret is required"),
}).meta({ id: "TokenRequest" });
/** Form body of `POST /oauth/token`. */
export type TokenRequest = z.infer<typeof TokenRequestSchema>;

/** Answer of `POST /oauth/token`. */
export const TokenResponseSchema = z.looseObject({
  access_token: z.string().min(1),
  token_type: z.string(),
  expires_in: z.number().int().nonnegative(),
}).meta({ id: "TokenResponse" });
/** Answer of `POST /oauth/token`. */
export type TokenResponse = z.infer<typeof TokenResponseSchema>;
