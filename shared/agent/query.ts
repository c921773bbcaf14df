import { recordDiscoveredTools, refreshTools, specOf, type ConnectionItem, type ToolItem } from '../connections/connections.js';
import { conversationKeys } from '../conversations/keys.js';
import { ownConversationId } from '../conversations/owners.js';
import { applyGuardrails, blockingGuardrail, screeningCost, unusableGuardrail, violationItems, type GuardrailHit } from '../guardrails/enforcement.js';
import { toGuardrail, type Guardrail, type GuardrailItem } from '../guardrails/guardrails.js';
import { REDACTED, SCREENING_BUDGET } from '../guardrails/patterns.js';
import { SEARCH_KNOWLEDGE_TOOL, fitsPrompt, knowledgeSection, searchKnowledge, type KnowledgeItem } from '../knowledge/knowledge.js';
import { dueIndex, minutesAfter, scheduleMove } from '../conversations/lifecycle.js';
import { mcpOf, modelsOf, type Deps } from '../deps.js';
import { modelTier, DEFAULT_MODEL_TIER, type ModelTier } from '../models/catalogue.js';
import { ConflictError, TooManyRequestsError, ValidationError } from '../platform/errors.js';
import { globToRegExp } from '../platform/globs.js';
import { newId } from '../platform/ids.js';
import { keys } from '../platform/keys.js';
import { isConditionFailed, type Item } from '../platform/table.js';
import { counterNames, recordUsage } from '../workspaces/counters.js';
import { ownedWorkspace, type WorkspaceItem } from '../workspaces/workspaces.js';
import { runAgentLoop, type LoopResult, type LoopTool } from './loop.js';
import { NO_USAGE, costOf, totalInput, type ModelMessage } from './model.js';
import { ModelConfigurationError } from './providers.js';
import type { QueryInput } from './schemas.js';

/** Who asks, and through which entry point. */
export interface Caller {
  orgId: string;
  /** Organisation role, matched against the workspace's permissions. */
  role: string;
  userName: string;
  consumerType: 'api' | 'team-chat' | 'messaging' | 'coding-agent';
  /** Display name of the chat channel, or null. */
  channel: string | null;
  /** Team chat: the channel and thread the conversation lives in (for the cold notice). */
  chat?: { channelId: string; threadTs: string };
  /** Who may continue the conversations this caller starts (`conversations/owners.ts`). */
  owner: string;
}

export interface QueryResponse {
  answer: string;
  tools_called: string[];
  connections_hit: string[];
  tokens: { input: number; output: number };
  cost_usd: number;
  duration_ms: number;
  error: string | null;
  conversation_id: string;
  session_id: string;
}

/** Time spent in each part of a query, for the `Server-Timing` header and the benchmark. */
export interface QueryTiming {
  totalMs: number;
  modelMs: number;
  toolMs: number;
  overheadMs: number;
}

/** Messages of the conversation sent to the model with a new query (the latest ones). */
export const CONTEXT_MESSAGES = 40;
const MAX_TOKENS = 4096;

interface ConversationState {
  status?: string;
  message_count?: number;
  owner?: string;
}

/** How servers word a call to a tool they no longer have. */
const STALE_TOOL = /unknown tool|tool .*not found|no such tool/i;


/** The patterns of a role (`permissions[role]`, a JSON-encoded array); none when unset or unreadable. */
export function patternsFor(workspace: WorkspaceItem, role: string): RegExp[] {
  const raw = workspace.permissions?.[role];
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string').map(globToRegExp) : [];
  } catch {
    return [];
  }
}

/** Tool names the model accepts: letters, digits, `_` and `-`, at most 64 characters. */
function safeToolName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64) || 'tool';
}

/**
 * The names a tool answers to in permissions and `block_tool` guardrails: its MCP name, the name
 * offered to the model, and `<connection>__<tool>`. Rules match any of them, so a rule written for
 * one spelling still holds when a second connection renames the tool.
 */
export function namesOf(connectionName: string, toolName: string, offeredName: string): string[] {
  return [...new Set([toolName, offeredName, `${connectionName}__${toolName}`])];
}

