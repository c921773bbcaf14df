import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userKey } from '../../shared/org/entities.js';
import { createTestContext, type TestContext } from '../support/context.js';

/**
 * Audit 8 (issue 45): an invitation is an admin's act, so it works only while its inviter is an
 * active admin. Removing, deactivating or demoting the inviter revokes their invitations, and the
 * acceptance checks the inviter again.
 */

let t: TestContext;
let admin: Awaited<ReturnType<TestContext['signUp']>>;
let scimToken: string;

beforeAll(async () => {
  t = await createTestContext();
  admin = await t.signUp({ org_name: 'Invitations Org' });
  scimToken = (await t.request('POST', '/api/org/scim/token', { cookie: admin.cookie })).body.token;
});
afterAll(async () => {
  await t.close();
});

async function invite(cookie: string, org_role: 'admin' | 'member') {
  const email = t.uniqueEmail('invited');
  const response = await t.request('POST', '/api/org/invitations', { cookie, body: { email, org_role } });
  expect(response.status, response.text).toBe(201);
  const url = response.body.invitation.url as string;
  return { id: response.body.invitation.id as string, email, token: url.slice(url.lastIndexOf('/') + 1) };
}

const accept = (token: string) =>
  t.request('POST', `/api/invitations/${token}/accept`, { body: { name: 'Eve Joiner', password: 'a long password' } });

const anotherAdmin = (name: string) => t.addMember(admin.cookie, { org_role: 'admin', name });

async function usersNamed(email: string) {
  const users = await t.request('GET', '/api/org/users', { cookie: admin.cookie });
  return users.body.users.filter((user: { email: string }) => user.email === email);
}

describe('an invitation and its inviter', () => {
  it('audit 8 (admin invitation outlives its admin): removing the admin who invited revokes their invitations, and the links make nobody', async () => {
    const inviter = await anotherAdmin('Ivan Inviter');
    const asAdmin = await invite(inviter.cookie, 'admin');
    const asMember = await invite(inviter.cookie, 'member');
    const kept = await invite(admin.cookie, 'member');
    expect((await t.request('DELETE', `/api/org/users/${inviter.user.id}`, { cookie: admin.cookie })).status).toBe(200);

    for (const invitation of [asAdmin, asMember]) {
      const accepted = await accept(invitation.token);
      expect(accepted.status, accepted.text).toBe(404);
      expect(accepted.body.error).toMatch(/revoked/);
      expect(await usersNamed(invitation.email)).toEqual([]);
    }
    const pending = await t.request('GET', '/api/org/invitations', { cookie: admin.cookie });
    expect(pending.body.invitations.map((invitation: { id: string }) => invitation.id)).toEqual([kept.id]);
    // Another admin's invitation still works.
    expect((await accept(kept.token)).status).toBe(201);
  });

  it('audit 8 (admin invitation outlives its admin): demoting or deactivating the admin who invited revokes their invitations', async () => {
    const demoted = await anotherAdmin('Dora Demoted');
    const fromDemoted = await invite(demoted.cookie, 'admin');
    const put = await t.request('PUT', `/api/org/users/${demoted.user.id}`, { cookie: admin.cookie, body: { org_role: 'member' } });
    expect(put.status, put.text).toBe(200);
    expect((await accept(fromDemoted.token)).status).toBe(404);

    const deactivated = await anotherAdmin('Dan Deactivated');
    const fromDeactivated = await invite(deactivated.cookie, 'admin');
    const off = await t.request('PATCH', `/scim/v2/Users/${deactivated.user.id}`, {
      headers: { authorization: `Bearer ${scimToken}`, 'content-type': 'application/scim+json' },
      raw: JSON.stringify({
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ op: 'replace', path: 'active', value: false }],
      }),
    });
    expect(off.status, off.text).toBe(200);
    expect((await accept(fromDeactivated.token)).status).toBe(404);
    expect(await usersNamed(fromDemoted.email)).toEqual([]);
    expect(await usersNamed(fromDeactivated.email)).toEqual([]);
  });

  it('audit 8 (admin invitation outlives its admin): the acceptance checks that the inviter is still an active admin, with a 410 saying why', async () => {
    const inviter = await anotherAdmin('Rita Raced');
    const invitation = await invite(inviter.cookie, 'admin');
    // The role changed by a write that revoked nothing (a demotion racing the invitation's creation).
    await t.deps.table.update(userKey(admin.org.id, inviter.user.id), { update: 'SET org_role = :role', values: { ':role': 'member' } });
    t.deps.sessions.forgetUser(inviter.user.id);

    const view = await t.request('GET', `/api/invitations/${invitation.token}`);
    expect(view.status, view.text).toBe(410);
    expect(view.body.error).toMatch(/no longer an active admin/);
    const accepted = await accept(invitation.token);
    expect(accepted.status, accepted.text).toBe(410);
    expect(accepted.body.error).toMatch(/no longer an active admin/);
    expect(await usersNamed(invitation.email)).toEqual([]);
  });
});
