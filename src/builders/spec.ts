// deno-doc-ignore-file private-type-ref missing-explicit-type missing-return-type -- protected builder internals are typed by the zod request schemas they validate with
/**
 * Builders from one definition: a {@linkcode BuilderSpec} names the route
 * family a builder creates in, and the route table (`schemas/routes.ts`)
 * gives the rest: the body's zod schema (its `create` route's), the client
 * collection it is sent through, the noun its messages use (`KINDS`), and
 * the wire names of the options, which are their snake_case (a reference
 * option `x` goes to the body's `x_id`) unless the spec renames them. The shape every builder shares (options to body,
 * field names in messages, validation, `create()` once, awaiting) is
 * written once, here and in `base.ts`.
 *
 * @module
 */
import type { z } from "zod";
import { KINDS, type Routes, routes } from "../schemas/routes.ts";
import { ClientBuilder, type CreateOptions, snakeCase } from "./base.ts";
import type { BuilderClient, Creatable } from "./builder_client.ts";
import { idOf, type RefLike } from "./types.ts";
import { invalid, nearestName } from "./validate.ts";

/** The route families a builder creates in: a `create` route in the table, and on the client. */
export type CreateKey = {
  [K in keyof Routes & keyof BuilderClient]: Routes[K] extends
    { create: { body: z.ZodType } } ? K : never;
}[keyof Routes & keyof BuilderClient];

/** The zod schema of family `K`'s create body, from the route table. */
export type BodySchema<K extends CreateKey> = Routes[K] extends
  { create: { body: infer S extends z.ZodType } } ? S : never;

/** The wire fields of family `K`'s create body. */
export type WireField<K extends CreateKey> =
  & keyof z.input<BodySchema<K>>
  & string;

/** What family `K`'s `create` resolves to on the client. */
export type Created<K extends CreateKey> = Awaited<
  ReturnType<BuilderClient[K]["create"]>
>;

/**
 * Everything particular to one builder. Options reach the body as their
 * snake_case name (`maximumConcurrency` -> `maximum_concurrency`), or as
 * that name plus `_id` when only that is a body field (`dataset` ->
 * `dataset_id`), unless `wire` renames them; a wire field ending in `_id`
 * takes a resource or its id (`compute: cpu` sends
 * `compute_configuration_id: cpu.id`).
 */
export interface BuilderSpec<K extends CreateKey, O> {
  /** The route family created in (`"storageConnectors"`): schema, client collection and noun. */
  readonly route: K;
  /** Options whose wire field is not their snake_case; `null` keeps one off the wire. */
  readonly wire?: { readonly [P in keyof O]?: WireField<K> | null };
  /** Values for the options not given, which may follow from the given ones. */
  readonly defaults?: (options: Readonly<O>) => Partial<O>;
  /**
   * Other libraries' names for the body's fields (snake_case name -> wire
   * field), suggested when one is given: `max_iter` is scikit-learn's
   * `max_rounds`. They are not accepted.
   */
  readonly seenAs?: Readonly<Record<string, string>>;
}

/**
 * The `defaults` of a resource named after what it makes:
 * `nameAfter("ingest", "datasourceName")` names an ingestion job
 * `ingest-<datasourceName>` unless a `name` is given.
 *
 * @example
 * ```ts
 * import { nameAfter } from "./spec.ts";
 * const defaults = nameAfter<{ name?: string; modelName: string }>("train", "modelName");
 * if (defaults({ modelName: "churn" }).name !== "train-churn") throw new Error();
 * ```
 */
export function nameAfter<O extends { name?: string }>(
  prefix: string,
  option: keyof O,
): (options: Readonly<O>) => Partial<O> {
  return (options) => {
    const made = options[option];
    return (made ? { name: `${prefix}-${made}` } : {}) as Partial<O>;
  };
}

/** Options every job builder has that are not sent (`JobControl`'s). */
const NOT_SENT = new Set(["progress", "poll"]);

/**
 * A builder whose body, schema and field names come from its
 * {@linkcode BuilderSpec}. `Made` is what `create()` returns, `T` what
 * `await builder` gives.
 */
export abstract class SpecBuilder<
  K extends CreateKey,
  O extends object,
  Made extends PromiseLike<T>,
  T,
