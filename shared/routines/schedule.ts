import { Cron } from 'croner';

/*
 * A routine's schedule (CONTRACT.md, "Routines"): a five-field cron expression read in an IANA time
 * zone, or `rate(<n> minutes|hours|days)`. Next times come from croner (README, dependencies), never
 * from a parser of our own. A five-field expression has no seconds, so a schedule fires at most
 * once a minute; a rate is at least one minute. The same schedule is written as an EventBridge
 * Scheduler expression on AWS (`awsExpressionOf`), so both runtimes fire at the same times.
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
type Parsed = Rate | CronSchedule;

/** Whether `timezone` is an IANA time zone this runtime knows. */
export function isTimeZone(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: timezone });
    return timezone.length > 0;
  } catch {
    return false;
  }
}

/** The parsed schedule, or what is wrong with it (a sentence for the 400's details). */
export function parseSchedule(expression: string): Parsed | string {
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
  // EventBridge needs one of the two day fields to be `?`; cron reads both as "either", which AWS cannot say.
  if (dayOfMonth !== '*' && dayOfWeek !== '*') return 'give a day of the month or a day of the week, not both';
  try {
    new Cron(text, { mode: '5-part', paused: true });
  } catch (error) {
    return error instanceof Error ? error.message.replace(/^CronPattern: /, '') : 'not a valid cron expression';
  }
  return { kind: 'cron', fields };
}

/** The parsed schedule of one already validated. */
function parsed(schedule: Schedule): Parsed {
  const result = parseSchedule(schedule.schedule);
  if (typeof result === 'string') throw new Error(`invalid stored schedule: ${result}`);
  return result;
}

/**
 * The first time the schedule fires strictly after `after`. A rate counts from `anchor` (when the
 * routine was made), as EventBridge counts a rate from its start date.
 */
export function nextRunAfter(schedule: Schedule, anchor: Date, after: Date): Date | undefined {
  const parsedSchedule = parsed(schedule);
  if (parsedSchedule.kind === 'rate') {
    const since = after.getTime() - anchor.getTime();
    const periods = since < 0 ? 0 : Math.floor(since / parsedSchedule.everyMs) + 1;
    return new Date(anchor.getTime() + periods * parsedSchedule.everyMs);
  }
  const cron = new Cron(parsedSchedule.fields.join(' '), { mode: '5-part', timezone: schedule.timezone, paused: true });
  return cron.nextRun(after) ?? undefined;
}

/** Unix cron's day of the week (0–7, Sunday 0 or 7) as EventBridge's (1–7, Sunday 1); names stay. */
function awsDayOfWeek(field: string): string {
  return field.replace(/\d+/g, (digits, offset: number, whole: string) => {
    // A step (`*/2`) or an nth (`5#3`'s 3) is a count, not a day.
    const before = whole[offset - 1];
    if (before === '/' || before === '#') return digits;
    return String((Number(digits) % 7) + 1);
  });
}

/**
 * The schedule as EventBridge Scheduler writes it: `cron(min hour dom month dow year)` with `?` in
 * the day field left open, or `rate(1 minute)` / `rate(5 minutes)` (a value of 1 takes the singular).
 */
export function awsExpressionOf(schedule: Schedule): string {
  const parsedSchedule = parsed(schedule);
  if (parsedSchedule.kind === 'rate') {
    const { value, unit } = parsedSchedule;
    return `rate(${value} ${value === 1 ? unit : `${unit}s`})`;
  }
  const [minute, hour, dayOfMonth = '*', month, dayOfWeek = '*'] = parsedSchedule.fields;
  const days = dayOfWeek === '*' ? [dayOfMonth, '?'] : ['?', awsDayOfWeek(dayOfWeek)];
  return `cron(${[minute, hour, days[0], month, days[1], '*'].join(' ')})`;
}

/** Whether the schedule is a rate (EventBridge then needs its start date: the routine's anchor). */
export function isRate(schedule: Schedule): boolean {
  return parsed(schedule).kind === 'rate';
}
