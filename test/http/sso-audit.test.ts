import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ssoDomainKey, ssoKey, ssoStateKey } from '../../shared/auth/sso/entities.js';
import { ssoOfEmail } from '../../shared/auth/sso/config.js';
import { createTestContext, TEST_ADDRESS_HEADER, type TestContext } from '../support/context.js';
import { configureSso, SSO_CLIENT, ssoBrowser, startOidcProvider } from '../support/oidc-provider.js';

/*
 * The third audit's attacks on single sign-on (issue 45: findings 1, 6, 7, 9, 10 and 13, and the
 * groups scope), each against a real OpenID provider on loopback, each failing on the code before
 * its fix.
 */

let t: TestContext;
let idp: Awaited<ReturnType<typeof startOidcProvider>>;
let admin: Awaited<ReturnType<TestContext['signUp']>>;
let browser: ReturnType<typeof ssoBrowser>;
const domain = 'acme-audit.test';

beforeAll(async () => {
  idp = await startOidcProvider();
  idp.start([SSO_CLIENT]);
  t = await createTestContext();
  browser = ssoBrowser(t);
  admin = await t.signUp({ org_name: 'Acme Audit' });
  const configured = await configure({});
  expect(configured.status, configured.text).toBe(200);
});
afterAll(async () => {
  await t.close();
  await idp.stop();
});

/** Configures the organisation's single sign-on with this provider, for `domain`, as `configureSso` does unless `overrides` says otherwise. */
function configure(overrides: Record<string, unknown>, cookie = admin.cookie) {
  return configureSso(t, cookie, { issuer: idp.issuer, domains: [domain], ...overrides });
}

const sessionOf = async (cookie: string) => (await t.request('GET', '/api/auth/session', { cookie })).body;
const hasSessionCookie = (answer: { headers: Headers }) => (answer.headers.get('set-cookie') ?? '').includes('service_session=');
const usersNamed = async (email: string) =>
  (await t.request('GET', '/api/org/users', { cookie: admin.cookie })).body.users.filter((user: { email: string }) => user.email === email);

