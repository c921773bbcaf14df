import type { Condition } from 'dynamodb-toolbox/entity/actions/parseCondition';
import { $add, UpdateItemCommand, type UpdateItemInput } from 'dynamodb-toolbox/entity/actions/update';
import { number } from 'dynamodb-toolbox/schema/number';
import { string } from 'dynamodb-toolbox/schema/string';
import type { Key } from '../platform/table.js';
import { tableEntity, updateOf } from '../platform/updates.js';
import { COUNTER_NAMES, type CounterName, drainedAttribute, QUEUE_NAMES, type QueueName } from './ledger-types.js';

/*
 * Each organisation's queue counters (docs/data-model.md, "Queue counters"): how many jobs of each
 * queue are in each state, over 8 shards (each change adds to one at random; readers sum them), and
 * when each queue was last drained. In no index. The job items are in entities.ts.
 */

// --- Queue counters (`QSTAT#<org>#<shard>` / `QUEUES`), in no index ---

/** Shards of an organisation's queue counters: each change adds to one at random; reads sum them all. */
export const QUEUE_COUNTER_SHARDS = 8;

/** One shard of an organisation's queue counters (attributes `<queue>#<state>`, and `<queue>#drained_at`: drains.ts). */
export const queueCountersKey = (orgId: string, shard: number): Key => ({ pk: `QSTAT#${orgId}#${shard}`, sk: 'QUEUES' });

/** The queue counters item a change adds to: one shard at random. */
function queueCountersToChange(orgId: string): Key {
  return queueCountersKey(orgId, Math.floor(Math.random() * QUEUE_COUNTER_SHARDS));
}

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

/** The attributes of a shard of an organisation's queue counters (also migration 008's, which folds the item of before into shard 0). */
export const queueCounterAttributes = { ...counterAttributes, ...drainAttributes };

/** One shard of an organisation's queue counters. */
const queueCountersEntity = tableEntity('queue-counters', queueCounterAttributes);

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

/** A queue's drain time written on a counter shard unless the shard holds a later one (readers take the latest: jobs/drains.ts). */
export function drainTimeKeptUpdate(key: Key, queue: QueueName, at: string) {
  const drained = drainedAttribute(queue);
  const changes: UpdateItemInput<typeof queueCountersEntity> = { ...key };
  changes[drained] = at;
  return updateOf(
    queueCountersEntity
      .build(UpdateItemCommand)
      .item(changes)
      .options({ condition: notDrainedSince(drained, at) }),
  );
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

// --- Access patterns ---

/** Every shard of an organisation's queue counters, for one BatchGet (summed by the reader) or a drain's write of each. */
export const queueCounterItems = (orgId: string): Key[] =>
  Array.from({ length: QUEUE_COUNTER_SHARDS }, (_, shard) => queueCountersKey(orgId, shard));
