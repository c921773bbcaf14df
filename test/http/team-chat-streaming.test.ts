import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatBridge } from '../../shared/chat-bot/bridge.js';
import { MAX_MESSAGE_CHARS } from '../../shared/chat-bot/reply.js';
import { connectTeamChat } from '../support/chat.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { startFakeChat, type FakeChat } from '../support/fake-chat.js';
import { brokenStreamReply, startFakeModel, textReply, toolUseReply, type FakeModel } from '../support/fake-model.js';
import { startHttpMcpServer, standardTools } from '../support/mcp-servers.js';

let t: TestContext;
let chat: FakeChat;
let model: FakeModel;
let docs: Awaited<ReturnType<typeof startHttpMcpServer>>;
let bridge: ChatBridge;
let admin: Awaited<ReturnType<TestContext['signUp']>>;
let workspaceId: string;
let thread = 0;

const waitFor = <T>(check: () => T | Promise<T>) => vi.waitFor(check, { timeout: 10_000, interval: 25 });

beforeAll(async () => {
  chat = await startFakeChat();
  model = await startFakeModel();
  docs = await startHttpMcpServer({ name: 'docs-server', tools: standardTools({ tag: 'docs' }) });
  t = await createTestContext({ env: { SLACK_API_URL: chat.apiUrl, ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k' } });
  admin = await t.signUp();
  workspaceId = (await t.createWorkspace(admin.cookie, { name: 'Streaming desk' })).id;
  await t.connectMcp(admin.cookie, workspaceId, { name: 'docs', url: docs.url });
  bridge = await connectTeamChat(t, { cookie: admin.cookie, workspaceId, chat });
});
afterAll(async () => {
  await bridge.stop();
  await t.close();
  await Promise.all([chat.stop(), model.stop(), docs.stop()]);
});
beforeEach(() => {
  model.reset();
  chat.allow({ streaming: true, assistantStatus: true });
});

/** Mentions the bot in a new thread of C1; returns the thread's ts. */
function ask(text: string, user = 'U1'): string {
  thread += 1;
  const ts = `7000.${String(thread).padStart(4, '0')}`;
  chat.sendEvent({ type: 'app_mention', channel: 'C1', user, text: `<@UBOT> ${text}`, ts });
  return ts;
}

/** A tool call, then an answer streamed in small, slow pieces. */
function slowAnswerWithTool(answer: string) {
  model.reply(toolUseReply([{ name: 'search_docs', input: { query: 'vpn' } }]), {
    ...textReply(answer),
    chunkChars: 6,
    chunkDelayMs: 120,
  });
}

const buttonsOf = (blocks: unknown[]) =>
  (blocks as { type: string; elements?: { action_id: string; value: string }[] }[])
    .filter((block) => block.type === 'actions')
    .flatMap((block) => block.elements ?? []);

const feedbackOf = async (conversationId: string) => {
  const conversation = await t.request('GET', `/api/workspaces/${workspaceId}/conversations/${conversationId}`, { cookie: admin.cookie });
  return conversation.body.messages.find((message: { role: string }) => message.role === 'assistant')?.feedback;
};

describe('team chat: the thread while the agent works', () => {
  it('shows a status (thinking, then the tool), streams the answer into one message, and ends it with 👍/👎 buttons', async () => {
    const answer = 'The VPN guide says: open the client, pick the corporate profile, and sign in with your badge.';
    slowAnswerWithTool(answer);
    const ts = ask('how do I use the VPN?');
    // The status is cleared by a call of its own after the stream stops: wait for both.
    await waitFor(() => {
      expect(chat.messagesIn(ts).filter((message) => !message.streaming)).toHaveLength(1);
      expect(chat.statusesIn(ts).at(-1)).toBe('');
    });

    expect(chat.statusesIn(ts)).toEqual(['is thinking…', 'is calling search_docs…', '']);
    const [message] = chat.messagesIn(ts);
    expect(message?.text).toBe(answer);
    // One message that grew: started, appended to, stopped.
    expect(chat.callsOf('chat.startStream').filter((call) => call.params.thread_ts === ts)).toHaveLength(1);
    expect(message?.versions.length).toBeGreaterThan(2);
    expect(message?.versions.every((version) => answer.startsWith(version))).toBe(true);
    expect(chat.callsOf('chat.startStream').at(-1)?.params).toMatchObject({ recipient_user_id: 'U1', recipient_team_id: 'T1' });
    expect(buttonsOf(message?.blocks ?? []).map((button) => button.action_id)).toEqual(['feedback_up', 'feedback_down']);
    expect(chat.callsOf('chat.postMessage').filter((call) => call.params.thread_ts === ts)).toHaveLength(0);
  });

  it('without the streaming and status features: a placeholder that says what happens, then the answer written into it at most once a second', async () => {
    chat.allow({ streaming: false, assistantStatus: false });
    const answer = 'Updated in place: this answer arrives in many small pieces over a few seconds, and the message follows.';
    model.reply(toolUseReply([{ name: 'search_docs', input: { query: 'x' } }]), { ...textReply(answer), chunkChars: 4, chunkDelayMs: 80 });
    const ts = ask('fallback please');
    await waitFor(() => expect(chat.messagesIn(ts)[0]?.blocks.length).toBeGreaterThan(0));

    const messages = chat.messagesIn(ts);
    expect(messages).toHaveLength(1);
    const [message] = messages;
    expect(message?.versions.slice(0, 2)).toEqual(['_is thinking…_', '_is calling search_docs…_']);
    expect(message?.text).toBe(answer);
    expect(message?.versions.slice(2, -1).every((version) => answer.startsWith(version))).toBe(true);
    // The text updates, one second apart at least (the last one, with the buttons, comes when the answer is done).
    const updates = chat.callsOf('chat.update').filter((call) => call.params.ts === message?.ts && !call.params.text?.startsWith('_'));
    expect(updates.length).toBeGreaterThanOrEqual(3);
    const textUpdates = updates.slice(0, -1);
    for (let index = 1; index < textUpdates.length; index += 1) {
      expect((textUpdates[index]?.at ?? 0) - (textUpdates[index - 1]?.at ?? 0)).toBeGreaterThanOrEqual(950);
    }
    expect(buttonsOf(message?.blocks ?? []).map((button) => button.action_id)).toEqual(['feedback_up', 'feedback_down']);
  });

  it('continues a long answer in a new message past the length limit, with the buttons on the last', async () => {
    const paragraph = 'All work and no play makes a long answer. ';
    const answer = paragraph.repeat(Math.ceil((MAX_MESSAGE_CHARS * 1.5) / paragraph.length)).trim();
    model.reply({ ...textReply(answer), chunkChars: 500 });
    const ts = ask('tell me a lot');
    await waitFor(() => expect(chat.messagesIn(ts).filter((message) => !message.streaming)).toHaveLength(2));
    const [first, second] = chat.messagesIn(ts);
    // Cut at a word boundary near the limit.
    expect(first?.text.length).toBeLessThanOrEqual(MAX_MESSAGE_CHARS);
    expect(first?.text.length).toBeGreaterThan(MAX_MESSAGE_CHARS * 0.8);
    expect(first?.text.endsWith(' ')).toBe(true);
    expect(`${first?.text}${second?.text}`).toBe(answer);
    expect(buttonsOf(first?.blocks ?? [])).toEqual([]);
    expect(buttonsOf(second?.blocks ?? [])).toHaveLength(2);
  });

  it('keeps the streamed part of an answer whose model stream broke, and says why in the same message', async () => {
    model.reply(brokenStreamReply('Half of an answer, then the stream breaks.', 16));
    const ts = ask('break please');
    await waitFor(() => expect(chat.messagesIn(ts).filter((message) => !message.streaming)).toHaveLength(1));
    expect(chat.messagesIn(ts)[0]?.text).toMatch(/^Half of an answe\n\nSorry, I could not finish: .*Overloaded/);
  });
});

describe('team chat: 👍/👎 on answers', () => {
  it('records each chat user’s rating through the real Bolt client, the last press counting, and tells only them', async () => {
    model.reply(textReply('Rated answer.'));
    const ts = ask('rate me');
    await waitFor(() => expect(chat.messagesIn(ts).filter((message) => !message.streaming)).toHaveLength(1));
    const [message] = chat.messagesIn(ts);
    const [up, down] = buttonsOf(message?.blocks ?? []);
    const conversationId = `C1-${ts}`;
    const press = (user: string, button: typeof up) =>
      chat.pressButton({
        user,
        channel: 'C1',
        messageTs: message?.ts ?? '',
        threadTs: ts,
        actionId: button?.action_id ?? '',
        value: button?.value ?? '',
      });

    const envelope = press('U1', up);
    await waitFor(async () => expect(await feedbackOf(conversationId)).toEqual({ up: 1, down: 0 }));
    expect(chat.acks).toContain(envelope);
    press('U1', down);
    await waitFor(async () => expect(await feedbackOf(conversationId)).toEqual({ up: 0, down: 1 }));
    press('U2', up);
    await waitFor(async () => expect(await feedbackOf(conversationId)).toEqual({ up: 1, down: 1 }));
    await waitFor(() => expect(chat.callsOf('chat.postEphemeral')).toHaveLength(3));
    expect(chat.callsOf('chat.postEphemeral').map((call) => [call.params.user, call.params.text])).toEqual([
      ['U1', 'Thanks: noted that this answer helped.'],
      ['U1', 'Thanks: noted that this answer did not help.'],
      ['U2', 'Thanks: noted that this answer helped.'],
    ]);
    const dashboard = await t.request('GET', `/api/workspaces/${workspaceId}/dashboard`, { cookie: admin.cookie });
    expect(dashboard.body.feedback).toMatchObject({ up: 1, down: 1 });
  });

  it('refuses a button whose answer is not of the workspace bound to the channel it was pressed in', async () => {
    const ephemerals = chat.callsOf('chat.postEphemeral').length;
    const other = await t.createWorkspace(admin.cookie, { name: 'Elsewhere' });
    const value = JSON.stringify({ w: other.id, c: 'C1-7000.0001', s: 2 });
    chat.pressButton({ user: 'U2', channel: 'C1', messageTs: '7000.9999', actionId: 'feedback_up', value });
    await waitFor(() => expect(chat.callsOf('chat.postEphemeral').length).toBe(ephemerals + 1));
    expect(chat.callsOf('chat.postEphemeral').at(-1)?.params.text).toMatch(/not recorded/);
    const dashboard = await t.request('GET', `/api/workspaces/${other.id}/dashboard`, { cookie: admin.cookie });
    expect(dashboard.body.feedback).toMatchObject({ up: 0, down: 0 });
  });
});
