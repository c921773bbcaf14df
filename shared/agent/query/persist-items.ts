import type { Citation } from '../../knowledge/index.js';
import { pairItem, messageKey, minutesAfter, scheduleMove } from '../../conversations/index.js';
import { violationItems, type GuardrailHit } from '../../guardrails/index.js';
import { approvalSettingOf, counterNames, type Usage, activityEntryKey, type WorkspaceItem } from '../../workspaces/index.js';
import type { Deps } from '../../deps.js';
import { newId } from '../../platform/ids.js';
import { listShardOf } from '../../platform/list-shards.js';
import { workspaceLabel } from '../../platform/metrics.js';
import type { Item } from '../../platform/table.js';
import type { LoopResult } from '../loop.js';
import { callerUserId, type Caller, type ConversationState } from './types.js';
import { budgetSubjectOf } from './budget.js';

/*
 * What saving a query writes (query/persist.ts, query/persist-follow-up.ts): its messages, audit
 * entry and violations, the counters it moves, the conversation's next move, and what it tells.
 */

type HistoryMessage = { role: 'user' | 'assistant'; content: string };

/** What a query leaves to be saved. */
export interface FinishedQuery {
  caller: Caller;
  workspace: WorkspaceItem;
  conversationId: string;
  /**
   * The query made the conversation's id itself (no `session_id` was given): nothing can be stored
   * under it yet, so its item is written alongside the messages rather than before them.
   */
  fresh?: boolean;
  /**
   * The conversation as the query read it, when it exists and is the caller's own: its follow-up
   * is claimed as read, alongside the other writes (query/persist-follow-up.ts).
   */
  read?: ConversationState;
  /** The question as screened by the guardrails (what the model saw). */
  query: string;
  /** The (screened) history a new conversation starts with; empty when continuing one. */
  history: HistoryMessage[];
  hits: GuardrailHit[];
  loop: LoopResult;
  costUsd: number;
  durationMs: number;
  /** False when the query stopped before the model ran (or paused for an approval): then only the question is stored. */
  answered: boolean;
  /** The decisions on the query's tool calls so far, for its audit entry. */
  approvals?: ApprovalRecord[];
  /** The knowledge passages the answer cites, kept with it. */
  citations?: Citation[];
  /**
   * A query resumed after an approval: its question is stored already, and so is its audit entry
   * (`activityAt`, `activityId`, in shard `activityShard`), which is rewritten with the totals;
   * `counted` is what the first part already added to the counters.
   */
  resumed?: {
    activityAt: string;
    activityId: string;
    activityShard: number;
    counted: CountedSoFar;
  };
}

/** One decision on a tool call, as the audit entry records it. */
export interface ApprovalRecord {
  id: string;
  tool: string;
  status: string;
  decided_by: string | null;
  decided_at: string | null;
  reason: string | null;
}

/** What a paused query added to the counters before it paused (cache tokens absent: paused before they were counted). */
export interface CountedSoFar {
  costUsd: number;
  durationMs: number;
  tokensInput: number;
  tokensOutput: number;
  tokensCacheRead?: number;
  tokensCacheWrite?: number;
}

/**
 * The message items of the query (and of the history a new conversation starts with), numbered
 * after `previousCount`: its question and answer in one item when it has both (conversations/messages.ts).
 */
export function messageItems(saved: FinishedQuery, now: Date, previousCount: number): Item[] {
  const { workspace, conversationId, history, loop } = saved;
  const at = now.toISOString();
  const historySeq = previousCount + 1;
  // A resumed query's question is stored already: only its answer follows.
  const firstSeq = saved.resumed ? previousCount : historySeq + history.length;
  const message = (seq: number, role: 'user' | 'assistant', content: string): Item => ({
    ...messageKey(workspace.org_id, workspace.id, conversationId, seq),
    id: newId('msg', now),
    seq,
    role,
    content,
    tools_called: null,
    tokens_input: null,
    tokens_output: null,
    tokens_cache_read: null,
    tokens_cache_write: null,
    cost_usd: null,
    duration_ms: null,
    created_at: at,
  });
  const items: Item[] = saved.resumed ? [] : history.map((entry, index) => message(historySeq + index, entry.role, entry.content));
  // Paused for an approval: its answer comes when that is decided, and until then it is not replaced (agent/query.ts).
  const question = saved.resumed
    ? undefined
    : { ...message(firstSeq, 'user', saved.query), ...(loop.paused ? { awaiting_approval: true } : {}) };
  const answer = saved.answered
    ? {
        ...message(firstSeq + 1, 'assistant', loop.answer),
        tools_called: JSON.stringify(loop.toolsCalled),
        // What people are shown of each call (cut short and screened: query/screening.ts).
        tool_calls: loop.calls ?? [],
        // The person stopped it: `content` is what had been answered.
        ...(loop.stopped ? { stopped: true } : {}),
        ...(saved.citations?.length ? { citations: saved.citations } : {}),
        ...spentBy(saved),
      }
    : undefined;
  // Asked and answered in one go: one item (conversations/messages.ts), when it fits one.
  const pair = question && answer ? pairItem(question, answer) : undefined;
  if (pair && fitsOneItem(pair)) items.push(pair);
  else items.push(...[question, answer].filter((item): item is Item => item !== undefined));
  return items;
}

