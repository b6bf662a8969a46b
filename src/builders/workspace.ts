// deno-doc-ignore-file private-type-ref missing-explicit-type missing-return-type -- protected builder internals are typed by the zod request schemas they validate with
/**
 * Workspace builder: where training jobs run.
 *
 * @module
 */
import type { z } from "zod";
import {
  type Workspace,
  WorkspaceCreateSchema,
} from "../schemas/workspaces.ts";
import { type CreateOptions, OptionsBuilder } from "./base.ts";

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
 * new WorkspaceBuilder(undefined, { name: "research" }).body(); // { name: "research" }
 * ```
 */
export class WorkspaceBuilder extends OptionsBuilder<
  WorkspaceOptions,
  typeof WorkspaceCreateSchema,
  Workspace
> {
  /** What is built. */
  readonly what = "workspace";
  /** The body schema. */
  protected readonly schema = WorkspaceCreateSchema;
  /** The body as given. */
  protected raw(): Record<string, unknown> {
    return { name: this.options.name };
  }
  /** Sends it. */
  protected send(
    body: z.output<typeof WorkspaceCreateSchema>,
    options?: CreateOptions,
  ): Promise<Workspace> {
    return this.requireClient().workspaces.create(body, options);
  }
}
