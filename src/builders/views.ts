// deno-doc-ignore-file private-type-ref missing-explicit-type missing-return-type -- protected builder internals are typed by the zod request schemas they validate with
/**
 * The views builder: a query (columns, rows or a danfo DataFrame) for a
 * running deployed model, the classes to explain, and `create()` that
 * sends it, in chunks when it is large, and resolves to a typed
 * {@linkcode ViewsResult}.
 *
 * @module
 */
import type { DataFrame } from "danfojs-node";
import type { z } from "zod";
import {
  ChunkError,
  DEFAULT_CHUNK_SIZE,
  scoreInChunks,
} from "../frames/chunked.ts";
import { MLPlatformError } from "../http/errors.ts";
import type { FieldIssue } from "../schemas/errors.ts";
import { toViewsQuery } from "../frames/query.ts";
import { setOwn } from "../frames/split.ts";
import type { SplitTable } from "../frames/types.ts";
import { type Cell, ViewsRequestSchema } from "../schemas/views.ts";
import { type ViewsAnchor, ViewsAnchorSchema } from "../schemas/labels.ts";
import type { DeployedModel } from "../schemas/deployments.ts";
import { ClientBuilder, type CreateOptions } from "./base.ts";
import type { BuilderClient } from "./builder_client.ts";
import {
  idOf,
  type QueryColumns,
  type QueryRows,
  type RefLike,
} from "./types.ts";
import { invalid, nearestName, validateBody } from "./validate.ts";
import { ViewsResult } from "./views_result.ts";

/**
 * What a views query may be given as: columns or rows, checked against the
 * feature names `F`; a danfo DataFrame too when the names are not known
 * (its columns cannot be checked at compile time: pass it through
 * `frames`' `toViewsQuery(df)` or an untyped deployment).
 */
export type ViewsQueryInput<F extends string> = string extends F
  ? QueryColumns<F> | QueryRows<F> | DataFrame
  : QueryColumns<F> | QueryRows<F>;

/** Options of a views request. */
export interface ViewsOptions<
  F extends string = string,
  T extends string = string,
> {
  /** The deployed model (must be `RUNNING`). */
  deployment: RefLike;
  /** The rows to score. */
  query: ViewsQueryInput<F>;
  /** Per target, the class to explain: one for all rows, or one per row. */
  targets?: { [K in T]?: Cell | Cell[] };
  /** Columns of `query` to leave out (e.g. the target of a training file). */
  drop?: string[];
  /**
   * What contributions are measured against (docs/contract.md#data-anchors):
   * a data anchor's id, reference rows `{ query }` (their mean), or null for
   * none, not even the schema's default anchor.
   */
  anchor?: ViewsAnchor;
  /**
   * The model's features, when known: other query columns, and features
   * the query leaves out, are refused before sending.
   */
  features?: readonly string[];
  /**
   * Rows per request (default 1000); larger queries are sent in chunks. A
   * chunk that fails rejects the call with its request's typed error (a
   * `NotFoundError`, `ValidationError`, ...), which says the rows it carried.
   */
  chunkSize?: number;
  /**
   * Chunk requests in flight at once (default: the deployment's
   * `maximum_concurrency`, read from its deployment configuration).
   */
  concurrency?: number;
}

/**
 * Builds `POST /deployed-models/{id}/views`. Immutable; awaitable.
 *
 * @example
 * ```ts
 * import { ViewsBuilder } from "./views.ts";
 * const body = new ViewsBuilder(undefined, {
 *   deployment: "dm_1",
 *   query: [{ tenure: 1, contract: "One year" }, { tenure: 30, contract: null }],
 * }).explain("churn", "Yes").body();
 * const sent = JSON.stringify([body.query, body.targets]);
 * if (sent !== '[{"tenure":[1,30],"contract":["One year",null]},{"churn":"Yes"}]') throw new Error(sent);
 * ```
 */
