import { resultOf, resumeAgentLoop, runCall, type LoopProgress, type LoopResult, type ToolUse } from '../agent/loop.js';
import { costOf, type ContentBlock } from '../agent/model.js';
import { pausedSoFar, queryResponse } from '../agent/query/answer.js';
import { loadQueryContext } from '../agent/query/context.js';
import { screenToolCalls } from '../agent/query/screening.js';
import type { Guardrail } from '../guardrails/guardrails.js';
import { persistQuery, type ApprovalRecord } from '../agent/query/persist.js';
import { finishRun, prepareLoop, type PreparedLoop } from '../agent/query/run.js';
import type { QueryListener, QueryResponse } from '../agent/query/types.js';
import type { Deps } from '../deps.js';
import { errorMessage } from '../platform/errors.js';
import { DEFAULT_MODEL_TIER, modelTier, type ModelTier } from '../models/catalogue.js';
import { argumentsHash, pausedQueryOf, type ApprovalItem, type ApprovalStatus, type PausedQuery } from './approvals.js';
import { requestApproval, unlessTooLargeToWait } from './request.js';
import { inQuerySpan } from '../agent/query/span.js';
import type { BudgetHold } from '../budgets/admission.js';
import { budgetGate, holdBudgetsOrRefusal } from '../agent/query/budget.js';
import { PaymentRequiredError } from '../platform/errors.js';

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

function errorResult(call: ToolUse, text: string): ContentBlock {
  return { type: 'tool_result', toolUseId: call.id, content: text, isError: true };
}

/**
 * The decided call's result for the model: the tool's own when approved — run with exactly the
 * arguments that were shown, or refused when what would run is not what was shown — else an error
 * result saying it was denied or expired.
 */
async function decidedResult(
  item: ApprovalItem,
  call: ToolUse,
  decision: Decision,
  prepared: PreparedLoop,
  progress: LoopProgress,
): Promise<ContentBlock> {
  if (decision.status === 'denied') {
    const why = decision.reason ? `: ${decision.reason}` : '';
    return errorResult(call, `${decision.decidedBy ?? 'A person'} denied this call; it did not run${why}.`);
  }
  if (decision.status === 'expired') return errorResult(call, 'Nobody approved this call in time; it expired and did not run.');
  const shown = argumentsHash(JSON.parse(item.input));
  if (argumentsHash(call.input) !== item.input_hash || shown !== item.input_hash) {
    return errorResult(call, 'This call was refused: its arguments are not the ones that were approved.');
  }
  const tool = prepared.tools.find((candidate) => candidate.spec.name === call.name);
  if (!tool) return errorResult(call, `The tool ${call.name} is no longer available to this conversation; the call did not run.`);
  // The approved call waits within what is left of the query's tool budget, and counts in it.
  const budget = prepared.input.toolBudgetMs;
  const left = budget === undefined ? undefined : budget - progress.toolMs;
  if (left !== undefined && left <= 0) return errorResult(call, "The query's tool budget is spent; this call did not run.");
  const started = performance.now();
  const result = await runCall(
    call,
    tool,
    progress,
    // The screened listener (query/run.ts): what people are shown of a call passes the guardrails.
    prepared.input.onEvent ?? (() => undefined),
    left === undefined ? {} : { timeoutMs: Math.ceil(left) },
  );
  progress.toolMs += performance.now() - started;
  return result;
}

