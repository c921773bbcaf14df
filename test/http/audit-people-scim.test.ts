import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../support/context.js';

/*
 * Audit 10 (SCIM part), 11 and 12 (issue 45): SCIM names go through the users API's schema; SCIM
 * never leaves an organisation without an active admin (nor does the users API, even when two
 * admins remove each other at once); a PUT without `active` keeps the stored one.
 */

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

let t: TestContext;

beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => {
  await t.close();
});

/** A new organisation with its SCIM token. */
async function provisionedOrg() {
  const admin = await t.signUp();
  const made = await t.request('POST', '/api/org/scim/token', { cookie: admin.cookie });
  expect(made.status, made.text).toBe(201);
  const token = made.body.token as string;
  const scim = (method: string, path: string, body?: unknown) =>
    t.request(method, `/scim/v2${path}`, {
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/scim+json' } : {}) },
      ...(body ? { raw: JSON.stringify(body) } : {}),
    });
  return { admin, scim };
}

const patchActive = (active: boolean | string) => ({ schemas: [PATCH], Operations: [{ op: 'replace', value: { active } }] });

async function activeAdmins(cookie: string): Promise<string[]> {
  const users = await t.request('GET', '/api/org/users', { cookie });
  return users.body.users
    .filter((user: { org_role: string; active: boolean }) => user.org_role === 'admin' && user.active)
    .map((user: { id: string }) => user.id);
}

describe('SCIM names and addresses', () => {
  const hostile = {
    'a right-to-left override': 'Ana \u202Egnp.exe',
    'a zero-width space': 'Ana\u200BLima',
    'a control character': 'Ana\u0007Lima',
    'a lone surrogate': 'Ana \uD800',
  };

  it('audit 10 (SCIM names skip validation): create, PUT and PATCH refuse control and format characters with 400 invalidValue, and write nothing', async () => {
    const { admin, scim } = await provisionedOrg();
    const before = (await t.request('GET', '/api/org/users', { cookie: admin.cookie })).body.users;
    const target = await scim('POST', '/Users', { schemas: [USER], userName: 'clean@acme.test', displayName: 'Clean Name' });
    expect(target.status, target.text).toBe(201);
    for (const [what, name] of Object.entries(hostile)) {
      const bodies = [
        { schemas: [USER], userName: 'eve@acme.test', displayName: name },
        { schemas: [USER], userName: 'eve@acme.test', name: { givenName: name } },
        { schemas: [USER], userName: 'eve@acme.test', name: { familyName: name } },
        { schemas: [USER], userName: 'eve@acme.test', name: { formatted: name } },
      ];
      for (const body of bodies) {
        const created = await scim('POST', '/Users', body);
        expect(created.status, `${what}: ${created.text}`).toBe(400);
        expect(created.body).toMatchObject({ schemas: [ERROR], status: '400', scimType: 'invalidValue' });
        const replaced = await scim('PUT', `/Users/${target.body.id}`, { ...body, userName: 'clean@acme.test' });
        expect(replaced.status, `${what}: ${replaced.text}`).toBe(400);
        expect(replaced.body.scimType).toBe('invalidValue');
      }
      const patches = [
        { op: 'replace', path: 'displayName', value: name },
        { op: 'replace', path: 'name.givenName', value: name },
        { op: 'replace', value: { displayName: name } },
        { op: 'replace', value: { 'name.familyName': name } },
        { op: 'replace', path: 'name', value: { formatted: name } },
      ];
      for (const operation of patches) {
        const patched = await scim('PATCH', `/Users/${target.body.id}`, { schemas: [PATCH], Operations: [operation] });
        expect(patched.status, `${what}: ${patched.text}`).toBe(400);
        expect(patched.body).toMatchObject({ schemas: [ERROR], scimType: 'invalidValue' });
      }
    }
    const stored = await scim('GET', `/Users/${target.body.id}`);
    expect(stored.body).toMatchObject({ displayName: 'Clean Name', name: { formatted: 'Clean Name' } });
    expect(stored.body.name.givenName).toBeUndefined();
    const after = (await t.request('GET', '/api/org/users', { cookie: admin.cookie })).body.users;
    expect(after).toHaveLength(before.length + 1);
  });

  it('audit 10 (SCIM names skip validation): names the users API accepts still pass, an emoji with its joiner among them', async () => {
    const { scim } = await provisionedOrg();
    const created = await scim('POST', '/Users', {
      schemas: [USER],
      userName: 'zoe@acme.test',
      displayName: '  Zoë 👩‍💻 Brontë  ',
      name: { givenName: 'Zoë', familyName: 'Brontë' },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ displayName: 'Zoë 👩‍💻 Brontë', name: { givenName: 'Zoë', familyName: 'Brontë' } });
    // Empty parts are read as absent, as before.
    const blank = await scim('POST', '/Users', {
      schemas: [USER],
      userName: 'ben@acme.test',
      displayName: '',
      name: { givenName: 'Ben', familyName: ' ' },
    });
    expect(blank.status, blank.text).toBe(201);
    expect(blank.body.displayName).toBe('Ben');
  });

  it('audit 10 (SCIM addresses): an address with two @ is refused, not read as the first domain', async () => {
    const { scim } = await provisionedOrg();
    const created = await scim('POST', '/Users', { schemas: [USER], userName: 'ceo@acme.test@victim.example' });
    expect(created.status, created.text).toBe(400);
    expect(created.body.scimType).toBe('invalidValue');
  });
});

