import type Anthropic from '@anthropic-ai/sdk';
import { once } from '../platform/once.js';
import { BaseAnthropic } from '@anthropic-ai/sdk/client';
import type { APIError } from '@anthropic-ai/sdk/core/error';
import type { MessageStream } from '@anthropic-ai/sdk/lib/MessageStream';
import { Messages } from '@anthropic-ai/sdk/resources/messages/messages';
import type { ModelTier } from './catalogue.js';
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
      if (!block.references?.length)
        return { type: 'tool_result', tool_use_id: block.toolUseId, content: block.content, is_error: block.isError };
      // A tool search's result: its text, and a reference to each tool found, which loads its definition.
      const references = block.references.map((name) => ({ type: 'tool_reference' as const, tool_name: name }));
      return { type: 'tool_result', tool_use_id: block.toolUseId, content: [{ type: 'text', text: block.content }, ...references] };
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
 * stable prefix (system + tools) is written to the cache once and read on later calls. Deferred
 * tools go with `defer_loading` (the model reads one once a tool result references it); the cache
 * mark is on the last tool that is not deferred.
 */
function toAnthropicRequest(request: ModelRequest): Anthropic.MessageStreamParams {
  const cache = { type: 'ephemeral' as const, ...(request.prefixCacheTtl === '1h' ? { ttl: '1h' as const } : {}) };
  const lastLoaded = request.tools.findLastIndex((tool) => !tool.deferred);
  const tools: Anthropic.Tool[] = request.tools.map((tool, index) => ({
    name: tool.name,
    description: tool.description,
    input_schema: { type: 'object', ...tool.inputSchema } as Anthropic.Tool.InputSchema,
    ...(tool.deferred ? { defer_loading: true } : {}),
    ...(index === lastLoaded ? { cache_control: cache } : {}),
  }));
  return {
    model: request.model,
    max_tokens: request.maxTokens,
    ...(request.system ? { system: [{ type: 'text', text: request.system, cache_control: cache }] } : {}),
    ...(tools.length ? { tools } : {}),
    ...(request.toolChoice ? { tool_choice: { type: 'tool' as const, name: request.toolChoice } } : {}),
    messages: withConversationBreakpoint(toAnthropicMessages(request.messages)),
  };
}

/**
 * The third cache breakpoint: on the last block of the last message, so each call of the loop (a
 * new turn, a new round of tool results) reads what the call before it wrote, the whole
 * conversation so far, and pays full price only for what is new.
 */
function withConversationBreakpoint(messages: AnthropicMessageParam[]): AnthropicMessageParam[] {
  const last = messages.at(-1);
  if (!last || !Array.isArray(last.content) || last.content.length === 0) return messages;
  const blocks = [...last.content];
  const final = blocks.at(-1);
  if (!final || (final.type !== 'text' && final.type !== 'tool_result' && final.type !== 'tool_use')) return messages;
  blocks[blocks.length - 1] = { ...final, cache_control: { type: 'ephemeral' } };
  return [...messages.slice(0, -1), { role: last.role, content: blocks } as AnthropicMessageParam];
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
      ...(message.usage.cache_creation?.ephemeral_1h_input_tokens
        ? { cacheWriteHour: message.usage.cache_creation.ephemeral_1h_input_tokens }
        : {}),
    },
  };
}

function toModelError(error: unknown, partial: Anthropic.Message | undefined, apiError: typeof APIError): ModelError {
  const options = { cause: error, partial: partial && fromAnthropicMessage(partial) };
  if (error instanceof apiError) {
    const detail = error.status ? `model API answered ${error.status}` : 'model API unreachable';
    // The Bedrock SDK's own copy of the SDK may be older and lack `apiMessage`.
    const said = typeof error.apiMessage === 'string' ? error.apiMessage.slice(0, 500) : undefined;
    return new ModelError(`${detail}: ${error.message}`.slice(0, 500), error.status, { ...options, providerMessage: said });
  }
  return new ModelError(errorMessage(error), undefined, options);
}

/** Timeouts and retries of model calls: the SDK retries 408/409/429/5xx with backoff, honouring retry-after. */
export interface ModelCallOptions {
  timeoutMs: number;
  maxRetries: number;
  /** Prompts and answers in the SDK's spans (`OTEL_CAPTURE_CONTENT`); metadata only otherwise. */
  captureContent?: boolean;
  /** Whether spans are recorded at all (an entry point started the OpenTelemetry SDK); the SDK's spans are off when not. */
  traced?: boolean;
}

/**
 * The SDK's own OpenTelemetry spans (one `chat` client span per model call, with the GenAI
 * attributes: provider, models, tokens), through the tracer provider the entry point registered.
 * With none registered they are turned off: the SDK would otherwise still work out each call's
 * attributes for a span nobody records. The trace context is not sent to the model's provider.
 */
