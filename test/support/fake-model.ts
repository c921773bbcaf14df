import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cacheControlError, createPromptCache, promptBlocks, withPromptCacheUsage } from './fake-prompt-cache.js';

/** A request the fake Messages API received. */
export interface ModelRequestRecord {
  path: string;
  headers: IncomingMessage['headers'];
  body: {
    model: string;
    max_tokens: number;
    system?: { type: string; text: string; cache_control?: unknown }[];
    tools?: { name: string; description?: string; input_schema: unknown; cache_control?: unknown; defer_loading?: boolean }[];
    messages: { role: string; content: unknown }[];
  };
  /** When the request had arrived whole, and (streamed) when its first piece of text was written: `performance.now()`. */
  receivedAt?: number;
  firstTextAt?: number;
}

export interface FakeReply {
  status?: number;
  headers?: Record<string, string>;
  body: unknown;
  /** Delay before answering, in ms. */
  delayMs?: number;
  /** Streamed requests: the text of each text block in pieces of this many characters (default 8). */
  chunkChars?: number;
  /** Streamed requests: delay between text pieces, in ms. */
  chunkDelayMs?: number;
  /** Streamed requests: break the stream with an `error` event after this many characters of text. */
  breakAfterChars?: number;
}

export type ReplyFn = (request: ModelRequestRecord) => FakeReply;

interface Usage {
  input_tokens?: number;
  output_tokens?: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
  /** The split of the cache writes by lifetime, as the API reports it. */
  cache_creation?: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
}

let counter = 0;
const usageOf = (usage: Usage = {}) => ({
  input_tokens: usage.input_tokens ?? 100,
  output_tokens: usage.output_tokens ?? 20,
  cache_creation_input_tokens: usage.cache_creation_input_tokens ?? 0,
  cache_read_input_tokens: usage.cache_read_input_tokens ?? 0,
  ...(usage.cache_creation ? { cache_creation: usage.cache_creation } : {}),
});

/** A Messages API response with these content blocks. */
function messageReply(content: unknown[], stopReason: 'end_turn' | 'tool_use', usage?: Usage): FakeReply {
  counter += 1;
  return {
    body: {
      id: `msg_fake_${counter}`,
      type: 'message',
      role: 'assistant',
      model: 'fake',
      content,
      stop_reason: stopReason,
      stop_sequence: null,
      usage: usageOf(usage),
    },
  };
}

/** A final text answer. */
/** Whether a request is a conversation's statistics call: the only call that forces a tool (`tool_choice`). */
export function isStatsRequest(request: ModelRequestRecord): boolean {
  return (request.body as { tool_choice?: unknown }).tool_choice !== undefined;
}

export function textReply(text: string, usage?: Usage): FakeReply {
  return messageReply([{ type: 'text', text }], 'end_turn', usage);
}

/** A turn that asks for tool calls (optionally with some text first). */
export function toolUseReply(calls: { name: string; input?: Record<string, unknown> }[], usage?: Usage, text?: string): FakeReply {
  const id = counter + 1;
  return messageReply(
    [
      ...(text ? [{ type: 'text', text }] : []),
      ...calls.map((call, index) => ({ type: 'tool_use', id: `toolu_${id}_${index}`, name: call.name, input: call.input ?? {} })),
    ],
    'tool_use',
    usage,
  );
}

/** A reply whose stream breaks with an overloaded error after `afterChars` characters of `text`. */
export function brokenStreamReply(text: string, afterChars: number): FakeReply {
  return { ...textReply(text), breakAfterChars: afterChars };
}

export function errorReply(status: number, message: string, headers: Record<string, string> = {}): FakeReply {
  return { status, headers, body: { type: 'error', error: { type: status === 429 ? 'rate_limit_error' : 'api_error', message } } };
}

/** Anthropic's answer to a key it does not know: 401 `authentication_error`, "invalid x-api-key". */
export function authenticationErrorReply(): FakeReply {
  return { status: 401, body: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } } };
}

