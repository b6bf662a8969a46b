/**
 * Converts a parsed CSV file into a datasource (columns of raw values) using
 * the data schema: NUMBER fields become numbers, STRING fields stay strings,
 * empty cells become null. This is the ingestion step's typing rule.
 *
 * @example
 * ```ts
 * import { parseCsv } from "../../csv.ts";
 * import { columnsFromCsv } from "./datasource.ts";
 *
 * const cols = columnsFromCsv(parseCsv("a,b\n1,x\n,y\n"), [
 *   { name: "a", data_type: { data_type: "NUMBER" }, designation: "FEATURE", semantic_type: "CONTINUOUS" },
 *   { name: "b", data_type: { data_type: "STRING" }, designation: "TARGET", semantic_type: "CATEGORICAL" },
 * ]);
 * if (!(cols.a[0] === 1 && cols.a[1] === null && cols.b[1] === "y")) throw new Error("example failed");
 * ```
 *
 * @module
 */

import type { CsvTable } from "../../csv.ts";
import type { RawColumns, RawValue, SchemaField } from "./encoding.ts";
import { ModelDataError } from "./errors.ts";

/**
 * Builds the datasource columns for the schema's fields from a CSV table.
 * Columns of the CSV that the schema does not name are left out.
 *
 * @throws {ModelDataError} Naming the column: a schema field absent from the
 *   CSV header, or a NUMBER cell that is not a number (with its line number).
 *
 * @example
 * ```ts
 * import { parseCsv } from "../../csv.ts";
 * import { columnsFromCsv } from "./datasource.ts";
 * import { ModelDataError } from "./errors.ts";
 *
 * try {
 *   columnsFromCsv(parseCsv("a\nx\n"), [
 *     { name: "a", data_type: { data_type: "NUMBER" }, designation: "FEATURE", semantic_type: "CONTINUOUS" },
 *   ]);
 * } catch (e) {
 *   if (!(e instanceof ModelDataError && e.message.includes("line 2"))) throw new Error("example failed");
 * }
 * ```
 */
export function columnsFromCsv(
  table: CsvTable,
  fields: ReadonlyArray<SchemaField>,
): RawColumns {
  const out: Record<string, RawValue[]> = {};
  for (const f of fields) {
    const c = table.header.indexOf(f.name);
    if (c < 0) {
      throw new ModelDataError(
        f.name,
        "COLUMN_MISSING",
        `column '${f.name}' of the data schema is not in the CSV header (${
          table.header.slice(0, 8).join(", ")
        }${
          table.header.length > 8 ? ", ..." : ""
        }); fix the schema or the file.`,
      );
    }
    const numeric = f.data_type.data_type === "NUMBER";
    const col: RawValue[] = new Array(table.rows.length);
    for (let r = 0; r < table.rows.length; r++) {
      const cell = table.rows[r][c];
      if (cell === "") col[r] = null;
      else if (!numeric) col[r] = cell;
      else {
        const x = Number(cell.trim());
        if (!Number.isFinite(x) || cell.trim() === "") {
          throw new ModelDataError(
            f.name,
            "BAD_NUMBER",
            `column '${f.name}' line ${
              table.lines[r]
            }: '${cell}' is not a number; fix the cell or declare the column STRING.`,
          );
        }
        col[r] = x;
      }
    }
    out[f.name] = col;
  }
  return out;
}
