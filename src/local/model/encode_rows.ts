/**
 * Encoding new rows at views time exactly as the training data was encoded.
 *
 * @module
 */

import {
  categoryCoder,
  categoryOf,
  categoryOfNumber,
  dateOf,
  numberOf,
} from "./cells.ts";
import { partCode } from "./dates.ts";
import {
  type EncodedColumn,
  type EncodedRows,
  type Encoder,
  inputOf,
} from "./encoder.ts";
import { ModelInputError } from "./errors.ts";

/**
 * Encodes new rows (views time) exactly as the training data was encoded.
 *
 * Every input column of the encoder must be present (a date column once,
 * whatever parts are derived from it: dates.ts), all arrays of one length.
 * Columns not used by the encoder (for example the target itself) are
 * ignored by this function; the views layer decides whether extra columns
 * are an error.
 *
 * @throws {ModelInputError} Naming the column: a missing feature, arrays of
 *   different lengths, a value of the wrong type, or an unseen category when
 *   `handle_unseen_categories` was off.
 *
 * @example
 * ```ts
 * import { encodeDataset, encodeRows } from "./encoding.ts";
 *
 * const { encoder } = encodeDataset(
 *   { x: [1, 2, 3], y: ["a", "b", "a"] },
 *   [
 *     { name: "x", data_type: { data_type: "NUMBER" }, designation: "FEATURE", semantic_type: "CONTINUOUS" },
 *     { name: "y", data_type: { data_type: "STRING" }, designation: "TARGET", semantic_type: "CATEGORICAL" },
 *   ],
 * );
 * const rows = encodeRows(encoder, { x: [5, null] });
 * if (!(rows.nRows === 2 && Number.isNaN(rows.features[0][1]))) throw new Error("example failed");
 * ```
 */
export function encodeRows(
  encoder: Encoder,
  columns: Record<string, unknown>,
  into?: EncodedColumn[],
): EncodedRows {
  let nRows = -1;
  let first = "";
  for (const f of encoder.features) {
    const name = inputOf(f);
    const v = columns[name];
    if (!Array.isArray(v)) {
      throw new ModelInputError(
        name,
        v === undefined ? "FEATURE_MISSING" : "BAD_TYPE",
        v === undefined
          ? `feature '${name}' is missing; give one value per row (null for a missing value).`
          : `feature '${name}' must be an array with one value per row.`,
      );
    }
    if (nRows < 0) {
      nRows = v.length;
      first = name;
    } else if (v.length !== nRows) {
      throw new ModelInputError(
        name,
        "LENGTH_MISMATCH",
        `feature '${name}' has ${v.length} values but '${first}' has ${nRows}; every feature needs one value per row.`,
      );
    }
  }
  nRows = Math.max(nRows, 0);
  // `into`: a column per feature of nRows values, of the feature's type
  // (predictor.ts, `rowScratch`), filled instead of new ones.
  if (
    into &&
    (into.length !== encoder.features.length || into[0]?.length !== nRows)
  ) {
    into = undefined;
  }
  // Every column is a view of one buffer: numeric columns first (8-byte
  // aligned), then the codes. A typed array of its own costs an allocation
  // each (a few hundred ns), most of a one-row views call's encoding.
  let numeric = 0;
  for (const f of encoder.features) if (f.kind === "numeric") numeric++;
  const buffer = into ? undefined : new ArrayBuffer(
    nRows * (8 * numeric + 2 * (encoder.features.length - numeric)),
  );
  let at8 = 0, at2 = 8 * nRows * numeric;
  const features: EncodedColumn[] = new Array(encoder.features.length);
  // Each date column's day numbers (filled as training filled them), which
  // its derived parts are coded from, as at training (made only when there
  // is a date: a one-row views call counts its allocations).
  let days: Map<string, Float64Array> | null = null;
  for (let j = 0; j < encoder.features.length; j++) {
    const f = encoder.features[j];
    const v = columns[inputOf(f)];
    // Checked above: every feature is an array of nRows values.
    const raw: unknown[] = Array.isArray(v) ? v : [];
    if (f.kind === "numeric") {
      const x = (into?.[j] as Float64Array) ??
        new Float64Array(buffer!, at8, nRows);
      at8 += 8 * nRows;
      for (let i = 0; i < nRows; i++) {
        const v = f.date
          ? dateOf(raw[i], f.name, i, ModelInputError)
          : numberOf(raw[i], f.name, i, ModelInputError);
        x[i] = Number.isNaN(v) && f.fill !== null ? f.fill : v;
      }
      if (f.date) (days ??= new Map()).set(f.name, x);
      features[j] = x;
      continue;
    }
    const codes = (into?.[j] as Uint16Array) ??
      new Uint16Array(buffer!, at2, nRows);
    at2 += 2 * nRows;
    features[j] = codes;
    if (f.derived) {
      const column = f.derived.column;
      const x = days?.get(column) ??
        Float64Array.from(raw, (v, i) => dateOf(v, column, i, ModelInputError));
      for (let i = 0; i < nRows; i++) codes[i] = partCode(f, x[i]);
      continue;
    }
    const codeOf = categoryCoder(f);
    for (let i = 0; i < nRows; i++) {
      codes[i] = codeOf(
        f.number
          ? categoryOfNumber(raw[i], f.name, i, ModelInputError)
          : categoryOf(raw[i], f.strip, f.name, i, ModelInputError),
        i,
        ModelInputError,
      );
    }
  }
  return { nRows, features };
}
