import { ownConversationId } from '../../conversations/index.js';
import type { Deps } from '../../deps.js';
import { NO_USAGE } from '../../models/index.js';
import { recordUsage } from '../../workspaces/index.js';
import { claimConversation, freshConversationItem } from './claim.js';
import { persistFollowUp } from './persist-follow-up.js';
import {
  activityItem,
  conversationDeltas,
  itemsOf,
  savedOf,
  scheduleCold,
  timesOf,
  usageOf,
  type FinishedQuery,
  type SavedQuery,
} from './persist-items.js';

export type { ApprovalRecord, CountedSoFar, FinishedQuery, SavedQuery } from './persist-items.js';

/*
 * Saving a query: the conversation item (query/claim.ts), its messages, the audit entry, violations
 * and counters (query/persist-items.ts), in one round of store calls for a conversation the query
 * started or a follow-up on one it read (query/persist-follow-up.ts), two otherwise.
 */

/**
 * Saves a query. A follow-up on a conversation the query read (`read`) claims it as read, alongside
 * the other writes (query/persist-follow-up.ts). Otherwise the conversation item comes first
 * (created or updated in one conditional UpdateItem, which also hands out the message sequence
 * numbers atomically), then in parallel the messages and the audit entry (one BatchWriteItem), the
 * next move and the usage counters. A conversation the query started (`fresh`) has its item put
 * in that same BatchWriteItem. Returns the conversation's id (the caller's own one when someone
 * else took the id meanwhile) and the sequence number of the answer's message, if there is one.
 */
export async function persistQuery(deps: Deps, saved: FinishedQuery): Promise<SavedQuery> {
  if (saved.read && !saved.fresh && !saved.resumed) return persistFollowUp(deps, { ...saved, read: saved.read });
  const { caller, workspace, conversationId } = saved;
  const { now, at, coldAt } = timesOf(deps, saved);
  // A conversation this query started, under an id made for it, has no item yet (no previous count,
  // status or owner): its item is put in the batch of its messages, one store call and round fewer.
  const claim = saved.fresh ? { previous: undefined } : await claimConversation(deps, saved, at, coldAt);
  if (claim === 'taken') {
    // Someone else started a conversation under this id while the query ran: it becomes the caller's own.
    return persistQuery(deps, { ...saved, conversationId: ownConversationId(conversationId, caller.owner) });
  }
  const { previous } = claim;
  const previousCount = previous?.message_count ?? 0;
  const { messages, others, activity } = itemsOf(deps, saved, now, previousCount);
  const conversation = saved.fresh ? [freshConversationItem(saved, at, coldAt, deps.config.dueIndexShards)] : [];
  await Promise.all([
    deps.table.batchPut([...conversation, ...messages, ...others]),
    scheduleCold(deps, saved, at, coldAt, previous),
    recordUsage(deps, workspace.org_id, workspace.id, usageOf(saved), now, conversationDeltas(saved, previous)),
  ]);
  return savedOf(deps, saved, activity, previousCount);
}

/**
 * A question a budget refused before it ran (the 402): its audit entry, with the refusal as its
 * error and nothing spent, counted as a query that failed, so Activity and its CSV show it. It
 * starts no conversation: the entry links one only when the question continued it (`continued`).
 */
export async function auditRefusal(
  deps: Deps,
  refused: Pick<FinishedQuery, 'caller' | 'workspace' | 'conversationId' | 'query'> & { continued: boolean },
  error: string,
): Promise<void> {
  const now = deps.clock.now();
  const loop = { answer: '', toolsCalled: [], connectionsHit: [], usage: NO_USAGE, modelMs: 0, toolMs: 0, rounds: 0, error };
  const saved: FinishedQuery = { ...refused, history: [], hits: [], loop, costUsd: 0, durationMs: 0, answered: false };
  const entry = { ...activityItem(saved, now), conversation_id: refused.continued ? refused.conversationId : null };
  await Promise.all([
    deps.table.put(entry),
    recordUsage(deps, refused.workspace.org_id, refused.workspace.id, { queries: 1, errors: 1 }, now),
  ]);
}
