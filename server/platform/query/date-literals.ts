/**
 * Relative dates of filters (TODAY, LAST_MONTH, LAST_N_DAYS:7 ...) as half-open intervals of calendar days,
 * computed from a clock the caller passes in, never the database's: the same filter gives the same rows
 * in a test on any day. Days are UTC days; weeks start on Sunday and quarters in January, April, July and
 * October, as in the platform's default (en_US) locale.
 */

/** Calendar days [start, end): ISO dates (YYYY-MM-DD), end excluded. */
export interface DayInterval {
  start: string;
  end: string;
}

/** Longest relative range accepted, in days (a century). */
export const MAX_RELATIVE_DAYS = 36_500;

const DAY_MS = 86_400_000;

const isoDay = (utcMs: number) => new Date(utcMs).toISOString().slice(0, 10);

/** Midnight UTC of the day `now` falls in, plus `days`. */
const dayOf = (now: Date, days = 0) => Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days);

function days(now: Date, from: number, to: number): DayInterval {
  return { start: isoDay(dayOf(now, from)), end: isoDay(dayOf(now, to)) };
}

function months(now: Date, from: number, length: number): DayInterval {
  const year = now.getUTCFullYear();
  return { start: isoDay(Date.UTC(year, from, 1)), end: isoDay(Date.UTC(year, from + length, 1)) };
}

function weeks(now: Date, offset: number): DayInterval {
  const sunday = -now.getUTCDay() + 7 * offset;
  return days(now, sunday, sunday + 7);
}

const quarterStart = (now: Date) => now.getUTCMonth() - (now.getUTCMonth() % 3);

const LITERALS: Record<string, (now: Date) => DayInterval> = {
  YESTERDAY: (now) => days(now, -1, 0),
  TODAY: (now) => days(now, 0, 1),
  TOMORROW: (now) => days(now, 1, 2),
  LAST_WEEK: (now) => weeks(now, -1),
  THIS_WEEK: (now) => weeks(now, 0),
  NEXT_WEEK: (now) => weeks(now, 1),
  LAST_MONTH: (now) => months(now, now.getUTCMonth() - 1, 1),
  THIS_MONTH: (now) => months(now, now.getUTCMonth(), 1),
  NEXT_MONTH: (now) => months(now, now.getUTCMonth() + 1, 1),
  LAST_QUARTER: (now) => months(now, quarterStart(now) - 3, 3),
  THIS_QUARTER: (now) => months(now, quarterStart(now), 3),
  NEXT_QUARTER: (now) => months(now, quarterStart(now) + 3, 3),
  LAST_YEAR: (now) => months(now, -12, 12),
  THIS_YEAR: (now) => months(now, 0, 12),
  NEXT_YEAR: (now) => months(now, 12, 12),
  LAST_90_DAYS: (now) => lastNDays(now, 90),
  NEXT_90_DAYS: (now) => nextNDays(now, 90),
};

/** The past n days and today: LAST_N_DAYS:1 is yesterday and today. */
export const lastNDays = (now: Date, n: number) => days(now, -n, 1);

/** The n days after today, today excluded: NEXT_N_DAYS:1 is tomorrow. */
export const nextNDays = (now: Date, n: number) => days(now, 1, n + 1);

/**
 * The interval of a date literal: a name (TODAY, THIS_MONTH ...) or `LAST_N_DAYS:n` / `NEXT_N_DAYS:n`.
 * Undefined when the literal is unknown or n is not a whole number of days within MAX_RELATIVE_DAYS.
 */
export function dateLiteralInterval(literal: string, now: Date): DayInterval | undefined {
  const name = literal.toUpperCase();
  if (Object.hasOwn(LITERALS, name)) return LITERALS[name](now);
  const relative = /^(LAST|NEXT)_N_DAYS:([0-9]{1,6})$/i.exec(literal);
  if (!relative) return undefined;
  const n = Number(relative[2]);
  if (n > MAX_RELATIVE_DAYS) return undefined;
  return relative[1].toUpperCase() === 'LAST' ? lastNDays(now, n) : nextNDays(now, n);
}

/** The day after an ISO date, for a date-only value compared with a date-time (that day, 24 hours). */
export const nextDay = (isoDate: string) => isoDay(Date.parse(`${isoDate}T00:00:00.000Z`) + DAY_MS);
