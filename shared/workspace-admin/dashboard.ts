import { z } from '@hono/zod-openapi';
import { ConversationSchema, conversationsOfWorkspace, toConversation } from '../conversations/index.js';
import type { Deps } from '../deps.js';
import { dayOf, daysEndingOn, monthOf } from '../platform/clock.js';
import { readShardedPage } from '../platform/sharded-pages.js';
import type { Item } from '../platform/table.js';
import { toConnection, connectionsOfWorkspace } from '../connections/index.js';
import { toGap } from './children.js';
import {
  counterNames,
  counterOf,
  countersOf,
  countsOf,
  readCounterItems,
  type ConversationDimension,
  daySums,
  dashboardDays,
  type DayRangeInput,
  dayUsageKeys,
  KnowledgeGapSchema,
  roundUsd,
  getWorkspaceItem,
} from '../workspaces/index.js';
import { recentGaps } from '../knowledge/index.js';

export const DashboardSchema = z
  .object({
    range: z
      .object({ from: z.string(), to: z.string(), days: z.number().int() })
      .openapi({ description: 'the days charted (UTC dates, both included): usage.by_day and cache' }),
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
    feedback: z
      .object({ up: z.number().int(), down: z.number().int(), rate: z.number().nullable() })
      .openapi({ description: 'ratings of answers that count now (each rater’s last one); rate = up / (up + down), null with none' }),
    approvals: z
      .object({ pending: z.number().int(), approved: z.number().int(), denied: z.number().int(), expired: z.number().int() })
      .openapi({ description: 'approvals of tool calls by status' }),
    cost: z.object({ today: z.number(), mtd: z.number(), per_conversation: z.number() }),
    usage: z.object({
      queries_today: z.number().int(),
      week: z.number().int(),
      month: z.number().int(),
      by_day: z.array(
        z.object({
          date: z.string(),
          queries: z.number().int(),
          cost: z.number(),
          cache_hit_rate: z
            .number()
            .nullable()
            .openapi({ description: 'that day’s share of input tokens read from the cache; null without input' }),
        }),
      ),
    }),
    cache: z
      .object({
        read_tokens: z.number().int(),
        write_tokens: z.number().int(),
        input_tokens: z.number().int(),
        hit_rate: z.number().nullable(),
      })
      .openapi({
        description:
          'the prompt cache over the days charted (range): input tokens read from it, written to it, and uncached; hit_rate = read / (read + write + input), null without input',
      }),
    recent_conversations: z.array(ConversationSchema),
    categories: z.array(z.object({ category: z.string(), count: z.number().int() })),
    channels: z.array(z.object({ channel: z.string(), count: z.number().int() })),
    connections: z
      .array(z.object({ id: z.string(), name: z.string(), status: z.string(), last_error: z.string().nullable() }))
      .openapi({ description: 'each connection with its health: connected, needs_authorization, or error (with last_error)' }),
  })
  .openapi('Dashboard');
export type Dashboard = z.infer<typeof DashboardSchema>;

/** The share of input tokens read from the prompt cache, or null when there was no input. */
function cacheHitRate(counters: { read: number; write: number; input: number }): number | null {
  const all = counters.read + counters.write + counters.input;
  return all ? Math.round((counters.read / all) * 1000) / 1000 : null;
}

/** The cache counters of a day item. */
function cacheOfDay(item: object | undefined) {
  return {
    read: counterOf(item, 'tokens_cache_read'),
    write: counterOf(item, 'tokens_cache_write'),
    input: counterOf(item, 'tokens_input'),
  };
}

/** The dashboard's `cache`: the days' counters summed. */
function cacheOfDays(days: readonly string[], byDay: Map<string, object>): Dashboard['cache'] {
  const sum = { read: 0, write: 0, input: 0 };
  for (const day of days) {
    const counters = cacheOfDay(byDay.get(day));
    sum.read += counters.read;
    sum.write += counters.write;
    sum.input += counters.input;
  }
  return { read_tokens: sum.read, write_tokens: sum.write, input_tokens: sum.input, hit_rate: cacheHitRate(sum) };
}

const RECENT = 5;
/** The headline's "last 7 days" and "today" are of the last 7 days, whatever range is charted. */
const WEEK = 7;

/** The workspace's newest conversations by last activity: its list's shards merged (platform/list-shards.ts). */
function recentConversations(deps: Deps, orgId: string, workspaceId: string) {
  return readShardedPage<Item>(deps.table, conversationsOfWorkspace(orgId, workspaceId), { limit: RECENT });
}

