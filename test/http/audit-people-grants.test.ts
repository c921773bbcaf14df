import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { linkChatAccount } from '../support/chat.js';
import { type MailboxDesk, requireApproval, startMailboxDesk } from '../support/chat-desk.js';
import type { TestContext } from '../support/context.js';
import type { FakeChat } from '../support/fake-chat.js';
import { type FakeModel, textReply, toolUseReply } from '../support/fake-model.js';

/**
 * Audit 2 (issue 45): per-user grants follow their person. A deactivated person's grant is used by
 * no channel (team chat, nor a call approved after they were deactivated); a removed person's grants
 * are deleted.
 */

let desk: MailboxDesk;
let t: TestContext;
let chat: FakeChat;
let model: FakeModel;
let server: MailboxDesk['server'];
let admin: MailboxDesk['admin'];
let scimToken: string;
let workspaceId: string;
let connectionId: string;

const waitFor = <T>(check: () => T | Promise<T>) => vi.waitFor(check, { timeout: 8_000, interval: 25 });

beforeAll(async () => {
  desk = await startMailboxDesk({ workspace: 'Mailbox desk' });
  ({ t, chat, model, server, admin, workspaceId, connectionId } = desk);
  scimToken = (await t.request('POST', '/api/org/scim/token', { cookie: admin.cookie })).body.token;
  await requireApproval(t, { cookie: admin.cookie, workspaceId });
});
afterAll(() => desk.stop());

function scim(method: string, path: string, body?: unknown) {
  return t.request(method, `/scim/v2${path}`, {
    headers: { authorization: `Bearer ${scimToken}`, ...(body ? { 'content-type': 'application/scim+json' } : {}) },
    ...(body ? { raw: JSON.stringify(body) } : {}),
  });
}

const deactivate = (userId: string) =>
  scim('PATCH', `/Users/${userId}`, {
    schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
    Operations: [{ op: 'replace', path: 'active', value: 'False' }],
  });

/** A member who granted their own access to the mailbox (as `serverUser` at the tool server). */
async function memberWithGrant(serverUser: string) {
  const member = await t.addMember(admin.cookie, { name: serverUser });
  const started = await t.request('POST', `/api/connections/${connectionId}/authorize`, { cookie: member.cookie });
  expect(started.status, started.text).toBe(200);
  const callback = new URL(await server.login(started.body.authorization_url, serverUser));
  const granted = await t.request('GET', `${callback.pathname}${callback.search}`, { cookie: member.cookie });
  expect(granted.status, granted.text).toBe(200);
  return member;
}

/** The sort keys of every stored grant of the connection. */
async function grantsStored(): Promise<string[]> {
  const items = await t.scanTable();
  return items
    .filter((item) => item.pk === `OAUTH#${connectionId}` && String(item.sk).startsWith('TOKENS#'))
    .map((item) => String(item.sk));
}

const callsAs = (user: string) => server.toolCalls.filter((call) => call.user === user);

describe("a person's own grants", () => {
  it("audit 2 (deactivated person's grants): a deactivated member's linked chat account asks, and their grant is not used", async () => {
    const member = await memberWithGrant('dee-user');
    chat.users.U4 = 'Dee (chat)';
    await linkChatAccount(t, { cookie: member.cookie, orgId: admin.org.id, user: 'U4' });
    // Active, they are answered with their grant.
    model.reset();
    model.reply(toolUseReply([{ name: 'whoami' }]), textReply('You are dee-user.'));
    chat.sendEvent({ type: 'app_mention', channel: 'C9', user: 'U4', text: '<@UBOT> who am I?', ts: '3100.0001' });
    await waitFor(() => expect(chat.answersIn('3100.0001').at(-1)).toBe('You are dee-user.'));
    expect(callsAs('dee-user')).toHaveLength(1);

    expect((await deactivate(member.user.id)).status).toBe(200);
    model.reset();
    model.reply(toolUseReply([{ name: 'whoami' }]), textReply('You are still dee-user.'));
    chat.sendEvent({ type: 'app_mention', channel: 'C9', user: 'U4', text: '<@UBOT> who am I now?', ts: '3100.0002' });
    await waitFor(() => expect(chat.answersIn('3100.0002')).toHaveLength(1));
    expect(chat.answersIn('3100.0002')[0]).toMatch(/is deactivated/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(callsAs('dee-user')).toHaveLength(1);
    expect(model.requests).toEqual([]);
  });

  it("audit 2 (deactivated person's grants): a call approved after its asker was deactivated does not run with their grant", async () => {
    const member = await memberWithGrant('pat-user');
    model.reset();
    model.reply(toolUseReply([{ name: 'create_ticket', input: { title: 'as Pat' } }]));
    // Then the model says what the call came back with.
    model.handle((request) => {
      const results = (request.body.messages.at(-1)?.content as { content?: unknown; is_error?: boolean }[]) ?? [];
      return textReply(results.map((block) => `${block.is_error ? 'ERROR ' : ''}${JSON.stringify(block.content)}`).join(' | '));
    });
    const asked = await t.request('POST', `/api/workspaces/${workspaceId}/query`, {
      cookie: member.cookie,
      body: { query: 'open a ticket' },
    });
    expect(asked.status, asked.text).toBe(200);
    const pending = asked.body.pending_approval;
    expect(pending).toMatchObject({ tool: expect.stringContaining('create_ticket') });

    expect((await deactivate(member.user.id)).status).toBe(200);
    const decided = await t.request('POST', `/api/workspaces/${workspaceId}/approvals/${pending.id}`, {
      cookie: admin.cookie,
      body: { decision: 'approve' },
    });
    expect(decided.status, decided.text).toBe(200);
    expect(callsAs('pat-user').filter((call) => call.tool === 'create_ticket')).toEqual([]);
    // The model is told the call found no grant to act with.
    expect(decided.body.answer).toMatch(/^ERROR .*needs authorization/);
  });

  it("audit 2 (removed person's grants): removing a person (users API or SCIM) deletes their per-user grants", async () => {
    const byApi = await memberWithGrant('api-gone');
    const byScim = await memberWithGrant('scim-gone');
    expect(await grantsStored()).toEqual(expect.arrayContaining([`TOKENS#user:${byApi.user.id}`, `TOKENS#user:${byScim.user.id}`]));
    expect((await t.request('DELETE', `/api/org/users/${byApi.user.id}`, { cookie: admin.cookie })).status).toBe(200);
    expect((await scim('DELETE', `/Users/${byScim.user.id}`)).status).toBe(204);
    const left = await grantsStored();
    expect(left).not.toContain(`TOKENS#user:${byApi.user.id}`);
    expect(left).not.toContain(`TOKENS#user:${byScim.user.id}`);
    // Everyone else's stay.
    expect(left).toContain(`TOKENS#user:${admin.user.id}`);
  });
});
