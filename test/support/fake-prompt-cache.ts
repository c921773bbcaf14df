import { createHash } from 'node:crypto';
import type { FakeReply, ModelRequestRecord } from './fake-model.js';

/*
 * Prompt caching as Anthropic's Messages API documents it, for the fake model
 * (`startFakeModel({ promptCache: true })`): the usage of a request worked out from its body.
 *
 * - The prompt is tools → system → messages, cut into blocks: each tool definition the model reads
 *   (a `defer_loading` tool only once a tool result references it, then after the other tools),
 *   each system text block, each content block of each message (string content is one text block).
 * - A block marked `cache_control` is a breakpoint (at most 4, a `1h` one never after a `5m` one).
 *   A cache entry is the exact prefix up to and including a breakpoint (blocks serialised without
 *   their `cache_control`) for one model; one shorter than 1 024 tokens is neither written nor read.
 * - A request reads the longest live entry found at each breakpoint or at one of the 20 blocks
 *   before it (the API's look-back), writes every breakpoint's prefix beyond it, and the tokens
 *   after its last breakpoint are plain input.
 * - An entry lives 5 minutes (or an hour, `ttl: '1h'`) from its last write or read.
 *
 * Token counts are approximations, not the API's tokenizer: a block is
 * `Math.ceil(JSON.stringify(block without cache_control).length / 3.5)` tokens. Not modelled: the
 * per-model minimums (2 048 or 4 096 tokens for some models), images, `tool_choice` / thinking
 * settings changing the prefix, isolation of caches between organisations (one fake, one cache),
 * and `cache_control` on blocks nested in a tool result (only top-level blocks are breakpoints).
 */

const CHARS_PER_TOKEN = 3.5;
/** The shortest prefix that is cached, in tokens. */
const MIN_CACHEABLE_TOKENS = 1024;
/** The most `cache_control` blocks a request may carry. */
const MAX_BREAKPOINTS = 4;
/** How many blocks before a breakpoint are checked for an entry, besides the breakpoint itself. */
const LOOKBACK_BLOCKS = 20;
const TTL_MS = { '5m': 5 * 60_000, '1h': 60 * 60_000 } as const;

type Ttl = keyof typeof TTL_MS;

/** One block of the prompt: where it is (for error messages), its identity, its tokens, its breakpoint's TTL if it is one. */
export interface PromptBlock {
  path: string;
  /** What the block contributes to a prefix's identity: its place (section, message and role) and its JSON without `cache_control`. */
  key: string;
  tokens: number;
  cacheControl?: unknown;
}

/** The input figures of a request's usage, as the API reports them. */
interface PromptCacheUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
}

type Body = ModelRequestRecord['body'];
type Json = Record<string, unknown>;

function withoutCacheControl(block: unknown): unknown {
  if (typeof block !== 'object' || block === null || Array.isArray(block)) return block;
  const { cache_control: _, ...rest } = block as Json;
  return rest;
}

function blockOf(path: string, place: string, block: unknown): PromptBlock {
  const json = JSON.stringify(withoutCacheControl(block));
  const cacheControl = typeof block === 'object' && block !== null ? (block as Json).cache_control : undefined;
  return {
    path,
    key: `${place}\u0000${json}`,
    tokens: Math.ceil(json.length / CHARS_PER_TOKEN),
    ...(cacheControl !== undefined && cacheControl !== null ? { cacheControl } : {}),
  };
}

/**
 * The blocks of a request's prompt, in order. `visible` names the tools the model reads (the fake's
 * `visibleTools`): the loaded deferred ones go after the others.
 */
export function promptBlocks(body: Body, visible: readonly string[]): PromptBlock[] {
  const blocks: PromptBlock[] = [];
  const read = new Set(visible);
  const tools = (body.tools ?? []).map((tool, index) => ({ tool, index })).filter(({ tool }) => read.has(tool.name));
  for (const { tool, index } of [...tools.filter(({ tool }) => !tool.defer_loading), ...tools.filter(({ tool }) => tool.defer_loading)]) {
    blocks.push(blockOf(`tools.${index}`, 'tools', tool));
  }
  const system = body.system as unknown;
  if (typeof system === 'string') {
    if (system) blocks.push(blockOf('system', 'system', { type: 'text', text: system }));
  } else if (Array.isArray(system)) {
    for (const [index, block] of system.entries()) blocks.push(blockOf(`system.${index}`, 'system', block));
  }
  for (const [m, message] of body.messages.entries()) {
    const place = `messages.${m}.${message.role}`;
    if (typeof message.content === 'string') {
      blocks.push(blockOf(`messages.${m}.content`, place, { type: 'text', text: message.content }));
    } else if (Array.isArray(message.content)) {
      for (const [index, block] of message.content.entries()) blocks.push(blockOf(`messages.${m}.content.${index}`, place, block));
    }
  }
  return blocks;
}

