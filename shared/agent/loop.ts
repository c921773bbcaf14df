import type { ToolCallOutcome } from '../connections/mcp-hub.js';
import {
  ModelError,
  NO_USAGE,
  addUsage,
  type ContentBlock,
  type ModelClient,
  type ModelMessage,
  type ModelResponse,
  type TokenUsage,
  type ToolSpec,
} from './model.js';
import { AnswerDeltas, type AgentListener } from './events.js';

/** A tool the loop may offer: its spec for the model and how to run it. */
export interface LoopTool {
  spec: ToolSpec;
  /** Display name of the connection that serves it (for `connections_hit`); none for built-in tools. */
  connectionName?: string;
  run(input: Record<string, unknown>): Promise<ToolCallOutcome>;
}

export interface LoopInput {
  client: ModelClient;
  model: string;
  system: string;
  tools: LoopTool[];
  messages: ModelMessage[];
  maxToolRounds: number;
  maxTokens: number;
  /** Tokens (input and output, all calls) the query may spend; it stops once they are spent. */
  tokenBudget?: number;
  /** Told of each piece of answer text and each tool call as they happen (the streaming query). */
  onEvent?: AgentListener;
}

export interface LoopResult {
  answer: string;
  toolsCalled: string[];
  connectionsHit: string[];
  usage: TokenUsage;
  modelMs: number;
  toolMs: number;
  rounds: number;
  error: string | null;
}

function textOf(content: ContentBlock[]): string {
  return content
    .filter((block): block is Extract<ContentBlock, { type: 'text' }> => block.type === 'text')
    .map((block) => block.text)
    .join('');
}

/**
 * The agent loop: ask the model; while it asks for tools, run that turn's calls concurrently and
 * send back their results (a failed call goes back as an error result, for the model to handle);
 * stop at a text answer. A model that keeps calling tools is stopped after `maxToolRounds` rounds.
 */
export async function runAgentLoop(input: LoopInput): Promise<LoopResult> {
  const byName = new Map(input.tools.map((tool) => [tool.spec.name, tool]));
  const specs = input.tools.map((tool) => tool.spec);
  const messages = [...input.messages];
  const emit = input.onEvent ?? (() => undefined);
  const deltas = input.onEvent ? new AnswerDeltas((delta) => emit({ type: 'text', delta })) : undefined;
  const state = { toolsCalled: [] as string[], connectionsHit: new Set<string>(), answerParts: [] as string[] };
  let usage = NO_USAGE;
  let modelMs = 0;
  let toolMs = 0;
  let rounds = 0;
  const result = (error: string | null): LoopResult => ({
    answer: state.answerParts.join('\n\n').trim(),
    toolsCalled: state.toolsCalled,
    connectionsHit: [...state.connectionsHit],
    usage,
    modelMs,
    toolMs,
    rounds,
    error,
  });
  const keepText = (content: ContentBlock[]) => {
    const text = textOf(content).trim();
    if (text) state.answerParts.push(text);
  };

  for (;;) {
    const started = performance.now();
    let response: ModelResponse;
    deltas?.nextTurn();
    try {
      const request = { model: input.model, system: input.system, tools: specs, messages, maxTokens: input.maxTokens };
      response = await input.client.createMessage(request, deltas && ((delta) => deltas.push(delta)));
    } catch (error) {
      modelMs += performance.now() - started;
      if (!(error instanceof ModelError)) throw error;
      // A stream that broke mid-answer: keep what arrived, and count what it used.
      if (error.partial) {
        usage = addUsage(usage, error.partial.usage);
        keepText(error.partial.content);
      }
      return result(error.message);
    }
    modelMs += performance.now() - started;
    usage = addUsage(usage, response.usage);
    keepText(response.content);
    const calls = response.content.filter((block): block is Extract<ContentBlock, { type: 'tool_use' }> => block.type === 'tool_use');
    if (calls.length === 0 || response.stopReason !== 'tool_use') return result(null);
    // A model that keeps calling tools forever is a bug: stop at max_tool_rounds.
    if (rounds >= input.maxToolRounds) return result(`max tool rounds reached (${input.maxToolRounds})`);
    const spent = usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
    if (input.tokenBudget !== undefined && spent >= input.tokenBudget) return result(`token budget reached (${input.tokenBudget})`);

    rounds += 1;
    const toolsStarted = performance.now();
    const outcomes = await Promise.all(calls.map((call) => runCall(call, byName.get(call.name), state, emit)));
    toolMs += performance.now() - toolsStarted;
    messages.push({ role: 'assistant', content: response.content }, { role: 'user', content: outcomes });
  }
}

/** One tool call of a turn, told to the listener as it starts and ends; its result goes back to the model. */
async function runCall(
  call: Extract<ContentBlock, { type: 'tool_use' }>,
  tool: LoopTool | undefined,
  state: { toolsCalled: string[]; connectionsHit: Set<string> },
  emit: AgentListener,
): Promise<ContentBlock> {
  state.toolsCalled.push(call.name);
  const started = performance.now();
  emit({ type: 'tool_call', id: call.id, name: call.name, connection: tool?.connectionName ?? null });
  let outcome: ToolCallOutcome = { text: `unknown tool: ${call.name}`, isError: true };
  if (tool) {
    if (tool.connectionName) state.connectionsHit.add(tool.connectionName);
    outcome = await tool.run(call.input);
  }
  emit({
    type: 'tool_result',
    id: call.id,
    name: call.name,
    is_error: outcome.isError,
    duration_ms: Math.round(performance.now() - started),
  });
  return { type: 'tool_result', toolUseId: call.id, content: outcome.text || '(no output)', isError: outcome.isError };
}
