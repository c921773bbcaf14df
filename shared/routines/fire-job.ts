import type { Deps } from '../deps.js';
import type { JobHandler } from '../jobs/index.js';
import { conditionHeld } from '../platform/table.js';
import { nextRunMoved } from './entities.js';
import { FireRoutineJobSchema, type FireRoutineJob, syncSchedule } from './fire-message.js';
import { newRun, startRun } from './runs.js';
import { nextRunAfter } from './schedule.js';
import { findRoutine } from './store.js';

/*
 * A scheduled time of a routine, fired (fire-message.ts): its run made once (the time is its id),
 * and the routine's next run moved past now. Moving past now, not past the time fired, is what
 * makes a runtime that was down for an hour start one run, not sixty: the sweep at its start fires
 * the time the due index holds, and the next is the first time after that start.
 */

/**
 * The routine's next run moved from `from` to its first time after `after` (only while it is still
 * `from`: of the firings of one time, one moves it), and its schedule with it (the one that moved
 * it moves the schedule). Answers the new next run.
 */
export async function moveNextRun(
  deps: Pick<Deps, 'table' | 'scheduler'>,
  routine: { id: string; org_id: string; schedule?: string; timezone?: string; anchor_at?: string },
  from: string,
  after: Date,
): Promise<string | null> {
  if (!routine.schedule || !routine.anchor_at) return null;
  const schedule = { schedule: routine.schedule, timezone: routine.timezone ?? 'UTC' };
  const next = nextRunAfter(schedule, new Date(routine.anchor_at), after)?.toISOString() ?? null;
  const { key, input } = nextRunMoved(routine.id, from, next);
  if (await conditionHeld(deps.table.update(key, input))) {
    await syncSchedule(deps, { ...routine, schedule: routine.schedule, enabled: true, next_run_at: next });
  }
  return next;
}

async function fire(deps: Deps, data: FireRoutineJob, orgId: string): Promise<void> {
  const routine = await findRoutine(deps, data.routineId);
  if (!routine || routine.org_id !== orgId || !routine.enabled || !routine.schedule) return;
  const scheduledAt = new Date(data.scheduledAt);
  const now = deps.clock.now();
  if (routine.next_run_at && routine.next_run_at <= scheduledAt.toISOString()) {
    await moveNextRun(deps, routine, routine.next_run_at, new Date(Math.max(now.getTime(), scheduledAt.getTime())));
  }
  await startRun(deps, routine, newRun(deps, routine, { trigger: 'schedule', scheduledAt }));
}

/** The lifecycle queue's handler of a routine's scheduled time. */
export const fireRoutineHandler: JobHandler<FireRoutineJob> = {
  schema: FireRoutineJobSchema,
  run: (deps, data, job) => fire(deps, data, job.org_id),
};