/** The API key a request came with: the SDK sends it as a Bearer token (older ones as X-Api-Key). */
export function apiKeyOf(request: ModelRequestRecord): string | undefined {
  const bearer = /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ''))?.[1];
  const header = request.headers['x-api-key'];
  return bearer ?? (typeof header === 'string' ? header : undefined);
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Block = { type?: string; tool_name?: string; content?: unknown };

/** The `tool_reference` blocks of a request's tool results, in order (the tools they load). */
function referencesOf(body: ModelRequestRecord['body']): { name: string; inToolResult: boolean }[] {
  const found: { name: string; inToolResult: boolean }[] = [];
  for (const message of body.messages) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as Block[]) {
      if (block.type === 'tool_reference') found.push({ name: String(block.tool_name), inToolResult: false });
      if (block.type === 'tool_result' && Array.isArray(block.content)) {
        for (const inner of block.content as Block[]) {
          if (inner.type === 'tool_reference') found.push({ name: String(inner.tool_name), inToolResult: true });
        }
      }
    }
  }
  return found;
}

/**
 * The tools whose definitions the model reads in a request, as the Messages API loads them: every
 * tool without `defer_loading`, and each deferred one once a tool result has referenced it.
 */
export function visibleTools(body: ModelRequestRecord['body']): string[] {
  const referenced = new Set(referencesOf(body).map((reference) => reference.name));
  return (body.tools ?? []).filter((tool) => !tool.defer_loading || referenced.has(tool.name)).map((tool) => tool.name);
}

/**
 * Characters of the prompt the model reads: the system prompt, the definitions of the visible
 * tools (a deferred tool not yet referenced is not read) and the messages. The benchmark's token
 * figures are these at about 3.5 characters a token.
 */
export function promptChars(body: ModelRequestRecord['body']): number {
  const visible = new Set(visibleTools(body));
  const tools = (body.tools ?? []).filter((tool) => visible.has(tool.name));
  const system = (body.system ?? []).map((block) => block.text).join('');
  return (
    system.length +
    JSON.stringify(tools.map(({ name, description, input_schema }) => ({ name, description, input_schema }))).length +
    JSON.stringify(body.messages).length
  );
}

/**
 * What the Messages API refuses of deferred tools (400 `invalid_request_error`): every tool
 * deferred, a deferred tool marked for caching, a `tool_reference` outside a tool result, or one
 * naming a tool the request does not define.
 */
function deferredToolsError(body: ModelRequestRecord['body']): string | undefined {
  const tools = body.tools ?? [];
  if (tools.length && tools.every((tool) => tool.defer_loading))
    return 'All tools have defer_loading set. At least one tool must be non-deferred.';
  const cached = tools.find((tool) => tool.defer_loading && tool.cache_control);
  if (cached) return `tools: ${cached.name}: cache_control cannot be set on a tool with defer_loading`;
  const defined = new Set(tools.map((tool) => tool.name));
  for (const reference of referencesOf(body)) {
    if (!reference.inToolResult) return 'tool_reference blocks are only allowed inside tool_result content';
    if (!defined.has(reference.name)) return `tool_reference_unresolved: tool ${reference.name} is not defined`;
  }
  return undefined;
}

/** Pieces of `text` of at most `size` characters. */
function piecesOf(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let at = 0; at < text.length; at += size) pieces.push(text.slice(at, at + size));
  return pieces;
}

/**
 * A message as the Messages API streams it (`stream: true`): `message_start` with the input
 * usage (the reply's: with `promptCache`, the cache's figures), each block as start / deltas /
 * stop, `message_delta` with the stop reason and output usage, `message_stop`. With
 * `breakAfterChars`, an `error` event cuts it mid-text.
 */
