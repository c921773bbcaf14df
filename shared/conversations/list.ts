import type { Condition } from 'dynamodb-toolbox/entity/actions/parseCondition';
import type { Deps } from '../deps.js';
import { numOrNull, str, strOrNull } from '../platform/attributes.js';
import { countShards, readShardedPage } from '../platform/sharded-pages.js';
import type { Item, QueryInput } from '../platform/table.js';
import { conditionOf } from '../platform/updates.js';
import { conversationEntity, conversationsOfWorkspace } from './entities.js';
import { consumerOfOwner, ownerOfConsumer } from './owners.js';
import { closeScope, readScope, scopeFilter, type ConversationScope } from './visibility.js';
import type { Principal } from '../auth/index.js';
import {
  getWorkspaceItem,
  counterNames,
  counterOf,
  countersOf,
  countsOf,
  readCounterItems,
  type ConversationDimension,
} from '../workspaces/index.js';
import {
  CONVERSATION_STATUSES,
  LISTED_CONSUMERS,
  RESOLUTION_STATUSES,
  type Conversation,
  type ConversationListFilters,
} from './schemas.js';

export function toConversation(item: Item): Conversation {
  const status = CONVERSATION_STATUSES.find((candidate) => candidate === item.status) ?? 'open';
  return {
    id: str(item.id),
    workspace_id: str(item.workspace_id),
    consumer_type: str(item.consumer_type, 'api'),
    status,
    user_name: str(item.user_name),
    title: strOrNull(item.title),
    consumer_id: consumerOfOwner(item.owner, str(item.workspace_id)),
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
    pinned: item.pinned === true,
  };
}

/**
 * How many conversations a filtered page reads at most: the page holds the matches among them, and
 * its cursor goes on from there (as the audit log's filtered pages, workspaces/activity.ts).
 */
const FILTERED_PAGE_READ = 1000;

/** How many conversations one search reads at most (`q`): a search is a bounded filter, continued by its cursor. */
const SEARCH_WINDOW = 500;

type ListQuery = Omit<QueryInput, 'limit' | 'startKey'>;

/** One page of the conversations that match `q` (title or user name, ignoring case) among the next `SEARCH_WINDOW` from the cursor. */
async function searchPage(deps: Deps, inputs: ListQuery[], query: ConversationListFilters, q: string) {
  // With the other filters too, at most the window is read (its Limit counts what the filters drop).
  const bounds = inputs[0]?.filter ? { maxRead: SEARCH_WINDOW } : {};
  const window = await readShardedPage<Item>(deps.table, inputs, { cursor: query.cursor, limit: SEARCH_WINDOW }, bounds);
  const needle = q.toLocaleLowerCase();
  const matches = window.items.filter((item) =>
    [item.title, item.user_name].some((text) => typeof text === 'string' && text.toLocaleLowerCase().includes(needle)),
  );
  const skip = query.cursor ? 0 : (query.offset ?? 0);
  const items = matches.slice(skip, skip + (query.limit ?? 50));
  const last = items.at(-1);
  const more = matches.length > skip + items.length;
  return { items, nextCursor: more && last ? window.cursorAfter(last) : window.nextCursor, total: matches.length };
}

/** The chat history's filters (`mine`, `pinned`): the caller's own, without those deleted from their history. */
function historyFilter(
  query: ConversationListFilters,
  viewer: Principal,
  scope: ConversationScope,
): Condition<typeof conversationEntity>[] {
  const parts: Condition<typeof conversationEntity>[] = [];
  if (query.mine === 'true') parts.push({ attr: 'user_id', eq: viewer.apiKey ? '' : viewer.userId });
  // A member's list is their history: what they deleted from it is gone from it.
  if (query.mine === 'true' || scope.kind === 'starter') parts.push({ attr: 'hidden_at', exists: false });
  if (query.pinned === 'true') parts.push({ attr: 'pinned', eq: true });
  if (query.pinned === 'false')
    parts.push({
      or: [
        { attr: 'pinned', exists: false },
        { attr: 'pinned', eq: false },
      ],
    });
  return parts;
}

/**
 * The filter of a list's Queries: each filter given, an equality on the conversation item. Every
 * conversation is listed whatever its status (entities.ts `conversationsOfWorkspace`): a status is
 * a filter, as a category is, so a question or a move writes one list entry. Open and cold
 * conversations are the newest there (closed by hand aside), and the closed ones most of the rest.
 */