/**
 * The tools offered to the model: MCP tool names, prefixed with the connection name only where
 * two connections of the workspace expose the same name; then only those the caller's role may use
 * and no `block_tool` guardrail names (each matched on every name of the tool).
 */
export function offeredTools(
  deps: Deps,
  workspace: WorkspaceItem,
  role: string,
  connections: ConnectionItem[],
  toolsByConnection: Map<string, ToolItem[]>,
  guardrails: Guardrail[] = [],
): LoopTool[] {
  const counts = new Map<string, number>();
  for (const connection of connections) {
    for (const tool of toolsByConnection.get(connection.id) ?? []) counts.set(tool.name, (counts.get(tool.name) ?? 0) + 1);
  }
  const patterns = patternsFor(workspace, role);
  const offered: LoopTool[] = [];
  for (const connection of [...connections].sort((a, b) => a.name.localeCompare(b.name))) {
    const tools = [...(toolsByConnection.get(connection.id) ?? [])].sort((a, b) => a.name.localeCompare(b.name));
    for (const tool of tools) {
      const shared = (counts.get(tool.name) ?? 0) > 1;
      const name = safeToolName(shared ? `${connection.name}__${tool.name}` : tool.name);
      const names = namesOf(connection.name, tool.name, name);
      if (!patterns.some((pattern) => names.some((candidate) => pattern.test(candidate)))) continue;
      if (blockingGuardrail(guardrails, names)) continue;
      offered.push({
        spec: { name, description: tool.description, inputSchema: tool.input_schema },
        connectionName: connection.name,
        run: async (input) => {
          const timeoutMs = workspace.tool_timeout_seconds ? workspace.tool_timeout_seconds * 1000 : undefined;
          const outcome = await mcpOf(deps).callTool(connection.id, specOf(connection), tool.name, input, timeoutMs);
          // The cached list may be stale (the server dropped or renamed the tool): list again.
          if (outcome.isError && STALE_TOOL.test(outcome.text)) {
            await refreshTools(deps, connection).catch((error: unknown) =>
              deps.logger.warn('refreshing tools failed', { connection: connection.id, error: mcpOf(deps).reasonOf(error) }),
            );
          }
          return outcome;
        },
      });
    }
  }
  return offered;
}

function toModelMessages(history: { role: 'user' | 'assistant'; content: string }[]): ModelMessage[] {
  return history
    .filter((message) => message.content.trim().length > 0)
    .map((message) => ({ role: message.role, content: [{ type: 'text', text: message.content }] }));
}

function defaultSystemPrompt(workspace: WorkspaceItem): string {
  return `You are the assistant of the "${workspace.name}" workspace. Answer the user's questions, using the tools available when they help.`;
}

/** Everything a query reads, in one parallel round of three calls. */
/**
 * Counts the organisation's query in a per-minute window (one ADD, in the query's first round of
 * store calls) and refuses it with 429 once the window holds more than the limit.
 */
async function countQuery(deps: Deps, orgId: string): Promise<void> {
  const now = deps.clock.now().getTime();
  const minute = Math.floor(now / 60_000);
  const counted = await deps.table.update<{ queries: number }>(
    { pk: `RATE#${orgId}`, sk: `Q#${minute}` },
    { update: 'ADD queries :one SET #ttl = :ttl', names: { '#ttl': 'ttl' }, values: { ':one': 1, ':ttl': (minute + 2) * 60 } },
  );
  const limit = deps.config.queryRateLimitPerMinute;
  if (counted.queries > limit) {
    throw new TooManyRequestsError(
      `too many queries: this organisation may run ${limit} a minute`,
      Math.max(1, Math.ceil(((minute + 1) * 60_000 - now) / 1000)),
    );
  }
}

/** A conversation's item and its latest messages (oldest first), in one newest-first Query. */
async function loadConversation(deps: Deps, workspaceId: string, conversationId: string) {
  const page = await deps.table.query({
    pk: conversationKeys.partition(workspaceId, conversationId),
    newestFirst: true,
    limit: CONTEXT_MESSAGES + 1,
  });
  const state = page.items.find((item) => item.sk === 'STATE') as (Item & ConversationState) | undefined;
  const messages = page.items
    .filter((item) => item.sk.startsWith('MSG#'))
    .reverse()
    .map((item) => ({ role: item.role === 'assistant' ? ('assistant' as const) : ('user' as const), content: String(item.content ?? '') }));
  return { state, messages };
}

