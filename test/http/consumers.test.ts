import { createHash } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type Http2Bindings, type HttpBindings } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { readDeclaredBody } from '../../bin/request-body.js';
import { ensureTeamChatConsumer } from '../../shared/chat/consumers.js';
import { channelBindingKey, channelListing } from '../../shared/chat/entities.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { errorReply, startFakeModel, textReply, toolUseReply, type FakeModel } from '../support/fake-model.js';

type Admin = Awaited<ReturnType<TestContext['signUp']>>;
type KeyType = 'api' | 'messaging' | 'coding-agent';

let t: TestContext;
let model: FakeModel;
let server: Server;
let base: string;
let admin: Admin;
let outsider: Admin;
let workspaceId: string;
let otherWorkspaceId: string;
/** Every key handed out in this file: none may ever reach the log. */
const issued: string[] = [];

const PREFIX: Record<KeyType, string> = { api: 'wap_api_', messaging: 'wap_msg_', 'coding-agent': 'wap_mcp_' };
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const textsOf = (messages: { role: string; content: unknown }[] | undefined) =>
  (messages ?? []).map((message) =>
    (message.content as { type: string; text?: string }[]).map((block) => block.text ?? `<${block.type}>`).join(''),
  );

/**
 * The fake model echoes the last user text, unless a test queues replies. A closed conversation's
 * statistics job (a forced tool call) gets its statistics at once: a job that failed on an echo
 * would be retried later, into another test's model requests.
 */
function echo() {
  model.handle((request) => {
    if ((request.body as { tool_choice?: unknown }).tool_choice) {
      const stats = { sentiment_score: 0, resolution_status: 'resolved', category: 'query', summary: 'Asked and answered.' };
      return toolUseReply([{ name: 'record_conversation_stats', input: stats }]);
    }
    const last = request.body.messages.at(-1)?.content as { text?: string }[];
    return textReply(`Answer to: ${last?.[0]?.text ?? ''}`);
  });
}

