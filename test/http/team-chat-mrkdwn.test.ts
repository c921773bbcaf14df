import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatBridge } from '../../shared/chat-bot/bridge.js';
import { MAX_MESSAGE_CHARS } from '../../shared/chat-bot/reply.js';
import { connectTeamChat } from '../support/chat.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { startFakeChat, type FakeChat } from '../support/fake-chat.js';
import { startFakeModel, textReply, type FakeModel } from '../support/fake-model.js';

/**
 * A model's answer (or the tool output it quotes) in team chat is text, never the platform's
 * markup: mentions that notify a channel and links that hide where they go reach the platform
 * escaped, through the real Bolt and Web API clients against the fake platform.
 */

let t: TestContext;
let chat: FakeChat;
let model: FakeModel;
let bridge: ChatBridge;
let thread = 0;

const waitFor = <T>(check: () => T | Promise<T>) => vi.waitFor(check, { timeout: 10_000, interval: 25 });

/** What a hostile tool result, repeated by the model, says. */
const HOSTILE = '<!channel> see <https://evil.example|your bank> & tell <@U123> in <#C1> <!here> <!subteam^S1>';
const ESCAPED =
  '&lt;!channel&gt; see &lt;https://evil.example|your bank&gt; &amp; tell &lt;@U123&gt; in &lt;#C1&gt; &lt;!here&gt; &lt;!subteam^S1&gt;';

beforeAll(async () => {
  chat = await startFakeChat();
  model = await startFakeModel();
  t = await createTestContext({ env: { SLACK_API_URL: chat.apiUrl, ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k' } });
  const admin = await t.signUp();
  const workspaceId = (await t.createWorkspace(admin.cookie, { name: 'Markup desk' })).id;
  bridge = await connectTeamChat(t, { cookie: admin.cookie, workspaceId, chat });
});
afterAll(async () => {
  await bridge.stop();
  await t.close();
  await Promise.all([chat.stop(), model.stop()]);
});
beforeEach(() => {
  model.reset();
  chat.allow({ streaming: true, assistantStatus: true });
});

function ask(text: string): string {
  thread += 1;
  const ts = `7100.${String(thread).padStart(4, '0')}`;
  chat.sendEvent({ type: 'app_mention', channel: 'C1', user: 'U1', text: `<@UBOT> ${text}`, ts });
  return ts;
}

const finished = (ts: string) => chat.messagesIn(ts).filter((message) => !message.streaming);

/** Every text the platform was sent for the thread's messages: text, streamed Markdown, and section blocks. */
function everythingSent(ts: string): string[] {
  const messages = chat.messagesIn(ts);
  const ids = new Set(messages.map((message) => message.ts));
  const sent = ['chat.postMessage', 'chat.update', 'chat.startStream', 'chat.appendStream', 'chat.stopStream']
    .flatMap((method) => chat.callsOf(method))
    .filter((call) => ids.has(call.params.ts ?? '') || call.params.thread_ts === ts);
  return [
    ...sent.flatMap((call) => [call.params.text, call.params.markdown_text].filter((text): text is string => text !== undefined)),
    ...messages.flatMap((message) => message.versions),
    ...messages.map((message) => JSON.stringify(message.blocks)),
  ];
}

/** No mention, special mention or link of the platform's markup. */
const MARKUP = /<[!@#]|<https?:/;

describe('team chat: model and tool text is escaped for the platform’s markup', () => {
  it('streamed in small pieces (a piece boundary inside every mention): shown as written, mentioning and linking nothing', async () => {
    model.reply({ ...textReply(HOSTILE), chunkChars: 3, chunkDelayMs: 5 });
    const ts = ask('what does the ticket say?');
    await waitFor(() => expect(finished(ts)).toHaveLength(1));
    const [message] = finished(ts);
    expect(message?.text).toBe(ESCAPED);
    expect(chat.callsOf('chat.startStream').some((call) => call.params.thread_ts === ts)).toBe(true);
    for (const text of everythingSent(ts)) expect(text).not.toMatch(MARKUP);
  });

  it('written with updates where streaming is refused: the text and the section above the buttons, both escaped', async () => {
    chat.allow({ streaming: false, assistantStatus: false });
    model.reply({ ...textReply(HOSTILE), chunkChars: 5, chunkDelayMs: 5 });
    const ts = ask('and without streaming?');
    await waitFor(() => expect(finished(ts)[0]?.blocks.length).toBeGreaterThan(0));
    const [message] = finished(ts);
    expect(message?.text).toBe(ESCAPED);
    expect(JSON.stringify(message?.blocks)).toContain(JSON.stringify(ESCAPED));
    for (const text of everythingSent(ts)) expect(text).not.toMatch(MARKUP);
  });

  it('cut into messages at the length limit, never inside an entity', async () => {
    // No space to cut at: the cut falls at the limit, inside the escaped run of `<`.
    const answer = `${'x'.repeat(MAX_MESSAGE_CHARS - 2)}${'<'.repeat(40)}`;
    model.reply({ ...textReply(answer), chunkChars: 700 });
    const ts = ask('a long one');
    await waitFor(() => expect(finished(ts)).toHaveLength(2));
    const [first, second] = finished(ts);
    expect(first?.text.length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS);
    expect(first?.text).toBe(`${'x'.repeat(MAX_MESSAGE_CHARS - 2)}`);
    expect(`${first?.text}${second?.text}`).toBe(`${'x'.repeat(MAX_MESSAGE_CHARS - 2)}${'&lt;'.repeat(40)}`);
    for (const message of [first, second]) expect(message?.text).not.toMatch(/&(?!lt;|gt;|amp;)|</);
  });
});
