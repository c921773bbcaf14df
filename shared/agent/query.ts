import type { Deps } from '../deps.js';
import { ConflictError, NotFoundError, PaymentRequiredError } from '../platform/errors.js';
import { type LastTurn, replaceTurn } from '../conversations/index.js';
import { newId } from '../platform/ids.js';
import type { QueryInput } from './schemas.js';
import { inConversation, runAgentQuery } from './query/agent-query.js';
import { admitQuery, conversationFor, loadQueryContext } from './query/context.js';
import { auditRefusal } from './query/persist.js';
import { inQuerySpan } from './query/span.js';
import type { Caller, QueryListener, QueryResponse, QueryTiming } from './query/types.js';

type HistoryMessage = { role: 'user' | 'assistant'; content: string };

/*
 * The agent's entry for the rest of the service. The query as a use case in rooms: read
 * (query/context.ts), then run (query/agent-query.ts: hold the budgets, screen
 * (query/screening.ts), run the loop over the tools it may use (query/run.ts, query/tools.ts),
 * settle, persist (query/persist.ts)). An approval's resume and an evaluation's case run the same
 * use case, with what they read.
 */

export type { Caller, QueryListener, QueryResponse, QueryTiming } from './query/types.js';
export { inConversation, runAgentQuery, type FinishedRun, type ReviewGate } from './query/agent-query.js';
export { admitQuery, loadQueryContext } from './query/context.js';
export { holdBudgets } from './query/budget.js';
export { inQuerySpan } from './query/span.js';
export type { ApprovalRecord } from './query/persist.js';
export type { OfferedTool } from './query/tools.js';
export type { ToolUse } from './loop.js';

/**
 * `POST /api/workspaces/:id/query`: the eight steps of docs/agent-loop.md. Reads (workspace with
 * connections and cached tools, conversation with its latest messages, model settings) are one
 * parallel round; writes are one for a conversation the query starts or continues as it read it,
 * two for one it names without a stored item of the caller's (query/persist.ts).
 */
export async function runQuery(
  deps: Deps,
  caller: Caller,
  workspaceId: string,
  input: QueryInput,
  listener: QueryListener = {},
): Promise<{ response: QueryResponse; timing: QueryTiming; answerSeq: number | null }> {
  // A place among the queries in flight first: past the limits, a 429 before anything starts.
  const release = deps.inFlight.admit(caller.orgId);
  try {
    return await inQuerySpan(workspaceId, input.query ?? input.edit?.content, () => answer(deps, caller, workspaceId, input, listener));
  } finally {
    release();
  }
}

async function answer(
  deps: Deps,
  caller: Caller,
  workspaceId: string,
  input: QueryInput,
  listener: QueryListener,
): Promise<{ response: QueryResponse; timing: QueryTiming; answerSeq: number | null }> {
  const started = performance.now();
  const requestedId = input.session_id ?? newId('conv', deps.clock.now());
  const isNew = input.session_id === undefined;
  // Past the organisation's query rate, 429 before anything is read.
  const counting = admitQuery(deps, caller.orgId);
  const [loaded] = await Promise.all([loadQueryContext(deps, caller, workspaceId, requestedId, isNew), counting]);
  const { conversationId, state, messages, lastTurn } = await conversationFor(deps, caller, workspaceId, requestedId, loaded);
  if (state?.status === 'closed') {
    throw new ConflictError(`conversation ${conversationId} is closed; start a new session to ask again`);
  }
  const { question, history, replaced } = whatIsAsked(input, conversationId, messages, lastTurn);
  const refusedByBudget = async (error: unknown): Promise<never> => {
    // Refused before it ran (402): still audited, so Activity shows what was asked and why it was not answered.
    if (error instanceof PaymentRequiredError) {
      await auditRefusal(
        deps,
        { caller, workspace: loaded.workspace, conversationId, query: question, continued: state !== undefined },
        error.message,
      );
    }
    throw error;
  };
  const { response, answerSeq, loop } = await runAgentQuery(deps, caller, {
    context: { ...loaded, state, messages: history },
    start: { question, history: state ? [] : (input.history ?? []) },
    // Each budget that covers the query holds its estimated cost, or it is 402 before it starts.
    budgets: { whenFull: 'refuse' },
    started,
    listener,
    onHeld: () => listener.onStart?.({ conversation_id: conversationId, session_id: conversationId }),
    // Read as the caller's own: its follow-up is saved in one round (query/persist-follow-up.ts).
    record: inConversation(deps, { conversationId, fresh: isNew, read: state?.owner === caller.owner ? state : undefined }),
  }).catch(refusedByBudget);
  // The new turn is stored: the one it replaces is no longer shown.
  if (replaced) await replaceTurn(deps, replaced);
  const totalMs = performance.now() - started;
  return {
    response,
    answerSeq,
    timing: { totalMs, modelMs: loop.modelMs, toolMs: loop.toolMs, overheadMs: Math.max(0, totalMs - loop.modelMs - loop.toolMs) },
  };
}

/**
 * The question a query asks, the conversation's messages it is asked after, and the turn it
 * replaces: a new question after all of them; a regenerate (`regenerate`) the last question again,
 * after the messages before it; an edit (`edit`) its new text there.
 * @throws NotFoundError for a regenerate or an edit of a conversation with nothing asked yet
 * @throws ConflictError while the last question waits for an approval
 */
function whatIsAsked(input: QueryInput, conversationId: string, messages: HistoryMessage[], lastTurn: LastTurn | undefined) {
  if (!input.regenerate && !input.edit) return { question: input.query ?? '', history: messages, replaced: undefined };
  if (!lastTurn) throw new NotFoundError(`conversation ${conversationId} has no question to ${input.edit ? 'edit' : 'answer again'}`);
  if (lastTurn.awaitingApproval) {
    throw new ConflictError('the last question waits for a tool call to be approved: decide the approval first');
  }
  // The messages read end with the last turn: its question, and its answer when it has one.
  const before = messages.slice(
    0,
    Math.max(
      0,
      messages.findLastIndex((message) => message.role === 'user'),
    ),
  );
  return { question: input.edit?.content ?? lastTurn.question, history: before, replaced: lastTurn.keys };
}
