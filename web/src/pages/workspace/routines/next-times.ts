/*
 * The next times a schedule fires, computed in the browser as an admin types it: a rate by
 * counting, a cron expression by croner, the library the service schedules with
 * (shared/routines/schedule.ts), so the preview and the service agree. croner is loaded with the
 * first cron expression typed, as a chunk of its own: the console's first load does not carry it.
 * The service stays the judge: what it refuses shows under the field when the form is saved.
 */

const RATE = /^rate\(\s*(\d{1,6})\s+(minute|minutes|hour|hours|day|days)\s*\)$/;
const UNIT_MS = { minute: 60_000, hour: 3_600_000, day: 86_400_000 } as const;
const MAX_RATE_MS = 366 * UNIT_MS.day;

/** The next `count` times, or why there are none (a sentence to show under the field). */
export type NextTimes = { times: Date[] } | { problem: string };

/** A rate's next times: it counts from the minute the routine is saved (`anchor`), as the service counts it. */
function rateTimes(value: number, unit: keyof typeof UNIT_MS, anchor: Date, count: number): NextTimes {
  if (value < 1) return { problem: 'a rate is at least 1' };
  const everyMs = value * UNIT_MS[unit];
  if (everyMs > MAX_RATE_MS) return { problem: 'a rate is at most 366 days' };
  const start = Math.floor(anchor.getTime() / 60_000) * 60_000;
  return { times: Array.from({ length: count }, (_, index) => new Date(start + (index + 1) * everyMs)) };
}

/** A cron expression's next times after `after`, read in `timezone`. */
async function cronTimes(text: string, timezone: string, after: Date, count: number): Promise<NextTimes> {
  const fields = text.split(/\s+/);
  if (fields.length !== 5) return { problem: 'a cron expression has 5 fields: minute hour day-of-month month day-of-week' };
  // The service refuses both day fields restricted (EventBridge cannot say "either"): say so before saving.
  if (fields[2] !== '*' && fields[4] !== '*') return { problem: 'give a day of the month or a day of the week, not both' };
  const { Cron } = await import('croner');
  try {
    const cron = new Cron(text, { mode: '5-part', timezone, paused: true });
    return { times: cron.nextRuns(count, after) };
  } catch (error) {
    return { problem: error instanceof Error ? error.message.replace(/^CronPattern: /, '') : 'not a valid cron expression' };
  }
}

/** When `schedule` (cron or `rate()`) fires next in `timezone`, after `now`. */
export function nextTimes(schedule: string, timezone: string, now: Date, count = 5): Promise<NextTimes> {
  const text = schedule.trim();
  if (!text) return Promise.resolve({ problem: 'type a cron expression or rate(<n> minutes|hours|days)' });
  const rate = RATE.exec(text);
  if (rate) {
    const unit = (rate[2] ?? 'minute').replace(/s$/, '') as keyof typeof UNIT_MS;
    return Promise.resolve(rateTimes(Number(rate[1]), unit, now, count));
  }
  if (text.startsWith('rate(')) return Promise.resolve({ problem: 'a rate reads rate(<n> minutes|hours|days)' });
  return cronTimes(text, timezone, now, count);
}

/** The time zones the browser knows, UTC first; `current` is kept even when the list lacks it. */
export function timeZones(current: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set(['UTC', current, ...known])];
}

/** The browser's own time zone: a new routine's default. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** A time as it reads in `timezone`: "Mon 8 Dec 2026, 08:00 CET". */
export function timeIn(time: Date, timezone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: timezone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(time);
}
