import { execFileSync } from 'node:child_process';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { EventSourceMessage } from 'eventsource-parser';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { describe, expect, it } from 'vitest';
import {
  AnswerTooLargeError,
  answerLimitReasonOf,
  answerPolicyOf,
  EventSizeCounter,
  jsonRpcRequestIdsOf,
  limitAnswer,
  OAUTH_MAX_ANSWER_BYTES,
  type AnswerPolicy,
} from '../../shared/platform/answer-limits.js';

/**
 * The counting body the guarded fetch hands the MCP SDK: a whole body counted in total, an event
 * stream per event (event boundaries found across chunks), cut past the limit, and the server's
 * body cancelled there.
 */

const LIMIT = 1000;
const encode = (text: string) => new TextEncoder().encode(text);

/** `text` in chunks of `size` bytes. */
function chunksOf(text: string, size: number): Uint8Array[] {
  const bytes = encode(text);
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
  return chunks;
}

/** A server's body that gives `chunks` one per read, and records how many it gave and whether it was cancelled. */
function upstreamOf(chunks: Uint8Array[]) {
  const seen = { pulled: 0, cancelled: undefined as unknown };
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const chunk = chunks[seen.pulled];
        if (!chunk) return controller.close();
        seen.pulled += 1;
        controller.enqueue(chunk);
      },
      cancel(reason) {
        seen.cancelled = reason;
      },
    },
    { highWaterMark: 0 },
  );
  return { body, seen };
}

/** The policy of an answer to a JSON-RPC request with these ids (none: a GET or DELETE of a session). */
function mcp(requestIds: (string | number)[] = []): AnswerPolicy {
  if (requestIds.length === 0) return { limit: { kind: 'mcp', bytes: LIMIT } };
  const requests = requestIds.map((id) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'x' } }));
  return { limit: { kind: 'mcp', bytes: LIMIT }, jsonRpcBody: JSON.stringify(requests.length === 1 ? requests[0] : requests) };
}

function answer(chunks: Uint8Array[], contentType: string, status = 200) {
  const { body, seen } = upstreamOf(chunks);
  return { response: new Response(body, { status, headers: { 'content-type': contentType } }), seen };
}

/** An SSE event of exactly `bytes` bytes as the counter counts them (its text and its last line end). */
const eventOf = (bytes: number, lineEnd = '\n') => `data: ${'a'.repeat(bytes - 7)}${lineEnd}${lineEnd}`;

describe('EventSizeCounter', () => {
  it('counts per event, whatever the line ends and wherever the chunks split them', () => {
    const stream = [eventOf(LIMIT), eventOf(LIMIT, '\r\n'), eventOf(LIMIT, '\r'), `: comment\r\n${eventOf(LIMIT - 11, '\r\n')}`].join('');
    for (const size of [1, 2, 3, 7, 64, 999, 1000, 1001, stream.length]) {
      const counter = new EventSizeCounter(LIMIT);
      expect(
        chunksOf(stream, size).some((chunk) => counter.add(chunk)),
        `chunks of ${size}`,
      ).toBe(false);
    }
  });

  it('finds the event one byte over the limit, within a chunk or across chunks', () => {
    const stream = `${eventOf(LIMIT)}${eventOf(LIMIT + 1, '\r\n')}${eventOf(10)}`;
    for (const size of [1, 2, 5, 1000, stream.length]) {
      const counter = new EventSizeCounter(LIMIT);
      const over = chunksOf(stream, size).findIndex((chunk) => counter.add(chunk));
      expect(over, `chunks of ${size}`).toBeGreaterThanOrEqual(0);
      // Cut at the chunk that holds the event's last byte or its end at the latest, never later.
      expect(over * size, `chunks of ${size}`).toBeLessThan(2 * LIMIT + 4);
    }
  });
});

