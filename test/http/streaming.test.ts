import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { sseStreams, sseTiming } from '../../shared/http/sse.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { brokenStreamReply, startFakeModel, textReply, toolUseReply, type FakeModel } from '../support/fake-model.js';
import { startHttpMcpServer, standardTools } from '../support/mcp-servers.js';

let t: TestContext;
let model: FakeModel;
let docs: Awaited<ReturnType<typeof startHttpMcpServer>>;
let server: ServerType;
let baseUrl: string;

beforeAll(async () => {
  model = await startFakeModel();
  docs = await startHttpMcpServer({ name: 'docs-server', tools: standardTools({ tag: 'docs' }) });
  t = await createTestContext({ env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k', MODEL_MAX_RETRIES: '0' } });
  // A real socket, for a client that goes away mid-stream.
  server = serve({ fetch: t.app.fetch, hostname: '127.0.0.1', port: 0 });
  await new Promise((resolve) => server.once('listening', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.close();
  await Promise.all([model.stop(), docs.stop()]);
});
beforeEach(() => model.reset());

const SSE = { accept: 'text/event-stream' };

/** Parses a whole event stream the way an EventSource does. */
function eventsOf(text: string): { event: string; data: any }[] {
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => events.push(event) });
  parser.feed(text);
  return events.map((event) => ({ event: event.event ?? 'message', data: JSON.parse(event.data) }));
}

async function setup() {
  const admin = await t.signUp();
  const workspace = await t.createWorkspace(admin.cookie, { name: `Streams ${t.uniqueEmail('ws')}` });
  await t.connectMcp(admin.cookie, workspace.id, { name: 'docs', url: docs.url });
  return { admin, workspaceId: workspace.id as string };
}

/** Two model turns: some text and a tool call, then the answer. */
function twoTurns() {
  model.reply(
    toolUseReply([{ name: 'search_docs', input: { query: 'vpn' } }], { input_tokens: 300, output_tokens: 40 }, '  Let me look that up.  '),
    { ...textReply('The VPN guide says: use the corporate profile.', { input_tokens: 500, output_tokens: 60 }), chunkChars: 5 },
  );
}

describe('POST /api/workspaces/:id/query with Accept: text/event-stream', () => {
  it('streams start, tool calls and text, and ends with done equal to the JSON answer of the same query', async () => {
    const { admin, workspaceId } = await setup();
    twoTurns();
    const streamed = await t.request('POST', `/api/workspaces/${workspaceId}/query`, {
      cookie: admin.cookie,
      headers: SSE,
      body: { query: 'How do I use the VPN?' },
    });
    expect(streamed.status).toBe(200);
    expect(streamed.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = eventsOf(streamed.text);
    const names = events.map((event) => event.event);
    expect(names[0]).toBe('start');
    expect(names.at(-1)).toBe('done');
    expect(names.filter((name) => name === 'done')).toHaveLength(1);
    const done = events.at(-1)?.data;
    expect(events[0]?.data).toEqual({ conversation_id: done.conversation_id, session_id: done.session_id });
    // The tool call, announced before it runs and told when it ends, between the two turns' text.
    const call = events.find((event) => event.event === 'tool_call');
    const result = events.find((event) => event.event === 'tool_result');
    expect(call?.data).toEqual({
      id: expect.stringMatching(/^toolu_/),
      name: 'search_docs',
      connection: 'docs',
      arguments: '{"query":"vpn"}',
    });
    expect(result?.data).toEqual({
      id: call?.data.id,
      name: 'search_docs',
      is_error: false,
      duration_ms: expect.any(Number),
      result: 'results for vpn (docs)',
    });
    expect(names.indexOf('tool_call')).toBeLessThan(names.indexOf('tool_result'));
    // Many small deltas whose concatenation is exactly the stored answer.
    const deltas = events.filter((event) => event.event === 'text').map((event) => event.data.delta as string);
    expect(deltas.length).toBeGreaterThan(5);
    expect(deltas.join('')).toBe(done.answer);
    expect(done.answer).toBe('Let me look that up.\n\nThe VPN guide says: use the corporate profile.');

    // The same query without the header: the same answer, field for field.
    twoTurns();
    const plain = await t.request('POST', `/api/workspaces/${workspaceId}/query`, {
      cookie: admin.cookie,
      body: { query: 'How do I use the VPN?' },
    });
    expect(plain.headers.get('content-type')).toMatch(/^application\/json/);
    const { conversation_id: _c, session_id: _s, duration_ms: _d, ...rest } = plain.body;
    expect(done).toMatchObject(rest);
    expect(Object.keys(done).sort()).toEqual(Object.keys(plain.body).sort());
    expect(done.tokens).toEqual({ input: 800, output: 100, cache_read: 0, cache_write: 0 });
  });

  it("shows a call's arguments and result cut short and screened, and keeps them with the answer", async () => {
    const { admin, workspaceId } = await setup();
    const guardrail = await t.request('POST', `/api/workspaces/${workspaceId}/guardrails`, {
      cookie: admin.cookie,
      body: { name: 'cards', type: 'redact_pattern', pattern: '4111[0-9]{12}', applies_to: 'output' },
    });
    expect(guardrail.status).toBe(201);
    const long = `card 4111111111111111 ${'x'.repeat(3000)}`;
    model.reply(toolUseReply([{ name: 'search_docs', input: { query: long } }]), textReply('Found it.'));
    const streamed = await t.request('POST', `/api/workspaces/${workspaceId}/query`, {
      cookie: admin.cookie,
      headers: SSE,
      body: { query: 'Find my card' },
    });
    const events = eventsOf(streamed.text);
    const call = events.find((event) => event.event === 'tool_call')?.data;
    const result = events.find((event) => event.event === 'tool_result')?.data;
    // The tool itself got the whole card number; people are shown it redacted, and a preview of the rest.
    expect(call.arguments).toMatch(/^\{"query":"card \[redacted\] x+… \(\d+ more characters\)$/);
    expect(call.arguments).not.toContain('4111111111111111');
    expect(result.result).toMatch(/^results for card \[redacted\] x+… \(\d+ more characters\)$/);
    expect(result.result.length).toBeLessThan(2100);

    const done = events.at(-1)?.data;
    const detail = await t.request('GET', `/api/workspaces/${workspaceId}/conversations/${done.conversation_id}`, { cookie: admin.cookie });
    const [question, answer] = detail.body.messages;
    expect(question.tool_calls).toEqual([]);
    expect(answer.tool_calls).toEqual([
      {
        id: call.id,
        name: 'search_docs',
        connection: 'docs',
        arguments: call.arguments,
        result: result.result,
        is_error: false,
        duration_ms: expect.any(Number),
      },
    ]);
  });

  it('answers errors found before the query starts as plain JSON with their status', async () => {
    const { admin, workspaceId } = await setup();
    const missing = await t.request('POST', '/api/workspaces/ws_nope/query', { cookie: admin.cookie, headers: SSE, body: { query: 'hi' } });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: expect.any(String) });
    const unauthenticated = await t.request('POST', `/api/workspaces/${workspaceId}/query`, { headers: SSE, body: { query: 'hi' } });
    expect(unauthenticated.status).toBe(401);
    const invalid = await t.request('POST', `/api/workspaces/${workspaceId}/query`, {
      cookie: admin.cookie,
      headers: SSE,
      body: { query: '' },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.details).toEqual(expect.any(Array));
  });

  it('streams for an api key too', async () => {
    const { admin, workspaceId } = await setup();
    const connected = await t.request('POST', '/api/connectors/consumer', {
      cookie: admin.cookie,
      body: { type: 'api', workspace_id: workspaceId, credentials: {} },
    });
    model.reply(textReply('Hello from the key.'));
    const streamed = await t.request('POST', `/api/workspaces/${workspaceId}/query`, {
      headers: { ...SSE, authorization: `Bearer ${connected.body.api_key}` },
      body: { query: 'hi' },
    });
    const events = eventsOf(streamed.text);
    expect(events.map((event) => event.event)).toEqual(['start', 'text', 'text', 'text', 'done']);
    expect(events.at(-1)?.data).toMatchObject({ answer: 'Hello from the key.', error: null });
  });

  it('keeps the partial answer when the model stream breaks mid-answer, and says why in done', async () => {
    const { admin, workspaceId } = await setup();
    model.reply(brokenStreamReply('The first part arrives, the rest never does.', 16));
    const streamed = await t.request('POST', `/api/workspaces/${workspaceId}/query`, {
      cookie: admin.cookie,
      headers: SSE,
      body: { query: 'Tell me everything' },
    });
    const events = eventsOf(streamed.text);
    const done = events.at(-1)?.data;
    expect(events.at(-1)?.event).toBe('done');
    expect(done.error).toMatch(/Overloaded/);
    // Two pieces of 8 characters arrived before the break.
    expect(done.answer).toBe('The first part a');
    const deltas = events.filter((event) => event.event === 'text').map((event) => event.data.delta);
    expect(deltas.join('')).toBe(done.answer);
    const conversation = await t.request('GET', `/api/workspaces/${workspaceId}/conversations/${done.conversation_id}`, {
      cookie: admin.cookie,
    });
    expect(conversation.body.messages.map((message: { role: string; content: string }) => [message.role, message.content])).toEqual([
      ['user', 'Tell me everything'],
      ['assistant', 'The first part a'],
    ]);
  });

  it('sends a screened answer whole when the workspace redacts answers, so the raw text never streams', async () => {
    const { admin, workspaceId } = await setup();
    await t.request('POST', `/api/workspaces/${workspaceId}/guardrails`, { cookie: admin.cookie, body: { preset: 'email' } });
    model.reply({ ...textReply('Write to ada@example.com for access.'), chunkChars: 3 });
    const streamed = await t.request('POST', `/api/workspaces/${workspaceId}/query`, {
      cookie: admin.cookie,
      headers: SSE,
      body: { query: 'Who grants access?' },
    });
    expect(streamed.text).not.toContain('ada@example.com');
    const events = eventsOf(streamed.text);
    const texts = events.filter((event) => event.event === 'text');
    expect(texts).toHaveLength(1);
    expect(texts[0]?.data.delta).toBe(events.at(-1)?.data.answer);
    expect(texts[0]?.data.delta).toBe('Write to [redacted] for access.');
  });

  it('sends a comment line while the model is quiet; a client that goes away stops the answer, stored as far as it came, stopped', async () => {
    const { admin, workspaceId } = await setup();
    sseTiming.heartbeatMs = 40;
    const full = 'A slow answer, word by word, that the person stops long before its end, and then a tool call.';
    try {
      // The model streams slowly, and would ask for a tool at the end of its turn.
      model.reply({
        ...toolUseReply([{ name: 'search_docs', input: { query: 'vpn' } }], { input_tokens: 300, output_tokens: 40 }, full),
        chunkChars: 4,
        chunkDelayMs: 25,
      });
      const controller = new AbortController();
      const response = await fetch(`${baseUrl}/api/workspaces/${workspaceId}/query`, {
        method: 'POST',
        headers: { ...SSE, cookie: admin.cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'Take your time' }),
        signal: controller.signal,
      });
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      let received = '';
      while (!received.includes(': keep-alive') || !received.includes('event: text')) {
        const { value } = await reader.read();
        received += new TextDecoder().decode(value);
      }
      const start = eventsOf(received).find((event) => event.event === 'start');
      controller.abort();
      await reader.cancel().catch(() => undefined);

      const path = `/api/workspaces/${workspaceId}/conversations/${start?.data.conversation_id}`;
      let conversation = await t.request('GET', path, { cookie: admin.cookie });
      for (let tries = 0; tries < 100 && conversation.body.messages?.length !== 2; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        conversation = await t.request('GET', path, { cookie: admin.cookie });
      }
      const [question, answer] = conversation.body.messages;
      expect(question).toMatchObject({ content: 'Take your time', stopped: false });
      // What had been answered when the model call was aborted: a start of the answer, not all of it.
      expect(answer.stopped).toBe(true);
      expect(answer.content.length).toBeGreaterThan(0);
      expect(answer.content.length).toBeLessThan(full.length / 2);
      expect(full.startsWith(answer.content)).toBe(true);
      // The tool the turn would have asked for never started, and the model was not asked again.
      expect(answer.tool_calls).toEqual([]);
      expect(JSON.parse(answer.tools_called)).toEqual([]);
      expect(model.requests).toHaveLength(1);
      const activity = await t.request('GET', `/api/workspaces/${workspaceId}/activity`, { cookie: admin.cookie });
      const entry = activity.body.activity.find((row: { query: string }) => row.query === 'Take your time');
      expect(entry).toMatchObject({ error: null, tools_called: [] });
    } finally {
      sseTiming.heartbeatMs = 15_000;
    }
  });

  it('a client that stays to the end is not stopped: the whole answer is stored, not marked stopped', async () => {
    const { admin, workspaceId } = await setup();
    twoTurns();
    const response = await fetch(`${baseUrl}/api/workspaces/${workspaceId}/query`, {
      method: 'POST',
      headers: { ...SSE, cookie: admin.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'How do I get on the VPN?' }),
    });
    const events = eventsOf(await response.text());
    const done = events.at(-1);
    expect(done?.event).toBe('done');
    const path = `/api/workspaces/${workspaceId}/conversations/${done?.data.conversation_id}`;
    const conversation = await t.request('GET', path, { cookie: admin.cookie });
    expect(conversation.body.messages[1]).toMatchObject({ stopped: false, content: done?.data.answer });
    expect(JSON.parse(conversation.body.messages[1].tools_called)).toEqual(['search_docs']);
  });
});

describe('a reader that stops reading without hanging up', () => {
  it('is given up once the query is done, so nothing of the stream stays behind', async () => {
    const { admin, workspaceId } = await setup();
    const before = sseStreams.open;
    sseTiming.giveUpAfterDoneMs = 50;
    try {
      model.reply({ ...textReply('Nobody reads this answer.'), chunkChars: 2 });
      // The body is never read (as Lambda's response stream after a failed write): writes back up.
      const response = await t.app.request(`/api/workspaces/${workspaceId}/query`, {
        method: 'POST',
        headers: { ...SSE, cookie: admin.cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'Anyone?' }),
      });
      expect(response.status).toBe(200);
      expect(sseStreams.open).toBe(before + 1);
      await vi.waitFor(() => expect(sseStreams.open).toBe(before), { timeout: 5_000, interval: 20 });
      const activity = await t.request('GET', `/api/workspaces/${workspaceId}/activity`, { cookie: admin.cookie });
      expect(activity.body.activity.map((entry: { query: string }) => entry.query)).toContain('Anyone?');
    } finally {
      sseTiming.giveUpAfterDoneMs = 10_000;
    }
  });
});

describe('POST /api/consumers/:id/messages with Accept: text/event-stream', () => {
  it('streams the answer and ends with done equal to the JSON answer, thread_id included', async () => {
    const { admin, workspaceId } = await setup();
    const connected = await t.request('POST', '/api/connectors/consumer', {
      cookie: admin.cookie,
      body: { type: 'messaging', workspace_id: workspaceId, credentials: {} },
    });
    twoTurns();
    const streamed = await t.request('POST', `/api/consumers/${connected.body.id}/messages`, {
      headers: { ...SSE, authorization: `Bearer ${connected.body.api_key}` },
      body: { user: 'Lin', text: 'How do I use the VPN?', thread_id: 'thread-7' },
    });
    const events = eventsOf(streamed.text);
    expect(events.map((event) => event.event)).toEqual(expect.arrayContaining(['start', 'tool_call', 'tool_result', 'text', 'done']));
    const done = events.at(-1)?.data;
    expect(done).toMatchObject({ thread_id: 'thread-7', tools_called: ['search_docs'], error: null });
    expect(
      events
        .filter((event) => event.event === 'text')
        .map((event) => event.data.delta)
        .join(''),
    ).toBe(done.answer);
  });
});
