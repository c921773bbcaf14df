import type { Deps } from '../deps.js';
import { dayOf, daysEndingOn, monthOf } from '../platform/clock.js';
import { keys } from '../platform/keys.js';
import type { Item } from '../platform/table.js';
import { counterNames, counterOf } from './counters.js';
import type { WorkspaceStats } from './schemas.js';

/** Money is summed as DynamoDB decimals; answers are rounded to a millionth of a dollar. */
export function roundUsd(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

/** The last 7 days' counter items of a workspace (rolling, today included): one BatchGet of 7 keys known from the URL. */
export function readWeekCounters(deps: Deps, orgId: string, workspaceId: string, now: Date) {
  return deps.table.batchGet(daysEndingOn(now, 7).map((day) => keys.workspaceDayStats(orgId, workspaceId, day)));
}

/**
 * The detail view's `stats`: today, the last 7 days (rolling, today included), this calendar month;
 * average duration, cost and error rate over this month. The month figures are counters on the
 * workspace item; the days are the items `readWeekCounters` read at the same `now`.
 */
export function workspaceStatsOf(workspace: { org_id: string }, workspaceId: string, days: Item[], now: Date): WorkspaceStats {
  const week = daysEndingOn(now, 7);
  const byDay = new Map(days.map((item) => [item.sk, item]));
  const queriesOn = (day: string) => counterOf(byDay.get(keys.workspaceDayStats(workspace.org_id, workspaceId, day).sk), 'queries');
  const month = monthOf(now);
  const monthQueries = counterOf(workspace, counterNames.month(month, 'queries'));
  return {
    today: queriesOn(dayOf(now)),
    week: week.reduce((sum, day) => sum + queriesOn(day), 0),
    month: monthQueries,
    avg_ms: monthQueries ? Math.round(counterOf(workspace, counterNames.month(month, 'duration_ms')) / monthQueries) : 0,
    cost_mtd: roundUsd(counterOf(workspace, counterNames.month(month, 'cost_usd'))),
    error_rate: monthQueries ? counterOf(workspace, counterNames.month(month, 'errors')) / monthQueries : 0,
  };
}
