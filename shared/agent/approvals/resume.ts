import {
  inConversation,
  inQuerySpan,
  loadQueryContext,
  runAgentQuery,
  type ApprovalRecord,
  type QueryListener,
  type QueryResponse,
  type ToolUse,
} from '../query.js';
import type { BudgetHold } from '../../budgets/index.js';
import type { Deps } from '../../deps.js';
import { errorMessage } from '../../platform/errors.js';
import { argumentsHash, pausedQueryOf, type ApprovalItem, type ApprovalStatus, type PausedQuery } from '../../approvals/index.js';

/*
 * Going on with a paused query once its approval is decided (or has expired), in whichever process
 * serves the decision: everything comes from the approval item and the store.
 */

export interface Decision {
  status: Exclude<ApprovalStatus, 'pending'>;
  decidedBy: string | null;
  reason: string | null;
  /** When it was decided (the claim's time). */
  at?: string;
}

/**
 * Why the decided call may not run, for the model: denied, expired, or approved with arguments
 * other than the ones shown (what would run is not what was approved); undefined: it runs, with
 * exactly the arguments that were shown.
 */
function refusalOf(item: ApprovalItem, call: ToolUse, decision: Decision): string | undefined {
  if (decision.status === 'denied') {
    const why = decision.reason ? `: ${decision.reason}` : '';
    return `${decision.decidedBy ?? 'A person'} denied this call; it did not run${why}.`;
  }
  if (decision.status === 'expired') return 'Nobody approved this call in time; it expired and did not run.';
  const shown = argumentsHash(JSON.parse(item.input));
  if (argumentsHash(call.input) !== item.input_hash || shown !== item.input_hash) {
    return 'This call was refused: its arguments are not the ones that were approved.';
  }
  return undefined;
}

/** The decisions of the query so far, this one last, for its audit entry. */
function approvalsOf(earlier: ApprovalRecord[], item: ApprovalItem, decision: Decision, at: string): ApprovalRecord[] {
  return [
    ...earlier,
    { id: item.id, tool: item.tool, status: decision.status, decided_by: decision.decidedBy, decided_at: at, reason: decision.reason },
  ];
}

type Resumed = { response: QueryResponse; answerSeq: number | null };

/**
 * A team-chat conversation decided elsewhere (the API, the expiry): its thread is shown the decision
 * and what followed, through the chat notifier. Best effort: the decision stands if posting fails.
 */
async function tellThread(deps: Deps, item: ApprovalItem, paused: PausedQuery, decision: Decision, resumed: Resumed): Promise<void> {
  const thread = paused.caller.chat;
  if (!thread) return;
  try {
    await deps.chat.continueAfterDecision?.({
      orgId: item.org_id,
      channelId: thread.channelId,
      threadTs: thread.threadTs,
      workspaceId: item.workspace_id,
      approvalId: item.id,
      decision,
      // What the thread shows already: the answer up to the pause (as the loop joins its parts).
      answeredBefore: paused.checkpoint.progress.answerParts.join('\n\n').trim(),
      ...resumed,
    });
  } catch (error) {
    deps.logger.warn('team-chat thread not told of a decision', { approvalId: item.id, error: errorMessage(error) });
  }
}

/**
 * The conversation's owner is told how the query ended (a routine's run delivers the answer and
 * records its end: `deps.afterDecision`). Best effort, as the thread: the decision and the answer
 * stand if it fails, and the run list still moves a run whose approval was decided.
 */
async function tellOwner(deps: Deps, item: ApprovalItem, paused: PausedQuery, decision: Decision, response: QueryResponse): Promise<void> {
  try {
    await deps.afterDecision(deps, {
      orgId: item.org_id,
      workspaceId: item.workspace_id,
      conversationId: item.conversation_id,
      owner: paused.caller.owner,
      approvalId: item.id,
      decision: decision.status,
      response,
    });
  } catch (error) {
    deps.logger.warn('the owner of a conversation not told how its decided query ended', {
      approvalId: item.id,
      error: errorMessage(error),
    });
  }
}

/** A pending approval's query as it goes on: the approval, its paused query and the call that waits, and the query's reads. */
export interface PausedRun {
  item: ApprovalItem;
  paused: PausedQuery;
  call: ToolUse;
  context: Awaited<ReturnType<typeof loadQueryContext>>;
  /** When its reads began (`performance.now()`): the resumed part's duration counts from there. */
  started: number;
}

/**
 * What a paused query goes on with, read once, before its decision is written: a decision holds
 * the budgets from these reads (agent/approvals/decide.ts) and the query runs on them.
 */
export async function readPausedRun(deps: Deps, item: ApprovalItem): Promise<PausedRun> {
  const started = performance.now();
  const paused = pausedQueryOf(item);
  const call = paused.checkpoint.waiting[0];
  if (!call) throw new Error(`approval ${item.id} has no waiting call`);
  const context = await loadQueryContext(deps, paused.caller, item.workspace_id, item.conversation_id);
  return { item, paused, call, context, started };
}

/**
 * Goes on with the query of a decided approval: the decided call's result to the model, the loop
 * on from there, the answer stored (or a pause on the next call that needs approval). A team-chat
 * conversation's thread is shown the outcome unless the decision came from that thread
 * (`fromThread`: the bridge streams it there itself).
 */
export function resumeQuery(
  deps: Deps,
  run: PausedRun,
  decision: Decision,
  listener: QueryListener = {},
  /** `hold`: the budgets the decision reserved; without one (an expiry) they are reserved here. */
  options: { fromThread?: boolean; hold?: BudgetHold } = {},
): Promise<Resumed> {
  // The resumed part of a query is a query span of its own (its first part ended at the pause).
  return inQuerySpan(run.item.workspace_id, undefined, () => resume(deps, run, decision, listener, options));
}

async function resume(
  deps: Deps,
  { item, paused, call, context, started }: PausedRun,
  decision: Decision,
  listener: QueryListener,
  options: { fromThread?: boolean; hold?: BudgetHold },
): Promise<Resumed> {
  const approvals = approvalsOf(paused.earlier, item, decision, decision.at ?? deps.clock.now().toISOString());
  const { response, answerSeq } = await runAgentQuery(deps, paused.caller, {
    context,
    start: { paused, call, refusal: refusalOf(item, call, decision) },
    // Without the decision's hold (an expiry), a budget spent ends the query saying so, without the model.
    budgets: options.hold ? { held: options.hold } : { whenFull: 'end' },
    started,
    listener,
    record: inConversation(deps, { conversationId: item.conversation_id, approvals }),
  });
  const resumed = { response, answerSeq };
  if (!options.fromThread) await tellThread(deps, item, paused, decision, resumed);
  await tellOwner(deps, item, paused, decision, response);
  return resumed;
}
