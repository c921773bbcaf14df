import AnthropicBedrock from '@anthropic-ai/bedrock-sdk';
import Anthropic from '@anthropic-ai/sdk';
import type { MessageStream } from '@anthropic-ai/sdk/lib/MessageStream';
import type { ModelTier } from '../models/catalogue.js';
import { ModelError, type ContentBlock, type ModelClient, type ModelMessage, type ModelRequest, type ModelResponse } from './model.js';
import { errorMessage } from '../platform/errors.js';

type AnthropicMessageParam = Anthropic.MessageParam;
type AnthropicContent = Anthropic.ContentBlockParam;

/** Our messages → Anthropic's. Consecutive messages of one role are merged, as the API alternates roles. */
function toAnthropicMessages(messages: ModelMessage[]): AnthropicMessageParam[] {
  const result: AnthropicMessageParam[] = [];
  for (const message of messages) {
    const content: AnthropicContent[] = message.content.map((block): AnthropicContent => {
      if (block.type === 'text') return { type: 'text', text: block.text };
      if (block.type === 'tool_use') return { type: 'tool_use', id: block.id, name: block.name, input: block.input };
      return { type: 'tool_result', tool_use_id: block.toolUseId, content: block.content, is_error: block.isError };
    });
    const previous = result.at(-1);
    if (previous && previous.role === message.role && Array.isArray(previous.content)) previous.content.push(...content);
    else result.push({ role: message.role, content });
  }
  return result;
}

/** Anthropic's response content → ours (blocks we do not use, such as thinking, are dropped). */
function fromAnthropicContent(content: Anthropic.ContentBlock[]): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  for (const block of content) {
    if (block.type === 'text') blocks.push({ type: 'text', text: block.text });
    else if (block.type === 'tool_use') {
      const input = typeof block.input === 'object' && block.input !== null ? (block.input as Record<string, unknown>) : {};
      blocks.push({ type: 'tool_use', id: block.id, name: block.name, input });
    }
  }
  return blocks;
}

/**
 * The request body: system prompt and tools first, each marked for prompt caching, so the
 * stable prefix (system + tools) is written to the cache once and read on later calls.
 */
function toAnthropicRequest(request: ModelRequest): Anthropic.MessageStreamParams {
  const cache = { type: 'ephemeral' as const };
  const tools: Anthropic.Tool[] = request.tools.map((tool, index) => ({
    name: tool.name,
    description: tool.description,
    input_schema: { type: 'object', ...tool.inputSchema } as Anthropic.Tool.InputSchema,
    ...(index === request.tools.length - 1 ? { cache_control: cache } : {}),
  }));
  return {
    model: request.model,
    max_tokens: request.maxTokens,
    ...(request.system ? { system: [{ type: 'text', text: request.system, cache_control: cache }] } : {}),
    ...(tools.length ? { tools } : {}),
    ...(request.toolChoice ? { tool_choice: { type: 'tool' as const, name: request.toolChoice } } : {}),
    messages: toAnthropicMessages(request.messages),
  };
}

const STOP_REASONS = new Set(['end_turn', 'tool_use', 'max_tokens', 'stop_sequence', 'refusal']);

function fromAnthropicMessage(message: Anthropic.Message): ModelResponse {
  const stop = message.stop_reason ?? 'other';
  return {
    content: fromAnthropicContent(message.content),
    stopReason: (STOP_REASONS.has(stop) ? stop : 'other') as ModelResponse['stopReason'],
    usage: {
      input: message.usage.input_tokens,
      output: message.usage.output_tokens,
      cacheWrite: message.usage.cache_creation_input_tokens ?? 0,
      cacheRead: message.usage.cache_read_input_tokens ?? 0,
    },
  };
}

function toModelError(error: unknown, partial: Anthropic.Message | undefined): ModelError {
  const options = { cause: error, partial: partial && fromAnthropicMessage(partial) };
  if (error instanceof Anthropic.APIError) {
    const detail = error.status ? `model API answered ${error.status}` : 'model API unreachable';
    return new ModelError(`${detail}: ${error.message}`.slice(0, 500), error.status, options);
  }
  return new ModelError(errorMessage(error), undefined, options);
}

/** Timeouts and retries of model calls: the SDK retries 408/409/429/5xx with backoff, honouring retry-after. */
export interface ModelCallOptions {
  timeoutMs: number;
  maxRetries: number;
}

/**
 * A model client over the Messages API of one of Anthropic's SDKs (the direct API and Bedrock
 * take the same requests and answer the same messages; they differ in auth and model ids).
 */
abstract class MessagesApiClient implements ModelClient {
  protected abstract readonly client: {
    messages: { stream(body: Anthropic.MessageStreamParams): MessageStream };
  };

  abstract modelFor(tier: ModelTier): string;

  /**
   * Every call streams (the SDK's `messages.stream`), listened to or not: one code path, and the
   * usage is the stream's own (input from `message_start`, output from `message_delta`).
   */
  async createMessage(request: ModelRequest, onText?: (delta: string) => void): Promise<ModelResponse> {
    const stream = this.client.messages.stream(toAnthropicRequest(request));
    if (onText) stream.on('text', (delta) => onText(delta));
    try {
      return fromAnthropicMessage(await stream.finalMessage());
    } catch (error) {
      throw toModelError(error, stream.currentMessage);
    }
  }
}

/** Anthropic's Messages API through the official SDK. */
export class AnthropicModelClient extends MessagesApiClient {
  protected readonly client: Anthropic;

  constructor(apiKey: string, baseURL: string | undefined, options: ModelCallOptions) {
    super();
    this.client = new Anthropic({ apiKey, baseURL, timeout: options.timeoutMs, maxRetries: options.maxRetries });
  }

  modelFor(tier: ModelTier): string {
    return tier.model;
  }
}

/** Claude on Amazon Bedrock (credentials and region from the AWS default chain). */
export class BedrockModelClient extends MessagesApiClient {
  protected readonly client: AnthropicBedrock;

  constructor(awsRegion: string, options: ModelCallOptions) {
    super();
    this.client = new AnthropicBedrock({ awsRegion, timeout: options.timeoutMs, maxRetries: options.maxRetries });
  }

  modelFor(tier: ModelTier): string {
    return tier.bedrockModel;
  }
}
