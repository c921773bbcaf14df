import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ssoStateKey } from '../../shared/auth/sso/entities.js';
import { createTestContext, type TestContext } from '../support/context.js';
import {
  SSO_CALLBACK as CALLBACK,
  configureSso,
  SSO_CLIENT,
  ssoBrowser,
  startOidcProvider,
  type ProviderAnswer,
} from '../support/oidc-provider.js';
import { wallClock } from '../support/clock.js';

/*
 * Single sign-on (CONTRACT.md, "Single sign-on and provisioning") against a real OpenID provider on
 * loopback (`oidc-provider`): the whole redirect flow, first sign-in creating the user with the
 * default role or admin by group, and an answer tampered with, replayed, with another nonce or
 * exchanged by another client refused; a domain claimed twice; `required` refusing passwords but
 * to the admin who configured it.
 */

let t: TestContext;
let idp: Awaited<ReturnType<typeof startOidcProvider>>;
let admin: Awaited<ReturnType<TestContext['signUp']>>;
const domain = 'acme-sso.test';

beforeAll(async () => {
  idp = await startOidcProvider();
  idp.start([SSO_CLIENT, { client_id: 'other', client_secret: 'another client secret entirely', redirect_uris: [CALLBACK] }]);
  t = await createTestContext();
  admin = await t.signUp({ org_name: 'Acme' });
  const configured = await configure({});
  expect(configured.status, configured.text).toBe(200);
  expect(configured.body.sso).toMatchObject({ client_secret: '••••••••', redirect_uri: CALLBACK, domains: [domain] });
});
afterAll(async () => {
  await t.close();
  await idp.stop();
});

/** Configures the organisation's single sign-on with this provider, for `domain`, as `configureSso` does unless `overrides` says otherwise. */
function configure(overrides: Record<string, unknown>, cookie = admin.cookie) {
  return configureSso(t, cookie, { issuer: idp.issuer, domains: [domain], ...overrides });
}

/** Starts the sign-in for an address and walks the provider's redirects: the callback URL it sends the browser to, and the browser's cookie. */
async function atProvider(email: string): Promise<ProviderAnswer> {
  const answer = await ssoBrowser(t).atProvider(email);
  const location = answer.started.headers.get('location') ?? '';
  expect(location.startsWith(`${idp.issuer}/`)).toBe(true);
  const authorize = new URL(location);
  expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorize.searchParams.get('state')).toBeTruthy();
  expect(authorize.searchParams.get('nonce')).toBeTruthy();
  return answer;
}

/** The provider's redirect, from the browser that started the sign-in (`callback` changed when given). */
async function finish(answer: ProviderAnswer, callback = answer.callback) {
  return ssoBrowser(t).finish(answer, answer.cookie, callback);
}

