import type { Deps } from '../deps.js';
import { dayOf } from '../platform/clock.js';
import { keys } from '../platform/keys.js';

/*
 * Each workspace's query count of the day, as the workspace list shows it, where the list can read
 * it in the same round as the workspaces: in a few partitions per organisation (`ORGTODAY#<org>#<shard>`,
 * an item per day and workspace), not in one item per workspace that only its id finds. Each query
 * adds to a shard chosen at random, so that no partition takes every query of a busy organisation
 * or workspace (and each item stays far under 1 KB: one write unit); the list sums the shards.
 * An item expires two days after its day (TTL deletes cost nothing).
 */

/** How many partitions an organisation's counts are spread over: each takes 1/SHARDS of its queries. */
const QUERIES_TODAY_SHARDS = 4;

/** Adds `queries` to today's count of the workspace: one UpdateItem. */
export async function countQueriesToday(deps: Deps, orgId: string, workspaceId: string, queries: number, at: Date): Promise<void> {
  if (!queries) return;
  const day = dayOf(at);
  const expires = Math.floor(Date.parse(`${day}T00:00:00.000Z`) / 1000) + 3 * 86_400;
  await deps.table.update(keys.queriesToday(orgId, Math.floor(Math.random() * QUERIES_TODAY_SHARDS), day, workspaceId), {
    update: 'ADD #queries :queries SET workspace_id = :workspace, #ttl = :ttl',
    names: { '#queries': 'queries', '#ttl': 'ttl' },
    values: { ':queries': queries, ':workspace': workspaceId, ':ttl': expires },
  });
}

/** Today's query count of each of the organisation's workspaces that has one: one Query per shard, in parallel. */
export async function readQueriesToday(deps: Deps, orgId: string, now: Date): Promise<Map<string, number>> {
  const prefix = keys.queriesTodayPrefix(dayOf(now));
  const shards = await Promise.all(
    Array.from({ length: QUERIES_TODAY_SHARDS }, (_, shard) =>
      deps.table.queryAll({ pk: keys.queriesTodayPartition(orgId, shard), sk: { beginsWith: prefix } }),
    ),
  );
  const counts = new Map<string, number>();
  for (const item of shards.flat()) {
    if (typeof item.queries !== 'number') continue;
    const workspaceId = String(item.workspace_id);
    counts.set(workspaceId, (counts.get(workspaceId) ?? 0) + item.queries);
  }
  return counts;
}
