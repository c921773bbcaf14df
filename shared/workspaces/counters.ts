import { countQueriesToday } from './queries-today.js';
import type { Deps } from '../deps.js';
import { dayOf, monthOf } from '../platform/clock.js';
import { errorMessage } from '../platform/errors.js';
import { keys } from '../platform/keys.js';
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
 * Counter attributes kept on the workspace item by atomic ADDs: usage per month and all-time,
 * conversation counts per status, category, resolution, consumer type and channel, and the
 * ratings of answers. Only the day counters live in items of their own (`WSSTAT#<id>` /
 * `DAY#<date>`), as they would make the workspace item grow without bound.
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

/** An `ADD` expression for a map of attribute name → delta (zero deltas left out). */
function addExpression(deltas: Record<string, number>) {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const parts: string[] = [];
  Object.entries(deltas)
    .filter(([, delta]) => delta !== 0)
    .forEach(([name, delta], index) => {
      names[`#c${index}`] = name;
      values[`:c${index}`] = delta;
      parts.push(`#c${index} :c${index}`);
    });
  return parts.length ? { update: `ADD ${parts.join(', ')}`, names, values } : undefined;
}

/** Adds to the workspace item's counters (an UpdateItem; nothing when every delta is 0). */
export async function addWorkspaceCounters(
  deps: Pick<Deps, 'table'>,
  orgId: string,
  workspaceId: string,
  deltas: Record<string, number>,
): Promise<void> {
  const expression = addExpression(deltas);
  if (!expression) return;
  await deps.table.update(keys.workspace(orgId, workspaceId), { ...expression, condition: 'attribute_exists(pk)' });
}

/**
 * Records usage at `at`: two UpdateItems in parallel, one on the day item, one on the workspace
 * item (month and all-time usage, plus any conversation counter deltas given).
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
  const dayExpression = addExpression(dayDeltas);
  const [day] = await Promise.all([
    dayExpression
      ? deps.table.update<{ queries?: number }>(keys.workspaceDayStats(orgId, workspaceId, dayOf(at)), dayExpression)
      : undefined,
    addWorkspaceCounters(deps, orgId, workspaceId, workspaceDeltas),
    countQueriesToday(deps, orgId, workspaceId, usage.queries ?? 0, at),
  ]);
  // The workspace's first query of the day looks at how its prompt cache did the day before.
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