/**
 * An item stays well under DynamoDB's 400 KB: a question (up to 32 000 characters) and an answer
 * with its 25 tool calls shown fit one in all but the largest cases, which are written one item each.
 */
const PAIR_MAX_BYTES = 300_000;
const fitsOneItem = (item: Item) => Buffer.byteLength(JSON.stringify(item)) <= PAIR_MAX_BYTES;

/** What the whole query spent (a resumed one's too), as its answer and its audit entry record it. */
function spentBy(saved: FinishedQuery) {
  const { usage } = saved.loop;
  return {
    tokens_input: usage.input,
    tokens_output: usage.output,
    tokens_cache_read: usage.cacheRead,
    tokens_cache_write: usage.cacheWrite,
    cost_usd: saved.costUsd,
    duration_ms: saved.durationMs,
  };
}

/** The audit log's shard of the query's entry: its id's, or where the entry of the query it resumes is. */
function activityShardOf(saved: FinishedQuery, activityId: string): number {
  return saved.resumed ? saved.resumed.activityShard : listShardOf(activityId);
}

/** The audit entry of the query (`WSACT#<workspace>`, in one of its shards). */
export function activityItem(saved: FinishedQuery, now: Date): Item {
  const { loop } = saved;
  const at = saved.resumed?.activityAt ?? now.toISOString();
  const activityId = saved.resumed?.activityId ?? newId('act', now);
  return {
    ...activityEntryKey(saved.workspace.org_id, saved.workspace.id, at, activityId, activityShardOf(saved, activityId)),
    id: activityId,
    conversation_id: saved.conversationId,
    user_id: callerUserId(saved.caller),
    // The consumer a budget of that scope covers (query/budget.ts), so a budget made mid-period counts it.
    consumer_id: budgetSubjectOf(saved.caller, saved.workspace.id).consumerId ?? null,
    user_name: saved.caller.userName,
    query: saved.query,
    tools_called: loop.toolsCalled,
    connections_hit: loop.connectionsHit,
    ...spentBy(saved),
    error: loop.error,
    approvals: saved.approvals ?? [],
    created_at: at,
  };
}

/** Conversation counters of the workspace the query moves: a new conversation, or a cold one reopened. */
export function conversationDeltas(saved: FinishedQuery, previous: ConversationState | undefined): Record<string, number> {
  const { caller, hits } = saved;
  const deltas: Record<string, number> = hits.length ? { violations: hits.length } : {};
  if (!previous) {
    deltas[counterNames.conversations] = 1;
    deltas[counterNames.dimension('status', 'open')] = 1;
    deltas[counterNames.dimension('consumer', caller.consumerType)] = 1;
    if (caller.channel) deltas[counterNames.dimension('channel', caller.channel)] = 1;
  } else if (previous.status === 'cold') {
    deltas[counterNames.dimension('status', 'cold')] = -1;
    deltas[counterNames.dimension('status', 'open')] = 1;
  }
  return deltas;
}

/**
 * The query's metrics, once it is stored: the same amounts as the workspace's counters (a resumed
 * query adds what it spent since it paused, and is not counted as a query again); its tool calls
 * and duration once it has ended (not paused), the calls before a pause included.
 */
