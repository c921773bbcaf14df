import type { Deps } from '../../deps.js';
import { createRouter, orgIdOf } from '../../http/router.js';
import { bindingOf, clearBindingCookie, setBindingCookie } from './binding.js';
import { deleteSso, putSso, readSso, ssoRedirectUri, ssoView } from './config.js';
import { finishSsoSignIn, startSsoSignIn, testSsoProvider } from './flow.js';
import { ssoRouteDefinitions as routes } from './route-definitions.js';
import { startSession } from '../cookie.js';

/** `/api/org/sso` and the sign-in through it (the session cookie as a password sign-in sets it). */
export function ssoRoutes(deps: Deps) {
  return createRouter()
    .openapi(routes.get.route, async (c) => {
      const item = await readSso(deps, orgIdOf(c));
      return c.json({ sso: item ? ssoView(item, ssoRedirectUri(deps, new URL(c.req.url).origin)) : null }, 200);
    })
    .openapi(routes.put.route, async (c) => {
      const principal = c.get('principal');
      const item = await putSso(deps, { orgId: principal.orgId, userId: principal.userId }, c.req.valid('json'));
      return c.json({ sso: ssoView(item, ssoRedirectUri(deps, new URL(c.req.url).origin)) }, 200);
    })
    .openapi(routes.test.route, async (c) => c.json(await testSsoProvider(deps, c.req.valid('json')), 200))
    .openapi(routes.remove.route, async (c) => {
      await deleteSso(deps, orgIdOf(c));
      return c.json({ status: 'ok' as const }, 200);
    })
    .openapi(routes.start.route, async (c) => {
      const request = { email: c.req.valid('query').email, origin: new URL(c.req.url).origin, address: c.get('clientAddress') };
      const { location, binding } = await startSsoSignIn(deps, request);
      setBindingCookie(c, binding);
      return c.redirect(location, 302);
    })
    .openapi(routes.callback.route, async (c) => {
      const user = await finishSsoSignIn(deps, c.req.valid('query'), bindingOf(c));
      clearBindingCookie(c);
      await startSession(deps, c, user, 'sso');
      return c.redirect('/', 302);
    });
}
