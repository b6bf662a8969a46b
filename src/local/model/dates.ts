/**
 * The periodic parts a model derives from a date column
 * (docs/contract.md#model-validation-rows, on dates): besides the day number (`dayNumber`
 * in cells.ts), the day of the week, the month and the hour of day, each a
 * categorical feature of its own named `<column>:<part>` (`date:weekday`),
 * so a model term says which input column it reads. An additive model
 * cannot get a weekly or a yearly cycle out of a day number; these parts
 * give it the cycles directly.
 *
 * A part is derived at onboarding ({@link deriveDateParts}) when the
 * onboarded rows' dates span enough of its cycle for each level to recur:
 *
 * - `weekday` (Mon..Sun): a span of at least {@link WEEKDAY_SPAN_DAYS} days,
 *   three weeks, so that every weekday is seen on at least three different
 *   days and is not just a name for a day the day number already tells apart;
 * - `month` (Jan..Dec): at least {@link MONTH_SPAN_DAYS} days, two years, so
 *   that every month is seen in two different years (one year's months are
 *   one stretch of the trend the day number already models);
 * - `hour` (0..23): the values carry a time of day and the span is at least
 *   {@link HOUR_SPAN_DAYS} days (each hour recurs on three days);
 *
 * and in every case when at least two of its levels occur (dates that are
 * all Mondays give no weekday), and when no schema column already has its
 * name. Every part is computed in UTC from the same day number as the date
 * feature, by {@link partCode}, at training and at views: the encoder that
 * serves is the one that trained.
 *
 * @example
 * ```ts
 * import { deriveDateParts, partCode } from "./dates.ts";
 *
 * // 60 days from Monday 2024-01-01 (day 19723), one row a day.
 * const days = Float64Array.from({ length: 60 }, (_, i) => 19723 + i);
 * const parts = deriveDateParts("date", days, null, new Set(["date", "y"]));
 * if (parts.encodings.map((e) => e.name).join() !== "date:weekday") throw new Error("example failed");
 * if (parts.columns[0][0] !== 1 || parts.columns[0][6] !== 7) throw new Error("example failed"); // Mon is 1, Sun is 7
 * if (partCode(parts.encodings[0], NaN) !== 0) throw new Error("example failed"); // missing
 * ```
 *
 * @module
 */

import type { CategoricalEncoding, DatePart, Encoder } from "./encoder.ts";

export type { DatePart } from "./encoder.ts";

/** Between a date column's name and its part in the derived feature's name. */
export const DATE_PART_SEPARATOR = ":";

/** Shortest span (days) of the dates that derives `weekday`. */
export const WEEKDAY_SPAN_DAYS = 21;
/** Shortest span (days) of the dates that derives `month`. */
export const MONTH_SPAN_DAYS = 730;
/** Shortest span (days) of the dates that derives `hour`. */
export const HOUR_SPAN_DAYS = 3;

/** The levels of every part, in calendar order: its categories. */
export const PART_LEVELS: Readonly<Record<DatePart, readonly string[]>> = {
  weekday: ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"],
  month: [
    "Jan",
    "Feb",
    "Mar",
    "Apr",
    "May",
    "Jun",
    "Jul",
    "Aug",
    "Sep",
    "Oct",
    "Nov",
    "Dec",
  ],
  hour: Array.from({ length: 24 }, (_, h) => String(h)),
};

const PARTS: readonly [DatePart, number][] = [
  ["weekday", WEEKDAY_SPAN_DAYS],
  ["month", MONTH_SPAN_DAYS],
  ["hour", HOUR_SPAN_DAYS],
];

const DAY_MS = 86_400_000;

/**
 * The level (0-based, in {@link PART_LEVELS} order) of a day number's part,
 * in UTC; -1 for NaN (a missing date).
 *
 * @example
 * ```ts
 * import { partLevel } from "./dates.ts";
 *
 * // 1970-01-01 was a Thursday; day 59.75 is 1970-03-01 18:00 UTC.
 * if (partLevel(0, "weekday") !== 3 || partLevel(59.75, "month") !== 2 || partLevel(59.75, "hour") !== 18) throw new Error("example failed");
 * if (partLevel(-1, "weekday") !== 2 || partLevel(NaN, "month") !== -1) throw new Error("example failed");
 * ```
 */
export function partLevel(day: number, part: DatePart): number {
  if (Number.isNaN(day)) return -1;
  // Whole milliseconds, so that 01:00 is not 00:59:59.999 by rounding.
  const ms = Math.round(day * DAY_MS);
  const whole = Math.floor(ms / DAY_MS);
  if (part === "hour") return Math.floor((ms - whole * DAY_MS) / 3_600_000);
  if (part === "weekday") return (((whole + 3) % 7) + 7) % 7;
  return monthOf(whole);
}

/** The month (0..11) of a whole day number (days from the civil calendar). */
function monthOf(whole: number): number {
  // Howard Hinnant's civil_from_days, March-based years.
  const z = whole + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) -
      Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  return mp < 10 ? mp + 2 : mp - 10;
}

