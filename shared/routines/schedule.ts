import { Cron } from 'croner';
import { type Parsed, type Schedule, scheduleShape } from './schedule-text.js';

export type { Schedule } from './schedule-text.js';

/*
 * A routine's schedule (CONTRACT.md, "Routines"): a five-field cron expression read in an IANA time
 * zone, or `rate(<n> minutes|hours|days)`. Next times come from croner (README, dependencies), never
 * from a parser of our own. A five-field expression has no seconds, so a schedule fires at most
 * once a minute; a rate is at least one minute. Both runtimes fire at the times computed here
 * (on AWS a one-time schedule of each next run: fire-message.ts).
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
