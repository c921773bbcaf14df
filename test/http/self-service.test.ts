import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workspacePartition } from '../../shared/workspaces/entities.js';
import { channelsOfWorkspace } from '../../shared/chat/entities.js';
import { evaluationsOfWorkspace } from '../../shared/evals/entities.js';
import { emailKey } from '../../shared/org/entities.js';
import { createTestContext, type TestContext } from '../support/context.js';

let t: TestContext;

beforeAll(async () => {
  t = await createTestContext();
});

afterAll(async () => {
  await t.close();
});

async function logIn(email: string, password: string) {
  return t.request('POST', '/api/auth/login', { body: { email, password } });
}

describe('the profile', () => {
  it('shows the signed-in user and changes their display name', async () => {
    const admin = await t.signUp({ name: 'Ada' });
    const me = await t.request('GET', '/api/me', { cookie: admin.cookie });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ user: { id: admin.user.id, name: 'Ada', org_role: 'admin' }, has_password: true });
    const renamed = await t.request('PUT', '/api/me', { cookie: admin.cookie, body: { name: '  Ada Lovelace ' } });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.user.name).toBe('Ada Lovelace');
    const session = await t.request('GET', '/api/auth/session', { cookie: admin.cookie });
    expect(session.body.user.name).toBe('Ada Lovelace');
    const empty = await t.request('PUT', '/api/me', { cookie: admin.cookie, body: { name: '' } });
    expect(empty.status).toBe(400);
    expect(empty.body.details[0].path).toBe('name');
  });

  it('needs a session', async () => {
    expect((await t.request('PUT', '/api/me', { body: { name: 'X' } })).status).toBe(401);
  });
});

