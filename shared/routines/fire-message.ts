import { z } from 'zod';
import type { Deps } from '../deps.js';
import type { JobMessage } from '../jobs/index.js';
import type { RoutineFields } from './entities.js';

/*
 * A scheduled routine's firing: a timed move on the lifecycle queue (`fire-routine`), as a
 * conversation's cold move and an approval's expiry are, so it reaches the service the same ways:
 * on AWS one EventBridge schedule per routine, a one-time `at()` of its next run, kept after it
 * fires and moved to the following time by the fire job; on both runtimes the due index, which the
 * sweep and the local scheduler read (sweep/due-sweep.ts). Every time is computed by one engine,
 * croner (schedule.ts), on both runtimes: no cron expression is translated into EventBridge's
 * dialect, whose day-of-week numbers, ranges and day-of-month/day-of-week rule differ from Unix
 * cron's. The fire job (fire-job.ts) makes the run of that time once: the time is the run's id.
 */

export const FireRoutineJobSchema = z.object({
  move: z.literal('fire-routine'),
  routineId: z.string().min(1),
  /** The time the schedule fired for (ISO; EventBridge writes it without milliseconds). */
  scheduledAt: z.string().refine((value) => !Number.isNaN(Date.parse(value)), 'must be a time'),
});
export type FireRoutineJob = z.infer<typeof FireRoutineJobSchema>;

/** The EventBridge schedule of a routine (at most 64 of `[0-9a-zA-Z-_.]`: routine ids are `rtn_` and base-36 and hex). */
const routineScheduleName = (routineId: string) => `routine-${routineId}`.slice(0, 64);

/** The fire job of a routine's time `scheduledAt`. */
export function fireMessage(orgId: string, routineId: string, scheduledAt: string): JobMessage {
  return {
    jobId: `routine-fire-${routineId}-${scheduledAt}`,
    queue: 'lifecycle',
    orgId,
    data: { move: 'fire-routine', routineId, scheduledAt } satisfies FireRoutineJob,
  };
}

/**
 * Makes the routine's schedule what its fields say: its next run while it is scheduled and enabled,
 * else none. The schedule is kept after it fires (the fire job moves it to the next time), and
 * replaced in place.
 */
export async function syncSchedule(
  deps: Pick<Deps, 'scheduler'>,
  routine: Pick<RoutineFields, 'id' | 'org_id' | 'schedule' | 'enabled' | 'next_run_at'>,
): Promise<void> {
  const name = routineScheduleName(routine.id);
  if (!routine.schedule || !routine.enabled || !routine.next_run_at) return deps.scheduler.cancel(name);
  const at = new Date(routine.next_run_at);
  await deps.scheduler.schedule(name, at, fireMessage(routine.org_id, routine.id, routine.next_run_at), { replaces: true, kept: true });
}

export function unschedule(deps: Pick<Deps, 'scheduler'>, routineId: string): Promise<void> {
  return deps.scheduler.cancel(routineScheduleName(routineId));
}
