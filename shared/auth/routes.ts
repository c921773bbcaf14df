import { createRoute } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { Deps } from '../deps.js';
import { readSession } from '../http/middleware.js';
import { createRouter, type AppEnv } from '../http/router.js';
import { StatusOkSchema, conflictError, jsonBody, jsonResponse, validationErrors } from '../http/schemas.js';
import { ErrorSchema } from '../http/schemas.js';
import { toUser } from '../org/users.js';
import { logIn, signUp } from './accounts.js';
import { LoginBody, LoginResponse, SessionSchema, SignupBody, SignupResponse } from './schemas.js';
import { createSession, revokeSession } from './sessions.js';
import { SESSION_COOKIE, SESSION_LIFETIME_SECONDS, type SessionUser } from './tokens.js';

const tags = ['auth'];

const signupRoute = createRoute({
  method: 'post',
  path: '/signup',
  tags,
  summary: 'Create an organisation and its first (admin) user; sets the session cookie',
  request: { body: jsonBody(SignupBody) },
  responses: {
    201: jsonResponse(SignupResponse, 'account created'),
    ...validationErrors,
    ...conflictError,
  },
});

const loginRoute = createRoute({
  method: 'post',
  path: '/auth/login',
  tags,
  summary: 'Sign in; sets the session cookie',
  request: { body: jsonBody(LoginBody) },
  responses: {
    200: jsonResponse(LoginResponse, 'signed in'),
    ...validationErrors,
    401: jsonResponse(ErrorSchema, 'invalid email or password'),
    429: jsonResponse(ErrorSchema, 'too many failed logins for this email (see Retry-After)'),
  },
});

const sessionRoute = createRoute({
  method: 'get',
  path: '/auth/session',
  tags,
  summary: 'The current session, or null',
  responses: { 200: jsonResponse(SessionSchema, 'the session, or null when not signed in') },
});

const logout = { path: '/auth/logout', tags, responses: { 200: jsonResponse(StatusOkSchema, 'signed out') } } as const;

const logoutRoute = createRoute({ ...logout, method: 'post', summary: 'Sign out: revokes the session everywhere and expires its cookie' });

const logoutGetRoute = createRoute({
  ...logout,
  method: 'get',
  summary: 'Sign out in this browser: expires the session cookie (use POST to also revoke the session)',
  description:
    'Kept for clients of the GET form. A GET changes nothing on the server (a link on another site could call it), so a copy of the cookie keeps working until it expires or POST revokes it.',
});

async function startSession(deps: Deps, c: Context<AppEnv>, user: SessionUser): Promise<void> {
  const { token, expiresAt } = await createSession(deps, user);
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'Lax',
    path: '/',
    secure: deps.config.production,
    maxAge: SESSION_LIFETIME_SECONDS,
    expires: expiresAt,
  });
}

export function authRoutes(deps: Deps) {
  return createRouter()
    .openapi(signupRoute, async (c) => {
      const { user, org } = await signUp(deps, c.req.valid('json'), c.get('clientAddress'));
      await startSession(deps, c, { ...user, org_id: org.id });
      return c.json({ user, org }, 201);
    })
    .openapi(loginRoute, async (c) => {
      const { email, password } = c.req.valid('json');
      const user = await logIn(deps, email, password, c.get('clientAddress'));
      await startSession(deps, c, user);
      return c.json({ user: toUser(user) }, 200);
    })
    .openapi(sessionRoute, async (c) => {
      const principal = await readSession(deps, getCookie(c, SESSION_COOKIE));
      if (!principal) return c.json(null, 200);
      const { userId, email, name, role, orgId, expiresAt } = principal;
      return c.json({ user: { id: userId, email, name, role, org_id: orgId }, expires_at: expiresAt.toISOString() }, 200);
    })
    .openapi(logoutRoute, async (c) => {
      const principal = await readSession(deps, getCookie(c, SESSION_COOKIE));
      if (principal?.sessionId) await revokeSession(deps, principal.sessionId);
      return expireCookie(deps, c);
    })
    .openapi(logoutGetRoute, (c) => expireCookie(deps, c));
}

function expireCookie(deps: Deps, c: Context<AppEnv>) {
  deleteCookie(c, SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'Lax', secure: deps.config.production });
  return c.json({ status: 'ok' as const }, 200);
}
