import type { ModelTier } from './catalogue.js';

/** Our message model, independent of any provider's SDK types. */
export type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  /** `references`: tools the result loads for the model (tool search, where the provider defers definitions). */
  | { type: 'tool_result'; toolUseId: string; content: string; isError: boolean; references?: string[] };

export interface ModelMessage {
  role: 'user' | 'assistant';
  content: ContentBlock[];
}

export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /**
   * Sent, but not read by the model until a tool result references it (Anthropic's deferred
   * loading): a provider without it is sent only the deferred tools already referenced.
   */
  deferred?: boolean;
}

export interface ModelRequest {
  model: string;
  system: string;
  tools: ToolSpec[];
  messages: ModelMessage[];
  maxTokens: number;
  /** Forces the model to call this tool (structured output). */
  toolChoice?: string;
  /**
   * How long the prompt cache keeps the stable prefix (tools and system prompt): `1h` where the
   * workspace asks often enough for it to pay (`cacheTtlFor`), else the default 5 minutes. The
   * conversation's breakpoint always keeps 5 minutes.
   */
  prefixCacheTtl?: '5m' | '1h';
}

export interface TokenUsage {
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
  /** Of `cacheWrite`, the tokens written for an hour (priced at twice the input price, not 1.25×). */
  cacheWriteHour?: number;
}

export interface ModelResponse {
  content: ContentBlock[];
  stopReason: 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence' | 'refusal' | 'other';
  usage: TokenUsage;
}

/** A language model behind one provider (Anthropic's API, Amazon Bedrock, a test fake). */
export interface ModelClient {
  /**
   * Whether the provider loads deferred tool definitions itself (`defer_loading` definitions,
   * `tool_reference` blocks in tool results): Anthropic's API does; Bedrock is sent the found tools.
   */
  readonly defersTools: boolean;
  /** The model id this client sends for a tier. */
  modelFor(tier: ModelTier): string;
  /**
   * One model turn, streamed: `onText` gets each piece of answer text as it arrives; the promise
   * gives the whole turn, its usage as the stream reported it. `signal` aborts the call (the person
   * stopped the answer): it fails as a `ModelError` with what had arrived.
   */
  createMessage(request: ModelRequest, onText?: (delta: string) => void, signal?: AbortSignal): Promise<ModelResponse>;
}

/**
 * Raised when a model call fails for good (after the SDK's own retries). A stream that broke
 * mid-answer leaves what had arrived in `partial`, so the answer so far is kept and its tokens
 * counted.
 */
export class ModelError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    options?: ErrorOptions & { partial?: ModelResponse; providerMessage?: string },
  ) {
    super(message, options);
    this.name = 'ModelError';
    this.partial = options?.partial;
    this.providerMessage = options?.providerMessage;
  }

  readonly partial: ModelResponse | undefined;
  /** The provider's own words for the failure, from its error body ("invalid x-api-key"), when it gave some. */
  readonly providerMessage: string | undefined;
}

export const NO_USAGE: TokenUsage = { input: 0, output: 0, cacheWrite: 0, cacheRead: 0 };

export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    cacheRead: a.cacheRead + b.cacheRead,
    ...(a.cacheWriteHour || b.cacheWriteHour ? { cacheWriteHour: (a.cacheWriteHour ?? 0) + (b.cacheWriteHour ?? 0) } : {}),
  };
}

/**
 * Cost in USD of `usage` at the tier's list prices: uncached input, output, cache writes and cache
 * reads each at their own price per million tokens.
 */
export function costOf(usage: TokenUsage, tier: ModelTier): number {
  const dollars =
    usage.input * tier.inputCostPerMtok +
    usage.output * tier.outputCostPerMtok +
    usage.cacheWrite * tier.cacheWriteCostPerMtok +
    // A 1-hour write costs 2× the input price: the difference from the 5-minute price, for those tokens.
    (usage.cacheWriteHour ?? 0) * (2 * tier.inputCostPerMtok - tier.cacheWriteCostPerMtok) +
    usage.cacheRead * tier.cacheReadCostPerMtok;
  return Math.round((dollars / 1_000_000) * 1e9) / 1e9;
}

/** Tokens as answers, events, the audit log and messages show them: `input` is the uncached input only. */
export interface TokenCounts {
  input: number;
  output: number;
  cache_read: number;
  cache_write: number;
}

export function tokenCountsOf(usage: TokenUsage): TokenCounts {
  return { input: usage.input, output: usage.output, cache_read: usage.cacheRead, cache_write: usage.cacheWrite };
}
