// deno-doc-ignore-file private-type-ref missing-explicit-type -- wire types are inferred from these zod schemas (one source of truth), so they name zod's own types
/**
 * Workspaces: where training jobs run (sent as `X-Active-Workspace`).
 *
 * @module
 */
import { z } from "zod";
import { configurationFields, NameSchema } from "./common.ts";

/** A workspace. */
export const WorkspaceSchema = z.looseObject({
  ...configurationFields,
}).meta({ id: "Workspace" });
/** A workspace. */
export type Workspace = z.infer<typeof WorkspaceSchema>;

/** Body of `POST /workspaces`. */
export const WorkspaceCreateSchema = z.object({ name: NameSchema }).meta({
  id: "WorkspaceCreate",
});
/** Body of `POST /workspaces`. */
export type WorkspaceCreate = z.input<typeof WorkspaceCreateSchema>;