/** A loop ended without `finishRun`: its calls screened as that would (what it stores is shown to people). */
function shownLoop(guardrails: Guardrail[], loop: LoopResult): LoopResult {
  const calls = screenToolCalls(guardrails, loop.calls);
  return calls ? { ...loop, calls } : loop;
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
 * Goes on with the query of a decided approval: the decided call's result to the model, the loop
 * on from there, the answer stored (or a pause on the next call that needs approval). A team-chat
 * conversation's thread is shown the outcome unless the decision came from that thread
 * (`fromThread`: the bridge streams it there itself).
 */
export function resumeQuery(
  deps: Deps,
  item: ApprovalItem,
  decision: Decision,
  listener: QueryListener = {},
  /** `hold`: the budgets the decision reserved; without one (an expiry) they are reserved here. */
  options: { fromThread?: boolean; hold?: BudgetHold } = {},
): Promise<Resumed> {
  // The resumed part of a query is a query span of its own (its first part ended at the pause).
  return inQuerySpan(item.workspace_id, undefined, () => resume(deps, item, decision, listener, options));
}

async function resume(
  deps: Deps,
  item: ApprovalItem,
  decision: Decision,
  listener: QueryListener,
  options: { fromThread?: boolean; hold?: BudgetHold },
): Promise<Resumed> {
  const started = performance.now();
  const paused = pausedQueryOf(item);
  const { caller, checkpoint } = paused;
  const context = await loadQueryContext(deps, caller, item.workspace_id, item.conversation_id);
  const held = options.hold ?? (await holdBudgetsOrRefusal(deps, caller, context.workspace, context.budgets));
  const tier: ModelTier = modelTier(context.workspace.model) ?? (modelTier(DEFAULT_MODEL_TIER) as ModelTier);
  const prepared = await prepareLoop(deps, caller, context, tier, listener);
  const call = checkpoint.waiting[0];
  if (!call) throw new Error(`approval ${item.id} has no waiting call`);
  const progress = structuredClone(checkpoint.progress);
  let run: ReturnType<typeof finishRun> | Awaited<ReturnType<typeof prepareLoop>>;
  if (held instanceof PaymentRequiredError) {
    // An expiry with a budget spent: the model is not called again; the query ends saying why.
    run = { answered: true, hits: [], tools: [], loop: shownLoop(context.guardrails, resultOf(progress, held.message)) };
  } else if ('loop' in prepared) {
    // No model client, or a connection down: the query ends with that error, keeping what it had
    // spent and answered before the pause (the counters hold it already).
    run = { ...prepared, answered: true, loop: shownLoop(context.guardrails, resultOf(progress, prepared.loop.error)) };
  } else {
    const decided = await decidedResult(item, call, decision, prepared, progress);
    const gate = budgetGate(held, tier, { prefixCacheTtl: prepared.input.prefixCacheTtl, refuseFirst: false });
    const loop = await resumeAgentLoop({ ...prepared.input, messages: [], beforeModelCall: gate }, { ...checkpoint, progress }, decided);
    run = finishRun(context.guardrails, loop, prepared, listener);
  }
  const loop = unlessTooLargeToWait(run.loop);
  const costUsd = costOf(loop.usage, tier);
  // The budgets are settled to what the query spent since it paused (its first part was settled then).
  if (!(held instanceof PaymentRequiredError)) await held.settle(Math.max(0, costUsd - paused.counted.costUsd));
  const durationMs = paused.durationMs + Math.round(performance.now() - started);
  const approvals = approvalsOf(paused.earlier, item, decision, decision.at ?? deps.clock.now().toISOString());
  const saved = await persistQuery(deps, {
    caller,
    workspace: context.workspace,
    conversationId: item.conversation_id,
    query: paused.query,
    history: [],
    hits: run.hits,
    loop,
    costUsd,
    durationMs,
    answered: !loop.paused,
    approvals,
    resumed: { activityAt: paused.activityAt, activityId: paused.activityId, activityShard: paused.activityShard, counted: paused.counted },
  });
  const pending = loop.paused
    ? await requestApproval(deps, {
        caller,
        workspace: context.workspace,
        conversationId: item.conversation_id,
        loop: { ...loop, paused: loop.paused },
        tools: run.tools,
        paused: pausedSoFar(paused.query, saved, { costUsd, durationMs, loop }, approvals),
      })
    : null;
  if (pending) listener.onEvent?.({ type: 'approval_required', ...pending });
  const resumed = {
    response: queryResponse(loop, { costUsd, durationMs, conversationId: saved.conversationId, pending }),
    answerSeq: saved.answerSeq,
  };
  if (!options.fromThread) await tellThread(deps, item, paused, decision, resumed);
  return resumed;
}
