import { addDayUsage } from './day-counts.js';
import type { Deps } from '../deps.js';
import { monthOf } from '../platform/clock.js';
import { errorMessage } from '../platform/errors.js';
import { watchCacheHitRate } from './cache-watch.js';
import { CONFIG_COUNTS, type ConfigCount, configCountsUpdate } from './entities.js';
import { COUNTER_SHARDS, USAGE_FIELDS, type UsageField, counterKey, counterShardsOf, countersUpdate } from './usage-entities.js';

/** What one query (or a batch of them) adds to a workspace's usage. */
export type Usage = Record<UsageField, number>;

/**
 * A workspace's counters, by atomic ADDs: usage per month and all-time, conversation counts per
 * status, category, resolution, consumer type and channel, the ratings of answers, approvals by
 * status. They are kept apart from the workspace item (which holds its configuration and is copied
 * into the workspace list's index): in items of their own (usage-entities.ts), one per shard and
 * month, each change adding to one of 4 shards at random, so no partition takes every question of
 * a busy workspace and no item grows without bound. Readers sum them (`countersOf`). The day
 * counters have items of their own (day-counts.ts). The counts of the configuration (connections,
 * tools, knowledge, guardrails) stay on the workspace item: they change when it does.
 */
export const counterNames = {
  month: (month: string, field: UsageField) => `month#${month}#${field}`,
  total: (field: UsageField) => `total#${field}`,
  conversations: 'conversations',
  dimension: (dimension: ConversationDimension, value: string) => `${dimension}#${value}`,
  /** Ratings of the workspace's answers that count now (a changed rating moves from one to the other). */
  feedback: (rating: 'up' | 'down') => `feedback#${rating}`,
  /** Approvals of tool calls by status (a decision moves one from pending to its status). */
  approvals: (status: string) => `approvals#${status}`,
};
export type ConversationDimension = 'status' | 'category' | 'resolution' | 'consumer' | 'channel' | 'sentiment';

const isConfigCount = (name: string): name is ConfigCount => CONFIG_COUNTS.some((count) => count === name);

/**
 * Adds to the workspace's counters: the configuration counts on the workspace item (on condition
 * that it exists), the others on one counter shard of the month of `at`. An UpdateItem each, in
 * parallel; nothing when every delta is 0.
 */
export async function addWorkspaceCounters(
  deps: Pick<Deps, 'table' | 'clock'>,
  orgId: string,
  workspaceId: string,
  deltas: Record<string, number>,
  at: Date = deps.clock.now(),
): Promise<void> {
  const config = Object.fromEntries(Object.entries(deltas).filter(([name]) => isConfigCount(name)));
  const activity = Object.fromEntries(Object.entries(deltas).filter(([name]) => !isConfigCount(name)));
  const onItem = configCountsUpdate(orgId, workspaceId, config);
  const shard = Math.floor(Math.random() * COUNTER_SHARDS);
  const onShard = countersUpdate(counterKey(orgId, workspaceId, shard, monthOf(at)), activity);
  await Promise.all([
    onItem ? deps.table.update(onItem.key, onItem.input) : undefined,
    onShard ? deps.table.update(onShard.key, onShard.input) : undefined,
  ]);
}

/** Every counter item of the workspace, every shard and month: one Query per shard, in parallel. */
export async function readCounterItems(deps: Pick<Deps, 'table'>, orgId: string, workspaceId: string): Promise<object[]> {
  const shards = await Promise.all(counterShardsOf(orgId, workspaceId).map((shard) => deps.table.queryAll(shard)));
  return shards.flat();
}

/**
 * The workspace's counters as one record: every counter item given summed (all of them for
 * all-time figures, a month's for that month's). Read with `counterOf` and `countsOf`.
 */
export function countersOf(items: object[]): Record<string, number> {
  const sums: Record<string, number> = {};
  for (const source of items) {
    for (const [name, value] of Object.entries(source)) if (typeof value === 'number') sums[name] = (sums[name] ?? 0) + value;
  }
  return sums;
}

/**
 * Records usage at `at`: two UpdateItems in parallel, on one of the workspace's counter shards
 * (month and all-time usage, plus any conversation counter deltas given), and on its day in one of
 * its organisation's day shards, which the workspace list, the dashboard and the stats read
 * (`day-counts.ts`).
 */
export async function recordUsage(
  deps: Deps,
  orgId: string,
  workspaceId: string,
  usage: Partial<Usage>,
  at: Date,
  conversationDeltas: Record<string, number> = {},
): Promise<void> {
  const month = monthOf(at);
  const dayDeltas: Record<string, number> = {};
  const workspaceDeltas: Record<string, number> = { ...conversationDeltas };
  for (const field of USAGE_FIELDS) {
    const value = usage[field] ?? 0;
    dayDeltas[field] = value;
    workspaceDeltas[counterNames.month(month, field)] = value;
    workspaceDeltas[counterNames.total(field)] = value;
  }
  const [day] = await Promise.all([
    addDayUsage(deps, orgId, workspaceId, dayDeltas, at),
    addWorkspaceCounters(deps, orgId, workspaceId, workspaceDeltas, at),
  ]);
  // The workspace's first query of the day in its shard looks at how its prompt cache did the day before.
  if (usage.queries && day?.queries === usage.queries) {
    await watchCacheHitRate(deps, orgId, workspaceId, at).catch((error: unknown) =>
      deps.logger.warn('the prompt cache hit rate could not be checked', { error: errorMessage(error) }),
    );
  }
}

/** A counter attribute of an item, 0 when absent. */
export function counterOf(item: object | undefined, name: string): number {
  const value = item ? (item as Record<string, unknown>)[name] : undefined;
  return typeof value === 'number' ? value : 0;
}

/** Values of one dimension that have a count above 0, most frequent first. */
export function countsOf(item: object | undefined, dimension: ConversationDimension): { label: string; count: number }[] {
  if (!item) return [];
  const prefix = `${dimension}#`;
  return Object.entries(item)
    .filter(([name, value]) => name.startsWith(prefix) && typeof value === 'number' && value > 0)
    .map(([name, value]) => ({ label: name.slice(prefix.length), count: value as number }))
    .sort((a, b) => b.count - a.count || a.label.localeCompare(b.label));
}
