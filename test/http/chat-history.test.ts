import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../support/context.js';
import { startFakeModel, textReply, toolUseReply, type FakeModel, type ModelRequestRecord } from '../support/fake-model.js';
import { startHttpMcpServer } from '../support/mcp-servers.js';

/*
 * A person's chat (issue 47): an answer regenerated and a question edited and asked again
 * (CONTRACT.md, fourth round), replacing the last turn in what is shown and sent to the model while
 * the audit keeps both; and the chat history (docs/api-decisions.md): the caller's own conversations
 * (`mine=true`), renamed, pinned and deleted from the history by their starter only.
 */

let t: TestContext;
let model: FakeModel;
let tickets: Awaited<ReturnType<typeof startHttpMcpServer>>;

beforeAll(async () => {
  model = await startFakeModel();
  tickets = await startHttpMcpServer({
    name: 'tickets-server',
    tools: [{ name: 'create_ticket', annotations: { readOnlyHint: false }, run: () => 'ticket created' }],
  });
  t = await createTestContext({ env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k', MODEL_MAX_RETRIES: '0' } });
});
afterAll(async () => {
  await t.close();
  await Promise.all([model.stop(), tickets.stop()]);
});
beforeEach(async () => {
  await t.runner.idle();
  model.reset();
});

/** Each answer names what the model was sent: the texts of its messages, joined. */
function echoMessages() {
  let n = 0;
  model.handle((request: ModelRequestRecord) => {
    n += 1;
    const texts = request.body.messages.map((message) =>
      typeof message.content === 'string'
        ? message.content
        : (message.content as { type: string; text?: string }[]).map((block) => block.text ?? '').join(''),
    );
    return textReply(`answer ${n} to [${texts.join(' | ')}]`);
  });
}

async function setup() {
  const admin = await t.signUp();
  const workspace = await t.createWorkspace(admin.cookie, { name: `Chat ${t.uniqueEmail('ws')}` });
  return { admin, workspaceId: workspace.id as string };
}

const query = (cookie: string, workspaceId: string, body: Record<string, unknown>) =>
  t.request('POST', `/api/workspaces/${workspaceId}/query`, { cookie, body });

async function shown(cookie: string, workspaceId: string, conversationId: string): Promise<string[]> {
  const response = await t.request('GET', `/api/workspaces/${workspaceId}/conversations/${conversationId}`, { cookie });
  expect(response.status, response.text).toBe(200);
  return response.body.messages.map((message: { role: string; content: string }) => `${message.role}: ${message.content}`);
}

describe('regenerate and edit', () => {
  it('regenerate answers the last question again after the messages before it, and replaces the last answer', async () => {
    const { admin, workspaceId } = await setup();
    echoMessages();
    const first = await query(admin.cookie, workspaceId, { query: 'one' });
    const id = first.body.conversation_id as string;
    await query(admin.cookie, workspaceId, { query: 'two', session_id: id });

    const again = await query(admin.cookie, workspaceId, { regenerate: true, session_id: id });
    expect(again.status, again.text).toBe(200);
    // The model saw the first turn and the question again, not the answer it replaces.
    expect(again.body.answer).toBe('answer 3 to [one | answer 1 to [one] | two]');
    expect(again.body.conversation_id).toBe(id);
    expect(await shown(admin.cookie, workspaceId, id)).toEqual([
      'user: one',
      'assistant: answer 1 to [one]',
      'user: two',
      'assistant: answer 3 to [one | answer 1 to [one] | two]',
    ]);

    // A follow-up after it is asked after what is shown.
    const next = await query(admin.cookie, workspaceId, { query: 'three', session_id: id });
    expect(next.body.answer).toBe('answer 4 to [one | answer 1 to [one] | two | answer 3 to [one | answer 1 to [one] | two] | three]');

    // The audit keeps every query, the replaced one too.
    const activity = await t.request('GET', `/api/workspaces/${workspaceId}/activity`, { cookie: admin.cookie });
    expect(activity.body.activity.map((entry: { query: string }) => entry.query)).toEqual(['three', 'two', 'two', 'one']);
  });

  it('edit replaces the last question with its new text, then answers it', async () => {
    const { admin, workspaceId } = await setup();
    echoMessages();
    const first = await query(admin.cookie, workspaceId, { query: 'one' });
    const id = first.body.conversation_id as string;
    await query(admin.cookie, workspaceId, { query: 'tow', session_id: id });

    const edited = await query(admin.cookie, workspaceId, { edit: { content: 'two' }, session_id: id });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body.answer).toBe('answer 3 to [one | answer 1 to [one] | two]');
    expect(await shown(admin.cookie, workspaceId, id)).toEqual([
      'user: one',
      'assistant: answer 1 to [one]',
      'user: two',
      'assistant: answer 3 to [one | answer 1 to [one] | two]',
    ]);
    // Editing the only question of a conversation leaves nothing of it shown but the new turn.
    const single = await query(admin.cookie, workspaceId, { query: 'alpha' });
    await query(admin.cookie, workspaceId, { edit: { content: 'beta' }, session_id: single.body.conversation_id });
    expect(await shown(admin.cookie, workspaceId, single.body.conversation_id)).toEqual(['user: beta', 'assistant: answer 5 to [beta]']);
  });

  it('is refused with a clear 4xx: no session, both at once, empty text, nothing asked, another’s conversation, a pending approval', async () => {
    const { admin, workspaceId } = await setup();
    echoMessages();
    const cases: [Record<string, unknown>, string][] = [
      [{ regenerate: true }, 'session_id'],
      [{ edit: { content: 'x' } }, 'session_id'],
      [{ query: 'x', regenerate: true, session_id: 's1' }, 'query'],
      [{ edit: { content: '  ' }, session_id: 's1' }, 'edit.content'],
      [{ regenerate: false, session_id: 's1' }, 'regenerate'],
      [{}, 'query'],
    ];
    for (const [body, path] of cases) {
      const response = await query(admin.cookie, workspaceId, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.details.map((detail: { path: string }) => detail.path)).toContain(path);
    }
    const nothing = await query(admin.cookie, workspaceId, { regenerate: true, session_id: 'never-used' });
    expect(nothing.status).toBe(404);
    expect(nothing.body.error).toBe('conversation never-used has no question to answer again');

    // Another person's conversation by its id: their own (empty) one under that session, not the other's.
    const mine = await query(admin.cookie, workspaceId, { query: 'private' });
    const member = await t.addMember(admin.cookie, { name: 'Mo' });
    const theirs = await query(member.cookie, workspaceId, { regenerate: true, session_id: mine.body.conversation_id });
    expect(theirs.status).toBe(404);
    expect(await shown(admin.cookie, workspaceId, mine.body.conversation_id)).toEqual([
      'user: private',
      'assistant: answer 1 to [private]',
    ]);

    // A question waiting for a write's approval is not replaced until that is decided.
    await t.connectMcp(admin.cookie, workspaceId, { name: 'tickets', url: tickets.url });
    const approval = { mode: 'write_tools', approvers: 'admins', expires_minutes: 60 };
    expect((await t.request('PUT', `/api/workspaces/${workspaceId}`, { cookie: admin.cookie, body: { approval } })).status).toBe(200);
    model.reset();
    model.reply(toolUseReply([{ name: 'create_ticket', input: { title: 'x' } }]));
    const paused = await query(admin.cookie, workspaceId, { query: 'open a ticket' });
    expect(paused.body.pending_approval).not.toBeNull();
    // The transcript says the question waits, so a chat opened from the history offers no regenerate on it.
    const pausedDetail = await t.request('GET', `/api/workspaces/${workspaceId}/conversations/${paused.body.conversation_id}`, {
      cookie: admin.cookie,
    });
    expect(pausedDetail.body.messages.map((m: { role: string; awaiting_approval: boolean }) => [m.role, m.awaiting_approval])).toEqual([
      ['user', true],
    ]);
    const waiting = await query(admin.cookie, workspaceId, { regenerate: true, session_id: paused.body.conversation_id });
    expect(waiting.status).toBe(409);
    expect(waiting.body.error).toBe('the last question waits for a tool call to be approved: decide the approval first');
    // Decided, the answer follows and the question no longer waits.
    model.handle(() => textReply('ticket made'));
    const decided = await t.request('POST', `/api/workspaces/${workspaceId}/approvals/${paused.body.pending_approval.id}`, {
      cookie: admin.cookie,
      body: { decision: 'approve' },
    });
    expect(decided.status, decided.text).toBe(200);
    const answered = await t.request('GET', `/api/workspaces/${workspaceId}/conversations/${paused.body.conversation_id}`, {
      cookie: admin.cookie,
    });
    expect(answered.body.messages.map((m: { role: string; awaiting_approval: boolean }) => [m.role, m.awaiting_approval])).toEqual([
      ['user', false],
      ['assistant', false],
    ]);
  });
});

describe('chat history', () => {
  it('lists the caller’s own conversations with mine=true; the starter renames, pins and deletes them from the history', async () => {
    const { admin, workspaceId } = await setup();
    model.handle(() => textReply('ok'));
    const member = await t.addMember(admin.cookie, { name: 'Mia' });
    const ids: string[] = [];
    for (const text of ['first question', 'second question', 'third question']) {
      t.clock.advance(60_000);
      ids.push((await query(member.cookie, workspaceId, { query: text })).body.conversation_id);
    }
    await query(admin.cookie, workspaceId, { query: 'the admin’s' });
    const list = async (cookie: string, search = '') => {
      const response = await t.request('GET', `/api/workspaces/${workspaceId}/conversations?mine=true${search}`, { cookie });
      expect(response.status, response.text).toBe(200);
      return response.body.conversations.map(
        (c: { id: string; title: string; pinned: boolean }) => `${c.title}${c.pinned ? ' (pinned)' : ''}`,
      );
    };
    expect(await list(member.cookie)).toEqual(['third question', 'second question', 'first question']);
    // An admin's own history holds only their own, though they may list everyone's.
    expect(await list(admin.cookie)).toEqual(['the admin’s']);

    const path = (id: string) => `/api/workspaces/${workspaceId}/conversations/${id}`;
    const renamed = await t.request('PATCH', path(ids[0] as string), { cookie: member.cookie, body: { title: 'VPN at home' } });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.conversation).toMatchObject({ id: ids[0], title: 'VPN at home', pinned: false });
    expect((await t.request('PATCH', path(ids[0] as string), { cookie: member.cookie, body: { pinned: true } })).status).toBe(200);
    expect(await list(member.cookie)).toEqual(['third question', 'second question', 'VPN at home (pinned)']);
    expect(await list(member.cookie, '&pinned=true')).toEqual(['VPN at home (pinned)']);
    expect(await list(member.cookie, '&pinned=false')).toEqual(['third question', 'second question']);
    expect(await list(member.cookie, '&q=vpn')).toEqual(['VPN at home (pinned)']);
    // A follow-up keeps the new title.
    t.clock.advance(60_000);
    await query(member.cookie, workspaceId, { query: 'and at work?', session_id: ids[0] });
    expect((await list(member.cookie))[0]).toBe('VPN at home (pinned)');

    const deleted = await t.request('DELETE', path(ids[1] as string), { cookie: member.cookie });
    expect(deleted.status, deleted.text).toBe(200);
    expect(await list(member.cookie)).toEqual(['VPN at home (pinned)', 'third question']);
    const membersList = await t.request('GET', `/api/workspaces/${workspaceId}/conversations`, { cookie: member.cookie });
    expect(membersList.body.conversations.map((c: { id: string }) => c.id)).not.toContain(ids[1]);
    // Kept for the audit: an admin lists it, and its link still opens it.
    const adminList = await t.request('GET', `/api/workspaces/${workspaceId}/conversations`, { cookie: admin.cookie });
    expect(adminList.body.conversations.map((c: { id: string }) => c.id)).toContain(ids[1]);
    expect((await t.request('GET', path(ids[1] as string), { cookie: member.cookie })).status).toBe(200);
  });

  it('only the starter changes a conversation: 403 for an admin who reads it, 404 for another member; bad bodies are 400', async () => {
    const { admin, workspaceId } = await setup();
    model.handle(() => textReply('ok'));
    const ann = await t.addMember(admin.cookie, { name: 'Ann' });
    const bob = await t.addMember(admin.cookie, { name: 'Bob' });
    const id = (await query(ann.cookie, workspaceId, { query: 'Ann’s question' })).body.conversation_id as string;
    const path = `/api/workspaces/${workspaceId}/conversations/${id}`;

    const byAdmin = await t.request('PATCH', path, { cookie: admin.cookie, body: { title: 'taken' } });
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.body.error).toBe('only the person who started this conversation may rename, pin or delete it from their history');
    expect((await t.request('DELETE', path, { cookie: admin.cookie })).status).toBe(403);
    const byBob = await t.request('PATCH', path, { cookie: bob.cookie, body: { pinned: true } });
    expect(byBob.status).toBe(404);
    expect(byBob.body.error).toBe(`conversation ${id} not found`);
    expect((await t.request('DELETE', path, { cookie: bob.cookie })).status).toBe(404);
    expect(
      (await t.request('PATCH', `/api/workspaces/${workspaceId}/conversations/conv-nope`, { cookie: ann.cookie, body: { pinned: true } }))
        .status,
    ).toBe(404);

    for (const body of [{}, { title: '' }, { title: 'x'.repeat(121) }, { title: 'a\u202Eb' }, { pinned: 'yes' }]) {
      const response = await t.request('PATCH', path, { cookie: ann.cookie, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.details.length).toBeGreaterThan(0);
    }
    // Nothing was changed by any of them.
    const detail = await t.request('GET', path, { cookie: ann.cookie });
    expect(detail.body.conversation).toMatchObject({ title: 'Ann’s question', pinned: false });
    const bad = await t.request('GET', `/api/workspaces/${workspaceId}/conversations?mine=yes`, { cookie: ann.cookie });
    expect(bad.status).toBe(400);
  });

  it('filters the console’s conversations (people signed in) apart from an api key’s, with consumer=console', async () => {
    const { admin, workspaceId } = await setup();
    model.handle(() => textReply('ok'));
    const created = await t.request('POST', '/api/connectors/consumer', {
      cookie: admin.cookie,
      body: { type: 'api', workspace_id: workspaceId, credentials: {} },
    });
    expect(created.status, created.text).toBe(201);
    const byKey = await t.request('POST', `/api/workspaces/${workspaceId}/query`, {
      headers: { authorization: `Bearer ${created.body.api_key}` },
      body: { query: 'from a script' },
    });
    const byPerson = await query(admin.cookie, workspaceId, { query: 'from the console' });
    const list = async (consumer: string) => {
      const response = await t.request('GET', `/api/workspaces/${workspaceId}/conversations?consumer=${consumer}`, {
        cookie: admin.cookie,
      });
      expect(response.status, response.text).toBe(200);
      return {
        ids: response.body.conversations.map((c: { id: string }) => c.id),
        total: response.body.total,
        filters: response.body.filters,
      };
    };
    const consoleOnly = await list('console');
    expect(consoleOnly).toMatchObject({ ids: [byPerson.body.conversation_id], total: 1 });
    expect(consoleOnly.filters.consumer).toContain('console');
    // `api` stays every api conversation, the console's among them.
    expect((await list('api')).ids.sort()).toEqual([byKey.body.conversation_id, byPerson.body.conversation_id].sort());
    expect((await t.request('GET', `/api/workspaces/${workspaceId}/conversations?consumer=desk`, { cookie: admin.cookie })).status).toBe(
      400,
    );
  });
});
