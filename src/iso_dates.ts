/**
 * ISO 8601 dates in CSV cells: what a date cell looks like and the day it
 * names. The local model reads a text column whose every cell is such a
 * date as day numbers, and schema inference tells the user so: both read
 * a cell here, so they agree on what is a date (`2021-02-30` has a date's
 * shape, but is no day).
 *
 * @example
 * ```ts
 * import { dayNumber, ISO_DATE } from "./iso_dates.ts";
 *
 * if (!ISO_DATE.test("2021-02-30") || !Number.isNaN(dayNumber("2021-02-30"))) throw new Error("example failed");
 * if (dayNumber("2021-02-28") !== 18_686) throw new Error("example failed");
 * ```
 *
 * @module
 */

/**
 * The shape of an ISO 8601 date or date-time text (`2016-08-28`,
 * `2016-08-28T13:45:00Z`, `2016-08-28 13:45+02:00`); the calendar is
 * {@linkcode dayNumber}'s to check.
 *
 * @example
 * ```ts
 * import { ISO_DATE } from "./iso_dates.ts";
 *
 * if (!ISO_DATE.test("2016-08-28 13:45+02:00") || ISO_DATE.test("28/08/2016")) throw new Error("example failed");
 * ```
 */
export const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * The day number of an ISO 8601 date or date-time text (`2016-08-28`,
 * `2016-08-28T13:45:00Z`, `2016-08-28 13:45+02:00`): days since 1970-01-01
 * UTC, with the time of day as a fraction (a time without a zone is UTC,
 * so a value means the same day on every machine); NaN for any other text
 * or an impossible date (`2021-02-30`).
 *
 * @example
 * ```ts
 * import { dayNumber } from "./iso_dates.ts";
 *
 * if (dayNumber("1970-01-02") !== 1 || dayNumber("1970-01-01T12:00") !== 0.5) throw new Error("example failed");
 * if (dayNumber("1970-01-02T00:00+01:00") !== 1 - 1 / 24) throw new Error("example failed");
 * if (!Number.isNaN(dayNumber("2021-02-30")) || !Number.isNaN(dayNumber("next week"))) throw new Error("example failed");
 * ```
 */
export function dayNumber(text: string): number {
  const m = ISO_DATE.exec(text.trim());
  if (!m) return NaN;
  const [y, mo, d] = [Number(m[1]), Number(m[2]) - 1, Number(m[3])];
  const day = Date.UTC(y, mo, d);
  const check = new Date(day);
  if (check.getUTCMonth() !== mo || check.getUTCDate() !== d) return NaN;
  const [h, min, sec] = [
    Number(m[4] ?? 0),
    Number(m[5] ?? 0),
    Number(m[6] ?? 0),
  ];
  if (h > 23 || min > 59 || sec > 60) return NaN;
  let ms = ((h * 60 + min) * 60 + sec) * 1000 + Number(m[7] ?? 0) * 1000;
  const zone = m[8];
  if (zone && zone !== "Z") {
    const sign = zone[0] === "-" ? -1 : 1;
    const digits = zone.slice(1).replace(":", "");
    ms -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) *
      60_000;
  }
  return (day + ms) / 86_400_000;
}
