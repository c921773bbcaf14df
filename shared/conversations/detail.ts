import type { Deps } from '../deps.js';
import { num, numOrNull, str } from '../platform/attributes.js';
import { NotFoundError } from '../platform/errors.js';
import { keys } from '../platform/keys.js';
import type { Item } from '../platform/table.js';
import { getWorkspaceItem } from '../workspaces/workspaces.js';
import { toConversation } from './list.js';
import type { Message } from './schemas.js';

function toMessage(item: Item): Message {
  return {
    id: str(item.id),
    seq: numOrNull(item.seq) ?? 0,
    role: item.role === 'assistant' ? 'assistant' : 'user',
    content: str(item.content),
    tools_called: typeof item.tools_called === 'string' ? item.tools_called : null,
    tokens_input: numOrNull(item.tokens_input),
    tokens_output: numOrNull(item.tokens_output),
    tokens:
      item.role === 'assistant'
        ? {
            input: num(item.tokens_input),
            output: num(item.tokens_output),
            cache_read: num(item.tokens_cache_read),
            cache_write: num(item.tokens_cache_write),
          }
        : null,
    cost_usd: numOrNull(item.cost_usd),
    duration_ms: numOrNull(item.duration_ms),
    created_at: str(item.created_at),
    // Counters kept by `recordFeedback`; absent until the first rating.
    feedback: { up: num(item.feedback_up), down: num(item.feedback_down) },
  };
}

/** `GET /api/workspaces/:id/conversations/:cid`: the conversation and its messages in one Query. */
export async function getConversation(deps: Deps, orgId: string, workspaceId: string, conversationId: string) {
  const [, items] = await Promise.all([
    getWorkspaceItem(deps, orgId, workspaceId),
    deps.table.queryAll({ pk: keys.conversationPartition(orgId, workspaceId, conversationId), consistent: true }),
  ]);
  const conversationItem = items.find((item) => item.sk === keys.conversationSortKey);
  if (!conversationItem) throw new NotFoundError(`conversation ${conversationId} not found`);
  const conversation = toConversation(conversationItem);
  const { sentiment_score, resolution_status, category, summary, total_cost_usd, stats_status } = conversation;
  return {
    conversation,
    messages: items.filter((item) => item.sk.startsWith(keys.messagePrefix)).map(toMessage),
    stats: { sentiment_score, resolution_status, category, summary, total_cost_usd, stats_status },
  };
}