function ttlOf(cacheControl: unknown): Ttl {
  return ((cacheControl as { ttl?: Ttl }).ttl ?? '5m') as Ttl;
}

/** What the API refuses (400 `invalid_request_error`) of a request's `cache_control` marks, if anything. */
export function cacheControlError(blocks: PromptBlock[]): string | undefined {
  const marked = blocks.filter((block) => block.cacheControl !== undefined);
  if (marked.length > MAX_BREAKPOINTS)
    return `A maximum of ${MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${marked.length}.`;
  let fiveMinutes: PromptBlock | undefined;
  for (const block of marked) {
    const control = block.cacheControl as { type?: unknown; ttl?: unknown };
    if (typeof control !== 'object' || control.type !== 'ephemeral') return `${block.path}.cache_control.type: Input should be 'ephemeral'`;
    if (control.ttl !== undefined && control.ttl !== '5m' && control.ttl !== '1h')
      return `${block.path}.cache_control.ttl: Input should be '5m' or '1h'`;
    const ttl = ttlOf(control);
    if (ttl === '1h' && fiveMinutes)
      return `${block.path}.cache_control: a ttl='1h' cache_control block must not come after a ttl='5m' one (${fiveMinutes.path}); longer TTLs go first`;
    if (ttl === '5m') fiveMinutes ??= block;
  }
  return undefined;
}

interface Entry {
  expiresAt: number;
  ttlMs: number;
}

/** A prompt cache: entries by prefix hash, with the clock `now` (ms) for their lifetimes. */
export function createPromptCache(options: { now?: () => number } = {}) {
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();

  const prune = (at: number) => {
    for (const [key, entry] of entries) if (entry.expiresAt <= at) entries.delete(key);
  };

  return {
    /**
     * The usage of a request for `model` with these blocks (checked with `cacheControlError`
     * first), reading and writing the cache as the API would.
     */
    account(model: string, blocks: PromptBlock[]): PromptCacheUsage {
      const at = now();
      prune(at);
      // The hash of each prefix, chained: that of the prefix before it and the block's key.
      const hashes: string[] = [];
      const cumulative: number[] = [];
      let hash = createHash('sha256').update(`model\u0000${model}`).digest('hex');
      let total = 0;
      for (const block of blocks) {
        hash = createHash('sha256').update(`${hash}\u0000${block.key}`).digest('hex');
        total += block.tokens;
        hashes.push(hash);
        cumulative.push(total);
      }
      const breakpoints = blocks.flatMap((block, index) => (block.cacheControl !== undefined ? [index] : []));
      const cacheable = (index: number) => (cumulative[index] ?? 0) >= MIN_CACHEABLE_TOKENS;

      let hit = -1;
      for (const breakpoint of breakpoints.toReversed()) {
        for (let index = breakpoint; index >= Math.max(0, breakpoint - LOOKBACK_BLOCKS) && index > hit; index -= 1) {
          if (cacheable(index) && entries.has(hashes[index]!)) {
            hit = index;
            break;
          }
        }
      }
      const read = hit >= 0 ? cumulative[hit]! : 0;
      if (hit >= 0) {
        const entry = entries.get(hashes[hit]!)!;
        entry.expiresAt = at + entry.ttlMs;
      }

      const creation = { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 };
      let written = read;
      for (const breakpoint of breakpoints) {
        if (breakpoint <= hit || !cacheable(breakpoint)) continue;
        const ttl = ttlOf(blocks[breakpoint]!.cacheControl);
        creation[ttl === '1h' ? 'ephemeral_1h_input_tokens' : 'ephemeral_5m_input_tokens'] += cumulative[breakpoint]! - written;
        written = cumulative[breakpoint]!;
        entries.set(hashes[breakpoint]!, { expiresAt: at + TTL_MS[ttl], ttlMs: TTL_MS[ttl] });
      }
      const cacheCreation = creation.ephemeral_5m_input_tokens + creation.ephemeral_1h_input_tokens;
      return {
        input_tokens: total - read - cacheCreation,
        cache_creation_input_tokens: cacheCreation,
        cache_read_input_tokens: read,
        cache_creation: creation,
      };
    },
    /** Live entries. */
    size(): number {
      prune(now());
      return entries.size;
    },
    clear(): void {
      entries.clear();
    },
  };
}

/**
 * The reply with the usage `account` works out (called only for a message, so that an error
 * reply neither reads nor writes the cache) in place of the scripted input figures; the reply's
 * `output_tokens` is kept.
 */
export function withPromptCacheUsage(reply: FakeReply, account: () => PromptCacheUsage): FakeReply {
  const body = reply.body as { usage?: { output_tokens?: number } } | null;
  if ((reply.status ?? 200) !== 200 || typeof body !== 'object' || body === null || typeof body.usage !== 'object') return reply;
  return { ...reply, body: { ...body, usage: { ...account(), output_tokens: body.usage.output_tokens ?? 20 } } };
}