beforeAll(async () => {
  model = await startFakeModel();
  t = await createTestContext({ env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k', MODEL_MAX_RETRIES: '0' } });
  admin = await t.signUp();
  outsider = await t.signUp({ name: 'Olga Outsider' });
  workspaceId = (await t.createWorkspace(admin.cookie, { name: 'Consumers' })).id;
  otherWorkspaceId = (await t.createWorkspace(admin.cookie, { name: 'Consumers elsewhere' })).id;
  await new Promise<void>((resolve) => {
    // As the local runtime serves it: a body that declares its length is read before the app runs.
    const fetch = async (request: Request, env: HttpBindings | Http2Bindings) => {
      await readDeclaredBody(env.incoming);
      return t.app.fetch(request, env);
    };
    server = serve({ fetch, hostname: '127.0.0.1', port: 0 }, () => resolve()) as Server;
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await t.close();
  await model.stop();
});
beforeEach(async () => {
  // Jobs of earlier tests (a closed conversation's statistics) may still call the model.
  await t.runner.idle();
  model.reset();
  echo();
});

function connect(type: string, wsId: string, options: { cookie?: string; credentials?: Record<string, unknown> } = {}) {
  return t.request('POST', '/api/connectors/consumer', {
    cookie: options.cookie ?? admin.cookie,
    body: { type, workspace_id: wsId, credentials: options.credentials ?? {} },
  });
}

async function connected(type: KeyType, wsId = workspaceId, cookie = admin.cookie) {
  const response = await connect(type, wsId, { cookie });
  expect(response.status, response.text).toBe(201);
  issued.push(response.body.api_key);
  return { id: response.body.id as string, key: response.body.api_key as string };
}

function query(key: string, wsId: string, body: Record<string, unknown>) {
  return t.request('POST', `/api/workspaces/${wsId}/query`, { headers: bearer(key), body });
}

function message(key: string, consumerId: string, body: Record<string, unknown>) {
  return t.request('POST', `/api/consumers/${consumerId}/messages`, { headers: bearer(key), body });
}

async function conversation(wsId: string, cid: string) {
  const response = await t.request('GET', `/api/workspaces/${wsId}/conversations/${encodeURIComponent(cid)}`, { cookie: admin.cookie });
  expect(response.status, response.text).toBe(200);
  return response.body as { conversation: Record<string, unknown>; messages: { seq: number; role: string; content: string }[] };
}

async function consumersOf(wsId: string) {
  const response = await t.request('GET', `/api/workspaces/${wsId}/consumers`, { cookie: admin.cookie });
  expect(response.status, response.text).toBe(200);
  return response.body.consumers as { id: string; type: string; status: string; channels: unknown[] }[];
}

describe('POST /api/connectors/consumer: api, messaging and coding-agent', () => {
  it('connects each type with a key shown once, stored only as its hash, and lists them active', async () => {
    const wsId = (await t.createWorkspace(admin.cookie, { name: 'Fresh consumers' })).id;
    const made: { type: KeyType; id: string; key: string }[] = [];
    for (const type of ['api', 'messaging', 'coding-agent'] as const) {
      const response = await connect(type, wsId);
      expect(response.status, response.text).toBe(201);
      expect(response.body).toMatchObject({
        status: 'connected',
        id: expect.any(String),
        api_key: expect.any(String),
        message: expect.any(String),
      });
      const key: string = response.body.api_key;
      issued.push(key);
      expect(key.startsWith(PREFIX[type])).toBe(true);
      expect(key.length).toBeGreaterThanOrEqual(PREFIX[type].length + 32);
      expect(response.body.message.length).toBeGreaterThan(0);
      expect(response.body.message).not.toContain(key);
      made.push({ type, id: response.body.id, key });
    }
    // Distinct consumers, distinct keys.
    expect(new Set(made.map((m) => m.id)).size).toBe(3);
    expect(new Set(made.map((m) => m.key)).size).toBe(3);

    // Listed, every type, active; no key anywhere in what the service shows.
    const consumers = await consumersOf(wsId);
    expect(consumers.map((c) => [c.id, c.type, c.status]).sort()).toEqual(made.map((m) => [m.id, m.type, 'active']).sort());
    const listed = JSON.stringify(consumers);
    const workspace = await t.request('GET', `/api/workspaces/${wsId}`, { cookie: admin.cookie });
    expect(workspace.status).toBe(200);
    expect(workspace.body.consumers.map((c: { id: string; status: string }) => [c.id, c.status]).sort()).toEqual(
      made.map((m) => [m.id, 'active']).sort(),
    );
    for (const { id, key } of made) {
      expect(listed).not.toContain(key);
      expect(workspace.text).not.toContain(key);
      const item = await t.deps.table.get<Record<string, unknown>>({ pk: `WS#${admin.org.id}#${wsId}`, sk: `CONSUMER#${id}` });
      expect(item).toBeDefined();
      expect(Object.values(item ?? {})).not.toContain(key);
      expect(JSON.stringify(item)).not.toContain(key);
      expect(item?.key_hash).toBe(createHash('sha256').update(key).digest('hex'));
      // The key record, found by the hash, holds no key either.
      const record = await t.deps.table.get<Record<string, unknown>>({ pk: `APIKEY#${String(item?.key_hash)}`, sk: 'KEY' });
      expect(record).toMatchObject({ consumer_id: id, workspace_id: wsId, status: 'active' });
      expect(JSON.stringify(record)).not.toContain(key);
    }
    // Using the keys does not log them either.
    const apiKey = made.find((m) => m.type === 'api')!.key;
    expect((await query(apiKey, wsId, { query: 'hello' })).status).toBe(200);
    const msg = made.find((m) => m.type === 'messaging')!;
    expect((await message(msg.key, msg.id, { user: 'Lin', text: 'hi', thread_id: 't-log' })).status).toBe(200);
    expect((await query(apiKey, otherWorkspaceId, { query: 'hello' })).status).toBe(404);
    const log = t.logger.text();
    for (const { key } of made) expect(log).not.toContain(key);
  });

  it('is for admins of the workspace’s organisation, and validates type and credentials', async () => {
    const member = await t.addMember(admin.cookie);
    const byMember = await connect('api', workspaceId, { cookie: member.cookie });
    expect(byMember.status).toBe(403);
    expect(byMember.body.api_key).toBeUndefined();

    const foreign = await connect('api', workspaceId, { cookie: outsider.cookie });
    expect(foreign.status).toBe(404);
    expect(foreign.body.api_key).toBeUndefined();

    for (const type of ['api', 'messaging', 'coding-agent']) {
      const withCredentials = await connect(type, workspaceId, { credentials: { token: 'x' } });
      expect(withCredentials.status, type).toBe(400);
      expect(withCredentials.body.details.map((d: { path: string }) => d.path)).toContain('credentials');
    }
    const unknown = await connect('email', workspaceId);
    expect(unknown.status).toBe(400);
    expect(unknown.body.details.map((d: { path: string }) => d.path)).toContain('type');

    // None of the refused attempts created a consumer.
    const before = (await consumersOf(workspaceId)).length;
    await connect('api', workspaceId, { cookie: member.cookie });
    await connect('api', workspaceId, { credentials: { a: 1 } });
    expect((await consumersOf(workspaceId)).length).toBe(before);
  });
});

describe('api key: Bearer on the workspace’s query and conversation endpoints', () => {
  it('asks, and reads, lists and closes the conversation, with the key alone', async () => {
    const { id, key } = await connected('api');
    const answered = await query(key, workspaceId, { query: 'What is our refund policy?' });
    expect(answered.status, answered.text).toBe(200);
    expect(answered.body).toMatchObject({ answer: 'Answer to: What is our refund policy?', error: null });
    expect(textsOf(model.requests[0]?.body.messages)).toEqual(['What is our refund policy?']);
    const cid: string = answered.body.conversation_id;

    const detail = await t.request('GET', `/api/workspaces/${workspaceId}/conversations/${cid}`, { headers: bearer(key) });
    expect(detail.status, detail.text).toBe(200);
    expect(detail.body.conversation).toMatchObject({ id: cid, consumer_type: 'api', message_count: 2, status: 'open' });
    expect(detail.body.conversation.user_name).toContain(id);
    expect(detail.body.messages.map((m: { role: string; content: string }) => [m.role, m.content])).toEqual([
      ['user', 'What is our refund policy?'],
      ['assistant', 'Answer to: What is our refund policy?'],
    ]);

    const list = await t.request('GET', `/api/workspaces/${workspaceId}/conversations?consumer=api`, { headers: bearer(key) });
    expect(list.status, list.text).toBe(200);
    expect(list.body.conversations.map((c: { id: string }) => c.id)).toContain(cid);

    const followUp = await query(key, workspaceId, { query: 'And for digital goods?', session_id: cid });
    expect(followUp.status).toBe(200);
    expect(followUp.body.conversation_id).toBe(cid);
    expect(textsOf(model.requests[1]?.body.messages)).toEqual([
      'What is our refund policy?',
      'Answer to: What is our refund policy?',
      'And for digital goods?',
    ]);

    const closed = await t.request('POST', `/api/workspaces/${workspaceId}/conversations/${cid}/close`, { headers: bearer(key) });
    expect(closed.status, closed.text).toBe(200);
    expect(closed.body.status).toBe('closed');
    expect((await conversation(workspaceId, cid)).conversation.status).toBe('closed');
    await t.runner.idle();
  });

  it('is 404 on another workspace of the same organisation, without calling the model', async () => {
    const { key } = await connected('api');
    const asked = await query(key, otherWorkspaceId, { query: 'hi' });
    expect(asked.status).toBe(404);
    expect(asked.body.error).toEqual(expect.any(String));
    const list = await t.request('GET', `/api/workspaces/${otherWorkspaceId}/conversations`, { headers: bearer(key) });
    expect(list.status).toBe(404);
    // Another organisation's workspace, too.
    const foreignWs = (await t.createWorkspace(outsider.cookie, { name: 'Theirs' })).id;
    expect((await query(key, foreignWs, { query: 'hi' })).status).toBe(404);
    expect(model.requests).toHaveLength(0);
  });

  it('is 403 everywhere else, naming what the key may use', async () => {
    const { key } = await connected('api');
    for (const [method, path, body] of [
      ['GET', '/api/org', undefined],
      ['GET', '/api/workspaces', undefined],
      ['GET', `/api/workspaces/${workspaceId}`, undefined],
      ['PUT', `/api/workspaces/${workspaceId}`, { name: 'Renamed by a key' }],
      ['GET', `/api/workspaces/${workspaceId}/consumers`, undefined],
      ['GET', '/api/org/settings', undefined],
      ['PUT', '/api/org/settings/ai_api_key', { value: 'sk-stolen-1234567890' }],
      ['POST', '/api/connectors/consumer', { type: 'api', workspace_id: workspaceId, credentials: {} }],
    ] as const) {
      const response = await t.request(method, path, { headers: bearer(key), body });
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.body.error, `${method} ${path}`).toMatch(/query and conversation endpoints/);
    }
    const workspace = await t.request('GET', `/api/workspaces/${workspaceId}`, { cookie: admin.cookie });
    expect(workspace.body.workspace.name).toBe('Consumers');
  });

  it('is 401 for a malformed Authorization header or an unknown key, even with a valid session', async () => {
    for (const authorization of ['Basic x', 'Bearer', 'Bearer ', 'Bearer a b']) {
      const response = await t.request('POST', `/api/workspaces/${workspaceId}/query`, {
        headers: { authorization },
        body: { query: 'hi' },
      });
      expect(response.status, authorization).toBe(401);
      expect(response.body.error).toEqual(expect.any(String));
    }
    const unknown = await query('wap_api_not-a-real-key-0123456789abcdefghijklmn', workspaceId, { query: 'hi' });
    expect(unknown.status).toBe(401);
    expect(unknown.body.error).toBe('invalid or revoked API key');
    const withCookie = await t.request('GET', `/api/workspaces/${workspaceId}`, {
      cookie: admin.cookie,
      headers: bearer('wap_api_unknown'),
    });
    expect(withCookie.status).toBe(401);
    expect(model.requests).toHaveLength(0);
  });

  it('is a 4xx, not a 500, for a key on a path with a malformed percent-encoding', async () => {
    const { key } = await connected('api');
    // With a session the same path is an ordinary 404.
    const bySession = await t.request('POST', '/api/workspaces/%E0%A4%A/query', { cookie: admin.cookie, body: { query: 'hi' } });
    expect(bySession.status).toBe(404);
    const response = await t.request('POST', '/api/workspaces/%E0%A4%A/query', { headers: bearer(key), body: { query: 'hi' } });
    expect(response.status, response.text).toBeGreaterThanOrEqual(400);
    expect(response.status, response.text).toBeLessThan(500);
    expect(t.logger.text()).not.toMatch(/URIError/);
  });
});

describe('a key in steady use', () => {
  it('is read from the store once, not on each request, and its use recorded once a minute', async () => {
    const { key } = await connected('api');
    const reads = vi.spyOn(t.deps.table, 'get');
    const updates = vi.spyOn(t.deps.table, 'update');
    try {
      for (let i = 0; i < 3; i++) {
        const list = await t.request('GET', `/api/workspaces/${workspaceId}/conversations`, { headers: bearer(key) });
        expect(list.status, list.text).toBe(200);
      }
      const keyReads = reads.mock.calls.filter(([read]) => String(read.pk).startsWith('APIKEY#'));
      expect(keyReads).toHaveLength(1);
      // last_used_at: written by the first request (the key record, then the consumer), not by the next two.
      const keyWrites = updates.mock.calls.filter(([written]) => String(written.pk).startsWith('APIKEY#'));
      expect(keyWrites).toHaveLength(1);
    } finally {
      reads.mockRestore();
      updates.mockRestore();
    }
  });
});

describe('DELETE /api/connectors/consumer/:id', () => {
  it('revokes (admin only, own organisation): the key is refused at once and the consumer stays listed as revoked', async () => {
    const { id, key } = await connected('api');
    const survivor = await connected('api');
    expect((await query(key, workspaceId, { query: 'before' })).status).toBe(200);

    const member = await t.addMember(admin.cookie);
    expect((await t.request('DELETE', `/api/connectors/consumer/${id}`, { cookie: member.cookie })).status).toBe(403);
    expect((await t.request('DELETE', `/api/connectors/consumer/${id}`, { cookie: outsider.cookie })).status).toBe(404);
    expect((await t.request('DELETE', '/api/connectors/consumer/cons_does_not_exist', { cookie: admin.cookie })).status).toBe(404);
    // The refused attempts changed nothing.
    expect((await query(key, workspaceId, { query: 'still' })).status).toBe(200);
    // A key cannot revoke (itself or anything).
    expect((await t.request('DELETE', `/api/connectors/consumer/${id}`, { headers: bearer(key) })).status).toBe(403);

    const revoked = await t.request('DELETE', `/api/connectors/consumer/${id}`, { cookie: admin.cookie });
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.body).toEqual({ status: 'ok' });

    const after = await query(key, workspaceId, { query: 'after' });
    expect(after.status).toBe(401);
    expect(after.body.error).toBe('invalid or revoked API key');
    const list = await t.request('GET', `/api/workspaces/${workspaceId}/conversations`, { headers: bearer(key) });
    expect(list.status).toBe(401);
    const consumers = await consumersOf(workspaceId);
    expect(consumers.find((c) => c.id === id)?.status).toBe('revoked');
    expect(consumers.find((c) => c.id === survivor.id)?.status).toBe('active');
    // Another key of the same workspace still works.
    expect((await query(survivor.key, workspaceId, { query: 'me too?' })).status).toBe(200);
  });

  it('stops messaging and coding-agent keys at once too', async () => {
    const messaging = await connected('messaging');
    const coding = await connected('coding-agent');
    expect((await message(messaging.key, messaging.id, { user: 'Lin', text: 'hi', thread_id: 'r-1' })).status).toBe(200);
    for (const { id } of [messaging, coding]) {
      expect((await t.request('DELETE', `/api/connectors/consumer/${id}`, { cookie: admin.cookie })).status).toBe(200);
    }
    const refused = await message(messaging.key, messaging.id, { user: 'Lin', text: 'hi again', thread_id: 'r-1' });
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe('invalid or revoked API key');
    await expect(mcpClient(coding.key, workspaceId)).rejects.toMatchObject({
      code: 401,
      message: expect.stringContaining('invalid or revoked API key'),
    });
    const statuses = Object.fromEntries((await consumersOf(workspaceId)).map((c) => [c.id, c.status]));
    expect(statuses[messaging.id]).toBe('revoked');
    expect(statuses[coding.id]).toBe('revoked');
  });

  it("revokes only the caller's own team-chat consumer when another organisation's has the same id", async () => {
    // Workspace ids are unique within an organisation only: two organisations' "Front desk" are both
    // `ws-front-desk`, and so their team-chat consumers are both `tc-ws-front-desk`.
    const frontDesk = async (owner: Admin, channelId: string) => {
      const wsId = (await t.createWorkspace(owner.cookie, { name: 'Front desk' })).id;
      const consumerId = await ensureTeamChatConsumer(t.deps, owner.org.id, wsId);
      await t.deps.table.put({
        ...channelBindingKey(owner.org.id, channelId),
        ...channelListing(owner.org.id, wsId, channelId),
        org_id: owner.org.id,
        channel_id: channelId,
        channel_name: null,
        workspace_id: wsId,
        workspace_name: 'Front desk',
        created_at: t.clock.now().toISOString(),
      });
      return { owner, wsId, consumerId, channelId };
    };
    const victim = await frontDesk(await t.signUp(), 'CFRONT0');
    const revoker = await frontDesk(await t.signUp(), 'CFRONT1');
    expect(revoker.consumerId).toBe(victim.consumerId);
    const listed = async ({ owner, wsId }: typeof victim) =>
      (await t.request('GET', `/api/workspaces/${wsId}/consumers`, { cookie: owner.cookie })).body.consumers;

    const revoked = await t.request('DELETE', `/api/connectors/consumer/${revoker.consumerId}`, { cookie: revoker.owner.cookie });
    expect(revoked.status, revoked.text).toBe(200);
    expect(await listed(revoker)).toMatchObject([{ id: revoker.consumerId, status: 'revoked', channels: [] }]);
    expect(await listed(victim)).toMatchObject([
      { id: victim.consumerId, status: 'active', channels: [{ channel_id: victim.channelId, channel_name: null }] },
    ]);
  });
});

describe('POST /api/consumers/:id/messages', () => {
  it('answers a message; each thread_id is one conversation that later messages continue', async () => {
    const { id, key } = await connected('messaging');
    const first = await message(key, id, { user: 'Lin', text: 'hi', thread_id: 'thread-1' });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ answer: 'Answer to: hi', thread_id: 'thread-1', error: null });
    const cid: string = first.body.conversation_id;

    const second = await message(key, id, { user: 'Lin', text: 'and then?', thread_id: 'thread-1' });
    expect(second.status, second.text).toBe(200);
    expect(second.body).toMatchObject({ answer: 'Answer to: and then?', thread_id: 'thread-1', conversation_id: cid });
    expect(textsOf(model.requests[1]?.body.messages)).toEqual(['hi', 'Answer to: hi', 'and then?']);

    const saved = await conversation(workspaceId, cid);
    expect(saved.conversation).toMatchObject({
      id: cid,
      consumer_type: 'messaging',
      user_name: 'Lin',
      message_count: 4,
      workspace_id: workspaceId,
    });
    expect(saved.messages.map((m) => [m.seq, m.role, m.content])).toEqual([
      [1, 'user', 'hi'],
      [2, 'assistant', 'Answer to: hi'],
      [3, 'user', 'and then?'],
      [4, 'assistant', 'Answer to: and then?'],
    ]);

    const other = await message(key, id, { user: 'Sam', text: 'new topic', thread_id: 'thread-2' });
    expect(other.status).toBe(200);
    expect(other.body.thread_id).toBe('thread-2');
    expect(other.body.conversation_id).not.toBe(cid);
    expect(textsOf(model.requests[2]?.body.messages)).toEqual(['new topic']);
    expect((await conversation(workspaceId, other.body.conversation_id)).conversation).toMatchObject({
      user_name: 'Sam',
      message_count: 2,
      consumer_type: 'messaging',
    });

    // The same thread_id on another messaging consumer is another conversation.
    const twin = await connected('messaging');
    const elsewhere = await message(twin.key, twin.id, { user: 'Lin', text: 'hello twin', thread_id: 'thread-1' });
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.body.conversation_id).not.toBe(cid);
    expect(textsOf(model.requests[3]?.body.messages)).toEqual(['hello twin']);
    expect((await conversation(workspaceId, cid)).conversation.message_count).toBe(4);
  });

  it('takes only this consumer’s messaging key', async () => {
    const { id, key } = await connected('messaging');
    const another = await connected('messaging');
    const api = await connected('api');
    const body = { user: 'Lin', text: 'hi', thread_id: 'thread-x' };

    const wrongConsumer = await message(key, another.id, body);
    expect(wrongConsumer.status).toBe(404);
    const bySession = await t.request('POST', `/api/consumers/${id}/messages`, { cookie: admin.cookie, body });
    expect(bySession.status).toBe(403);
    expect(bySession.body.error).toMatch(/messaging/);
    const byApiKey = await message(api.key, id, body);
    expect(byApiKey.status).toBe(403);
    const noAuth = await t.request('POST', `/api/consumers/${id}/messages`, { body });
    expect(noAuth.status).toBe(401);
    // The messaging key is not an api key either.
    expect((await query(key, workspaceId, { query: 'hi' })).status).toBe(403);
    expect(model.requests).toHaveLength(0);
  });

  it('validates the message', async () => {
    const { id, key } = await connected('messaging');
    for (const [body, path] of [
      [{ user: 'Lin', text: 'hi', thread_id: 'has space' }, 'thread_id'],
      [{ user: 'Lin', text: 'hi', thread_id: 'a/b' }, 'thread_id'],
      [{ user: 'Lin', text: 'hi', thread_id: '' }, 'thread_id'],
      [{ user: 'Lin', text: 'hi', thread_id: 'x'.repeat(91) }, 'thread_id'],
      [{ user: 'Lin', text: '', thread_id: 'thread-1' }, 'text'],
      [{ user: 'Lin', text: '   ', thread_id: 'thread-1' }, 'text'],
      [{ user: '', text: 'hi', thread_id: 'thread-1' }, 'user'],
      [{ text: 'hi', thread_id: 'thread-1' }, 'user'],
    ] as const) {
      const response = await message(key, id, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(
        response.body.details.map((d: { path: string }) => d.path),
        JSON.stringify(body),
      ).toContain(path);
    }
    expect(model.requests).toHaveLength(0);
  });
});

