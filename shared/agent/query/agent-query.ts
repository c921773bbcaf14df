import { type PausedQuery, requestApproval, unlessTooLargeToWait } from '../../approvals/index.js';
import type { BudgetHold } from '../../budgets/index.js';
import type { Deps } from '../../deps.js';
import type { Guardrail } from '../../guardrails/index.js';
import {
  modelTierOrDefault,
  type ModelTier,
  addUsage,
  costOf,
  type ContentBlock,
  type ModelRequest,
  type TokenUsage,
} from '../../models/index.js';
import { PaymentRequiredError } from '../../platform/errors.js';
import { promptBytesOf, resultOf, resumeAgentLoop, type LoopProgress, type LoopResult, type ToolUse } from '../loop.js';
import { runCall } from '../loop-tools.js';
import { pausedSoFar, queryResponse } from './answer.js';
import { beforeRounds, budgetGate, holdBudgets, type BudgetGate } from './budget.js';
import { persistQuery, type FinishedQuery } from './persist.js';
import { answerQuery, finishRun, nothingRan, prepareLoop, type PreparedLoop, type QueryContext, type QueryRun } from './run.js';
import { screenInput, screenToolCalls, type ScreenedInput } from './screening.js';
import type { Caller, QueryListener, QueryResponse } from './types.js';

/*
 * One use case for every run of the agent: a question (the query route, a chat, an evaluation's
 * case) or a paused query going on once its approval is decided (agent/approvals/resume.ts). The model
 * tier, the budgets' hold and their settlement are here, once; the callers differ in what they pass.
 */

/** Where a run starts. */
type AgentStart =
  /** A question, screened here, and the history a new conversation starts with. */
  | { question: string; history: ScreenedInput['history'] }
  /**
   * A paused query going on from its checkpoint: `call` is the call that waited, `refusal` why it
   * may not run (the model is then sent an error result saying so), or undefined to run it.
   */
  | { paused: PausedQuery; call: ToolUse; refusal: string | undefined };

/**
 * The run's budgets: held already (a decision holds them before it is written), or held here, from
 * the workspace's average cost per query and a bound on a first model round for the question.
 * Without room, `refuse`: the 402 before anything starts; `end`: a question is not asked (an
 * evaluation's case), a paused query ends saying so without the model (an approval's expiry).
 */
type AgentBudgets = { held: BudgetHold } | { whenFull: 'refuse' | 'end' };

/** Model use after the loop (an evaluation's judge), counted in the run's cost and budgets. */
interface Review {
  usage: TokenUsage;
  failure?: string;
}

/** Asked before the review's model call: why it is not made (a budget without room for it), or nothing. None when no budget covers the run. */
export type ReviewGate = ((request: ModelRequest) => Promise<string | undefined>) | undefined;

export interface AgentQuery<T> {
  context: QueryContext;
  start: AgentStart;
  budgets: AgentBudgets;
  /** When the request began (`performance.now()`): the run's duration counts from there. */
  started: number;
  listener?: QueryListener;
  /** The budgets hold the run: a stream may begin. */
  onHeld?: () => void;
  review?: (run: QueryRun, tier: ModelTier, beforeModelCall: ReviewGate) => Promise<Review | undefined>;
  /** Keeps the finished run while the budgets are settled: in its conversation (`inConversation`), or as the caller needs. */
  record: (finished: FinishedRun) => Promise<T>;
}

/** A run as it is kept. */
export interface FinishedRun {
  caller: Caller;
  context: QueryContext;
  listener: QueryListener;
  /** What was asked, as screened; a resumed query's question as it was stored, with no history and no hits. */
  asked: Pick<ScreenedInput, 'text' | 'history' | 'hits'>;
  run: QueryRun;
  /** The loop's and the review's. */
  usage: TokenUsage;
  review: Review | undefined;
  costUsd: number;
  durationMs: number;
  /** The paused query the run went on with. */
  paused: PausedQuery | undefined;
  /** A question the budgets had no room for (`end`): it was not asked. */
  refused: PaymentRequiredError | undefined;
}

/**
 * Runs the agent once: the workspace's model tier (the default one for a tier it does not know),
 * the budgets held, the loop run from a question or a paused query's checkpoint (and any review
 * after it), then the run kept (`record`) while the budgets are settled to what it cost since the
 * hold was taken, paused or not (a resumed query's first part was settled at its pause); a run
 * that throws gives the hold back whole.
 */
