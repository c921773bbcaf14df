import { createHash } from 'node:crypto';

/*
 * A workspace's lists that every question writes (its conversations by last activity, in all and
 * per status, and its audit log) are spread over `LIST_SHARDS` partitions, so that no partition
 * of one workspace takes a write unit per question (a DynamoDB partition takes 1 000 a second:
 * docs/capacity.md). An item's id picks its shard, the same on every write; readers query every
 * shard side by side and merge them by sort key (platform/sharded-pages.ts).
 *
 * Shard 0 is the partition key of before the shards, so what was written then is read as shard 0
 * and needs no move. The count can grow (readers read every shard up to it), never shrink.
 */

export const LIST_SHARDS = 4;

/** The shard of an item of a sharded list, from its id (a conversation's, an audit entry's). */
export function listShardOf(id: string): number {
  return (createHash('sha1').update(id).digest()[0] ?? 0) % LIST_SHARDS;
}

/** The partition key of one shard of the list whose unsharded key is `base`. */
export function shardKey(base: string, shard: number): string {
  return shard === 0 ? base : `${base}#${shard}`;
}

/** The partition keys of every shard of the list whose unsharded key is `base`. */
export function shardKeys(base: string): string[] {
  return Array.from({ length: LIST_SHARDS }, (_, shard) => shardKey(base, shard));
}