function openTelemetryOf(options: ModelCallOptions) {
  const contentMode = options.captureContent ? ('content' as const) : ('metadata_only' as const);
  return { propagation: false, traces: { enabled: options.traced ?? true, contentMode } };
}

/**
 * The part of an SDK client that a model call uses, and the class of the errors it throws (the
 * Bedrock SDK is bundled apart, with its own copy of Anthropic's SDK and so its own error classes).
 */
interface MessagesApi {
  client: { messages: { stream(body: Anthropic.MessageStreamParams): MessageStream } };
  APIError: typeof APIError;
}

/**
 * A model client over the Messages API of one of Anthropic's SDKs (the direct API and Bedrock
 * take the same requests and answer the same messages; they differ in auth and model ids).
 */
abstract class MessagesApiClient implements ModelClient {
  abstract readonly defersTools: boolean;

  /** The SDK client (made, or loaded, on the first call for Bedrock). */
  protected abstract messagesApi(): MessagesApi | Promise<MessagesApi>;

  abstract modelFor(tier: ModelTier): string;

  /**
   * Every call streams (the SDK's `messages.stream`), listened to or not: one code path, and the
   * usage is the stream's own (input from `message_start`, output from `message_delta`).
   */
  async createMessage(request: ModelRequest, onText?: (delta: string) => void, signal?: AbortSignal): Promise<ModelResponse> {
    const { client, APIError } = await this.messagesApi();
    const stream = client.messages.stream(toAnthropicRequest(request));
    if (onText) stream.on('text', (delta) => onText(delta));
    // Stopped: the SDK aborts the request, and `finalMessage` fails with what had arrived.
    if (signal?.aborted) stream.abort();
    else signal?.addEventListener('abort', () => stream.abort(), { once: true });
    try {
      return fromAnthropicMessage(await stream.finalMessage());
    } catch (error) {
      throw toModelError(error, stream.currentMessage, APIError);
    }
  }
}

/**
 * The SDK's client with the Messages API only. The SDK's default `Anthropic` class also builds
 * every other resource (beta, files, models, skills, organization…), and a bundle cannot drop
 * what a class constructs: this one keeps the agent's bundle to the client and Messages.
 */
class AnthropicMessagesClient extends BaseAnthropic {
  messages: Messages = new Messages(this);
}

/**
 * What the SDK adds to each of its requests (its `fetchOptions`, sent through its own fetch, Node's):
 * no redirect is followed, so a 3xx from the model's API is an error, and the API key is never sent
 * on to where a redirect points.
 */
const MODEL_FETCH_OPTIONS = { redirect: 'manual' } as const;

/** Anthropic's Messages API through the official SDK. */
export class AnthropicModelClient extends MessagesApiClient {
  protected readonly client: AnthropicMessagesClient;
  /** Anthropic's API loads deferred tools (`defer_loading`, `tool_reference`). */
  readonly defersTools = true;

  constructor(apiKey: string, baseURL: string | undefined, options: ModelCallOptions) {
    super();
    this.client = new AnthropicMessagesClient({
      apiKey,
      baseURL,
      timeout: options.timeoutMs,
      maxRetries: options.maxRetries,
      openTelemetry: openTelemetryOf(options),
      fetchOptions: MODEL_FETCH_OPTIONS,
    });
  }

  protected messagesApi(): MessagesApi {
    return { client: this.client, APIError: AnthropicMessagesClient.APIError };
  }

  modelFor(tier: ModelTier): string {
    return tier.model;
  }
}

/**
 * Claude on Amazon Bedrock (credentials and region from the AWS default chain). The Bedrock SDK,
 * and the AWS SDK's Bedrock runtime client and credential chain it brings, are loaded on the first
 * call: a function whose organisations do not use Bedrock never loads them (the Lambda bundles
 * keep them in a file of their own, lib/bundling.ts).
 */
export class BedrockModelClient extends MessagesApiClient {
  /** Bedrock is sent the tools a search found as ordinary tools (docs/agent-loop.md, "Tool search"). */
  readonly defersTools = false;
  /** Loaded on the first call; a failed load is not kept, the next call tries again. */
  private readonly client = once(() => this.load());

  constructor(
    private readonly awsRegion: string,
    private readonly options: ModelCallOptions,
  ) {
    super();
  }

  protected messagesApi(): Promise<MessagesApi> {
    return this.client();
  }

  private async load(): Promise<MessagesApi> {
    const { default: AnthropicBedrock } = await import('@anthropic-ai/bedrock-sdk');
    const { awsRegion, options } = this;
    const client = new AnthropicBedrock({
      awsRegion,
      timeout: options.timeoutMs,
      maxRetries: options.maxRetries,
      openTelemetry: openTelemetryOf(options),
    });
    return { client, APIError: AnthropicBedrock.APIError };
  }

  modelFor(tier: ModelTier): string {
    return tier.bedrockModel;
  }
}
