// deno-doc-ignore-file private-type-ref missing-explicit-type missing-return-type -- protected builder internals are typed by the zod request schemas they validate with
/**
 * The data schema builder: columns and their roles, with the feature and
 * target names kept in the types so that later steps (onboarding targets,
 * views queries, result columns) are checked by the compiler.
 *
 * ```ts ignore
 * const schema = await ml.schema("churn")
 *   .feature("tenure", ml.integer())
 *   .feature("contract", ml.category())
 *   .target("churn", ml.category())
 *   .create(); // Typed<DataSchema, "tenure" | "contract", "churn">
 * ```
 *
 * @module
 */
import {
  type DataSchema,
  DataSchemaCreateSchema,
  type SchemaFieldCreate,
} from "../schemas/data_schemas.ts";
import { ConfigurationError } from "../http/errors.ts";
import { KINDS } from "../schemas/routes.ts";
import { BodyBuilder, type CreateOptions } from "./base.ts";
import type { BuilderClient } from "./builder_client.ts";
import { category, type FieldType } from "./fields.ts";
import type { Typed } from "./types.ts";
import { invalid } from "./validate.ts";
import {
  type AnchorSpec,
  type AnchorValue,
  type FeatureOptions,
  type FieldLabelOptions,
  isFieldType,
  labelArrays,
  mergeLabels,
} from "./schema_labels.ts";

/** A schema field as a builder holds it (the create-request shape). */
export type FieldSpec = {
  readonly name: string;
  readonly data_type: FieldType["data_type"];
  readonly designation: SchemaFieldCreate["designation"];
  readonly semantic_type: FieldType["semantic_type"];
  /** What the field is shown as (docs/contract.md#labels-and-anchors). */
  readonly labels?: FieldLabelOptions;
};

/**
 * The prediction type a schema's targets call for: `REGRESSION` when a target
 * is a CONTINUOUS number (a price, a strength), else `CLASSIFICATION`
 * (CATEGORICAL targets). `ml.onboard()` and `ml.quickstart()` use it when no
 * `predictionType` is given.
 *
 * @example
 * ```ts
 * import { predictionTypeOf } from "./schema.ts";
 * import { category, float } from "./fields.ts";
 * predictionTypeOf([{ name: "price", designation: "TARGET", ...float() }]); // "REGRESSION"
 * predictionTypeOf([{ name: "churn", designation: "TARGET", ...category() }]); // "CLASSIFICATION"
 * ```
 */
export function predictionTypeOf(
  fields: readonly {
    name?: string;
    designation?: string;
    data_type?: { data_type?: string } | null;
    semantic_type?: string;
  }[],
): "CLASSIFICATION" | "REGRESSION" {
  return fields.some((f) =>
      f.designation === "TARGET" && f.data_type?.data_type === "NUMBER" &&
      f.semantic_type === "CONTINUOUS"
    )
    ? "REGRESSION"
    : "CLASSIFICATION";
}

/** A point an inferred schema wants a human to look at. */
export interface ReviewNote {
  /** The column. */
  field: string;
  /** What was seen, e.g. `only the values 0 and 1`. */
  reason: string;
  /** What to do if the guess is wrong, e.g. `.retype("x", ml.flag())`. */
  suggestion: string;
}

/**
 * An immutable builder of a data schema: each method returns a new builder.
 * `F` and `T` collect the feature and target names.
 *
 * @example
 * ```ts
 * import { SchemaBuilder } from "./schema.ts";
 * import { category, integer } from "./fields.ts";
 * const draft = new SchemaBuilder(undefined, "churn")
 *   .feature("tenure", integer())
 *   .feature("contract", category())
 *   .target("churn");
 * draft.body().fields.map((f) => `${f.name}:${f.designation}`).join(",");
 * // "tenure:FEATURE,contract:FEATURE,churn:TARGET"
 * ```
 */
