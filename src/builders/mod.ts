/**
 * Fluent builders for every create of the platform: each validates its
 * request body with the zod schemas before anything is sent, shows it with
 * `body()`, and ends in `create()`.
 *
 * @module
 */
export * from "./types.ts";
export * from "./fields.ts";
export * from "./validate.ts";
export * from "./base.ts";
export * from "./schema.ts";
export * from "./storage.ts";
export * from "./compute.ts";
export * from "./workspace.ts";
export * from "./ingestion.ts";
export * from "./onboarding.ts";
export * from "./hyperparameters.ts";
export * from "./training.ts";
export * from "./deployment_configuration.ts";
export * from "./deployment.ts";
export * from "./views.ts";
export * from "./views_result.ts";
export * from "./job_builder.ts";
export type { BuilderClient, Creatable, Readable } from "./builder_client.ts";
export * from "./attach.ts";
