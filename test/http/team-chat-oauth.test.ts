import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ChatBridge } from '../../shared/chat/bridge.js';
import { TeamChatNotifier } from '../../shared/chat/notifier.js';
import { connectTeamChat } from '../support/chat.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { type FakeChat, startFakeChat } from '../support/fake-chat.js';
import { type FakeModel, startFakeModel, textReply, toolUseReply } from '../support/fake-model.js';
import { startOAuthMcpServer } from '../support/oauth-mcp-server.js';

/** A per-user OAuth connection answered in team chat: each chat user grants their own access through a link only they see. */
let t: TestContext;
let chat: FakeChat;
let model: FakeModel;
let server: Awaited<ReturnType<typeof startOAuthMcpServer>>;
let bridge: ChatBridge;
let admin: Awaited<ReturnType<TestContext['signUp']>>;
let workspaceId: string;

const waitFor = <T>(check: () => T | Promise<T>) => vi.waitFor(check, { timeout: 8_000, interval: 25 });

beforeAll(async () => {
  chat = await startFakeChat();
  model = await startFakeModel();
  server = await startOAuthMcpServer();
  t = await createTestContext({ env: { SLACK_API_URL: chat.apiUrl, ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k' } });
  t.deps.chat = new TeamChatNotifier(t.deps, chat.apiUrl);
  admin = await t.signUp();
  workspaceId = (await t.createWorkspace(admin.cookie, { name: 'Chat with grants' })).id;
  const saved = await t.request('POST', '/api/connectors/mcp', {
    cookie: admin.cookie,
    body: { workspace_id: workspaceId, name: 'Mailbox', transport: 'http', url: server.url, auth: 'oauth', credential: 'per_user' },
  });
  expect(saved.status, saved.text).toBe(201);
  // The admin's own grant lists the tools.
  const callback = new URL(await server.login(saved.body.authorization_url, 'admin-user'));
  expect((await t.request('GET', `${callback.pathname}${callback.search}`, { cookie: admin.cookie })).status).toBe(200);
  bridge = await connectTeamChat(t, { cookie: admin.cookie, workspaceId, chat, channel: 'C9' });
});
afterAll(async () => {
  await bridge.stop();
  await t.close();
  await Promise.all([chat.stop(), model.stop(), server.close()]);
});

describe('team chat with a per-user OAuth connection', () => {
  it('sends the asker a private link, keeps the grant for that chat user, and answers their next message with their own token', async () => {
    model.reset();
    chat.sendEvent({ type: 'app_mention', channel: 'C9', user: 'U1', text: '<@UBOT> who am I?', ts: '2000.0001' });
    await waitFor(() => expect(chat.answersIn('2000.0001')).toHaveLength(1));
    expect(chat.answersIn('2000.0001')[0]).toMatch(/needs your authorization first: I sent you a private link/);
    const ephemeral = chat.callsOf('chat.postEphemeral');
    expect(ephemeral).toHaveLength(1);
    expect(ephemeral[0]?.params).toMatchObject({ channel: 'C9', user: 'U1', thread_ts: '2000.0001' });
    expect(model.requests).toEqual([]);
    // The link is not in the thread, where everyone reads.
    const link = /https?:\/\/\S+/.exec(String(ephemeral[0]?.params.text))?.[0] ?? '';
    expect(link).toContain('code_challenge=');
    expect(chat.answersIn('2000.0001')[0]).not.toContain(link);

    // The chat user opens it (no session of the service: the link reached only them) and grants access.
    const callback = new URL(await server.login(link, 'chat-user-one'));
    const granted = await t.request('GET', `${callback.pathname}${callback.search}`);
    expect(granted.status, granted.text).toBe(200);

    // Their next message in the thread works, as them.
    model.reply(toolUseReply([{ name: 'whoami' }]), textReply('You are chat-user-one.'));
    chat.sendEvent({ type: 'message', channel: 'C9', user: 'U1', text: 'who am I now?', ts: '2000.0002', thread_ts: '2000.0001' });
    await waitFor(() => expect(chat.answersIn('2000.0001')).toHaveLength(2));
    expect(chat.answersIn('2000.0001')[1]).toBe('You are chat-user-one.');
    expect(server.toolCalls.at(-1)).toMatchObject({ tool: 'whoami', user: 'chat-user-one' });

    // Another chat user in the same thread has no grant of theirs yet: a link of their own.
    chat.sendEvent({ type: 'message', channel: 'C9', user: 'U2', text: 'and me?', ts: '2000.0003', thread_ts: '2000.0001' });
    await waitFor(() => expect(chat.callsOf('chat.postEphemeral')).toHaveLength(2));
    expect(chat.callsOf('chat.postEphemeral')[1]?.params).toMatchObject({ user: 'U2' });
  });
});
