import type { Store } from '../platform/store.js';
import { drainUpdate, queueCounterItems } from './counter-entities.js';
import { deliveryModeOf, drainedAttribute, type QueueName } from './ledger-types.js';

/*
 * A drain's time, for the queues whose jobs are written to the ledger only when a delivery claims
 * them (`claimed-on-delivery`, ledger-types.ts). Until then the queue counters are their only
 * record (ledger.ts counts them: sent, claimed, written), so a drain cannot move them to
 * `removed`: it sets `waiting` to 0 and writes its time (`<queue>#drained_at`) on every counter
 * shard, and the claim's count is conditional on that time, so a job sent before the drain is
 * dropped when it is delivered, as a drained job of the ledger is.
 */

/** When `queue` was last drained for `orgId` (ISO), if ever: the latest of its counter shards'. */
export async function drainedAt(store: Store, orgId: string, queue: QueueName): Promise<string | undefined> {
  const items = await store.table.batchGet<Record<string, unknown>>(queueCounterItems(orgId));
  const times = items.map((item) => item[drainedAttribute(queue)]).filter((time): time is string => typeof time === 'string');
  return times.sort().at(-1);
}

/**
 * A drain of `queue`: on every counter shard, `completed` set to 0; for a `claimed-on-delivery`
 * queue, `waiting` set to 0 and the time written too. Answers how many waiting jobs were counted
 * there: those not in the ledger (the ledger's were taken out of `waiting` by their moves to
 * `removed` before). SETs, not read-then-subtract: two drains at once cannot push a count below zero.
 */
export async function drainCounters(store: Store, orgId: string, queue: QueueName): Promise<number> {
  const at = store.clock.now().toISOString();
  const claimed = deliveryModeOf(queue) === 'claimed-on-delivery';
  const olds = await Promise.all(
    queueCounterItems(orgId).map((shard) => {
      const { key, input } = drainUpdate(shard, queue, at, claimed);
      return claimed
        ? store.table.updateReturningOld<Record<string, unknown>>(key, input)
        : store.table.update(key, input).then(() => undefined);
    }),
  );
  const waiting = olds.reduce((sum, old) => {
    const value = old?.[`${queue}#waiting`];
    return sum + (typeof value === 'number' ? value : 0);
  }, 0);
  return Math.max(0, waiting);
}