export class SchemaBuilder<F extends string = never, T extends string = never>
  extends BodyBuilder<typeof DataSchemaCreateSchema> {
  /** What is built: the route table's noun. */
  readonly what = KINDS.dataSchemas.noun;
  /** The zod schema of the body. */
  protected readonly schema = DataSchemaCreateSchema;
  /** The schema's name. */
  readonly name: string;
  /** The fields, in order. */
  readonly fields: readonly FieldSpec[];
  /** Points an inference left for review (empty for a hand-built schema). */
  readonly review: readonly ReviewNote[];
  /** Data anchors to create with the schema. */
  readonly anchors: readonly AnchorSpec[];
  /** Data protections: each a list of fields a model must not use. */
  readonly protections: readonly (readonly string[])[];
  readonly #client?: BuilderClient;
  #created?: Promise<Typed<DataSchema, F, T>>;

  /**
   * A builder bound to `client` (`undefined` for one that can only show its
   * body), with optional starting fields and review notes.
   */
  constructor(
    client: BuilderClient | undefined,
    name: string,
    fields: readonly FieldSpec[] = [],
    review: readonly ReviewNote[] = [],
    anchors: readonly AnchorSpec[] = [],
    protections: readonly (readonly string[])[] = [],
  ) {
    super();
    this.#client = client;
    this.name = name;
    this.fields = fields;
    this.review = review;
    this.anchors = anchors;
    this.protections = protections;
  }

  /**
   * Protects features (one data protection): models trained on data of
   * this schema never use them, and report their metrics per group of
   * each (docs/contract.md#model-constraints-and-protected-fields).
   *
   * @example
   * ```ts
   * import { SchemaBuilder } from "./schema.ts";
   * import { category, integer } from "./fields.ts";
   * const s = new SchemaBuilder(undefined, "s").feature("gender", category())
   *   .feature("tenure", integer()).target("churn").protect("gender");
   * if (s.body().data_protections[0].fields[0] !== "gender") throw new Error("example failed");
   * ```
   */
  protect(...names: F[]): SchemaBuilder<F, T> {
    for (const name of names) this.#indexOf(name);
    return new SchemaBuilder<F, T>(
      this.#client,
      this.name,
      this.fields,
      this.review,
      this.anchors,
      [...this.protections, names],
    );
  }

  /**
   * Adds a feature column, optionally with what it is shown as:
   * `.feature("monthly_charges", float(), { friendlyName: "Monthly charges", unit: "USD" })`.
   * With options only (`.feature("tenure", { unit: "months" })`) it labels
   * a field already in the schema (an inferred one), or adds one of
   * `options.type`. A name already in the schema is otherwise an error.
   *
   * @example
   * ```ts
   * import { SchemaBuilder } from "./schema.ts";
   * import { float } from "./fields.ts";
   * const s = new SchemaBuilder(undefined, "churn")
   *   .feature("monthly_charges", float(), { friendlyName: "Monthly charges", unit: "USD" })
   *   .feature("monthly_charges", { dimension: "currency" })
   *   .target("churn", undefined, { categories: { Yes: "Churned" } });
   * const body = s.body();
   * if (body.units?.[0].unit !== "USD" || body.dimensions?.[0].dimension !== "currency") throw new Error();
   * if (body.category_friendly_names?.[0].friendly_name !== "Churned") throw new Error();
   * ```
   */
  feature<N extends string>(
    name: N,
    type: FieldType | FeatureOptions,
    labels?: FieldLabelOptions,
  ): SchemaBuilder<F | N, T> {
    if (!isFieldType(type)) {
      const at = this.fields.findIndex((f) => f.name === name);
      if (at >= 0 && !type.type) {
        return this.label(name as unknown as F, type) as SchemaBuilder<
          F | N,
          T
        >;
      }
      if (!type.type) {
        throw invalid(this.what, [{
          path: `fields.${this.fields.length}.data_type`,
          message: `"${name}" is not in the schema yet: give its type, ` +
            ".feature(name, ml.float(), labels) or { type: ml.float(), ... }",
        }]);
      }
      return this.feature(name, type.type, type);
    }
    return this.#with<F | N, T>(
      this.#added(this.fields, name, type, "FEATURE", labels),
    );
  }

  /**
   * Sets what a field is shown as (friendly name, unit, dimension, category
   * names), merged with what it had.
   */
  label(name: F | T, labels: FieldLabelOptions): SchemaBuilder<F, T> {
    const i = this.#indexOf(name);
    return this.#with(
      this.fields.map((f, j) =>
        j === i ? { ...f, labels: mergeLabels(f.labels, labels) } : f
      ),
    );
  }

  /**
   * Adds a data anchor (docs/contract.md#data-anchors): reference values of
   * some features that views and explanations can measure contributions
   * against, "why is this row different from this one"; with
   * `{ default: true }` every views call and explanation that names no other
   * anchor uses it.
   *
   * @example
   * ```ts
   * import { SchemaBuilder } from "./schema.ts";
   * import { float } from "./fields.ts";
   * const s = new SchemaBuilder(undefined, "s").feature("tenure", float()).target("y")
   *   .anchor("median customer", { tenure: 29 }, { default: true });
   * if (s.body().data_anchors?.[0].terms[0].value !== 29) throw new Error();
   * ```
   */
  anchor(
    name: string,
    values: Partial<Record<F, AnchorValue>>,
    options: { default?: boolean } = {},
  ): SchemaBuilder<F, T> {
    return new SchemaBuilder<F, T>(
      this.#client,
      this.name,
      this.fields,
      this.review,
      [...this.anchors, {
        name,
        default: options.default ?? false,
        values: values as Record<string, AnchorValue>,
      }],
      this.protections,
    );
  }

  /**
   * Adds several feature columns: `.features({ tenure: ml.integer(), ... })`.
   *
   * @example
   * ```ts
   * import { SchemaBuilder } from "./schema.ts";
   * import { category, float } from "./fields.ts";
   * const s = new SchemaBuilder(undefined, "s").features({ a: float(), b: category() });
   * s.featureNames.join(); // "a,b"
   * ```
   */
  features<M extends Record<string, FieldType>>(
    map: M,
  ): SchemaBuilder<F | (keyof M & string), T> {
    let fields = this.fields;
    for (const [name, type] of Object.entries(map)) {
      fields = this.#added(fields, name, type, "FEATURE");
    }
    return this.#with<F | (keyof M & string), T>(fields);
  }

  /**
   * Adds a target column (default type: `category()`, for classification;
   * a number such as `float()` is a regression target).
   */
  target<N extends string>(
    name: N,
    type: FieldType = category(),
    labels?: FieldLabelOptions,
  ): SchemaBuilder<F, T | N> {
    return this.#with<F, T | N>(
      this.#added(this.fields, name, type, "TARGET", labels),
    );
  }

  /**
   * Changes the type of a column already in the schema (e.g. a reviewed
   * 0/1 column to `flag()`).
   *
   * @example
   * ```ts
   * import { SchemaBuilder } from "./schema.ts";
   * import { flag, integer } from "./fields.ts";
   * const s = new SchemaBuilder(undefined, "s").feature("senior", integer()).target("y")
   *   .retype("senior", flag());
   * s.fields[0].semantic_type; // "CATEGORICAL"
   * ```
   */
  retype(name: F | T, type: FieldType): SchemaBuilder<F, T> {
    const i = this.#indexOf(name);
    return this.#with(
      this.fields.map((f, j) => j === i ? { ...f, ...copyType(type) } : f),
    );
  }

  /** Makes an existing column the target (or one more target). */
  designateTarget<N extends F>(name: N): SchemaBuilder<Exclude<F, N>, T | N> {
    const i = this.#indexOf(name);
    return this.#with(
      this.fields.map((f, j) => j === i ? { ...f, designation: "TARGET" } : f),
    );
  }

  /** Removes a column (an id, a free-text note, a leak of the target...). */
  drop<N extends F | T>(name: N): SchemaBuilder<Exclude<F, N>, Exclude<T, N>> {
    const i = this.#indexOf(name);
    return this.#with(
      this.fields.filter((_, j) => j !== i),
      this.review.filter((note) => note.field !== name),
    );
  }

  /** The same columns under another schema name. */
  named(name: string): SchemaBuilder<F, T> {
    return new SchemaBuilder(
      this.#client,
      name,
      this.fields,
      this.review,
      this.anchors,
      this.protections,
    );
  }

  /** Names of the feature columns. */
  get featureNames(): F[] {
    return this.fields.filter((f) => f.designation === "FEATURE").map((f) =>
      f.name as F
    );
  }

  /** Names of the target columns. */
  get targetNames(): T[] {
    return this.fields.filter((f) => f.designation === "TARGET").map((f) =>
      f.name as T
    );
  }

  /**
   * `REGRESSION` when a target is a CONTINUOUS number, else
   * `CLASSIFICATION` (see {@linkcode predictionTypeOf}).
   */
  get predictionType(): "CLASSIFICATION" | "REGRESSION" {
    return predictionTypeOf(this.fields);
  }

  /** The body as given. */
  protected raw(): Record<string, unknown> {
    return {
      name: this.name,
      fields: this.fields.map(({ labels: _labels, ...f }) => ({ ...f })),
      ...labelArrays(this.fields, this.anchors),
      ...(this.protections.length
        ? {
          data_protections: this.protections.map((p) => ({ fields: [...p] })),
        }
        : {}),
    };
  }

  /**
   * The `POST /data-schemas` body, validated: a name, unique field names,
   * at least one feature and one target, types that fit together.
   */
  override body(): ReturnType<
    BodyBuilder<typeof DataSchemaCreateSchema>["body"]
  > {
    const body = super.body();
    const issues = [];
    if (!body.fields.some((f) => f.designation === "TARGET")) {
      issues.push({
        path: "fields",
        message:
          'no TARGET field: add the column to predict with .target("name")',
      });
    }
    if (!body.fields.some((f) => f.designation === "FEATURE")) {
      issues.push({
        path: "fields",
        message:
          'no FEATURE field: add input columns with .feature("name", type)',
      });
    }
    if (issues.length) throw invalid(this.what, issues);
    return body;
  }

  /**
   * Sends `POST /data-schemas` the first time it is called and returns that
   * same promise on every later call (one builder, one request: each edit
   * above returns a new builder, which sends its own); resolves to the
   * schema, typed with its columns. Unlike the other builders a draft is
   * not awaitable: end it with `.create()`.
   */
  create(options?: CreateOptions): Promise<Typed<DataSchema, F, T>> {
    return (this.#created ??= this.#send(options));
  }

  async #send(options?: CreateOptions): Promise<Typed<DataSchema, F, T>> {
    const body = this.body();
    if (!this.#client) {
      throw new ConfigurationError({
        message:
          `This schema builder has no client, so "${this.name}" cannot be created`,
        hint:
          "Start from ml.schema(...) or ml.inferSchema(...) on a connected MLPlatform",
      });
    }
    return await this.#client.dataSchemas.create(body, options);
  }

  /** `fields` with one more column; a name already there is an error. */
  #added(
    fields: readonly FieldSpec[],
    name: string,
    type: FieldType,
    designation: FieldSpec["designation"],
    labels?: FieldLabelOptions,
  ): FieldSpec[] {
    const at = fields.findIndex((f) => f.name === name);
    if (at >= 0) {
      throw invalid(this.what, [{
        path: `fields.${fields.length}.name`,
        message: `duplicate field name "${name}" (already field ${at}); ` +
          "use another name, or .retype() to change the existing one",
      }]);
    }
    return [...fields, {
      name,
      designation,
      ...copyType(type),
      ...(labels ? { labels: mergeLabels(undefined, labels) } : {}),
    }];
  }

  #indexOf(name: string): number {
    const i = this.fields.findIndex((f) => f.name === name);
    if (i < 0) {
      throw invalid(this.what, [{
        path: "fields",
        message: `no field named "${name}" (fields: ${
          this.fields.map((f) => f.name).join(", ") || "none"
        })`,
      }]);
    }
    return i;
  }

  // The column names are type-level only: each edit states what it makes.
  #with<F2 extends string = F, T2 extends string = T>(
    fields: readonly FieldSpec[],
    review: readonly ReviewNote[] = this.review,
  ): SchemaBuilder<F2, T2> {
    // A protection of a dropped field is dropped with it.
    const names = new Set(fields.map((f) => f.name));
    const protections = this.protections.map((p) =>
      p.filter((n) => names.has(n))
    ).filter((p) => p.length > 0);
    return new SchemaBuilder<F2, T2>(
      this.#client,
      this.name,
      fields,
      review,
      this.anchors,
      protections,
    );
  }
}

function copyType(
  type: FieldType,
): Pick<FieldSpec, "data_type" | "semantic_type"> {
  return {
    data_type: {
      data_type: type.data_type.data_type,
      format: type.data_type.format,
    },
    semantic_type: type.semantic_type,
  };
}
