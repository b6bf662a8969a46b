// deno-doc-ignore-file private-type-ref missing-explicit-type -- wire types are inferred from these zod schemas (one source of truth), so they name zod's own types
/**
 * Error bodies of docs/api.md#errors, plus the validation body docs/contract.md#errors adds
 * for 400 answers. The client parses failed responses with these; the local
 * platform builds its error answers from them.
 *
 * @module
 */
import { z } from "zod";
import { openEnum } from "./common.ts";

/** Every `dependant_type` docs/api.md#errors lists. */
export const DEPENDANT_TYPES = [
  "ACCOUNT",
  "CATEGORY_FRIENDLY_NAME",
  "COMPUTE_CONFIGURATION",
  "DATASET",
  "DATASOURCE",
  "DATA_ANCHOR",
  "DATA_ANCHOR_TERM",
  "DATA_PROCESSING_INGESTION_CONFIGURATION",
  "DATA_PROCESSING_INGESTION_JOB",
  "DATA_PROCESSING_ONBOARDING_CONFIGURATION",
  "DATA_PROCESSING_ONBOARDING_JOB",
  "VIEWS_BATCH_CONFIGURATION",
  "VIEWS_BATCH_JOB",
  "VIEWS_BATCH",
  "DATA_PROTECTED_FIELD",
  "DATA_PROTECTION",
  "DATA_SCHEMA",
  "DATA_SCHEMA_FIELD",
  "DEPLOYED_MODEL",
  "DEPLOYMENT_CONFIGURATION",
  "DIMENSION",
  "FRIENDLY_NAME",
  "MODEL",
  "MODEL_CONSTRAINT",
  "MODEL_CONSTRAINT_GROUP",
  "NOTIFICATION",
  "ORGANISATION",
  "STAKEHOLDER",
  "STORAGE_CONNECTOR",
  "TRAINING_CONFIGURATION",
  "TRAINING_JOB",
  "UNIT",
  "USER",
  "USER_ACCOUNT_ASSOCIATION",
  "WORKSPACE",
] as const;
/** The kind of a resource that blocks a delete. */
export type DependantType = typeof DEPENDANT_TYPES[number];

/** One resource that depends on the one being deleted. */
export const DependantSchema = z.looseObject({
  id: z.string(),
  name: z.string().nullish(),
  dependant_type: openEnum(DEPENDANT_TYPES),
}).meta({ id: "Dependant" });
/** One resource that depends on the one being deleted. */
export type Dependant = z.infer<typeof DependantSchema>;

/**
 * 401: `{ message }` (docs/api.md#errors); the local platform adds
 * `error_code: "UNAUTHORIZED"`, which a client must not require.
 */
export const UnauthorizedBodySchema = z.looseObject({
  message: z.string(),
  error_code: z.string().optional(),
}).meta({ id: "UnauthorizedError" });

/** 403, 404, 413, 415 and 429: `{ message, error_code }`. */
export const ErrorBodySchema = UnauthorizedBodySchema.extend({
  error_code: z.string(),
}).meta({ id: "Error" });
/** 403, 404 and the plain 409: `{ message, error_code }`. */
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/**
 * 409 for a duplicate name or a wrong state (cancelling an ended job):
 * `error_code` is `CONFLICT`, which tells it from an
 * {@linkcode IntegrityErrorBodySchema} (docs/contract.md#errors).
 */
export const ConflictErrorBodySchema = ErrorBodySchema.extend({
  error_code: z.literal("CONFLICT"),
}).meta({ id: "ConflictError" });

/** 409 when dependants block a delete: `{ message, error_code, dependants }`. */
export const IntegrityErrorBodySchema = ErrorBodySchema.extend({
  error_code: z.literal("INTEGRITY_ERROR"),
  dependants: z.array(DependantSchema),
}).meta({ id: "IntegrityError" });
/** 409 when dependants block a delete. */
export type IntegrityErrorBody = z.infer<typeof IntegrityErrorBodySchema>;

/** 500: `{ message, error_reference }` (the local platform adds `error_code`). */
export const ServerErrorBodySchema = UnauthorizedBodySchema.extend({
  error_reference: z.string(),
}).meta({ id: "ServerError" });
/** 500: `{ message, error_reference }`. */
export type ServerErrorBody = z.infer<typeof ServerErrorBodySchema>;

/** One invalid field of a rejected request: a dotted path and what is wrong. */
export const FieldIssueSchema = z.looseObject({
  path: z.string(),
  message: z.string(),
}).meta({ id: "FieldIssue" });
/** One invalid field of a rejected request. */
export type FieldIssue = z.infer<typeof FieldIssueSchema>;

/**
 * The dotted path of a zod issue (`steps.0.name`), optionally under a
 * prefix: the one way both halves name a field in a {@linkcode FieldIssue}.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { issuePath } from "./errors.ts";
 * assertEquals(issuePath(["steps", 0, "name"]), "steps.0.name");
 * assertEquals(issuePath(["n"], "body"), "body.n");
 * assertEquals(issuePath([]), "");
 * ```
 */
export function issuePath(
  path: readonly PropertyKey[],
  prefix = "",
): string {
  const parts = path.map(String);
  return (prefix ? [prefix, ...parts] : parts).join(".");
}

/**
 * Zod's issues as {@linkcode FieldIssue}s: a dotted path and the message.
 *
 * @example
 * ```ts
 * import { assertEquals } from "@std/assert";
 * import { z } from "zod";
 * import { fieldIssues } from "./errors.ts";
 * const r = z.object({ n: z.number() }).safeParse({ n: "1" });
 * assertEquals(fieldIssues(r.error!.issues)[0].path, "n");
 * ```
 */
export function fieldIssues(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  prefix = "",
): FieldIssue[] {
  return issues.map((i) => ({
    path: issuePath(i.path, prefix),
    message: i.message,
  }));
}

/** 400 (docs/contract.md#errors): `{ message, error_code: "VALIDATION_ERROR", errors }`. */
export const ValidationErrorBodySchema = ErrorBodySchema.extend({
  errors: z.array(FieldIssueSchema),
}).meta({ id: "ValidationError" });
/** 400 body. */
export type ValidationErrorBody = z.infer<typeof ValidationErrorBodySchema>;

/**
 * Any error body: every field optional, so the client can read whatever the
 * service sent without throwing while it reports an error.
 */
export const AnyErrorBodySchema = z.looseObject({
  message: z.string().optional(),
  error_code: z.string().optional(),
  error_reference: z.string().optional(),
  dependants: z.array(DependantSchema).optional(),
  errors: z.array(FieldIssueSchema).optional(),
});
/** Any error body, every field optional. */
export type AnyErrorBody = z.infer<typeof AnyErrorBodySchema>;

/** `error_code` values the local platform sends (the hosted service's are not shown). */
export const ERROR_CODES = {
  validation: "VALIDATION_ERROR",
  unauthorized: "UNAUTHORIZED",
  forbidden: "FORBIDDEN",
  notFound: "NOT_FOUND",
  conflict: "CONFLICT",
  integrity: "INTEGRITY_ERROR",
  rateLimited: "RATE_LIMITED",
  internal: "INTERNAL_ERROR",
} as const;
