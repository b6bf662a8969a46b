/**
 * Types that follow the data: feature and target names declared in a schema
 * builder travel, as type parameters, through the datasource, dataset,
 * model and deployed model to the views query and its result columns. A
 * misspelt column is then a compile error rather than a 400.
 *
 * The names live only in the type system (a phantom, optional property
 * keyed by a type-only symbol); at run time these are the service's plain
 * resource objects.
 *
 * @module
 */
import type { Cell } from "../schemas/views.ts";

/** Type-only key of the feature names a value carries. */
export declare const FEATURES: unique symbol;
/** Type-only key of the target names a value carries. */
export declare const TARGETS: unique symbol;

/**
 * Marks a value with the feature names `F` and target names `T` of its data.
 * Untyped values (`F = string`) are accepted everywhere.
 */
export interface ColumnNames<
  F extends string = string,
  T extends string = string,
> {
  /** Type-only: the feature names. Never present at run time. */
  readonly [FEATURES]?: F;
  /** Type-only: the target names. Never present at run time. */
  readonly [TARGETS]?: T;
}

/** A resource `R` carrying the column names of its data. */
export type Typed<R, F extends string = string, T extends string = string> =
  & R
  & ColumnNames<F, T>;

/**
 * The column names of some data as one type parameter: features `F` and
 * targets `T`. The builders between a schema and a deployment take
 * `C extends ColumnSet` (`IngestionJobBuilder<ColumnSet<"tenure", "churn">>`);
 * the values they give are {@linkcode Typed} by `C`'s two name sets.
 */
export interface ColumnSet<
  F extends string = string,
  T extends string = string,
> {
  /** The feature names. */
  readonly features: F;
  /** The target names. */
  readonly targets: T;
}

/** A resource `R` carrying the column names of the column set `C`. */
export type TypedBy<R, C extends ColumnSet> = Typed<
  R,
  C["features"],
  C["targets"]
>;

/** What a builder's options take for an input resource of column set `C`: it, or its id. */
export type TypedRef<C extends ColumnSet, R = { id: string }> =
  | TypedBy<R, C>
  | string;

/** Feature names of a typed value. */
export type FeaturesOf<X> = X extends ColumnNames<infer F, string> ? F : string;
/** Target names of a typed value. */
export type TargetsOf<X> = X extends ColumnNames<string, infer T> ? T : string;

/** A views query in column form: each feature's values, one per row. */
export type QueryColumns<F extends string> = { [K in F]?: Cell[] };
/** A views query in row form: one object per row. */
export type QueryRows<F extends string> = Array<{ [K in F]?: Cell }>;

/** The columns a `RESULTS` view answers with (docs/contract.md#views), for targets `T`. */
export type ViewColumn<T extends string> =
  | `prediction.${T}`
  | `probability.${T}.${string}`
  | "bias"
  | `contribution.${string}`;

/** Anything that names a resource: its id, or an object with an `id`. */
export type RefLike = string | { readonly id: string };

/**
 * The id of a {@linkcode RefLike}.
 *
 * @example
 * ```ts
 * import { idOf } from "./types.ts";
 * idOf("ds_1"); // "ds_1"
 * const dataset = { id: "ds_2", name: "churn" };
 * idOf(dataset); // "ds_2"
 * ```
 */
export function idOf(ref: RefLike): string;
/** The id of a reference, or `undefined` when there is none. */
export function idOf(ref: RefLike | undefined): string | undefined;
export function idOf(ref: RefLike | undefined): string | undefined {
  return typeof ref === "string" ? ref : ref?.id;
}
