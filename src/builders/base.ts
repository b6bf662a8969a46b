// deno-doc-ignore-file private-type-ref missing-explicit-type missing-return-type -- protected builder internals are typed by the zod request schemas they validate with
/**
 * What every builder shares: it is immutable (each setter returns a new
 * builder, so a half-built one can be reused as a template), it shows the
 * request body it would send (`body()` validated, `toJSON()` as is), and it
 * ends in `create()`.
 *
 * @module
 */
import type { z } from "zod";
import { ConfigurationError } from "../http/errors.ts";
import type { BuilderClient, RequestOptions } from "./builder_client.ts";
import { validateBody } from "./validate.ts";

/**
 * Base of the builders whose result is one request body checked by one zod
 * schema. Subclasses give the schema, the raw body, and `create()`.
 */
export abstract class BodyBuilder<S extends z.ZodType> {
  /** What is being built, for messages: `"deployment configuration"`. */
  abstract readonly what: string;
  /** The zod schema of the request body. */
  protected abstract readonly schema: S;
  /** Wire field name -> builder option name, for messages. */
  protected optionNames(): Record<string, string> {
    return {};
  }

  /** The request body as given, before validation and defaults. */
  protected abstract raw(): Record<string, unknown>;

  /**
   * The request body `create()` sends: validated, defaults applied. Throws
   * a `ValidationError` naming each invalid field (nothing is sent).
   */
  body(): z.output<S> {
    return validateBody(this.schema, this.raw(), this.what, this.optionNames());
  }

  /** The body as given (unvalidated), so `JSON.stringify(builder)` never throws. */
  toJSON(): Record<string, unknown> {
    return Object.fromEntries(
      Object.entries(this.raw()).filter(([, v]) => v !== undefined),
    );
  }

  /**
   * `console.log(builder)` in Deno shows what it would send, not its
   * internals (the client, the zod schema).
   */
  [Symbol.for("Deno.customInspect")](
    inspect: (value: unknown, options?: unknown) => string,
    options?: unknown,
  ): string {
    return `${this.constructor.name} ${inspect(this.toJSON(), options)}`;
  }

  /**
   * The same for Node's `util.inspect`. Also keeps deep inspection away from
   * the zod schema: inspecting one with `showHidden` and `getters` before its
   * first use breaks every later parse in zod 4.
   */
  [Symbol.for("nodejs.util.inspect.custom")](
    _depth: number,
    options: unknown,
    inspect: (value: unknown, options?: unknown) => string,
  ): string {
    return `${this.constructor.name} ${inspect(this.toJSON(), options)}`;
  }
}

/** Options of every `create()`: request options (signal, timeout, headers). */
export type CreateOptions = RequestOptions;

/**
 * A unique resource name: `prefix-<time>-<random>`, for the resources the
 * one-call helpers create on your behalf (names are unique per account).
 *
 * @example
 * ```ts
 * import { uniqueName } from "./base.ts";
 * uniqueName("workspace").startsWith("workspace-"); // true
 * ```
 */
export function uniqueName(prefix: string): string {
  const random = crypto.randomUUID().slice(0, 6);
  return `${prefix}-${Date.now().toString(36)}-${random}`;
}

/**
 * `maximumConcurrency` -> `maximum_concurrency`: builder options are
 * camelCase, wire fields snake_case.
 *
 * @example
 * ```ts
 * import { snakeCase } from "./base.ts";
 * snakeCase("oneHotEncodingMaxCategories"); // "one_hot_encoding_max_categories"
 * snakeCase("l1Ratio"); // "l1_ratio"
 * ```
 */
export function snakeCase(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/**
 * A builder bound to a client with an immutable options object: `with()`
 * returns a new builder. It stands for one request: the first `create()`
 * (or `await builder`) sends it, and every later call returns that same
 * outcome (the module doc of `builders/mod.ts` states the rule).
 *
 * `Made` is what `create()` returns (a promise of the resource, or a `Job`);
 * `T` is what `await builder` gives.
 */
export abstract class ClientBuilder<
  O extends object,
  S extends z.ZodType,
  Made extends PromiseLike<T>,
  T,
> extends BodyBuilder<S> implements PromiseLike<T> {
  /** The options given so far. */
  readonly options: Readonly<O>;
  /** The client `create()` sends through. */
  protected readonly client: BuilderClient | undefined;
  #made?: Made;

  /** A builder bound to `client` with `options`. */
  constructor(client: BuilderClient | undefined, options: O) {
    super();
    this.client = client;
    this.options = Object.freeze({ ...options });
  }

  /** A new builder with `patch` merged over these options (not yet sent). */
  with(patch: Partial<O>): this {
    const Ctor = this.constructor as new (
      client: BuilderClient | undefined,
      options: O,
    ) => this;
    return new Ctor(this.client, { ...this.options, ...patch });
  }

  /**
   * The client, or a clear error for a builder made without one; `action`
   * ends the message ("create anything", "start a job").
   */
  protected requireClient(action = "create anything"): BuilderClient {
    if (this.client) return this.client;
    throw new ConfigurationError({
      message:
        `This ${this.what} builder has no client, so it cannot ${action}`,
      hint: "Start from a connected MLPlatform (connect() or local())",
    });
  }

  /** Validates and sends the request: what `create()` does the first time. */
  protected abstract make(options?: CreateOptions): Made;

  /**
   * Sends the request the first time it is called (validating the body
   * first: nothing is sent when it is invalid) and returns that same result
   * on every later call, whatever `options` those pass: one builder, one
   * request. For another, make another builder (`with()` returns one).
   */
  create(options?: CreateOptions): Made {
    return (this.#made ??= this.make(options));
  }

  /** `await builder` is `await builder.create()`: the same single request. */
  then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    let made: Made;
    try {
      made = this.create();
    } catch (error) {
      return Promise.reject(error).then(onfulfilled, onrejected);
    }
    return Promise.resolve(made).then(onfulfilled, onrejected);
  }
}
