import type { Deps } from '../deps.js';
import { DEFAULT_MODEL_TIER, modelTier, type ModelTier } from '../models/catalogue.js';
import { ConflictError } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import { costOf } from './model.js';
import { requestApproval, unlessTooLargeToWait } from '../approvals/request.js';
import { pausedSoFar, queryResponse } from './query/answer.js';
import type { QueryInput } from './schemas.js';
import { admitQuery, conversationFor, loadQueryContext } from './query/context.js';
import { persistQuery } from './query/persist.js';
import { answerQuery } from './query/run.js';
import { holdBudgets } from './query/budget.js';
import { screenInput } from './query/screening.js';
import { inQuerySpan } from './query/span.js';
import type { Caller, QueryListener, QueryResponse, QueryTiming } from './query/types.js';

export type { Caller, QueryListener, QueryResponse, QueryTiming } from './query/types.js';

/*
 * The query as a use case in rooms: read (query/context.ts), screen (query/screening.ts), run the
 * loop over the tools it may use (query/run.ts, query/tools.ts), then persist (query/persist.ts).
 */

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
    return await inQuerySpan(workspaceId, input.query, () => answer(deps, caller, workspaceId, input, listener));
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
  const { conversationId, state, messages } = await conversationFor(deps, caller, workspaceId, requestedId, loaded);
  if (state?.status === 'closed') {
    throw new ConflictError(`conversation ${conversationId} is closed; start a new session to ask again`);
  }
  const { workspace, guardrails } = loaded;
  // Each budget that covers the query holds its estimated cost, or it is 402 before it starts.
  const questionBytes = Buffer.byteLength(input.query) + (state ? 0 : Buffer.byteLength(JSON.stringify(input.history ?? [])));
  const hold = await holdBudgets(deps, caller, workspace, loaded.budgets, loaded.counters, questionBytes);
  listener.onStart?.({ conversation_id: conversationId, session_id: conversationId });
  const tier: ModelTier = modelTier(workspace.model) ?? (modelTier(DEFAULT_MODEL_TIER) as ModelTier);
  const screened = screenInput(guardrails, input.query, state ? [] : (input.history ?? []));
  const budgets = { hold, refuseFirst: true };
  const run = await answerQuery(deps, caller, { ...loaded, state, messages }, screened, tier, listener, budgets).catch(
    async (error: unknown) => {
      await hold.settle(0);
      throw error;
    },
  );
  const { answered, hits, authorizationUrl, tools } = run;
  const loop = unlessTooLargeToWait(run.loop);

  const costUsd = costOf(loop.usage, tier);
  const durationMs = Math.round(performance.now() - started);
  const [saved] = await Promise.all([
    persistQuery(deps, {
      caller,
      workspace,
      conversationId,
      fresh: isNew,
      // Read as the caller's own: its follow-up is saved in one round (query/persist-follow-up.ts).
      read: state?.owner === caller.owner ? state : undefined,
      query: screened.text,
      // A new conversation keeps the (screened) history it was started with, so follow-ups see what the model saw.
      history: screened.history,
      hits: [...screened.hits, ...hits],
      loop,
      costUsd,
      durationMs,
      // Paused for an approval: the question is stored now, the answer once it is decided.
      answered: answered && !loop.paused,
    }),
    // Settled to what it cost, paused or not (a resumed query holds its budgets again).
    hold.settle(costUsd),
  ]);
  const pending = loop.paused
    ? await requestApproval(deps, {
        caller,
        workspace,
        conversationId: saved.conversationId,
        loop: { ...loop, paused: loop.paused },
        tools,
        paused: pausedSoFar(screened.text, saved, { costUsd, durationMs, loop }, []),
      })
    : null;
  if (pending) listener.onEvent?.({ type: 'approval_required', ...pending });
  const totalMs = performance.now() - started;
  return {
    response: queryResponse(loop, { costUsd, durationMs, conversationId: saved.conversationId, authorizationUrl, pending }),
    answerSeq: saved.answerSeq,
    timing: { totalMs, modelMs: loop.modelMs, toolMs: loop.toolMs, overheadMs: Math.max(0, totalMs - loop.modelMs - loop.toolMs) },
  };
}
