import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ChatBridge } from '../../shared/chat-bot/bridge.js';
import { TeamChatNotifier } from '../../shared/chat-bot/notifier.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { startFakeChat } from '../support/fake-chat.js';
import { type FakeModel, type ModelRequestRecord, startFakeModel, textReply, toolUseReply } from '../support/fake-model.js';
import { standardTools, startHttpMcpServer } from '../support/mcp-servers.js';
import { wallClock } from '../support/clock.js';

/*
 * Issue 28, hole 2: nothing bounded the work in flight. A fresh sign-up pointed a connection at a
 * tool that never answers and opened 280 queries: all were taken, and held by the service for
 * minutes. Now an organisation runs at most MAX_QUERIES_IN_FLIGHT_PER_ORG queries at once and the
 * process MAX_QUERIES_IN_FLIGHT (429 with Retry-After before anything starts, streamed or not), and
 * one query waits on its tools at most tool_budget_seconds in all.
 */

type Server = Awaited<ReturnType<typeof startHttpMcpServer>>;

let t: TestContext;
let model: FakeModel;
let slow: Server;
beforeAll(async () => {
  model = await startFakeModel();
  // slow_tool answers after 60 s: longer than any test waits.
  slow = await startHttpMcpServer({ tools: standardTools({ hangMs: 60_000 }) });
  t = await createTestContext({
    env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k', MAX_QUERIES_IN_FLIGHT_PER_ORG: '3', MAX_QUERIES_IN_FLIGHT: '5' },
  });
  // Every query calls slow_tool once, then answers.
  model.handle((request: ModelRequestRecord) => {
    const last = request.body.messages.at(-1)?.content;
    const answered = Array.isArray(last) && last.some((block: { type?: string }) => block.type === 'tool_result');
    return answered ? textReply('done') : toolUseReply([{ name: 'slow_tool' }]);
  });
});
afterAll(async () => {
  await t.close();
  await slow.stop();
  await model.stop();
});

/** An organisation with a workspace whose one tool hangs, each call given `timeoutSeconds`. */
async function slowOrganisation(timeoutSeconds: number) {
  const admin = await t.signUp();
  const workspace = await t.createWorkspace(admin.cookie, { name: 'Slow tools' });
  await t.connectMcp(admin.cookie, workspace.id, { name: 'Slow', transport: 'http', url: slow.url });
  const set = await t.request('PUT', `/api/workspaces/${workspace.id}`, {
    cookie: admin.cookie,
    body: { tool_timeout_seconds: timeoutSeconds },
  });
  expect(set.status, set.text).toBe(200);
  return { admin, workspace, orgId: admin.org.id as string };
}

const ask = (cookie: string, workspaceId: string, headers: Record<string, string> = {}) =>
  t.request('POST', `/api/workspaces/${workspaceId}/query`, { cookie, body: { query: 'take your time' }, headers });

async function until(condition: () => boolean) {
  for (let tries = 0; tries < 200 && !condition(); tries += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition()).toBe(true);
}

