import type { Deps } from '../deps.js';

/*
 * How often a routine may be started by hand or by its webhook: a webhook is public, so a caller
 * that has the secret, or one replaying without it, cannot make a routine run more than this a
 * minute (all processes together: platform/request-rate.ts). Schedules need no such bound: a
 * schedule fires at most once a minute.
 */
export const MAX_STARTS_PER_MINUTE = 30;

/** Admits one start of a routine this minute, or throws 429. */
export async function admitStart(deps: Pick<Deps, 'requestRate'>, routineId: string): Promise<void> {
  await deps.requestRate.admit(
    `routine:${routineId}`,
    MAX_STARTS_PER_MINUTE,
    `too many runs: a routine may be started at most ${MAX_STARTS_PER_MINUTE} times a minute`,
  );
}
