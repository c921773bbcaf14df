import { Entity } from 'dynamodb-toolbox/entity';
import { $add, $get, $remove, $sum, UpdateItemCommand, type UpdateItemInput } from 'dynamodb-toolbox/entity/actions/update';
import type { SchemaExtendedValue } from 'dynamodb-toolbox/schema';
import type { Condition } from 'dynamodb-toolbox/entity/actions/parseCondition';
import { any } from 'dynamodb-toolbox/schema/any';
import { anyOf } from 'dynamodb-toolbox/schema/anyOf';
import { item } from 'dynamodb-toolbox/schema/item';
import { nul } from 'dynamodb-toolbox/schema/nul';
import { number } from 'dynamodb-toolbox/schema/number';
import { string } from 'dynamodb-toolbox/schema/string';
import { keys } from '../platform/keys.js';
import type { ConditionalWrite } from '../platform/table.js';
import { conditionOf, plainItems, singleTable, updateOf } from '../platform/updates.js';
import type { Key } from '../platform/table.js';
import { pendingShardOf, queueCountersToChange } from './shards.js';
import {
  type ClaimTimes,
  COUNTER_NAMES,
  type CounterName,
  drainedAttribute,
  FINISHED_TTL_SECONDS,
  type indexAttributes,
  JOB_STATES,
  type JobItem,
  type JobMessage,
  QUEUE_NAMES,
  type QueueName,
  type TransitionOptions,
} from './ledger-types.js';

/*
 * The ledger's writes, built with dynamodb-toolbox (shared/platform/updates.ts). Loaded on first
 * use (ledger.ts imports it dynamically): the API function writes a job only now and then, and its
 * cold start need not evaluate the builder.
 */

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
    gsi1pk: string().optional(),
    gsi1sk: string().optional(),
    gsi2pk: string().optional(),
    gsi2sk: string().optional(),
    gsi5pk: string().optional(),
    gsi5sk: string().optional(),
    ttl: number().optional(),
  }),
});

const counter = number().optional();
/** Every `<queue>#<state>` counter attribute (the list holds each name the type allows). */
const counterAttributes = Object.fromEntries(COUNTER_NAMES.map((name) => [name, counter])) as Record<CounterName, typeof counter>;
const drainTime = string().optional();
type DrainName = ReturnType<typeof drainedAttribute>;
/** Every `<queue>#drained_at` attribute: the time of the queue's last drain (jobs/drains.ts). */
const drainAttributes = Object.fromEntries(QUEUE_NAMES.map((queue) => [drainedAttribute(queue), drainTime])) as Record<
  DrainName,
  typeof drainTime
>;

/** One shard of an organisation's queue counters (`QSTAT#<org>#<shard>` / `QUEUES`: jobs/shards.ts). */
const queueCountersEntity = new Entity({
  name: 'queue-counters',
  table: singleTable,
  ...plainItems,
  schema: item({ pk: string().key(), sk: string().key(), ...counterAttributes, ...drainAttributes }),
});

/**
 * The ADDs of a change of queue counters, or undefined when nothing changes. `unlessDrainedSince`:
 * on condition the queue was not drained after that time (a job of a `claimed-on-delivery` queue,
 * sent then: jobs/drains.ts).
 */
export function countersUpdate(
  orgId: string,
  deltas: Partial<Record<CounterName, number>>,
  unlessDrainedSince?: { queue: QueueName; sentAt: string },
) {
  const counted = COUNTER_NAMES.filter((name) => deltas[name]);
  if (!counted.length) return undefined;
  const changes: UpdateItemInput<typeof queueCountersEntity> = { ...queueCountersToChange(orgId) };
  for (const name of counted) changes[name] = $add(deltas[name] ?? 0);
  const command = queueCountersEntity.build(UpdateItemCommand).item(changes);
  if (!unlessDrainedSince) return updateOf(command);
  return updateOf(command.options({ condition: notDrainedSince(drainedAttribute(unlessDrainedSince.queue), unlessDrainedSince.sentAt) }));
}

/** The condition that a queue was not drained after `sentAt` (its drain time absent, or earlier); one type per queue's attribute. */
function notDrainedSince(drained: DrainName, sentAt: string): Condition<typeof queueCountersEntity> {
  const absent: { [NAME in DrainName]: { attr: NAME; exists: false } }[DrainName] = { attr: drained, exists: false };
  const earlier: { [NAME in DrainName]: { attr: NAME; lt: string } }[DrainName] = { attr: drained, lt: sentAt };
  return { or: [absent, earlier] };
}

/**
 * A drain's write of one counter shard: `completed` back to 0; for a `claimed-on-delivery` queue
 * (`claimed`), `waiting` to 0 and the drain's time too (jobs/drains.ts).
 */
export function drainUpdate(key: Key, queue: QueueName, at: string, claimed: boolean) {
  const changes: UpdateItemInput<typeof queueCountersEntity> = { ...key };
  changes[`${queue}#completed`] = 0;
  if (claimed) {
    changes[`${queue}#waiting`] = 0;
    changes[drainedAttribute(queue)] = at;
  }
  return updateOf(queueCountersEntity.build(UpdateItemCommand).item(changes));
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
 * again; otherwise in the pending index, where it stays while active.
 */
export function claimUpdate(message: JobMessage, times: ClaimTimes, held: boolean, ttl: number) {
  const pending = {
    pk: keys.pendingJobsIndex(message.queue, pendingShardOf(message.jobId)),
    sk: keys.timeOrdered(times.at, message.jobId),
  };
  const command = jobEntity
    .build(UpdateItemCommand)
    .item({
      ...keys.job(message.jobId),
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
      // Failed jobs only are listed by state; a job recorded before may still be in the by-state or GSI2 lists.
      gsi1pk: $remove(),
      gsi1sk: $remove(),
      gsi2pk: $remove(),
      gsi2sk: $remove(),
      gsi5pk: held ? $remove() : $get('gsi5pk', pending.pk),
      gsi5sk: held ? $remove() : $get('gsi5sk', pending.sk),
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
 * The write of a move other than a claim: the new state with its index keys (GSI5 only while
 * pending), attempts, error and TTL (finished jobs only), the lease given up, on condition the job
 * is in one of the expected states.
 */
export function transitionUpdate(job: JobItem, options: TransitionOptions, now: Date, index: ReturnType<typeof indexAttributes>) {
  const finished = options.to === 'completed' || options.to === 'removed';
  const command = jobEntity
    .build(UpdateItemCommand)
    .item({
      ...keys.job(job.id),
      state: options.to,
      updated_at: now.toISOString(),
      run_at: options.runAt ?? job.run_at,
      gsi1pk: index.gsi1pk ?? $remove(),
      gsi1sk: index.gsi1sk ?? $remove(),
      gsi5pk: index.gsi5pk ?? $remove(),
      gsi5sk: index.gsi5sk ?? $remove(),
      // Out of the pending list of before (GSI2), if it was there.
      gsi2pk: $remove(),
      gsi2sk: $remove(),
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
