import type { Store } from '../platform/store.js';
import { unlessConditionFailed } from '../platform/table.js';
import type { JobMessage, QueueName } from './ledger-types.js';
import { queueCounterItems, queueCountersToChange } from './shards.js';

/*
 * The queue counters of jobs that are written to the ledger only when a delivery claims them
 * (`CLAIMED_ON_DELIVERY`, ledger-types.ts). Until then the counters are their only record: sending
 * one adds to `waiting` and stamps the message with its time (`sentAt`); the delivery that claims
 * it (the ledger's conditional put, so once) moves it to `active`; the one that writes its
 * outcome moves it out (`completed`, or on to `delayed` or `failed` through the ledger). A drain
 * sets `waiting` to 0 and writes its time (`drained_at`) on every counter shard: the claim's count
 * is conditional on that time, so a job sent before the drain is dropped when it is delivered, as
 * a drained job of the ledger is.
 */

const name = {
  waiting: (queue: QueueName) => `${queue}#waiting`,
  active: (queue: QueueName) => `${queue}#active`,
  completed: (queue: QueueName) => `${queue}#completed`,
  drained: (queue: QueueName) => `${queue}#drained_at`,
};

/** An ADD of `deltas` to counters, as an update's expression, names and values. */
function addsOf(deltas: Record<string, number>) {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const adds = Object.entries(deltas).map(([counter, delta], at) => {
    names[`#c${at}`] = counter;
    values[`:d${at}`] = delta;
    return `#c${at} :d${at}`;
  });
  return { update: `ADD ${adds.join(', ')}`, names, values };
}

/** A job sent: `waiting` + 1. Answers the message to send, stamped with its time. */
export async function countSent(store: Store, message: JobMessage): Promise<JobMessage> {
  const sent = { ...message, sentAt: store.clock.now().toISOString() };
  await store.table.update(queueCountersToChange(message.orgId), addsOf({ [name.waiting(message.queue)]: 1 }));
  return sent;
}

/**
 * A job claimed: `waiting` − 1, `active` + 1, unless its queue was drained after it was sent
 * (`sentAt`; none: before any drain). False then: the job is dropped.
 */
export async function countClaimed(store: Store, message: JobMessage): Promise<boolean> {
  const add = addsOf({ [name.waiting(message.queue)]: -1, [name.active(message.queue)]: 1 });
  return unlessConditionFailed(
    store.table
      .update(queueCountersToChange(message.orgId), {
        update: add.update,
        condition: 'attribute_not_exists(#drained) OR #drained < :sent',
        names: { ...add.names, '#drained': name.drained(message.queue) },
        values: { ...add.values, ':sent': message.sentAt ?? '' },
      })
      .then(() => true),
    false,
  );
}

/** A claimed job's outcome written: `active` − 1, and `completed` + 1 when it completed. */
export async function countFinished(store: Store, message: JobMessage, completed: boolean): Promise<void> {
  const deltas: Record<string, number> = { [name.active(message.queue)]: -1 };
  if (completed) deltas[name.completed(message.queue)] = 1;
  await store.table.update(queueCountersToChange(message.orgId), addsOf(deltas));
}

/** When `queue` was last drained for `orgId` (ISO), if ever: the latest of its counter shards'. */
export async function drainedAt(store: Store, orgId: string, queue: QueueName): Promise<string | undefined> {
  const items = await store.table.batchGet<Record<string, unknown>>(queueCounterItems(orgId));
  const times = items.map((item) => item[name.drained(queue)]).filter((time): time is string => typeof time === 'string');
  return times.sort().at(-1);
}

/**
 * A drain of `queue`: on every counter shard, `completed` set to 0; for a queue of
 * `CLAIMED_ON_DELIVERY` (`claimed`), `waiting` set to 0 and the time written too. Answers how many
 * waiting jobs were counted there: those not in the ledger (the ledger's were taken out of
 * `waiting` by their moves to `removed` before). SETs, not read-then-subtract: two drains at once
 * cannot push a count below zero.
 */
export async function drainCounters(store: Store, orgId: string, queue: QueueName, claimed: boolean): Promise<number> {
  const at = store.clock.now().toISOString();
  const olds = await Promise.all(
    queueCounterItems(orgId).map((key) =>
      claimed
        ? store.table.updateReturningOld<Record<string, unknown>>(key, {
            update: 'SET #completed = :zero, #waiting = :zero, #drained = :at',
            names: { '#completed': name.completed(queue), '#waiting': name.waiting(queue), '#drained': name.drained(queue) },
            values: { ':zero': 0, ':at': at },
          })
        : store.table
            .update(key, { update: 'SET #completed = :zero', names: { '#completed': name.completed(queue) }, values: { ':zero': 0 } })
            .then(() => undefined),
    ),
  );
  const waiting = olds.reduce((sum, old) => {
    const value = old?.[name.waiting(queue)];
    return sum + (typeof value === 'number' ? value : 0);
  }, 0);
  return Math.max(0, waiting);
}
