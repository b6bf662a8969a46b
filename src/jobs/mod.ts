/**
 * Awaitable platform jobs: {@linkcode Job}, its errors, progress display
 * and polling schedule.
 *
 * @module
 */
export * from "./job.ts";
export * from "./errors.ts";
export * from "./status.ts";
export * from "./progress.ts";
export * from "./poll_schedule.ts";
