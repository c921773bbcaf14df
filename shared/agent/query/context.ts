import {
  CONVERSATION_SORT_KEY,
  conversationNewestFirst,
  currentMessages,
  lastTurnOf,
  ownConversationId,
} from '../../conversations/index.js';
import { loadPatternEngine } from '../../guardrails/index.js';
import { type KnowledgeItem, isIndexManifest, isKnowledgeItem, manifestOf } from '../../knowledge/index.js';
import { readModelSettings } from '../../org/index.js';
import { budgetsKey, budgetsOf } from '../../budgets/index.js';
import { monthOf } from '../../platform/clock.js';
import { countersOf, workspaceWithChildren, isCounterItem, monthCounterKeys, assertServing } from '../../workspaces/index.js';
import type { Deps } from '../../deps.js';
import type { Item } from '../../platform/table.js';
import { workspaceToolsOf } from '../../connections/index.js';
import { CONTEXT_MESSAGES, type Caller, type ConversationState } from './types.js';

/*
 * What a query reads before it runs, in one parallel round: the workspace with its connections and
 * tools, the conversation with its latest messages, the model settings, and the rate count.
 */

/**
 * Counts the organisation's query in a per-minute window and refuses it with 429 once the window
 * holds more than the limit, before anything is read (`platform/request-rate.ts`: counted in the
 * store for every process, added at most once a second per process, so no partition takes a
 * write per query). Answers the add when this query made one, to be waited for with the reads.
 */
export function admitQuery(deps: Deps, orgId: string): Promise<void> | undefined {
  const limit = deps.config.queryRateLimitPerMinute;
  return deps.requestRate.admit(`queries:${orgId}`, limit, `too many queries: this organisation may run ${limit} a minute`);
}

/**
 * A conversation's item, its latest messages shown (oldest first) and its last turn (what a
 * regenerate or an edit replaces), in one newest-first Query.
 */
export async function loadConversation(deps: Deps, orgId: string, workspaceId: string, conversationId: string) {
  const page = await deps.table.query(conversationNewestFirst(orgId, workspaceId, conversationId, CONTEXT_MESSAGES + 1));
  const state = page.items.find((item) => item.sk === CONVERSATION_SORT_KEY) as (Item & ConversationState) | undefined;
  const count = state?.message_count ?? Number.POSITIVE_INFINITY;
  const shown = currentMessages(page.items, count);
  const messages = shown
    // The latest, as many as one message an item read (a question and its answer are one item).
    .slice(-CONTEXT_MESSAGES)
    .map((item) => ({ role: item.role === 'assistant' ? ('assistant' as const) : ('user' as const), content: String(item.content ?? '') }));
  return { state, messages, lastTurn: lastTurnOf(page.items, shown, count) };
}

/** No conversation stored yet: what `loadConversation` finds for an id nobody has used. */
const noConversation = () => ({ state: undefined, messages: [], lastTurn: undefined });

/**
 * What a query reads, in one parallel round. A conversation whose id the query has just made
 * (`isNew`: no `session_id` was given) cannot have anything stored yet, so it is not read.
 */
export async function loadQueryContext(deps: Deps, caller: Caller, workspaceId: string, conversationId: string, isNew = false) {
  const month = monthOf(deps.clock.now());
  const [workspaceItems, conversation, { also, ...modelSettings }] = await Promise.all([
    deps.table.queryAll(workspaceWithChildren(caller.orgId, workspaceId)),
    isNew ? noConversation() : loadConversation(deps, caller.orgId, workspaceId, conversationId),
    // The organisation's budgets and the workspace's counters of the month come with its model
    // settings: no store call more.
    readModelSettings(deps, caller.orgId, [budgetsKey(caller.orgId), ...monthCounterKeys(caller.orgId, workspaceId, month)]),
  ]);
  const { workspace, connections, toolsByConnection, guardrails } = workspaceToolsOf(workspaceItems, caller.orgId, workspaceId);
  assertServing(workspace);
  const knowledge = workspaceItems.filter(isKnowledgeItem) as unknown as KnowledgeItem[];
  // The manifest of its documents' index comes with the workspace: whether there is anything to search.
  const documents = manifestOf(workspaceItems.find(isIndexManifest));
  // Pattern guardrails need their engine, loaded by the first query of a process that has any.
  if (guardrails.some((guardrail) => guardrail.type !== 'block_tool')) await loadPatternEngine();
  return {
    workspace,
    connections,
    toolsByConnection,
    knowledge,
    documents,
    guardrails,
    ...conversation,
    ...modelSettings,
    budgets: budgetsOf(also.find((item) => item.sk === budgetsKey(caller.orgId).sk)),
    /** The workspace's counters of this month: the cache TTL and the budgets' estimate. */
    counters: countersOf(also.filter(isCounterItem)),
  };
}

/**
 * The conversation a query continues: the one its `session_id` names when the caller owns it (or
 * it is new), else the caller's own conversation for that `session_id` (`ownConversationId`), so
 * nobody can add a turn to, or read the history of, a conversation they may not continue.
 */
export async function conversationFor(
  deps: Deps,
  caller: Caller,
  workspaceId: string,
  requestedId: string,
  loaded: Awaited<ReturnType<typeof loadConversation>>,
) {
  if (!loaded.state?.owner || loaded.state.owner === caller.owner) return { conversationId: requestedId, ...loaded };
  const conversationId = ownConversationId(requestedId, caller.owner);
  return { conversationId, ...(await loadConversation(deps, caller.orgId, workspaceId, conversationId)) };
}
