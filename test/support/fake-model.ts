import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the fake Messages API received. */
export interface ModelRequestRecord {
  path: string;
  headers: IncomingMessage['headers'];
  body: {
    model: string;
    max_tokens: number;
    system?: { type: string; text: string; cache_control?: unknown }[];
    tools?: { name: string; description?: string; input_schema: unknown; cache_control?: unknown }[];
    messages: { role: string; content: unknown }[];
  };
}

export interface FakeReply {
  status?: number;
  headers?: Record<string, string>;
  body: unknown;
  /** Delay before answering, in ms. */
  delayMs?: number;
}

export type ReplyFn = (request: ModelRequestRecord) => FakeReply;

interface Usage {
  input_tokens?: number;
  output_tokens?: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
}

let counter = 0;
const usageOf = (usage: Usage = {}) => ({
  input_tokens: usage.input_tokens ?? 100,
  output_tokens: usage.output_tokens ?? 20,
  cache_creation_input_tokens: usage.cache_creation_input_tokens ?? 0,
  cache_read_input_tokens: usage.cache_read_input_tokens ?? 0,
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

export function errorReply(status: number, message: string, headers: Record<string, string> = {}): FakeReply {
  return { status, headers, body: { type: 'error', error: { type: status === 429 ? 'rate_limit_error' : 'api_error', message } } };
}

/**
 * A fake Anthropic Messages API on 127.0.0.1, used through the real SDK. Replies come from a
 * queue (`reply`), or from a handler (`handle`); with neither, it answers "ok".
 */
export async function startFakeModel() {
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
      const record: ModelRequestRecord = { path: req.url, headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
      requests.push(record);
      const next = queue.shift() ?? handler ?? textReply('ok');
      const reply = typeof next === 'function' ? next(record) : next;
      const send = () => {
        if (res.destroyed) return;
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
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type FakeModel = Awaited<ReturnType<typeof startFakeModel>>;
