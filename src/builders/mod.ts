/**
 * Fluent builders for every create of the platform: each validates its
 * request body with the zod schemas before anything is sent, shows it with
 * `body()`, and ends in `create()`.
 *
 * ## One builder, one request: what `await builder` means
 *
 * A builder stands for one request. Its first `create()` sends it (after
 * validating the body: an invalid body is refused, naming the field, and
 * nothing is sent); every later `create()` returns that same outcome, the
 * same promise or, for a job builder, the same `Job`, and ignores the
 * options it is given. `await builder` is exactly `await builder.create()`:
 * it shares that one request, so awaiting twice, or awaiting after
 * `create()`, never creates a second resource. What `await` gives is the
 * resource (`await ml.workspace("lab")` is the workspace); for a job builder
 * it is the job's result once it has finished (`await ml.trainingJob(...)`
 * is the model), while `create()` hands back the running `Job` at once. To
 * send another request, make another builder: `with()` and every setter
 * return a new, unsent one.
 *
 * The schema builder follows the same once-only `create()` but is not
 * awaitable: a schema is a draft you edit (`ml.inferSchema()` resolves to
 * one for review, which awaiting must not create), so it ends with an
 * explicit `.create()`. Awaiting a draft without it gives the draft back,
 * and the compiler refuses that draft where a schema is expected: it has no
 * `id`.
 *
 * ```ts
 * import { WorkspaceBuilder } from "./workspace.ts";
 * import type { BuilderClient } from "./builder_client.ts";
 * const sent: string[] = [];
 * const client = {
 *   workspaces: { create: (body: { name: string }) => Promise.resolve({ id: `ws_${sent.push(body.name)}`, ...body }) },
 * } as unknown as BuilderClient;
 * const lab = new WorkspaceBuilder(client, { name: "lab" });
 * const first = await lab.create();
 * const again = await lab; // the same request: nothing more is sent
 * if (sent.length !== 1 || again !== first) throw new Error(`sent ${sent}`);
 * await lab.with({ name: "lab-2" }); // another builder, another request
 * if (sent.join() !== "lab,lab-2") throw new Error(`sent ${sent}`);
 * ```
 *
 * ## Adding a resource builder
 *
 * 1. Give its route family a `create` route in `schemas/routes.ts` (and a
 *    noun in `KINDS`), and its collection a place in {@linkcode BuilderClient}.
 * 2. Write its options interface (camelCase, documented).
 * 3. Extend `ResourceBuilder<"family", Options>` with
 *    `protected readonly spec = this.define({ route: "family" })`; add
 *    `wire` only for options whose wire field is neither their snake_case
 *    name nor, for a reference, that name plus `_id` (`dataset` ->
 *    `dataset_id`; fields ending in `_id` take a resource or its id), and
 *    `defaults` for derived values. A job that makes an artifact extends
 *    `ProducingJobBuilder<"family", Options<C>, C>`, where
 *    `C extends ColumnSet` is the column set (feature and target names) that
 *    its input carries and its artifact keeps, and is followed as `KINDS`
 *    says (`produces`); any other job extends `JobBuilder` and adds `steps`.
 * 4. Add a method to `MLPlatform` that returns `new YourBuilder(this, options)`.
 *
 * @module
 */
export * from "./types.ts";
export * from "./fields.ts";
export * from "./validate.ts";
export * from "./base.ts";
export * from "./spec.ts";
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
