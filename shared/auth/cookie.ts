import type { Context } from 'hono';
import { setCookie } from 'hono/cookie';
import type { Deps } from '../deps.js';
import type { AppEnv } from '../http/router.js';
import { createSession, type SignInMethod } from './sessions.js';
import { SESSION_COOKIE, SESSION_LIFETIME_SECONDS, type SessionUser } from './tokens.js';

/**
 * Signs a user in: a new session, and its cookie on the answer (sign-up, password sign-in, single sign-on).
 * The cookie's lifetime is Max-Age alone, as the sign-on binding's is: an Expires from the service's
 * clock would be checked by hono against the machine's (`Date.now()`), and refused (a 500) whenever
 * the two are more than 400 days less the session's lifetime apart; browsers let Max-Age win anyway.
 */
export async function startSession(deps: Deps, c: Context<AppEnv>, user: SessionUser, method: SignInMethod = 'password'): Promise<void> {
  const { token } = await createSession(deps, user, method);
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'Lax',
    path: '/',
    secure: deps.config.production,
    maxAge: SESSION_LIFETIME_SECONDS,
  });
}
