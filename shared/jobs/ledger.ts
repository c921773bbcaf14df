import type { Store } from '../platform/store.js';
import { once } from '../platform/once.js';
import { unlessConditionFailed } from '../platform/table.js';
import { keys } from '../platform/keys.js';
import {
  type CounterName,
  GAUGES,
  indexAttributes,
  type JobItem,
  type JobMessage,
  type JobState,
  type QueueName,
  type TransitionOptions,
} from './ledger-types.js';

export { QUEUE_NAMES, isQueueName } from './ledger-types.js';
export type { JobItem, JobMessage, JobState, QueueName, TransitionOptions } from './ledger-types.js';

/** The typed writes (dynamodb-toolbox), evaluated on first use: a process that never writes a job never loads the builder. */
const writes = once(() => import('./ledger-writes.js'));

/** Adds to the queue counters of an organisation. */
async function countJobs(store: Store, orgId: string, deltas: Partial<Record<CounterName, number>>): Promise<void> {
  const update = (await writes()).countersUpdate(orgId, deltas);
  if (update) await store.table.update(update.key, update.input);
}

function counterDeltas(queue: QueueName, from: JobState | undefined, to: JobState) {
  const deltas: Partial<Record<CounterName, number>> = {};
  if (from && GAUGES.includes(from)) deltas[`${queue}#${from}`] = -1;
  if (GAUGES.includes(to) || to === 'completed') deltas[`${queue}#${to}`] = (deltas[`${queue}#${to}`] ?? 0) + 1;
  return deltas;
}

/**
 * Records a new job (waiting, or delayed until `runAt`). The id is the idempotency key: a job
 * already in the ledger is not recorded again, and `false` says so — unless it was drained
 * (`removed`), which a new send replaces.
 */
export async function recordJob(store: Store, message: JobMessage, delayMs = 0): Promise<boolean> {
  const now = store.clock.now();
  const at = now.toISOString();
  const runAt = new Date(now.getTime() + Math.max(0, delayMs)).toISOString();
  const state: JobState = delayMs > 0 ? 'delayed' : 'waiting';
  const item: JobItem = {
    ...keys.job(message.jobId),
    id: message.jobId,
    queue: message.queue,
    org_id: message.orgId,
    state,
    attempts: 0,
    data: message.data,
    last_error: null,
    run_at: runAt,
    created_at: at,
    updated_at: at,
    ...indexAttributes(message.orgId, message.queue, message.jobId, state, at, runAt),
  };
  if (!(await store.table.putNew(item))) {
    // A drained job may be sent again (the sweep re-sends an overdue move): it replaces the removed one.
    const replaced = await unlessConditionFailed(
      store.table.put(item, (await writes()).replacesRemoved()).then(() => true),
      false,
    );
    if (!replaced) return false;
  }
  await countJobs(store, message.orgId, counterDeltas(message.queue, undefined, state));
  return true;
}

export async function getJob(store: Store, jobId: string): Promise<JobItem | undefined> {
  return store.table.get<JobItem>(keys.job(jobId), true);
}

/**
 * Moves a job between states with one conditional write on its current state (so two workers
 * can never both claim it, and a stale message is a no-op), then adjusts the queue counters.
 * Returns the job after the move, or undefined when it was not in an expected state.
 */
export async function transitionJob(store: Store, job: JobItem, options: TransitionOptions): Promise<JobItem | undefined> {
  const now = store.clock.now();
  const at = now.toISOString();
  const runAt = options.runAt ?? job.run_at;
  const index = indexAttributes(job.org_id, job.queue, job.id, options.to, at, runAt);
  const { key, input } = (await writes()).transitionUpdate(job, options, now, index);
  // ALL_OLD: the counters move from the state the job really was in, not the one read earlier.
  const previous = await unlessConditionFailed(store.table.updateReturningOld<JobItem>(key, input), undefined);
  if (!previous) return undefined;
  await countJobs(store, job.org_id, counterDeltas(job.queue, previous.state, options.to));
  const attempts = options.attempts === 'increment' ? previous.attempts + 1 : options.attempts === 'reset' ? 0 : previous.attempts;
  return {
    ...previous,
    ...index,
    state: options.to,
    attempts,
    run_at: runAt,
    updated_at: at,
    last_error: options.lastError !== undefined ? options.lastError : previous.last_error,
    lease_until: options.leaseUntil,
  };
}

export function messageOf(job: JobItem): JobMessage {
  return { jobId: job.id, queue: job.queue, orgId: job.org_id, data: job.data };
}
