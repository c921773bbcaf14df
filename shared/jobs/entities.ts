import { createHash } from 'node:crypto';
import { $add, $get, $remove, $sum, UpdateItemCommand } from 'dynamodb-toolbox/entity/actions/update';
import type { SchemaExtendedValue } from 'dynamodb-toolbox/schema';
import { any } from 'dynamodb-toolbox/schema/any';
import { number } from 'dynamodb-toolbox/schema/number';
import { string } from 'dynamodb-toolbox/schema/string';
import { type ConditionalWrite, indexAttributes, indexEntry, indexSchema, type Key, type QueryInput } from '../platform/table.js';
import { keys } from '../platform/keys.js';
import { conditionOf, nullableString, outOf, tableEntity, updateOf } from '../platform/updates.js';
import {
  type ClaimTimes,
  FINISHED_TTL_SECONDS,
  JOB_STATES,
  type JobItem,
  type JobMessage,
  type JobState,
  QUEUE_NAMES,
  type QueueName,
  type TransitionOptions,
} from './ledger-types.js';

/*
 * How the job ledger is stored (docs/data-model.md): a job's item, listed in `listings` while it
 * is failed (the failed list, retry-all) and in `pending` while waiting, delayed or active (a
 * drain, the sweep of stuck jobs, the local start: pending.ts); and each organisation's queue
 * counters (counter-entities.ts). The keys that every tenant's jobs would share are spread over shards, so that no
 * partition takes the writes of the whole deployment (or of a busy organisation): a DynamoDB
 * partition takes 1 000 write units a second, and a throttled index throttles the write to the
 * table. Readers query every shard at once. Each item's keys, index entries, typed schema, writes
 * and the reads that find it are here.
 */

// --- The job item (`JOB#<id>` / `JOB`) ---

const JOB_PREFIX = 'JOB#';
const JOB_SORT_KEY = 'JOB';

export const jobKey = (jobId: string): Key => ({ pk: `${JOB_PREFIX}${jobId}`, sk: JOB_SORT_KEY });

// --- Index entries ---

/** The `listings` partition of an organisation's jobs of one queue in one listed state, by last change. */
const byStatePartition = (orgId: string, queue: string, state: JobState) => `JOBS#${orgId}#${queue}#${state}`;

/**
 * States whose jobs are listed by state (`listings`): the failed list and retry-all. Waiting,
 * delayed, active, completed and removed jobs are not (a drain finds the waiting and delayed ones
 * in the pending index), so a job that runs without failing writes no entry there.
 */
const LISTED_STATES: readonly JobState[] = ['failed'];
/** States whose jobs have an entry in `pending` (a `claimed-on-delivery` claim takes it out: `claimUpdate`). */
const PENDING_STATES: readonly JobState[] = ['waiting', 'delayed', 'active'];

/**
 * Shards of each queue's pending index: a job's id picks one, so its entry stays in one place. 64
 * keep each under 0.02 WCU per question of the deployment (docs/capacity.md); an entry written
 * when there were 32 is in one of them.
 */
export const PENDING_SHARDS = 64;

/** The pending-index shard of a job: from its id, the same on every write. */
export function pendingShardOf(jobId: string): number {
  return (createHash('sha1').update(jobId).digest()[0] ?? 0) % PENDING_SHARDS;
}

const pendingPartition = (queue: string, shard: number) => `JOBPENDING#${queue}#${shard}`;

/** A job's entry in `pending` (the keys and `org_id`): its id's shard of its queue's index, by run time. */
export const pendingEntry = (queue: string, jobId: string, runAt: string) =>
  indexEntry('pending', pendingPartition(queue, pendingShardOf(jobId)), keys.timeOrdered(runAt, jobId));

