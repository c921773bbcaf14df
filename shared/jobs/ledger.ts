import { Entity } from 'dynamodb-toolbox/entity';
import { $add, $get, $remove, $sum, UpdateItemCommand, type UpdateItemInput } from 'dynamodb-toolbox/entity/actions/update';
import { any } from 'dynamodb-toolbox/schema/any';
import { anyOf } from 'dynamodb-toolbox/schema/anyOf';
import { item } from 'dynamodb-toolbox/schema/item';
import { nul } from 'dynamodb-toolbox/schema/nul';
import { number } from 'dynamodb-toolbox/schema/number';
import { string } from 'dynamodb-toolbox/schema/string';
import { keys } from '../platform/keys.js';
import type { Store } from '../platform/store.js';
import { type Key, unlessConditionFailed } from '../platform/table.js';
import { conditionOf, plainItems, singleTable, updateOf } from '../platform/updates.js';

export const QUEUE_NAMES = ['lifecycle', 'cold-messages', 'conversation-stats'] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

export function isQueueName(name: string): name is QueueName {
  return (QUEUE_NAMES as readonly string[]).includes(name);
}

/** `removed` is a drained job: kept (with a TTL) so a late delivery of it is recognised and dropped. */
const JOB_STATES = ['waiting', 'delayed', 'active', 'completed', 'failed', 'removed'] as const;
export type JobState = (typeof JOB_STATES)[number];

/** What a queue carries: the ledger is the truth, the message only points at it. */
export interface JobMessage {
  jobId: string;
  queue: QueueName;
  orgId: string;
  data: Record<string, unknown>;
}

/** One job in the ledger (`JOB#<id>` / `JOB`). */
export interface JobItem extends Key {
  id: string;
  queue: QueueName;
  org_id: string;
  state: JobState;
  attempts: number;
  data: Record<string, unknown>;
  last_error: string | null;
  /** When a waiting or delayed job may run (ISO). */
  run_at: string;
  /** While active: when the claim lapses, so a job whose worker died can be claimed again. */
  lease_until?: string;
  created_at: string;
  updated_at: string;
  /** GSI1: jobs of one organisation, queue and state, by last change. */
  gsi1pk: string;
  gsi1sk: string;
  /** GSI2 (only while waiting, delayed or active): pending jobs of a queue, by run time. */
  gsi2pk?: string;
  gsi2sk?: string;
  ttl?: number;
}

/** Finished jobs are kept a week, then expire. */
const FINISHED_TTL_SECONDS = 7 * 24 * 3600;
/** States whose counters count jobs in that state now; `completed` is a running total instead. */
const GAUGES: readonly JobState[] = ['waiting', 'delayed', 'active', 'failed'];

const isPending = (state: JobState) => state === 'waiting' || state === 'delayed' || state === 'active';

function indexAttributes(orgId: string, queue: QueueName, id: string, state: JobState, at: string, runAt: string) {
  return {
    gsi1pk: keys.jobsByStateIndex(orgId, queue, state),
    gsi1sk: keys.timeOrdered(at, id),
    ...(isPending(state) ? { gsi2pk: keys.pendingJobsIndex(queue), gsi2sk: keys.timeOrdered(runAt, id) } : {}),
  };
}

/** A queue counter attribute of an organisation's counters item. */
type CounterName = `${QueueName}#${JobState}`;
const COUNTER_NAMES: readonly CounterName[] = QUEUE_NAMES.flatMap((queue) => JOB_STATES.map((state) => `${queue}#${state}` as const));

/** The attributes of the ledger item (`JOB#<id>` / `JOB`) its writes touch. */
const jobEntity = new Entity({
  name: 'job',
  table: singleTable,
  ...plainItems,
  schema: item({
    pk: string().key(),
    sk: string().key(),
    id: string(),
    queue: string().enum(...QUEUE_NAMES),
    org_id: string(),
    state: string().enum(...JOB_STATES),
    attempts: number(),
    data: any(),
    // null first: a completed job clears its error, and each alternative that fails to parse costs a thrown error.
    last_error: anyOf(nul(), string()),
    run_at: string(),
    lease_until: string().optional(),
    created_at: string(),
    updated_at: string(),
    gsi1pk: string(),
    gsi1sk: string(),
    gsi2pk: string().optional(),
    gsi2sk: string().optional(),
    ttl: number().optional(),
  }),
});

const counter = number().optional();
/** Every `<queue>#<state>` counter attribute (the list holds each name the type allows). */
const counterAttributes = Object.fromEntries(COUNTER_NAMES.map((name) => [name, counter])) as Record<CounterName, typeof counter>;

/** An organisation's queue counters item (`QSTAT#<org>` / `QUEUES`). */
const queueCountersEntity = new Entity({
  name: 'queue-counters',
  table: singleTable,
  ...plainItems,
  schema: item({ pk: string().key(), sk: string().key(), ...counterAttributes }),
});

/** Adds to the queue counters of an organisation. */
async function countJobs(store: Store, orgId: string, deltas: Partial<Record<CounterName, number>>): Promise<void> {
  const counted = COUNTER_NAMES.filter((name) => deltas[name]);
  if (!counted.length) return;
  const changes: UpdateItemInput<typeof queueCountersEntity> = { ...keys.queueCounters(orgId) };
  for (const name of counted) changes[name] = $add(deltas[name] ?? 0);
  const { key, input } = updateOf(queueCountersEntity.build(UpdateItemCommand).item(changes));
  await store.table.update(key, input);
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
      store.table.put(item, conditionOf(jobEntity, { attr: 'state', eq: 'removed' })).then(() => true),
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

export interface TransitionOptions {
  /** States the job must be in (checked by the write's condition). */
  from: JobState[];
  to: JobState;
  /** Also allow claiming an active job whose lease has lapsed (its worker died). */
  lapsedLeaseBefore?: string;
  attempts?: 'increment' | 'reset';
  lastError?: string | null;
  runAt?: string;
  leaseUntil?: string;
}

/**
 * The write of a move: the new state with its index keys (GSI2 only while pending), attempts,
 * error, lease and TTL (finished jobs only), on condition the job is in one of the expected states.
 */
function transitionUpdate(job: JobItem, options: TransitionOptions, now: Date, index: ReturnType<typeof indexAttributes>) {
  const finished = options.to === 'completed' || options.to === 'removed';
  const expected = { attr: 'state', in: options.from } as const;
  return jobEntity
    .build(UpdateItemCommand)
    .item({
      ...keys.job(job.id),
      state: options.to,
      updated_at: now.toISOString(),
      run_at: options.runAt ?? job.run_at,
      gsi1pk: index.gsi1pk,
      gsi1sk: index.gsi1sk,
      gsi2pk: index.gsi2pk ?? $remove(),
      gsi2sk: index.gsi2sk ?? $remove(),
      attempts: options.attempts === 'increment' ? $sum($get('attempts'), 1) : options.attempts === 'reset' ? 0 : undefined,
      last_error: options.lastError,
      lease_until: options.leaseUntil || $remove(),
      ttl: finished ? Math.floor(now.getTime() / 1000) + FINISHED_TTL_SECONDS : $remove(),
    })
    .options({
      condition: {
        and: [
          { attr: 'pk', exists: true },
          options.lapsedLeaseBefore
            ? {
                or: [
                  expected,
                  {
                    and: [
                      { attr: 'state', eq: 'active' },
                      { attr: 'lease_until', lt: options.lapsedLeaseBefore },
                    ],
                  },
                ],
              }
            : expected,
        ],
      },
    });
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
  const { key, input } = updateOf(transitionUpdate(job, options, now, index));
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