export async function runAgentQuery<T>(deps: Deps, caller: Caller, query: AgentQuery<T>): Promise<T> {
  const { context, start, budgets } = query;
  const tier = modelTierOrDefault(context.workspace.model);
  const hold = await holdFor(deps, caller, context, start, budgets);
  const [held, refused] = hold instanceof PaymentRequiredError ? [undefined, hold] : [hold, undefined];
  if (held) query.onHeld?.();
  // Only a query refused when a budget is full (the 402) is refused so before its first round.
  const admitted = { refused, gate: budgetGate(held, tier, 'whenFull' in budgets && budgets.whenFull === 'refuse') };
  const listener = query.listener ?? {};
  const running: Running = { deps, caller, context, listener, tier, admitted };
  const paused = 'paused' in start ? start.paused : undefined;
  const ran = await givingBackOnError(held, async () => {
    const { run, ...rest } = 'paused' in start ? await goOn(running, start) : await ask(running, start);
    const kept = { ...run, loop: unlessTooLargeToWait(run.loop) };
    // A question the budgets had no room for was not asked: nothing to review.
    const review = rest.refused ? undefined : await query.review?.(kept, tier, beforeReview(admitted.gate, kept.loop.usage));
    return { refused: undefined, ...rest, run: kept, review };
  });
  const usage = ran.review ? addUsage(ran.run.loop.usage, ran.review.usage) : ran.run.loop.usage;
  const costUsd = costOf(usage, tier);
  const durationMs = (paused?.durationMs ?? 0) + Math.round(performance.now() - query.started);
  const [kept] = await Promise.all([
    query.record({ caller, context, listener, paused, ...ran, usage, costUsd, durationMs }),
    held?.settle(Math.max(0, costUsd - (paused?.counted.costUsd ?? 0))),
  ]);
  return kept;
}

async function holdFor(
  deps: Deps,
  caller: Caller,
  context: QueryContext,
  start: AgentStart,
  budgets: AgentBudgets,
): Promise<BudgetHold | PaymentRequiredError> {
  if ('held' in budgets) return budgets.held;
  const question = 'question' in start ? { text: start.question, history: start.history } : undefined;
  const holding = holdBudgets(deps, caller, context.workspace, context.budgets, context.counters, question);
  if (budgets.whenFull === 'refuse') return holding;
  return holding.catch((error: unknown) => {
    if (error instanceof PaymentRequiredError) return error;
    throw error;
  });
}

/** Runs `work`; when it throws, the hold is given back whole before the error goes on. */
async function givingBackOnError<T>(hold: BudgetHold | undefined, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    await hold?.settle(0);
    throw error;
  }
}

/** What the loop's run gives: what was asked, the run, and a question the budgets had no room for. */
type Ran = Pick<FinishedRun, 'asked' | 'run'> & { refused?: PaymentRequiredError };

/** The budgets as the run meets them: the 402 of one without room (`end`), else their check before each model call. */
interface Admitted {
  refused: PaymentRequiredError | undefined;
  gate: BudgetGate | undefined;
}

/** What a run goes with, from a question or from a paused query alike. */
interface Running {
  deps: Deps;
  caller: Caller;
  context: QueryContext;
  listener: QueryListener;
  tier: ModelTier;
  admitted: Admitted;
}

/** The budgets' check before the review's model call, counting what the run spent before it. */
function beforeReview(gate: BudgetGate | undefined, usage: TokenUsage): ReviewGate {
  if (!gate) return undefined;
  return async ({ system, tools, messages, maxTokens }) =>
    (await gate({ promptBytes: promptBytesOf(system, tools, messages), maxTokens, usage }))?.message;
}

/** A question: screened, then answered; not asked when a budget has no room for it (`end`). */
async function ask(running: Running, start: Extract<AgentStart, { question: string }>): Promise<Ran> {
  const { deps, caller, context, listener, tier, admitted } = running;
  const { refused, gate } = admitted;
  if (refused) return { asked: { text: start.question, history: [], hits: [] }, run: nothingRan(refused.message, false), refused };
  const asked = screenInput(context.guardrails, start.question, start.history);
  return { asked, run: await answerQuery(deps, caller, context, asked, tier, listener, beforeRounds(gate)) };
}

/** A paused query's loop ended without the model: its calls screened as `finishRun` would (what it stores is shown to people). */
function endedLoop(guardrails: Guardrail[], progress: LoopProgress, error: string | null): QueryRun {
  const loop: LoopResult = resultOf(progress, error);
  const calls = screenToolCalls(guardrails, loop.calls);
  return { answered: true, hits: [], tools: [], loop: calls ? { ...loop, calls } : loop };
}

