import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ApprovalDesk, isApproval, startApprovalDesk } from '../support/chat-desk.js';
import type { TestContext } from '../support/context.js';
import type { FakeChat } from '../support/fake-chat.js';
import { textReply, toolUseReply, type FakeModel } from '../support/fake-model.js';

/**
 * Who a chat user is, when they press Approve: attacks on the decision of an approval through the
 * real Bolt client against the fake platform. A chat profile's e-mail says nothing: only a chat
 * account linked (by a one-time link its owner confirmed, signed in) acts as a user of the service,
 * and people of another chat team or guests never decide.
 */

let desk: ApprovalDesk;
let t: TestContext;
let chat: FakeChat;
let model: FakeModel;
let admin: ApprovalDesk['admin'];
/** The arguments of every call that reached the write tool. */
let created: ApprovalDesk['created'];
let thread = 0;

const waitFor = <T>(check: () => T | Promise<T>) => vi.waitFor(check, { timeout: 10_000, interval: 25 });

beforeAll(async () => {
  desk = await startApprovalDesk({ workspace: 'Identity desk' });
  ({ t, chat, model, admin, created } = desk);
  // Every chat user below shows the admin's e-mail address in their chat profile.
  // U3: the admin's own chat account (same team, a full member). U7: a Slack Connect user of another
  // team. U8: a guest of the organisation's own team. U1 asks.
  Object.assign(chat.users, { U3: 'Ada Admin (chat)', U7: 'Mallory Outsider', U8: 'Gus Guest' });
  for (const user of ['U3', 'U7', 'U8']) chat.emails[user] = admin.email;
  chat.teams.U7 = 'T2';
  chat.userFlags.U8 = { is_restricted: true };
});
afterAll(() => desk.stop());
beforeEach(() => {
  model.reset();
  created.length = 0;
});

/** Asks in a new thread; the model wants to open a ticket, then says what came back. */
function askForTicket(title: string): string {
  model.reply(toolUseReply([{ name: 'create_ticket', input: { title } }]));
  model.handle((request) => {
    const results = (request.body.messages.at(-1)?.content as { content?: string; is_error?: boolean }[]) ?? [];
    return textReply(`Done: ${results.map((block) => `${block.is_error ? 'ERROR ' : ''}${block.content}`).join(' | ')}`);
  });
  thread += 1;
  const ts = `8100.${String(thread).padStart(4, '0')}`;
  chat.sendEvent({ type: 'app_mention', channel: 'C1', user: 'U1', text: `<@UBOT> open a ticket: ${title}`, ts });
  return ts;
}

/** The private notice a press got (waits for a new one). */
async function noticeFor(user: string, before: number): Promise<string> {
  await waitFor(() => expect(chat.ephemeralsFor(user).length).toBeGreaterThan(before));
  return chat.ephemeralsFor(user).at(-1) ?? '';
}

/** The one-time token of the console link in a notice. */
const tokenIn = (text: string) => /\/chat\/link\/([A-Za-z0-9_-]+)/.exec(text)?.[1] ?? '';

