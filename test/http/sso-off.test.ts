import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../support/context.js';
import { configureSso, SSO_CLIENT, startOidcProvider } from '../support/oidc-provider.js';

/*
 * Single sign-on that is off is an answer, not an error (issue 47): `GET /api/org/sso` answers 200
 * `{ sso: null }` before it is configured and after it is turned off, so the console's page asks
 * without a 404 in the browser's console on every visit. Only admins read it, as before.
 */

let t: TestContext;
let idp: Awaited<ReturnType<typeof startOidcProvider>>;

beforeAll(async () => {
  idp = await startOidcProvider();
  idp.start([SSO_CLIENT]);
  t = await createTestContext();
});
afterAll(async () => {
  await t.close();
  await idp.stop();
});

describe('GET /api/org/sso', () => {
  it('answers { sso: null } while single sign-on is off: before it is configured and once it is turned off', async () => {
    const admin = await t.signUp({ org_name: 'Off and on' });
    const read = () => t.request('GET', '/api/org/sso', { cookie: admin.cookie });
    const before = await read();
    expect(before.status, before.text).toBe(200);
    expect(before.body).toEqual({ sso: null });

    const configured = await configureSso(t, admin.cookie, { issuer: idp.issuer, domains: ['off-and-on.test'] });
    expect(configured.status, configured.text).toBe(200);
    expect((await read()).body.sso).toMatchObject({ issuer: idp.issuer, domains: ['off-and-on.test'], client_secret: '••••••••' });

    expect((await t.request('DELETE', '/api/org/sso', { cookie: admin.cookie })).status).toBe(200);
    const after = await read();
    expect(after.status, after.text).toBe(200);
    expect(after.body).toEqual({ sso: null });
  });

  it('is still for admins only: a member is 403, off or not', async () => {
    const admin = await t.signUp({ org_name: 'Members' });
    const member = await t.addMember(admin.cookie);
    const read = await t.request('GET', '/api/org/sso', { cookie: member.cookie });
    expect(read.status).toBe(403);
    expect(read.body).toEqual({ error: expect.any(String) });
  });
});