describe('single sign-on with OpenID Connect', () => {
  it('signs a new person in, creating them with the default role, and finds them the next time', async () => {
    idp.accounts.set('grace@acme-sso.test', { email: 'grace@acme-sso.test', name: 'Grace Hopper' });
    const answer = await finish(await atProvider('grace@acme-sso.test'));
    expect(answer.status, answer.text).toBe(302);
    expect(answer.headers.get('location')).toBe('/');
    const cookie = t.cookieOf(answer);
    const session = await t.request('GET', '/api/auth/session', { cookie });
    expect(session.body.user).toMatchObject({ email: 'grace@acme-sso.test', name: 'Grace Hopper', role: 'member', org_id: admin.org.id });
    const again = await finish(await atProvider('grace@acme-sso.test'));
    const second = await t.request('GET', '/api/auth/session', { cookie: t.cookieOf(again) });
    expect(second.body.user.id).toBe(session.body.user.id);
    const users = await t.request('GET', '/api/org/users', { cookie: admin.cookie });
    expect(users.body.users.filter((user: { email: string }) => user.email === 'grace@acme-sso.test')).toHaveLength(1);
  });

  it('makes a person admin when the groups claim holds the admin group', async () => {
    idp.accounts.set('linus@acme-sso.test', { email: 'linus@acme-sso.test', name: 'Linus', groups: ['staff', 'wap-admins'] });
    const answer = await finish(await atProvider('linus@acme-sso.test'));
    const session = await t.request('GET', '/api/auth/session', { cookie: t.cookieOf(answer) });
    expect(session.body.user.role).toBe('admin');
  });

  it('refuses a tampered state, a replayed answer and an answer whose nonce is not the one sent', async () => {
    idp.accounts.set('eve@acme-sso.test', { email: 'eve@acme-sso.test', name: 'Eve' });
    const callback = await atProvider('eve@acme-sso.test');
    const tampered = new URL(callback.callback);
    tampered.searchParams.set('state', 'not-the-state-that-was-sent');
    expect((await finish(callback, tampered)).status).toBe(401);
    expect((await finish(callback)).status).toBe(302);
    const replayed = await finish(callback);
    expect(replayed.status).toBe(401);
    expect(replayed.body.error).toMatch(/expired or was already used/);

    const another = await atProvider('eve@acme-sso.test');
    const state = another.callback.searchParams.get('state') ?? '';
    // The service expects another nonce than the provider put in the ID token.
    await t.deps.table.update(ssoStateKey(state), { update: 'SET nonce = :nonce', values: { ':nonce': 'a-different-nonce' } });
    const wrongNonce = await finish(another);
    expect(wrongNonce.status).toBe(401);
    expect(wrongNonce.body.error).toMatch(/could not be verified/);
    expect(wrongNonce.headers.get('set-cookie') ?? '').not.toContain('service_session=');
  });

  it('refuses a validly signed ID token made for another audience, and one that has expired', async () => {
    idp.accounts.set('oscar@acme-sso.test', { email: 'oscar@acme-sso.test', name: 'Oscar' });
    const cases: [string, (claims: Record<string, unknown>) => Record<string, unknown>][] = [
      ['another audience', (claims) => ({ ...claims, aud: 'other' })],
      // Past the client's 30 s clock tolerance.
      ['expired', (claims) => ({ ...claims, iat: Math.floor(wallClock.ms() / 1000) - 3600, exp: Math.floor(wallClock.ms() / 1000) - 600 })],
    ];
    try {
      for (const [what, change] of cases) {
        idp.tamperIdTokens(change);
        const answer = await finish(await atProvider('oscar@acme-sso.test'));
        expect(answer.status, what).toBe(401);
        expect(answer.body.error).toMatch(/could not be verified/);
        expect(answer.headers.get('set-cookie') ?? '').not.toContain('service_session=');
      }
      // The same sign-in with the token as issued succeeds: only the claim changed was wrong.
      idp.tamperIdTokens((claims) => claims);
      expect((await finish(await atProvider('oscar@acme-sso.test'))).status).toBe(302);
    } finally {
      idp.tamperIdTokens(undefined);
    }
    const users = await t.request('GET', '/api/org/users', { cookie: admin.cookie });
    expect(users.body.users.filter((user: { email: string }) => user.email === 'oscar@acme-sso.test')).toHaveLength(1);
  });

  it('refuses the sign-in of a person the provider deactivated through SCIM, and signs their session out', async () => {
    idp.accounts.set('quinn@acme-sso.test', { email: 'quinn@acme-sso.test', name: 'Quinn' });
    const cookie = t.cookieOf(await finish(await atProvider('quinn@acme-sso.test')));
    const id = (await t.request('GET', '/api/auth/session', { cookie })).body.user.id;
    const token = (await t.request('POST', '/api/org/scim/token', { cookie: admin.cookie })).body.token;
    const off = await t.request('PATCH', `/scim/v2/Users/${id}`, {
      headers: { authorization: `Bearer ${token}` },
      body: { Operations: [{ op: 'replace', path: 'active', value: false }] },
    });
    expect(off.status, off.text).toBe(200);
    expect((await t.request('GET', '/api/workspaces', { cookie })).status).toBe(401);
    const again = await finish(await atProvider('quinn@acme-sso.test'));
    expect(again.status).toBe(403);
    expect(again.body).toEqual({ error: 'this account has been deactivated by your organisation' });
  });

  it('refuses a code exchanged by another client than the one it was issued to', async () => {
    idp.accounts.set('mallory@acme-sso.test', { email: 'mallory@acme-sso.test', name: 'Mallory' });
    const callback = await atProvider('mallory@acme-sso.test');
    expect((await configure({ client_id: 'other', client_secret: 'another client secret entirely' })).status).toBe(200);
    try {
      expect((await finish(callback)).status).toBe(401);
    } finally {
      expect((await configure({})).status).toBe(200);
    }
  });

  it('answers 404 for an address of a domain no organisation signs in, and 409 for a domain another organisation holds', async () => {
    expect((await t.request('GET', '/api/auth/sso?email=someone%40elsewhere.test')).status).toBe(404);
    const other = await t.signUp({ org_name: 'Other' });
    const taken = await configure({}, other.cookie);
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatch(/acme-sso\.test signs in through another organisation/);
    expect((await t.request('GET', '/api/org/sso', { cookie: other.cookie })).body).toEqual({ sso: null });
  });

  it('with required, refuses password sign-in but to the admin who configured it', async () => {
    const member = await t.addMember(admin.cookie);
    expect((await configure({ required: true })).status).toBe(200);
    try {
      const refused = await t.request('POST', '/api/auth/login', { body: { email: member.user.email, password: 'member password' } });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ error: 'this organisation signs in with single sign-on' });
      const breakGlass = await t.request('POST', '/api/auth/login', { body: { email: admin.email, password: 'correct horse battery' } });
      expect(breakGlass.status, breakGlass.text).toBe(200);
    } finally {
      expect((await configure({ required: false })).status).toBe(200);
    }
  });

  it('holds no more than a few sign-ins of one organisation on a provider that never answers: the others are 429 at once', async () => {
    // A tenant points its issuer at a server that accepts and never answers, then starts sign-ins.
    const held: import('node:http').ServerResponse[] = [];
    const tarpit = createServer((_req, res) => held.push(res));
    await new Promise<void>((resolve) => tarpit.listen(0, '127.0.0.1', resolve));
    const tenant = await t.signUp({ org_name: 'Tarpit' });
    const put = await configure(
      { issuer: `http://127.0.0.1:${(tarpit.address() as AddressInfo).port}`, domains: ['tarpit.test'] },
      tenant.cookie,
    );
    expect(put.status, put.text).toBe(200);
    try {
      const started = performance.now();
      const answers = Array.from({ length: 12 }, (_, index) => t.request('GET', `/api/auth/sso?email=p${index}%40tarpit.test`));
      // The refused ones answer at once, while the provider still holds the others.
      const quick = await Promise.race([
        Promise.all(answers.slice(4)),
        new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 2_000)),
      ]);
      expect(quick?.map((answer) => answer.status)).toEqual(Array(8).fill(429));
      expect(performance.now() - started).toBeLessThan(2_000);
      tarpit.closeAllConnections();
      for (const answer of await Promise.all(answers.slice(0, 4))) expect(answer.status).toBe(401);
    } finally {
      tarpit.closeAllConnections();
      await new Promise((resolve) => tarpit.close(resolve));
      await t.request('DELETE', '/api/org/sso', { cookie: tenant.cookie });
    }
  });

  it("checks a provider's discovery before it is saved: ok with its endpoint, or why not", async () => {
    const good = await t.request('POST', '/api/org/sso/test', { cookie: admin.cookie, body: { issuer: idp.issuer, client_id: 'wap' } });
    expect(good.status, good.text).toBe(200);
    expect(good.body).toEqual({
      ok: true,
      issuer: idp.issuer,
      authorization_endpoint: expect.stringMatching(new RegExp(`^${idp.issuer}/`)),
    });
    const bad = await t.request('POST', '/api/org/sso/test', {
      cookie: admin.cookie,
      body: { issuer: 'http://127.0.0.1:1/nowhere', client_id: 'wap' },
    });
    expect(bad.body).toEqual({ ok: false, error: 'the identity provider could not be reached (http://127.0.0.1:1/nowhere)' });
  });

  it('keeps the client secret sealed in the table and masked in answers; only admins read or change the setting', async () => {
    const stored = (await t.scanTable()).find((item) => item.pk === `ORG#${admin.org.id}` && item.sk === 'SSO');
    expect(JSON.stringify(stored)).not.toContain('the client secret of the service');
    const read = await t.request('GET', '/api/org/sso', { cookie: admin.cookie });
    expect(read.body.sso.client_secret).toBe('••••••••');
    const member = await t.addMember(admin.cookie);
    expect((await t.request('GET', '/api/org/sso', { cookie: member.cookie })).status).toBe(403);
    expect((await configure({}, member.cookie)).status).toBe(403);
  });
});
