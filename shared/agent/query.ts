import { applyGuardrails, blockingGuardrail, screeningCost, unusableGuardrail, type GuardrailHit } from '../guardrails/enforcement.js';
import { type Guardrail } from '../guardrails/guardrails.js';
import { REDACTED, SCREENING_BUDGET } from '../guardrails/patterns.js';
import { modelsOf, type Deps } from '../deps.js';
import { modelTier, DEFAULT_MODEL_TIER, type ModelTier } from '../models/catalogue.js';
import { ConflictError, ValidationError } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import { type WorkspaceItem } from '../workspaces/workspaces.js';
import { runAgentLoop, type LoopResult } from './loop.js';
import { NO_USAGE, costOf, totalInput, type ModelMessage } from './model.js';
import { ModelConfigurationError } from './providers.js';
import type { QueryInput } from './schemas.js';
import { conversationFor, countQuery, loadQueryContext } from './query/context.js';
import { persistQuery } from './query/persist.js';
import { connectAll, knowledgeFor, offeredTools } from './query/tools.js';
import { MAX_TOKENS, type Caller, type QueryResponse, type QueryTiming } from './query/types.js';

export type { Caller, QueryResponse, QueryTiming } from './query/types.js';

/*
 * The query as a use case: read (query/context.ts), choose tools (query/tools.ts), run the loop
 * here, then persist (query/persist.ts).
 */

function toModelMessages(history: { role: 'user' | 'assistant'; content: string }[]): ModelMessage[] {
  return history
    .filter((message) => message.content.trim().length > 0)
    .map((message) => ({ role: message.role, content: [{ type: 'text', text: message.content }] }));
}

function defaultSystemPrompt(workspace: WorkspaceItem): string {
  return `You are the assistant of the "${workspace.name}" workspace. Answer the user's questions, using the tools available when they help.`;
}

/**
 * Screening runs in the shared process: a question with a long starting history, under a workspace
 * whose patterns are at their size limit, is refused (400) rather than screened for seconds.
 */
function refuseOverlongScreening(guardrails: Guardrail[], query: string, history: { role: 'user' | 'assistant'; content: string }[]): void {
  const asked = [query, ...history.filter((message) => message.role === 'user').map((message) => message.content)];
  const answered = history.filter((message) => message.role === 'assistant').map((message) => message.content);
  const cost = screeningCost(guardrails, asked, 'input') + screeningCost(guardrails, answered, 'output');
  if (cost <= SCREENING_BUDGET) return;
  throw new ValidationError('invalid request body', [
    { path: 'history', message: "too long to screen with this workspace's guardrails: send fewer or shorter messages" },
  ]);
}

/**
 * `POST /api/workspaces/:id/query`: the eight steps of docs/agent-loop.md. Reads (workspace with
 * connections and cached tools, conversation with its latest messages, model settings) are one
 * parallel round; writes are two (the conversation item, then messages + audit entry + counters in
 * parallel).
 */