async function streamMessage(res: ServerResponse, reply: FakeReply, record: ModelRequestRecord): Promise<void> {
  const message = reply.body as {
    content: ({ type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: unknown })[];
    stop_reason: string;
    usage: Usage;
  };
  const send = (event: string, data: unknown) => {
    if (!res.destroyed) res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...(data as object) })}\n\n`);
  };
  res.writeHead(200, { 'content-type': 'text/event-stream', ...reply.headers });
  const { output_tokens, ...input } = message.usage;
  send('message_start', { message: { ...message, content: [], stop_reason: null, usage: { ...input, output_tokens: 1 } } });
  let sent = 0;
  for (const [index, block] of message.content.entries()) {
    if (block.type === 'text') {
      send('content_block_start', { index, content_block: { type: 'text', text: '' } });
      for (const piece of piecesOf(block.text, reply.chunkChars ?? 8)) {
        if (reply.breakAfterChars !== undefined && sent >= reply.breakAfterChars) {
          send('error', { error: { type: 'overloaded_error', message: 'Overloaded' } });
          res.end();
          return;
        }
        if (reply.chunkDelayMs) await pause(reply.chunkDelayMs);
        record.firstTextAt ??= performance.now();
        send('content_block_delta', { index, delta: { type: 'text_delta', text: piece } });
        sent += piece.length;
      }
    } else {
      send('content_block_start', { index, content_block: { ...block, input: {} } });
      send('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
    }
    send('content_block_stop', { index });
  }
  send('message_delta', { delta: { stop_reason: message.stop_reason, stop_sequence: null }, usage: { output_tokens } });
  send('message_stop', {});
  res.end();
}

export interface FakeModelOptions {
  /**
   * Prompt caching as the API does it (`fake-prompt-cache.ts`): the input figures of each
   * message's usage (uncached input, cache writes and reads) are worked out from the request,
   * not taken from the reply (its `output_tokens` is kept), and bad `cache_control` marks get a 400.
   */
  promptCache?: boolean;
  /** The clock of the cache's entry lifetimes, in ms (default `Date.now`). */
  now?: () => number;
}

/**
 * A fake Anthropic Messages API on 127.0.0.1, used through the real SDK. Replies come from a
 * queue (`reply`), or from a handler (`handle`); with neither, it answers "ok".
 */
export async function startFakeModel(options: FakeModelOptions = {}) {
  const cache = options.promptCache ? createPromptCache({ now: options.now }) : undefined;
  const requests: ModelRequestRecord[] = [];
  const queue: (FakeReply | ReplyFn)[] = [];
  let handler: ReplyFn | undefined;

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.startsWith('/v1/messages')) {
        res
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: 'no such route' } }));
        return;
      }
      const record: ModelRequestRecord = {
        path: req.url,
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
        receivedAt: performance.now(),
      };
      requests.push(record);
      const blocks = cache && promptBlocks(record.body, visibleTools(record.body));
      const refused = deferredToolsError(record.body) ?? (blocks && cacheControlError(blocks));
      if (refused) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: refused } }));
        return;
      }
      const next = queue.shift() ?? handler ?? textReply('ok');
      const scripted = typeof next === 'function' ? next(record) : next;
      const reply = cache && blocks ? withPromptCacheUsage(scripted, () => cache.account(record.body.model, blocks)) : scripted;
      const send = () => {
        if (res.destroyed) return;
        if ((record.body as { stream?: boolean }).stream && (reply.status ?? 200) === 200) {
          void streamMessage(res, reply, record);
          return;
        }
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
        res.end(JSON.stringify(reply.body));
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    /** Queues replies, answered in order. */
    reply(...replies: (FakeReply | ReplyFn)[]) {
      queue.push(...replies);
    },
    /** Answers every request (after the queue) with this handler. */
    handle(fn: ReplyFn | undefined) {
      handler = fn;
    },
    reset() {
      queue.length = 0;
      requests.length = 0;
      handler = undefined;
      cache?.clear();
    },
    /** Live prompt cache entries (0 without `promptCache`). */
    cacheEntries(): number {
      return cache?.size() ?? 0;
    },
    /** Empties the prompt cache. */
    clearCache() {
      cache?.clear();
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type FakeModel = Awaited<ReturnType<typeof startFakeModel>>;