/**
 * `GET /api/workspaces/:id/dashboard`, from counters only, in one round of parallel reads: the
 * workspace item, its counter items (one Query per shard: month, all-time and conversation
 * counters), the day items of the range charted and of the last 7 days (one BatchGet by key,
 * in chunks sent side by side: 30 days ending today unless asked, 90 at most; day-counts.ts), the
 * latest conversations and gaps, and the connections with their health (one Query each).
 */
export async function readDashboard(deps: Deps, orgId: string, workspaceId: string, range: DayRangeInput = {}): Promise<Dashboard> {
  const now = deps.clock.now();
  const days = dashboardDays(now, range);
  const week = daysEndingOn(now, WEEK);
  const today = dayOf(now);
  const month = monthOf(now);
  const first = days[0] ?? today;
  const last = days.at(-1) ?? today;
  const [workspace, counterItems, dayItems, recent, gaps, connections] = await Promise.all([
    getWorkspaceItem(deps, orgId, workspaceId),
    readCounterItems(deps, orgId, workspaceId),
    // The range charted and the last 7 days, by key: 4 items a day at most (one per day shard).
    deps.table.batchGet(dayUsageKeys(orgId, workspaceId, [...new Set([...days, ...week])])),
    recentConversations(deps, orgId, workspaceId),
    deps.table.query(recentGaps(orgId, workspaceId, RECENT)),
    deps.table.queryAll(connectionsOfWorkspace(orgId, workspaceId)),
  ]);
  const byDay = daySums(dayItems);
  const counters = countersOf(counterItems);
  const count = (name: string) => counterOf(counters, name);
  const dimension = (name: ConversationDimension, value: string) => count(counterNames.dimension(name, value));
  const sentimentCount = count('sentiment_count');
  const resolved = dimension('resolution', 'resolved');
  const unresolved = dimension('resolution', 'unresolved');
  const conversations = count(counterNames.conversations);
  const up = count(counterNames.feedback('up'));
  const down = count(counterNames.feedback('down'));
  return {
    range: { from: first, to: last, days: days.length },
    tickets: {
      open: dimension('status', 'open'),
      cold: dimension('status', 'cold'),
      closed: dimension('status', 'closed'),
      total: conversations,
    },
    sentiment: {
      average: sentimentCount ? count('sentiment_sum') / sentimentCount : null,
      positive: dimension('sentiment', 'positive'),
      neutral: dimension('sentiment', 'neutral'),
      negative: dimension('sentiment', 'negative'),
    },
    compliance: { violations: count('violations'), guardrails: workspace.guardrail_count ?? 0 },
    knowledge_gaps: { count: count('gaps'), recent: gaps.items.map(toGap) },
    resolution: { resolved, unresolved, rate: resolved + unresolved ? resolved / (resolved + unresolved) : null },
    feedback: { up, down, rate: up + down ? up / (up + down) : null },
    approvals: {
      pending: count(counterNames.approvals('pending')),
      approved: count(counterNames.approvals('approved')),
      denied: count(counterNames.approvals('denied')),
      expired: count(counterNames.approvals('expired')),
    },
    cost: {
      today: roundUsd(counterOf(byDay.get(today), 'cost_usd')),
      mtd: roundUsd(count(counterNames.month(month, 'cost_usd'))),
      per_conversation: conversations ? roundUsd(count(counterNames.total('cost_usd')) / conversations) : 0,
    },
    usage: {
      queries_today: counterOf(byDay.get(today), 'queries'),
      week: week.reduce((sum, day) => sum + counterOf(byDay.get(day), 'queries'), 0),
      month: count(counterNames.month(month, 'queries')),
      by_day: days.map((date) => ({
        date,
        queries: counterOf(byDay.get(date), 'queries'),
        cost: roundUsd(counterOf(byDay.get(date), 'cost_usd')),
        cache_hit_rate: cacheHitRate(cacheOfDay(byDay.get(date))),
      })),
    },
    cache: cacheOfDays(days, byDay),
    recent_conversations: recent.items.map(toConversation),
    categories: countsOf(counters, 'category').map(({ label, count: n }) => ({ category: label, count: n })),
    channels: countsOf(counters, 'channel').map(({ label, count: n }) => ({ channel: label, count: n })),
    connections: connections.map((item) => {
      const { id, name, status, last_error } = toConnection(item);
      return { id, name, status, last_error };
    }),
  };
}
