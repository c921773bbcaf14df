import { blockingGuardrail, screensAnswers, type Guardrail } from '../../guardrails/index.js';
import { modelsOf, type Deps } from '../../deps.js';
import { type ModelTier, NO_USAGE, type ModelClient, type ModelMessage, ModelConfigurationError } from '../../models/index.js';
import { toolBudgetSecondsOf, type WorkspaceItem, counterNames, counterOf } from '../../workspaces/index.js';
import { runAgentLoop, type LoopInput, type LoopResult, type LoopTool } from '../loop.js';
import type { loadQueryContext } from './context.js';
import type { ScreenedInput } from './screening.js';
import { screenAnswer, screenToolCalls, screenToolEvent } from './screening.js';
import { connectAll, knowledgeFor, offeredTools, type OfferedTool } from './tools.js';
import { planToolSearch } from '../../tool-search/index.js';
import { namedTools } from '../../connections/index.js';
import type { Citation, CitationLedger } from '../../knowledge/index.js';
import { MAX_TOKENS, type Caller, type QueryListener } from './types.js';
import type { AgentListener } from '../events.js';

/** What the query read (query/context.ts), with the conversation's state and latest messages. */
export type QueryContext = Awaited<ReturnType<typeof loadQueryContext>> & {
  state: { status?: string } | undefined;
  messages: { role: 'user' | 'assistant'; content: string }[];
};

export interface QueryRun {
  loop: LoopResult;
  /** False when the query stopped before the model ran: then only the question is stored. */
  answered: boolean;
  /** Guardrail hits of the run: calls to a blocked tool, and the answer's. */
  hits: ScreenedInput['hits'];
  /** A per-user connection the caller must grant first: where (`query/tools.ts`). */
  authorizationUrl?: string;
  /** The tools offered (a paused loop's call is looked up among them). */
  tools: LoopTool[];
  /** The knowledge passages the answer cites. */
  citations?: Citation[];
}

function toModelMessages(history: { role: 'user' | 'assistant'; content: string }[]): ModelMessage[] {
  return history
    .filter((message) => message.content.trim().length > 0)
    .map((message) => ({ role: message.role, content: [{ type: 'text', text: message.content }] }));
}

function defaultSystemPrompt(workspace: WorkspaceItem): string {
  return `You are the assistant of the "${workspace.name}" workspace. Answer the user's questions, using the tools available when they help.`;
}

/** A run that ended before the model was called, with `error`. */
export function nothingRan(error: string, answered: boolean, answer = ''): QueryRun {
  const loop: LoopResult = { answer, toolsCalled: [], connectionsHit: [], usage: NO_USAGE, modelMs: 0, toolMs: 0, rounds: 0, error };
  return { loop, answered, hits: [], tools: [] };
}

/** The loop's events as the listener is told them: tool text screened; no text while answers are held for screening. */
function shownEvents(guardrails: Guardrail[], held: boolean, listener: AgentListener): AgentListener {
  return (event) => (held && event.type === 'text' ? undefined : listener(screenToolEvent(guardrails, event)));
}

/** The organisation's model client, or why there is none (no key, a provider not allowed). */
function clientOf(deps: Deps, context: QueryContext): ModelClient | string {
  try {
    return modelsOf(deps).clientFor({ provider: context.provider, apiKey: context.apiKey });
  } catch (error) {
    if (!(error instanceof ModelConfigurationError)) throw error;
    return error.message;
  }
}

/**
 * How long the prompt cache should keep the workspace's tools and system prompt. A 1-hour entry
 * costs twice the input price to write against 1.25 times for 5 minutes, and reads cost a tenth
 * either way: it pays when the next query usually comes within the hour but not within 5 minutes,
 * which for queries arriving at random holds from about 0.6 an hour. So: 1 hour for a workspace
 * that has averaged at least one query an hour this month, 5 minutes otherwise.
 */
export function prefixCacheTtlFor(counters: object, now: Date): '5m' | '1h' {
  const month = now.toISOString().slice(0, 7);
  const queries = counterOf(counters, counterNames.month(month, 'queries'));
  const monthStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
  const hours = Math.max(1, (now.getTime() - monthStart) / 3_600_000);
  return queries / hours >= 1 ? '1h' : '5m';
}

/** What the model is told of a write tool's call in an evaluation. */
const NOT_RUN_IN_EVALUATION =
  'This call was not run: write tools never run during an evaluation. It is recorded; go on as if it had succeeded.';

/**
 * The tools of an evaluation's case: a write tool's call is recorded (its name in `tools_called`)
 * but never reaches its server, and no call waits for an approval.
 */
function forEvaluation(caller: Caller, tools: OfferedTool[]): OfferedTool[] {
  if (!caller.evaluation) return tools;
  return tools.map((tool) => ({
    ...tool,
    needsApproval: false,
    ...(tool.isWrite ? { run: async () => ({ text: NOT_RUN_IN_EVALUATION, isError: false }) } : {}),
  }));
}

/** A loop ready to run: its input (without the messages), the tools offered, whether answers are held for screening. */
export interface PreparedLoop {
  input: Omit<LoopInput, 'messages'>;
  tools: LoopTool[];
  held: boolean;
  /** The passages `search_knowledge` gives the model, numbered (a workspace with documents). */
  citations?: CitationLedger;
}

