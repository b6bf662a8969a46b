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
import { DEFAULT_CHUNK_SIZE, scoreInChunks } from "../frames/chunked.ts";
import { toViewsQuery } from "../frames/query.ts";
import { setOwn } from "../frames/split.ts";
import { type Cell, ViewsRequestSchema } from "../schemas/views.ts";
import type { DeployedModel } from "../schemas/deployments.ts";
import { ClientBuilder, type CreateOptions } from "./base.ts";
import type { BuilderClient } from "./builder_client.ts";
import {
  idOf,
  type QueryColumns,
  type QueryRows,
  type RefLike,
} from "./types.ts";
import { invalid, validateBody } from "./validate.ts";
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
  /** The model's features, when known: other query columns are refused before sending. */
  features?: readonly string[];
  /** Rows per request (default 1000); larger queries are sent in chunks. */
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
    const raw = this.raw();
    const body = checkedBody(raw, records) ??
      validateBody(this.schema, raw, this.what, this.optionNames());
    const features = this.options.features;
    if (features) {
      const issues = Object.keys(body.query).filter((k) =>
        !features.includes(k)
      ).map((k) => ({
        path: `query.${k}`,
        message: `"${k}" is not a feature of the model (features: ${
          features.join(", ")
        }); rename or drop the column`,
      }));
      if (issues.length) throw invalid(this.what, issues);
    }
    return body;
  }

  /**
   * Validates (an invalid query rejects, unsent), sends the request (in
   * chunks above `chunkSize` rows) and wraps the table.
   */
  protected async make(options: CreateOptions = {}): Promise<ViewsResult<T>> {
    const body = this.#checked(false);
    const client = this.requireClient("send");
    // body() has parsed the body with the route's own schema: the transport
    // need not parse it (or its chunks, slices of it) a second time.
    const request = { ...options, validated: true };
    const id = idOf(this.options.deployment);
    const rows = Object.values(body.query)[0]?.length ?? 0;
    const chunkSize = this.options.chunkSize ?? DEFAULT_CHUNK_SIZE;
    if (rows <= chunkSize) {
      return new ViewsResult(
        await client.deployedModels.views(id, body, request),
      );
    }
    const concurrency = this.options.concurrency ??
      await maximumConcurrency(client, this.options.deployment, options);
    const table = await scoreInChunks(body.query, {
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
    return new ViewsResult(table);
  }
}

/** A cell zod's `CellSchema` accepts as it is. */
function isCell(value: unknown): boolean {
  return value === null || typeof value === "string" ||
    (typeof value === "number" && Number.isFinite(value));
}

/**
 * The body zod would return for `raw` (whose query `toViewsQuery` built),
 * or undefined when the explained classes are not plainly valid: zod then
 * parses it and names what is wrong. A test holds it to zod's output. With
 * `records` false, query and targets stay plain objects (own keys only,
 * `__proto__` included; the same JSON).
 */
function checkedBody(
  raw: Record<string, unknown>,
  records: boolean,
): z.output<typeof ViewsRequestSchema> | undefined {
  const given = raw.targets;
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
  // toViewsQuery's own object: fresh, own keys, checked.
  const columns = raw.query as Record<string, Cell[]>;
  let query = columns;
  if (records) {
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
