import { putNew } from '../platform/updates.js';
import type { Store } from '../platform/store.js';
import { unlessConditionFailed } from '../platform/table.js';
import { claimUpdate, jobEntries, jobKey, replacesRemoved, transitionUpdate } from './entities.js';
import { countersUpdate } from './counter-entities.js';
import {
  type ClaimTimes,
  type CounterName,
  deliveryModeOf,
  FINISHED_TTL_SECONDS,
  GAUGES,
  type JobItem,
  type JobMessage,
  type JobState,
  type QueueName,
  type TransitionOptions,
} from './ledger-types.js';

export { QUEUE_NAMES, deliveryModeOf, isQueueName } from './ledger-types.js';
export type { JobItem, JobMessage, JobState, QueueName, TransitionOptions } from './ledger-types.js';

/**
 * Adds to the queue counters of an organisation. `unlessDrainedSince`: only if the queue was not
 * drained after that time (a job of a `claimed-on-delivery` queue, sent then: jobs/drains.ts);
 * answers whether it added.
 */
async function countJobs(
  store: Store,
  orgId: string,
  deltas: Partial<Record<CounterName, number>>,
  unlessDrainedSince?: { queue: QueueName; sentAt: string },
): Promise<boolean> {
  const update = countersUpdate(orgId, deltas, unlessDrainedSince);
  if (!update) return true;
  return unlessConditionFailed(
    store.table.update(update.key, update.input).then(() => true),
    false,
  );
}

function counterDeltas(queue: QueueName, from: JobState | undefined, to: JobState) {
  const deltas: Partial<Record<CounterName, number>> = {};
  if (from && GAUGES.includes(from)) deltas[`${queue}#${from}`] = -1;
  if (GAUGES.includes(to) || to === 'completed') deltas[`${queue}#${to}`] = (deltas[`${queue}#${to}`] ?? 0) + 1;
  return deltas;
}

/** What a job recorded after a delivery that ran without the ledger failed (`recorded-on-failure`) starts with. */
export interface FailedDelivery {
  error: string;
  /** When it is tried again; absent: it failed for good (a payload that does not validate, or no attempts left). */
  retryInMs?: number;
}

