// deno-doc-ignore-file private-type-ref missing-explicit-type -- wire types are inferred from these zod schemas (one source of truth), so they name zod's own types
/**
 * Routes of a collection that lives under another resource (a data schema's
 * labels and protections, a training job's constraints): list, get, delete
 * and, where it may be added later, create, each under the parent's path.
 * label_routes.ts and constraint_routes.ts describe theirs with it.
 *
 * @module
 */
import type { z } from "zod";
import { listOf } from "./common.ts";

/** What one sub-collection's routes say. */
export interface SubCollection<
  P extends string,
  S extends string,
  I extends string,
  R extends z.ZodType,
> {
  /** The parent's path (`/data-schemas/{id}`). */
  parent: P;
  /** The parent's noun ("data schema"). */
  parentNoun: string;
  /** The collection's path segment (`friendly-names`). */
  segment: S;
  /** The item's path parameter (`label_id`). */
  param: I;
  /** The item's noun ("friendly name"). */
  noun: string;
  /** The contract section that defines it (a `docs/contract.md#labels-and-anchors`-style link). */
  section: string;
  /** The item as the service returns it. */
  response: R;
  /** What the delete's integrity rule says. */
  integrity: string;
}

/** List, get and delete of a sub-collection. */
export function subRoutes<
  P extends string,
  S extends string,
  I extends string,
  R extends z.ZodType,
>(c: SubCollection<P, S, I, R>) {
  const path = `${c.parent}/${c.segment}` as `${P}/${S}`;
  const item = `${path}/{${c.param}}` as `${P}/${S}/{${I}}`;
  return {
    list: {
      method: "GET",
      path,
      status: 200,
      response: listOf(c.response),
      list: true,
      noun: c.noun,
      summary: `List the ${c.noun}s of a ${c.parentNoun}`,
      description:
        `One page of the ${c.noun}s of a ${c.parentNoun} (our extension, ${c.section}).`,
    },
    get: {
      method: "GET",
      path: item,
      status: 200,
      response: c.response,
      noun: c.noun,
      summary: `Retrieve a ${c.noun} of a ${c.parentNoun}`,
    },
    delete: {
      method: "DELETE",
      path: item,
      status: 204,
      noun: c.noun,
      summary: `Delete a ${c.noun} of a ${c.parentNoun}`,
      description: `Deletes a ${c.noun}. ${c.integrity}`,
    },
  } as const;
}

/** Create, list, get and delete of a sub-collection items may be added to. */
export function subRoutesWithCreate<
  P extends string,
  S extends string,
  I extends string,
  C extends z.ZodType,
  R extends z.ZodType,
>(c: SubCollection<P, S, I, R> & { body: C; adds: string }) {
  const read = subRoutes(c);
  return {
    create: {
      method: "POST",
      path: read.list.path,
      status: 201,
      body: c.body,
      response: c.response,
      noun: c.noun,
      summary: `Give a ${c.noun} of a ${c.parentNoun} (our extension)`,
      description: c.adds,
    },
    ...read,
  } as const;
}
