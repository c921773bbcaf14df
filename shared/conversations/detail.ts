import type { Principal } from '../auth/index.js';
import type { Deps } from '../deps.js';
import { num, numOrNull, str, strOrNull } from '../platform/attributes.js';
import type { Item } from '../platform/table.js';
import { getWorkspaceItem } from '../workspaces/index.js';
import { CONVERSATION_SORT_KEY, conversationWithMessages } from './entities.js';
import { toConversation } from './list.js';
import { currentMessages } from './messages.js';
import { closeScope, conversationNotFound, inScope, readScope } from './visibility.js';
import type { Message } from './schemas.js';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** The calls an answer kept (none on a question, or on an answer stored before they were kept). */
function toolCallsOf(value: unknown): Message['tool_calls'] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).map((call) => ({
    id: str(call.id),
    name: str(call.name),
    connection: strOrNull(call.connection),
    arguments: str(call.arguments),
    result: str(call.result),
    is_error: call.is_error === true,
    duration_ms: num(call.duration_ms),
  }));
}

/** The knowledge passages an answer cites (none on a question, or on an answer that cites none). */
function citationsOf(value: unknown): Message['citations'] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).map((citation) => ({
    n: num(citation.n),
    document_id: str(citation.document_id),
    title: str(citation.title),
    section: str(citation.section),
  }));
}

function toMessage(item: Item): Message {
  return {
    id: str(item.id),
    seq: numOrNull(item.seq) ?? 0,
    role: item.role === 'assistant' ? 'assistant' : 'user',
    content: str(item.content),
    tools_called: typeof item.tools_called === 'string' ? item.tools_called : null,
    tool_calls: toolCallsOf(item.tool_calls),
    stopped: item.stopped === true,
    citations: citationsOf(item.citations),
    // Set by a query that paused; its answer, once decided, follows it (`awaitingUntilAnswered`).
    awaiting_approval: item.role !== 'assistant' && item.awaiting_approval === true,
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

/** A question waits for an approval only until its answer follows it. */
const awaitingUntilAnswered = (messages: Message[]) =>
  messages.map((message, index) =>
    message.awaiting_approval && messages[index + 1]?.role === 'assistant' ? { ...message, awaiting_approval: false } : message,
  );

/**
 * `GET /api/workspaces/:id/conversations/:cid`: the conversation and its messages in one Query, and
 * whether the caller may close it (so the console offers only what the API allows).
 */
export async function getConversation(deps: Deps, viewer: Principal, workspaceId: string, conversationId: string) {
  const orgId = viewer.orgId;
  const [workspace, items] = await Promise.all([
    getWorkspaceItem(deps, orgId, workspaceId),
    deps.table.queryAll(conversationWithMessages(orgId, workspaceId, conversationId)),
  ]);
  const conversationItem = items.find((item) => item.sk === CONVERSATION_SORT_KEY);
  if (!conversationItem || !inScope(await readScope(deps, viewer, workspace), conversationItem)) throw conversationNotFound(conversationId);
  const conversation = toConversation(conversationItem);
  const { sentiment_score, resolution_status, category, summary, total_cost_usd, stats_status } = conversation;
  return {
    conversation,
    // Numbered past the count: a follow-up's message being saved, or one a refused follow-up left (agent/query/persist-follow-up.ts).
    messages: awaitingUntilAnswered(
      currentMessages(items, numOrNull(conversationItem.message_count) ?? Number.POSITIVE_INFINITY).map(toMessage),
    ),
    stats: { sentiment_score, resolution_status, category, summary, total_cost_usd, stats_status },
    can_close: conversation.status !== 'closed' && inScope(closeScope(viewer), conversationItem),
  };
}
