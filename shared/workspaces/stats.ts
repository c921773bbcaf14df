import type { Deps } from '../deps.js';
import { dayOf, daysEndingOn, monthOf } from '../platform/clock.js';
import { keys } from '../platform/keys.js';
import type { WorkspaceStats } from './schemas.js';

/**
 * Usage counter of a workspace for one day (`DAY#`) or month (`MONTH#`), or its all-time totals
 * (`TOTAL`). The agent loop keeps them with atomic ADDs; reading one is a GetItem, never a count.
 */
export interface UsageCounter {
  pk: string;
  sk: string;
  queries?: number;
  errors?: number;
  duration_ms?: number;
  cost_usd?: number;
  tokens_input?: number;
  tokens_output?: number;
}

/** Money is summed as DynamoDB decimals; answers are rounded to a millionth of a dollar. */
export function roundUsd(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

/** Today's query count and the month's cost of each workspace, by one BatchGet per 50 workspaces. */
export async function readListCounters(
  deps: Deps,
  workspaceIds: string[],
): Promise<Map<string, { queriesToday: number; costMtd: number }>> {
  const now = deps.clock.now();
  const day = dayOf(now);
  const month = monthOf(now);
  const items = await deps.table.batchGet<UsageCounter & Record<string, unknown>>(
    workspaceIds.flatMap((id) => [keys.workspaceDayStats(id, day), keys.workspaceMonthStats(id, month)]),
  );
  const counters = new Map(workspaceIds.map((id) => [id, { queriesToday: 0, costMtd: 0 }]));
  for (const item of items) {
    const counter = counters.get(item.pk.slice('WSSTAT#'.length));
    if (!counter) continue;
    if (item.sk === `DAY#${day}`) counter.queriesToday = item.queries ?? 0;
    if (item.sk === `MONTH#${month}`) counter.costMtd = roundUsd(item.cost_usd ?? 0);
  }
  return counters;
}

/**
 * The detail view's `stats`: today, the last 7 days (rolling, today included), this calendar month;
 * average duration, cost and error rate over this month. One BatchGet of 8 counter items.
 */
export async function readWorkspaceStats(deps: Deps, workspaceId: string): Promise<WorkspaceStats> {
  const now = deps.clock.now();
  const week = daysEndingOn(now, 7);
  const monthKey = keys.workspaceMonthStats(workspaceId, monthOf(now));
  const items = await deps.table.batchGet<UsageCounter & Record<string, unknown>>([
    ...week.map((day) => keys.workspaceDayStats(workspaceId, day)),
    monthKey,
  ]);
  const byKey = new Map(items.map((item) => [item.sk, item]));
  const month = byKey.get(monthKey.sk);
  const monthQueries = month?.queries ?? 0;
  return {
    today: byKey.get(`DAY#${dayOf(now)}`)?.queries ?? 0,
    week: week.reduce((sum, day) => sum + (byKey.get(`DAY#${day}`)?.queries ?? 0), 0),
    month: monthQueries,
    avg_ms: monthQueries ? Math.round((month?.duration_ms ?? 0) / monthQueries) : 0,
    cost_mtd: roundUsd(month?.cost_usd ?? 0),
    error_rate: monthQueries ? (month?.errors ?? 0) / monthQueries : 0,
  };
}
