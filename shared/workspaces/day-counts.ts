import type { Deps } from '../deps.js';
import { dayOf } from '../platform/clock.js';
import { keys, type Key } from '../platform/keys.js';
import type { Item } from '../platform/table.js';
import { addExpression } from '../platform/updates.js';

/*
 * Each workspace's usage per day (queries, tokens, cost, duration, errors…), where every reader
 * finds it without a second round: in a few partitions per organisation
 * (`ORGTODAY#<org>#<shard>`, an item per day and workspace, `USE#<day>#WS#<ws>`). The workspace
 * list reads an organisation's month in one Query per shard, alongside the workspaces; a
 * workspace's dashboard, stats and cache watch read the days they show by key (a BatchGet). Each
 * query adds to a shard chosen at random, so that no partition takes every query of a busy
 * organisation or workspace (and each item stays far under 1 KB: one write unit); readers sum the
 * shards.
 *
 * Written before, and still read: the workspace's own day items (`WSSTAT#<org>#<ws>` / `DAY#<day>`,
 * every usage field, read by the dashboard, the stats and the cache watch) and the organisation's
 * `DAY#<day>#WS#<ws>` items (queries and cost only, read by the list, expiring 40 days after their
 * day). A query wrote both; now it writes one item. Nothing adds to the old items any more, so a
 * reader sums old and new without counting anything twice, as long as each reads only its own old
 * kind (the two old kinds hold the same queries twice).
 */

/** How many partitions an organisation's days are spread over: each takes 1/SHARDS of its queries. */
const DAY_SHARDS = 4;

/**
 * Adds a workspace's usage at `at` to its day, in one shard chosen at random: one UpdateItem
 * (none when every delta is 0). Answers the item's `queries` after the write.
 */
export async function addDayUsage(
  deps: Pick<Deps, 'table'>,
  orgId: string,
  workspaceId: string,
  deltas: Record<string, number>,
  at: Date,
): Promise<{ queries: number } | undefined> {
  const add = addExpression(deltas);
  if (!add) return undefined;
  const shard = Math.floor(Math.random() * DAY_SHARDS);
  const item = await deps.table.update<{ queries?: number }>(keys.queriesToday(orgId, shard, dayOf(at), workspaceId), {
    update: `${add.update} SET workspace_id = :workspace`,
    names: add.names,
    values: { ...add.values, ':workspace': workspaceId },
  });
  return { queries: typeof item.queries === 'number' ? item.queries : 0 };
}

/** The organisation's day items from `firstDay` to `lastDay` (both kinds, every shard): two Queries per shard, in parallel. */
async function dayItemsBetween(deps: Pick<Deps, 'table'>, orgId: string, firstDay: string, lastDay: string): Promise<Item[]> {
  const shards = await Promise.all(
    Array.from({ length: DAY_SHARDS }, (_, shard) =>
      (['USE', 'DAY'] as const).map((kind) =>
        deps.table.queryAll({
          pk: keys.queriesTodayPartition(orgId, shard),
          sk: { between: [keys.queriesTodayPrefix(firstDay, kind), `${keys.queriesTodayPrefix(lastDay, kind)}~`] },
        }),
      ),
    ).flat(),
  );
  return shards.flat();
}

/** What each of the organisation's workspaces spent from `firstDay` to `lastDay` (UTC days, both included). */
export async function costsBetween(
  deps: Pick<Deps, 'table'>,
  orgId: string,
  firstDay: string,
  lastDay: string,
): Promise<Map<string, number>> {
  const costs = new Map<string, number>();
  for (const item of await dayItemsBetween(deps, orgId, firstDay, lastDay)) {
    if (typeof item.cost_usd !== 'number') continue;
    const workspaceId = String(item.workspace_id);
    costs.set(workspaceId, (costs.get(workspaceId) ?? 0) + item.cost_usd);
  }
  return costs;
}

/**
 * Each of the organisation's workspaces' queries today and cost this month (those that have any):
 * two Queries per shard (the month's items, and those written before), all in parallel.
 */
export async function readDayCounts(
  deps: Deps,
  orgId: string,
  now: Date,
): Promise<Map<string, { queriesToday: number; costMonth: number }>> {
  const today = dayOf(now);
  const counts = new Map<string, { queriesToday: number; costMonth: number }>();
  for (const item of await dayItemsBetween(deps, orgId, `${today.slice(0, 8)}01`, today)) {
    const workspaceId = String(item.workspace_id);
    const count = counts.get(workspaceId) ?? { queriesToday: 0, costMonth: 0 };
    const todays = item.sk.startsWith(keys.queriesTodayPrefix(today)) || item.sk.startsWith(keys.queriesTodayPrefix(today, 'DAY'));
    if (todays && typeof item.queries === 'number') count.queriesToday += item.queries;
    if (typeof item.cost_usd === 'number') count.costMonth += item.cost_usd;
    counts.set(workspaceId, count);
  }
  return counts;
}

/**
 * The keys of a workspace's usage on `days`: every shard of each day, and the workspace's own day
 * item of before. For a BatchGet the reader makes (`daySums` adds up what it finds).
 */
export function dayUsageKeys(orgId: string, workspaceId: string, days: readonly string[]): Key[] {
  return days.flatMap((day) => [
    ...Array.from({ length: DAY_SHARDS }, (_, shard) => keys.queriesToday(orgId, shard, day, workspaceId)),
    keys.workspaceDayStats(orgId, workspaceId, day),
  ]);
}

/** The sort key of a day item `dayUsageKeys` names (`USE#<day>#WS#<ws>`, `DAY#<day>`), with its day. */
const DAY_ITEM = /^(?:USE|DAY)#(\d{4}-\d{2}-\d{2})/;

/**
 * A workspace's usage by day (`YYYY-MM-DD` → every numeric field summed), from the items
 * `dayUsageKeys` names; any other item read with them (counter items, say) is passed over.
 */
export function daySums(items: readonly Item[]): Map<string, Record<string, number>> {
  const sums = new Map<string, Record<string, number>>();
  for (const item of items) {
    const day = DAY_ITEM.exec(item.sk)?.[1];
    if (!day) continue;
    const sum = sums.get(day) ?? {};
    for (const [name, value] of Object.entries(item)) if (typeof value === 'number') sum[name] = (sum[name] ?? 0) + value;
    sums.set(day, sum);
  }
  return sums;
}