describe('the last active admin', () => {
  it('audit 11 (SCIM deletes the last admin): DELETE, PATCH active false and PUT active false of the only admin are 409, and change nothing', async () => {
    const { admin, scim } = await provisionedOrg();
    const deleted = await scim('DELETE', `/Users/${admin.user.id}`);
    expect(deleted.status, deleted.text).toBe(409);
    expect(deleted.body).toMatchObject({ schemas: [ERROR], status: '409', detail: expect.stringMatching(/active admin/) });
    const patched = await scim('PATCH', `/Users/${admin.user.id}`, patchActive('False'));
    expect(patched.status, patched.text).toBe(409);
    const put = await scim('PUT', `/Users/${admin.user.id}`, { schemas: [USER], userName: admin.email, active: false });
    expect(put.status, put.text).toBe(409);
    expect(put.body.schemas).toEqual([ERROR]);
    expect(await activeAdmins(admin.cookie)).toEqual([admin.user.id]);
    expect((await t.request('GET', '/api/org/settings', { cookie: admin.cookie })).status).toBe(200);
  });

  it('audit 11 (SCIM deletes the last admin): a deactivated admin does not count; with another active admin, one may go', async () => {
    const { admin, scim } = await provisionedOrg();
    const second = await t.addMember(admin.cookie, { org_role: 'admin' });
    expect((await scim('PATCH', `/Users/${second.user.id}`, patchActive(false))).status).toBe(200);
    // The only active admin left.
    expect((await scim('DELETE', `/Users/${admin.user.id}`)).status).toBe(409);
    expect((await scim('PATCH', `/Users/${second.user.id}`, patchActive(true))).status).toBe(200);
    expect((await scim('DELETE', `/Users/${admin.user.id}`)).status).toBe(204);
    expect((await scim('DELETE', `/Users/${second.user.id}`)).status).toBe(409);
    // Members come and go as before.
    const member = await t.addMember(second.cookie);
    expect((await scim('PATCH', `/Users/${member.user.id}`, patchActive(false))).status).toBe(200);
    expect((await scim('DELETE', `/Users/${member.user.id}`)).status).toBe(204);
  });

  it('audit 11 (SCIM deletes the last admin): of two admins deleted at once, exactly one goes', async () => {
    const { admin, scim } = await provisionedOrg();
    const second = await t.addMember(admin.cookie, { org_role: 'admin' });
    const answers = await Promise.all([scim('DELETE', `/Users/${admin.user.id}`), scim('DELETE', `/Users/${second.user.id}`)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([204, 409]);
    const survivor = answers[0]?.status === 409 ? admin : second;
    expect(await activeAdmins(survivor.cookie)).toEqual([survivor.user.id]);
  });

  it('audit 11 (the last admin, users API): two admins removing each other at once leave one admin', async () => {
    const admin = await t.signUp();
    const second = await t.addMember(admin.cookie, { org_role: 'admin' });
    const answers = await Promise.all([
      t.request('DELETE', `/api/org/users/${second.user.id}`, { cookie: admin.cookie }),
      t.request('DELETE', `/api/org/users/${admin.user.id}`, { cookie: second.cookie }),
    ]);
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    const survivor = answers[0]?.status === 200 ? admin : second;
    expect(await activeAdmins(survivor.cookie)).toEqual([survivor.user.id]);
  });
});

describe('a SCIM PUT', () => {
  it('audit 12 (SCIM PUT without active reactivates): a PUT that leaves active out keeps the stored value', async () => {
    const { admin, scim } = await provisionedOrg();
    const created = await scim('POST', '/Users', { schemas: [USER], userName: 'off@acme.test', displayName: 'Off Duty' });
    const id = created.body.id as string;
    expect((await scim('PATCH', `/Users/${id}`, patchActive(false))).status).toBe(200);
    const put = await scim('PUT', `/Users/${id}`, { schemas: [USER], userName: 'off@acme.test', displayName: 'Off Duty, renamed' });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({ active: false, displayName: 'Off Duty, renamed' });
    const listed = await t.request('GET', '/api/org/users', { cookie: admin.cookie });
    expect(listed.body.users.find((user: { id: string }) => user.id === id).active).toBe(false);
    // Said explicitly, it changes.
    const on = await scim('PUT', `/Users/${id}`, { schemas: [USER], userName: 'off@acme.test', active: true });
    expect(on.body.active).toBe(true);
  });
});