/**
 * Everything a run of the loop needs apart from its messages: the model client, every connection
 * reached, the tools the caller may use, the system prompt with the knowledge; or why it cannot
 * run (no model client, an unreachable connection). Also what a resumed query runs with.
 */
export async function prepareLoop(
  deps: Deps,
  caller: Caller,
  context: QueryContext,
  tier: ModelTier,
  listener: QueryListener,
): Promise<PreparedLoop | QueryRun> {
  const client = clientOf(deps, context);
  if (typeof client === 'string') return nothingRan(client, false);
  const { workspace, connections, toolsByConnection, guardrails } = context;
  const subject = caller.grantSubject ?? caller.owner;
  const reached = await connectAll(deps, connections, toolsByConnection, { subject, orgId: caller.orgId });
  if (reached.failures.length) return { ...nothingRan(reached.failures.join('; '), false), authorizationUrl: reached.authorizationUrl };
  const knowledge = knowledgeFor(deps, { orgId: caller.orgId, workspaceId: workspace.id }, context.knowledge, context.documents);
  // Tools a block_tool guardrail names are never offered, whatever the role may use.
  const named = namedTools(connections, toolsByConnection);
  const offered = forEvaluation(caller, offeredTools(deps, workspace, caller.role, named, guardrails, subject));
  const builtIn = knowledge.tool && !blockingGuardrail(guardrails, knowledge.tool.spec.name) ? [knowledge.tool] : [];
  // Past the workspace's threshold the model searches its tools instead of reading every definition.
  const search = planToolSearch({ orgId: caller.orgId, workspace, embedder: deps.embedder, logger: deps.logger }, named, offered, builtIn);
  const tools = search?.tools ?? [...offered, ...builtIn];
  // A workspace that screens answers sends the screened answer whole, once the loop is done.
  const held = screensAnswers(guardrails);
  const input = {
    client,
    model: client.modelFor(tier),
    system: (workspace.system_prompt || defaultSystemPrompt(workspace)) + knowledge.prompt + (search?.prompt ?? ''),
    tools,
    maxToolRounds: workspace.max_tool_rounds,
    maxTokens: MAX_TOKENS,
    tokenBudget: workspace.max_tokens_per_query ?? undefined,
    toolBudgetMs: toolBudgetSecondsOf(workspace) * 1000,
    prefixCacheTtl: prefixCacheTtlFor(context.counters, deps.clock.now()),
    onEvent: listener.onEvent && shownEvents(guardrails, held, listener.onEvent),
    signal: listener.signal,
  };
  return { input, tools, held, ...(knowledge.citations ? { citations: knowledge.citations } : {}) };
}

/** The run's guardrail hits (calls to blocked tools, the answer's) and its screened answer. */
export function finishRun(guardrails: Guardrail[], loop: LoopResult, prepared: PreparedLoop, listener: QueryListener): QueryRun {
  // A call to a tool a guardrail keeps from the model was refused as unknown: record the attempt.
  const hits: QueryRun['hits'] = [];
  for (const name of new Set(loop.toolsCalled)) {
    const guardrail = blockingGuardrail(guardrails, name);
    if (guardrail) hits.push({ guardrail, direction: 'tools', action: 'block', excerpt: `call to tool ${name}` });
  }
  const answer = screenAnswer(guardrails, loop.answer);
  hits.push(...answer.hits);
  if (prepared.held && answer.answer) listener.onEvent?.({ type: 'text', delta: answer.answer });
  const error = answer.withheldBy ? (loop.error ?? `answer withheld by guardrail "${answer.withheldBy.name}"`) : loop.error;
  const calls = screenToolCalls(guardrails, loop.calls);
  const citations = prepared.citations?.cited(answer.answer) ?? [];
  return {
    loop: { ...loop, answer: answer.answer, error, ...(calls ? { calls } : {}) },
    answered: true,
    hits,
    tools: prepared.tools,
    ...(citations.length ? { citations } : {}),
  };
}

/**
 * Runs the agent loop for a screened question, or says why it did not run: a guardrail that
 * cannot run, a blocked question (the refusal is the answer, kept with the question), no model
 * client, an unreachable connection.
 */
export async function answerQuery(
  deps: Deps,
  caller: Caller,
  context: QueryContext,
  input: ScreenedInput,
  tier: ModelTier,
  listener: QueryListener,
  /** The budgets' check before each model round (query/budget.ts, `beforeRounds`): none when no budget covers the query. */
  beforeModelCall: LoopInput['beforeModelCall'],
): Promise<QueryRun> {
  if (input.unusable) return nothingRan(input.unusable, false);
  if (input.blockedBy) {
    const name = input.blockedBy.name;
    const refusal = `Your message was not sent: it matches the workspace's guardrail "${name}".`;
    listener.onEvent?.({ type: 'text', delta: refusal });
    return nothingRan(`blocked by guardrail "${name}"`, true, refusal);
  }
  const prepared = await prepareLoop(deps, caller, context, tier, listener);
  if ('loop' in prepared) return prepared;
  const history = toModelMessages(context.state ? context.messages : input.history);
  const loop = await runAgentLoop({
    ...prepared.input,
    messages: [...history, { role: 'user', content: [{ type: 'text', text: input.text }] }],
    beforeModelCall,
  });
  return finishRun(context.guardrails, loop, prepared, listener);
}
