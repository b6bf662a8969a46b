/**
 * {@linkcode BatchResult}: what a views batch job resolves to. It tells the
 * counts (rows in, rows out, rows with errors) and reads the output back
 * through the platform's API, one page at a time (`GET
 * /views-batches/{id}/results`), never from a file system: it works the
 * same against the hosted service as against `local()`.
 *
 * @module
 */
import { JUPYTER_DISPLAY, type MimeBundle, renderAs } from "../display.ts";
import type { RequestOptions } from "../http/transport.ts";
import type { ViewsBatch } from "../schemas/batch.ts";
import type { BuilderClient } from "./builder_client.ts";
import { type ResultCell, ViewsResult } from "./views_result.ts";

/** Options of {@linkcode BatchResult.pages} and the readers built on it. */
export interface BatchPageOptions extends RequestOptions {
  /** Rows per page, 1 to 10,000 (default 1,000). */
  itemsPerPage?: number;
  /** The first page to read (default 1). */
  page?: number;
}

/**
 * One page of a views batch's output: a {@linkcode ViewsResult} (charts,
 * predictions, `toDataFrame()`, ...) whose rows also carry the kept input
 * columns and the error column, and whose index holds each row's position
 * in the output.
 *
 * @example
 * ```ts
 * import { BatchPage } from "./batch_result.ts";
 * const page = new BatchPage({ columns: ["id", "prediction.churn"], index: [40], data: [["c7", "Yes"]] });
 * if (page.rows()[0].id !== "c7" || page.columns().id[0] !== "c7") throw new Error();
 * ```
 */
export class BatchPage extends ViewsResult {
  /** Each row as an object keyed by column (kept columns included). */
  override rows(): Record<string, ResultCell>[] {
    return super.rows();
  }

  /** Each column's values by name (kept columns included). */
  override columns(): Record<string, ResultCell[]> {
    return super.columns();
  }
}

/**
 * A READY views batch and its output, read page by page.
 *
 * @example
 * ```ts
 * import { BatchResult } from "./batch_result.ts";
 * const pages = [
 *   { columns: ["id", "prediction.churn"], index: [0, 1], data: [["a", "No"], ["b", "Yes"]] },
 *   { columns: ["id", "prediction.churn"], index: [2], data: [["c", "No"]] },
 * ];
 * const client = {
 *   viewsBatches: {
 *     results: (_id: string, q: { page?: number }) => Promise.resolve({
 *       ...pages[(q.page ?? 1) - 1],
 *       pagination: { total_items: 3, items_per_page: 2, current_page: q.page ?? 1, total_pages: 2 },
 *     }),
 *   },
 * };
 * const result = new BatchResult(client as never, {
 *   id: "vb_1", name: "scored", rows_in: 3, rows_out: 3, rows_with_errors: 0,
 *   columns: ["id", "prediction.churn"], output_path: "out.csv",
 * } as never);
 * const ids: unknown[] = [];
 * for await (const page of result.pages({ itemsPerPage: 2 })) {
 *   for (const row of page.rows()) ids.push(row.id);
 * }
 * if (ids.join() !== "a,b,c" || result.rowsWithErrors !== 0) throw new Error(ids.join());
 * ```
 */
export class BatchResult {
  /** The views batch resource. */
  readonly batch: ViewsBatch;
  readonly #client: Pick<BuilderClient, "viewsBatches">;

  /** Wraps a views batch read through `client`. */
  constructor(client: Pick<BuilderClient, "viewsBatches">, batch: ViewsBatch) {
    this.#client = client;
    this.batch = batch;
  }

  /** The views batch's id. */
  get id(): string {
    return this.batch.id;
  }

  /** Data rows read from the input. */
  get rowsIn(): number {
    return this.batch.rows_in ?? 0;
  }

  /** Rows written to the output (every row read, in input order). */
  get rowsOut(): number {
    return this.batch.rows_out ?? 0;
  }

  /** Rows written with null views and an error (with `onError: "NULL_PREDICTION"`). */
  get rowsWithErrors(): number {
    return this.batch.rows_with_errors ?? 0;
  }

  /** Where the output is, inside the bucket. */
  get outputPath(): string {
    return this.batch.output_path;
  }

  /** The output's columns: kept columns, views, then the error column. */
  get columns(): readonly string[] {
    return this.batch.columns;
  }

  /**
   * The output, one page at a time, each a {@linkcode BatchPage}
   * (`rows()`, `columns()`, `toDataFrame()`, ...) whose index holds each
   * row's position in the output: `for await (const page of result.pages())`.
   */
  async *pages(options: BatchPageOptions = {}): AsyncGenerator<BatchPage> {
    const { itemsPerPage = 1000, page: first = 1, ...request } = options;
    for (let page = first;; page++) {
      const got = await this.#client.viewsBatches.results(this.id, {
        page,
        items_per_page: itemsPerPage,
      }, request);
      if (got.data.length > 0) {
        yield new BatchPage({
          columns: got.columns,
          index: got.index,
          data: got.data,
        });
      }
      if (page >= got.pagination.total_pages || got.data.length === 0) return;
    }
  }

  /** Every row of the output as an object keyed by column (the whole output in memory). */
  async rows(
    options: BatchPageOptions = {},
  ): Promise<Record<string, ResultCell>[]> {
    const rows: Record<string, ResultCell>[] = [];
    for await (const page of this.pages(options)) rows.push(...page.rows());
    return rows;
  }

  // deno-doc-ignore private-type-ref -- danfo's own DataFrame class (an optional peer dependency)
  /**
   * The output's pages as danfo DataFrames, one per page, for outputs too
   * large to hold in one frame (danfo is loaded on first use).
   */
  async *frames(
    options: BatchPageOptions = {},
  ): AsyncGenerator<import("danfojs-node").DataFrame> {
    for await (const page of this.pages(options)) {
      yield await page.toDataFrame();
    }
  }

  // deno-doc-ignore private-type-ref -- danfo's own DataFrame class (an optional peer dependency)
  /**
   * The whole output as one danfo DataFrame (read in pages, converted
   * once), indexed by row position. For large outputs, prefer
   * {@linkcode BatchResult.frames}.
   */
  async frame(
    options: BatchPageOptions = {},
  ): Promise<import("danfojs-node").DataFrame> {
    const table = {
      columns: [...this.columns],
      index: [] as number[],
      data: [] as unknown[][],
    };
    for await (const page of this.pages(options)) {
      table.columns = page.table.columns;
      for (let i = 0; i < page.table.data.length; i++) {
        table.index.push(Number(page.table.index[i]));
        table.data.push(page.table.data[i]);
      }
    }
    const { toDataFrame } = await import("../frames/danfo.ts");
    return await toDataFrame(table);
  }

  /** Renders as the views batch's card in Jupyter. */
  [JUPYTER_DISPLAY](): MimeBundle {
    return renderAs("resource", this.batch, "views batch");
  }

  /** The views batch, for `JSON.stringify`. */
  toJSON(): ViewsBatch {
    return this.batch;
  }
}
