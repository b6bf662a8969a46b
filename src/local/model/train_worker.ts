/**
 * Worker entry for {@link ./worker.ts}: receives an encoded dataset and the
 * parameters, trains with the same code as in-thread training, and posts
 * progress messages and finally the model (or the error) back. It also
 * parses large CSV files for ingestion (`{ type: "parse", text, fields }`),
 * posting the typed columns back with their buffers transferred.
 *
 * Messages out: `{ type: "progress", fraction, stage, logged? }`, `{ type: "done", model }`,
 * `{ type: "parsed", datasource }`, `{ type: "error", name, message, column, code }`.
 *
 * @example
 * ```ts
 * // Started by trainInBackground; not imported directly:
 * const url = new URL("./train_worker.ts", import.meta.url);
 * if (!(url.pathname.endsWith("train_worker.ts"))) throw new Error("example failed");
 * ```
 *
 * @module
 */

import { CsvError } from "../../csv.ts";
import { datasourceFromCsv } from "./datasource.ts";
import { train } from "./ebm.ts";
import type { EncodedDataset, SchemaField } from "./encoding.ts";
import { ModelError } from "./errors.ts";
import type { TrainingParams } from "./params.ts";
import { isArrayBuffer } from "./worker.ts";

/** The training request the main thread posts. */
export interface TrainRequest {
  type?: "train";
  data: EncodedDataset;
  params: Partial<TrainingParams>;
  maximumRuntimeSeconds?: number;
}

/** The CSV parsing request the main thread posts. */
export interface ParseRequest {
  type: "parse";
  text: string;
  fields: SchemaField[];
}

// Only the two members used, so this file type-checks without the worker lib.
const scope = globalThis as unknown as {
  onmessage: ((e: MessageEvent<TrainRequest | ParseRequest>) => void) | null;
  postMessage(message: unknown, transfer?: Transferable[]): void;
};

function postError(err: unknown): void {
  const m = err instanceof ModelError ? err : null;
  scope.postMessage({
    type: "error",
    name: err instanceof Error ? err.name : "Error",
    message: err instanceof Error ? err.message : String(err),
    column: m?.column ?? null,
    code: m?.code ?? null,
    line: err instanceof CsvError ? err.line : null,
  });
}

scope.onmessage = (e) => {
  if (e.data.type === "parse") {
    try {
      const d = datasourceFromCsv(e.data.text, e.data.fields);
      const transfer = Object.values(d.columns).map((c) =>
        (c.kind === "number" ? c.values : c.codes).buffer
      ).filter(isArrayBuffer);
      scope.postMessage({
        type: "parsed",
        datasource: { nRows: d.nRows, columns: { ...d.columns } },
      }, transfer);
    } catch (err) {
      postError(err);
    }
    return;
  }
  const { data, params, maximumRuntimeSeconds } = e.data;
  try {
    const model = train(data, params, {
      maximumRuntimeSeconds,
      onProgress: (fraction, stage, logged) =>
        scope.postMessage({ type: "progress", fraction, stage, logged }),
    });
    scope.postMessage({ type: "done", model });
  } catch (err) {
    postError(err);
  }
};
