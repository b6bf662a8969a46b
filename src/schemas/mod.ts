// deno-doc-ignore-file private-type-ref missing-explicit-type -- wire types are inferred from these zod schemas (one source of truth), so they name zod's own types
/**
 * The zod schemas of every wire shape: resources, request bodies, list
 * envelopes and error bodies, plus the route table. One source of truth for
 * the client and the local platform alike; every type is inferred from them.
 *
 * @module
 */
export * from "./common.ts";
export * from "./errors.ts";
export * from "./auth.ts";
export * from "./accounts.ts";
export * from "./storage.ts";
export * from "./compute.ts";
export * from "./data_schemas.ts";
export * from "./jobs.ts";
export * from "./ingestion.ts";
export * from "./onboarding.ts";
export * from "./workspaces.ts";
export * from "./learning_curve.ts";
export * from "./training.ts";
export * from "./constraints.ts";
export * from "./deployments.ts";
export * from "./views.ts";
export * from "./artifacts.ts";
export * from "./batch.ts";
export * from "./labels.ts";
export * from "./label_display.ts";
export * from "./routes.ts";
