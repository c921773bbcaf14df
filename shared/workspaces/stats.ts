import type { Deps } from '../deps.js';
import { dayOf, daysEndingOn, monthOf } from '../platform/clock.js';
import type { Item } from '../platform/table.js';
import { counterNames, counterOf, countersOf } from './counters.js';
import { daySums } from './day-counts.js';
import type { WorkspaceStats } from './schemas.js';
import { dayUsageKeys, isCounterItem, monthCounterKeys } from './usage-entities.js';

/** Money is summed as DynamoDB decimals; answers are rounded to a millionth of a dollar. */
export function roundUsd(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

/**
 * The last 7 days' counter items of a workspace (rolling, today included) and its counter items of
 * this month: one BatchGet of keys known from the URL.
 */
export function readWeekCounters(deps: Deps, orgId: string, workspaceId: string, now: Date) {
  return deps.table.batchGet([
    ...dayUsageKeys(orgId, workspaceId, daysEndingOn(now, 7)),
    ...monthCounterKeys(orgId, workspaceId, monthOf(now)),
  ]);
}

/**
 * The detail view's `stats`: today, the last 7 days (rolling, today included), this calendar month;
 * average duration, cost and error rate over this month. The month figures are the workspace's
 * counter items of this month; the days are the items `readWeekCounters` read at the same `now`.
 */
export function workspaceStatsOf(items: Item[], now: Date): WorkspaceStats {
  const week = daysEndingOn(now, 7);
  const byDay = daySums(items);
  const queriesOn = (day: string) => counterOf(byDay.get(day), 'queries');
  const month = monthOf(now);
  const counters = countersOf(items.filter(isCounterItem));
  const monthQueries = counterOf(counters, counterNames.month(month, 'queries'));
  return {
    today: queriesOn(dayOf(now)),
    week: week.reduce((sum, day) => sum + queriesOn(day), 0),
    month: monthQueries,
    avg_ms: monthQueries ? Math.round(counterOf(counters, counterNames.month(month, 'duration_ms')) / monthQueries) : 0,
    cost_mtd: roundUsd(counterOf(counters, counterNames.month(month, 'cost_usd'))),
    error_rate: monthQueries ? counterOf(counters, counterNames.month(month, 'errors')) / monthQueries : 0,
  };
}