export class ViewsBuilder<F extends string = string, T extends string = string>
  extends ClientBuilder<
    ViewsOptions<F, T>,
    typeof ViewsRequestSchema,
    Promise<ViewsResult<T>>,
    ViewsResult<T>
  > {
  /** What is built. */
  readonly what = "views request";
  /** The body schema. */
  protected readonly schema = ViewsRequestSchema;

  /** Explains class `value` of `target` (one for every row, or one per row). */
  explain<K extends T>(target: K, value: Cell | Cell[]): ViewsBuilder<F, T> {
    return this.with({
      targets: { ...this.options.targets, [target]: value } as ViewsOptions<
        F,
        T
      >["targets"],
    });
  }

  /**
   * Measures contributions against a data anchor (its id), reference rows
   * (`{ query: { tenure: [29] } }`: their mean), or `null` for none.
   */
  against(anchor: ViewsAnchor): ViewsBuilder<F, T> {
    return this.with({ anchor });
  }

  /** The body as given. */
  protected raw(): Record<string, unknown> {
    let query: unknown;
    try {
      query = toViewsQuery(
        this.options.query as Parameters<typeof toViewsQuery>[0],
        { drop: this.options.drop },
      );
    } catch (error) {
      throw invalid(this.what, [{
        path: "query",
        message: error instanceof Error ? error.message : String(error),
      }]);
    }
    return {
      data: [{ view_type: "RESULTS" }],
      query,
      targets: this.options.targets,
    };
  }

  /**
   * The validated body; query columns must be features of the model when
   * those are known.
   *
   * Views are the hot path, and a one-row call spent about a third of the
   * client's work in zod's parse of a body whose query
   * {@linkcode toViewsQuery} has just built and checked (cells, lengths, at
   * least one column). So only what the caller can still get wrong, the
   * explained classes, is checked here, and the body is built as zod would
   * return it (null-prototype records, copied arrays). Anything the fast
   * check does not accept goes through zod, which writes the messages.
   */
  override body(): z.output<typeof ViewsRequestSchema> {
    return this.#checked(true);
  }

  /**
   * The checked body; with `records` false its query and targets are plain
   * objects rather than null-prototype records (the same JSON: what
   * `make()` sends, since JSON.stringify takes a slow path for a
   * null-prototype object, 1.0 against 0.4 us for a one-row body).
   */
  #checked(records: boolean): z.output<typeof ViewsRequestSchema> {
    const body = this.#checkedQuery(records);
    if (this.options.anchor === undefined) return body;
    const anchor = ViewsAnchorSchema.safeParse(this.options.anchor);
    if (!anchor.success) {
      throw invalid(this.what, [{
        path: "anchor",
        message: anchor.error.issues.map((i) => i.message).join("; "),
      }]);
    }
    return { ...body, anchor: anchor.data };
  }

  #checkedQuery(records: boolean): z.output<typeof ViewsRequestSchema> {
    const { query, drop, features, targets } = this.options;
    // The common call (plain cells, every column a feature, nothing to
    // drop) is built in one pass; anything else goes the long way, which
    // converts it or names what is wrong.
    const plain = drop?.length ? undefined : plainQuery(query, features);
    const fast = plain && checkedBody(plain, targets, records);
    if (fast) {
      // Every column is a feature (plainQuery checked): as many columns as
      // features means none is missing.
      if (features && Object.keys(fast.query).length !== features.length) {
        checkFeatures(fast.query, features, this.what);
      }
      return fast;
    }
    const raw = this.raw();
    const body = checkedBody(
      raw.query as Record<string, Cell[]>,
      raw.targets,
      records,
    ) ?? validateBody(this.schema, raw, this.what, this.optionNames());
    if (features) checkFeatures(body.query, features, this.what);
    return body;
  }

  /**
   * Validates (an invalid query rejects, unsent), sends the request (in
   * chunks above `chunkSize` rows) and wraps the table.
   */
  protected async make(options: CreateOptions = {}): Promise<ViewsResult<T>> {
    const body = this.#checked(false);
    checkTargetRows(body, this.what);
    checkChunking(this.options, this.what);
    const client = this.requireClient("send");
    // body() has parsed the body with the route's own schema: the transport
    // need not parse it (or its chunks, slices of it) a second time.
    const request = { ...options, validated: true };
    const id = idOf(this.options.deployment);
    let rows = 0;
    for (const name in body.query) {
      rows = body.query[name].length;
      break;
    }
    const chunkSize = this.options.chunkSize ?? DEFAULT_CHUNK_SIZE;
    if (rows <= chunkSize) {
      return new ViewsResult(
        await client.deployedModels.views(id, body, request),
        body.targets,
      );
    }
    const concurrency = this.options.concurrency ??
      await maximumConcurrency(client, this.options.deployment, options);
    let table: SplitTable;
    try {
      table = await scoreInChunks(body.query, {
        chunkSize,
        concurrency,
        retries: 0, // the transport already retries each request
        signal: options.signal,
        score: (chunk, context) =>
          client.deployedModels.views(
            id,
            {
              ...body,
              query: chunk as Record<string, Cell[]>,
              targets: sliceTargets(
                body.targets,
                context.offset,
                Object.values(chunk)[0]?.length ?? 0,
              ),
            },
            { ...request, signal: context.signal },
          ),
      });
    } catch (error) {
      throw chunkFailure(error, chunkSize);
    }
    return new ViewsResult(table, body.targets);
  }
}

