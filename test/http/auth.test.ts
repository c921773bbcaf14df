import { SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LOGIN_LIMITS, LOGIN_WINDOW_SECONDS } from '../../shared/auth/accounts.js';
import { createTestContext, TEST_ADDRESS_HEADER, TEST_SESSION_SECRET, type TestContext } from '../support/context.js';

const LOGIN_FAILURE_LIMIT = LOGIN_LIMITS.accountFromAddress;
/** One client's address, so the per-address limits see the same client each time. */
const fromOneClient = { [TEST_ADDRESS_HEADER]: '203.0.113.7' };

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => {
  await t.close();
});

function payloadOf(cookie: string): Record<string, unknown> {
  const token = cookie.split('=')[1] ?? '';
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));
}

describe('POST /api/signup', () => {
  it('creates an organisation, its General team and an admin, and sets the session cookie', async () => {
    const email = t.uniqueEmail();
    const response = await t.request('POST', '/api/signup', {
      body: { name: 'Grace Hopper', email, password: 'compilers!' },
    });
    expect(response.status).toBe(201);
    expect(response.body.user).toMatchObject({ name: 'Grace Hopper', email, org_role: 'admin' });
    expect(response.body.user.id).toMatch(/^usr_/);
    expect(response.body.org).toMatchObject({ name: "Grace Hopper's organisation", slug: 'grace-hopper-s-organisation' });
    expect(response.body.user).not.toHaveProperty('password_hash');

    const setCookie = response.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^service_session=[\w-]+\.[\w-]+\.[\w-]+;/);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Lax');
    expect(setCookie).toContain('Path=/');
    expect(setCookie).toContain('Max-Age=604800');
    // Not production: no Secure (the local runtime serves plain http on loopback).
    expect(setCookie).not.toContain('Secure');

    const cookie = t.cookieOf(response);
    const teams = await t.request('GET', '/api/teams', { cookie });
    expect(teams.body.teams.map((team: { name: string }) => team.name)).toEqual(['General']);
  });

  it('uses org_name when given and gives each organisation its own slug', async () => {
    const first = await t.signUp({ org_name: 'Acme Rockets' });
    const second = await t.signUp({ org_name: 'Acme Rockets' });
    expect(first.org.slug).toBe('acme-rockets');
    expect(second.org.slug).toBe('acme-rockets-2');
    expect(second.org.id).not.toBe(first.org.id);
  });

  it('signs tokens with the claims of docs/api-decisions.md: HS256, sub, email, name, role, org, iss, aud, 7-day exp', async () => {
    const { cookie, user, org } = await t.signUp();
    const header = JSON.parse(Buffer.from((cookie.split('=')[1] ?? '').split('.')[0] ?? '', 'base64url').toString('utf8'));
    expect(header.alg).toBe('HS256');
    const payload = payloadOf(cookie);
    expect(payload).toMatchObject({ sub: user.id, email: user.email, name: user.name, role: 'admin', org: org.id });
    expect(payload.iss).toBeTypeOf('string');
    expect(payload.aud).toBeTypeOf('string');
    expect(Number(payload.exp) - Number(payload.iat)).toBe(7 * 24 * 3600);
  });

  it('answers 409 for an email already registered, whatever its case', async () => {
    const { email } = await t.signUp();
    const again = await t.request('POST', '/api/signup', {
      body: { name: 'Someone', email: email.toUpperCase(), password: 'another password' },
    });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: 'an account with this email already exists' });
  });

  it('gives exactly one account when the same email signs up in parallel', async () => {
    const email = t.uniqueEmail('race');
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => t.request('POST', '/api/signup', { body: { name: 'Racer', email, password: 'parallel pass' } })),
    );
    expect(responses.filter((response) => response.status === 201)).toHaveLength(1);
    expect(responses.filter((response) => response.status === 409)).toHaveLength(7);
  });

  it.each([
    [{ email: 'x@example.com', password: 'long enough' }, 'name'],
    [{ name: '   ', email: 'x@example.com', password: 'long enough' }, 'name'],
    [{ name: 'N', email: 'not-an-email', password: 'long enough' }, 'email'],
    [{ name: 'N', email: 'x@example.com', password: 'short' }, 'password'],
    [{ name: 'N', email: 'x@example.com', password: 'p'.repeat(257) }, 'password'],
    [{ name: 'N', email: 'x@example.com' }, 'password'],
    [{ name: 'N'.repeat(101), email: 'x@example.com', password: 'long enough' }, 'name'],
    [{ name: 'bell\u0007', email: 'x@example.com', password: 'long enough' }, 'name'],
    [{ name: 'N', email: 'x@example.com', password: 'long enough', org_name: '' }, 'org_name'],
  ])('answers 400 naming the field for %j', async (body, field) => {
    const response = await t.request('POST', '/api/signup', { body });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('invalid request body');
    expect(response.body.details.map((detail: { path: string }) => detail.path)).toContain(field);
  });

  it('accepts passwords of exactly 8 and 256 characters', async () => {
    for (const password of ['8chars!!', 'p'.repeat(256)]) {
      const response = await t.request('POST', '/api/signup', { body: { name: 'Edge', email: t.uniqueEmail(), password } });
      expect(response.status).toBe(201);
    }
  });
});

