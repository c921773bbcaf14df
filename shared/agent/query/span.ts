import { ATTR, contentAttributes, failSpan, inSpan } from '../../platform/tracing.js';
import type { QueryResponse } from './types.js';

/** A message in the GenAI conventions' JSON form (`gen_ai.input.messages`, `gen_ai.output.messages`). */
const messages = (role: 'user' | 'assistant', text: string) => JSON.stringify([{ role, parts: [{ type: 'text', content: text }] }]);

/**
 * One `invoke_agent` span per query (the GenAI conventions' agent span): the workspace is the
 * agent; the model calls (the SDK's `chat` spans), tool calls and store calls of the query are its
 * children. It ends with the conversation, the tokens and cost of every model call, and the error
 * the query answered with; the question and answer only when content is captured.
 */
export function inQuerySpan<T extends { response: QueryResponse }>(
  workspaceId: string,
  question: string | undefined,
  run: () => Promise<T>,
): Promise<T> {
  const attributes = () => ({
    [ATTR.operation]: 'invoke_agent',
    [ATTR.agentId]: workspaceId,
    [ATTR.agentName]: workspaceId,
    ...(question === undefined ? {} : contentAttributes(() => ({ [ATTR.inputMessages]: messages('user', question) }))),
  });
  return inSpan(`invoke_agent ${workspaceId}`, { attributes }, async (span) => {
    const result = await run();
    const { response } = result;
    span.setAttributes({
      [ATTR.conversationId]: response.conversation_id,
      // The GenAI conventions count all input in input_tokens, the cache's part in attributes of its own.
      [ATTR.inputTokens]: response.tokens.input + response.tokens.cache_read + response.tokens.cache_write,
      [ATTR.outputTokens]: response.tokens.output,
      [ATTR.cacheReadTokens]: response.tokens.cache_read,
      [ATTR.cacheWriteTokens]: response.tokens.cache_write,
      'workspace_agent.cost_usd': response.cost_usd,
      'workspace_agent.tools_called': response.tools_called,
      ...contentAttributes(() => ({ [ATTR.outputMessages]: messages('assistant', response.answer) })),
    });
    if (response.pending_approval) span.setAttribute('workspace_agent.approval_id', response.pending_approval.id);
    if (response.error) failSpan(span, 'query_error', response.error);
    return result;
  });
}