> extends ClientBuilder<O, BodySchema<K>, Made, T> {
  /** The builder's definition. */
  protected abstract readonly spec: BuilderSpec<K, O>;

  /**
   * Types a subclass's spec by its route and options (a field initialiser
   * is not typed by the base class's declaration):
   * `protected readonly spec = this.define({ route: "workspaces", ... })`.
   */
  protected define(spec: BuilderSpec<K, O>): BuilderSpec<K, O> {
    return spec;
  }

  /** What is built, for messages: the route family's noun (`"storage connector"`). */
  get what(): string {
    return KINDS[this.spec.route].noun;
  }

  /** The body schema: the create route's, from the route table. */
  protected get schema(): BodySchema<K> {
    return (routes[this.spec.route] as { create: { body: z.ZodType } }).create
      .body as BodySchema<K>;
  }

  /** The options with the spec's defaults under the given ones. */
  #merged(): Record<string, unknown> {
    const given = Object.entries(this.options).filter(([, v]) =>
      v !== undefined
    );
    return {
      ...this.spec.defaults?.(this.options),
      ...Object.fromEntries(given),
    };
  }

  /** Option -> wire name where it is not the option's snake_case (`null`: not sent). */
  protected wireNames(): Readonly<Record<string, string | null | undefined>> {
    return this.spec.wire ?? {};
  }

  #wireName(option: string): string | null {
    const renamed = this.wireNames()[option];
    if (renamed !== undefined) return renamed;
    const wire = snakeCase(option);
    const fields = this.#fields();
    return !fields.has(wire) && fields.has(`${wire}_id`) ? `${wire}_id` : wire;
  }

  /** The body's field names, from the create schema. */
  #fields(): Set<string> {
    return new Set(
      Object.keys((this.schema as { shape?: object }).shape ?? {}),
    );
  }

  /**
   * The validated body; an option the body has no field for (a typo such
   * as `learningrate`, an option of another builder, `__proto__`) is a
   * `ValidationError` naming it: it was dropped silently, so the typo'd
   * setting took its default without a word.
   */
  override body(): z.output<BodySchema<K>> {
    const fields = this.#fields();
    const given = new Set(Object.keys(this.options));
    // The body's options, not the unknown ones given (optionNames lists
    // those too, so a typo was once suggested as itself).
    const known = Object.entries(this.optionNames())
      .filter(([wire, option]) => fields.has(wire) || !given.has(option));
    const issues = [];
    for (const option of Object.keys(this.options)) {
      const value = (this.options as Record<string, unknown>)[option];
      const wire = this.#wireName(option);
      if (value === undefined || wire === null || NOT_SENT.has(option)) {
        continue;
      }
      if (fields.has(wire)) continue;
      // Suggested as the caller writes names: with underscores, the wire
      // name (which the builder takes too).
      const styled = ([wire, name]: [string, string]) =>
        option.includes("_") ? wire : name;
      const alias = this.spec.seenAs?.[snakeCase(option)];
      const aliased = alias && known.find(([wire]) => wire === alias);
      const like = aliased
        ? styled(aliased)
        : nearestName(option, known.map(styled));
      issues.push({
        path: option,
        message: `unknown option "${option}"${
          like
            ? ` (did you mean "${like}"?${
              aliased ? ` "${option}" is its name in other libraries` : ""
            })`
            : ""
        }`,
      });
    }
    if (issues.length > 0) throw invalid(this.what, issues);
    return super.body();
  }

  /** The body as given: each option under its wire name, references as ids. */
  protected raw(): Record<string, unknown> {
    const body: Record<string, unknown> = {};
    for (const [option, value] of Object.entries(this.#merged())) {
      const wire = this.#wireName(option);
      if (value === undefined || wire === null || NOT_SENT.has(option)) {
        continue;
      }
      body[wire] = wire.endsWith("_id") ? idOf(value as RefLike) : value;
    }
    return body;
  }

  /** The request options `create()` sends with (a builder may add its own). */
  protected requestOptions(options?: CreateOptions): CreateOptions | undefined {
    return options;
  }

  /** Wire -> option names, for every field of the body, given or not. */
  protected override optionNames(): Record<string, string> {
    const names: Record<string, string> = {};
    const fields = this.#fields();
    for (const wire of fields) {
      // `dataset_id` is set by `dataset` (see #wireName).
      const stem = wire.replace(/_id$/, "");
      names[wire] = camelCase(fields.has(stem) ? wire : stem);
    }
    for (const option of Object.keys(this.options)) {
      const wire = this.#wireName(option);
      if (wire !== null) names[wire] = option;
    }
    for (const [option, wire] of Object.entries(this.wireNames())) {
      if (typeof wire === "string") names[wire] = option;
    }
    return names;
  }
}

/**
 * A builder of one resource from its {@linkcode BuilderSpec}: `create()`
 * (or `await`) sends the validated body to the family's `create` and
 * resolves to the resource (`R`, the client's type unless narrowed).
 *
 * @example
 * ```ts
 * import { ResourceBuilder } from "./spec.ts";
 * class TeamSpace extends ResourceBuilder<"workspaces", { name: string }> {
 *   protected readonly spec = this.define({ route: "workspaces" });
 * }
 * const body = new TeamSpace(undefined, { name: "research" }).body();
 * if (body.name !== "research") throw new Error("unexpected body");
 * ```
 */
export abstract class ResourceBuilder<
  K extends CreateKey,
  O extends object,
  R = Created<K>,
> extends SpecBuilder<K, O, Promise<R>, R> {
  /** Validates (an invalid body rejects, unsent), then sends. */
  protected async make(options?: CreateOptions): Promise<R> {
    const body = this.body();
    const client = this.requireClient();
    const collection = client[this.spec.route] as unknown as Creatable<
      z.output<BodySchema<K>>,
      R
    >;
    return await collection.create(body, this.requestOptions(options));
  }
}

/** `data_schema_id` -> `dataSchemaId`: the option a wire field is set by. */
function camelCase(wire: string): string {
  return wire.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}