/**
 * Refuses query columns that are not features of the model and features
 * the query leaves out, naming each, before anything is sent (a missing
 * one was refused by the service, after the request, or after the first
 * chunk's).
 */
function checkFeatures(
  query: Record<string, unknown>,
  features: readonly string[],
  what: string,
): void {
  const issues: FieldIssue[] = [];
  // A missing feature a foreign column misspells is said once, as its
  // "did you mean".
  const meant = new Set<string>();
  for (const k of Object.keys(query)) {
    if (features.includes(k)) continue;
    const like = nearestName(k, features);
    if (like) meant.add(like);
    issues.push({
      path: `query.${k}`,
      message: `"${k}" is not a feature of the model (${
        like ? `did you mean "${like}"? ` : ""
      }features: ${features.join(", ")}); rename or drop the column`,
    });
  }
  const missing = features.filter((f) =>
    !Object.hasOwn(query, f) && !meant.has(f)
  );
  const give = "give one value per row (null for missing)";
  if (missing.length > 3) {
    // A row of a few columns leaves out most: one issue, not one a feature.
    issues.push({
      path: "query",
      message: `${missing.length} features of the model are missing (${
        missing.join(", ")
      }): ${give}`,
    });
  } else {
    for (const f of missing) {
      issues.push({
        path: `query.${f}`,
        message: `a feature of the model, missing: ${give}`,
      });
    }
  }
  if (issues.length) throw invalid(what, issues);
}

/**
 * Refuses explained classes given per row (an array) whose count is not
 * the query's rows, naming the target, before anything is sent: the
 * service refused it after the request (and, over 1,000 rows, counted the
 * rows of one request, not of the query).
 */
function checkTargetRows(
  body: { query: Record<string, unknown[]>; targets?: Record<string, unknown> },
  what: string,
): void {
  let rows = 0;
  for (const name in body.query) {
    rows = body.query[name].length;
    break;
  }
  const issues: FieldIssue[] = [];
  for (const [target, value] of Object.entries(body.targets ?? {})) {
    if (Array.isArray(value) && value.length !== rows) {
      issues.push({
        path: `targets.${target}`,
        message: `${value.length} classes for a query of ${rows} rows: ` +
          "give one class for every row, or one per row",
      });
    }
  }
  if (issues.length) throw invalid(what, issues);
}

/**
 * Refuses a `chunkSize` or `concurrency` that is not a whole number of 1
 * or more, naming it, before anything is sent (scoreInChunks' RangeError
 * came after the deployment and its configuration had been read).
 */
