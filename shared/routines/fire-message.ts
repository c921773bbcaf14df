import { z } from 'zod';
import type { Deps } from '../deps.js';
import { SCHEDULED_TIME, type JobMessage } from '../jobs/index.js';
import { awsExpressionOf, isRate } from './schedule.js';
import type { RoutineFields } from './entities.js';

/*
 * A scheduled routine's firing: a timed move on the lifecycle queue (`fire-routine`), as a
 * conversation's cold move and an approval's expiry are, so it reaches the service the same ways: a
 * recurring EventBridge schedule per routine on AWS (its message carries the time it fired for), and
 * on both runtimes the due index, which the sweep and the local scheduler read (sweep/due-sweep.ts).
 * The fire job (fire-job.ts) makes the run of that time once: the time is the run's id.
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

/** The fire job of a routine's time `scheduledAt` (`SCHEDULED_TIME`: EventBridge fills it in). */
export function fireMessage(orgId: string, routineId: string, scheduledAt: string): JobMessage {
  return {
    jobId: `routine-fire-${routineId}-${scheduledAt}`,
    queue: 'lifecycle',
    orgId,
    data: { move: 'fire-routine', routineId, scheduledAt } satisfies FireRoutineJob,
  };
}

/** Makes the routine's schedule what its fields say: recurring while it is scheduled and enabled, else none. */
export async function syncSchedule(deps: Pick<Deps, 'scheduler'>, routine: RoutineFields): Promise<void> {
  const name = routineScheduleName(routine.id);
  if (!routine.schedule || !routine.enabled || !routine.next_run_at) return deps.scheduler.cancel(name);
  const schedule = { schedule: routine.schedule, timezone: routine.timezone ?? 'UTC' };
  await deps.scheduler.recur(
    name,
    {
      expression: awsExpressionOf(schedule),
      timezone: schedule.timezone,
      ...(isRate(schedule) ? { startAt: new Date(routine.anchor_at) } : {}),
      nextAt: new Date(routine.next_run_at),
    },
    fireMessage(routine.org_id, routine.id, SCHEDULED_TIME),
  );
}

export function unschedule(deps: Pick<Deps, 'scheduler'>, routineId: string): Promise<void> {
  return deps.scheduler.cancel(routineScheduleName(routineId));
}
