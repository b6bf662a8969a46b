/**
 * What a worker thread posts when its work throws, and the typed error the
 * caller rebuilds from it: errors do not keep their class across threads.
 *
 * @module
 */

import { CsvError } from "../../csv.ts";
import { InflateError } from "../../gzip.ts";
import {
  ModelDataError,
  ModelError,
  ModelInputError,
  ModelParamError,
} from "./errors.ts";

/** What a worker posts instead of an answer when its work throws (errors lose their class across threads). */
export interface WorkerErrorMessage {
  /** Always `"error"`. */
  type: "error";
  /** The error's name (its class, for the errors the caller revives). */
  name: string;
  /** The error's message. */
  message: string;
  /** A model error's column. */
  column: string | null;
  /** A model error's code. */
  code: string | null;
  /** A CSV error's line. */
  line: number | null;
}

/**
 * The message a worker posts for `err` (see {@linkcode reviveError}).
 *
 * @example
 * ```ts
 * import { ModelDataError } from "./errors.ts";
 * import { reviveError, workerError } from "./worker_errors.ts";
 * const back = reviveError(workerError(new ModelDataError("x", "BAD_NUMBER", "not a number")));
 * if (!(back instanceof ModelDataError && back.column === "x")) throw new Error("example failed");
 * ```
 */
export function workerError(err: unknown): WorkerErrorMessage {
  const m = err instanceof ModelError ? err : null;
  return {
    type: "error",
    name: err instanceof Error ? err.name : "Error",
    message: err instanceof Error ? err.message : String(err),
    column: m?.column ?? null,
    code: m?.code ?? null,
    line: err instanceof CsvError ? err.line : null,
  };
}

/**
 * Whether a worker's answer is the error it posted instead.
 *
 * @example
 * ```ts
 * import { isWorkerError, workerError } from "./worker_errors.ts";
 * if (!isWorkerError(workerError(new Error("x"))) || isWorkerError({ type: "done" })) throw new Error("example failed");
 * ```
 */
export function isWorkerError(m: { type: string }): m is WorkerErrorMessage {
  return m.type === "error";
}

/**
 * Rebuilds the typed error a worker posted ({@linkcode workerError}):
 * errors do not keep their class across threads.
 *
 * @example
 * ```ts
 * import { CsvError } from "../../csv.ts";
 * import { reviveError, workerError } from "./worker_errors.ts";
 * import { InflateError } from "../../gzip.ts";
 * const back = reviveError(workerError(new CsvError("unclosed quote", 3)));
 * if (!(back instanceof CsvError && back.line === 3)) throw new Error("example failed");
 * const gz = new InflateError(new Error("unexpected end of file"));
 * const revived = reviveError(workerError(gz));
 * if (!(revived instanceof InflateError && revived.message === gz.message)) throw new Error("example failed");
 * ```
 */
export function reviveError(m: WorkerErrorMessage): Error {
  const kinds: Record<string, typeof ModelError> = {
    ModelDataError,
    ModelInputError,
    ModelParamError,
    ModelError,
  };
  const Kind = kinds[m.name];
  if (Kind) return new Kind(m.column, m.code ?? "ERROR", m.message);
  if (m.name === "CsvError" || m.name === "CsvValueError") {
    return new CsvError(m.message, m.line ?? 0);
  }
  if (m.name === "InflateError") {
    // Its message is the worker's, already worded (the cause stayed there).
    const e = new InflateError(undefined);
    e.message = m.message;
    return e;
  }
  const e = new Error(m.message);
  e.name = m.name;
  return e;
}
