/*
 * What can be told of a routine's schedule from its text alone, without the cron library: its
 * shape (five fields, or a rate), and a time zone's name. The request schemas check these (so the
 * route definitions, in every function's bundle, do not carry croner); whether croner reads the
 * expression is checked where the routine is saved (schedule.ts `scheduleProblem`).
 */

export interface Schedule {
  /** The expression as the admin gave it (trimmed). */
  schedule: string;
  timezone: string;
}

const RATE = /^rate\(\s*(\d{1,6})\s+(minute|minutes|hour|hours|day|days)\s*\)$/;
const UNIT_MS = { minute: 60_000, hour: 3_600_000, day: 86_400_000 } as const;
/** A rate of at most a year: a longer one is a typo. */
const MAX_RATE_MS = 366 * UNIT_MS.day;
/** What a cron field may hold: numbers, names, `* , - /` and croner's `L W #` (no `?`: AWS's own, placed by `awsExpressionOf`). */
const CRON_FIELD = /^[0-9A-Za-z*,/#-]+$/;

type Rate = { kind: 'rate'; everyMs: number; value: number; unit: keyof typeof UNIT_MS };
type CronSchedule = { kind: 'cron'; fields: string[] };
export type Parsed = Rate | CronSchedule;

/** Whether `timezone` is an IANA time zone this runtime knows. */
export function isTimeZone(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
    return timezone.length > 0;
  } catch {
    return false;
  }
}

/** The schedule's shape, or what is wrong with it (a sentence for the 400's details). */
export function scheduleShape(expression: string): Parsed | string {
  const text = expression.trim();
  const rate = RATE.exec(text);
  if (rate) {
    const value = Number(rate[1]);
    const unit = (rate[2] ?? '').replace(/s$/, '') as keyof typeof UNIT_MS;
    if (value < 1) return 'a rate is at least 1';
    const everyMs = value * UNIT_MS[unit];
    if (everyMs > MAX_RATE_MS) return 'a rate is at most 366 days';
    return { kind: 'rate', everyMs, value, unit };
  }
  if (text.startsWith('rate(')) return 'must be rate(<n> minutes|hours|days)';
  const fields = text.split(/\s+/);
  if (fields.length !== 5)
    return 'must be a cron expression of 5 fields (minute hour day-of-month month day-of-week) or rate(<n> minutes|hours|days)';
  if (!fields.every((field) => CRON_FIELD.test(field))) return 'a cron field holds numbers, names and * , - / L W # only';
  const [, , dayOfMonth, , dayOfWeek] = fields;
  // Unix cron reads both as "either" (the 1st OR a Monday), which surprises as often as it serves: one is asked for.
  if (dayOfMonth !== '*' && dayOfWeek !== '*') return 'give a day of the month or a day of the week, not both';
  return { kind: 'cron', fields };
}
