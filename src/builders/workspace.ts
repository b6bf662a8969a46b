// deno-doc-ignore-file private-type-ref missing-explicit-type missing-return-type -- protected builder internals are typed by the zod request schemas they validate with
/**
 * Workspace builder: where training jobs run.
 *
 * @module
 */
import { ResourceBuilder } from "./spec.ts";

/** Options of a workspace. */
export interface WorkspaceOptions {
  /** Workspace name (unique in the account). */
  name: string;
}

/**
 * Builds `POST /workspaces`. Immutable; awaitable.
 *
 * @example
 * ```ts
 * import { WorkspaceBuilder } from "./workspace.ts";
 * const body = new WorkspaceBuilder(undefined, { name: "research" }).body();
 * if (JSON.stringify(body) !== '{"name":"research"}') throw new Error(JSON.stringify(body));
 * ```
 */
export class WorkspaceBuilder
  extends ResourceBuilder<"workspaces", WorkspaceOptions> {
  /** Its definition. */
  protected readonly spec = this.define({ route: "workspaces" });
}