async function loadQueryContext(deps: Deps, caller: Caller, workspaceId: string, conversationId: string) {
  const [workspaceItems, conversation, settings] = await Promise.all([
    deps.table.queryAll({ pk: keys.workspacePartition(workspaceId) }),
    loadConversation(deps, workspaceId, conversationId),
    deps.table.batchGet([keys.setting(caller.orgId, 'ai_provider'), keys.setting(caller.orgId, 'ai_api_key')]),
  ]);
  const workspace = ownedWorkspace(workspaceItems.find((item) => item.sk === 'META'), caller.orgId, workspaceId);
  const connections = workspaceItems.filter((item) => item.sk.startsWith('CONN#')) as unknown as ConnectionItem[];
  const toolsByConnection = new Map<string, ToolItem[]>();
  for (const item of workspaceItems) {
    if (!item.sk.startsWith('TOOL#')) continue;
    const tool = item as unknown as ToolItem;
    toolsByConnection.set(tool.connection_id, [...(toolsByConnection.get(tool.connection_id) ?? []), tool]);
  }
  const setting = (key: string) => settings.find((item) => item.sk === `SETTING#${key}`)?.value as string | undefined;
  const knowledge = workspaceItems.filter((item) => item.sk.startsWith('KNOW#')) as unknown as KnowledgeItem[];
  const guardrails = (workspaceItems.filter((item) => item.sk.startsWith('GUARD#')) as unknown as GuardrailItem[]).map(toGuardrail);
  return { workspace, connections, toolsByConnection, knowledge, guardrails, ...conversation, provider: setting('ai_provider'), apiKey: setting('ai_api_key') };
}

/**
 * The conversation a query continues: the one its `session_id` names when the caller owns it (or
 * it is new), else the caller's own conversation for that `session_id` (`ownConversationId`), so
 * nobody can add a turn to, or read the history of, a conversation they may not continue.
 */
async function conversationFor(deps: Deps, caller: Caller, workspaceId: string, requestedId: string, loaded: Awaited<ReturnType<typeof loadConversation>>) {
  if (!loaded.state?.owner || loaded.state.owner === caller.owner) return { conversationId: requestedId, ...loaded };
  const conversationId = ownConversationId(requestedId, caller.owner);
  return { conversationId, ...(await loadConversation(deps, workspaceId, conversationId)) };
}

/**
 * Knowledge reaches the model in the cached system prefix while it fits the budget; beyond, the
 * model gets the built-in `search_knowledge` tool instead.
 */
function knowledgeFor(knowledge: KnowledgeItem[]): { prompt: string; tool: LoopTool | undefined } {
  if (!knowledge.length) return { prompt: '', tool: undefined };
  const sorted = [...knowledge].sort((a, b) => a.title.localeCompare(b.title));
  if (fitsPrompt(sorted)) return { prompt: `\n\n${knowledgeSection(sorted)}`, tool: undefined };
  return {
    prompt: '\n\nThis workspace has a knowledge base: search it with search_knowledge.',
    tool: {
      spec: SEARCH_KNOWLEDGE_TOOL,
      run: async (input) => {
        const found = searchKnowledge(sorted, String(input.query ?? ''));
        return found.length
          ? { text: knowledgeSection(found), isError: false }
          : { text: 'Nothing in the knowledge base matches these keywords.', isError: false };
      },
    },
  };
}

/**
 * Connects to every connection in parallel (live sessions are reused) and lists the tools of any
 * stdio connection used for the first time. Returns the names of unreachable connections with why.
 */
