import {
  isOwnConversationId,
  conversationEntity,
  conversationKey,
  keptPendingEntry,
  listingEntry,
  outOf,
  pendingEntry,
  pendingEntryBroughtForward,
  pendingEntryTime,
  minutesAfter,
  conversationTitle,
  firstQuestion,
} from '../../conversations/index.js';
import { PutItemCommand } from 'dynamodb-toolbox/entity/actions/put';
import { $add, $get, $remove, UpdateItemCommand } from 'dynamodb-toolbox/entity/actions/update';
import type { Deps } from '../../deps.js';
import { ConflictError } from '../../platform/errors.js';
import { type Key, type UpdateInput, unlessConditionFailed } from '../../platform/table.js';
import { updateOf } from '../../platform/updates.js';
import type { WorkspaceItem } from '../../workspaces/index.js';
import { callerUserId, type Caller, type ConversationState } from './types.js';

/*
 * The conversation item's write when a query is saved (query/persist.ts): one conditional
 * UpdateItem that creates or reopens the conversation and hands out its messages' numbers. A typed
 * write (shared/platform/updates.ts): dynamodb-toolbox builds it from the item's schema, so
 * attribute names and value types are checked by the compiler, and `Table` sends it.
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

/**
 * The conversation item's UpdateItem: created or reopened as open, under two conditions: not
 * closed, and the caller's own (a conversation older than owners is claimed by its next query).
 * Every query sets its activity, index keys and next due time; only the query that creates the
 * conversation sets who and what it is (`$get`: if not there yet); the old `message_count` hands
 * out the messages' sequence numbers (`$add`); a cold conversation's move and cold time are over.
 */
export function conversationUpdate(
  saved: ClaimedQuery,
  at: string,
  coldAt: Date,
  /** `DUE_INDEX_SHARDS`. */
  dueShards: number,
  expectedCount?: number,
): { key: Key; input: UpdateInput } {
  const { set, initial, added } = conversationValues(saved, at, coldAt, dueShards);
  const { caller } = saved;
  const command = conversationEntity
    .build(UpdateItemCommand)
    .item({
      ...set,
      // Open: out of the cold conversations' due index.
      ...outOf('closes'),
      // Its due entry stays where an earlier question put it (the sweep moves it when it finds it early).
      ...keptPendingEntry(set),
      // Who and what it is: only if not there yet.
      id: $get('id', initial.id),
      workspace_id: $get('workspace_id', initial.workspace_id),
      org_id: $get('org_id', initial.org_id),
      consumer_type: $get('consumer_type', initial.consumer_type),
      user_name: $get('user_name', initial.user_name),
      title: $get('title', initial.title),
      channel: $get('channel', initial.channel),
      first_message_at: $get('first_message_at', initial.first_message_at),
      stats_status: $get('stats_status', initial.stats_status),
      owner: $get('owner', initial.owner),
      user_id: initial.user_id === undefined ? undefined : $get('user_id', initial.user_id),
      chat_channel_id: initial.chat_channel_id === undefined ? undefined : $get('chat_channel_id', initial.chat_channel_id),
      chat_thread_ts: initial.chat_thread_ts === undefined ? undefined : $get('chat_thread_ts', initial.chat_thread_ts),
      message_count: $add(added.message_count),
      total_cost_usd: $add(added.total_cost_usd),
      moved_by: $remove(),
      cold_at: $remove(),
    })
    .options({
      condition: {
        and: [
          {
            or: [
              { attr: 'pk', exists: false },
              { attr: 'status', ne: 'closed' },
            ],
          },
          {
            or: [
              { attr: 'owner', exists: false },
              { attr: 'owner', eq: caller.owner },
            ],
          },
          // A follow-up claimed as it was read: nobody has added messages since (claimAsRead).
          ...(expectedCount === undefined ? [] : [{ attr: 'message_count', eq: expectedCount } as const]),
        ],
      },
    });
  return updateOf(command);
}

/**
 * What a query writes of the conversation item: `set` by every query (its activity, index keys and
 * next due time), `initial` only by the query that creates it (who and what it is), `added` to what
 * is there (message count and cost).
 */
