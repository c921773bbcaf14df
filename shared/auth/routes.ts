import type { Context } from 'hono';
import { deleteCookie, getCookie } from 'hono/cookie';
import type { Deps } from '../deps.js';
import { createRouter, type AppEnv } from '../http/router.js';
import { toUser } from '../org/index.js';
import { logIn, signUp, signupState } from './accounts.js';
import { assertPasswordSignInAllowed } from './sso/flow.js';
import { startSession } from './cookie.js';
import { changeOwnPassword, readProfile, renameSelf } from './profile.js';
import { readSession, revokeSession } from './sessions.js';
import { SESSION_COOKIE } from './tokens.js';

import { authRouteDefinitions } from './route-definitions.js';

export function authRoutes(deps: Deps) {
  return createRouter()
    .openapi(authRouteDefinitions.signup.route, async (c) => {
      const { user, org } = await signUp(deps, c.req.valid('json'), c.get('clientAddress'));
      await startSession(deps, c, { ...user, org_id: org.id });
      return c.json({ user, org }, 201);
    })
    .openapi(authRouteDefinitions.signupState.route, async (c) => c.json(await signupState(deps), 200))
    .openapi(authRouteDefinitions.login.route, async (c) => {
      const { email, password } = c.req.valid('json');
      // An organisation that requires single sign-on takes no password (but from the admin who configured it),
      // refused before the password is checked: the same answer whatever it is.
      await assertPasswordSignInAllowed(deps, email);
      const user = await logIn(deps, email, password, c.get('clientAddress'));
      await startSession(deps, c, user, 'password');
      return c.json({ user: toUser(user) }, 200);
    })
    .openapi(authRouteDefinitions.session.route, async (c) => {
      const principal = await readSession(deps, getCookie(c, SESSION_COOKIE));
      if (!principal) return c.json(null, 200);
      const { userId, email, name, role, orgId, expiresAt } = principal;
      return c.json({ user: { id: userId, email, name, role, org_id: orgId }, expires_at: expiresAt.toISOString() }, 200);
    })
    .openapi(authRouteDefinitions.logout.route, async (c) => {
      const principal = await readSession(deps, getCookie(c, SESSION_COOKIE));
      if (principal?.sessionId) await revokeSession(deps, principal.sessionId);
      return expireCookie(deps, c);
    })
    .openapi(authRouteDefinitions.logoutGet.route, (c) => expireCookie(deps, c))
    .openapi(authRouteDefinitions.getMe.route, async (c) => c.json(await readProfile(deps, c.get('principal')), 200))
    .openapi(authRouteDefinitions.putMe.route, async (c) => {
      const user = await renameSelf(deps, c.get('principal'), c.req.valid('json').name);
      return c.json({ user }, 200);
    })
    .openapi(authRouteDefinitions.changePassword.route, async (c) => {
      await changeOwnPassword(deps, c.get('principal'), c.req.valid('json'), c.get('clientAddress'));
      return c.json({ status: 'ok' as const }, 200);
    });
}

function expireCookie(deps: Deps, c: Context<AppEnv>) {
  deleteCookie(c, SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'Lax', secure: deps.config.production });
  return c.json({ status: 'ok' as const }, 200);
}