describe('limitAnswer', () => {
  it('passes a JSON answer of exactly the limit, and cuts one a byte over: the read fails naming the limit, the server body is cancelled', async () => {
    const fitting = answer(chunksOf('x'.repeat(LIMIT), 300), 'application/json');
    expect(await limitAnswer(fitting.response, mcp()).text()).toHaveLength(LIMIT);

    const over = answer(chunksOf('x'.repeat(10 * LIMIT), 300), 'application/json');
    const read = limitAnswer(over.response, mcp()).text();
    await expect(read).rejects.toThrow(AnswerTooLargeError);
    await expect(read).rejects.toThrow(`the tool server's answer is over MCP_MAX_RESPONSE_BYTES (${LIMIT} bytes)`);
    // Four chunks of 300 pass 1000: nothing read after the fourth.
    expect(over.seen.pulled).toBe(4);
    expect(over.seen.cancelled).toBeInstanceOf(AnswerTooLargeError);
  });

  it('counts an event stream per event: many events under the limit pass unchanged, however much in all', async () => {
    const stream = Array.from({ length: 50 }, () => eventOf(LIMIT - 1)).join('');
    const { response } = answer(chunksOf(stream, 333), 'text/event-stream; charset=utf-8');
    expect(await limitAnswer(response, mcp([1])).text()).toBe(stream);
  });

  it('counts an error page in total, even one that calls itself an event stream (the SDK reads it whole)', async () => {
    const stream = Array.from({ length: 50 }, () => eventOf(100)).join('');
    const { response, seen } = answer(chunksOf(stream, 500), 'text/event-stream', 500);
    await expect(limitAnswer(response, mcp([1])).text()).rejects.toThrow(AnswerTooLargeError);
    expect(seen.pulled).toBe(3);
  });

  it('ends an event stream whose event is over the limit with a JSON-RPC error for each request waiting on it', async () => {
    const stream = `${eventOf(100)}data: {"jsonrpc":"2.0","id":7,"result":{"text":"${'b'.repeat(5 * LIMIT)}"}}\n\n`;
    const { response, seen } = answer(chunksOf(stream, 256), 'text/event-stream');
    const events: EventSourceMessage[] = [];
    const reader = limitAnswer(response, mcp([7, 'eight']))
      .body?.pipeThrough(new TextDecoderStream())
      .pipeThrough(new EventSourceParserStream())
      .getReader();
    for (let read = await reader?.read(); read && !read.done; read = await reader?.read()) events.push(read.value);
    expect(seen.cancelled).toBeInstanceOf(AnswerTooLargeError);
    expect(seen.pulled).toBeLessThan(8);
    // The event before passes; the cut one is closed as an event of a type the SDK skips; then the errors.
    expect(events.map((event) => event.event)).toEqual([undefined, 'answer-too-large', 'message', 'message']);
    const errors = events.slice(2).map((event) => JSON.parse(event.data));
    expect(errors.map((error) => error.id)).toEqual([7, 'eight']);
    const [first] = errors;
    expect(first.error).toEqual({
      code: ErrorCode.InternalError,
      message: expect.stringContaining('MCP_MAX_RESPONSE_BYTES'),
      data: { answer_limit_bytes: LIMIT },
    });
    // As the SDK turns it into an error of the call, it reads as the limit, in our words.
    expect(answerLimitReasonOf(new McpError(first.error.code, first.error.message, first.error.data))).toBe(
      `the tool server's answer is over MCP_MAX_RESPONSE_BYTES (${LIMIT} bytes)`,
    );
  });

  it('keeps the server body as long as the Response: dropped unread, its connection goes once collected; kept, it reads on', () => {
    // In a process of its own, with the garbage collector at hand (test/fixtures/dropped-body.ts).
    const run = (mode: string) =>
      execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', 'test/fixtures/dropped-body.ts', mode], {
        encoding: 'utf8',
        timeout: 20_000,
      }).trim();
    expect(run('dropped')).toBe('closed dropped uncaught 0');
    expect(run('kept')).toBe('still open kept, read data uncaught 0');
  });

  it('errors an event stream that answers no request (a session GET) when an event is over the limit', async () => {
    const { response } = answer(chunksOf(`data: ${'c'.repeat(2 * LIMIT)}\n\n`, 256), 'text/event-stream');
    await expect(limitAnswer(response, mcp()).text()).rejects.toThrow(AnswerTooLargeError);
  });
});

describe('answerPolicyOf', () => {
  const post = (body: RequestInit['body'], headers: Record<string, string> = {}): RequestInit => ({ method: 'POST', headers, body });

  it("gives the MCP protocol's requests MCP_MAX_RESPONSE_BYTES, keeping the JSON-RPC body for the ids of the requests waiting on the answer", () => {
    const call = JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'x' } });
    const mcpLimit = { kind: 'mcp', bytes: LIMIT };
    expect(answerPolicyOf(post(call, { accept: 'application/json, text/event-stream' }), LIMIT)).toEqual({
      limit: mcpLimit,
      jsonRpcBody: call,
    });
    expect(jsonRpcRequestIdsOf(call)).toEqual([3]);
    const batch = JSON.stringify([
      { jsonrpc: '2.0', id: 'a', method: 'tools/list' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
    ]);
    expect(answerPolicyOf(post(batch), LIMIT)).toEqual({ limit: mcpLimit, jsonRpcBody: batch });
    expect(jsonRpcRequestIdsOf(batch)).toEqual(['a']);
    expect(answerPolicyOf({ method: 'GET', headers: new Headers({ Accept: 'text/event-stream' }) }, LIMIT)).toEqual(mcp());
    expect(answerPolicyOf({ method: 'DELETE' }, LIMIT)).toEqual(mcp());
  });

  it("gives every other request the transports make (OAuth's, on a 401) 64 KiB", () => {
    const oauth = { limit: { kind: 'oauth', bytes: OAUTH_MAX_ANSWER_BYTES } };
    expect(answerPolicyOf({ headers: { 'MCP-Protocol-Version': '2025-06-18', Accept: 'application/json' } }, LIMIT)).toEqual(oauth);
    expect(answerPolicyOf(undefined, LIMIT)).toEqual(oauth);
    expect(answerPolicyOf(post(new URLSearchParams({ grant_type: 'refresh_token' })), LIMIT)).toEqual(oauth);
    expect(answerPolicyOf(post(JSON.stringify({ redirect_uris: ['https://x/cb'], jsonrpc_like: true })), LIMIT)).toEqual(oauth);
  });
});
