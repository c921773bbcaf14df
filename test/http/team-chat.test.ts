import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChatBridge } from '../../shared/chat-bot/bridge.js';
import { UNBOUND_REPLY, splitForPosting } from '../../shared/chat-bot/messages.js';
import { TeamChatNotifier } from '../../shared/chat-bot/notifier.js';
import { COLD_NOTICE } from '../../shared/conversations/cold-notice.js';
import { budgetSpendKey } from '../../shared/budgets/entities.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { startFakeChat, type FakeChat } from '../support/fake-chat.js';
import { startFakeModel, textReply, type FakeModel } from '../support/fake-model.js';

let t: TestContext;
let chat: FakeChat;
let model: FakeModel;
let bridge: ChatBridge;
let admin: Awaited<ReturnType<TestContext['signUp']>>;
let workspaceId: string;

const waitFor = <T>(check: () => T | Promise<T>) => vi.waitFor(check, { timeout: 8_000, interval: 25 });
/** The bot's finished messages in a thread, as the platform shows them (posted, or streamed and stopped). */
const answersIn = (threadTs: string) => chat.messagesIn(threadTs).filter((message) => !message.streaming);

beforeAll(async () => {
  chat = await startFakeChat();
  model = await startFakeModel();
  model.handle((request) => {
    const last = request.body.messages.at(-1)?.content as { text?: string }[];
    return textReply(`Answer to: ${last?.[0]?.text ?? ''}`);
  });
  t = await createTestContext({ env: { SLACK_API_URL: chat.apiUrl, ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k' } });
  t.deps.chat = new TeamChatNotifier(t.deps, chat.apiUrl);
  admin = await t.signUp();
  workspaceId = (await t.createWorkspace(admin.cookie, { name: 'Chat support' })).id;
  bridge = new ChatBridge(t.deps, { pollMs: 100 });
});
afterAll(async () => {
  await bridge.stop();
  await t.close();
  await Promise.all([chat.stop(), model.stop()]);
});

function connect(body: Record<string, unknown>) {
  return t.request('POST', '/api/connectors/consumer', {
    cookie: admin.cookie,
    body: { type: 'team-chat', workspace_id: workspaceId, credentials: { bot_token: chat.botToken, app_token: chat.appToken }, ...body },
  });
}

describe('POST /api/org/integrations/test', () => {
  it('answers the bot and team for a good token, ok false with the reason for a bad one', async () => {
    const good = await t.request('POST', '/api/org/integrations/test', {
      cookie: admin.cookie,
      body: { type: 'team-chat', credentials: { bot_token: chat.botToken } },
    });
    expect(good.body).toEqual({ ok: true, detail: { bot_name: 'assistant', team: 'Example Team' } });
    const bad = await t.request('POST', '/api/org/integrations/test', {
      cookie: admin.cookie,
      body: { type: 'team-chat', credentials: { bot_token: 'xoxb-wrong' } },
    });
    expect(bad.status).toBe(200);
    expect(bad.body).toEqual({ ok: false, error: 'invalid_auth' });
    const invalid = await t.request('POST', '/api/org/integrations/test', {
      cookie: admin.cookie,
      body: { type: 'email', credentials: {} },
    });
    expect(invalid.status).toBe(400);
  });
});

describe('POST /api/connectors/consumer (team-chat)', () => {
  it('refuses a bad bot token or app token with a 400 naming it, storing nothing', async () => {
    const badBot = await connect({ credentials: { bot_token: 'xoxb-wrong', app_token: chat.appToken } });
    expect(badBot.status).toBe(400);
    expect(badBot.body.details[0]).toMatchObject({ path: 'credentials.bot_token' });
    const badApp = await connect({ credentials: { bot_token: chat.botToken, app_token: 'xapp-wrong' } });
    expect(badApp.status).toBe(400);
    expect(badApp.body.details[0]).toMatchObject({ path: 'credentials.app_token', message: expect.stringContaining('invalid_auth') });
    const missing = await connect({ credentials: { bot_token: chat.botToken } });
    expect(missing.status).toBe(400);
    expect(missing.body.details[0].path).toBe('credentials.app_token');
    const settings = await t.request('GET', '/api/org/settings', { cookie: admin.cookie });
    expect(settings.body.configured).toMatchObject({ chat_bot_token: false, chat_app_token: false });
  });

  it('stores the tokens masked, creates the consumer and binds the first channel with its name', async () => {
    const connected = await connect({ channel_id: 'C1' });
    expect(connected.status).toBe(201);
    expect(connected.body).toMatchObject({ status: 'connected', message: expect.stringContaining('#support') });
    const settings = await t.request('GET', '/api/org/settings', { cookie: admin.cookie });
    expect(settings.body.configured).toMatchObject({ chat_bot_token: true, chat_app_token: true });
    expect(settings.text).not.toContain(chat.botToken);
    expect(settings.text).not.toContain(chat.appToken);
    const consumers = await t.request('GET', `/api/workspaces/${workspaceId}/consumers`, { cookie: admin.cookie });
    expect(consumers.body.consumers).toEqual([
      {
        id: `tc-${workspaceId}`,
        type: 'team-chat',
        status: 'active',
        channels: [{ channel_id: 'C1', channel_name: 'support' }],
        created_at: t.clock.now().toISOString(),
        name: null,
        last_used_at: null,
      },
    ]);
    // Connecting again is the same consumer.
    expect((await connect({})).status).toBe(201);
    const again = await t.request('GET', `/api/workspaces/${workspaceId}/consumers`, { cookie: admin.cookie });
    expect(again.body.consumers).toHaveLength(1);
  });
});

describe('channel bindings', () => {
  it('binds a channel once: 409 naming the holder for another workspace, a no-op for the same one, one winner in a race', async () => {
    const other = await t.createWorkspace(admin.cookie, { name: 'Other desk' });
    await connect({ workspace_id: other.id });
    const bind = (workspace: string, channel: string) =>
      t.request('POST', '/api/connectors/consumer/channel', {
        cookie: admin.cookie,
        body: { type: 'team-chat', workspace_id: workspace, channel_id: channel, channel_name: 'billing' },
      });
    expect((await bind(workspaceId, 'C3')).body).toMatchObject({ status: 'saved' });
    expect((await bind(workspaceId, 'C3')).status).toBe(200);
    const taken = await bind(other.id, 'C3');
    expect(taken.status).toBe(409);
    expect(taken.body.error).toContain('"Chat support"');
    expect(taken.body.error).toContain(workspaceId);

    const results = await Promise.all(Array.from({ length: 20 }, (_, index) => bind(index % 2 ? workspaceId : other.id, 'C9RACE')));
    const winners = results.filter((result) => result.status === 200);
    expect(new Set(winners.map((result) => result.body.message)).size).toBe(1);
    expect(results.filter((result) => result.status === 409).length + winners.length).toBe(20);

    const unbound = await t.request('DELETE', '/api/connectors/consumer/channel/C9RACE', { cookie: admin.cookie });
    expect(unbound.body).toEqual({ status: 'ok' });
    expect((await t.request('DELETE', '/api/connectors/consumer/channel/C9RACE', { cookie: admin.cookie })).status).toBe(404);
    expect((await bind(other.id, 'C9RACE')).status).toBe(200);
  });

  it('creates the team-chat consumer of a workspace that has none when the organisation’s bot is connected, with no second post of the tokens', async () => {
    const bare = await t.createWorkspace(admin.cookie, { name: 'No chat yet' });
    const bind = (channel: string) =>
      t.request('POST', '/api/connectors/consumer/channel', {
        cookie: admin.cookie,
        body: { type: 'team-chat', workspace_id: bare.id, channel_id: channel, channel_name: 'desk' },
      });
    // A channel another workspace holds: 409, and no consumer is made.
    const taken = await bind('C3');
    expect(taken.status).toBe(409);
    const before = await t.request('GET', `/api/workspaces/${bare.id}/consumers`, { cookie: admin.cookie });
    expect(before.body.consumers).toEqual([]);

    const bound = await bind('C555');
    expect(bound.status).toBe(200);
    expect(bound.body).toMatchObject({ status: 'saved', message: expect.stringContaining('#desk') });
    const after = await t.request('GET', `/api/workspaces/${bare.id}/consumers`, { cookie: admin.cookie });
    expect(after.body.consumers).toEqual([
      {
        id: `tc-${bare.id}`,
        type: 'team-chat',
        status: 'active',
        channels: [{ channel_id: 'C555', channel_name: 'desk' }],
        created_at: t.clock.now().toISOString(),
        name: null,
        last_used_at: null,
      },
    ]);
  });

  it('refuses to bind a channel in an organisation whose bot is not connected, saying to connect it first', async () => {
    const stranger = await t.signUp();
    const bare = await t.createWorkspace(stranger.cookie, { name: 'No bot' });
    const response = await t.request('POST', '/api/connectors/consumer/channel', {
      cookie: stranger.cookie,
      body: { type: 'team-chat', workspace_id: bare.id, channel_id: 'C777' },
    });
    expect(response.status).toBe(400);
    expect(response.body.details[0]).toMatchObject({
      path: 'workspace_id',
      message: expect.stringContaining('connect the team-chat bot first'),
    });
    const consumers = await t.request('GET', `/api/workspaces/${bare.id}/consumers`, { cookie: stranger.cookie });
    expect(consumers.body.consumers).toEqual([]);
  });
});

describe('the bridge', () => {
  beforeAll(async () => {
    await bridge.start();
    await waitFor(() => expect(chat.openSockets).toBe(1));
  });
  beforeEach(() => {
    chat.calls.length = 0;
    chat.clearMessages();
  });

  it('answers a first mention in its thread, with a reaction while it works, and records the conversation', async () => {
    const envelope = chat.sendEvent({
      type: 'app_mention',
      channel: 'C1',
      user: 'U1',
      text: '<@UBOT> where is order 42?',
      ts: '1000.0001',
    });
    await waitFor(() => expect(answersIn('1000.0001')).toHaveLength(1));
    expect(chat.acks).toContain(envelope);
    expect(answersIn('1000.0001')[0]).toMatchObject({ channel: 'C1', text: 'Answer to: where is order 42?' });
    expect(chat.callsOf('reactions.add')[0]?.params).toMatchObject({ channel: 'C1', timestamp: '1000.0001', name: 'eyes' });
    await waitFor(() => expect(chat.callsOf('reactions.remove')).toHaveLength(1));
    const conversation = await t.request('GET', `/api/workspaces/${workspaceId}/conversations/C1-1000.0001`, { cookie: admin.cookie });
    expect(conversation.body.conversation).toMatchObject({
      consumer_type: 'team-chat',
      user_name: 'Ada Lovelace',
      channel: 'support',
      message_count: 2,
    });
  });

  it('continues a thread without a mention, ignores chatter outside it, and handles the same message sent as mention and message once', async () => {
    chat.sendEvent({ type: 'message', channel: 'C1', user: 'U2', text: 'and order 43?', ts: '1000.0002', thread_ts: '1000.0001' });
    await waitFor(() => expect(answersIn('1000.0001')).toHaveLength(1));
    expect(answersIn('1000.0001')[0]?.text).toBe('Answer to: and order 43?');

    chat.sendEvent({ type: 'message', channel: 'C1', user: 'U1', text: 'lunch anyone?', ts: '1000.0100' });
    // The same message as both events: one answer.
    chat.sendEvent({
      type: 'app_mention',
      channel: 'C1',
      user: 'U1',
      text: '<@UBOT> thanks, one more',
      ts: '1000.0003',
      thread_ts: '1000.0001',
    });
    chat.sendEvent({
      type: 'message',
      channel: 'C1',
      user: 'U1',
      text: '<@UBOT> thanks, one more',
      ts: '1000.0003',
      thread_ts: '1000.0001',
    });
    await waitFor(() => expect(answersIn('1000.0001')).toHaveLength(2));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(answersIn('1000.0001')).toHaveLength(2);
    expect(answersIn('1000.0100')).toHaveLength(0);
    const conversation = await t.request('GET', `/api/workspaces/${workspaceId}/conversations/C1-1000.0001`, { cookie: admin.cookie });
    expect(conversation.body.conversation.message_count).toBe(6);
  });

  it('answers in the thread that a budget is spent, and asks the model nothing', async () => {
    const budget = await t.request('POST', '/api/org/budgets', {
      cookie: admin.cookie,
      body: { scope: 'workspace', scope_id: workspaceId, period: 'day', limit_usd: 0.01 },
    });
    expect(budget.status, budget.text).toBe(201);
    const today = t.clock.now().toISOString().slice(0, 10);
    await t.deps.table.put({ ...budgetSpendKey(budget.body.budget.id, today), room: 0, spent: 0.01, reserved: 0 });
    const asked = model.requests.length;
    try {
      chat.sendEvent({ type: 'app_mention', channel: 'C1', user: 'U1', text: '<@UBOT> one more?', ts: '1400.0001' });
      await waitFor(() => expect(answersIn('1400.0001')).toHaveLength(1));
      expect(answersIn('1400.0001')[0]?.text).toMatch(
        /^budget exceeded: workspace "Chat support" spent \$0\.01 of \$0\.01 this day; resets /,
      );
      expect(model.requests.length).toBe(asked);
    } finally {
      await t.request('DELETE', `/api/org/budgets/${budget.body.budget.id}`, { cookie: admin.cookie });
    }
  });

  it('answers a redelivered event once', async () => {
    const event = { type: 'app_mention', channel: 'C1', user: 'U1', text: '<@UBOT> hello once', ts: '2000.0001' };
    chat.sendEvent(event, 'EvSAME');
    chat.sendEvent({ ...event, ts: '2000.0001' }, 'EvSAME');
    await waitFor(() => expect(answersIn('2000.0001')).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(answersIn('2000.0001')).toHaveLength(1);
  });

  it('tells an unbound channel it is not connected, and ignores the bot’s own messages', async () => {
    chat.sendEvent({ type: 'app_mention', channel: 'C2', user: 'U1', text: '<@UBOT> anyone there?', ts: '3000.0001' });
    await waitFor(() => expect(answersIn('3000.0001')).toHaveLength(1));
    expect(answersIn('3000.0001')[0]?.text).toBe(UNBOUND_REPLY);

    chat.sendEvent({ type: 'message', channel: 'C1', user: 'UBOT', text: '<@UBOT> talking to myself', ts: '3000.0002' });
    chat.sendEvent({ type: 'message', subtype: 'bot_message', channel: 'C1', bot_id: 'BBOT', text: 'bot says', ts: '3000.0003' });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(answersIn('3000.0002')).toHaveLength(0);
    expect(answersIn('3000.0003')).toHaveLength(0);
    expect(model.requests.some((request) => JSON.stringify(request.body.messages).includes('talking to myself'))).toBe(false);
  });

  it('retries a rate-limited write after Retry-After', async () => {
    chat.override('chat.startStream', { status: 429, headers: { 'retry-after': '1' }, body: { ok: false, error: 'ratelimited' } });
    chat.sendEvent({ type: 'app_mention', channel: 'C1', user: 'U1', text: '<@UBOT> busy day?', ts: '4000.0001' });
    await waitFor(() => expect(answersIn('4000.0001')).toHaveLength(1));
    const starts = chat.callsOf('chat.startStream').filter((call) => call.params.thread_ts === '4000.0001');
    expect(starts).toHaveLength(2);
    expect(starts[0]?.params.markdown_text).toBe(starts[1]?.params.markdown_text);
    expect(answersIn('4000.0001')[0]?.text).toBe('Answer to: busy day?');
  });

  it('reconnects after the socket drops, losing no event and answering none twice', async () => {
    const opened = chat.connectionsOpened;
    chat.dropSockets();
    await waitFor(() => {
      expect(chat.connectionsOpened).toBeGreaterThan(opened);
      expect(chat.openSockets).toBe(1);
    });
    chat.sendEvent({ type: 'app_mention', channel: 'C1', user: 'U1', text: '<@UBOT> still there?', ts: '5000.0001' });
    await waitFor(() => expect(answersIn('5000.0001')).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(answersIn('5000.0001')).toHaveLength(1);
  });

  it('posts the cold notice in the thread when the conversation goes cold', async () => {
    const conversationId = 'C1-1000.0001';
    t.clock.advance(31 * 60_000);
    await t.scheduler.fireDue(t.clock.now());
    await t.runner.idle();
    // Every chat conversation of the tests went quiet: one notice in each thread, none twice.
    const notices = () => chat.callsOf('chat.postMessage').filter((call) => call.params.text === COLD_NOTICE);
    await waitFor(() =>
      expect(
        notices()
          .map((call) => call.params.thread_ts)
          .sort(),
      ).toEqual(['1000.0001', '2000.0001', '4000.0001', '5000.0001']),
    );
    expect(notices().every((call) => call.params.channel === 'C1' && call.token === chat.botToken)).toBe(true);
    const conversation = await t.request('GET', `/api/workspaces/${workspaceId}/conversations/${conversationId}`, { cookie: admin.cookie });
    expect(conversation.body.conversation.status).toBe('cold');
  });

  it('disconnects when the tokens are removed', async () => {
    const removed = await t.request('DELETE', '/api/org/settings/chat_app_token', { cookie: admin.cookie });
    expect(removed.status).toBe(200);
    await waitFor(() => {
      expect(chat.openSockets).toBe(0);
      expect(bridge.connectedOrganisations).toEqual([]);
    });
  });
});

describe('splitForPosting', () => {
  it('keeps short answers whole and splits long ones at boundaries, under the limit', () => {
    expect(splitForPosting('short')).toEqual(['short']);
    const long = Array.from({ length: 300 }, (_, index) => `Paragraph ${index} with some words in it.`).join('\n\n');
    const parts = splitForPosting(long, 1000);
    expect(parts.length).toBeGreaterThan(5);
    expect(parts.every((part) => part.length <= 1000)).toBe(true);
    expect(parts.join('\n\n')).toBe(long);
  });
});