function listFilter(query: ConversationListFilters, workspaceId: string, scope: ConversationScope, viewer: Principal) {
  const parts: Condition<typeof conversationEntity>[] = [...scopeFilter(scope), ...historyFilter(query, viewer, scope)];
  if (query.status !== undefined) parts.push({ attr: 'status', eq: query.status });
  if (query.category !== undefined) parts.push({ attr: 'category', eq: query.category });
  if (query.resolution !== undefined) parts.push({ attr: 'resolution_status', eq: query.resolution });
  // The console's questions are api ones whose owner is a person (`user:<id>`), not a key's consumer.
  if (query.consumer === 'console') parts.push({ attr: 'consumer_type', eq: 'api' }, { attr: 'owner', beginsWith: 'user:' });
  else if (query.consumer !== undefined) parts.push({ attr: 'consumer_type', eq: query.consumer });
  if (query.consumer_id !== undefined) parts.push({ attr: 'owner', eq: ownerOfConsumer(query.consumer_id, workspaceId) });
  if (!parts.length) return {};
  const { condition, names, values } = conditionOf(conversationEntity, { and: parts });
  return { filter: condition, names, values };
}

/**
 * `GET /api/workspaces/:id/conversations`: newest activity first, from `listings`, its shards merged (platform/list-shards.ts). Totals come from the
 * workspace's conversation counters when at most one filter is set, and then also end a filtered
 * page's reading once it has found them all; a combination of filters (or a consumer) is counted by
 * COUNT Queries over the workspace's conversations, alongside the page; a search counts its matches
 * among the conversations it read. Everything is read in one round, save a filtered page read on.
 */
export async function listConversations(deps: Deps, viewer: Principal, workspaceId: string, query: ConversationListFilters) {
  const orgId = viewer.orgId;
  // An admin's list and a key's are read in one round; a member's depends on the workspace's
  // setting (conversations/visibility.ts), read first.
  const own = closeScope(viewer);
  const scope = own.kind === 'starter' ? await readScope(deps, viewer, await getWorkspaceItem(deps, orgId, workspaceId)) : own;
  const filter = listFilter(query, workspaceId, scope, viewer);
  const inputs: ListQuery[] = conversationsOfWorkspace(orgId, workspaceId).map((input) => ({ ...input, ...filter }));
  const chosen: [ConversationDimension, string | undefined][] = [
    ['status', query.status],
    ['category', query.category],
    ['resolution', query.resolution],
    ['consumer', query.consumer],
  ];
  const active = chosen.filter((entry): entry is [ConversationDimension, string] => entry[1] !== undefined);
  // The workspace's counters count every conversation: a scoped list is counted by COUNT Queries.
  // Nor do they count the console's apart from the api's.
  const counted =
    scope.kind === 'all' &&
    query.consumer_id === undefined &&
    query.consumer !== 'console' &&
    query.mine === undefined &&
    query.pinned === undefined &&
    active.length <= 1;
  const counters = Promise.all([getWorkspaceItem(deps, orgId, workspaceId), readCounterItems(deps, orgId, workspaceId)]).then(([, items]) =>
    countersOf(items),
  );
  const counterTotal = counters.then((known) =>
    active[0] ? counterOf(known, counterNames.dimension(...active[0])) : counterOf(known, counterNames.conversations),
  );
  // Its failure is the counters' own, answered through them below.
  counterTotal.catch(() => undefined);
  const bounds = filter.filter ? { maxRead: FILTERED_PAGE_READ, matches: counted ? counterTotal : undefined } : {};
  const [known, page, total] = await Promise.all([
    counters,
    query.q === undefined ? readShardedPage<Item>(deps.table, inputs, query, bounds) : searchPage(deps, inputs, query, query.q),
    query.q !== undefined ? undefined : counted ? counterTotal : countShards(deps.table, inputs),
  ]);
  return {
    conversations: page.items.map(toConversation),
    total: 'total' in page && typeof page.total === 'number' ? page.total : (total ?? 0),
    next_cursor: page.nextCursor,
    filters: {
      status: [...CONVERSATION_STATUSES],
      consumer: [...LISTED_CONSUMERS],
      category: countsOf(known, 'category')
        .map(({ label }) => label)
        .sort(),
      resolution: [...RESOLUTION_STATUSES],
    },
  };
}
