/**
 * The one mechanism behind every collection kept in an array of a parent
 * record and answered under the parent's path (a data schema's labels and
 * protections, a protection's fields, a training job's constraints; their
 * routes: src/schemas/sub_routes.ts): list, get, and delete with its
 * integrity rule.
 *
 * @module
 */
import { type Dependant, ListQuerySchema } from "../../schemas/mod.ts";
import type { PlatformContext } from "../context.ts";
import type { Caller } from "../http/auth.ts";
import { integrityError, notFound } from "../errors.ts";
import { parseOr400 } from "../http/request_body.ts";
import { pageOf } from "../store/records.ts";
import type { StoredRecord } from "../store/store.ts";
import type { Reply, SharedInput } from "./types.ts";

/** A sub-resource route's path parameters. */
export type Params = Record<string, string>;

/**
 * List, get and delete of items kept in an array of a parent record: the
 * one mechanism behind every collection here (each says how to find its
 * parent and items, what blocks a delete, and what the parent becomes).
 */
export function subCollection<T extends { id: string }, R extends StoredRecord>(
  spec: {
    noun: string;
    param: string;
    parent: (ctx: PlatformContext, caller: Caller, params: Params) => R;
    items: (parent: R, params: Params) => T[];
    blockers: (ctx: PlatformContext, parent: R, item: T) => Dependant[];
    remove: (ctx: PlatformContext, parent: R, item: T, params: Params) => void;
  },
) {
  type In = SharedInput<Params>;
  const find = ({ ctx, caller, params }: In) => {
    const parent = spec.parent(ctx, caller, params);
    const item = spec.items(parent, params).find((i) =>
      i.id === params[spec.param]
    );
    if (!item) throw notFound(spec.noun, params[spec.param]);
    return { parent, item };
  };
  return {
    list: (input: In): Reply<never> => ({
      body: pageOf(
        spec.items(
          spec.parent(input.ctx, input.caller, input.params),
          input.params,
        ),
        parseOr400(ListQuerySchema, input.query),
      ) as never,
    }),
    get: (input: In): Reply<never> => ({
      body: find(input).item as never,
    }),
    delete: (input: In): Reply<undefined> => {
      const { parent, item } = find(input);
      const blockers = spec.blockers(input.ctx, parent, item);
      if (blockers.length) throw integrityError(spec.noun, item.id, blockers);
      spec.remove(input.ctx, parent, item, input.params);
      return { body: undefined };
    },
  };
}
