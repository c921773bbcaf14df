import type { Store } from '../platform/store.js';
import { once } from '../platform/once.js';
import { unlessConditionFailed } from '../platform/table.js';
import { keys } from '../platform/keys.js';
import {
  type CounterName,
  drainedAttribute,
  FINISHED_TTL_SECONDS,
  GAUGES,
  indexAttributes,
  isClaimedOnDelivery,
  isRecordedOnFailure,
  type JobItem,
  type JobMessage,
  type JobState,
  type QueueName,
  type TransitionOptions,
} from './ledger-types.js';

export { QUEUE_NAMES, hasClaimedOnDelivery, isClaimedOnDelivery, isQueueName, isRecordedOnFailure } from './ledger-types.js';
export type { JobItem, JobMessage, JobState, QueueName, TransitionOptions } from './ledger-types.js';

/** The typed writes (dynamodb-toolbox), evaluated on first use: a process that never writes a job never loads the builder. */
const writes = once(() => import('./ledger-writes.js'));

/**
 * Adds to the queue counters of an organisation. `unlessDrainedSince`: only if the queue was not
 * drained after that time (a job claimed on delivery, sent then: jobs/drains.ts); answers whether
 * it added.
 */
async function countJobs(
  store: Store,
  orgId: string,
  deltas: Partial<Record<CounterName, number>>,
  unlessDrainedSince?: { queue: QueueName; sentAt: string },
): Promise<boolean> {
  const update = (await writes()).countersUpdate(orgId, deltas);
  if (!update) return true;
  if (!unlessDrainedSince) {
    await store.table.update(update.key, update.input);
    return true;
  }
  const { queue, sentAt } = unlessDrainedSince;
  const input = {
    ...update.input,
    condition: 'attribute_not_exists(#drained) OR #drained < :sent',
    names: { ...update.input.names, '#drained': drainedAttribute(queue) },
    values: { ...update.input.values, ':sent': sentAt },
  };
  return unlessConditionFailed(
    store.table.update(update.key, input).then(() => true),
    false,
  );
}

function counterDeltas(queue: QueueName, from: JobState | undefined, to: JobState) {
  const deltas: Partial<Record<CounterName, number>> = {};
  if (from && GAUGES.includes(from)) deltas[`${queue}#${from}`] = -1;
  if (GAUGES.includes(to) || to === 'completed') deltas[`${queue}#${to}`] = (deltas[`${queue}#${to}`] ?? 0) + 1;
  return deltas;
}

/** What a job recorded after a delivery that ran without the ledger failed (`RECORDED_ON_FAILURE`) starts with. */
export interface FailedDelivery {
  error: string;
  /** When it is tried again; absent: it failed for good (a payload that does not validate, or no attempts left). */
  retryInMs?: number;
}

/** The job of `message` as its item would be recorded in `state`, with `attempts` made. */
function jobItemOf(message: JobMessage, state: JobState, at: string, runAt: string, attempts: number, lastError: string | null): JobItem {
  return {
    ...keys.job(message.jobId),
    id: message.jobId,
    queue: message.queue,
    org_id: message.orgId,
    state,
    attempts,
    data: message.data,
    last_error: lastError,
    run_at: runAt,
    created_at: at,
    updated_at: at,
    ...indexAttributes(message.orgId, message.queue, message.jobId, state, at, runAt),
  };
}

/**
 * Records a new job (waiting, or delayed until `runAt`). The id is the idempotency key: a job
 * already in the ledger is not recorded again, and `false` says so — unless it was drained
 * (`removed`), which a new send replaces. `failed`: the job's first delivery ran without the ledger
 * and failed, so it is recorded after that attempt (delayed for its retry, or failed for good).
 */
