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
  const toolsCalled: string[] = [];
  const connectionsHit = new Set<string>();
  const answerParts: string[] = [];
  let usage = NO_USAGE;
  let modelMs = 0;
  let toolMs = 0;
  let rounds = 0;
  const result = (error: string | null): LoopResult => ({
    answer: answerParts.join('\n\n').trim(),
    toolsCalled,
    connectionsHit: [...connectionsHit],
    usage,
    modelMs,
    toolMs,
    rounds,
    error,
  });

  for (;;) {
    const started = performance.now();
    let response: ModelResponse;
    try {
      response = await input.client.createMessage({
        model: input.model,
        system: input.system,
        tools: specs,
        messages,
        maxTokens: input.maxTokens,
      });
    } catch (error) {
      modelMs += performance.now() - started;
      if (error instanceof ModelError) return result(error.message);
      throw error;
    }
    modelMs += performance.now() - started;
    usage = addUsage(usage, response.usage);
    const text = textOf(response.content);
    if (text.trim()) answerParts.push(text.trim());
    const calls = response.content.filter((block): block is Extract<ContentBlock, { type: 'tool_use' }> => block.type === 'tool_use');
    if (calls.length === 0 || response.stopReason !== 'tool_use') return result(null);
    // A model that keeps calling tools forever is a bug: stop at max_tool_rounds.
    if (rounds >= input.maxToolRounds) return result(`max tool rounds reached (${input.maxToolRounds})`);
    const spent = usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
    if (input.tokenBudget !== undefined && spent >= input.tokenBudget) return result(`token budget reached (${input.tokenBudget})`);

    rounds += 1;
    const toolsStarted = performance.now();
    const outcomes = await Promise.all(
      calls.map(async (call): Promise<ContentBlock> => {
        toolsCalled.push(call.name);
        const tool = byName.get(call.name);
        if (!tool) return { type: 'tool_result', toolUseId: call.id, content: `unknown tool: ${call.name}`, isError: true };
        if (tool.connectionName) connectionsHit.add(tool.connectionName);
        const outcome = await tool.run(call.input);
        return { type: 'tool_result', toolUseId: call.id, content: outcome.text || '(no output)', isError: outcome.isError };
      }),
    );
    toolMs += performance.now() - toolsStarted;
    messages.push({ role: 'assistant', content: response.content }, { role: 'user', content: outcomes });
  }
}