describe('an Approve press in team chat', () => {
  it("is refused to a user of another chat team whose profile shows an admin's e-mail, and the tool does not run", async () => {
    const ts = askForTicket('from another team');
    const approval = await desk.approvalIn(ts);
    const before = chat.ephemeralsFor('U7').length;
    desk.pressApprove('U7', approval, ts);
    // Whichever comes first: a notice, or the tool running (as it did when the e-mail decided).
    await waitFor(() => expect(chat.ephemeralsFor('U7').length + created.length).toBeGreaterThan(before));
    expect(created).toEqual([]);
    expect(chat.ephemeralsFor('U7').at(-1)).toMatch(/^You may not decide this: people of another chat team never decide/);
    // Give a wrongly accepted press the time to run the tool.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(created).toEqual([]);
    expect(await desk.statusOf(approval.id)).toBe('pending');
    // No link is offered to them either: they can never act as a user of the organisation.
    expect(tokenIn(chat.ephemeralsFor('U7').join('\n'))).toBe('');
  });

  it("is refused to a guest of the organisation's own chat team with an admin's e-mail", async () => {
    const ts = askForTicket('from a guest');
    const approval = await desk.approvalIn(ts);
    const before = chat.ephemeralsFor('U8').length;
    desk.pressApprove('U8', approval, ts);
    await waitFor(() => expect(chat.ephemeralsFor('U8').length + created.length).toBeGreaterThan(before));
    expect(created).toEqual([]);
    expect(chat.ephemeralsFor('U8').at(-1)).toMatch(/^You may not decide this: guests of the chat team never decide/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(created).toEqual([]);
    expect(await desk.statusOf(approval.id)).toBe('pending');
  });

  it("is refused to an unlinked member of the team (even with an admin's e-mail), who gets a one-time link; linked, the admin decides", async () => {
    const ts = askForTicket('after linking');
    const approval = await desk.approvalIn(ts);
    let before = chat.ephemeralsFor('U3').length;
    desk.pressApprove('U3', approval, ts);
    await waitFor(() => expect(chat.ephemeralsFor('U3').length + created.length).toBeGreaterThan(before));
    expect(created).toEqual([]);
    const notice = chat.ephemeralsFor('U3').at(-1) ?? '';
    expect(notice).toMatch(/^You may not decide this yet: your chat account is not linked to a user of the service/);
    const token = tokenIn(notice);
    expect(token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    // Only U3 was shown it, privately; nothing in the thread.
    expect(chat.messagesIn(ts).some((message) => message.text.includes(token))).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(created).toEqual([]);

    // The admin opens it signed in: it says what is linked, without using it up; then confirms.
    const shown = await t.request('GET', `/api/chat/link-requests/${token}`, { cookie: admin.cookie });
    expect(shown.status, shown.text).toBe(200);
    expect(shown.body.link_request).toMatchObject({
      chat_user_id: 'U3',
      chat_user_name: 'Ada Admin (chat)',
      chat_team_id: 'T1',
      chat_team_name: 'Example Team',
      org_id: admin.org.id,
      org_name: admin.org.name,
    });
    const confirmed = await t.request('POST', `/api/chat/link-requests/${token}`, { cookie: admin.cookie });
    expect(confirmed.status, confirmed.text).toBe(201);
    expect(confirmed.body.link).toMatchObject({ id: 'T1-U3', chat_user_id: 'U3', user_id: admin.user.id, user_name: 'Ada Admin' });

    before = chat.ephemeralsFor('U3').length;
    desk.pressApprove('U3', approval, ts);
    await waitFor(() => expect(created).toEqual([{ title: 'after linking' }]));
    expect(await desk.statusOf(approval.id)).toBe('approved');
    // Decided as the linked user of the service.
    await waitFor(() => expect(JSON.stringify(chat.messagesIn(ts).find(isApproval)?.blocks)).toContain('*Approved* by Ada Admin'));
    expect(chat.ephemeralsFor('U3')).toHaveLength(before);
  });

  it('is refused to a linked member who is not an admin, and again to the admin once they unlink', async () => {
    const member = await t.addMember(admin.cookie);
    chat.users.U4 = 'Max (chat)';
    const ts = askForTicket('member press');
    const approval = await desk.approvalIn(ts);
    let before = chat.ephemeralsFor('U4').length;
    desk.pressApprove('U4', approval, ts);
    const token = tokenIn(await noticeFor('U4', before));
    expect((await t.request('POST', `/api/chat/link-requests/${token}`, { cookie: member.cookie })).status).toBe(201);
    before = chat.ephemeralsFor('U4').length;
    desk.pressApprove('U4', approval, ts);
    expect(await noticeFor('U4', before)).toBe('You may not decide this: only an admin of the organisation may.');
    expect(created).toEqual([]);

    // Unlinked, the admin's chat account is a stranger to the service again.
    expect((await t.request('DELETE', '/api/chat/links/T1-U3', { cookie: admin.cookie })).status).toBe(200);
    before = chat.ephemeralsFor('U3').length;
    desk.pressApprove('U3', approval, ts);
    expect(await noticeFor('U3', before)).toMatch(/^You may not decide this yet: your chat account is not linked/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(created).toEqual([]);
    expect(await desk.statusOf(approval.id)).toBe('pending');
  });
});

describe('link requests', () => {
  /** A fresh link request of U5, sent by the bot on a press. */
  async function linkRequestOf(user: string): Promise<string> {
    chat.users[user] ??= `Chat ${user}`;
    const ts = askForTicket(`link for ${user}`);
    const approval = await desk.approvalIn(ts);
    const before = chat.ephemeralsFor(user).length;
    desk.pressApprove(user, approval, ts);
    return tokenIn(await noticeFor(user, before));
  }

  it("are not seen or used by another organisation's user, are used once, and then say so", async () => {
    const token = await linkRequestOf('U5');
    const stranger = await t.signUp({ org_name: 'Elsewhere' });
    for (const method of ['GET', 'POST']) {
      const response = await t.request(method, `/api/chat/link-requests/${token}`, { cookie: stranger.cookie });
      expect(response.status, `${method} ${response.text}`).toBe(404);
      expect(response.text).not.toContain('U5');
    }
    expect((await t.request('GET', `/api/chat/link-requests/${token}`)).status).toBe(401);

    const member = await t.addMember(admin.cookie);
    const first = await t.request('POST', `/api/chat/link-requests/${token}`, { cookie: member.cookie });
    expect(first.status, first.text).toBe(201);
    for (const cookie of [member.cookie, admin.cookie]) {
      const again = await t.request('POST', `/api/chat/link-requests/${token}`, { cookie });
      expect(again.status).toBe(410);
      expect(again.body.error).toMatch(/already used/);
    }
    // Still linked to the member who confirmed first.
    const mine = await t.request('GET', '/api/chat/links', { cookie: member.cookie });
    expect(mine.body.links.map((link: { id: string }) => link.id)).toEqual(['T1-U5']);
  });

  it('expire after 30 minutes', async () => {
    const token = await linkRequestOf('U6');
    t.clock.advance(31 * 60_000);
    for (const method of ['GET', 'POST']) {
      const response = await t.request(method, `/api/chat/link-requests/${token}`, { cookie: admin.cookie });
      expect(response.status).toBe(404);
      expect(response.body.error).toMatch(/expired/);
    }
    const links = await t.request('GET', '/api/chat/links?scope=org', { cookie: admin.cookie });
    expect(links.body.links.map((link: { id: string }) => link.id)).not.toContain('T1-U6');
  });

  it('are refused with 404, not 400, for a token that was never issued', async () => {
    const response = await t.request('GET', `/api/chat/link-requests/${'x'.repeat(43)}`, { cookie: admin.cookie });
    expect(response.status).toBe(404);
    expect(response.body.error).toBeTypeOf('string');
  });
});

describe('chat links', () => {
  it('are listed to their user; only they or an admin of the organisation unlink one', async () => {
    const member = await t.addMember(admin.cookie);
    const other = await t.addMember(admin.cookie);
    chat.users.U9 = 'Nine (chat)';
    const ts = askForTicket('link U9');
    const approval = await desk.approvalIn(ts);
    const before = chat.ephemeralsFor('U9').length;
    desk.pressApprove('U9', approval, ts);
    const token = tokenIn(await noticeFor('U9', before));
    expect((await t.request('POST', `/api/chat/link-requests/${token}`, { cookie: member.cookie })).status).toBe(201);

    const mine = await t.request('GET', '/api/chat/links', { cookie: member.cookie });
    expect(mine.body.links).toEqual([
      expect.objectContaining({
        id: 'T1-U9',
        chat_user_id: 'U9',
        chat_user_name: 'Nine (chat)',
        chat_team_id: 'T1',
        user_id: member.user.id,
      }),
    ]);
    expect((await t.request('GET', '/api/chat/links', { cookie: other.cookie })).body.links).toEqual([]);
    expect((await t.request('GET', '/api/chat/links?scope=org', { cookie: other.cookie })).status).toBe(403);

    const stranger = await t.signUp({ org_name: 'Elsewhere again' });
    expect((await t.request('DELETE', '/api/chat/links/T1-U9', { cookie: stranger.cookie })).status).toBe(404);
    expect((await t.request('DELETE', '/api/chat/links/T1-U9', { cookie: other.cookie })).status).toBe(404);
    expect((await t.request('DELETE', '/api/chat/links/not-an-id!', { cookie: member.cookie })).status).toBe(400);
    const all = await t.request('GET', '/api/chat/links?scope=org', { cookie: admin.cookie });
    expect(all.body.links.map((link: { id: string }) => link.id)).toContain('T1-U9');
    expect((await t.request('DELETE', '/api/chat/links/T1-U9', { cookie: admin.cookie })).status).toBe(200);
    expect((await t.request('GET', '/api/chat/links', { cookie: member.cookie })).body.links).toEqual([]);
    expect((await t.request('DELETE', '/api/chat/links/T1-U9', { cookie: member.cookie })).status).toBe(404);
  });
});
