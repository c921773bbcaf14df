import { putNew } from '../../platform/updates.js';
import type { Deps } from '../../deps.js';
import type { Item } from '../../platform/table.js';
import { unlessConditionFailed } from '../../platform/table.js';
import { messageIs } from '../../conversations/index.js';
import { addWorkspaceCounters, recordUsage } from '../../workspaces/index.js';
import { claimAsRead, claimConversation } from './claim.js';
import {
  conversationDeltas,
  itemsOf,
  messageItems,
  savedOf,
  scheduleCold,
  timesOf,
  usageOf,
  type FinishedQuery,
  type SavedQuery,
} from './persist-items.js';
import type { ConversationState } from './types.js';

/*
 * A follow-up saved in one round of store calls. The query read its conversation (message count,
 * status) in its first round, so it writes everything at once as if nothing had changed since:
 * the conversation's claim on condition that its message count is still the one read, each message
 * under the number that follows on condition that nobody wrote there, the audit entry, the next
 * move and the counters as the status read moves them. When something did change (another query on
 * the same conversation, a move), the claim or a message is refused and a second round sets it
 * right:
 *
 * - The claim held: the numbers are this query's. A message refused there was put by a query whose
 *   claim failed, which takes it back; it is overwritten.
 * - The claim was refused: the messages this query put are taken back (only while they are still
 *   its own, by id: the query whose claim held may have overwritten them), the conversation is
 *   claimed as any named one is (closed: 409), and the messages are put under the numbers it hands
 *   out.
 * - Either way, a status other than the one read corrects the conversation counters by the
 *   difference.
 */

/**
 * Puts each message unless an item has its key. Answers the messages refused.
 */
async function putWhereFree(deps: Deps, messages: Item[]): Promise<Item[]> {
  const put = await Promise.all(messages.map((message) => putNew(deps.table, message)));
  return messages.filter((_, index) => !put[index]);
}

/** Deletes each message while it is still this query's own (its id), and not when another has replaced it. */
async function takeBack(deps: Deps, messages: Item[]): Promise<void> {
  await Promise.all(
    messages.map((message) =>
      unlessConditionFailed(deps.table.delete({ pk: message.pk, sk: message.sk }, messageIs(String(message.id))), null),
    ),
  );
}

/** The conversation counters moved as if the status had been `assumed`, set right for the `actual` one. */
async function correctCounters(deps: Deps, saved: FinishedQuery, assumed: ConversationState, actual: ConversationState): Promise<void> {
  const wrong = conversationDeltas(saved, assumed);
  const right = conversationDeltas(saved, actual);
  const correction: Record<string, number> = {};
  for (const name of new Set([...Object.keys(wrong), ...Object.keys(right)])) {
    const difference = (right[name] ?? 0) - (wrong[name] ?? 0);
    if (difference !== 0) correction[name] = difference;
  }
  if (Object.keys(correction).length) await addWorkspaceCounters(deps, saved.workspace.org_id, saved.workspace.id, correction);
}

export async function persistFollowUp(deps: Deps, saved: FinishedQuery & { read: ConversationState }): Promise<SavedQuery> {
  const { workspace, read } = saved;
  const { now, at, coldAt } = timesOf(deps, saved);
  const readCount = read.message_count ?? 0;
  const { messages, others, activity } = itemsOf(deps, saved, now, readCount);
  const [claim, refused] = await Promise.all([
    claimAsRead(deps, saved, at, coldAt, readCount),
    putWhereFree(deps, messages),
    deps.table.batchPut(others),
    scheduleCold(deps, saved, at, coldAt, read),
    recordUsage(deps, workspace.org_id, workspace.id, usageOf(saved), now, conversationDeltas(saved, read)),
  ]);
  if (claim !== 'changed') {
    await Promise.all([refused.length ? deps.table.batchPut(refused) : null, correctCounters(deps, saved, read, claim.previous ?? {})]);
    return savedOf(deps, saved, activity, readCount);
  }
  const [claimed] = await Promise.all([
    claimConversation(deps, saved, at, coldAt).catch(async (error: unknown) => {
      // Closed since it was read: the query stays counted and audited, the conversation counters do not move.
      await correctCounters(deps, saved, read, { ...read, status: 'closed' });
      return { error };
    }),
    takeBack(
      deps,
      messages.filter((message) => !refused.includes(message)),
    ),
  ]);
  if (typeof claimed === 'object' && 'error' in claimed) throw claimed.error;
  // The conversation was read as the caller's own, and an owner never changes.
  if (claimed === 'taken') throw new Error(`conversation ${saved.conversationId} changed owner`);
  const previousCount = claimed.previous?.message_count ?? 0;
  await Promise.all([
    deps.table.batchPut(messageItems(saved, now, previousCount)),
    correctCounters(deps, saved, read, claimed.previous ?? {}),
  ]);
  return savedOf(deps, saved, activity, previousCount);
}