/**
 * The code of a day number under a derived part's encoding: 1 + its level,
 * or for a missing date the fill's code (impute) or 0 (missing). Training
 * ({@link deriveDateParts}) and views (`encodeRows`) code with it.
 *
 * @example
 * ```ts
 * import { partCode } from "./dates.ts";
 *
 * const enc = { name: "d:month", kind: "categorical" as const, categories: [], rare: [], fill: "Jun", strip: true, handleUnseen: true, derived: { column: "d", part: "month" as const } };
 * if (partCode(enc, 31) !== 2 || partCode(enc, NaN) !== 6) throw new Error("example failed"); // 1970-02-01; the fill
 * ```
 */
export function partCode(enc: CategoricalEncoding, day: number): number {
  const part = enc.derived!.part;
  const level = partLevel(day, part);
  if (level >= 0) return level + 1;
  return enc.fill === null ? 0 : PART_LEVELS[part].indexOf(enc.fill) + 1;
}

/** The derived features of one date column: their encodings and codes. */
export interface DerivedParts {
  encodings: CategoricalEncoding[];
  columns: Uint16Array[];
}

/**
 * The parts worth deriving from a date column (see the module doc), from its
 * onboarded rows' day numbers `days` (NaN: missing; already filled when
 * `fill` is the imputed day), with their codes per row.
 *
 * @param column The date column's name.
 * @param fill The imputed day number of a missing date, or null.
 * @param taken Every column name of the schema: a part whose name is taken
 *   is not derived.
 *
 * @example
 * ```ts
 * import { deriveDateParts } from "./dates.ts";
 *
 * // Three years of hourly-varying times: every part; "t:month" is a column already.
 * const days = Float64Array.from({ length: 1000 }, (_, i) => 10_000 + i * 1.1 + (i % 24) / 24);
 * const names = (taken: string[]) => deriveDateParts("t", days, null, new Set(taken)).encodings.map((e) => e.name).join();
 * if (names([]) !== "t:weekday,t:month,t:hour" || names(["t:month"]) !== "t:weekday,t:hour") throw new Error("example failed");
 * // Nine days: the hour only; two days: nothing.
 * const part = (rows: number) => deriveDateParts("t", days.subarray(0, rows), null, new Set()).encodings.map((e) => e.derived?.part).join();
 * if (part(9) !== "hour" || part(2) !== "") throw new Error("example failed");
 * ```
 */
export function deriveDateParts(
  column: string,
  days: Float64Array,
  fill: number | null,
  taken: ReadonlySet<string>,
): DerivedParts {
  let lo = Infinity, hi = -Infinity;
  for (const d of days) {
    if (d < lo) lo = d;
    if (d > hi) hi = d;
  }
  const out: DerivedParts = { encodings: [], columns: [] };
  for (const [part, span] of PARTS) {
    const name = `${column}${DATE_PART_SEPARATOR}${part}`;
    if (!(hi - lo >= span) || taken.has(name)) continue;
    const levels = PART_LEVELS[part];
    const enc: CategoricalEncoding = {
      name,
      kind: "categorical",
      categories: [...levels],
      rare: [],
      fill: fill === null ? null : levels[partLevel(fill, part)],
      strip: true,
      handleUnseen: true,
      derived: { column, part },
    };
    const codes = new Uint16Array(days.length);
    const seen = new Set<number>();
    for (let i = 0; i < days.length; i++) {
      codes[i] = partCode(enc, days[i]);
      if (codes[i] > 0) seen.add(codes[i]);
    }
    if (seen.size < 2) continue;
    out.encodings.push(enc);
    out.columns.push(codes);
  }
  return out;
}

/** A feature derived from a date column, as the model record lists it. */
export type DerivedFeature = {
  /** The feature's (and its main term's) name, `<column>:<part>`. */
  name: string;
  /** The input column it reads. */
  column: string;
  part: DatePart;
};

/**
 * The features an encoder derives from date columns, in feature order.
 *
 * @example
 * ```ts
 * import { derivedFeatures } from "./dates.ts";
 *
 * const features = [
 *   { name: "d", kind: "numeric" as const, fill: null, date: true as const },
 *   { name: "d:weekday", kind: "categorical" as const, categories: [], rare: [], fill: null, strip: true, handleUnseen: true, derived: { column: "d", part: "weekday" as const } },
 * ];
 * const [w] = derivedFeatures({ features, target: { name: "y", classes: [], strip: true } });
 * if (!(w.name === "d:weekday" && w.column === "d" && w.part === "weekday")) throw new Error("example failed");
 * ```
 */
export function derivedFeatures(encoder: Encoder): DerivedFeature[] {
  return encoder.features.flatMap((f) =>
    f.kind === "categorical" && f.derived
      ? [{ name: f.name, column: f.derived.column, part: f.derived.part }]
      : []
  );
}
