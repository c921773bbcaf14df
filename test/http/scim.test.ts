import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../../shared/auth/sessions.js';
import { SESSION_COOKIE } from '../../shared/auth/tokens.js';
import { createTestContext, type TestContext } from '../support/context.js';

/*
 * SCIM 2.0 provisioning (CONTRACT.md, "Single sign-on and provisioning"): the request sequences Okta
 * and Microsoft Entra ID send (create, filter by userName, PATCH `active: false`, group membership
 * added and removed), the schema of each answer, deactivation signing the user out at once, and one
 * organisation's token never reaching another's users.
 */

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const LIST = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

let t: TestContext;
let admin: Awaited<ReturnType<TestContext['signUp']>>;
let token: string;

beforeAll(async () => {
  t = await createTestContext();
  admin = await t.signUp({ org_name: 'Acme' });
  const made = await t.request('POST', '/api/org/scim/token', { cookie: admin.cookie });
  expect(made.status, made.text).toBe(201);
  token = made.body.token;
});
afterAll(async () => {
  await t.close();
});

/** A SCIM request as an identity provider sends it: its bearer token and `application/scim+json`. */
function scim(method: string, path: string, body?: unknown, bearer = token) {
  return t.request(method, `/scim/v2${path}`, {
    headers: { authorization: `Bearer ${bearer}`, ...(body ? { 'content-type': 'application/scim+json' } : {}) },
    ...(body ? { raw: JSON.stringify(body) } : {}),
  });
}

/** The checks every SCIM User answer passes (RFC 7643 §4.1). */
function expectUser(user: Record<string, unknown>, email: string) {
  expect(user).toMatchObject({
    schemas: [USER],
    id: expect.stringMatching(/^usr_/),
    userName: email,
    emails: [{ value: email, primary: true, type: 'work' }],
    active: expect.any(Boolean),
    meta: { resourceType: 'User', created: expect.any(String), location: expect.stringContaining(`/scim/v2/Users/${user.id}`) },
  });
}