function checkChunking(
  options: Pick<ViewsOptions, "chunkSize" | "concurrency">,
  what: string,
): void {
  const issues: FieldIssue[] = [];
  for (const name of ["chunkSize", "concurrency"] as const) {
    const value: unknown = options[name];
    if (value === undefined) continue;
    if (
      typeof value !== "number" || !Number.isSafeInteger(value) || value < 1
    ) {
      issues.push({
        path: name,
        message: `must be a whole number of 1 or more (got ${
          typeof value === "string" ? JSON.stringify(value) : String(value)
        } of type ${typeof value})`,
      });
    }
  }
  if (issues.length) throw invalid(what, issues);
}

/**
 * The error a chunked views call rejects with: the typed error of the
 * request that failed (a `NotFoundError`, `ValidationError`, ... as one
 * request of the same query gives), saying which rows it carried, since a
 * row number in the service's message counts from that request's first
 * row; anything else as it is. It was a `ChunkError`, no `MLPlatformError`,
 * from 1,001 rows on.
 */
function chunkFailure(error: unknown, chunkSize: number): unknown {
  if (!(error instanceof ChunkError)) return error;
  const cause = error.cause;
  if (!(cause instanceof MLPlatformError)) return error;
  const last = error.offset + error.size - 1;
  cause.message += ` [the query is sent ${chunkSize} rows a request: ` +
    `this request carried rows ${error.offset}-${last}, and a row number ` +
    `above counts from row ${error.offset}]`;
  return cause;
}

/** A cell zod's `CellSchema` accepts as it is. */
function isCell(value: unknown): boolean {
  return value === null || typeof value === "string" ||
    (typeof value === "number" && Number.isFinite(value));
}

/** What {@linkcode wireCell} returns for a value it leaves to `toViewsQuery`. */
const NOT_PLAIN = Symbol("not plain");

/**
 * The cell `toViewsQuery` sends for `value` when that is a finite number, a
 * string or a missing value (`null`, `undefined`, `NaN`, `""`: null);
 * otherwise (a Date, a bigint, an infinity, a boolean, an object)
 * `NOT_PLAIN`, and `toViewsQuery` converts or refuses it.
 */
function wireCell(value: unknown): Cell | typeof NOT_PLAIN {
  switch (typeof value) {
    case "number":
      return value - value === 0 ? value : value !== value ? null : NOT_PLAIN;
    case "string":
      return value === "" ? null : value;
    case "undefined":
      return null;
  }
  return value === null ? null : NOT_PLAIN;
}

/**
 * The query `toViewsQuery` builds from `input`, when `input` is the common
 * kind: a columns object (arrays of one length) or rows (plain objects with
 * the same own keys), every cell one {@linkcode wireCell} takes, every
 * column a feature of the model when those are known. Otherwise undefined,
 * and `toViewsQuery` converts the input or names what is wrong. A test
 * holds the two to the same output.
 */
function plainQuery(
  input: unknown,
  features: readonly string[] | undefined,
): Record<string, Cell[]> | undefined {
  if (input === null || typeof input !== "object") return undefined;
  if (Array.isArray(input)) return plainRows(input, features);
  const record = input as Record<string, unknown>;
  // A split table or a DataFrame: toViewsQuery knows those.
  if (Array.isArray(record.columns)) return undefined;
  const names = Object.keys(record);
  if (!plainNames(names, features)) return undefined;
  const query: Record<string, Cell[]> = {};
  let length = -1;
  for (let j = 0; j < names.length; j++) {
    const values = record[names[j]];
    if (!Array.isArray(values)) return undefined;
    if (length < 0) length = values.length;
    else if (values.length !== length) return undefined;
    // A copy: the body's arrays are not the caller's.
    const out: Cell[] = new Array(length);
    for (let i = 0; i < length; i++) {
      const cell = wireCell(values[i]);
      if (cell === NOT_PLAIN) return undefined;
      out[i] = cell;
    }
    query[names[j]] = out;
  }
  return query;
}