/** A job's index entries in `state`: in `listings` while failed (by `at`), in `pending` while pending (by `runAt`). */
export function jobEntries(orgId: string, queue: QueueName, id: string, state: JobState, at: string, runAt: string) {
  return {
    ...(LISTED_STATES.includes(state) ? indexEntry('listings', byStatePartition(orgId, queue, state), keys.timeOrdered(at, id)) : {}),
    ...(PENDING_STATES.includes(state) ? pendingEntry(queue, id, runAt) : {}),
  };
}

// --- The job's writes ---

/** The attributes of the job item its writes touch. */
const jobEntity = tableEntity('job', {
  id: string(),
  queue: string().enum(...QUEUE_NAMES),
  org_id: string(),
  state: string().enum(...JOB_STATES),
  attempts: number(),
  data: any(),
  // null first: a completed job clears its error, and each alternative that fails to parse costs a thrown error.
  last_error: nullableString,
  run_at: string(),
  lease_until: string().optional(),
  created_at: string(),
  updated_at: string(),
  /** While failed (`jobEntries`). */
  ...indexSchema('listings', string().optional()),
  /** While pending (`pendingEntry`). */
  ...indexSchema('pending', string().optional()),
  ttl: number().optional(),
});

const [PENDING_PK, PENDING_SK] = indexAttributes('pending');

/**
 * A stuck job's pending entry moved to `at`, the time it is sent again (ops.ts), while the job is as
 * read (its state and last change): the sweep of stuck jobs finds it again only once a whole wait
 * has passed since, so a job waiting in a queue's backlog is not sent again at every sweep. Its
 * run time (`run_at`) stays: readers read jobs by key after their entries.
 */
export function resentUpdate(job: { id: string; queue: QueueName; state: JobState; updated_at: string }, at: string) {
  const command = jobEntity
    .build(UpdateItemCommand)
    .item({ ...jobKey(job.id), ...pendingEntry(job.queue, job.id, at) })
    .options({
      condition: {
        and: [
          { attr: 'state', eq: job.state },
          { attr: 'updated_at', eq: job.updated_at },
        ],
      },
    });
  return updateOf(command);
}

/** The condition under which a new send replaces a drained (removed) job. */
export function replacesRemoved(): ConditionalWrite {
  return conditionOf(jobEntity, { attr: 'state', eq: 'removed' });
}

/** Whether `value` is one the store keeps as it is (JSON, as a job's data is: it came from a message body or the ledger). */
function isStoredValue(value: unknown): value is SchemaExtendedValue {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return true;
  if (Array.isArray(value)) return value.every(isStoredValue);
  // A member left undefined is left out, as the store client leaves it out.
  return typeof value === 'object' && Object.values(value).every((member) => member === undefined || isStoredValue(member));
}

/** A job's data as the store keeps it: a map (`$get`'s fallback; toolbox would write a map given as a value path by path). */
function storedValue(data: Record<string, unknown>): SchemaExtendedValue {
  if (!isStoredValue(data)) throw new TypeError('job data must be JSON');
  return data;
}

/**
 * The claim of a job by its delivery, Powertools idempotency's conditional put: one write that
 * makes the job active with one more attempt and a lease, on condition it is absent (the ledger
 * does not hold it: it is put then), waiting, delayed and due by `dueBy`, or active with a lease
 * lapsed before `lapsedBefore`. An UpdateItem, so that a job the ledger holds keeps its attempts,
 * error, data, run time and creation time (`$get` with a fallback: `if_not_exists`); the same write
 * units as a put of the item. `held` (a `claimed-on-delivery` queue): out of the pending index (the
 * due index sends a lost one again) and with a finished job's TTL, since nothing may write it
 * again; otherwise in the pending index, where it stays while active. No claimable job is listed
 * by state (only failed ones are).
 */