function recordMetrics(deps: Deps, saved: FinishedQuery, usage: Usage): void {
  const labels = { workspace: workspaceLabel(saved.workspace.org_id, saved.workspace.id) };
  const { metrics } = deps;
  metrics.count('queries', usage.queries, labels);
  metrics.count('query_errors', usage.errors, labels);
  metrics.count('input_tokens', usage.tokens_input, labels);
  metrics.count('output_tokens', usage.tokens_output, labels);
  metrics.count('cache_read_tokens', usage.tokens_cache_read, labels);
  metrics.count('cache_write_tokens', usage.tokens_cache_write, labels);
  metrics.count('cost_usd', usage.cost_usd, labels);
  if (saved.loop.paused) return;
  metrics.count('tool_calls', saved.loop.toolsCalled.length, labels);
  metrics.observe('query_duration', saved.durationMs, labels);
}

/** When a saved query leaves its conversation to go cold, and the time it was saved. */
export function timesOf(deps: Deps, saved: FinishedQuery): { now: Date; at: string; coldAt: Date } {
  const now = deps.clock.now();
  // A call waiting for approval keeps its conversation open: it goes cold only once the wait
  // would have expired and cold_timeout_minutes more have passed (the decision or the expiry,
  // which resume the query, plan the move again from then).
  const waitMinutes = saved.loop.paused ? approvalSettingOf(saved.workspace).expires_minutes : 0;
  return { now, at: now.toISOString(), coldAt: minutesAfter(now, waitMinutes + saved.workspace.cold_timeout_minutes) };
}

/** What a query writes apart from the conversation item: its messages (numbered after `previousCount`), and the rest. */
export function itemsOf(
  deps: Deps,
  saved: FinishedQuery,
  now: Date,
  previousCount: number,
): { messages: Item[]; others: Item[]; activity: Item } {
  const { workspace, conversationId } = saved;
  const activity = activityItem(saved, now);
  return {
    messages: messageItems(saved, now, previousCount),
    activity,
    others: [activity, ...violationItems(deps, workspace.org_id, workspace.id, conversationId, saved.hits)],
  };
}

/** What the query adds to the counters: a resumed query only what it spent since it paused. */
export function usageOf(saved: FinishedQuery): Usage {
  const counted: CountedSoFar = saved.resumed?.counted ?? { costUsd: 0, durationMs: 0, tokensInput: 0, tokensOutput: 0 };
  const { usage: spent } = saved.loop;
  return {
    queries: saved.resumed ? 0 : 1,
    errors: saved.loop.error ? 1 : 0,
    duration_ms: saved.durationMs - counted.durationMs,
    cost_usd: saved.costUsd - counted.costUsd,
    tokens_input: spent.input - counted.tokensInput,
    tokens_output: spent.output - counted.tokensOutput,
    tokens_cache_read: spent.cacheRead - (counted.tokensCacheRead ?? 0),
    tokens_cache_write: spent.cacheWrite - (counted.tokensCacheWrite ?? 0),
  };
}

/**
 * The conversation's next move: cold after cold_timeout_minutes without activity. It replaces the
 * pending one, which an open conversation has (`replaces` saves a call; the outcome is the same).
 */
export function scheduleCold(deps: Deps, saved: FinishedQuery, at: string, coldAt: Date, previous: ConversationState | undefined) {
  const { caller, workspace, conversationId } = saved;
  return scheduleMove(
    deps,
    caller.orgId,
    { workspaceId: workspace.id, conversationId, move: 'cold', lastActivityAt: at },
    coldAt,
    previous?.status === 'open',
  );
}

/** What saving tells, once everything is written under `previousCount`. */
export function savedOf(
  deps: Deps,
  saved: FinishedQuery,
  activity: Item,
  previousCount: number,
  conversationId = saved.conversationId,
): SavedQuery {
  recordMetrics(deps, saved, usageOf(saved));
  // The answer follows the history and the question (messageItems).
  const answerSeq = saved.resumed ? previousCount + 1 : saved.answered ? previousCount + saved.history.length + 2 : null;
  return {
    conversationId,
    answerSeq,
    activityAt: String(activity.created_at),
    activityId: String(activity.id),
    activityShard: activityShardOf(saved, String(activity.id)),
  };
}

/** What saving a query tells: its conversation, its answer's sequence number, and its audit entry. */
export interface SavedQuery {
  conversationId: string;
  answerSeq: number | null;
  activityAt: string;
  activityId: string;
  activityShard: number;
}