export async function runQuery(
  deps: Deps,
  caller: Caller,
  workspaceId: string,
  input: QueryInput,
): Promise<{ response: QueryResponse; timing: QueryTiming }> {
  const started = performance.now();
  const requestedId = input.session_id ?? newId('conv', deps.clock.now());
  const [loaded] = await Promise.all([loadQueryContext(deps, caller, workspaceId, requestedId), countQuery(deps, caller.orgId)]);
  const { workspace, connections, toolsByConnection, guardrails } = loaded;
  const { conversationId, state, messages } = await conversationFor(deps, caller, workspaceId, requestedId, loaded);
  const context = { ...loaded, state, messages };
  if (state?.status === 'closed') {
    throw new ConflictError(`conversation ${conversationId} is closed; start a new session to ask again`);
  }
  const tier: ModelTier = modelTier(workspace.model) ?? (modelTier(DEFAULT_MODEL_TIER) as ModelTier);
  // Guardrails on the way in: a blocked question never reaches the model; redacted parts never
  // leave. The history a new conversation starts with is screened like the question.
  const hits: GuardrailHit[] = [];
  const newHistory = state ? [] : (input.history ?? []).filter((message) => message.content.trim().length > 0);
  // A guardrail that cannot run stops the query before anything is screened, sent or kept in clear.
  const unusable = unusableGuardrail(guardrails);
  refuseOverlongScreening(guardrails, input.query, newHistory);
  const screenedHistory = (unusable ? [] : newHistory).map((message) => {
    const result = applyGuardrails(guardrails, message.content, message.role === 'user' ? 'input' : 'output');
    hits.push(...result.hits);
    return { message: { role: message.role, content: result.text }, blockedBy: result.blockedBy };
  });
  const screened = unusable ? { text: REDACTED, hits: [], blockedBy: undefined } : applyGuardrails(guardrails, input.query, 'input');
  hits.push(...screened.hits);
  const blockedBy = screened.blockedBy ?? screenedHistory.find((entry) => entry.blockedBy)?.blockedBy;

  let loop: LoopResult;
  // False when the query stops before the model runs: then only the question is stored.
  let answered = true;
  const nothingRan = (error: string, answer = ''): LoopResult => ({
    answer,
    toolsCalled: [],
    connectionsHit: [],
    usage: NO_USAGE,
    modelMs: 0,
    toolMs: 0,
    rounds: 0,
    error,
  });
  let client;
  let unconfigured = '';
  try {
    client = modelsOf(deps).clientFor({ provider: context.provider, apiKey: context.apiKey });
  } catch (error) {
    if (!(error instanceof ModelConfigurationError)) throw error;
    unconfigured = error.message;
  }
  if (unusable) {
    answered = false;
    loop = nothingRan(unusable);
  } else if (blockedBy) {
    const name = blockedBy.name;
    // The refusal is the answer, and is kept with the question.
    loop = nothingRan(`blocked by guardrail "${name}"`, `Your message was not sent: it matches the workspace's guardrail "${name}".`);
  } else if (!client) {
    answered = false;
    loop = nothingRan(unconfigured);
  } else {
    const unreachable = await connectAll(deps, connections, toolsByConnection);
    if (unreachable.length) {
      answered = false;
      loop = nothingRan(unreachable.join('; '));
    }
    else {
      const history = toModelMessages(state ? context.messages : screenedHistory.map((entry) => entry.message));
      const knowledge = knowledgeFor(context.knowledge);
      // Tools a block_tool guardrail names are never offered, whatever the role may use.
      const tools = [
        ...offeredTools(deps, workspace, caller.role, connections, toolsByConnection, guardrails),
        ...(knowledge.tool && !blockingGuardrail(guardrails, knowledge.tool.spec.name) ? [knowledge.tool] : []),
      ];
      loop = await runAgentLoop({
        client,
        model: client.modelFor(tier),
        system: (workspace.system_prompt || defaultSystemPrompt(workspace)) + knowledge.prompt,
        tools,
        messages: [...history, { role: 'user', content: [{ type: 'text', text: screened.text }] }],
        maxToolRounds: workspace.max_tool_rounds,
        maxTokens: MAX_TOKENS,
        tokenBudget: workspace.max_tokens_per_query ?? undefined,
      });
      // A call to a tool a guardrail keeps from the model was refused as unknown: record the attempt.
      for (const name of new Set(loop.toolsCalled)) {
        const guardrail = blockingGuardrail(guardrails, name);
        if (guardrail) hits.push({ guardrail, direction: 'tools', action: 'block', excerpt: `call to tool ${name}` });
      }
      // Guardrails on the way out: the answer returned and stored.
      const answer = applyGuardrails(guardrails, loop.answer, 'output');
      hits.push(...answer.hits);
      if (answer.blockedBy) {
        loop = { ...loop, answer: `The answer was withheld: it matches the workspace's guardrail "${answer.blockedBy.name}".`, error: loop.error ?? `answer withheld by guardrail "${answer.blockedBy.name}"` };
      } else loop = { ...loop, answer: answer.text };
    }
  }

  const costUsd = costOf(loop.usage, tier);
  const durationMs = Math.round(performance.now() - started);
  // A new conversation keeps the (screened) history it was started with, so follow-ups see what the model saw.
  const history = screenedHistory.map((entry) => entry.message);
  const savedId = await persistQuery(deps, caller, workspace, conversationId, { query: screened.text, history, hits }, loop, costUsd, durationMs, answered);
  const totalMs = performance.now() - started;
  return {
    response: {
      answer: loop.answer,
      tools_called: loop.toolsCalled,
      connections_hit: loop.connectionsHit,
      tokens: { input: totalInput(loop.usage), output: loop.usage.output },
      cost_usd: costUsd,
      duration_ms: durationMs,
      error: loop.error,
      conversation_id: savedId,
      session_id: savedId,
    },
    timing: { totalMs, modelMs: loop.modelMs, toolMs: loop.toolMs, overheadMs: Math.max(0, totalMs - loop.modelMs - loop.toolMs) },
  };
}
