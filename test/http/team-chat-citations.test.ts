import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ChatBridge } from '../../shared/chat-bot/bridge.js';
import { connectTeamChat } from '../support/chat.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { startFakeChat, type FakeChat } from '../support/fake-chat.js';
import { startFakeModel, textReply, toolUseReply, type FakeModel } from '../support/fake-model.js';

/**
 * In team chat an answer that cites knowledge passages ends with a short list of its sources
 * (issue 49, item 4), through the real Bolt and Web API clients against the fake platform; a
 * document's title is text there, never the platform's markup.
 */

let t: TestContext;
let chat: FakeChat;
let model: FakeModel;
let bridge: ChatBridge;

const waitFor = <T>(check: () => T | Promise<T>) => vi.waitFor(check, { timeout: 10_000, interval: 25 });

beforeAll(async () => {
  chat = await startFakeChat();
  model = await startFakeModel();
  t = await createTestContext({ env: { SLACK_API_URL: chat.apiUrl, ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k' } });
  const admin = await t.signUp();
  const workspaceId = (await t.createWorkspace(admin.cookie, { name: 'Cited desk' })).id;
  const form = new FormData();
  form.append('file', new File(['# Refunds\n\nRefunds take five working days.'], '<!channel> policy.md', { type: 'text/markdown' }));
  const created = await t.request('POST', `/api/workspaces/${workspaceId}/knowledge/documents`, { cookie: admin.cookie, raw: form });
  expect(created.status, created.text).toBe(202);
  await t.runner.idle();
  bridge = await connectTeamChat(t, { cookie: admin.cookie, workspaceId, chat });
});
afterAll(async () => {
  await bridge.stop();
  await t.close();
  await Promise.all([chat.stop(), model.stop()]);
});

describe('team chat: citations', () => {
  it('lists the cited passages under the answer, escaped', async () => {
    chat.allow({ streaming: false, assistantStatus: false });
    model.reply(
      toolUseReply([{ name: 'search_knowledge', input: { query: 'refunds' } }]),
      textReply('Refunds take five working days [1].'),
    );
    chat.sendEvent({ type: 'app_mention', channel: 'C1', user: 'U1', text: '<@UBOT> how long do refunds take?', ts: '7300.0001' });
    await waitFor(() =>
      expect(chat.messagesIn('7300.0001').filter((message) => !message.streaming && message.text?.includes('Sources'))).toHaveLength(1),
    );
    const [answer] = chat.messagesIn('7300.0001').filter((message) => message.text?.includes('Sources'));
    expect(answer?.text).toContain('Refunds take five working days [1].');
    expect(answer?.text).toContain('Sources:\n[1] &lt;!channel&gt; policy › Refunds');
    expect(answer?.text).not.toContain('<!channel>');
  });
});
