import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { linkChatAccount } from '../support/chat.js';
import { type MailboxDesk, startMailboxDesk } from '../support/chat-desk.js';
import type { TestContext } from '../support/context.js';
import type { FakeChat } from '../support/fake-chat.js';
import { type FakeModel, textReply, toolUseReply } from '../support/fake-model.js';

/**
 * A per-user OAuth connection answered in team chat: a chat user asks with the grant of the user of
 * the service their chat account is linked to; unlinked, they get a link to link it first.
 */
let desk: MailboxDesk;
let t: TestContext;
let chat: FakeChat;
let model: FakeModel;
let server: MailboxDesk['server'];
let admin: MailboxDesk['admin'];
let workspaceId: string;

const waitFor = <T>(check: () => T | Promise<T>) => vi.waitFor(check, { timeout: 8_000, interval: 25 });

beforeAll(async () => {
  // The admin's own grant (as admin-user) lists the tools.
  desk = await startMailboxDesk({ workspace: 'Chat with grants' });
  ({ t, chat, model, server, admin, workspaceId } = desk);
});
afterAll(() => desk.stop());

const tokenIn = (text: string) => /\/chat\/link\/([A-Za-z0-9_-]+)/.exec(text)?.[1] ?? '';

describe('team chat with a per-user OAuth connection', () => {
  it('sends an unlinked asker a private link to link their chat account, starts no grant and runs nothing', async () => {
    model.reset();
    const clients = server.registeredClients().length;
    chat.sendEvent({ type: 'app_mention', channel: 'C9', user: 'U1', text: '<@UBOT> who am I?', ts: '2000.0001' });
    await waitFor(() => expect(chat.answersIn('2000.0001')).toHaveLength(1));
    expect(chat.answersIn('2000.0001')[0]).toMatch(/acts as each person who asks: I sent you a private link to link your chat account/);
    const ephemeral = chat.callsOf('chat.postEphemeral');
    expect(ephemeral).toHaveLength(1);
    expect(ephemeral[0]?.params).toMatchObject({ channel: 'C9', user: 'U1', thread_ts: '2000.0001' });
    const text = String(ephemeral[0]?.params.text);
    expect(tokenIn(text)).not.toBe('');
    // A link to the console, not a grant of the tool server's: no chat-only grant exists any more.
    expect(text).not.toContain('code_challenge=');
    expect(chat.answersIn('2000.0001')[0]).not.toContain(tokenIn(text));
    expect(model.requests).toEqual([]);
    expect(server.registeredClients()).toHaveLength(clients);
  });

  it('answers a linked chat user with the grant of the user they are linked to: the one that user has through the API', async () => {
    model.reset();
    // The admin granted their access at setup (as admin-user); U2 is the admin's chat account.
    const asked = chat.callsOf('chat.postEphemeral').length;
    chat.sendEvent({ type: 'app_mention', channel: 'C9', user: 'U2', text: '<@UBOT> who am I?', ts: '2100.0001' });
    await waitFor(() => expect(chat.callsOf('chat.postEphemeral').length).toBe(asked + 1));
    const token = tokenIn(String(chat.callsOf('chat.postEphemeral').at(-1)?.params.text));
    expect((await t.request('POST', `/api/chat/link-requests/${token}`, { cookie: admin.cookie })).status).toBe(201);

    model.reply(toolUseReply([{ name: 'whoami' }]), textReply('You are admin-user.'));
    // Nothing ran in that thread, so it has no conversation to continue: asked with a mention.
    chat.sendEvent({
      type: 'app_mention',
      channel: 'C9',
      user: 'U2',
      text: '<@UBOT> who am I now?',
      ts: '2100.0002',
      thread_ts: '2100.0001',
    });
    await waitFor(() => expect(chat.answersIn('2100.0001').at(-1)).toBe('You are admin-user.'));
    expect(server.toolCalls.at(-1)).toMatchObject({ tool: 'whoami', user: 'admin-user' });
    // Nothing new was asked of them.
    expect(chat.callsOf('chat.postEphemeral')).toHaveLength(asked + 1);
  });

  it('sends a linked user without a grant its link privately; only their own session finishes it, and then they are answered as themselves', async () => {
    const member = await t.addMember(admin.cookie);
    chat.users.U4 = 'Max (chat)';
    await linkChatAccount(t, { cookie: member.cookie, orgId: admin.org.id, user: 'U4', name: 'Max (chat)' });
    const grantLink = async (ts: string) => {
      const before = chat.callsOf('chat.postEphemeral').length;
      chat.sendEvent({ type: 'app_mention', channel: 'C9', user: 'U4', text: '<@UBOT> who am I?', ts });
      await waitFor(() => expect(chat.callsOf('chat.postEphemeral').length).toBe(before + 1));
      const call = chat.callsOf('chat.postEphemeral').at(-1);
      expect(call?.params).toMatchObject({ user: 'U4', thread_ts: ts });
      const link = /https?:\/\/\S+/.exec(String(call?.params.text))?.[0] ?? '';
      expect(link).toContain('code_challenge=');
      return link;
    };
    model.reset();
    // Holding the link is not enough (it was sent to a chat account; the grant is the user's).
    const first = new URL(await server.login(await grantLink('2200.0001'), 'member-user'));
    const refused = await t.request('GET', `${first.pathname}${first.search}`);
    expect(refused.status).toBe(403);
    const stranger = await t.signUp({ org_name: 'Not theirs' });
    const second = new URL(await server.login(await grantLink('2200.0002'), 'member-user'));
    expect((await t.request('GET', `${second.pathname}${second.search}`, { cookie: stranger.cookie })).status).toBe(403);
    const third = new URL(await server.login(await grantLink('2200.0003'), 'member-user'));
    const granted = await t.request('GET', `${third.pathname}${third.search}`, { cookie: member.cookie });
    expect(granted.status, granted.text).toBe(200);
    expect(model.requests).toEqual([]);

    model.reply(toolUseReply([{ name: 'whoami' }]), textReply('You are member-user.'));
    chat.sendEvent({ type: 'message', channel: 'C9', user: 'U4', text: 'and now?', ts: '2200.0004', thread_ts: '2200.0003' });
    await waitFor(() => expect(chat.answersIn('2200.0003').at(-1)).toBe('You are member-user.'));
    expect(server.toolCalls.at(-1)).toMatchObject({ tool: 'whoami', user: 'member-user' });
    // The same grant through the API.
    model.reply(toolUseReply([{ name: 'whoami' }]), textReply('Through the API.'));
    const direct = await t.request('POST', `/api/workspaces/${workspaceId}/query`, { cookie: member.cookie, body: { query: 'who am I?' } });
    expect(direct.status, direct.text).toBe(200);
    expect(server.toolCalls.at(-1)).toMatchObject({ tool: 'whoami', user: 'member-user' });
  });

  it('tells a guest why not, and sends no link', async () => {
    chat.users.U8 = 'Gus Guest';
    chat.userFlags.U8 = { is_ultra_restricted: true };
    const before = chat.callsOf('chat.postEphemeral').length;
    model.reset();
    chat.sendEvent({ type: 'app_mention', channel: 'C9', user: 'U8', text: '<@UBOT> who am I?', ts: '2300.0001' });
    await waitFor(() => expect(chat.answersIn('2300.0001')).toHaveLength(1));
    expect(chat.answersIn('2300.0001')[0]).toMatch(/acts as each person who asks, so I cannot answer you: guests of the chat team never/);
    expect(chat.callsOf('chat.postEphemeral')).toHaveLength(before);
    expect(model.requests).toEqual([]);
  });
});