/** The job of `message` as its item would be recorded in `state`, with `attempts` made. */
function jobItemOf(message: JobMessage, state: JobState, at: string, runAt: string, attempts: number, lastError: string | null): JobItem {
  return {
    ...jobKey(message.jobId),
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
    ...jobEntries(message.orgId, message.queue, message.jobId, state, at, runAt),
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
  if (!(await putNew(store.table, item))) {
    // A drained job may be sent again (the sweep re-sends an overdue move): it replaces the removed one.
    const replaced = await unlessConditionFailed(
      store.table.put(item, replacesRemoved()).then(() => true),
      false,
    );
    if (!replaced) return false;
  }
  await countJobs(store, message.orgId, counterDeltas(message.queue, undefined, state));
  return true;
}

/**
 * What sending a job writes before it goes, by its queue's delivery mode: `recorded-when-sent`,
 * the job recorded (`recordJob`); the others, one read: a job already in the ledger (one that
 * failed, retried from there or waiting for retry-all; a claimed one) is not sent again, as a
 * recorded one is not; a drained one is recorded anew (`recordJob` replaces it), since its late
 * deliveries are dropped. A job of a `claimed-on-delivery` queue is then counted waiting. Answers
 * the message to send (stamped with its time when counted), or undefined: do not send it.
 */
export async function recordOrCheck(store: Store, message: JobMessage, delayMs = 0): Promise<JobMessage | undefined> {
  const recordNew = async () => ((await recordJob(store, message, delayMs)) ? message : undefined);
  const mode = deliveryModeOf(message.queue);
  if (mode === 'recorded-when-sent') return recordNew();
  const recorded = await getJob(store, message.jobId);
  if (recorded?.state === 'removed') return recordNew();
  if (recorded) return undefined;
  if (mode === 'recorded-on-failure') return message;
  // Counted waiting: the counters are its only record until its claim.
  await countJobs(store, message.orgId, counterDeltas(message.queue, undefined, 'waiting'));
  return { ...message, sentAt: store.clock.now().toISOString() };
}

/** How long a claim of a job is its worker's: after it, the job may be claimed again. */
export const JOB_LEASE_MS = 15 * 60 * 1000;
/** A delayed job delivered less than this before its run time is claimed now. */
const EARLY_TOLERANCE_MS = 1000;
/** Far enough ahead that every lease has lapsed by then: a takeover's. */
const EVERY_LEASE = '9999-12-31T23:59:59.999Z';

/** A job claimed by its delivery. */
export interface ClaimedJob {
  job: JobItem;
  /**
   * Settled by its counters: a job of a `claimed-on-delivery` queue that the ledger did not hold as
   * waiting or delayed (its claim put it, or took over such a claim). Its item stays active until
   * its TTL; its outcome is counted, not written.
   */
  settledByCounters: boolean;
  /** Whether this claim counted it active (a takeover did not: the claim it took over had). */
  counted: boolean;
}

export type Claim =
  | ({ kind: 'claimed' } & ClaimedJob)
  /** Its `claimed-on-delivery` queue was drained after it was sent: dropped, as a drained job of the ledger is. */
  | { kind: 'drained' }
  /** The claim's condition did not hold: the job as the ledger holds it now (another delivery's, not due yet, done, gone). */
  | { kind: 'refused'; job: JobItem | undefined };

/**
 * Claims a job for its delivery, the pattern of Powertools' idempotency layer: one conditional
 * write (`claimUpdate`, entities.ts: absent, waiting, delayed and due, or active with a lapsed
 * lease → active, one more attempt, a lease), and only when its condition fails one read, to tell
 * a job held by another delivery from one not due yet or done (the embedded store lacks
 * `ReturnValuesOnConditionCheckFailure`). Then the count: out of the state the job was in (ALL_OLD:
 * the state it really was in), into `active`; a job of a `claimed-on-delivery` queue new to the
 * ledger out of `waiting`, unless the queue was drained after it was sent (`sentAt`; none: before
 * any drain), when it is dropped (`removed`, uncounted). A takeover (`message.takeover`) takes any
 * active claim, whatever its lease.
 */
export async function claimJob(store: Store, message: JobMessage): Promise<Claim> {
  const now = store.clock.now();
  const times: ClaimTimes = {
    at: now.toISOString(),
    dueBy: new Date(now.getTime() + EARLY_TOLERANCE_MS).toISOString(),
    lapsedBefore: message.takeover ? EVERY_LEASE : now.toISOString(),
    leaseUntil: new Date(now.getTime() + JOB_LEASE_MS).toISOString(),
  };
  const held = deliveryModeOf(message.queue) === 'claimed-on-delivery';
  const ttl = Math.floor(now.getTime() / 1000) + FINISHED_TTL_SECONDS;
  const { key, input } = claimUpdate(message, times, held, ttl);
  const written = await unlessConditionFailed(
    store.table.updateReturningOld<JobItem>(key, input).then((previous) => ({ previous })),
    undefined,
  );
  if (!written) return { kind: 'refused', job: await getJob(store, message.jobId) };
  const { previous } = written;
  const job: JobItem = {
    // The ledger's data, if it held the job (the claim keeps it): the message only points at it.
    ...(previous ?? jobItemOf(message, 'active', times.at, times.at, 0, null)),
    state: 'active',
    attempts: (previous?.attempts ?? 0) + 1,
    lease_until: times.leaseUntil,
    updated_at: times.at,
  };
  const from = previous?.state;
  const settledByCounters = held && from !== 'waiting' && from !== 'delayed';
  if (held && !from) {
    const sent = { queue: message.queue, sentAt: message.sentAt ?? '' };
    if (await countJobs(store, message.orgId, counterDeltas(message.queue, 'waiting', 'active'), sent)) {
      return { kind: 'claimed', job, settledByCounters, counted: true };
    }
    // Drained after it was sent (not counted: the drain zeroed `waiting`).
    await moveUncounted(store, job, { from: ['active'], to: 'removed' });
    return { kind: 'drained' };
  }
  await countJobs(store, message.orgId, counterDeltas(message.queue, from, 'active'));
  return { kind: 'claimed', job, settledByCounters, counted: from !== 'active' };
}

/**
 * A claimed job done: completed in the ledger (one conditional write and its count), or, settled
 * by its counters, counted completed when this delivery wrote its work or its claim counted it (a
 * job with nothing left to do is done; a takeover that finds the work done counts nothing: the
 * delivery that did it counted it).
 */
export async function completeJob(store: Store, claimed: ClaimedJob, wrote: boolean): Promise<void> {
  const { job } = claimed;
  if (!claimed.settledByCounters) await transitionJob(store, job, { from: ['active'], to: 'completed', lastError: null });
  else if (wrote || claimed.counted) await countJobs(store, job.org_id, counterDeltas(job.queue, 'active', 'completed'));
}

/** A job of a `recorded-on-failure` queue as its delivery runs it, unrecorded: active, its first attempt. */
export function unrecordedJob(store: Store, message: JobMessage): JobItem {
  const at = store.clock.now().toISOString();
  return jobItemOf(message, 'active', at, at, 1, null);
}

/** A job of a `recorded-on-failure` queue done without the ledger: its queue's running total of completed jobs. */
export async function countCompleted(store: Store, message: JobMessage): Promise<void> {
  await countJobs(store, message.orgId, counterDeltas(message.queue, undefined, 'completed'));
}

export async function getJob(store: Store, jobId: string): Promise<JobItem | undefined> {
  return store.table.get<JobItem>(jobKey(jobId), true);
}

/** A move's one conditional write on the job's current state; answers the job as it was, or undefined when not in an expected state. */
async function moveUncounted(
  store: Store,
  job: JobItem,
  options: TransitionOptions,
  now = store.clock.now(),
): Promise<JobItem | undefined> {
  const { key, input } = transitionUpdate(job, options, now);
  // ALL_OLD: the counters move from the state the job really was in, not the one read earlier.
  return unlessConditionFailed(store.table.updateReturningOld<JobItem>(key, input), undefined);
}

/**
 * Moves a job between states with one conditional write on its current state (so a stale message
 * is a no-op), then adjusts the queue counters. Returns the job after the move, or undefined when
 * it was not in an expected state.
 */
export async function transitionJob(store: Store, job: JobItem, options: TransitionOptions): Promise<JobItem | undefined> {
  // One time for the move: the job answered is the one written.
  const now = store.clock.now();
  const previous = await moveUncounted(store, job, options, now);
  if (!previous) return undefined;
  await countJobs(store, job.org_id, counterDeltas(job.queue, previous.state, options.to));
  const at = now.toISOString();
  const runAt = options.runAt ?? job.run_at;
  const step = options.attempts === 'decrement' ? -1 : 0;
  const { lease_until: _, ...rest } = previous;
  return {
    ...rest,
    ...jobEntries(job.org_id, job.queue, job.id, options.to, at, runAt),
    state: options.to,
    attempts: options.attempts === 'reset' ? 0 : previous.attempts + step,
    run_at: runAt,
    updated_at: at,
    last_error: options.lastError !== undefined ? options.lastError : previous.last_error,
  };
}

export function messageOf(job: JobItem): JobMessage {
  return { jobId: job.id, queue: job.queue, orgId: job.org_id, data: job.data };
}
