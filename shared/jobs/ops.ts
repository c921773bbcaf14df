import type { Deps } from '../deps.js';
import { NotFoundError } from '../platform/errors.js';
import type { Pagination } from '../http/schemas.js';
import { readPage } from '../platform/pages.js';
import { conditionHeld } from '../platform/table.js';
import { failedJobs, resentUpdate } from './entities.js';
import { queueCounterItems } from './counter-entities.js';
import { pendingJobs } from './pending.js';
import { drainCounters } from './drains.js';
import { QUEUE_NAMES, isQueueName, messageOf, transitionJob, type JobItem, type QueueName } from './ledger.js';

function queueOf(name: string): QueueName {
  if (!isQueueName(name)) throw new NotFoundError(`no queue named ${name}; the queues are ${QUEUE_NAMES.join(', ')}`);
  return name;
}

const count = (item: object | undefined, name: string) => {
  const value = item ? (item as Record<string, unknown>)[name] : undefined;
  return typeof value === 'number' ? Math.max(0, value) : 0;
};

/** The organisation's queue counters: its shards summed (one BatchGet). */
async function queueCountersOf(deps: Deps, orgId: string): Promise<Record<string, number>> {
  const items = await deps.table.batchGet(queueCounterItems(orgId));
  const sums: Record<string, number> = {};
  for (const item of items) {
    for (const [name, value] of Object.entries(item)) if (typeof value === 'number') sums[name] = (sums[name] ?? 0) + value;
  }
  return sums;
}

/** `GET /api/org/queues`: one BatchGet of the organisation's queue counters. */
export async function listQueues(deps: Deps, orgId: string) {
  const counters = await queueCountersOf(deps, orgId);
  return {
    queues: QUEUE_NAMES.map((name) => ({
      name,
      waiting: count(counters, `${name}#waiting`),
      active: count(counters, `${name}#active`),
      completed: count(counters, `${name}#completed`),
      failed: count(counters, `${name}#failed`),
      delayed: count(counters, `${name}#delayed`),
    })),
  };
}

function toFailedJob(job: JobItem) {
  return {
    id: job.id,
    failedReason: job.last_error ?? '',
    attemptsMade: job.attempts,
    data: { ...job.data, conversationId: String(job.data.conversationId ?? '') },
    failed_at: job.updated_at,
  };
}

/** `GET /api/org/queues/:name/failed`: newest failures first, one Query on the state index. */
export async function listFailedJobs(deps: Deps, orgId: string, name: string, page: Pagination) {
  const queue = queueOf(name);
  const result = await readPage<JobItem & Record<string, unknown>>(deps.table, { ...failedJobs(orgId, queue), newestFirst: true }, page);
  return { jobs: result.items.map(toFailedJob), next_cursor: result.nextCursor };
}

/**
 * `POST /api/org/queues/:name/retry-all`: every failed job goes back to waiting with its attempts
 * reset, and is delivered again. Each move is conditional, so a job retried twice at once runs once.
 */
export async function retryAllFailed(deps: Deps, orgId: string, name: string): Promise<number> {
  const queue = queueOf(name);
  let retried = 0;
  for (const job of await deps.table.queryAll<JobItem>(failedJobs(orgId, queue))) {
    const moved = await transitionJob(deps, job, {
      from: ['failed'],
      to: 'waiting',
      attempts: 'reset',
      runAt: deps.clock.now().toISOString(),
    });
    if (!moved) continue;
    await deps.jobs.redeliver(messageOf(moved));
    retried += 1;
  }
  return retried;
}

/**
 * An organisation's waiting and delayed jobs of a queue: in the queue's pending index (every
 * tenant's, 64 shards, filtered on the organisation, then read by key: jobs/pending.ts).
 */
async function jobsToDrain(deps: Deps, orgId: string, queue: QueueName): Promise<JobItem[]> {
  return (await pendingJobs(deps.table, queue, { orgId })).filter((job) => job.state !== 'active');
}

/**
 * `POST /api/org/queues/:name/drain`: removes the waiting and delayed jobs (not the active ones):
 * those of the ledger, and those counted waiting before their claim (jobs/drains.ts); a removed
 * job's pending delivery is dropped when it arrives. The `completed` total starts again.
 */
export async function drainQueue(deps: Deps, orgId: string, name: string): Promise<number> {
  const queue = queueOf(name);
  let removed = 0;
  for (const job of await jobsToDrain(deps, orgId, queue)) {
    const moved = await transitionJob(deps, job, { from: ['waiting', 'delayed'], to: 'removed' });
    if (!moved) continue;
    deps.jobs.cancel(job.id);
    removed += 1;
  }
  // The completed total starts again; the jobs counted waiting before their claim are dropped when delivered.
  return removed + (await drainCounters(deps, orgId, queue));
}

/** A pending job whose run time passed this long ago has lost its message (or its worker). */
const STUCK_AFTER_MS = 5 * 60 * 1000;

/**
 * Sends again the jobs that should have run long ago: waiting or delayed past their run time
 * (a message lost between the ledger write and the queue), or active with a lapsed lease (a
 * worker that died). Part of the periodic sweep on AWS; the claim's conditional write makes a
 * redundant delivery harmless. Each is sent once per wait: its pending entry moves to the time it is
 * sent (`resentUpdate`), so a job behind a long backlog is not sent again every minute, piling
 * copies onto the backlog. One that moved meanwhile (claimed, finished) is not sent.
 */
export async function redeliverStuckJobs(deps: Deps): Promise<number> {
  const before = new Date(deps.clock.now().getTime() - STUCK_AFTER_MS).toISOString();
  let sent = 0;
  for (const queue of QUEUE_NAMES) {
    for (const job of await pendingJobs(deps.table, queue, { runBefore: before })) {
      if (job.state === 'active' && job.lease_until && job.lease_until > deps.clock.now().toISOString()) continue;
      const resent = resentUpdate(job, deps.clock.now().toISOString());
      if (!(await conditionHeld(deps.table.update(resent.key, resent.input)))) continue;
      await deps.jobs.redeliver(messageOf(job));
      sent += 1;
    }
  }
  return sent;
}
