import { z } from '@hono/zod-openapi';
import { ConversationSchema } from '../conversations/schemas.js';
import { toConversation } from '../conversations/list.js';
import { conversationKeys } from '../conversations/keys.js';
import type { Deps } from '../deps.js';
import { dayOf, daysEndingOn, monthOf } from '../platform/clock.js';
import { keys } from '../platform/keys.js';
import type { Item } from '../platform/table.js';
import { toGap } from './children.js';
import { KnowledgeGapSchema } from './schemas.js';
import { roundUsd } from './stats.js';
import { getWorkspaceItem } from './workspaces.js';

export const DashboardSchema = z
  .object({
    tickets: z.object({ open: z.number().int(), cold: z.number().int(), closed: z.number().int(), total: z.number().int() }),
    sentiment: z.object({
      average: z.number().nullable(),
      positive: z.number().int(),
      neutral: z.number().int(),
      negative: z.number().int(),
    }),
    compliance: z.object({ violations: z.number().int(), guardrails: z.number().int() }),
    knowledge_gaps: z.object({ count: z.number().int(), recent: z.array(KnowledgeGapSchema) }),
    resolution: z.object({ resolved: z.number().int(), unresolved: z.number().int(), rate: z.number().nullable() }),
    cost: z.object({ today: z.number(), mtd: z.number(), per_conversation: z.number() }),
    usage: z.object({
      queries_today: z.number().int(),
      week: z.number().int(),
      month: z.number().int(),
      by_day: z.array(z.object({ date: z.string(), queries: z.number().int(), cost: z.number() })),
    }),
    recent_conversations: z.array(ConversationSchema),
    categories: z.array(z.object({ category: z.string(), count: z.number().int() })),
    channels: z.array(z.object({ channel: z.string(), count: z.number().int() })),
  })
  .openapi('Dashboard');
export type Dashboard = z.infer<typeof DashboardSchema>;

/** Days of usage the dashboard charts. */
export const DASHBOARD_DAYS = 30;
const RECENT = 5;

const count = (item: Item | undefined, name: string): number => {
  const value = item?.[name];
  return typeof value === 'number' ? value : 0;
};

function labelled(counters: Item | undefined, prefix: string): { label: string; count: number }[] {
  if (!counters) return [];
  return Object.entries(counters)
    .filter(([name, value]) => name.startsWith(prefix) && typeof value === 'number' && value > 0)
    .map(([name, value]) => ({ label: name.slice(prefix.length), count: value as number }))
    .sort((a, b) => b.count - a.count || a.label.localeCompare(b.label));
}

/**
 * `GET /api/workspaces/:id/dashboard`, from counter and aggregate items only, in one round of
 * parallel reads: the workspace item, the last 30 day counters (one Query), the month, total and
 * conversation counters (one BatchGet), the latest conversations and gaps (one Query each).
 */
export async function readDashboard(deps: Deps, orgId: string, workspaceId: string): Promise<Dashboard> {
  const now = deps.clock.now();
  const days = daysEndingOn(now, DASHBOARD_DAYS);
  const today = dayOf(now);
  const monthKey = keys.workspaceMonthStats(workspaceId, monthOf(now));
  const totalsKey = keys.workspaceTotals(workspaceId);
  const countersKey = conversationKeys.counters(workspaceId);
  const [workspace, dayPage, aggregates, recent, gaps] = await Promise.all([
    getWorkspaceItem(deps, orgId, workspaceId),
    deps.table.query({
      pk: keys.workspaceStatsPartition(workspaceId),
      sk: { between: [`DAY#${days[0]}`, `DAY#${today}`] },
    }),
    deps.table.batchGet([monthKey, totalsKey, countersKey]),
    deps.table.query({ index: 'gsi1', pk: keys.conversationsIndex(workspaceId), newestFirst: true, limit: RECENT }),
    deps.table.query({ pk: keys.gapsPartition(workspaceId), newestFirst: true, limit: RECENT }),
  ]);
  const byDay = new Map(dayPage.items.map((item) => [item.sk.slice('DAY#'.length), item]));
  const bySk = new Map(aggregates.map((item) => [item.sk, item]));
  const month = bySk.get(monthKey.sk);
  const totals = bySk.get(totalsKey.sk);
  const counters = bySk.get(countersKey.sk);
  const sentimentCount = count(counters, 'sentiment_count');
  const resolved = count(counters, 'resolution#resolved');
  const unresolved = count(counters, 'resolution#unresolved');
  const conversations = count(counters, 'total');
  const weekDays = new Set(days.slice(-7));
  return {
    tickets: {
      open: count(counters, 'status#open'),
      cold: count(counters, 'status#cold'),
      closed: count(counters, 'status#closed'),
      total: conversations,
    },
    sentiment: {
      average: sentimentCount ? count(counters, 'sentiment_sum') / sentimentCount : null,
      positive: count(counters, 'sentiment#positive'),
      neutral: count(counters, 'sentiment#neutral'),
      negative: count(counters, 'sentiment#negative'),
    },
    compliance: { violations: count(counters, 'violations'), guardrails: workspace.guardrail_count ?? 0 },
    knowledge_gaps: {
      count: count(counters, 'gaps'),
      recent: gaps.items.map(toGap),
    },
    resolution: { resolved, unresolved, rate: resolved + unresolved ? resolved / (resolved + unresolved) : null },
    cost: {
      today: roundUsd(count(byDay.get(today), 'cost_usd')),
      mtd: roundUsd(count(month, 'cost_usd')),
      per_conversation: conversations ? roundUsd(count(totals, 'cost_usd') / conversations) : 0,
    },
    usage: {
      queries_today: count(byDay.get(today), 'queries'),
      week: days.filter((day) => weekDays.has(day)).reduce((sum, day) => sum + count(byDay.get(day), 'queries'), 0),
      month: count(month, 'queries'),
      by_day: days.map((date) => ({
        date,
        queries: count(byDay.get(date), 'queries'),
        cost: roundUsd(count(byDay.get(date), 'cost_usd')),
      })),
    },
    recent_conversations: recent.items.map(toConversation),
    categories: labelled(counters, 'category#').map(({ label, count: n }) => ({ category: label, count: n })),
    channels: labelled(counters, 'channel#').map(({ label, count: n }) => ({ channel: label, count: n })),
  };
}
