import type { Deps } from '../deps.js';
import { dayOf } from '../platform/clock.js';
import type { Item } from '../platform/table.js';
import { DAY_SHARDS, type UsageField, dayOfUsage, dayUsageBetween, dayUsageUpdate } from './usage-entities.js';

/*
 * Each workspace's usage per day (queries, tokens, cost, duration, errors…), where every reader
 * finds it without a second round: in a few partitions per organisation (an item per day and
 * workspace: usage-entities.ts). The workspace list reads an organisation's month in one Query per
 * shard, alongside the workspaces; a workspace's dashboard, stats and cache watch read the days they
 * show by key (a BatchGet of `dayUsageKeys`). Each query adds to a shard chosen at random, so that
 * no partition takes every query of a busy organisation or workspace (and each item stays far
 * under 1 KB: one write unit); readers sum the shards.
 */

/**
 * Adds a workspace's usage at `at` to its day, in one shard chosen at random: one UpdateItem
 * (none when every delta is 0). Answers the item's `queries` after the write.
 */
export async function addDayUsage(
  deps: Pick<Deps, 'table'>,
  orgId: string,
  workspaceId: string,
  deltas: Partial<Record<UsageField, number>>,
  at: Date,
): Promise<{ queries: number } | undefined> {
  const shard = Math.floor(Math.random() * DAY_SHARDS);
  const change = dayUsageUpdate(orgId, shard, dayOf(at), workspaceId, deltas);
  if (!change) return undefined;
  const item = await deps.table.update<{ queries?: number }>(change.key, change.input);
  return { queries: typeof item.queries === 'number' ? item.queries : 0 };
}

/** The organisation's day items from `firstDay` to `lastDay`, every shard: one Query per shard, in parallel. */
async function dayItemsBetween(deps: Pick<Deps, 'table'>, orgId: string, firstDay: string, lastDay: string): Promise<Item[]> {
  const shards = await Promise.all(
    Array.from({ length: DAY_SHARDS }, (_, shard) => deps.table.queryAll(dayUsageBetween(orgId, shard, firstDay, lastDay))),
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
 * one Query per shard, all in parallel.
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
    if (dayOfUsage(item) === today && typeof item.queries === 'number') count.queriesToday += item.queries;
    if (typeof item.cost_usd === 'number') count.costMonth += item.cost_usd;
    counts.set(workspaceId, count);
  }
  return counts;
}

/**
 * A workspace's usage by day (`YYYY-MM-DD` → every numeric field summed), from the items
 * `dayUsageKeys` names; any other item read with them (counter items, say) is passed over.
 */
export function daySums(items: readonly Item[]): Map<string, Record<string, number>> {
  const sums = new Map<string, Record<string, number>>();
  for (const item of items) {
    const day = dayOfUsage(item);
    if (!day) continue;
    const sum = sums.get(day) ?? {};
    for (const [name, value] of Object.entries(item)) if (typeof value === 'number') sum[name] = (sum[name] ?? 0) + value;
    sums.set(day, sum);
  }
  return sums;
}