describe('changing your own password', () => {
  it('checks the current password, then signs in only with the new one, ending the other sessions', async () => {
    const admin = await t.signUp();
    const member = await t.addMember(admin.cookie, { email: t.uniqueEmail('pw') });
    const elsewhere = t.cookieOf(await logIn(member.user.email, 'member password'));

    const wrong = await t.request('POST', '/api/me/password', {
      cookie: member.cookie,
      body: { current_password: 'not my password', new_password: 'a brand new password' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.details).toEqual([{ path: 'current_password', message: 'is not your current password' }]);

    const short = await t.request('POST', '/api/me/password', {
      cookie: member.cookie,
      body: { current_password: 'member password', new_password: 'short' },
    });
    expect(short.status).toBe(400);
    expect(short.body.details[0].path).toBe('new_password');

    const changed = await t.request('POST', '/api/me/password', {
      cookie: member.cookie,
      body: { current_password: 'member password', new_password: 'a brand new password' },
    });
    expect(changed.status, changed.text).toBe(200);

    // The session that changed it goes on; the other one ends.
    expect((await t.request('GET', '/api/me', { cookie: member.cookie })).status).toBe(200);
    expect((await t.request('GET', '/api/me', { cookie: elsewhere })).status).toBe(401);
    expect((await logIn(member.user.email, 'member password')).status).toBe(401);
    expect((await logIn(member.user.email, 'a brand new password')).status).toBe(200);
  });

  it('counts wrong current passwords as failed sign-ins (429 past the limit)', async () => {
    const admin = await t.signUp();
    const member = await t.addMember(admin.cookie);
    const address = { 'x-test-client-address': '203.0.113.77' };
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt += 1) {
      const response = await t.request('POST', '/api/me/password', {
        cookie: member.cookie,
        headers: address,
        body: { current_password: `guess ${attempt}`, new_password: 'a brand new password' },
      });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
  });

  it('tells a user single sign-on made that they have no password here', async () => {
    const admin = await t.signUp();
    const member = await t.addMember(admin.cookie);
    // What single sign-on writes for a user it makes: a login record without a password.
    await t.deps.table.update(emailKey(member.user.email), { update: 'SET password_hash = :none', values: { ':none': '' } });
    const me = await t.request('GET', '/api/me', { cookie: member.cookie });
    expect(me.body.has_password).toBe(false);
    const response = await t.request('POST', '/api/me/password', {
      cookie: member.cookie,
      body: { current_password: 'anything', new_password: 'a brand new password' },
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toContain('single sign-on');
  });
});

describe("an admin sets a member's password", () => {
  it('sets it and ends their sessions; not their own, not for another organisation, not as a member', async () => {
    const admin = await t.signUp();
    const member = await t.addMember(admin.cookie);
    const set = await t.request('PUT', `/api/org/users/${member.user.id}/password`, {
      cookie: admin.cookie,
      body: { password: 'set by the admin' },
    });
    expect(set.status, set.text).toBe(200);
    expect(set.body.user.id).toBe(member.user.id);
    expect((await t.request('GET', '/api/me', { cookie: member.cookie })).status).toBe(401);
    expect((await logIn(member.user.email, 'set by the admin')).status).toBe(200);

    const own = await t.request('PUT', `/api/org/users/${admin.user.id}/password`, {
      cookie: admin.cookie,
      body: { password: 'my own one' },
    });
    expect(own.status).toBe(400);
    expect(own.body.details[0].path).toBe('id');

    const other = await t.signUp();
    const foreign = await t.request('PUT', `/api/org/users/${member.user.id}/password`, {
      cookie: other.cookie,
      body: { password: 'taken over' },
    });
    expect(foreign.status).toBe(404);
    const asMember = t.cookieOf(await logIn(member.user.email, 'set by the admin'));
    const refused = await t.request('PUT', `/api/org/users/${admin.user.id}/password`, {
      cookie: asMember,
      body: { password: 'taken over' },
    });
    expect(refused.status).toBe(403);
    expect((await logIn(member.user.email, 'taken over')).status).toBe(401);
  });
});

describe('invitations by link', () => {
  async function invite(cookie: string, body: Record<string, unknown>) {
    const response = await t.request('POST', '/api/org/invitations', { cookie, body });
    expect(response.status, response.text).toBe(201);
    const { url } = response.body.invitation as { url: string };
    return { ...response.body.invitation, token: url.slice(url.lastIndexOf('/') + 1) } as {
      id: string;
      url: string;
      token: string;
      expires_at: string;
    };
  }

  it('invites, shows the invitation, accepts it once and signs the new user in', async () => {
    const admin = await t.signUp({ org_name: 'Inviting Org' });
    const email = t.uniqueEmail('invited');
    const invitation = await invite(admin.cookie, { email, org_role: 'member' });
    expect(invitation.url).toMatch(/\/invite\/[A-Za-z0-9_-]{40,}$/);
    const expectedExpiry = new Date(t.clock.now().getTime() + 72 * 3_600_000).toISOString();
    expect(invitation.expires_at).toBe(expectedExpiry);

    const pending = await t.request('GET', '/api/org/invitations', { cookie: admin.cookie });
    expect(pending.body.invitations).toMatchObject([{ id: invitation.id, email, org_role: 'member' }]);
    // The token is shown once: never in the list, never stored.
    expect(pending.text).not.toContain(invitation.token);
    expect(JSON.stringify(await t.scanTable())).not.toContain(invitation.token);

    const view = await t.request('GET', `/api/invitations/${invitation.token}`);
    expect(view.status).toBe(200);
    expect(view.body).toEqual({ org_name: 'Inviting Org', email, org_role: 'member', expires_at: expectedExpiry });

    const accepted = await t.request('POST', `/api/invitations/${invitation.token}/accept`, {
      body: { name: 'Ivy Invited', password: 'my own password' },
    });
    expect(accepted.status, accepted.text).toBe(201);
    expect(accepted.body.user).toMatchObject({ name: 'Ivy Invited', email, org_role: 'member' });
    const session = await t.request('GET', '/api/auth/session', { cookie: t.cookieOf(accepted) });
    expect(session.body.user).toMatchObject({ email, org_id: admin.org.id });

    const again = await t.request('POST', `/api/invitations/${invitation.token}/accept`, {
      body: { name: 'Someone Else', password: 'another password' },
    });
    expect(again.status).toBe(410);
    expect((await t.request('GET', `/api/invitations/${invitation.token}`)).status).toBe(410);
    expect((await t.request('GET', '/api/org/invitations', { cookie: admin.cookie })).body.invitations).toEqual([]);
  });

  it('works when sign-up is closed', async () => {
    const closed = await createTestContext({ env: { SIGNUP_MODE: 'open' } });
    try {
      const admin = await closed.signUp();
      (closed.deps.config as { signupMode: string }).signupMode = 'closed';
      expect(
        (await closed.request('POST', '/api/signup', { body: { name: 'N', email: closed.uniqueEmail(), password: 'long enough' } })).status,
      ).toBe(403);
      const created = await closed.request('POST', '/api/org/invitations', {
        cookie: admin.cookie,
        body: { email: closed.uniqueEmail('closed'), org_role: 'admin' },
      });
      const url = created.body.invitation.url as string;
      const accepted = await closed.request('POST', `/api/invitations/${url.slice(url.lastIndexOf('/') + 1)}/accept`, {
        body: { name: 'Closed Joiner', password: 'long enough' },
      });
      expect(accepted.status, accepted.text).toBe(201);
      expect(accepted.body.user.org_role).toBe('admin');
    } finally {
      await closed.close();
    }
  });

  it('refuses an expired, revoked, unknown or already registered invitation', async () => {
    const admin = await t.signUp();
    const expiring = await invite(admin.cookie, { email: t.uniqueEmail('late'), org_role: 'member', expires_in_hours: 1 });
    const revoked = await invite(admin.cookie, { email: t.uniqueEmail('revoked'), org_role: 'member' });
    const takenEmail = t.uniqueEmail('taken');
    const taken = await invite(admin.cookie, { email: takenEmail, org_role: 'member' });

    expect((await t.request('DELETE', `/api/org/invitations/${revoked.id}`, { cookie: admin.cookie })).status).toBe(200);
    expect((await t.request('GET', `/api/invitations/${revoked.token}`)).status).toBe(404);
    expect((await t.request('DELETE', `/api/org/invitations/${revoked.id}`, { cookie: admin.cookie })).status).toBe(404);
    expect((await t.request('GET', '/api/invitations/never-issued-token')).status).toBe(404);

    await t.addMember(admin.cookie, { email: takenEmail });
    const conflict = await t.request('POST', `/api/invitations/${taken.token}/accept`, { body: { name: 'Late', password: 'long enough' } });
    expect(conflict.status).toBe(409);

    t.clock.advance(3_600_000 + 1);
    const late = await t.request('POST', `/api/invitations/${expiring.token}/accept`, { body: { name: 'Late', password: 'long enough' } });
    expect(late.status).toBe(410);
    expect(late.body.error).toContain('expired');
    const tooLong = await t.request('POST', '/api/org/invitations', {
      cookie: admin.cookie,
      body: { email: t.uniqueEmail(), org_role: 'member', expires_in_hours: 337 },
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.details[0].path).toBe('expires_in_hours');
    const registered = await t.request('POST', '/api/org/invitations', {
      cookie: admin.cookie,
      body: { email: takenEmail, org_role: 'member' },
    });
    expect(registered.status).toBe(409);
  });

  it("keeps each organisation's invitations to itself, and from members", async () => {
    const admin = await t.signUp();
    const invitation = await invite(admin.cookie, { email: t.uniqueEmail(), org_role: 'member' });
    const other = await t.signUp();
    expect((await t.request('GET', '/api/org/invitations', { cookie: other.cookie })).body.invitations).toEqual([]);
    expect((await t.request('DELETE', `/api/org/invitations/${invitation.id}`, { cookie: other.cookie })).status).toBe(404);
    const member = await t.addMember(admin.cookie);
    expect((await t.request('GET', '/api/org/invitations', { cookie: member.cookie })).status).toBe(403);
    expect((await t.request('GET', `/api/invitations/${invitation.token}`)).status).toBe(200);
  });
});

describe('archiving and deleting a workspace', () => {
  it('archives: queries are refused with 409, the default list hides it, its data stays; unarchive brings it back', async () => {
    const admin = await t.signUp();
    const workspace = await t.createWorkspace(admin.cookie, { name: 'Quiet' });
    const archived = await t.request('POST', `/api/workspaces/${workspace.id}/archive`, { cookie: admin.cookie });
    expect(archived.status, archived.text).toBe(200);
    expect(archived.body.workspace.status).toBe('archived');

    const query = await t.request('POST', `/api/workspaces/${workspace.id}/query`, { cookie: admin.cookie, body: { query: 'hello?' } });
    expect(query.status).toBe(409);
    expect(query.body.error).toContain('archived');

    const listed = await t.request('GET', '/api/workspaces', { cookie: admin.cookie });
    expect(listed.body.workspaces.map((w: { id: string }) => w.id)).not.toContain(workspace.id);
    const all = await t.request('GET', '/api/workspaces?include_archived=true', { cookie: admin.cookie });
    expect(all.body.workspaces).toMatchObject([{ id: workspace.id, status: 'archived' }]);
    expect((await t.request('GET', `/api/workspaces/${workspace.id}/summary`, { cookie: admin.cookie })).status).toBe(200);

    const back = await t.request('POST', `/api/workspaces/${workspace.id}/unarchive`, { cookie: admin.cookie });
    expect(back.body.workspace.status).toBe('active');
    expect((await t.request('GET', '/api/workspaces', { cookie: admin.cookie })).body.workspaces).toHaveLength(1);
  });

  it('deletes the workspace and its configuration; its keys stop working; its id is not handed out again', async () => {
    const admin = await t.signUp();
    const workspace = await t.createWorkspace(admin.cookie, { name: 'Doomed' });
    const id = workspace.id;
    const consumer = await t.request('POST', '/api/connectors/consumer', {
      cookie: admin.cookie,
      body: { type: 'api', workspace_id: id, credentials: {} },
    });
    expect(consumer.status, consumer.text).toBe(201);
    const key = consumer.body.api_key as string;
    const bearer = { authorization: `Bearer ${key}` };
    expect((await t.request('GET', `/api/workspaces/${id}/conversations`, { headers: bearer })).status).toBe(200);
    await t.request('POST', `/api/workspaces/${id}/knowledge`, { cookie: admin.cookie, body: { title: 'Hours', content: '9 to 5' } });
    await t.request('POST', `/api/workspaces/${id}/guardrails`, { cookie: admin.cookie, body: { preset: 'email' } });
    await t.request('POST', '/api/connectors/consumer/channel', {
      cookie: admin.cookie,
      body: { type: 'team-chat', workspace_id: id, channel_id: 'CDOOMED1' },
    });
    const evaluation = await t.request('POST', `/api/workspaces/${id}/evals`, {
      cookie: admin.cookie,
      body: { name: 'E', cases: [{ question: 'q?', expect: { contains: ['a'] } }] },
    });
    expect(evaluation.status).toBe(201);

    const other = await t.signUp();
    expect((await t.request('DELETE', `/api/workspaces/${id}`, { cookie: other.cookie })).status).toBe(404);
    const member = await t.addMember(admin.cookie);
    expect((await t.request('DELETE', `/api/workspaces/${id}`, { cookie: member.cookie })).status).toBe(403);

    const deleted = await t.request('DELETE', `/api/workspaces/${id}`, { cookie: admin.cookie });
    expect(deleted.status, deleted.text).toBe(200);
    expect((await t.request('GET', `/api/workspaces/${id}`, { cookie: admin.cookie })).status).toBe(404);
    expect((await t.request('DELETE', `/api/workspaces/${id}`, { cookie: admin.cookie })).status).toBe(404);
    expect((await t.request('GET', '/api/workspaces?include_archived=true', { cookie: admin.cookie })).body.workspaces).toEqual([]);
    expect((await t.request('GET', `/api/workspaces/${id}/conversations`, { headers: bearer })).status).toBe(401);

    const items = await t.scanTable();
    const owned = items.filter((item) => String(item.pk).startsWith(workspacePartition(admin.org.id, id)));
    expect(owned.map((item) => item.sk)).toEqual(['META']);
    expect(items.filter((item) => String(item.pk).startsWith(evaluationsOfWorkspace(admin.org.id, id).pk))).toEqual([]);
    expect(items.filter((item) => item.gsi1pk === channelsOfWorkspace(admin.org.id, id).pk)).toEqual([]);

    const again = await t.createWorkspace(admin.cookie, { name: 'Doomed' });
    expect(again.id).not.toBe(id);
  });

  it("refuses another organisation's admin on archive and unarchive", async () => {
    const admin = await t.signUp();
    const workspace = await t.createWorkspace(admin.cookie, { name: 'Mine' });
    const other = await t.signUp();
    for (const action of ['archive', 'unarchive']) {
      expect((await t.request('POST', `/api/workspaces/${workspace.id}/${action}`, { cookie: other.cookie })).status).toBe(404);
    }
    expect((await t.request('GET', `/api/workspaces/${workspace.id}/summary`, { cookie: admin.cookie })).body.workspace.status).toBe(
      'active',
    );
  });
});