export function claimUpdate(message: JobMessage, times: ClaimTimes, held: boolean, ttl: number) {
  const pending = pendingEntry(message.queue, message.jobId, times.at);
  const command = jobEntity
    .build(UpdateItemCommand)
    .item({
      ...jobKey(message.jobId),
      id: message.jobId,
      queue: message.queue,
      org_id: message.orgId,
      state: 'active',
      attempts: $add(1),
      // The ledger's, if it holds the job: the message only points at it.
      data: $get('data', storedValue(message.data)),
      last_error: $get('last_error', null),
      run_at: $get('run_at', times.at),
      lease_until: times.leaseUntil,
      created_at: $get('created_at', times.at),
      updated_at: times.at,
      ...(held
        ? outOf('pending')
        : { [PENDING_PK]: $get(PENDING_PK, pending[PENDING_PK]), [PENDING_SK]: $get(PENDING_SK, pending[PENDING_SK]) }),
      ttl: held ? ttl : $remove(),
    })
    .options({
      condition: {
        or: [
          { attr: 'pk', exists: false },
          { attr: 'state', eq: 'waiting' },
          {
            and: [
              { attr: 'state', eq: 'delayed' },
              { attr: 'run_at', lte: times.dueBy },
            ],
          },
          {
            and: [
              { attr: 'state', eq: 'active' },
              { attr: 'lease_until', lt: times.lapsedBefore },
            ],
          },
        ],
      },
    });
  return updateOf(command);
}

/** What a move adds to a job's attempts. */
const ATTEMPT_STEPS = { decrement: -1 } as const;

/**
 * The write of a move other than a claim: the new state with its index entries (`jobEntries`: out
 * of the indexes it is not in in that state), attempts, error and TTL (finished jobs only), the
 * lease given up, on condition the job is in one of the expected states.
 */
export function transitionUpdate(job: JobItem, options: TransitionOptions, now: Date) {
  const finished = options.to === 'completed' || options.to === 'removed';
  const entries = jobEntries(job.org_id, job.queue, job.id, options.to, now.toISOString(), options.runAt ?? job.run_at);
  const command = jobEntity
    .build(UpdateItemCommand)
    .item({
      ...jobKey(job.id),
      state: options.to,
      updated_at: now.toISOString(),
      run_at: options.runAt ?? job.run_at,
      ...outOf('listings'),
      ...outOf('pending'),
      ...entries,
      attempts: options.attempts === 'reset' ? 0 : options.attempts ? $sum($get('attempts'), ATTEMPT_STEPS[options.attempts]) : undefined,
      last_error: options.lastError,
      lease_until: $remove(),
      ttl: finished ? Math.floor(now.getTime() / 1000) + FINISHED_TTL_SECONDS : $remove(),
    })
    .options({
      condition: {
        and: [
          { attr: 'pk', exists: true },
          { attr: 'state', in: options.from },
        ],
      },
    });
  return updateOf(command);
}

// --- Access patterns ---

/** An organisation's failed jobs of a queue, by the time they failed (the failed list reads it newest first, retry-all whole). */
export const failedJobs = (orgId: string, queue: QueueName): QueryInput => ({
  index: 'listings',
  pk: byStatePartition(orgId, queue, 'failed'),
});

/**
 * The pending jobs of a queue, every tenant's: one Query per shard of its pending index, whose entries name the jobs (pending.ts).
 * With `orgId`, filtered on the organisation its entries carry: every tenant's entries are read, only its own answered.
 */
export function pendingJobShards(queue: QueueName, orgId?: string): QueryInput[] {
  const { condition, names, values } = orgId === undefined ? {} : conditionOf(jobEntity, { attr: 'org_id', eq: orgId });
  const ofOrganisation = condition ? { filter: condition, names, values } : {};
  return Array.from({ length: PENDING_SHARDS }, (_, shard) => ({
    index: 'pending',
    pk: pendingPartition(queue, shard),
    ...ofOrganisation,
  }));
}

/** Every job item of the table (migration 008's scan). */
export const everyJob = () =>
  conditionOf(jobEntity, {
    and: [
      { attr: 'pk', beginsWith: JOB_PREFIX },
      { attr: 'sk', eq: JOB_SORT_KEY },
    ],
  });