export async function recordJob(store: Store, message: JobMessage, delayMs = 0, failed?: FailedDelivery): Promise<boolean> {
  const now = store.clock.now();
  const at = now.toISOString();
  const wait = failed ? (failed.retryInMs ?? 0) : delayMs;
  const runAt = new Date(now.getTime() + Math.max(0, wait)).toISOString();
  const state: JobState = failed && failed.retryInMs === undefined ? 'failed' : wait > 0 ? 'delayed' : 'waiting';
  const item = jobItemOf(message, state, at, runAt, failed ? 1 : 0, failed?.error ?? null);
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

/**
 * What sending a job writes before it goes: the job recorded (`recordJob`), or for a queue of
 * `RECORDED_ON_FAILURE` or `CLAIMED_ON_DELIVERY` one read: a job already in the ledger (one that
 * failed, retried from there or waiting for retry-all; a claimed one) is not sent again, as a
 * recorded one is not; a drained one is recorded anew (`recordJob` replaces it), since its late
 * deliveries are dropped. A job of `CLAIMED_ON_DELIVERY` is then counted waiting. Answers the message to send (stamped with its time when counted), or
 * undefined: do not send it.
 */
export async function recordOrCheck(store: Store, message: JobMessage, delayMs = 0): Promise<JobMessage | undefined> {
  const recordNew = async () => ((await recordJob(store, message, delayMs)) ? message : undefined);
  const claimed = isClaimedOnDelivery(message);
  if (!isRecordedOnFailure(message.queue) && !claimed) return recordNew();
  const recorded = await getJob(store, message.jobId);
  if (recorded?.state === 'removed') return recordNew();
  if (recorded) return undefined;
  if (!claimed) return message;
  // Counted waiting: the counters are its only record until its claim.
  await countJobs(store, message.orgId, counterDeltas(message.queue, undefined, 'waiting'));
  return { ...message, sentAt: store.clock.now().toISOString() };
}

/**
 * A job claimed on delivery, claimed: counted active (out of `waiting`), unless its queue was
 * drained after it was sent (`sentAt`; none: before any drain). False then: the job is dropped.
 */
export function countClaimed(store: Store, message: JobMessage): Promise<boolean> {
  return countJobs(store, message.orgId, counterDeltas(message.queue, 'waiting', 'active'), {
    queue: message.queue,
    sentAt: message.sentAt ?? '',
  });
}

/** A job claimed on delivery, its work written: counted completed (out of `active`). */
export async function countWritten(store: Store, message: JobMessage): Promise<void> {
  await countJobs(store, message.orgId, counterDeltas(message.queue, 'active', 'completed'));
}

/** How long a claim of a job is its worker's: after it, the job may be claimed again. */
export const JOB_LEASE_MS = 15 * 60 * 1000;

/**
 * The claim of a job of `CLAIMED_ON_DELIVERY` by its delivery: the job put in the ledger, active,
 * with its first attempt and a lease, unless it is there (another delivery claimed it: undefined).
 * Not in the pending index (nothing reads a claimed job there: the due index sends a lost one
 * again), and with the TTL of a finished job, since nothing writes it when it completes.
 */
export async function claimOnDelivery(store: Store, message: JobMessage): Promise<JobItem | undefined> {
  const now = store.clock.now();
  const at = now.toISOString();
  const item: JobItem = {
    ...jobItemOf(message, 'active', at, at, 1, null),
    lease_until: new Date(now.getTime() + JOB_LEASE_MS).toISOString(),
    ttl: Math.floor(now.getTime() / 1000) + FINISHED_TTL_SECONDS,
  };
  delete item.gsi5pk;
  delete item.gsi5sk;
  return (await store.table.putNew(item)) ? item : undefined;
}

/** A job of `RECORDED_ON_FAILURE` as its delivery runs it, unrecorded: active, its first attempt. */
export function unrecordedJob(store: Store, message: JobMessage): JobItem {
  const at = store.clock.now().toISOString();
  return jobItemOf(message, 'active', at, at, 1, null);
}

/** A job of `RECORDED_ON_FAILURE` done without the ledger: its queue's running total of completed jobs. */
export async function countCompleted(store: Store, message: JobMessage): Promise<void> {
  await countJobs(store, message.orgId, counterDeltas(message.queue, undefined, 'completed'));
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
  const step = options.attempts === 'increment' ? 1 : options.attempts === 'decrement' ? -1 : 0;
  const attempts = options.attempts === 'reset' ? 0 : previous.attempts + step;
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

/**
 * Takes over the claim of a job of `CLAIMED_ON_DELIVERY` whose lease lapsed before `lapsedBefore`
 * (its delivery died): a new lease, one more attempt. Not counted (it was counted active when it
 * was claimed), and not in the pending index. Answers the job, or undefined while another holds it.
 */
export async function takeOverClaim(store: Store, job: JobItem, lapsedBefore: string): Promise<JobItem | undefined> {
  const now = store.clock.now();
  const leaseUntil = new Date(now.getTime() + JOB_LEASE_MS).toISOString();
  return unlessConditionFailed(
    store.table.update<JobItem>(keys.job(job.id), {
      update: 'SET lease_until = :lease, updated_at = :at ADD attempts :one',
      condition: '#state = :active AND lease_until < :lapsed AND attribute_not_exists(gsi5pk)',
      names: { '#state': 'state' },
      values: { ':lease': leaseUntil, ':at': now.toISOString(), ':one': 1, ':active': 'active', ':lapsed': lapsedBefore },
    }),
    undefined,
  );
}

export function messageOf(job: JobItem): JobMessage {
  return { jobId: job.id, queue: job.queue, orgId: job.org_id, data: job.data };
}
