import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { linkChatAccount } from '../support/chat.js';
import { type ApprovalDesk, isApproval, startApprovalDesk } from '../support/chat-desk.js';
import type { TestContext } from '../support/context.js';
import type { FakeChat } from '../support/fake-chat.js';
import { textReply, toolUseReply, type FakeModel } from '../support/fake-model.js';

/**
 * Audit 2 (issue 45): a linked chat account follows its person. A deactivated person's chat account
 * decides and asks nothing; a removed person's links are deleted; a demoted admin decides only what
 * a member may. Presses and questions go through the real Bolt client against the fake platform.
 */

let desk: ApprovalDesk;
let t: TestContext;
let chat: FakeChat;
let model: FakeModel;
let admin: ApprovalDesk['admin'];
let scimToken: string;
/** The arguments of every call that reached the write tool. */
let created: ApprovalDesk['created'];
let thread = 0;

const waitFor = <T>(check: () => T | Promise<T>) => vi.waitFor(check, { timeout: 10_000, interval: 25 });
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

beforeAll(async () => {
  desk = await startApprovalDesk({ workspace: 'People desk' });
  ({ t, chat, model, admin, created } = desk);
  scimToken = (await t.request('POST', '/api/org/scim/token', { cookie: admin.cookie })).body.token;
});
afterAll(() => desk.stop());
beforeEach(() => {
  model.reset();
  created.length = 0;
});

function scim(method: string, path: string, body?: unknown) {
  return t.request(method, `/scim/v2${path}`, {
    headers: { authorization: `Bearer ${scimToken}`, ...(body ? { 'content-type': 'application/scim+json' } : {}) },
    ...(body ? { raw: JSON.stringify(body) } : {}),
  });
}

const setActive = (userId: string, active: boolean) =>
  scim('PATCH', `/Users/${userId}`, {
    schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
    Operations: [{ op: 'replace', value: { active } }],
  });

/** A second admin of the organisation, their chat account (`chatUser`) linked to them. */
async function linkedAdmin(chatUser: string, name: string) {
  const person = await t.addMember(admin.cookie, { org_role: 'admin', name });
  chat.users[chatUser] = `${name} (chat)`;
  await linkChatAccount(t, { cookie: person.cookie, orgId: admin.org.id, user: chatUser, name: `${name} (chat)` });
  return person;
}

/** Asks in a new thread (U1 asks); the model wants to open a ticket, then says what came back. */
function askForTicket(title: string): string {
  model.reply(toolUseReply([{ name: 'create_ticket', input: { title } }]));
  model.handle(() => textReply('Done.'));
  thread += 1;
  const ts = `8300.${String(thread).padStart(4, '0')}`;
  chat.sendEvent({ type: 'app_mention', channel: 'C1', user: 'U1', text: `<@UBOT> open a ticket: ${title}`, ts });
  return ts;
}

/** Presses Approve as `user`; answers the private notice it got (or '' when the tool ran instead). */
async function pressApprove(user: string, approval: { ts: string; value: string }, ts: string): Promise<string> {
  const before = chat.ephemeralsFor(user).length;
  desk.pressApprove(user, approval, ts);
  // Whichever comes first: a notice, or the tool running.
  await waitFor(() => expect(chat.ephemeralsFor(user).length + created.length).toBeGreaterThan(before));
  return chat.ephemeralsFor(user).slice(before).at(-1) ?? '';
}

const orgLinks = async () =>
  (await t.request('GET', '/api/chat/links?scope=org', { cookie: admin.cookie })).body.links.map((link: { id: string }) => link.id);