describe('POST /api/auth/login', () => {
  it('signs in with the right password and sets a working cookie', async () => {
    const { email, user } = await t.signUp({ password: 'the right one' });
    const response = await t.request('POST', '/api/auth/login', { body: { email: email.toUpperCase(), password: 'the right one' } });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ user });
    const session = await t.request('GET', '/api/auth/session', { cookie: t.cookieOf(response) });
    expect(session.body.user.id).toBe(user.id);
  });

  it('gives the same answer, through the same password check, for an unknown email and a wrong password', async () => {
    const { email } = await t.signUp({ password: 'the right one' });
    const verify = vi.spyOn(t.deps.passwords, 'verify');
    const wrongPassword = await t.request('POST', '/api/auth/login', { body: { email, password: 'the wrong one' } });
    const unknownEmail = await t.request('POST', '/api/auth/login', {
      body: { email: t.uniqueEmail('nobody'), password: 'the wrong one' },
    });
    expect(wrongPassword.status).toBe(401);
    expect(unknownEmail.status).toBe(401);
    expect(unknownEmail.body).toEqual(wrongPassword.body);
    expect(wrongPassword.body).toEqual({ error: 'invalid email or password' });
    expect(wrongPassword.headers.get('set-cookie')).toBeNull();
    // Both paths ran one full scrypt verification (the unknown email against a dummy hash).
    expect(verify).toHaveBeenCalledTimes(2);
    expect(verify.mock.calls[0]?.[1]).toMatch(/^scrypt\$/);
    expect(verify.mock.calls[1]?.[1]).toBeUndefined();
    verify.mockRestore();
  });

  it('throttles an email after repeated failures with 429 and Retry-After, then lets it in after the window', async () => {
    const { email } = await t.signUp({ password: 'the right one' });
    // Start at the beginning of a throttle window so the whole sequence falls into one.
    const windowMs = LOGIN_WINDOW_SECONDS * 1000;
    t.clock.set(new Date(Math.ceil(t.clock.now().getTime() / windowMs) * windowMs + 1000));
    for (let attempt = 0; attempt < LOGIN_FAILURE_LIMIT; attempt += 1) {
      const failed = await t.request('POST', '/api/auth/login', { body: { email, password: 'guess' }, headers: fromOneClient });
      expect(failed.status).toBe(401);
    }
    const throttled = await t.request('POST', '/api/auth/login', { body: { email, password: 'the right one' }, headers: fromOneClient });
    expect(throttled.status).toBe(429);
    expect(throttled.body.error).toMatch(/too many failed logins/);
    const retryAfter = Number(throttled.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(LOGIN_WINDOW_SECONDS);

    // Another email is not affected.
    const other = await t.signUp({ password: 'other password' });
    const otherLogin = await t.request('POST', '/api/auth/login', { body: { email: other.email, password: 'other password' } });
    expect(otherLogin.status).toBe(200);

    t.clock.advance(retryAfter * 1000);
    const later = await t.request('POST', '/api/auth/login', { body: { email, password: 'the right one' }, headers: fromOneClient });
    expect(later.status).toBe(200);
  });

  it('throttles unknown emails the same way', async () => {
    const email = t.uniqueEmail('ghost');
    const statuses: number[] = [];
    for (let attempt = 0; attempt <= LOGIN_FAILURE_LIMIT; attempt += 1) {
      statuses.push((await t.request('POST', '/api/auth/login', { body: { email, password: 'guess' }, headers: fromOneClient })).status);
    }
    expect(statuses.at(-1)).toBe(429);
  });

  it('answers 400 for a body without email or password', async () => {
    const response = await t.request('POST', '/api/auth/login', { body: { email: 'a@example.com' } });
    expect(response.status).toBe(400);
    expect(response.body.details[0].path).toBe('password');
  });
});

