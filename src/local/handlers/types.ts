/**
 * The server's contract, derived from the route table: for every operation
 * of `routes`, the handler receives the body its route's schema parsed, the
 * path parameters its path template names, and answers the body its route's
 * response schema describes. {@linkcode Handlers} maps the whole table, so
 * the handlers object that `satisfies` it is checked by the compiler: a
 * missing operation, a misspelt one, or a handler answering the wrong shape
 * does not compile.
 *
 * @module
 */
import type { z } from "zod";
import type { Route, Routes } from "../../schemas/routes.ts";
import type { Caller } from "../http/auth.ts";
import type { PlatformContext } from "../context.ts";

/**
 * The `{param}` placeholders of a path template as an object of strings:
 * `PathParams<"/models/{id}/explanation">` is `{ id: string }`.
 */
export type PathParams<P extends string> = P extends
  `${string}{${infer K}}${infer Rest}` ? { [_ in K]: string } & PathParams<Rest>
  : Record<never, string>;

/** The parsed (defaulted) request body of route `R`, or undefined without one. */
export type BodyOf<R> = R extends { body: infer S extends z.ZodType }
  ? z.output<S>
  : undefined;

/** The success body of route `R`, or undefined for a 204. */
export type ResponseOf<R> = R extends { response: infer S extends z.ZodType }
  ? z.output<S>
  : undefined;

/**
 * What a handler receives: the path parameters `P`, the parsed body `B`,
 * and the caller `C` (undefined for a public route). Every input type below
 * is this one with its three parts fixed.
 */
export interface HandlerInput<P, B, C extends Caller | undefined> {
  /** The platform's shared state. */
  ctx: PlatformContext;
  /** Who calls (the token call, which is public, has none). */
  caller: C;
  /** The path parameters. */
  params: P;
  /** The body, parsed by the route's schema (undefined without one). */
  body: B;
  /** The query string's parameters. */
  query: Record<string, string>;
  /** The request itself (headers such as `X-Active-Workspace`). */
  request: Request;
}

/** What the handler of route `R` receives, typed by the route. */
export type OperationInput<R extends Route> = HandlerInput<
  PathParams<R["path"]>,
  BodyOf<R>,
  R extends { public: true } ? undefined : Caller
>;

/** A handler's answer: the route's success body (its status is the route's). */
export interface Reply<T> {
  /** The success body. */
  body: T;
  /** Extra response headers. */
  headers?: Record<string, string>;
}

/**
 * The answer of an operation whose result comes later: the app answers
 * 202 + `Location`, and `GET /operations/{id}` answers the result once
 * `later` settles.
 */
export interface Accepted<T = unknown> {
  /** The result to come. */
  later: Promise<Reply<T>>;
}

/** The handler of route `R`. */
export type Operation<R extends Route> = (
  input: OperationInput<R>,
) =>
  | Reply<ResponseOf<R>>
  | Accepted<ResponseOf<R>>
  | Promise<Reply<ResponseOf<R>> | Accepted<ResponseOf<R>>>;

/** One handler for every operation of the route table, typed by its route. */
export type Handlers = {
  [G in keyof Routes]: {
    [N in keyof Routes[G]]: Routes[G][N] extends Route ? Operation<Routes[G][N]>
      : never;
  };
};

/**
 * What a handler shared by several routes of signed-in callers receives
 * (a handler written for one kind of route takes {@linkcode OperationInput}).
 */
export type SharedInput<P, B = unknown> = HandlerInput<P, B, Caller>;

/** What the app's mounting loop gives any handler (the route is known only at run time). */
export type AnyInput = HandlerInput<
  Record<string, string>,
  unknown,
  Caller | undefined
>;

/**
 * Any handler, as the mounting loop calls it. Declared as a method so that
 * each typed {@linkcode Operation} is one (parameters compare both ways):
 * the loop pairs each route with its own handler, whose types the
 * {@linkcode Handlers} check has already fixed.
 */
export interface AnyOperation {
  /** Answers one request. */
  run(
    input: AnyInput,
  ): Reply<unknown> | Accepted | Promise<Reply<unknown> | Accepted>;
}

/** The handlers object seen by the mounting loop: group, then operation name. */
export type HandlerTable = Record<string, Record<string, AnyOperation["run"]>>;

/** The handler of operation `N` of route group `G`: `Op<"models", "get">`. */
export type Op<G extends keyof Routes, N extends keyof Routes[G]> =
  Routes[G][N] extends Route ? Operation<Routes[G][N]> : never;
