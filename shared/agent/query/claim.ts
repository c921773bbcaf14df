import { isOwnConversationId } from '../../conversations/owners.js';
import { dueIndex } from '../../conversations/lifecycle.js';
import { conversationTitle, firstQuestion } from '../../conversations/title.js';
import type { Deps } from '../../deps.js';
import { ConflictError } from '../../platform/errors.js';
import { keys } from '../../platform/keys.js';
import { type Key, type UpdateInput, unlessConditionFailed } from '../../platform/table.js';
import type { WorkspaceItem } from '../../workspaces/workspaces.js';
import type { Caller, ConversationState } from './types.js';

/*
 * The conversation item's write when a query is saved (query/persist.ts): one conditional
 * UpdateItem that creates or reopens the conversation and hands out its messages' numbers.
 */

/** What the claim needs of a finished query (`FinishedQuery` of query/persist.ts). */
export interface ClaimedQuery {
  caller: Caller;
  workspace: WorkspaceItem;
  conversationId: string;
  history: unknown[];
  /** The question (as screened): the conversation's title when the query starts it (with no history). */
  query: string;
  answered: boolean;
  costUsd: number;
  resumed?: { counted: { costUsd: number } };
}

/** The attributes of the conversation item (`CONV#…` / `STATE`) a query writes, by how it writes them. */
interface ConversationWrite {
  /** Set by every query: open again, its activity, its index keys and next due time. */
  set: {
    status: 'open';
    last_activity_at: string;
    gsi1pk: string;
    gsi1sk: string;
    gsi2pk: string;
    gsi2sk: string;
    due_at: string;
    gsi3pk: string;
    gsi3sk: string;
  };
  /** Set only by the query that creates the conversation (`if_not_exists`). */
  once: {
    id: string;
    workspace_id: string;
    org_id: string;
    consumer_type: Caller['consumerType'];
    user_name: string;
    /** The first question, cut to 120 characters (`conversations/title.ts`). */
    title: string;
    channel: string | null;
    first_message_at: string;
    stats_status: 'pending';
    owner: string;
    chat_channel_id?: string;
    chat_thread_ts?: string;
  };
  /** Added to atomically: the old `message_count` hands out the messages' sequence numbers. */
  add: { message_count: number; total_cost_usd: number };
  /** Open again: a cold conversation's move and cold time are over. */
  remove: ['moved_by', 'cold_at'];
}

function conversationWrite(saved: ClaimedQuery, at: string, coldAt: Date): ConversationWrite {
  const { caller, workspace, conversationId } = saved;
  const indexKey = keys.timeOrdered(at, conversationId);
  const chat = caller.chat;
  return {
    set: {
      status: 'open',
      last_activity_at: at,
      gsi1pk: keys.conversationsIndex(workspace.org_id, workspace.id),
      gsi1sk: indexKey,
      gsi2pk: keys.conversationsByStatusIndex(workspace.org_id, workspace.id, 'open'),
      gsi2sk: indexKey,
      due_at: coldAt.toISOString(),
      ...dueIndex('open', workspace.org_id, workspace.id, conversationId, coldAt),
    },
    once: {
      id: conversationId,
      workspace_id: workspace.id,
      org_id: caller.orgId,
      consumer_type: caller.consumerType,
      user_name: caller.userName,
      title: conversationTitle(firstQuestion(saved.history, saved.query)),
      channel: caller.channel,
      first_message_at: at,
      stats_status: 'pending',
      owner: caller.owner,
      ...(chat ? { chat_channel_id: chat.channelId, chat_thread_ts: chat.threadTs } : {}),
    },
    add: {
      message_count: saved.resumed ? (saved.answered ? 1 : 0) : saved.history.length + (saved.answered ? 2 : 1),
      // A resumed query adds what it spent since it paused.
      total_cost_usd: saved.costUsd - (saved.resumed?.counted.costUsd ?? 0),
    },
    remove: ['moved_by', 'cold_at'],
  };
}

/**
 * The conversation item's UpdateItem: created or reopened as open, under two conditions: not
 * closed, and the caller's own (a conversation older than owners is claimed by its next query).
 * Written out here rather than built by dynamodb-toolbox from an entity schema, as the job
 * ledger's writes are: the query makes it every time, and toolbox took 0.23 ms to build it.
 * `test/unit/claim.test.ts` checks it against toolbox's build from the entity, case by case, on
 * the embedded store.
 */
export function conversationUpdate(saved: ClaimedQuery, at: string, coldAt: Date): { key: Key; input: UpdateInput } {
  const write = conversationWrite(saved, at, coldAt);
  const names: Record<string, string> = { '#pk': 'pk', '#status': 'status', '#owner': 'owner' };
  const values: Record<string, unknown> = { ':closed': 'closed', ':caller': saved.caller.owner };
  let count = 0;
  const token = (name: string, value: unknown) => {
    count += 1;
    names[`#a${count}`] = name;
    values[`:v${count}`] = value;
    return [`#a${count}`, `:v${count}`] as const;
  };
  const sets = Object.entries(write.set).map(([name, value]) => token(name, value).join(' = '));
  for (const [name, value] of Object.entries(write.once)) {
    const [attribute, placeholder] = token(name, value);
    sets.push(`${attribute} = if_not_exists(${attribute}, ${placeholder})`);
  }
  const adds = Object.entries(write.add).map(([name, value]) => token(name, value).join(' '));
  const removes = write.remove.map((name, index) => {
    names[`#r${index}`] = name;
    return `#r${index}`;
  });
  return {
    key: keys.conversation(saved.workspace.org_id, saved.workspace.id, saved.conversationId),
    input: {
      update: `SET ${sets.join(', ')} ADD ${adds.join(', ')} REMOVE ${removes.join(', ')}`,
      condition: '(attribute_not_exists(#pk) OR #status <> :closed) AND (attribute_not_exists(#owner) OR #owner = :caller)',
      names,
      values,
    },
  };
}

/**
 * Writes the conversation item (one conditional UpdateItem). Returns the item as it was before
 * (undefined for a new conversation), or `taken` when someone else started a conversation under
 * this id while the query ran.
 */
export async function claimConversation(
  deps: Deps,
  saved: ClaimedQuery,
  at: string,
  coldAt: Date,
): Promise<{ previous: ConversationState | undefined } | 'taken'> {
  const { key, input } = conversationUpdate(saved, at, coldAt);
  const claimed = await unlessConditionFailed(
    deps.table.updateReturningOld<ConversationState>(key, input).then((previous) => ({ previous })),
    null,
  );
  if (claimed) return claimed;
  const { caller, conversationId } = saved;
  const current = await deps.table.get<ConversationState>(key, true);
  if (current?.owner && current.owner !== caller.owner && !isOwnConversationId(conversationId, caller.owner)) return 'taken';
  throw new ConflictError(`conversation ${conversationId} was closed while the query ran`);
}

/** The claim of a conversation the query named, which runs alongside the other writes (`FinishedQuery.fresh`). */
export async function claimedFresh(claiming: ReturnType<typeof claimConversation>, conversationId: string): Promise<void> {
  // Only an id made twice could find someone else's item here.
  if ((await claiming) === 'taken') throw new ConflictError(`conversation ${conversationId} already exists`);
}