describe('a person who stops acting for the organisation, in team chat', () => {
  it('audit 2 (deactivated person in team chat): the Approve press of a deactivated admin is refused with a notice saying why, and the tool does not run', async () => {
    const boss = await linkedAdmin('U10', 'Bea Boss');
    expect((await setActive(boss.user.id, false)).status).toBe(200);
    const ts = askForTicket('while deactivated');
    const approval = await desk.approvalIn(ts);
    const notice = await pressApprove('U10', approval, ts);
    expect(created).toEqual([]);
    expect(notice).toMatch(/^You may not decide this: the user of the service your chat account is linked to is deactivated/);
    await settle();
    expect(created).toEqual([]);
    expect(await desk.statusOf(approval.id)).toBe('pending');
    expect(JSON.stringify(chat.messagesIn(ts).find(isApproval)?.blocks)).not.toContain('Bea Boss');
    // No new link is offered: the account is linked, to someone who may not act.
    expect(notice).not.toMatch(/\/chat\/link\//);

    // Reactivated by the identity provider, the same link acts again.
    expect((await setActive(boss.user.id, true)).status).toBe(200);
    await pressApprove('U10', approval, ts);
    await waitFor(() => expect(created).toEqual([{ title: 'while deactivated' }]));
    await waitFor(() => expect(JSON.stringify(chat.messagesIn(ts).find(isApproval)?.blocks)).toContain('*Approved* by Bea Boss'));
  });

  it("audit 2 (deactivated person in team chat): a deactivated person's question is refused in the thread, and nothing runs", async () => {
    const member = await t.addMember(admin.cookie, { name: 'Dee Parted' });
    chat.users.U13 = 'Dee (chat)';
    await linkChatAccount(t, { cookie: member.cookie, orgId: admin.org.id, user: 'U13' });
    expect((await setActive(member.user.id, false)).status).toBe(200);
    model.reply(textReply('An answer a deactivated person must not get.'));
    chat.sendEvent({ type: 'app_mention', channel: 'C1', user: 'U13', text: '<@UBOT> what is in the backlog?', ts: '8400.0001' });
    await waitFor(() => expect(chat.answersIn('8400.0001')).toHaveLength(1));
    expect(chat.answersIn('8400.0001')[0]).toMatch(/is deactivated/);
    await settle();
    // The model never saw the question (a request the test before's resumed query makes may land here).
    expect(model.requests.filter((request) => JSON.stringify(request.body).includes('what is in the backlog'))).toEqual([]);
  });

  it('audit 2 (removed person in team chat): removing a person (users API or SCIM) deletes their chat links, and their chat account decides nothing', async () => {
    const gone = await linkedAdmin('U11', 'Gone Byapi');
    const goneToo = await linkedAdmin('U12', 'Gone Byscim');
    expect(await orgLinks()).toEqual(expect.arrayContaining(['T1-U11', 'T1-U12']));
    expect((await t.request('DELETE', `/api/org/users/${gone.user.id}`, { cookie: admin.cookie })).status).toBe(200);
    expect((await scim('DELETE', `/Users/${goneToo.user.id}`)).status).toBe(204);
    const links = await orgLinks();
    expect(links).not.toContain('T1-U11');
    expect(links).not.toContain('T1-U12');

    const ts = askForTicket('after removal');
    const approval = await desk.approvalIn(ts);
    for (const user of ['U11', 'U12']) {
      expect(await pressApprove(user, approval, ts)).toMatch(/^You may not decide this yet: your chat account is not linked/);
    }
    await settle();
    expect(created).toEqual([]);
    expect(await desk.statusOf(approval.id)).toBe('pending');
  });

  it('audit 2 (demoted admin in team chat): a demoted admin may no longer approve what needs an admin', async () => {
    const demoted = await linkedAdmin('U14', 'Dem Oted');
    const put = await t.request('PUT', `/api/org/users/${demoted.user.id}`, { cookie: admin.cookie, body: { org_role: 'member' } });
    expect(put.status, put.text).toBe(200);
    const ts = askForTicket('after demotion');
    const approval = await desk.approvalIn(ts);
    expect(await pressApprove('U14', approval, ts)).toBe('You may not decide this: only an admin of the organisation may.');
    await settle();
    expect(created).toEqual([]);
    expect(await desk.statusOf(approval.id)).toBe('pending');
  });
});
