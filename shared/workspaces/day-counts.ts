import type { Deps } from '../deps.js';
import { dayOf } from '../platform/clock.js';
import { keys } from '../platform/keys.js';

/*
 * Each workspace's queries and cost per day, as the workspace list shows them (queries today, cost
 * this month), where the list can read them in the same round as the workspaces: in a few
 * partitions per organisation (`ORGTODAY#<org>#<shard>`, an item per day and workspace), not in
 * items that only a workspace's id finds. Each change adds to a shard chosen at random, so that no
 * partition takes every query of a busy organisation or workspace (and each item stays far under
 * 1 KB: one write unit); the list sums the shards. An item expires 40 days after its day (TTL
 * deletes cost nothing), once no month that the list shows holds it.
 */

/** How many partitions an organisation's counts are spread over: each takes 1/SHARDS of its queries. */
const QUERIES_TODAY_SHARDS = 4;
const KEEP_DAYS = 40;

/** Adds a workspace's queries and cost at `at` to its day: one UpdateItem (none when both are 0). */
export async function countDay(
  deps: Deps,
  orgId: string,
  workspaceId: string,
  counts: { queries: number; costUsd: number },
  at: Date,
): Promise<void> {
  if (!counts.queries && !counts.costUsd) return;
  const day = dayOf(at);
  const expires = Math.floor(Date.parse(`${day}T00:00:00.000Z`) / 1000) + KEEP_DAYS * 86_400;
  await deps.table.update(keys.queriesToday(orgId, Math.floor(Math.random() * QUERIES_TODAY_SHARDS), day, workspaceId), {
    update: 'ADD #queries :queries, cost_usd :cost SET workspace_id = :workspace, #ttl = :ttl',
    names: { '#queries': 'queries', '#ttl': 'ttl' },
    values: { ':queries': counts.queries, ':cost': counts.costUsd, ':workspace': workspaceId, ':ttl': expires },
  });
}

/**
 * Each of the organisation's workspaces' queries today and cost this month (those that have any):
 * one Query per shard, in parallel, over the days of the month so far.
 */
export async function readDayCounts(
  deps: Deps,
  orgId: string,
  now: Date,
): Promise<Map<string, { queriesToday: number; costMonth: number }>> {
  const today = dayOf(now);
  const shards = await Promise.all(
    Array.from({ length: QUERIES_TODAY_SHARDS }, (_, shard) =>
      deps.table.queryAll({
        pk: keys.queriesTodayPartition(orgId, shard),
        sk: { between: [keys.queriesTodayPrefix(`${today.slice(0, 8)}01`), `${keys.queriesTodayPrefix(today)}~`] },
      }),
    ),
  );
  const counts = new Map<string, { queriesToday: number; costMonth: number }>();
  for (const item of shards.flat()) {
    const workspaceId = String(item.workspace_id);
    const count = counts.get(workspaceId) ?? { queriesToday: 0, costMonth: 0 };
    if (item.sk.startsWith(keys.queriesTodayPrefix(today)) && typeof item.queries === 'number') count.queriesToday += item.queries;
    if (typeof item.cost_usd === 'number') count.costMonth += item.cost_usd;
    counts.set(workspaceId, count);
  }
  return counts;
}
