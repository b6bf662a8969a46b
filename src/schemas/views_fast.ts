/**
 * The views request body's common case without zod: the local platform
 * parses every views call's body, and for a one-row call zod's parse was a
 * seventh of the server's CPU (issue 23, BENCHMARKS.md line 5). When a body
 * is plainly valid (known keys only, `RESULTS` views, columns of cells of
 * one length, cells or lists of cells as targets), {@linkcode fastViewsRequest}
 * returns exactly what `ViewsRequestSchema` would: null-prototype records,
 * copied arrays, the defaults filled in. Anything else answers `undefined`,
 * and the caller parses with zod, which writes the messages.
 * tests/views_fast_test.ts holds the two to the same output on generated
 * bodies, valid and not.
 *
 * @module
 */
import type { z } from "zod";
import type { Cell, ViewsRequestSchema } from "./views.ts";

/** The parsed views request (the schema's output). */
type ViewsOutput = z.output<typeof ViewsRequestSchema>;

const KEYS = new Set(["data", "query", "targets"]);

function isCell(value: unknown): value is Cell {
  return value === null || typeof value === "string" ||
    (typeof value === "number" && Number.isFinite(value));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** A copy of `value` when it is an array of cells, else undefined. */
function cells(value: unknown): Cell[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const out: Cell[] = new Array(value.length);
  for (let i = 0; i < value.length; i++) {
    const cell = value[i];
    if (!isCell(cell)) return undefined;
    out[i] = cell;
  }
  return out;
}

/**
 * `ViewsRequestSchema`'s output for `value` when it is plainly valid, else
 * undefined (parse it with zod then).
 *
 * @example
 * ```ts
 * import { fastViewsRequest } from "./views_fast.ts";
 * const body = fastViewsRequest({ query: { x: [1, null], c: ["a", "b"] } })!;
 * if (body.data[0].view_type !== "RESULTS" || body.query.c[1] !== "b") throw new Error();
 * if (Object.getPrototypeOf(body.targets) !== null) throw new Error("a record");
 * if (fastViewsRequest({ query: { x: [1], y: [] } }) !== undefined) throw new Error("lengths differ: zod's case");
 * ```
 */
export function fastViewsRequest(value: unknown): ViewsOutput | undefined {
  if (!isRecord(value)) return undefined;
  for (const key of Object.keys(value)) {
    // Unknown keys are zod's to strip.
    if (!KEYS.has(key)) return undefined;
  }
  let data: ViewsOutput["data"];
  if (value.data === undefined) data = [{ view_type: "RESULTS" }];
  else {
    const given = value.data;
    if (!Array.isArray(given) || given.length === 0) return undefined;
    data = [];
    for (const view of given) {
      if (!isRecord(view) || view.view_type !== "RESULTS") return undefined;
      for (const key of Object.keys(view)) {
        if (key !== "view_type") return undefined;
      }
      data.push({ view_type: "RESULTS" });
    }
  }
  if (!isRecord(value.query)) return undefined;
  const query: Record<string, Cell[]> = Object.create(null);
  let rows = -1;
  for (const name of Object.keys(value.query)) {
    const column = cells(value.query[name]);
    if (!column) return undefined;
    if (rows < 0) rows = column.length;
    else if (column.length !== rows) return undefined;
    // A null-prototype object has no `__proto__` setter: a plain key.
    query[name] = column;
  }
  if (rows < 0) return undefined; // no column: zod says so
  const targets: Record<string, Cell | Cell[]> = Object.create(null);
  if (value.targets !== undefined) {
    if (!isRecord(value.targets)) return undefined;
    for (const name of Object.keys(value.targets)) {
      const given = value.targets[name];
      if (isCell(given)) targets[name] = given;
      else {
        const list = cells(given);
        if (!list) return undefined;
        targets[name] = list;
      }
    }
  }
  return { data, query, targets };
}