/** An MCP client of the workspace's MCP endpoint, over loopback HTTP. */
async function mcpClient(key: string | undefined, wsId: string, headers: Record<string, string> = {}) {
  const client = new Client({ name: 'test', version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/api/workspaces/${wsId}/mcp`), {
    requestInit: { headers: { ...(key ? bearer(key) : {}), ...headers } },
  });
  await client.connect(transport);
  return client;
}

type ToolResult = { content: { type: string; text?: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };

describe('coding-agent: the workspace as an MCP server', () => {
  it('initializes and lists exactly one tool, ask { question, session_id? }', async () => {
    const { key } = await connected('coding-agent');
    const client = await mcpClient(key, workspaceId);
    try {
      expect(client.getServerVersion()?.name).toContain(workspaceId);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(['ask']);
      const schema = tools[0]!.inputSchema as { properties?: Record<string, unknown>; required?: string[] };
      expect(Object.keys(schema.properties ?? {}).sort()).toEqual(['question', 'session_id']);
      expect(schema.required).toEqual(['question']);
    } finally {
      await client.close();
    }
  });

  it('sends progress notifications from ask when the client gives a progress token, then the same result', async () => {
    const { key } = await connected('coding-agent');
    const client = await mcpClient(key, workspaceId);
    try {
      model.reply(toolUseReply([{ name: 'no_such_tool' }]), { ...textReply('Done after a detour.'), chunkChars: 2, chunkDelayMs: 60 });
      const progress: { progress: number; message?: string }[] = [];
      const result = (await client.callTool({ name: 'ask', arguments: { question: 'Take a detour' } }, undefined, {
        onprogress: (notification) => progress.push(notification),
      })) as ToolResult;
      expect(result.content).toEqual([{ type: 'text', text: 'Done after a detour.' }]);
      const messages = progress.map((notification) => notification.message);
      expect(messages.slice(0, 3)).toEqual(['thinking', 'calling no_such_tool', expect.stringMatching(/^no_such_tool failed in \d+ ms$/)]);
      expect(messages.slice(3).length).toBeGreaterThan(0);
      expect(messages.slice(3).every((message) => /^writing the answer \(\d+ characters\)$/.test(message ?? ''))).toBe(true);
      // Progress only grows.
      expect(progress.map((notification) => notification.progress)).toEqual(progress.map((_, index) => index + 1));

      // Without a token: a plain JSON answer, no notifications.
      model.reply(textReply('quiet'));
      const quiet = (await client.callTool({ name: 'ask', arguments: { question: 'No progress please' } })) as ToolResult;
      expect(quiet.content).toEqual([{ type: 'text', text: 'quiet' }]);
    } finally {
      await client.close();
    }
  });

  it('answers ask with the model’s answer and a session_id that continues the conversation', async () => {
    const { id, key } = await connected('coding-agent');
    const client = await mcpClient(key, workspaceId);
    try {
      model.reply(textReply('4'), textReply('12'));
      const first = (await client.callTool({ name: 'ask', arguments: { question: 'What is 2+2?' } })) as ToolResult;
      expect(first.isError).toBeFalsy();
      expect(first.content).toEqual([{ type: 'text', text: '4' }]);
      const sessionId = first.structuredContent?.session_id as string;
      expect(sessionId).toEqual(expect.any(String));
      expect(first.structuredContent).toMatchObject({ answer: '4', error: null, conversation_id: sessionId, session_id: sessionId });
      expect(textsOf(model.requests[0]?.body.messages)).toEqual(['What is 2+2?']);

      const second = (await client.callTool({ name: 'ask', arguments: { question: 'And times 3?', session_id: sessionId } })) as ToolResult;
      expect(second.isError).toBeFalsy();
      expect(second.content).toEqual([{ type: 'text', text: '12' }]);
      expect(second.structuredContent).toMatchObject({ conversation_id: sessionId });
      expect(textsOf(model.requests[1]?.body.messages)).toEqual(['What is 2+2?', '4', 'And times 3?']);

      const saved = await conversation(workspaceId, sessionId);
      expect(saved.conversation).toMatchObject({ consumer_type: 'coding-agent', message_count: 4 });
      expect(saved.conversation.user_name).toContain(id);
      // Its sessions are its own: the id of the agent's conversation starts with its consumer id.
      expect(sessionId.startsWith(`${id}:`)).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('cannot continue another consumer’s conversation: a foreign session_id starts a conversation of its own', async () => {
    const { key } = await connected('coding-agent');
    model.reply(textReply('dashboard answer'));
    const foreign = await t.request('POST', `/api/workspaces/${workspaceId}/query`, {
      cookie: admin.cookie,
      body: { query: 'private dashboard question', session_id: 'dash-session-1' },
    });
    expect(foreign.status).toBe(200);
    const client = await mcpClient(key, workspaceId);
    try {
      model.reply(textReply('fresh'));
      const result = (await client.callTool({
        name: 'ask',
        arguments: { question: 'what did they ask?', session_id: 'dash-session-1' },
      })) as ToolResult;
      expect(result.structuredContent?.session_id).not.toBe('dash-session-1');
      expect(textsOf(model.requests.at(-1)?.body.messages)).toEqual(['what did they ask?']);
    } finally {
      await client.close();
    }
  });

  it('surfaces a model error as isError with the error text', async () => {
    const { key } = await connected('coding-agent');
    const client = await mcpClient(key, workspaceId);
    try {
      model.reply(errorReply(400, 'prompt is too long'));
      const result = (await client.callTool({ name: 'ask', arguments: { question: 'a very long question' } })) as ToolResult;
      expect(result.isError).toBe(true);
      expect(result.content[0]?.type).toBe('text');
      expect(result.content[0]?.text).toMatch(/model API answered 400/);
      expect(result.content[0]?.text).toContain('prompt is too long');
      expect(result.structuredContent?.error).toEqual(expect.stringContaining('prompt is too long'));
    } finally {
      await client.close();
    }
  });

  it('answers with no-store, as every API answer, though the MCP transport makes its own Response', async () => {
    const { key } = await connected('coding-agent');
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    };
    const response = await fetch(`${base}/api/workspaces/${workspaceId}/mcp`, {
      method: 'POST',
      headers: { ...bearer(key), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify(initialize),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: 1, result: { serverInfo: expect.any(Object) } });
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('refuses a missing key or a session (401, the sign-in challenge), another type’s key (403), and another workspace (404)', async () => {
    const { key } = await connected('coding-agent');
    const api = await connected('api');
    await expect(mcpClient(undefined, workspaceId)).rejects.toMatchObject({ code: 401 });
    await expect(mcpClient('wap_mcp_unknown-key', workspaceId)).rejects.toMatchObject({ code: 401 });
    await expect(mcpClient(api.key, workspaceId)).rejects.toMatchObject({
      code: 403,
      message: expect.stringContaining('query and conversation endpoints'),
    });
    // A session cookie is no credential here: a person signs in through their MCP client (the gateway's OAuth).
    await expect(mcpClient(undefined, workspaceId, { cookie: admin.cookie })).rejects.toMatchObject({
      code: 401,
      message: expect.stringContaining('OAuth access token'),
    });
    await expect(mcpClient(key, otherWorkspaceId)).rejects.toMatchObject({ code: 404 });
    // The coding-agent key is only for the MCP endpoint.
    expect((await query(key, workspaceId, { query: 'hi' })).status).toBe(403);
    expect(model.requests).toHaveLength(0);
  });
});

describe('OpenAPI document', () => {
  it('lists the consumer routes and the apiKey security of the query route', async () => {
    const response = await t.request('GET', '/api/openapi.json');
    expect(response.status).toBe(200);
    const doc = response.body as {
      paths: Record<string, Record<string, { security?: Record<string, unknown>[] }>>;
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(doc.paths['/api/consumers/{id}/messages']?.post).toBeDefined();
    expect(doc.paths['/api/workspaces/{id}/mcp']?.post).toBeDefined();
    expect(doc.paths['/api/connectors/consumer/{id}']?.delete).toBeDefined();
    expect(doc.paths['/api/workspaces/{id}/query']?.post?.security).toContainEqual({ apiKey: [] });
    expect(doc.paths['/api/consumers/{id}/messages']?.post?.security).toContainEqual({ apiKey: [] });
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
  });
});

describe('keys in the log', () => {
  it('never logs a key handed out in this file', async () => {
    if (issued.length === 0) await connected('api');
    const log = t.logger.text();
    for (const key of issued) expect(log).not.toContain(key);
  });
});