describe('queries in flight', () => {
  it("refuses an organisation's query past its limit with 429 and Retry-After before anything starts, streamed or not", async () => {
    const { admin, workspace, orgId } = await slowOrganisation(3);
    const held = [1, 2, 3].map(() => ask(admin.cookie, workspace.id));
    await until(() => t.deps.inFlight.running(orgId) === 3);
    const conversationsBefore = await t.request('GET', `/api/workspaces/${workspace.id}/conversations`, { cookie: admin.cookie });

    const refused = await ask(admin.cookie, workspace.id);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(refused.body.error).toMatch(/this organisation may run 3 at a time/);
    const streamed = await ask(admin.cookie, workspace.id, { accept: 'text/event-stream' });
    expect(streamed.status).toBe(429);
    expect(streamed.headers.get('content-type')).toMatch(/application\/json/);
    // Nothing of the refused queries was stored.
    const conversationsAfter = await t.request('GET', `/api/workspaces/${workspace.id}/conversations`, { cookie: admin.cookie });
    expect(conversationsAfter.body.total).toBe(conversationsBefore.body.total);

    // Another organisation is not held up by this one.
    const other = await t.signUp();
    const otherWorkspace = await t.createWorkspace(other.cookie, { name: 'Quick' });
    model.reply(textReply('quick answer'));
    const quick = await t.request('POST', `/api/workspaces/${otherWorkspace.id}/query`, { cookie: other.cookie, body: { query: 'hi' } });
    expect(quick.status, quick.text).toBe(200);

    // The held queries end (their tool timed out), are stored, and give their places back.
    for (const response of await Promise.all(held)) expect(response.body.error).toBeNull();
    expect(t.deps.inFlight.running(orgId)).toBe(0);
    model.reply(textReply('room again'));
    expect((await ask(admin.cookie, workspace.id)).status).toBe(200);
  }, 20_000);

  it('refuses any query past the process limit, whichever organisation asks', async () => {
    const first = await slowOrganisation(3);
    const second = await slowOrganisation(3);
    const held = [
      ...[1, 2, 3].map(() => ask(first.admin.cookie, first.workspace.id)),
      ...[1, 2].map(() => ask(second.admin.cookie, second.workspace.id)),
    ];
    await until(() => t.deps.inFlight.running() === 5);
    const third = await t.signUp();
    const workspace = await t.createWorkspace(third.cookie, { name: 'Third' });
    const refused = await t.request('POST', `/api/workspaces/${workspace.id}/query`, { cookie: third.cookie, body: { query: 'hi' } });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatch(/as many queries as it can/);
    await Promise.all(held);
    expect(t.deps.inFlight.running()).toBe(0);
  }, 20_000);

  it('ends a query whose tools used up tool_budget_seconds, with an error saying so', async () => {
    const { admin, workspace } = await slowOrganisation(30);
    const set = await t.request('PUT', `/api/workspaces/${workspace.id}`, { cookie: admin.cookie, body: { tool_budget_seconds: 1 } });
    expect(set.status, set.text).toBe(200);
    expect(set.body.workspace.tool_budget_seconds).toBe(1);
    model.reply(toolUseReply([{ name: 'slow_tool' }]), toolUseReply([{ name: 'slow_tool' }]));
    const started = wallClock.ms();
    const answered = await ask(admin.cookie, workspace.id);
    expect(answered.status, answered.text).toBe(200);
    // The first call waited the budget (not its 30 s timeout); the second round was not run.
    expect(wallClock.ms() - started).toBeLessThan(10_000);
    expect(answered.body.error).toMatch(/tool budget reached: the query waited on its tools for 1 seconds/);
    expect(answered.body.tools_called).toEqual(['slow_tool']);
  }, 20_000);

  it('takes a budget of 1–900 seconds, 120 by default', async () => {
    const admin = await t.signUp();
    const workspace = await t.createWorkspace(admin.cookie, { name: 'Budget' });
    const shown = await t.request('GET', `/api/workspaces/${workspace.id}`, { cookie: admin.cookie });
    expect(shown.body.workspace?.tool_budget_seconds ?? shown.body.tool_budget_seconds).toBe(120);
    for (const bad of [0, 901, 'soon']) {
      const refused = await t.request('PUT', `/api/workspaces/${workspace.id}`, {
        cookie: admin.cookie,
        body: { tool_budget_seconds: bad },
      });
      expect(refused.status).toBe(400);
      expect(refused.body.details[0].path).toBe('tool_budget_seconds');
    }
  });

  it('answers in the thread that it is busy when the organisation has no place left, and runs nothing', async () => {
    const chat = await startFakeChat();
    const bridge = new ChatBridge(t.deps, { pollMs: 100 });
    const held: (() => void)[] = [];
    try {
      t.deps.chat = new TeamChatNotifier(t.deps, chat.apiUrl);
      t.deps.config.slackApiUrl = chat.apiUrl;
      const admin = await t.signUp();
      const workspace = await t.createWorkspace(admin.cookie, { name: 'Chat' });
      const connected = await t.request('POST', '/api/connectors/consumer', {
        cookie: admin.cookie,
        body: {
          type: 'team-chat',
          workspace_id: workspace.id,
          credentials: { bot_token: chat.botToken, app_token: chat.appToken },
          channel_id: 'C1',
        },
      });
      expect(connected.status, connected.text).toBe(201);
      await bridge.start();
      await vi.waitFor(() => expect(chat.openSockets).toBe(1), { timeout: 8_000 });
      // The organisation's three places are taken (by queries of any entry point).
      for (let place = 0; place < 3; place += 1) held.push(t.deps.inFlight.admit(admin.org.id));
      const requestsBefore = model.requests.length;
      chat.sendEvent({ type: 'app_mention', channel: 'C1', user: 'U1', text: '<@UBOT> anyone?', ts: '7000.0001' });
      await vi.waitFor(() => expect(chat.messagesIn('7000.0001').filter((message) => !message.streaming)).toHaveLength(1), {
        timeout: 8_000,
      });
      expect(chat.messagesIn('7000.0001')[0]?.text).toMatch(/too many questions right now; ask again in 5 seconds/);
      expect(model.requests.length).toBe(requestsBefore);
    } finally {
      for (const release of held) release();
      await bridge.stop();
      await chat.stop();
    }
  }, 20_000);
});