/**
 * A paused query going on: the decided call's result to the model, the loop on from there. Without
 * a model client or a connection (or room in a budget: `end`) it ends with that error, keeping
 * what it spent and answered before the pause (the counters hold it already).
 */
async function goOn(running: Running, start: Extract<AgentStart, { paused: PausedQuery }>): Promise<Ran> {
  const { deps, caller, context, listener, tier, admitted } = running;
  const { refused, gate } = admitted;
  // Its question was screened and stored before the pause.
  const asked = { text: start.paused.query, history: [], hits: [] };
  const progress = structuredClone(start.paused.checkpoint.progress);
  // Without room, the query ends before its tool servers are reached.
  if (refused) return { asked, run: endedLoop(context.guardrails, progress, refused.message) };
  const prepared = await prepareLoop(deps, caller, context, tier, listener);
  if ('loop' in prepared) return { asked, run: endedLoop(context.guardrails, progress, prepared.loop.error) };
  const decided = await decidedResult(start, prepared, progress);
  const loop = await resumeAgentLoop(
    { ...prepared.input, messages: [], beforeModelCall: beforeRounds(gate) },
    { ...start.paused.checkpoint, progress },
    decided,
  );
  return { asked, run: finishRun(context.guardrails, loop, prepared, listener) };
}

function errorResult(call: ToolUse, text: string): ContentBlock {
  return { type: 'tool_result', toolUseId: call.id, content: text, isError: true };
}

/**
 * The decided call's result for the model: an error saying why when it may not run, else the
 * tool's own, run within what is left of the query's tool budget (and counted in it).
 */
async function decidedResult(
  { call, refusal }: Extract<AgentStart, { paused: PausedQuery }>,
  prepared: PreparedLoop,
  progress: LoopProgress,
): Promise<ContentBlock> {
  if (refusal) return errorResult(call, refusal);
  const tool = prepared.tools.find((candidate) => candidate.spec.name === call.name);
  if (!tool) return errorResult(call, `The tool ${call.name} is no longer available to this conversation; the call did not run.`);
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

/** A run kept in its conversation: the answer (JSON, and the stream's `done`), its message's number, and the loop's times. */
export interface SavedAnswer {
  response: QueryResponse;
  answerSeq: number | null;
  loop: LoopResult;
}

/**
 * Keeps a run in its conversation (query/persist.ts): the question and answer, the audit entry and
 * the counters; a loop paused on a call asks for its approval once they are stored.
 */
export function inConversation(deps: Deps, conversation: Pick<FinishedQuery, 'conversationId' | 'fresh' | 'read' | 'approvals'>) {
  return async (finished: FinishedRun): Promise<SavedAnswer> => {
    const { caller, asked, run, costUsd, durationMs, paused } = finished;
    const { workspace } = finished.context;
    const { loop } = run;
    const saved = await persistQuery(deps, {
      ...conversation,
      caller,
      workspace,
      query: asked.text,
      // A new conversation keeps the (screened) history it was started with, so follow-ups see what the model saw.
      history: asked.history,
      hits: [...asked.hits, ...run.hits],
      loop,
      ...(run.citations ? { citations: run.citations } : {}),
      costUsd,
      durationMs,
      // Paused for an approval: the question is stored now, the answer once it is decided.
      answered: run.answered && !loop.paused,
      ...(paused
        ? {
            resumed: {
              activityAt: paused.activityAt,
              activityId: paused.activityId,
              activityShard: paused.activityShard,
              counted: paused.counted,
            },
          }
        : {}),
    });
    const pending = loop.paused
      ? await requestApproval(deps, {
          caller,
          workspace,
          conversationId: saved.conversationId,
          loop: { ...loop, paused: loop.paused },
          tools: run.tools,
          paused: pausedSoFar(asked.text, saved, { costUsd, durationMs, loop }, conversation.approvals ?? []),
        })
      : null;
    if (pending) finished.listener.onEvent?.({ type: 'approval_required', ...pending });
    const { authorizationUrl } = run;
    return {
      response: queryResponse(loop, {
        costUsd,
        durationMs,
        conversationId: saved.conversationId,
        authorizationUrl,
        pending,
        citations: run.citations,
      }),
      answerSeq: saved.answerSeq,
      loop,
    };
  };
}
