import type { Deps } from '../deps.js';
import { numOrNull, str, strOrNull } from '../platform/attributes.js';
import { keys } from '../platform/keys.js';
import { readPage } from '../platform/pages.js';
import type { Item } from '../platform/table.js';
import { getWorkspaceItem } from '../workspaces/workspaces.js';
import { counterNames, counterOf, countsOf, type ConversationDimension } from '../workspaces/counters.js';
import { CONSUMER_TYPES, CONVERSATION_STATUSES, RESOLUTION_STATUSES, type Conversation, type ConversationListFilters } from './schemas.js';

export function toConversation(item: Item): Conversation {
  const status = CONVERSATION_STATUSES.find((candidate) => candidate === item.status) ?? 'open';
  return {
    id: str(item.id),
    workspace_id: str(item.workspace_id),
    consumer_type: str(item.consumer_type, 'api'),
    status,
    user_name: str(item.user_name),
    channel: strOrNull(item.channel),
    message_count: numOrNull(item.message_count) ?? 0,
    sentiment_score: numOrNull(item.sentiment_score),
    resolution_status: strOrNull(item.resolution_status),
    category: strOrNull(item.category),
    summary: strOrNull(item.summary),
    total_cost_usd: numOrNull(item.total_cost_usd) ?? 0,
    stats_status: strOrNull(item.stats_status),
    first_message_at: str(item.first_message_at),
    last_activity_at: str(item.last_activity_at),
  };
}

/**
 * `GET /api/workspaces/:id/conversations`: newest activity first, from GSI1 (or GSI2 when filtering
 * by status). Totals come from the workspace item's conversation counters when at most one filter
 * is set; a combination of filters is counted by a COUNT Query over the workspace's conversations.
 */
export async function listConversations(deps: Deps, orgId: string, workspaceId: string, query: ConversationListFilters) {
  const filterParts: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const addFilter = (attribute: string, value: string | undefined) => {
    if (value === undefined) return;
    names[`#${attribute}`] = attribute;
    values[`:${attribute}`] = value;
    filterParts.push(`#${attribute} = :${attribute}`);
  };
  addFilter('category', query.category);
  addFilter('resolution_status', query.resolution);
  addFilter('consumer_type', query.consumer);
  const source = query.status
    ? { index: 'gsi2' as const, pk: keys.conversationsByStatusIndex(orgId, workspaceId, query.status) }
    : { index: 'gsi1' as const, pk: keys.conversationsIndex(orgId, workspaceId) };
  const filter = filterParts.length ? { filter: filterParts.join(' AND '), names, values } : {};
  const [counters, page] = await Promise.all([
    getWorkspaceItem(deps, orgId, workspaceId),
    readPage<Item>(deps.table, { ...source, newestFirst: true, ...filter }, query),
  ]);
  const chosen: [ConversationDimension, string | undefined][] = [
    ['status', query.status],
    ['category', query.category],
    ['resolution', query.resolution],
    ['consumer', query.consumer],
  ];
  const active = chosen.filter((entry): entry is [ConversationDimension, string] => entry[1] !== undefined);
  let total: number;
  if (active.length === 0) total = counterOf(counters, counterNames.conversations);
  else if (active.length === 1 && active[0]) total = counterOf(counters, counterNames.dimension(...active[0]));
  else total = await deps.table.count({ ...source, ...filter });
  return {
    conversations: page.items.map(toConversation),
    total,
    next_cursor: page.nextCursor,
    filters: {
      status: [...CONVERSATION_STATUSES],
      consumer: [...CONSUMER_TYPES],
      category: countsOf(counters, 'category')
        .map(({ label }) => label)
        .sort(),
      resolution: [...RESOLUTION_STATUSES],
    },
  };
}
