import { z } from '@hono/zod-openapi';
import { dayOf } from '../platform/clock.js';
import { ValidationError } from '../platform/errors.js';

/*
 * The days a dashboard charts, and the days an audit log is read for: `from` and `to` as UTC dates
 * (`YYYY-MM-DD`), both included.
 */

const DAY_MS = 86_400_000;

/** A calendar date `YYYY-MM-DD` that exists (not 2026-02-30). */
function isDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const parsed = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && dayOf(parsed) === text;
}

const date = (description: string) =>
  z.string().refine(isDate, 'must be a date YYYY-MM-DD').optional().openapi({ description, example: '2026-05-01', format: 'date' });

/** `from` and `to` of a query string. */
export const DayRangeQuery = z.object({
  from: date('first day (UTC), included'),
  to: date('last day (UTC), included'),
});
export type DayRangeInput = z.output<typeof DayRangeQuery>;

/** The dashboard charts 30 days unless asked, 90 at most. */
const DASHBOARD_DEFAULT_DAYS = 30;
const DASHBOARD_MAX_DAYS = 90;

const rangeError = (path: 'from' | 'to', message: string) => new ValidationError('invalid query string', [{ path, message }]);
const addDays = (day: string, count: number) => dayOf(new Date(Date.parse(`${day}T00:00:00Z`) + count * DAY_MS));
const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;

/** `from` must not come after `to`. */
function checkOrder(from: string, to: string, toGiven: boolean): void {
  if (from > to) throw rangeError('from', toGiven ? 'must not be after to' : 'must not be after today (to, when not given)');
}

/**
 * The dashboard's days, oldest first: `from`…`to`, each defaulting so that the range is the 30 days
 * ending today (UTC), or ending on `to`, or from `from` to today. At most 90 days.
 */
export function dashboardDays(now: Date, input: DayRangeInput): string[] {
  const to = input.to ?? dayOf(now);
  const from = input.from ?? addDays(to, -(DASHBOARD_DEFAULT_DAYS - 1));
  checkOrder(from, to, input.to !== undefined);
  const count = daysBetween(from, to);
  if (count > DASHBOARD_MAX_DAYS) throw rangeError('from', `the range is at most ${DASHBOARD_MAX_DAYS} days (this one is ${count})`);
  return Array.from({ length: count }, (_, index) => addDays(from, index));
}

/**
 * The sort-key condition of a time-ordered partition (sort keys `<ISO instant>#<id>`) for the
 * days asked, or undefined for all of it.
 */
export function instantsOf(input: DayRangeInput): { between: [string, string] } | { gte: string } | { lte: string } | undefined {
  if (input.from && input.to) checkOrder(input.from, input.to, true);
  // `~` sorts after every character of an instant, so `<to>T~` is past the last one of that day.
  const first = input.from && `${input.from}T`;
  const last = input.to && `${input.to}T~`;
  if (first && last) return { between: [first, last] };
  if (first) return { gte: first };
  if (last) return { lte: last };
  return undefined;
}
