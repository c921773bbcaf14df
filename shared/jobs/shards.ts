import { createHash } from 'node:crypto';
import { keys } from '../platform/keys.js';
import type { Key } from '../platform/table.js';

/*
 * The job ledger's keys that every tenant's jobs would share, spread over shards so that no
 * partition takes the writes of the whole deployment (or of a busy organisation): a DynamoDB
 * partition takes 1 000 write units a second, and a throttled index throttles the write to the
 * table. Readers query every shard in parallel, and the keys written before the sharding too.
 */

/**
 * Shards of each queue's pending index (GSI2): a job's id picks one, so its entry stays in one
 * place. 64 keep each under 0.02 WCU per question of the deployment (docs/capacity.md); the 32 of
 * before are among them.
 */
export const PENDING_SHARDS = 64;
/** Shards of an organisation's waiting and delayed jobs of a queue in the by-state index (gsi1), as written before they left it. */
const WAITING_SHARDS = 8;
/** Shards of an organisation's queue counters: each change adds to one at random; reads sum them. */
export const QUEUE_COUNTER_SHARDS = 8;

/** The pending-index shard of a job: from its id, the same on every write. */
export function pendingShardOf(jobId: string): number {
  return (createHash('sha1').update(jobId).digest()[0] ?? 0) % PENDING_SHARDS;
}

/**
 * Every by-state partition of an organisation's queue and state: failed jobs' one; for waiting and
 * delayed, where jobs written before they left the index still are, its 8 shards and the
 * unsharded one.
 */
export function byStatePartitions(orgId: string, queue: string, state: string): string[] {
  const shards =
    state === 'failed' ? [] : Array.from({ length: WAITING_SHARDS }, (_, shard) => keys.jobsByStateIndex(orgId, queue, state, shard));
  return [...shards, keys.jobsByStateIndex(orgId, queue, state)];
}

/** Every partition of a queue's pending index: its shards, and the one before the sharding. */
export function pendingPartitions(queue: string): string[] {
  return [
    ...Array.from({ length: PENDING_SHARDS }, (_, shard) => keys.pendingJobsIndex(queue, shard)),
    keys.unshardedPendingJobsIndex(queue),
  ];
}

/** The queue counters item a change adds to: one shard at random. */
export function queueCountersToChange(orgId: string): Key {
  return keys.queueCounters(orgId, Math.floor(Math.random() * QUEUE_COUNTER_SHARDS));
}

/** Every item of an organisation's queue counters: its shards, and the one before the sharding. */
export function queueCounterItems(orgId: string): Key[] {
  return [
    ...Array.from({ length: QUEUE_COUNTER_SHARDS }, (_, shard) => keys.queueCounters(orgId, shard)),
    keys.unshardedQueueCounters(orgId),
  ];
}
