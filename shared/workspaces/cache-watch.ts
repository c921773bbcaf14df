import { putNew } from '../platform/updates.js';
import type { Deps } from '../deps.js';
import { daysEndingOn } from '../platform/clock.js';
import { num } from '../platform/attributes.js';
import { daySums } from './day-counts.js';
import { cacheWarningKey } from './entities.js';
import { dayUsageKeys } from './usage-entities.js';

/*
 * A warning in the logs when a workspace's prompt cache hit rate falls by more than 15 points from
 * one day to the next (a system prompt that changed per request, a tool list that keeps changing):
 * checked by the workspace's first query of the day in each of its day shards (at most 4 a day),
 * from the two previous days' day items (one BatchGet), so the hot path pays nothing the rest of
 * the day; a marker item per day (`cacheWarningKey`, a conditional put) makes the warning once.
 */

/** A fall of more than this many points (of 100) is worth a warning. */
const FALL_POINTS = 15;
/** Days with less input than this are too small to compare. */
const MIN_INPUT_TOKENS = 10_000;

function hitRateOf(item: Record<string, unknown> | undefined): { rate: number; tokens: number } | undefined {
  const read = num(item?.tokens_cache_read);
  const all = read + num(item?.tokens_cache_write) + num(item?.tokens_input);
  return all >= MIN_INPUT_TOKENS ? { rate: read / all, tokens: all } : undefined;
}

/** Compares yesterday's hit rate with the day before's; logs a warning when it fell past the threshold. */
export async function watchCacheHitRate(
  deps: Pick<Deps, 'table' | 'logger'>,
  orgId: string,
  workspaceId: string,
  today: Date,
): Promise<void> {
  const [before, yesterday] = daysEndingOn(new Date(today.getTime() - 86_400_000), 2);
  if (!before || !yesterday) return;
  const byDay = daySums(await deps.table.batchGet(dayUsageKeys(orgId, workspaceId, [before, yesterday])));
  const previous = hitRateOf(byDay.get(before));
  const latest = hitRateOf(byDay.get(yesterday));
  if (!previous || !latest) return;
  const fall = Math.round((previous.rate - latest.rate) * 100);
  if (fall <= FALL_POINTS) return;
  // Several first queries of the day may look (one per day shard): the first to mark the day warns.
  if (!(await putNew(deps.table, { ...cacheWarningKey(orgId, workspaceId, yesterday), fall_points: fall }))) return;
  deps.logger.warn('prompt cache hit rate fell', {
    org: orgId,
    workspace: workspaceId,
    day: yesterday,
    hit_rate: Math.round(latest.rate * 100),
    day_before: Math.round(previous.rate * 100),
    fall_points: fall,
  });
}
