import { z } from '@hono/zod-openapi';
import type { Deps } from '../deps.js';
import { PaginationQuery } from '../http/schemas.js';
import { num, str, strOrNull, strings } from '../platform/attributes.js';
import { countShards, readShardedPage } from '../platform/sharded-pages.js';
import type { Item, QueryInput } from '../platform/table.js';
import { counterNames, counterOf, countersOf, readCounterItems } from './counters.js';
import { DayRangeQuery, instantsOf } from './day-range.js';
import { activityFilterOf, activityOfWorkspace } from './entities.js';
import { TOOL_CALL_OUTCOMES, type ActivityEntrySchema } from './schemas.js';
import { TOOL_CALLS_TOTAL } from './activity-tool-calls.js';
import { getWorkspaceItem, type WorkspaceItem } from './workspaces.js';

/*
 * The audit log (in its shards, entities.ts; sort keys `<ISO instant>#<id>`, newest first, the
 * shards merged): read by days as a key condition (`from`, `to`), by user, tool and outcome as a
 * filter.
 */

export type ActivityEntry = z.infer<typeof ActivityEntrySchema>;

const name = () => z.string().min(1, 'must not be empty').max(200, 'must be at most 200 characters').optional();

/** The filters of the audit log, as a query string (the list and its CSV take the same). */
export const ActivityFiltersQuery = DayRangeQuery.extend({
  user: name().openapi({ description: 'only the queries of this user (their id, as GET /api/org/users lists it)' }),
  tool: name().openapi({ description: 'only the queries that called this tool (its name, exactly)' }),
  errors: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .optional()
    .openapi({ description: 'true: only the queries that failed (with an error); false: only those that did not' }),
});
export type ActivityFilters = z.output<typeof ActivityFiltersQuery>;

export const ActivityListQuery = PaginationQuery.extend(ActivityFiltersQuery.shape);
type ActivityListInput = z.output<typeof ActivityListQuery>;

/**
 * How many entries a filtered page reads at most (a user, a tool or an outcome is a filter, not a
 * key): the page holds the matches among them, and its cursor goes on from there.
 */
export const FILTERED_PAGE_READ = 1000;

export const toActivity = (item: Item): ActivityEntry => ({
  id: str(item.id),
  conversation_id: strOrNull(item.conversation_id),
  user_id: strOrNull(item.user_id),
  user_name: str(item.user_name),
  query: str(item.query),
  tools_called: strings(item.tools_called),
  connections_hit: strings(item.connections_hit),
  tokens_input: num(item.tokens_input),
  tokens_output: num(item.tokens_output),
  tokens: {
    input: num(item.tokens_input),
    output: num(item.tokens_output),
    cache_read: num(item.tokens_cache_read),
    cache_write: num(item.tokens_cache_write),
  },
  cost_usd: num(item.cost_usd),
  duration_ms: num(item.duration_ms),
  error: strOrNull(item.error),
  approvals: Array.isArray(item.approvals) ? (item.approvals as ActivityEntry['approvals']) : [],
  ...toolCallOf(item),
  created_at: str(item.created_at),
});

/** What an entry says of a tool call through the MCP gateway; nulls for a query. */
function toolCallOf(item: Item): Pick<ActivityEntry, 'kind' | 'client' | 'consumer' | 'tool' | 'outcome'> {
  if (item.kind !== 'tool_call') return { kind: 'query', client: null, consumer: null, tool: null, outcome: null };
  const outcome = TOOL_CALL_OUTCOMES.find((known) => known === item.outcome) ?? 'error';
  return { kind: 'tool_call', client: strOrNull(item.client), consumer: strOrNull(item.consumer), tool: strOrNull(item.tool), outcome };
}

/** The Queries of the audit log for these filters, one per shard: the days as their key condition, the rest as their filter. */
export function activityQueries(orgId: string, workspaceId: string, filters: ActivityFilters): Omit<QueryInput, 'limit' | 'startKey'>[] {
  const filter = activityFilterOf({
    user: filters.user,
    tool: filters.tool,
    failed: filters.errors === undefined ? undefined : filters.errors === 'true',
  });
  const sk = instantsOf(filters);
  return activityOfWorkspace(orgId, workspaceId).map((shard) => ({ ...shard, ...(sk ? { sk } : {}), ...filter }));
}

/** The workspace's audit entries of all time, from its counters: its queries and its tool calls through the MCP gateway. */
function entriesCounted(counters: object): number {
  return counterOf(counters, counterNames.total('queries')) + counterOf(counters, TOOL_CALLS_TOTAL);
}

/**
 * `GET /api/workspaces/:id/activity`: newest first. Unfiltered, `total` is the workspace's
 * all-time count of queries and tool calls; with any filter or day it is counted (a COUNT query over the same range
 * and filter, in the same round as the page, as the conversations list counts a filtered total),
 * and a filtered page reads at most `FILTERED_PAGE_READ` entries.
 */
export async function listActivity(
  deps: Deps,
  orgId: string,
  workspaceId: string,
  query: ActivityListInput,
  /** The workspace, when the caller has read it already (a member's filters): not read again. */
  known?: WorkspaceItem,
): Promise<{ activity: ActivityEntry[]; total: number; next_cursor: string | null }> {
  const { limit, offset, cursor, ...filters } = query;
  const inputs = activityQueries(orgId, workspaceId, filters);
  const filtered = Object.values(filters).some((value) => value !== undefined);
  const [, counterItems, entries, counted] = await Promise.all([
    known ?? getWorkspaceItem(deps, orgId, workspaceId),
    filtered ? [] : readCounterItems(deps, orgId, workspaceId),
    readShardedPage<Item>(deps.table, inputs, { limit, offset, cursor }, inputs[0]?.filter ? { maxRead: FILTERED_PAGE_READ } : {}),
    filtered ? countShards(deps.table, inputs) : undefined,
  ]);
  return {
    activity: entries.items.map(toActivity),
    total: counted ?? entriesCounted(countersOf(counterItems)),
    next_cursor: entries.nextCursor,
  };
}