async function connectAll(deps: Deps, connections: ConnectionItem[], toolsByConnection: Map<string, ToolItem[]>): Promise<string[]> {
  const failures = await Promise.all(
    connections.map(async (connection) => {
      try {
        await mcpOf(deps).session(connection.id, specOf(connection));
        if (!connection.tools_discovered) {
          const tools = await mcpOf(deps).listTools(connection.id, specOf(connection));
          toolsByConnection.set(connection.id, await recordDiscoveredTools(deps, connection, tools));
        }
        return undefined;
      } catch (error) {
        return `MCP connection "${connection.name}" is unreachable: ${mcpOf(deps).reasonOf(error)}`;
      }
    }),
  );
  return failures.filter((failure): failure is string => failure !== undefined);
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
 * `POST /api/workspaces/:id/query`: the spec's eight steps. Reads (workspace with connections and
 * cached tools, conversation with its latest messages, model settings) are one parallel round;
 * writes are two (the conversation item, then messages + audit entry + counters in parallel).
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

/**
 * Saves a query: first the conversation item (created or updated in one conditional UpdateItem,
 * which also hands out the message sequence numbers atomically), then in parallel the messages
 * and the audit entry (one BatchWriteItem) and the usage counters (day item and workspace item).
 */
async function persistQuery(
  deps: Deps,
  caller: Caller,
  workspace: WorkspaceItem,
  conversationId: string,
  asked: { query: string; history: { role: 'user' | 'assistant'; content: string }[]; hits: GuardrailHit[] },
  loop: LoopResult,
  costUsd: number,
  durationMs: number,
  answered: boolean,
): Promise<string> {
  const { query, history, hits } = asked;
  const now = deps.clock.now();
  const at = now.toISOString();
  const messageCount = history.length + (answered ? 2 : 1);
  const indexKey = `${at}#${conversationId}`;
  const coldAt = minutesAfter(now, workspace.cold_timeout_minutes);
  const due = dueIndex('open', workspace.id, conversationId, coldAt);
  let previous: ConversationState | undefined;
  try {
    previous = await deps.table.updateReturningOld<ConversationState>(conversationKeys.conversation(workspace.id, conversationId), {
      update: [
        'SET #status = :open, #last = :now, #g1pk = :g1pk, #g1sk = :gsk, #g2pk = :g2pk, #g2sk = :gsk',
        '#id = if_not_exists(#id, :id), #ws = if_not_exists(#ws, :ws), #org = if_not_exists(#org, :org)',
        '#consumer = if_not_exists(#consumer, :consumer), #user = if_not_exists(#user, :user)',
        '#channel = if_not_exists(#channel, :channel), #first = if_not_exists(#first, :now)',
        '#stats = if_not_exists(#stats, :pending), #due = :due, #g3pk = :g3pk, #g3sk = :g3sk, #owner = if_not_exists(#owner, :owner)',
        ...(caller.chat ? ['#chatChannel = if_not_exists(#chatChannel, :chatChannel), #chatThread = if_not_exists(#chatThread, :chatThread)'] : []),
      ].join(', ') + ' ADD #count :count, #cost :cost REMOVE #moved, #coldAt',
      // Not closed, and the caller's own (a conversation older than owners is claimed by its next query).
      condition: '(attribute_not_exists(pk) OR #status <> :closed) AND (attribute_not_exists(#owner) OR #owner = :owner)',
      names: {
        '#status': 'status',
        '#last': 'last_activity_at',
        '#g1pk': 'gsi1pk',
        '#g1sk': 'gsi1sk',
        '#g2pk': 'gsi2pk',
        '#g2sk': 'gsi2sk',
        '#id': 'id',
        '#ws': 'workspace_id',
        '#org': 'org_id',
        '#consumer': 'consumer_type',
        '#user': 'user_name',
        '#channel': 'channel',
        '#first': 'first_message_at',
        '#stats': 'stats_status',
        '#count': 'message_count',
        '#cost': 'total_cost_usd',
        '#due': 'due_at',
        '#g3pk': 'gsi3pk',
        '#g3sk': 'gsi3sk',
        '#moved': 'moved_by',
        '#coldAt': 'cold_at',
        '#owner': 'owner',
        ...(caller.chat ? { '#chatChannel': 'chat_channel_id', '#chatThread': 'chat_thread_ts' } : {}),
      },
      values: {
        ':open': 'open',
        ':closed': 'closed',
        ':now': at,
        ':g1pk': keys.conversationsIndex(workspace.id),
        ':g2pk': keys.conversationsByStatusIndex(workspace.id, 'open'),
        ':gsk': indexKey,
        ':id': conversationId,
        ':ws': workspace.id,
        ':org': caller.orgId,
        ':consumer': caller.consumerType,
        ':user': caller.userName,
        ':channel': caller.channel,
        ':owner': caller.owner,
        ':pending': 'pending',
        ':count': messageCount,
        ':cost': costUsd,
        ':due': coldAt.toISOString(),
        ':g3pk': due.gsi3pk,
        ':g3sk': due.gsi3sk,
        ...(caller.chat ? { ':chatChannel': caller.chat.channelId, ':chatThread': caller.chat.threadTs } : {}),
      },
    });
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    const current = await deps.table.get<ConversationState>(conversationKeys.conversation(workspace.id, conversationId), true);
    if (current?.owner && current.owner !== caller.owner && !conversationId.endsWith(ownConversationId('', caller.owner))) {
      // Someone else started a conversation under this id while the query ran: it becomes the caller's own.
      return persistQuery(deps, caller, workspace, ownConversationId(conversationId, caller.owner), asked, loop, costUsd, durationMs, answered);
    }
    throw new ConflictError(`conversation ${conversationId} was closed while the query ran`);
  }
  const historySeq = (previous?.message_count ?? 0) + 1;
  const firstSeq = historySeq + history.length;
  const message = (seq: number, role: 'user' | 'assistant', content: string): Item => ({
    ...conversationKeys.message(workspace.id, conversationId, seq),
    id: newId('msg', now),
    seq,
    role,
    content,
    tools_called: null,
    tokens_input: null,
    tokens_output: null,
    cost_usd: null,
    duration_ms: null,
    created_at: at,
  });
  const items: Item[] = history.map((entry, index) => message(historySeq + index, entry.role, entry.content));
  items.push(message(firstSeq, 'user', query));
  if (answered) {
    items.push({
      ...message(firstSeq + 1, 'assistant', loop.answer),
      tools_called: JSON.stringify(loop.toolsCalled),
      tokens_input: totalInput(loop.usage),
      tokens_output: loop.usage.output,
      cost_usd: costUsd,
      duration_ms: durationMs,
    });
  }
  const activityId = newId('act', now);
  items.push({
    pk: keys.activityPartition(workspace.id),
    sk: `${at}#${activityId}`,
    id: activityId,
    conversation_id: conversationId,
    user_name: caller.userName,
    query,
    tools_called: loop.toolsCalled,
    connections_hit: loop.connectionsHit,
    tokens_input: totalInput(loop.usage),
    tokens_output: loop.usage.output,
    cost_usd: costUsd,
    duration_ms: durationMs,
    error: loop.error,
    created_at: at,
  });
  items.push(...violationItems(deps, workspace.id, conversationId, hits));
  const conversationDeltas: Record<string, number> = hits.length ? { violations: hits.length } : {};
  if (!previous) {
    conversationDeltas[counterNames.conversations] = 1;
    conversationDeltas[counterNames.dimension('status', 'open')] = 1;
    conversationDeltas[counterNames.dimension('consumer', caller.consumerType)] = 1;
    if (caller.channel) conversationDeltas[counterNames.dimension('channel', caller.channel)] = 1;
  } else if (previous.status === 'cold') {
    conversationDeltas[counterNames.dimension('status', 'cold')] = -1;
    conversationDeltas[counterNames.dimension('status', 'open')] = 1;
  }
  await Promise.all([
    deps.table.batchPut(items),
    // The next move: cold after cold_timeout_minutes without activity (replaces the pending one).
    scheduleMove(deps, caller.orgId, { workspaceId: workspace.id, conversationId, move: 'cold', lastActivityAt: at }, coldAt),
    recordUsage(
      deps,
      workspace.id,
      {
        queries: 1,
        errors: loop.error ? 1 : 0,
        duration_ms: durationMs,
        cost_usd: costUsd,
        tokens_input: totalInput(loop.usage),
        tokens_output: loop.usage.output,
      },
      now,
      conversationDeltas,
    ),
  ]);
  return conversationId;
}