function conversationValues(saved: ClaimedQuery, at: string, coldAt: Date, dueShards: number) {
  const { caller, workspace, conversationId } = saved;
  const chat = caller.chat;
  const set = {
    ...conversationKey(workspace.org_id, workspace.id, conversationId),
    status: 'open' as const,
    last_activity_at: at,
    ...listingEntry(workspace.org_id, workspace.id, conversationId, at),
    due_at: coldAt.toISOString(),
    // At the cold timeout from now even when the move is planned later (a query paused for an
    // approval): the lazy entry stays no later than any move a next query plans, so that query
    // need not bring it forward (keepDueEntryInTime); the sweep moves it if it comes first.
    ...pendingEntry('open', workspace.id, conversationId, minutesAfter(at, workspace.cold_timeout_minutes), dueShards),
  };
  const initial = {
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
    user_id: callerUserId(caller) ?? undefined,
    chat_channel_id: chat?.channelId,
    chat_thread_ts: chat?.threadTs,
  };
  const added = {
    message_count: saved.resumed ? (saved.answered ? 1 : 0) : saved.history.length + (saved.answered ? 2 : 1),
    // A resumed query adds what it spent since it paused.
    total_cost_usd: saved.costUsd - (saved.resumed?.counted.costUsd ?? 0),
  };
  return { set, initial, added };
}

/**
 * The conversation item of a conversation the query started (`FinishedQuery.fresh`, under an id
 * made for it): what `conversationUpdate` makes of no item, put in the batch of its messages, so
 * the query's writes are one store call fewer. Typed by the same entity.
 */
export function freshConversationItem(saved: ClaimedQuery, at: string, coldAt: Date, dueShards: number): Key & Record<string, unknown> {
  const { set, initial, added } = conversationValues(saved, at, coldAt, dueShards);
  const { Item } = conversationEntity
    .build(PutItemCommand)
    .item({ ...set, ...initial, ...added })
    .params();
  return { ...(Item as Record<string, unknown>), pk: set.pk, sk: set.sk };
}

/**
 * The lazy due entry is never later than the move it stands for: it stays where an earlier
 * question put it, which is earlier, unless the workspace's cold timeout was shortened since.
 * Then (and only then: a second write) it is brought forward to this query's due time.
 */
async function keepDueEntryInTime(deps: Deps, key: Key, previous: ConversationState | undefined, coldAt: Date): Promise<void> {
  const due = coldAt.toISOString();
  const standing = pendingEntryTime(previous);
  if (!standing || standing <= due) return;
  const forward = pendingEntryBroughtForward(key, due);
  await unlessConditionFailed(deps.table.update(forward.key, forward.input), undefined);
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
  const { key, input } = conversationUpdate(saved, at, coldAt, deps.config.dueIndexShards);
  const claimed = await unlessConditionFailed(
    deps.table.updateReturningOld<ConversationState>(key, input).then((previous) => ({ previous })),
    null,
  );
  if (claimed) {
    await keepDueEntryInTime(deps, key, claimed.previous, coldAt);
    return claimed;
  }
  const { caller, conversationId } = saved;
  const current = await deps.table.get<ConversationState>(key, true);
  if (current?.owner && current.owner !== caller.owner && !isOwnConversationId(conversationId, caller.owner)) return 'taken';
  throw new ConflictError(`conversation ${conversationId} was closed while the query ran`);
}

/**
 * The claim of a follow-up on its conversation as the query read it (query/persist-follow-up.ts):
 * the same write, also conditioned on the message count read, so that the messages can be written
 * under the numbers that follow it in the same round of store calls. Returns the item as it was
 * before, or `changed` when the condition did not hold: another query added messages since, the
 * conversation was closed, or (for one older than owners) someone else claimed it.
 */
export async function claimAsRead(
  deps: Deps,
  saved: ClaimedQuery,
  at: string,
  coldAt: Date,
  expectedCount: number,
): Promise<{ previous: ConversationState | undefined } | 'changed'> {
  const { key, input } = conversationUpdate(saved, at, coldAt, deps.config.dueIndexShards, expectedCount);
  const claimed = await unlessConditionFailed(
    deps.table.updateReturningOld<ConversationState>(key, input).then((previous) => ({ previous })),
    'changed' as const,
  );
  if (claimed !== 'changed') await keepDueEntryInTime(deps, key, claimed.previous, coldAt);
  return claimed;
}
