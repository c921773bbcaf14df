import { addDayUsage } from './day-counts.js';
import type { Deps } from '../deps.js';
import { monthOf } from '../platform/clock.js';
import { errorMessage } from '../platform/errors.js';
import { keys } from '../platform/keys.js';
import { addExpression } from '../platform/updates.js';
import { watchCacheHitRate } from './cache-watch.js';

/** What one query (or a batch of them) adds to a workspace's usage. */
export interface Usage {
  queries: number;
  errors: number;
  duration_ms: number;
  cost_usd: number;
  /** Uncached input tokens. */
  tokens_input: number;
  tokens_output: number;
  tokens_cache_read: number;
  tokens_cache_write: number;
}
export type UsageField = keyof Usage;
const USAGE_FIELDS: readonly UsageField[] = [
  'queries',
  'errors',
  'duration_ms',
  'cost_usd',
  'tokens_input',
  'tokens_output',
  'tokens_cache_read',
  'tokens_cache_write',
];

/**
 * A workspace's counters, by atomic ADDs: usage per month and all-time, conversation counts per
 * status, category, resolution, consumer type and channel, the ratings of answers, approvals by
 * status. They are kept apart from the workspace item (which holds its configuration and is copied
 * into the workspace list's index): in items of their own, `WSCOUNT#<org>#<ws>#<shard>` /
 * `M#<YYYY-MM>`, one per shard and month, each change adding to one of 4 shards at random, so no
 * partition takes every question of a busy workspace and no item grows without bound. Readers sum
 * them (`countersOf`), with what the workspace item held before the counters moved (it holds
 * them still, no longer changed). The day counters have items of their own (`WSSTAT#<id>` /
 * `DAY#<date>`). The counts of the configuration (connections, tools, knowledge, guardrails)
 * stay on the workspace item: they change when it does.
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

/** Counts of the workspace's configuration: on the workspace item, which changes with them. */
const CONFIG_COUNTS = new Set(['connection_count', 'tool_count', 'knowledge_count', 'guardrail_count']);
/** Shards of a workspace's counters: each change adds to one at random; reads sum them all. */
const COUNTER_SHARDS = 4;

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
  const config = Object.fromEntries(Object.entries(deltas).filter(([name]) => CONFIG_COUNTS.has(name)));
  const activity = Object.fromEntries(Object.entries(deltas).filter(([name]) => !CONFIG_COUNTS.has(name)));
  const onItem = addExpression(config);
  const onShard = addExpression(activity);
  const shard = Math.floor(Math.random() * COUNTER_SHARDS);
  await Promise.all([
    onItem ? deps.table.update(keys.workspace(orgId, workspaceId), { ...onItem, condition: 'attribute_exists(pk)' }) : undefined,
    onShard ? deps.table.update(keys.workspaceCounters(orgId, workspaceId, shard, monthOf(at)), onShard) : undefined,
  ]);
}

/** The keys of the workspace's counter items of one month, every shard (for a BatchGet a reader makes anyway). */
export function monthCounterKeys(orgId: string, workspaceId: string, month: string) {
  return Array.from({ length: COUNTER_SHARDS }, (_, shard) => keys.workspaceCounters(orgId, workspaceId, shard, month));
}

/** Whether an item read with others (a BatchGet) is one of a workspace's counter items. */
export function isCounterItem(item: { pk: string }): boolean {
  return item.pk.startsWith(keys.workspaceCountersPrefix);
}

/** Every counter item of the workspace, every shard and month: one Query per shard, in parallel. */
export async function readCounterItems(deps: Pick<Deps, 'table'>, orgId: string, workspaceId: string): Promise<object[]> {
  const shards = await Promise.all(
    Array.from({ length: COUNTER_SHARDS }, (_, shard) =>
      deps.table.queryAll({ pk: keys.workspaceCountersPartition(orgId, workspaceId, shard) }),
    ),
  );
  return shards.flat();
}

/**
 * The workspace's counters as one record: what its item held before the counters moved to items
 * of their own, plus every counter item given (all of them for all-time figures, a month's for
 * that month's). Read with `counterOf` and `countsOf`.
 */
export function countersOf(workspace: object | undefined, items: object[]): Record<string, number> {
  const sums: Record<string, number> = {};
  for (const source of [workspace, ...items]) {
    if (!source) continue;
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
