import type { Deps } from '../deps.js';
import { createRouter, orgIdOf } from '../http/router.js';
import { scimRouteDefinitions as routes } from './route-definitions.js';
import { createScimToken, deleteScimToken, scimBaseUrl, scimStatus } from './token.js';

/** `/api/org/scim`: the admins' side of provisioning (the token and its state). */
export function scimAdminRoutes(deps: Deps) {
  const baseUrl = (url: string) => scimBaseUrl(deps, new URL(url).origin);
  return createRouter()
    .openapi(routes.status.route, async (c) => c.json({ scim: await scimStatus(deps, orgIdOf(c), baseUrl(c.req.url)) }, 200))
    .openapi(routes.createToken.route, async (c) => {
      const principal = c.get('principal');
      return c.json(await createScimToken(deps, { orgId: principal.orgId, userId: principal.userId }, baseUrl(c.req.url)), 201);
    })
    .openapi(routes.deleteToken.route, async (c) => {
      await deleteScimToken(deps, orgIdOf(c));
      return c.json({ status: 'ok' as const }, 200);
    });
}
