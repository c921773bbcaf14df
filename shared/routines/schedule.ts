import { Cron } from 'croner';
import { type Parsed, type Schedule, scheduleShape } from './schedule-text.js';

export type { Schedule } from './schedule-text.js';

/*
 * A routine's schedule (CONTRACT.md, "Routines"): a five-field cron expression read in an IANA time
 * zone, or `rate(<n> minutes|hours|days)`. Next times come from croner (README, dependencies), never
 * from a parser of our own. A five-field expression has no seconds, so a schedule fires at most
 * once a minute; a rate is at least one minute. The same schedule is written as an EventBridge
 * Scheduler expression on AWS (`awsExpressionOf`), so both runtimes fire at the same times.
 */

/** The parsed schedule, or what is wrong with it (a sentence for the 400's details): its shape, then croner's reading. */
function parseSchedule(expression: string): Parsed | string {
  const shape = scheduleShape(expression);
  if (typeof shape === 'string' || shape.kind === 'rate') return shape;
  try {
    new Cron(shape.fields.join(' '), { mode: '5-part', paused: true });
  } catch (error) {
    return error instanceof Error ? error.message.replace(/^CronPattern: /, '') : 'not a valid cron expression';
  }
  return shape;
}

/**
 * What is wrong with a schedule the request schemas let through (they check its shape only,
 * schedule-text.ts): croner cannot read it, or it never fires (`0 0 30 2 *`). Undefined: none.
 */
export function scheduleProblem(schedule: Schedule, now: Date): string | undefined {
  const result = parseSchedule(schedule.schedule);
  if (typeof result === 'string') return result;
  return nextRunAfter(schedule, now, now) ? undefined : 'this schedule never fires';
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
