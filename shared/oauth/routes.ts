import type { Deps } from '../deps.js';
import { createRouter } from '../http/router.js';
import { listClients, revokeClient } from './clients.js';
import { consentRequest, decide } from './interactions.js';
import { oauthRouteDefinitions as defs } from './route-definitions.js';

/** The consent page's API and the connected clients (docs/mcp-gateway.md). */
export function oauthRoutes(deps: Deps) {
  return createRouter()
    .openapi(defs.consentRequest.route, async (c) =>
      c.json(await consentRequest(deps, c.get('principal'), c.req.raw, c.req.valid('param').uid), 200),
    )
    .openapi(defs.decide.route, async (c) =>
      c.json(await decide(deps, c.get('principal'), c.req.raw, c.req.valid('param').uid, c.req.valid('json').decision), 200),
    )
    .openapi(defs.myClients.route, async (c) => c.json({ clients: await listClients(deps, c.get('principal'), 'mine') }, 200))
    .openapi(defs.revokeMyClient.route, async (c) => {
      await revokeClient(deps, c.get('principal'), 'mine', c.req.valid('param').id);
      return c.json({ status: 'ok' as const }, 200);
    })
    .openapi(defs.orgClients.route, async (c) => c.json({ clients: await listClients(deps, c.get('principal'), 'org') }, 200))
    .openapi(defs.revokeOrgClient.route, async (c) => {
      await revokeClient(deps, c.get('principal'), 'org', c.req.valid('param').id);
      return c.json({ status: 'ok' as const }, 200);
    });
}