describe('GET /api/auth/session', () => {
  it('is null without a cookie', async () => {
    const response = await t.request('GET', '/api/auth/session');
    expect(response.status).toBe(200);
    expect(response.body).toBeNull();
  });

  it('shows the user and expiry with a valid cookie', async () => {
    const { cookie, user, org } = await t.signUp();
    const response = await t.request('GET', '/api/auth/session', { cookie });
    expect(response.body).toEqual({
      user: { id: user.id, email: user.email, name: user.name, role: 'admin', org_id: org.id },
      expires_at: new Date(Number(payloadOf(cookie).exp) * 1000).toISOString(),
    });
  });
});

describe('GET /api/auth/logout', () => {
  it('expires the cookie', async () => {
    const response = await t.request('GET', '/api/auth/logout');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
    const setCookie = response.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^service_session=;/);
    expect(setCookie).toContain('Max-Age=0');
    expect(setCookie).toContain('Path=/');
  });
});

describe('session tokens', () => {
  const key = new TextEncoder().encode(TEST_SESSION_SECRET);

  async function claimsOf(cookieOwner: Awaited<ReturnType<TestContext['signUp']>>) {
    return payloadOf(cookieOwner.cookie);
  }

  async function expectRefused(token: string) {
    const protectedResponse = await t.request('GET', '/api/org', { cookie: `service_session=${token}` });
    expect(protectedResponse.status).toBe(401);
    expect(protectedResponse.body).toEqual({ error: 'authentication required' });
    const session = await t.request('GET', '/api/auth/session', { cookie: `service_session=${token}` });
    expect(session.body).toBeNull();
  }

  it('refuses a token with alg none', async () => {
    const claims = await claimsOf(await t.signUp());
    await expectRefused(new UnsecuredJWT(claims).encode());
  });

  it('refuses a token signed with another key', async () => {
    const claims = await claimsOf(await t.signUp());
    const forged = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('another-secret-that-is-long-enough-123'));
    await expectRefused(forged);
  });

  it('refuses a token signed with another HMAC algorithm', async () => {
    const claims = await claimsOf(await t.signUp());
    await expectRefused(await new SignJWT(claims).setProtectedHeader({ alg: 'HS512' }).sign(key));
  });

  it('refuses an expired token', async () => {
    const admin = await t.signUp();
    t.clock.advance(7 * 24 * 3600 * 1000 + 1000);
    const response = await t.request('GET', '/api/org', { cookie: admin.cookie });
    expect(response.status).toBe(401);
    t.clock.advance(-(7 * 24 * 3600 * 1000 + 1000));
    expect((await t.request('GET', '/api/org', { cookie: admin.cookie })).status).toBe(200);
  });

  it('refuses a token whose payload was changed (role raised)', async () => {
    const member = await t.addMember((await t.signUp()).cookie);
    const [header, payload, signature] = (member.cookie.split('=')[1] ?? '').split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8'));
    const raised = Buffer.from(JSON.stringify({ ...claims, role: 'admin' })).toString('base64url');
    await expectRefused(`${header}.${raised}.${signature}`);
  });

  it('refuses tokens with the wrong issuer or audience', async () => {
    const claims = await claimsOf(await t.signUp());
    await expectRefused(await new SignJWT({ ...claims, iss: 'someone-else' }).setProtectedHeader({ alg: 'HS256' }).sign(key));
    await expectRefused(await new SignJWT({ ...claims, aud: 'another-api' }).setProtectedHeader({ alg: 'HS256' }).sign(key));
  });

  it('refuses garbage', async () => {
    await expectRefused('not-a-jwt');
    await expectRefused('');
  });
});
