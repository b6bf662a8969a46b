/**
 * Typed errors of the modelling core. Each names the column (or parameter) at
 * fault so the platform can end a job `FAILED` with a useful message, or
 * answer a views request with 400.
 *
 * @example
 * ```ts
 * import { ModelDataError, ModelError } from "./errors.ts";
 *
 * const e = new ModelDataError("churn", "TARGET_EMPTY", "column 'churn' is empty");
 * if (!(e instanceof ModelError && e.column === "churn")) throw new Error("example failed");
 * ```
 *
 * @module
 */

/**
 * Base class of every error thrown by the modelling core.
 *
 * @example
 * ```ts
 * import { ModelError, ModelInputError } from "./errors.ts";
 *
 * const e = new ModelInputError("tenure", "BAD_TYPE", "bad value");
 * if (!(e instanceof ModelError && e.code === "BAD_TYPE")) throw new Error("example failed");
 * ```
 */
export class ModelError extends Error {
  /** Column (or parameter) the error is about; null when it concerns no single column. */
  readonly column: string | null;
  /** Machine-readable reason, e.g. `TARGET_SINGLE_CLASS`. */
  readonly code: string;
  /** Creates the error; `message` should say what was wrong and what to do next. */
  constructor(column: string | null, code: string, message: string) {
    super(message);
    this.name = "ModelError";
    this.column = column;
    this.code = code;
  }
}

/**
 * The data cannot be onboarded or trained on (empty target, a single class,
 * a non-numeric value in a NUMBER column, ...). Ends a job as `FAILED`.
 *
 * @example
 * ```ts
 * import { ModelDataError } from "./errors.ts";
 *
 * const e = new ModelDataError("churn", "TARGET_SINGLE_CLASS", "only one class");
 * if (!(e.name === "ModelDataError")) throw new Error("example failed");
 * ```
 */
export class ModelDataError extends ModelError {
  /** Creates the error. */
  constructor(column: string | null, code: string, message: string) {
    super(column, code, message);
    this.name = "ModelDataError";
  }
}

/**
 * A prediction or views request is malformed (unknown feature, unknown class,
 * wrong type, columns of different lengths, unseen category). Maps to HTTP 400.
 *
 * @example
 * ```ts
 * import { ModelInputError } from "./errors.ts";
 *
 * const e = new ModelInputError("contract", "UNSEEN_CATEGORY", "unseen");
 * if (!(e.name === "ModelInputError")) throw new Error("example failed");
 * ```
 */
export class ModelInputError extends ModelError {
  /** Creates the error. */
  constructor(column: string | null, code: string, message: string) {
    super(column, code, message);
    this.name = "ModelInputError";
  }
}

/**
 * A training hyperparameter is out of range or of the wrong type; `column`
 * holds the parameter name. Maps to HTTP 400 on configuration create.
 *
 * @example
 * ```ts
 * import { ModelParamError } from "./errors.ts";
 *
 * const e = new ModelParamError("learning_rate", "OUT_OF_RANGE", "must be > 0");
 * if (!(e.column === "learning_rate")) throw new Error("example failed");
 * ```
 */
export class ModelParamError extends ModelError {
  /** Creates the error. */
  constructor(param: string, code: string, message: string) {
    super(param, code, message);
    this.name = "ModelParamError";
  }
}