/** {@linkcode plainQuery} for rows. */
function plainRows(
  rows: readonly unknown[],
  features: readonly string[] | undefined,
): Record<string, Cell[]> | undefined {
  const n = rows.length;
  const first = rows[0];
  if (n === 0 || !isRow(first)) return undefined;
  const names = Object.keys(first);
  if (!plainNames(names, features)) return undefined;
  const m = names.length;
  const columns: Cell[][] = new Array(m);
  for (let j = 0; j < m; j++) columns[j] = new Array(n);
  for (let i = 0; i < n; i++) {
    const row = rows[i];
    if (!isRow(row)) return undefined;
    // toViewsQuery's test of the same keys: inherited enumerable ones count.
    let count = 0;
    for (const _ in row) count++;
    if (count !== m) return undefined;
    for (let j = 0; j < m; j++) {
      if (!Object.hasOwn(row, names[j])) return undefined;
      const cell = wireCell(row[names[j]]);
      if (cell === NOT_PLAIN) return undefined;
      columns[j][i] = cell;
    }
  }
  const query: Record<string, Cell[]> = {};
  for (let j = 0; j < m; j++) query[names[j]] = columns[j];
  return query;
}

function isRow(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * At least one name, none `__proto__` (assigning that key would set the
 * prototype), each a feature when those are known. Features are usually
 * given in the query's order, so that is tried first.
 */
function plainNames(
  names: string[],
  features: readonly string[] | undefined,
): boolean {
  if (names.length === 0) return false;
  for (let j = 0; j < names.length; j++) {
    const name = names[j];
    if (name === "__proto__") return false;
    if (features && features[j] !== name && !features.includes(name)) {
      return false;
    }
  }
  return true;
}

/**
 * The body zod would return for `query` (built by `toViewsQuery` or
 * {@linkcode plainQuery}) and the explained classes `given`, or undefined
 * when those are not plainly valid: zod then parses the body and names
 * what is wrong. A test holds it to zod's output. With `records` false,
 * query and targets stay plain objects (own keys only, `__proto__`
 * included; the same JSON).
 */
function checkedBody(
  query: Record<string, Cell[]>,
  given: unknown,
  records: boolean,
): z.output<typeof ViewsRequestSchema> | undefined {
  const targets: Record<string, Cell | Cell[]> = records
    ? Object.create(null)
    : {};
  if (given !== undefined) {
    if (given === null || typeof given !== "object" || Array.isArray(given)) {
      return undefined;
    }
    for (const key of Object.keys(given)) {
      const value = (given as Record<string, unknown>)[key];
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          if (!isCell(value[i])) return undefined;
        }
        setOwn(targets, key, value.slice());
      } else if (isCell(value)) {
        setOwn(targets, key, value as Cell);
      } else return undefined;
    }
  }
  if (records) {
    // A fresh object, own keys, checked: zod's copy is a record.
    const columns = query;
    query = Object.create(null);
    for (const key of Object.keys(columns)) query[key] = columns[key];
  }
  return { data: [{ view_type: "RESULTS" }], query, targets };
}

// Per-row explained classes must follow their rows into each chunk.
function sliceTargets(
  targets: Record<string, Cell | Cell[]>,
  offset: number,
  length: number,
): Record<string, Cell | Cell[]> {
  return Object.fromEntries(
    Object.entries(targets).map((
      [k, v],
    ) => [k, Array.isArray(v) ? v.slice(offset, offset + length) : v]),
  );
}

export type { QueryColumns, QueryRows };

// As many chunks in flight as the deployment serves at once: more would only
// queue (or be refused with 429) on the service side.
async function maximumConcurrency(
  client: BuilderClient,
  deployment: RefLike,
  options: CreateOptions,
): Promise<number> {
  const resource = typeof deployment === "object" &&
      "deployment_configuration" in deployment
    ? deployment as Pick<DeployedModel, "deployment_configuration">
    : await client.deployedModels.get(idOf(deployment), options);
  const config = await client.deploymentConfigurations.get(
    resource.deployment_configuration.id,
    options,
  );
  return Math.max(1, config.maximum_concurrency);
}
