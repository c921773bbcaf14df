import { conversationKeys } from '../../conversations/keys.js';
import { isOwnConversationId, ownConversationId } from '../../conversations/owners.js';
import { violationItems, type GuardrailHit } from '../../guardrails/enforcement.js';
import { dueIndex, minutesAfter, scheduleMove } from '../../conversations/lifecycle.js';
import type { Deps } from '../../deps.js';
import { ConflictError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { keys } from '../../platform/keys.js';
import { isConditionFailed, type Item } from '../../platform/table.js';
import { counterNames, recordUsage } from '../../workspaces/counters.js';
import type { WorkspaceItem } from '../../workspaces/workspaces.js';
import type { LoopResult } from '../loop.js';
import { totalInput } from '../model.js';
import type { Caller, ConversationState } from './types.js';

/*
 * Saving a query: the conversation item, its messages, the audit entry, violations and counters,
 * in two rounds of store calls.
 */

/**
 * Saves a query: first the conversation item (created or updated in one conditional UpdateItem,
 * which also hands out the message sequence numbers atomically), then in parallel the messages
 * and the audit entry (one BatchWriteItem) and the usage counters (day item and workspace item).
 */
export async function persistQuery(
  deps: Deps,
  caller: Caller,
  workspace: WorkspaceItem,
  conversationId: string,
  asked: { query: string; history: { role: 'user' | 'assistant'; content: string }[]; hits: GuardrailHit[] },
  loop: LoopResult,
  costUsd: number,
  durationMs: number,
  answered: boolean,
): Promise<string> {
  const { query, history, hits } = asked;
  const now = deps.clock.now();
  const at = now.toISOString();
  const messageCount = history.length + (answered ? 2 : 1);
  const indexKey = `${at}#${conversationId}`;
  const coldAt = minutesAfter(now, workspace.cold_timeout_minutes);
  const due = dueIndex('open', workspace.id, conversationId, coldAt);
  let previous: ConversationState | undefined;
  try {
    previous = await deps.table.updateReturningOld<ConversationState>(conversationKeys.conversation(workspace.id, conversationId), {
      update: [
        'SET #status = :open, #last = :now, #g1pk = :g1pk, #g1sk = :gsk, #g2pk = :g2pk, #g2sk = :gsk',
        '#id = if_not_exists(#id, :id), #ws = if_not_exists(#ws, :ws), #org = if_not_exists(#org, :org)',
        '#consumer = if_not_exists(#consumer, :consumer), #user = if_not_exists(#user, :user)',
        '#channel = if_not_exists(#channel, :channel), #first = if_not_exists(#first, :now)',
        '#stats = if_not_exists(#stats, :pending), #due = :due, #g3pk = :g3pk, #g3sk = :g3sk, #owner = if_not_exists(#owner, :owner)',
        ...(caller.chat ? ['#chatChannel = if_not_exists(#chatChannel, :chatChannel), #chatThread = if_not_exists(#chatThread, :chatThread)'] : []),
      ].join(', ') + ' ADD #count :count, #cost :cost REMOVE #moved, #coldAt',
      // Not closed, and the caller's own (a conversation older than owners is claimed by its next query).
      condition: '(attribute_not_exists(pk) OR #status <> :closed) AND (attribute_not_exists(#owner) OR #owner = :owner)',
      names: {
        '#status': 'status',
        '#last': 'last_activity_at',
        '#g1pk': 'gsi1pk',
        '#g1sk': 'gsi1sk',
        '#g2pk': 'gsi2pk',
        '#g2sk': 'gsi2sk',
        '#id': 'id',
        '#ws': 'workspace_id',
        '#org': 'org_id',
        '#consumer': 'consumer_type',
        '#user': 'user_name',
        '#channel': 'channel',
        '#first': 'first_message_at',
        '#stats': 'stats_status',
        '#count': 'message_count',
        '#cost': 'total_cost_usd',
        '#due': 'due_at',
        '#g3pk': 'gsi3pk',
        '#g3sk': 'gsi3sk',
        '#moved': 'moved_by',
        '#coldAt': 'cold_at',
        '#owner': 'owner',
        ...(caller.chat ? { '#chatChannel': 'chat_channel_id', '#chatThread': 'chat_thread_ts' } : {}),
      },
      values: {
        ':open': 'open',
        ':closed': 'closed',
        ':now': at,
        ':g1pk': keys.conversationsIndex(workspace.id),
        ':g2pk': keys.conversationsByStatusIndex(workspace.id, 'open'),
        ':gsk': indexKey,
        ':id': conversationId,
        ':ws': workspace.id,
        ':org': caller.orgId,
        ':consumer': caller.consumerType,
        ':user': caller.userName,
        ':channel': caller.channel,
        ':owner': caller.owner,
        ':pending': 'pending',
        ':count': messageCount,
        ':cost': costUsd,
        ':due': coldAt.toISOString(),
        ':g3pk': due.gsi3pk,
        ':g3sk': due.gsi3sk,
        ...(caller.chat ? { ':chatChannel': caller.chat.channelId, ':chatThread': caller.chat.threadTs } : {}),
      },
    });
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    const current = await deps.table.get<ConversationState>(conversationKeys.conversation(workspace.id, conversationId), true);
    if (current?.owner && current.owner !== caller.owner && !isOwnConversationId(conversationId, caller.owner)) {
      // Someone else started a conversation under this id while the query ran: it becomes the caller's own.
      return persistQuery(deps, caller, workspace, ownConversationId(conversationId, caller.owner), asked, loop, costUsd, durationMs, answered);
    }
    throw new ConflictError(`conversation ${conversationId} was closed while the query ran`);
  }
  const historySeq = (previous?.message_count ?? 0) + 1;
  const firstSeq = historySeq + history.length;
  const message = (seq: number, role: 'user' | 'assistant', content: string): Item => ({
    ...conversationKeys.message(workspace.id, conversationId, seq),
    id: newId('msg', now),
    seq,
    role,
    content,
    tools_called: null,
    tokens_input: null,
    tokens_output: null,
    cost_usd: null,
    duration_ms: null,
    created_at: at,
  });
  const items: Item[] = history.map((entry, index) => message(historySeq + index, entry.role, entry.content));
  items.push(message(firstSeq, 'user', query));
  if (answered) {
    items.push({
      ...message(firstSeq + 1, 'assistant', loop.answer),
      tools_called: JSON.stringify(loop.toolsCalled),
      tokens_input: totalInput(loop.usage),
      tokens_output: loop.usage.output,
      cost_usd: costUsd,
      duration_ms: durationMs,
    });
  }
  const activityId = newId('act', now);
  items.push({
    pk: keys.activityPartition(workspace.id),
    sk: `${at}#${activityId}`,
    id: activityId,
    conversation_id: conversationId,
    user_name: caller.userName,
    query,
    tools_called: loop.toolsCalled,
    connections_hit: loop.connectionsHit,
    tokens_input: totalInput(loop.usage),
    tokens_output: loop.usage.output,
    cost_usd: costUsd,
    duration_ms: durationMs,
    error: loop.error,
    created_at: at,
  });
  items.push(...violationItems(deps, workspace.id, conversationId, hits));
  const conversationDeltas: Record<string, number> = hits.length ? { violations: hits.length } : {};
  if (!previous) {
    conversationDeltas[counterNames.conversations] = 1;
    conversationDeltas[counterNames.dimension('status', 'open')] = 1;
    conversationDeltas[counterNames.dimension('consumer', caller.consumerType)] = 1;
    if (caller.channel) conversationDeltas[counterNames.dimension('channel', caller.channel)] = 1;
  } else if (previous.status === 'cold') {
    conversationDeltas[counterNames.dimension('status', 'cold')] = -1;
    conversationDeltas[counterNames.dimension('status', 'open')] = 1;
  }
  await Promise.all([
    deps.table.batchPut(items),
    // The next move: cold after cold_timeout_minutes without activity (replaces the pending one).
    scheduleMove(deps, caller.orgId, { workspaceId: workspace.id, conversationId, move: 'cold', lastActivityAt: at }, coldAt),
    recordUsage(
      deps,
      workspace.id,
      {
        queries: 1,
        errors: loop.error ? 1 : 0,
        duration_ms: durationMs,
        cost_usd: costUsd,
        tokens_input: totalInput(loop.usage),
        tokens_output: loop.usage.output,
      },
      now,
      conversationDeltas,
    ),
  ]);
  return conversationId;
}