describe('single sign-on under attack (issue 45)', () => {
  it('audit 1 (login CSRF): a callback from a browser that did not start the sign-in is refused, and the state stays for the one that did', async () => {
    idp.accounts.set('attacker@acme-audit.test', { email: 'attacker@acme-audit.test', name: 'Attacker' });
    // The attacker starts a sign-in as themself and stops before the callback: the URL goes to a victim.
    const attackers = await browser.atProvider('attacker@acme-audit.test');
    const state = attackers.callback.searchParams.get('state') ?? '';
    const bare = await browser.finish(attackers, null);
    expect(bare.status, bare.text).toBe(401);
    expect(bare.body.error).toMatch(/not started in this browser/);
    expect(hasSessionCookie(bare)).toBe(false);
    // A victim in the middle of a sign-in of their own holds a binding cookie, but not this sign-in's.
    idp.accounts.set('victim@acme-audit.test', { email: 'victim@acme-audit.test', name: 'Victim' });
    const victims = await browser.atProvider('victim@acme-audit.test');
    const crossed = await browser.finish(attackers, victims.cookie);
    expect(crossed.status, crossed.text).toBe(401);
    expect(hasSessionCookie(crossed)).toBe(false);
    expect(await t.deps.table.get(ssoStateKey(state), true)).toBeDefined();

    // The cookie: HttpOnly, SameSite=Lax, only sent to the callback, as long-lived as the state.
    const set = attackers.started.headers.get('set-cookie') ?? '';
    expect(set).toMatch(/HttpOnly/i);
    expect(set).toMatch(/SameSite=Lax/i);
    expect(set).toMatch(/Path=\/api\/auth\/sso\/callback/);
    expect(set).toMatch(/Max-Age=600/);
    expect(set).not.toMatch(/Secure/);
    // The browser that started it signs in, and its binding cookie is cleared.
    const own = await browser.finish(attackers);
    expect(own.status, own.text).toBe(302);
    expect((await sessionOf(t.cookieOf(own))).user.email).toBe('attacker@acme-audit.test');
    expect(own.headers.get('set-cookie')).toMatch(/service_sso=;[^,]*Max-Age=0/);
    expect((await browser.finish(victims)).status).toBe(302);
    // Over https the cookie is Secure.
    const secure = await t.request('GET', `https://localhost/api/auth/sso?email=${encodeURIComponent('victim@acme-audit.test')}`);
    expect(secure.status).toBe(302);
    expect(secure.headers.get('set-cookie')).toMatch(/service_sso=[^;]+;.*Secure/);
  });

  it('audit 6 (SSO domain takeover): another organisation cannot delete a domain claim through any PUT or DELETE', async () => {
    const attacker = await t.signUp({ org_name: 'Takeover' });
    expect((await configure({ domains: ['takeover.test'] }, attacker.cookie)).status).toBe(200);
    // The state a race left before: the attacker's setting lists the victim's domain, which the victim holds.
    await t.deps.table.update(ssoKey(attacker.org.id), {
      update: 'SET #domains = :domains',
      names: { '#domains': 'domains' },
      values: { ':domains': ['takeover.test', domain] },
    });
    const holder = async () => (await t.deps.table.get<{ org_id: string }>(ssoDomainKey(domain), true))?.org_id;
    expect((await configure({ domains: ['takeover.test'] }, attacker.cookie)).status).toBe(200);
    expect(await holder()).toBe(admin.org.id);
    await t.deps.table.update(ssoKey(attacker.org.id), {
      update: 'SET #domains = :domains',
      names: { '#domains': 'domains' },
      values: { ':domains': ['takeover.test', domain] },
    });
    expect((await t.request('DELETE', '/api/org/sso', { cookie: attacker.cookie })).status).toBe(200);
    expect(await holder()).toBe(admin.org.id);
    const taken = await configure({ domains: [domain] }, attacker.cookie);
    expect(taken.status).toBe(409);
    expect(await holder()).toBe(admin.org.id);
    // The victim's people still sign in through the victim's provider.
    idp.accounts.set('owner@acme-audit.test', { email: 'owner@acme-audit.test', name: 'Owner' });
    const signedIn = await browser.finish(await browser.atProvider('owner@acme-audit.test'));
    expect((await sessionOf(t.cookieOf(signedIn))).user.org_id).toBe(admin.org.id);
  });

  it('audit 6 (SSO domain takeover): parallel PUTs and DELETEs of one organisation leave every listed domain claimed by it, and no other', async () => {
    const tenant = await t.signUp({ org_name: 'Racer' });
    const pool = ['r1.test', 'r2.test', 'r3.test', 'r4.test'];
    const sets = [['r1.test'], ['r2.test'], ['r1.test', 'r2.test'], ['r3.test'], ['r4.test', 'r1.test'], ['r2.test', 'r3.test', 'r4.test']];
    for (let round = 0; round < 6; round += 1) {
      const puts = sets.map((domains) => configure({ domains }, tenant.cookie));
      const deletes = round % 2 ? [t.request('DELETE', '/api/org/sso', { cookie: tenant.cookie })] : [];
      const answers = await Promise.all([...puts, ...deletes]);
      for (const answer of answers) expect([200, 404, 409], answer.text).toContain(answer.status);
      expect(answers.some((answer) => answer.status === 200)).toBe(true);
      const setting = await t.request('GET', '/api/org/sso', { cookie: tenant.cookie });
      expect(setting.status, setting.text).toBe(200);
      const listed: string[] = setting.body.sso?.domains ?? [];
      for (const name of pool) {
        const claim = await t.deps.table.get<{ org_id: string }>(ssoDomainKey(name), true);
        expect({ round, name, claimed: claim?.org_id === tenant.org.id }).toEqual({ round, name, claimed: listed.includes(name) });
      }
    }
  });

  it('audit 7 (unverified e-mail): a missing or "false" email_verified neither links to an existing account nor makes one, and says why', async () => {
    const member = await t.request('POST', '/api/org/users', {
      cookie: admin.cookie,
      body: { name: 'Vera', email: 'vera@acme-audit.test', password: 'member password', org_role: 'member' },
    });
    expect(member.status, member.text).toBe(201);
    for (const emailVerified of [null, 'false', false]) {
      idp.accounts.set('vera@acme-audit.test', { email: 'vera@acme-audit.test', name: 'Not Vera', emailVerified });
      const answer = await browser.finish(await browser.atProvider('vera@acme-audit.test'));
      expect(answer.status, `${emailVerified}: ${answer.text}`).toBe(403);
      expect(answer.body.error).toMatch(/verified e-mail/);
      expect(hasSessionCookie(answer)).toBe(false);
    }
    idp.accounts.set('newcomer@acme-audit.test', { email: 'newcomer@acme-audit.test', name: 'Newcomer', emailVerified: null });
    const first = await browser.finish(await browser.atProvider('newcomer@acme-audit.test'));
    expect(first.status, first.text).toBe(403);
    expect(await usersNamed('newcomer@acme-audit.test')).toHaveLength(0);
    // The string "true" is a verified address as the boolean is.
    idp.accounts.set('vera@acme-audit.test', { email: 'vera@acme-audit.test', name: 'Vera', emailVerified: 'true' });
    const linked = await browser.finish(await browser.atProvider('vera@acme-audit.test'));
    expect(linked.status, linked.text).toBe(302);
    expect((await sessionOf(t.cookieOf(linked))).user.id).toBe(member.body.user.id);
  });

  it('audit 9 (required single sign-on): a right and a wrong password get the same 403, before the password is checked', async () => {
    await t.addMember(admin.cookie, { email: 'pat@acme-audit.test', password: 'member password' });
    expect((await configure({ required: true })).status).toBe(200);
    try {
      const refused = { error: 'this organisation signs in with single sign-on' };
      for (const [email, password] of [
        ['pat@acme-audit.test', 'member password'],
        ['pat@acme-audit.test', 'a wrong password'],
        ['nobody-here@acme-audit.test', 'any password at all'],
      ]) {
        const answer = await t.request('POST', '/api/auth/login', { body: { email, password } });
        expect({ email, password, status: answer.status, body: answer.body }).toEqual({ email, password, status: 403, body: refused });
      }
      const breakGlass = await t.request('POST', '/api/auth/login', { body: { email: admin.email, password: 'a wrong password' } });
      expect(breakGlass.status).toBe(401);
    } finally {
      expect((await configure({ required: false })).status).toBe(200);
    }
  });

  it("audit 9 (required single sign-on): turning it on ends the organisation's password sessions, not single sign-on ones nor the configuring admin's", async () => {
    const member = await t.addMember(admin.cookie, { email: 'quentin@acme-audit.test', password: 'member password' });
    idp.accounts.set('sso-only@acme-audit.test', { email: 'sso-only@acme-audit.test', name: 'Sol' });
    const sso = t.cookieOf(await browser.finish(await browser.atProvider('sso-only@acme-audit.test')));
    expect((await sessionOf(member.cookie))?.user.email).toBe('quentin@acme-audit.test');
    expect((await configure({ required: true })).status).toBe(200);
    try {
      expect(await sessionOf(member.cookie)).toBeNull();
      expect((await t.request('GET', '/api/workspaces', { cookie: member.cookie })).status).toBe(401);
      expect((await sessionOf(sso))?.user.email).toBe('sso-only@acme-audit.test');
      expect((await t.request('GET', '/api/org/sso', { cookie: admin.cookie })).status).toBe(200);
    } finally {
      expect((await configure({ required: false })).status).toBe(200);
    }
    const again = await t.request('POST', '/api/auth/login', { body: { email: 'quentin@acme-audit.test', password: 'member password' } });
    expect(again.status, again.text).toBe(200);
  });

  it('audit 10 (names and addresses from SSO): a name the users API refuses is not stored, and the domain is the part after the last @', async () => {
    idp.accounts.set('ctrl@acme-audit.test', { email: 'ctrl@acme-audit.test', name: 'Evil\u202Egnp.exe\u0007' });
    const named = await browser.finish(await browser.atProvider('ctrl@acme-audit.test'));
    expect(named.status, named.text).toBe(302);
    expect((await sessionOf(t.cookieOf(named))).user.name).toBe('ctrl@acme-audit.test');

    idp.accounts.set('ceo@acme-audit.test', { email: 'ceo@acme-audit.test@victim.example', name: 'The CEO' });
    const twoAts = await browser.finish(await browser.atProvider('ceo@acme-audit.test'));
    expect(twoAts.status, twoAts.text).toBe(403);
    expect(hasSessionCookie(twoAts)).toBe(false);
    expect(await usersNamed('ceo@acme-audit.test@victim.example')).toHaveLength(0);
    expect(await ssoOfEmail(t.deps, 'ceo@acme-audit.test@victim.example')).toBeUndefined();
    expect((await ssoOfEmail(t.deps, 'ceo@victim.example@acme-audit.test'))?.org_id).toBe(admin.org.id);
  });

  it('audit 13 (unthrottled sign-in starts): starts from one address past 50 in 15 minutes are 429 with Retry-After and write no state', async () => {
    const states = async () => (await t.scanTable()).filter((item) => String(item.pk).startsWith('SSOSTATE#')).length;
    const from = (address: string) => ({ [TEST_ADDRESS_HEADER]: address });
    const start = (address: string) =>
      t.request('GET', `/api/auth/sso?email=${encodeURIComponent('someone@acme-audit.test')}`, { headers: from(address) });
    const before = await states();
    // Completed sign-ins give their start back: only abandoned ones add up.
    idp.accounts.set('office@acme-audit.test', { email: 'office@acme-audit.test', name: 'Office' });
    for (let index = 0; index < 3; index += 1) {
      const answer = await browser.finish(await browser.atProvider('office@acme-audit.test', from('203.0.113.13')));
      expect(answer.status, answer.text).toBe(302);
    }
    const answers = await Promise.all(Array.from({ length: 60 }, () => start('203.0.113.13')));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([...Array(50).fill(302), ...Array(10).fill(429)]);
    const refused = answers.find((answer) => answer.status === 429);
    expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused?.body.error).toMatch(/from your address/);
    expect((await states()) - before).toBe(50);
    // Another address is not held back, and the first one starts again in the next window.
    expect((await start('203.0.113.14')).status).toBe(302);
    t.clock.advance(15 * 60_000);
    expect((await start('203.0.113.13')).status).toBe(302);
  });

  it('defect (groups scope): asks for the groups scope the provider lists, so an admin group released only under it makes an admin', async () => {
    idp.accounts.set('gina@acme-audit.test', { email: 'gina@acme-audit.test', name: 'Gina', groups: ['staff', 'wap-admins'] });
    const answer = await browser.atProvider('gina@acme-audit.test');
    const scope = new URL(answer.started.headers.get('location') ?? '').searchParams.get('scope') ?? '';
    expect(scope.split(' ').sort()).toEqual(['email', 'groups', 'openid', 'profile']);
    const signedIn = await browser.finish(answer);
    expect((await sessionOf(t.cookieOf(signedIn))).user.role).toBe('admin');
  });
});