describe('SCIM as Okta provisions', () => {
  it('looks a user up by userName, creates them, deactivates them with PATCH and signs them out at once', async () => {
    const lookup = await scim('GET', `/Users?filter=${encodeURIComponent('userName eq "ana@acme.test"')}&startIndex=1&count=100`);
    expect(lookup.status, lookup.text).toBe(200);
    expect(lookup.headers.get('content-type')).toMatch(/^application\/scim\+json/);
    expect(lookup.body).toEqual({ schemas: [LIST], totalResults: 0, startIndex: 1, itemsPerPage: 0, Resources: [] });

    const created = await scim('POST', '/Users', {
      schemas: [USER],
      userName: 'ana@acme.test',
      name: { givenName: 'Ana', familyName: 'Lima' },
      emails: [{ primary: true, value: 'ana@acme.test', type: 'work' }],
      displayName: 'Ana Lima',
      locale: 'en-US',
      externalId: '00u1okta',
      groups: [],
      password: 'ignored: provisioned people sign in through the provider',
      active: true,
    });
    expect(created.status, created.text).toBe(201);
    expectUser(created.body, 'ana@acme.test');
    expect(created.body).toMatchObject({ externalId: '00u1okta', displayName: 'Ana Lima', name: { givenName: 'Ana', familyName: 'Lima' } });
    const id = created.body.id;

    const found = await scim('GET', `/Users?filter=${encodeURIComponent('userName eq "ANA@acme.test"')}`);
    expect(found.body.totalResults).toBe(1);
    expectUser(found.body.Resources[0], 'ana@acme.test');
    const again = await scim('POST', '/Users', { schemas: [USER], userName: 'ana@acme.test' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ schemas: [ERROR], status: '409', scimType: 'uniqueness' });

    // The person signed in (through the provider; here a session is made for them directly).
    const users = await t.request('GET', '/api/org/users', { cookie: admin.cookie });
    expect(users.body.users.find((user: { id: string }) => user.id === id)).toMatchObject({ active: true, org_role: 'member' });
    const signedIn = await createSession(t.deps, {
      id,
      org_id: admin.org.id,
      email: 'ana@acme.test',
      name: 'Ana Lima',
      org_role: 'member',
    });
    const session = `${SESSION_COOKIE}=${signedIn.token}`;
    expect((await t.request('GET', '/api/workspaces', { cookie: session })).status).toBe(200);

    const off = await scim('PATCH', `/Users/${id}`, { schemas: [PATCH], Operations: [{ op: 'replace', value: { active: false } }] });
    expect(off.status, off.text).toBe(200);
    expect(off.body.active).toBe(false);
    expect((await t.request('GET', '/api/workspaces', { cookie: session })).status).toBe(401);
    expect((await t.request('GET', '/api/auth/session', { cookie: session })).body).toBeNull();
    const listed = await t.request('GET', '/api/org/users', { cookie: admin.cookie });
    expect(listed.body.users.find((user: { id: string }) => user.id === id).active).toBe(false);

    const on = await scim('PUT', `/Users/${id}`, {
      schemas: [USER],
      userName: 'ana@acme.test',
      name: { givenName: 'Ana', familyName: 'Lima' },
      active: true,
    });
    expect(on.status, on.text).toBe(200);
    expect(on.body).toMatchObject({ active: true, displayName: 'Ana Lima' });
    expect(on.body.externalId).toBeUndefined();
  });

  it('creates a group with members, adds and removes members with PATCH, renames and deletes it', async () => {
    const bo = (await scim('POST', '/Users', { schemas: [USER], userName: 'bo@acme.test', name: { givenName: 'Bo' } })).body;
    const cy = (await scim('POST', '/Users', { schemas: [USER], userName: 'cy@acme.test' })).body;
    const group = await scim('POST', '/Groups', { schemas: [GROUP], displayName: 'Support', members: [{ value: bo.id, display: 'bo' }] });
    expect(group.status, group.text).toBe(201);
    expect(group.body).toMatchObject({
      schemas: [GROUP],
      displayName: 'Support',
      members: [{ value: bo.id, display: 'bo@acme.test' }],
      meta: { resourceType: 'Group' },
    });
    const id = group.body.id;
    const teams = await t.request('GET', '/api/teams', { cookie: admin.cookie });
    expect(teams.body.teams).toContainEqual({ id, name: 'Support' });

    const add = await scim('PATCH', `/Groups/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'add', path: 'members', value: [{ value: cy.id }] }],
    });
    expect(add.status, add.text).toBe(204);
    const remove = await scim('PATCH', `/Groups/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'remove', path: `members[value eq "${bo.id}"]` }],
    });
    expect(remove.status).toBe(204);
    const members = (await scim('GET', `/Groups/${id}`)).body.members.map((member: { value: string }) => member.value);
    expect(members).toEqual([cy.id]);
    expect((await scim('GET', `/Users/${cy.id}`)).body.groups).toEqual([
      { value: id, display: 'Support', $ref: expect.stringContaining(`/Groups/${id}`) },
    ]);

    const renamed = await scim('PATCH', `/Groups/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'replace', value: { id, displayName: 'Customer Support' } }],
    });
    expect(renamed.status).toBe(204);
    expect(
      (await scim('GET', `/Groups?filter=${encodeURIComponent('displayName eq "customer support"')}`)).body.Resources[0],
    ).toMatchObject({ id });
    // The old name is free again; the new one is taken.
    expect((await t.request('POST', '/api/teams', { cookie: admin.cookie, body: { name: 'Support' } })).status).toBe(201);
    expect((await t.request('POST', '/api/teams', { cookie: admin.cookie, body: { name: 'customer support' } })).status).toBe(409);

    expect((await scim('DELETE', `/Groups/${id}`)).status).toBe(204);
    expect((await scim('GET', `/Groups/${id}`)).status).toBe(404);
    expect((await scim('GET', `/Users/${cy.id}`)).body.groups).toEqual([]);
  });
});

describe('SCIM as Microsoft Entra ID provisions', () => {
  it('probes, creates, changes with path operations and string booleans, and deletes a user', async () => {
    const probe = await scim('GET', `/Users?filter=${encodeURIComponent('userName eq "7a8e0c52-0000-4000-8000-000000000000"')}`);
    expect(probe.status).toBe(200);
    expect(probe.body.totalResults).toBe(0);

    const created = await scim('POST', '/Users', {
      schemas: [USER, 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
      externalId: 'dana',
      userName: 'dana@acme.test',
      active: 'True',
      displayName: 'Dana Scully',
      emails: [{ primary: true, type: 'work', value: 'dana@acme.test' }],
      name: { formatted: 'Dana Scully', familyName: 'Scully', givenName: 'Dana' },
      'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department: 'X' },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id;
    const byExternal = await scim('GET', `/Users?filter=${encodeURIComponent('externalId eq "dana"')}`);
    expect(byExternal.body.Resources.map((user: { id: string }) => user.id)).toEqual([id]);

    const changed = await scim('PATCH', `/Users/${id}`, {
      schemas: [PATCH],
      Operations: [
        { op: 'Replace', path: 'displayName', value: 'Agent Scully' },
        { op: 'Replace', path: 'name.givenName', value: 'Danielle' },
        { op: 'Replace', path: 'emails[type eq "work"].value', value: 'd.scully@acme.test' },
        { op: 'Add', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:employeeNumber', value: '42' },
        { op: 'Replace', path: 'active', value: 'False' },
      ],
    });
    expect(changed.status, changed.text).toBe(200);
    expectUser(changed.body, 'd.scully@acme.test');
    expect(changed.body).toMatchObject({ displayName: 'Agent Scully', name: { givenName: 'Danielle' }, active: false });
    // The new address signs in; the old one is free.
    const byOld = await scim('GET', `/Users?filter=${encodeURIComponent('userName eq "dana@acme.test"')}`);
    expect(byOld.body.totalResults).toBe(0);
    const fresh = await t.signUp({ org_name: 'Elsewhere', email: 'dana@acme.test' });
    expect(fresh.org.id).not.toBe(admin.org.id);

    const group = (await scim('POST', '/Groups', { schemas: [GROUP], displayName: 'X-Files', externalId: 'g1', members: [] })).body;
    const add = await scim('PATCH', `/Groups/${group.id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'Add', path: 'members', value: [{ value: id }] }],
    });
    expect(add.status).toBe(204);
    const slim = await scim('GET', `/Groups/${group.id}?excludedAttributes=members`);
    expect(slim.body.members).toBeUndefined();
    const remove = await scim('PATCH', `/Groups/${group.id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'Remove', path: 'members', value: [{ value: id }] }],
    });
    expect(remove.status).toBe(204);
    expect((await scim('GET', `/Groups/${group.id}`)).body.members).toEqual([]);

    expect((await scim('DELETE', `/Users/${id}`)).status).toBe(204);
    expect((await scim('GET', `/Users/${id}`)).body).toMatchObject({ schemas: [ERROR], status: '404' });
  });

  it('pages the user list with startIndex and count', async () => {
    const all = (await scim('GET', '/Users')).body;
    expect(all.totalResults).toBeGreaterThanOrEqual(4);
    const second = (await scim('GET', '/Users?startIndex=2&count=2')).body;
    expect(second).toMatchObject({ startIndex: 2, itemsPerPage: 2, totalResults: all.totalResults });
    expect(second.Resources.map((user: { id: string }) => user.id)).toEqual(
      all.Resources.slice(1, 3).map((user: { id: string }) => user.id),
    );
    const none = (await scim('GET', '/Users?count=0')).body;
    expect(none).toMatchObject({ itemsPerPage: 0, Resources: [] });
  });
});

describe('SCIM tokens, tenancy and bad input', () => {
  it("never reaches another organisation's users or teams with one organisation's token", async () => {
    const other = await t.signUp({ org_name: 'Other' });
    const theirToken = (await t.request('POST', '/api/org/scim/token', { cookie: other.cookie })).body.token;
    const mine = (await scim('POST', '/Users', { schemas: [USER], userName: 'mine@acme.test' })).body;
    expect((await scim('GET', `/Users/${mine.id}`, undefined, theirToken)).status).toBe(404);
    expect(
      (await scim('PATCH', `/Users/${mine.id}`, { Operations: [{ op: 'replace', path: 'active', value: false }] }, theirToken)).status,
    ).toBe(404);
    expect((await scim('DELETE', `/Users/${mine.id}`, undefined, theirToken)).status).toBe(404);
    const theirs = await scim('GET', `/Users?filter=${encodeURIComponent('userName eq "mine@acme.test"')}`, undefined, theirToken);
    expect(theirs.body.totalResults).toBe(0);
    expect((await scim('GET', '/Users', undefined, theirToken)).body.Resources.map((user: { userName: string }) => user.userName)).toEqual([
      other.email,
    ]);
    // A group of theirs cannot take my user as a member.
    const group = await scim('POST', '/Groups', { displayName: 'Theirs', members: [{ value: mine.id }] }, theirToken);
    expect(group.status).toBe(400);
    expect(group.body.detail).toMatch(/not a user of this organisation/);
    // A token naming my organisation with their secret is refused.
    const forged = `scim.${admin.org.id}.${theirToken.split('.')[2]}`;
    expect((await scim('GET', '/Users', undefined, forged)).status).toBe(401);
  });

  it('shows the token once, keeps only its hash, and a new token replaces the old', async () => {
    const status = await t.request('GET', '/api/org/scim', { cookie: admin.cookie });
    expect(status.body.scim).toMatchObject({ base_url: 'http://localhost/scim/v2', token_hint: expect.stringMatching(/^scim\./) });
    expect(status.body.scim.last_sync_at).not.toBeNull();
    expect(JSON.stringify(status.body)).not.toContain(token);
    expect(JSON.stringify(await t.scanTable())).not.toContain(token.split('.')[2]);
    const replaced = await t.request('POST', '/api/org/scim/token', { cookie: admin.cookie });
    expect((await scim('GET', '/Users')).status).toBe(401);
    expect((await scim('GET', '/Users', undefined, replaced.body.token)).status).toBe(200);
    token = replaced.body.token;
    const member = await t.addMember(admin.cookie);
    expect((await t.request('POST', '/api/org/scim/token', { cookie: member.cookie })).status).toBe(403);
    expect((await scim('GET', '/Users', undefined, 'not-a-token')).body).toMatchObject({ schemas: [ERROR], status: '401' });
    expect((await t.request('GET', '/scim/v2/Users')).status).toBe(401);
  });

  it('answers bad requests with a SCIM error, never a 500, and writes nothing', async () => {
    const before = (await scim('GET', '/Users')).body.totalResults;
    const cases: [string, string, unknown, string][] = [
      ['POST', '/Users', { userName: 'not an address' }, 'invalidValue'],
      ['POST', '/Users', { name: { givenName: 'x' } }, 'invalidValue'],
      ['GET', `/Users?filter=${encodeURIComponent('userName co "a"')}`, undefined, 'invalidFilter'],
      ['GET', `/Users?filter=${encodeURIComponent('title eq "a"')}`, undefined, 'invalidFilter'],
      ['PATCH', '/Users/usr_nobody', { Operations: [] }, 'invalidValue'],
      ['POST', '/Groups', { displayName: '' }, 'invalidValue'],
    ];
    for (const [method, path, body, scimType] of cases) {
      const answer = await scim(method, path, body);
      expect(answer.status, `${method} ${path}: ${answer.text}`).toBe(400);
      expect(answer.body).toMatchObject({ schemas: [ERROR], status: '400', scimType });
    }
    const user = (await scim('POST', '/Users', { userName: 'erin@acme.test' })).body;
    const badPatch = await scim('PATCH', `/Users/${user.id}`, { Operations: [{ op: 'replace', path: 'active', value: 'maybe' }] });
    expect(badPatch.body).toMatchObject({ status: '400', scimType: 'invalidValue' });
    const noTarget = await scim('PATCH', `/Users/${user.id}`, { Operations: [{ op: 'remove' }] });
    expect(noTarget.body).toMatchObject({ status: '400', scimType: 'noTarget' });
    const unreadable = await t.request('POST', '/scim/v2/Users', {
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' },
      raw: '{"userName":',
    });
    expect(unreadable.body).toMatchObject({ status: '400', scimType: 'invalidSyntax' });
    expect((await scim('GET', '/Users')).body.totalResults).toBe(before + 1);
    expect((await scim('GET', '/Nothing')).status).toBe(404);
    const config = await scim('GET', '/ServiceProviderConfig');
    expect(config.body).toMatchObject({
      patch: { supported: true },
      filter: { supported: true, maxResults: 200 },
      bulk: { supported: false },
    });
  });

  it('refuses the password sign-in of a deactivated user, and keeps the default team', async () => {
    const member = await t.addMember(admin.cookie);
    const off = await scim('PATCH', `/Users/${member.user.id}`, { Operations: [{ op: 'replace', path: 'active', value: false }] });
    expect(off.status).toBe(200);
    const login = await t.request('POST', '/api/auth/login', { body: { email: member.user.email, password: 'member password' } });
    expect(login.status).toBe(403);
    expect(login.body).toEqual({ error: 'this account has been deactivated by your organisation' });
    expect((await t.request('GET', '/api/workspaces', { cookie: member.cookie })).status).toBe(401);
    const teams = (await scim('GET', '/Groups?excludedAttributes=members')).body.Resources;
    const defaultTeam = teams.find((team: { displayName: string }) => team.displayName === 'General');
    expect((await scim('DELETE', `/Groups/${defaultTeam.id}`)).body).toMatchObject({ status: '409' });
  });
});
